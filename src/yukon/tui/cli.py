"""``yukon tui``: play in the terminal."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..cli_common import (
    CommandError,
    add_numbering_option,
    add_rules_options,
    check_saved_seed,
    rules_from_args,
    seed_from_arg,
)


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "tui", help="play in the terminal",
        description=(
            "Play Yukon and its family in the terminal. Without a deal option the latest unfinished "
            "terminal game resumes (or a random Yukon deal starts); with one, that deal starts."
        ),
    )
    add_rules_options(p, variant_default=None)
    p.add_argument("--seed", "-s", default=None, help="deal number (default: a random one)")
    add_numbering_option(p)
    p.add_argument("--db", default=None, metavar="FILE",
                   help="the statistics and saved-games store (default: yukon.sqlite3 in the user data directory)")
    p.add_argument("--record", type=Path, default=None, metavar="FILE",
                   help="open this game record (docs/records.md) to continue it: its moves are played, "
                        "undo steps back through them")
    p.add_argument("--winnable", action="store_true", help="start with the still-winnable indicator on")
    p.add_argument("--demo", action="store_true",
                   help="watch the computer play a new deal (it sees only what a player sees): space pauses, "
                        "+ and - set the speed, q quits; any move of yours takes over")
    p.set_defaults(func=_cmd_tui)


def _cmd_tui(args: argparse.Namespace) -> int:
    from ..game import Game
    from ..record import GameRecord
    from ..store import Store, StoreError
    from .app import YukonApp

    if args.demo and args.record is not None:
        raise CommandError("--demo plays a new deal: it takes no --record")
    record = None
    if args.record is not None:  # a bad record is refused before anything starts
        try:
            record = GameRecord.read(args.record)
        except (ValueError, OSError) as exc:
            raise CommandError(f"--record {args.record}: {exc}") from None
    rules = rules_from_args(args)
    chosen = any(getattr(args, k) is not None
                 for k in ("variant", "seed", "numbering", "empty_column", "foundation_return"))
    game = None
    if chosen and record is not None:
        raise CommandError("--record starts the record's game: it takes no deal option")
    if chosen or args.demo:  # the demo plays a new deal (a random one without --seed), never a saved game
        seed = seed_from_arg(args.seed, args.numbering or "yukon")
        check_saved_seed(seed)
        try:
            game = Game.deal(rules, seed=seed, numbering=args.numbering or "yukon")
        except ValueError as exc:
            raise CommandError(str(exc)) from None
    try:
        store = Store(args.db)
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"cannot open the store {args.db!r}: {exc}") from None
    session = None
    if record is not None:
        from .session import Session

        session = Session.from_game_record(record, store)
    try:
        YukonApp(store, game, rules=rules, winnable=args.winnable, session=session, demo=args.demo).run()
    finally:
        store.close()
    return 0
