"""Argument helpers shared by every ``yukon`` subcommand (engine-level only)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import YukonError
from .game import Game
from .position import read_position
from .pysolfc import NUMBERINGS
from .rules import OPTIONS, VARIANTS, Rules, rules_for


class CommandError(Exception):
    """A user error: printed as one line, exit status 2."""


def add_rules_options(parser: argparse.ArgumentParser, *, variant_default: str | None = "yukon") -> None:
    """``--variant``, ``--empty-column``, ``--foundation-return/--no-foundation-return``."""
    parser.add_argument(
        "--variant", "-v", default=variant_default,
        help=f"variant: {', '.join(VARIANTS)} (aliases such as russian-solitaire work too)",
    )
    parser.add_argument(
        "--empty-column", choices=OPTIONS["empty_column"], default=None,
        help="what may lead into an empty column (default: the variant's)",
    )
    parser.add_argument(
        "--foundation-return", action=argparse.BooleanOptionalAction, default=None,
        help="may the top card of a foundation go back to the tableau (default: the variant's)",
    )


def add_numbering_option(parser: argparse.ArgumentParser) -> None:
    """``--numbering yukon|pysolfc``: whose deal numbers ``--seed`` gives (default: this program's)."""
    parser.add_argument(
        "--numbering", choices=NUMBERINGS, default=None,
        help="whose deal numbers --seed gives: yukon (this program's, the default) or pysolfc "
        "(PySolFC's game numbers; Yukon, Russian Solitaire, Alaska, Australian Patience)",
    )


def add_deal_options(parser: argparse.ArgumentParser) -> None:
    add_rules_options(parser)
    parser.add_argument("--seed", "-s", type=int, default=None, help="deal number (default: a random one)")
    add_numbering_option(parser)


def rules_from_args(args: argparse.Namespace) -> Rules:
    options: dict[str, object] = {}
    if getattr(args, "empty_column", None) is not None:
        options["empty_column"] = args.empty_column
    if getattr(args, "foundation_return", None) is not None:
        options["foundation_return"] = args.foundation_return
    return rules_for(args.variant or "yukon", **options)


def game_from_args(args: argparse.Namespace) -> Game:
    rules = rules_from_args(args)
    try:
        return Game.deal(rules, seed=args.seed, numbering=getattr(args, "numbering", None) or "yukon")
    except ValueError as exc:
        raise CommandError(str(exc)) from None


def read_position_arg(value: str) -> Game:
    """A position given as a JSON file, ``-`` for standard input, or the one-line form."""
    if value == "-":
        text = sys.stdin.read()
    elif value.strip().startswith("{"):
        text = value
    else:
        path = Path(value)
        looks_like_file = (
            len(value.split()) < 3 and (path.suffix.lower() in (".json", ".txt") or path.exists())
        )
        if looks_like_file:
            try:
                text = path.read_text(encoding="utf-8")
            except OSError as exc:
                raise CommandError(f"cannot read position file {value!r}: {exc.strerror}") from None
            except UnicodeDecodeError as exc:
                raise CommandError(f"cannot read position file {value!r}: not UTF-8 text ({exc.reason})") from None
        else:
            text = value
    if not text.strip():
        raise CommandError("the position is empty")
    try:
        return read_position(text)
    except YukonError as exc:
        raise CommandError(f"invalid position: {exc}") from None
