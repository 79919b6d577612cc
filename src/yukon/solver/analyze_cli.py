"""``yukon analyze RECORD``: which move lost the game, and what would have won (docs/records.md).

Exit status: 0 answered, 3 undecided positions leave the answer open, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..cli_common import plural, time_limit_option

EXIT_OPEN = 3


def add_analyze_parser(sub: Any) -> None:
    p = sub.add_parser(
        "analyze", help="where did a game go wrong: the losing move and a winning continuation",
        description="Read a game record (a yukon-game JSON file, or - for standard input) and find the move "
        "after which the game could no longer be won, by a binary search over the game's positions with the "
        "solver (which sees face-down cards). Exit status: 0 answered, 3 positions the solver could not "
        "decide leave the answer open, 2 bad input.",
    )
    p.add_argument("record", help="a game record file (docs/records.md), or - for standard input")
    p.add_argument("--time-limit", "-t", default=None,
                   help="seconds for the solver on each position in the search (default 2)")
    p.add_argument("--total-limit", default=None,
                   help="seconds for the whole analysis (default 30): positions still undecided after the "
                   "search get what is left of it")
    p.add_argument("--json", action="store_true",
                   help='print {"start", "losing_move", "continuation", "unknown_moves"} as JSON')
    p.set_defaults(func=run_analyze)


def _read_record(value: str) -> Any:
    from ..record import MAX_RECORD_BYTES, GameRecord

    if value == "-":
        return GameRecord.read_stdin(sys.stdin.buffer.read(MAX_RECORD_BYTES + 1))
    return GameRecord.read(value)


def run_analyze(args: argparse.Namespace) -> int:
    from .. import analysis
    from ..analysis import DEFAULT_TIME_LIMIT, DEFAULT_TOTAL_LIMIT, range_text
    from ..render import layout_text

    # (the analysis needs a limit on each position and on the whole: 'none' is not one)
    given = time_limit_option(args.time_limit, none_allowed=False) if args.time_limit is not None else None
    given_total = (time_limit_option(args.total_limit, "--total-limit", none_allowed=False)
                   if args.total_limit is not None else None)
    record = _read_record(args.record)
    time_limit = given if given is not None else DEFAULT_TIME_LIMIT
    total_limit = given_total if given_total is not None else max(DEFAULT_TOTAL_LIMIT, time_limit)
    result = analysis.analyze(record, time_limit=time_limit, total_limit=total_limit)
    status = EXIT_OPEN if result.unknown_moves else 0
    if args.json:
        print(json.dumps(result.to_dict()))
        return status

    rules = record.start.rules
    what = rules.describe()
    if record.deal is not None:
        what += f", deal {record.deal.number}" + (
            f" ({record.deal.numbering} numbering)" if record.deal.numbering != "yukon" else "")
    print(f"{what}: {plural(result.moves, 'move')}")
    ended = {"won": "the game was won", "winnable": "the game was left while it could still be won",
             "lost": "the game ended lost", "unknown": "the solver could not decide its last position"}
    print(f"start: {result.start.upper()}; {ended[result.end]}.")
    if result.start == "lost":
        print("No sequence of moves wins the start: no move lost this game.")
    elif result.losing_move is not None:
        n = result.losing_move
        print(f"Move {n}, {record.moves[n - 1]}, lost the game: the position before it can be won, "
              "the one after it cannot.")
        before = record.game(n - 1)
        print(f"\nThe position before move {n}:")
        print(layout_text(before))
        print(before.to_text())
        print(f"\nA winning continuation from there ({plural(len(result.continuation), 'move')}):")
        print(" ".join(str(m) for m in result.continuation))
    elif result.losing_range is not None:
        later = [str(k) for k in result.unknown_moves if k > 0]
        after = (f"the {'positions' if len(later) > 1 else 'position'} after "
                 f"{'moves' if len(later) > 1 else 'move'} {', '.join(later)}") if later else ""
        if 0 in result.unknown_moves:
            after = "the start" + (f" and {after}" if after else "")
        print(f"Undecided within {time_limit:g} s each ({total_limit:g} s in all): {after}.")
        print(f"{range_text(result)}.")
    elif result.unknown_moves:
        print(f"The solver could not decide the start within {time_limit:g} s.")
    else:
        print("No move lost this game.")
    # (it said "N positions" with N the solver calls: an undecided position is asked again each round)
    print(f"\n(solver: {result.positions_asked} of the game's {plural(result.positions, 'position')}, "
          f"{plural(result.solver_calls, 'call')}, {result.seconds:.2f} s)")
    return status
