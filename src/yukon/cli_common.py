"""Argument helpers shared by every ``yukon`` subcommand (engine-level only)."""

from __future__ import annotations

import argparse
import math
import os
import re
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from .deal import MAX_SEED, parse_seed
from .errors import YukonError, shown
from .game import Game
from .position import read_position
from .pysolfc import NUMBERINGS, parse_game_number
from .rules import OPTIONS, VARIANTS, Rules, rules_for


class CommandError(Exception):
    """A user error: printed as one line, exit status 2."""


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line (``yukon: error: ...``), exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"yukon: error: {message} (see '{self.prog} --help')\n")


#: the exit status of a command ended by Ctrl-C (128 + SIGINT), as a shell reports a program killed by it
EXIT_INTERRUPTED = 130


#: the exit status of a command whose reader of stdout went away (128 + SIGPIPE), as a tool killed by it
EXIT_BROKEN_PIPE = 141


def stdout_to_devnull() -> None:
    """Point stdout at the null device, so that the exit's flush of what is left says nothing (its reader
    is gone)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # a stdout with no file descriptor (a test's capture): nothing to quiet
        pass


def run_script(main: Callable[[], int | None]) -> NoReturn:
    """Run a script's ``main`` (bench/*.py) and exit with its status; Ctrl-C ends it quietly with
    :data:`EXIT_INTERRUPTED`, as the ``yukon`` commands do, not with a Python traceback, and so does a
    reader of its output that stops early (``python bench/agents.py | head -3``: :data:`EXIT_BROKEN_PIPE`).

    Used as ``if __name__ == "__main__": run_script(main)``.
    """
    try:
        code = main()
        sys.stdout.flush()  # (a reader gone is found here, not in the interpreter's last flush at exit)
    except KeyboardInterrupt:
        code = EXIT_INTERRUPTED
    except BrokenPipeError:
        stdout_to_devnull()
        code = EXIT_BROKEN_PIPE
    sys.exit(code)


def ignore_interrupt() -> None:
    """A script's pool worker initializer (``multiprocessing.Pool(n, initializer=ignore_interrupt)``).

    Ctrl-C goes to the whole process group: each worker would print its own KeyboardInterrupt traceback.
    The parent alone takes it (:func:`run_script`); leaving the pool's ``with`` terminates the workers.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)


_NUMBER = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def positive_number(text: object, option: str) -> float:
    """``text`` (an option's value) as a positive, finite number written in ASCII (``float`` would take
    ``'nan'``, ``'inf'``, ``'-1'`` and ``'１'``); :class:`CommandError` naming ``option`` otherwise."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        text = repr(text)
    value = math.nan
    if isinstance(text, str) and _NUMBER.fullmatch(text.strip()):
        value = float(text)
    if not (math.isfinite(value) and value > 0):
        raise CommandError(f"{option} must be a positive number, not {shown(text)}")
    return value


def time_limit_option(text: object, option: str = "--time-limit", *, none_allowed: bool = True) -> float | None:
    """A time limit option's value in seconds: a positive number, or ``none``/``off`` (no limit) where
    ``none_allowed``; :class:`CommandError` naming ``option`` otherwise.

    The one check of every command's time limit (solve, analyze, study run), so that the same mistake
    (``-t 0``) gets the same message from each.
    """
    if none_allowed and isinstance(text, str) and text.strip().lower() in ("none", "off"):
        return None
    return positive_number(text, option)


#: the longest whole number an option takes (far past any limit or count; int() reads up to 4,300 digits)
_MOST_DIGITS = 100


def positive_int(text: object, option: str) -> int:
    """``text`` as a positive whole number written in ASCII digits; :class:`CommandError` otherwise."""
    if isinstance(text, int) and not isinstance(text, bool) and text > 0:
        return text
    if not (isinstance(text, str) and text.strip().isascii() and text.strip().isdigit()):
        raise CommandError(f"{option} must be a positive whole number, not {shown(text)}")
    digits = text.strip().lstrip("0") or "0"
    if len(digits) > _MOST_DIGITS:  # (int() refuses 4,300 digits with a ValueError; no limit is near this)
        raise CommandError(f"{option} must be a positive whole number of at most {_MOST_DIGITS} digits, "
                           f"not {shown(text)}")
    if int(digits) <= 0:
        raise CommandError(f"{option} must be a positive whole number, not {shown(text)}")
    return int(digits)


def path_arg(text: str) -> Path:
    """An argparse ``type`` for a file or folder option: ``Path(text)``, refusing an empty one.

    ``Path("")`` is the current folder, so ``--plots "$DIR"`` with the variable unset would write there
    without a word; argparse makes the refusal one line naming the option.
    """
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path (an unset shell variable?): give one, or leave the option out")
    return Path(text)


def check_new_file(path: Path, option: str) -> None:
    """A file (or folder) a command is to make at ``path``, given by ``option``: its folder must exist.

    The rule of every ``yukon`` command: it makes the file or folder named, never the folders above it
    (``--db``, ``--output``, ``--plots``). A missing folder is most often a typo or a disk not mounted,
    and a study can run for hours into a folder nobody meant; :class:`CommandError` (one line) before
    anything is written.
    """
    if not path.parent.is_dir():
        raise CommandError(f"cannot create {path} ({option}): folder {path.parent} does not exist")


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an s unless ``n`` is one.

    >>> plural(1, "move"), plural(3, "position")
    ('1 move', '3 positions')
    """
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def seed_from_arg(text: str | None, numbering: str = "yukon") -> int | None:
    """``--seed``'s value as a deal number (None stays None); :class:`CommandError` naming the fault.

    PySolFC's game numbers run past this package's deal numbers (to 10**20 - 1): for them only the
    digits are read here, and :func:`yukon.pysolfc.check_game_number` judges the range.
    """
    if text is None:
        return None
    try:
        if numbering != "yukon" and isinstance(text, str) and re.fullmatch(r"[0-9]+", text.strip(), re.ASCII):
            return parse_game_number(text)
        return parse_seed(text)
    except YukonError as exc:
        raise CommandError(str(exc)) from None


def saved_seed_problem(seed: int | None) -> str:
    """Why a game that is saved (``yukon tui``, ``yukon play``, the web table) cannot have deal ``seed``, or "":
    the store keeps deal numbers up to 2**64 - 1, and PySolFC's game numbers run further (to 10**20 - 1)."""
    if seed is not None and seed > MAX_SEED:
        return (f"deal {seed} cannot be played here: saved games keep deal numbers up to {MAX_SEED} "
                "(yukon deal and yukon solve take PySolFC's numbers beyond that)")
    return ""


def check_saved_seed(seed: int | None) -> None:
    """:func:`saved_seed_problem` in one line of a command (``yukon play`` raised a ValueError traceback from the
    store)."""
    problem = saved_seed_problem(seed)
    if problem:
        raise CommandError(problem)


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


def add_numbering_option(parser: argparse.ArgumentParser, seed_option: str = "--seed") -> None:
    """``--numbering yukon|pysolfc``: whose deal numbers ``seed_option`` gives (default: this program's)."""
    parser.add_argument(
        "--numbering", choices=NUMBERINGS, default=None,
        help=f"whose deal numbers {seed_option} gives: yukon (this program's, the default) or pysolfc "
        "(PySolFC's game numbers; Yukon, Russian Solitaire, Alaska, Australian Patience)",
    )


def add_deal_options(parser: argparse.ArgumentParser) -> None:
    add_rules_options(parser)
    parser.add_argument("--seed", "-s", default=None, help="deal number (default: a random one)")
    add_numbering_option(parser)


def rules_from_args(args: argparse.Namespace) -> Rules:
    options: dict[str, object] = {}
    if getattr(args, "empty_column", None) is not None:
        options["empty_column"] = args.empty_column
    if getattr(args, "foundation_return", None) is not None:
        options["foundation_return"] = args.foundation_return
    # (an empty --variant, an unset shell variable, is an unknown variant: it played or studied Yukon)
    return rules_for("yukon" if args.variant is None else args.variant, **options)


def game_from_args(args: argparse.Namespace) -> Game:
    rules = rules_from_args(args)
    numbering = getattr(args, "numbering", None) or "yukon"
    seed = seed_from_arg(args.seed, numbering)
    try:
        return Game.deal(rules, seed=seed, numbering=numbering)
    except YukonError as exc:
        raise CommandError(str(exc)) from None


#: the longest position text read (a position's JSON, indented, is about 2 KB; its one-line form 200 bytes)
MAX_POSITION_CHARS = 1_000_000


def read_position_arg(value: str) -> Game:
    """A position given as a JSON file, ``-`` for standard input, or the one-line form."""
    if not value.strip():  # (before any file: Path("") is the current folder, "cannot read ...: Is a directory")
        raise CommandError("the position is empty")
    if value == "-":
        text = sys.stdin.read(MAX_POSITION_CHARS + 1)
        if len(text) > MAX_POSITION_CHARS:
            raise CommandError(f"the position on standard input is longer than {MAX_POSITION_CHARS:,} characters")
        text = text.removeprefix("\ufeff")
    elif value.strip().startswith(("{", "[")):
        text = value
    else:
        path = Path(value)
        looks_like_file = (
            len(value.split()) < 3 and (path.suffix.lower() in (".json", ".txt") or path.exists())
        )
        if looks_like_file:
            try:
                with path.open("rb") as file:  # (a bounded read: /dev/zero or a huge file is refused, not read)
                    raw = file.read(MAX_POSITION_CHARS + 1)
                if len(raw) > MAX_POSITION_CHARS:
                    raise CommandError(f"position file {shown(value)} is longer than {MAX_POSITION_CHARS:,} bytes: "
                                       "it is no position")
                text = raw.decode("utf-8-sig")  # (a Windows editor's byte order mark is no part of the position)
            except OSError as exc:
                raise CommandError(f"cannot read position file {shown(value)}: {exc.strerror}") from None
            except UnicodeDecodeError as exc:
                raise CommandError(f"cannot read position file {shown(value)}: not UTF-8 text ({exc.reason})") \
                    from None
        elif len(value.split()) == 1:  # (a file name mistyped, or a one-line position without its spaces)
            raise CommandError(f"invalid position: {shown(value)} is no file, and a one-line position has 3 "
                               "or 4 space-separated fields, not 1")
        else:
            text = value
    if not text.strip():
        raise CommandError("the position is empty")
    try:
        return read_position(text)
    except YukonError as exc:
        raise CommandError(f"invalid position: {exc}") from None
