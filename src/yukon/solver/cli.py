"""``yukon solve``: decide a deal or a position; ``yukon analyze``: find the move that lost a game.

``solve`` exit status: 0 won, 1 lost, 3 unknown (a limit was hit), 2 bad input.
``analyze`` exit status: 0 answered, 3 undecided positions leave the answer open, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..cli_common import (
    CommandError,
    add_numbering_option,
    add_rules_options,
    game_from_args,
    plural,
    positive_int,
    positive_number,
    read_position_arg,
    time_limit_option,
)

EXIT_STATUS = {"won": 0, "lost": 1, "unknown": 3}


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "solve", help="can this deal or position be won, and how",
        description="Solve a deal (--variant/--seed) or a position (JSON file, - for stdin, or the one-line "
        "form). The solver sees face-down cards. Exit status: 0 won, 1 lost, 3 unknown, 2 bad input.",
    )
    p.add_argument("position", nargs="?", help="a JSON file, - for standard input, or the one-line form")
    add_rules_options(p, variant_default=None)
    p.add_argument("--seed", "-s", default=None, help="deal number (with --variant)")
    add_numbering_option(p)
    p.add_argument("--time-limit", "-t", default="30", help="seconds, or 'none' (default 30)")
    p.add_argument("--node-limit", default=None, help="positions to examine at most")
    p.add_argument("--memory-limit", default="1.8", help="GB for the position table (default 1.8)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--show", action="store_true", help="replay the winning line as layouts")
    p.set_defaults(func=run)

    from .analyze_cli import add_analyze_parser

    add_analyze_parser(sub)


def run(args: argparse.Namespace) -> int:
    from . import solve

    if args.position is not None:
        if args.seed is not None or args.variant is not None or args.numbering is not None:
            raise CommandError("give either a position or --variant/--seed/--numbering, not both")
        game = read_position_arg(args.position)
    else:
        if args.seed is None:
            raise CommandError("give a position, or a deal with --seed N (and --variant V)")
        args.variant = "yukon" if args.variant is None else args.variant
        game = game_from_args(args)
    time_limit = time_limit_option(args.time_limit)
    node_limit = None if args.node_limit is None else positive_int(args.node_limit, "--node-limit")
    memory_limit = max(1, int(positive_number(args.memory_limit, "--memory-limit") * 1e9))
    result = solve(game, time_limit=time_limit, node_limit=node_limit, memory_limit=memory_limit)
    if args.json:
        data = result.to_dict()
        data["position"] = game.to_text()
        print(json.dumps(data))
        return EXIT_STATUS[result.status]
    rate = result.nodes / result.seconds if result.seconds > 0 else 0.0
    what = {"won": "WON: this position can be won",
            "lost": "LOST: no sequence of moves wins this position",
            "unknown": f"UNKNOWN: stopped by the {result.reason or 'limit'} before deciding"}[result.status]
    print(what)
    # the two proofs made before any search (rules 3 and 4) name their cards on a line of their own
    proofs = {"stuck: ": "these cards can never leave their places",
              "never up: ": "these cards can never reach their foundations"}
    proof = next((p for p in proofs if result.status == "lost" and result.reason.startswith(p)), None)
    if proof:
        print(f"{proofs[proof]}: {result.reason.removeprefix(proof)}")
    # (a greedy probe or a relaxation decides without the search's table of visited positions)
    table = (f", table peak {result.peak_table:,}" if result.peak_table else ", before any search" if proof
             else f", by the {result.reason or 'search'}")
    examined = f"{result.nodes:,} position{'' if result.nodes == 1 else 's'} examined"
    print(f"{result.seconds:.3f} s, {examined} ({rate:,.0f}/s){table}")
    if result.status == "won" and not result.moves:  # (not "winning line (0 moves):" over an empty line)
        print("the position is already won: every card is on the foundations")
    elif result.status == "won":
        print(f"winning line ({plural(len(result.moves), 'move')}):")
        print(" ".join(str(m) for m in result.moves))
        if args.show:
            from rich.console import Console

            from ..render import layout_rich

            console = Console()
            g = game.copy()
            console.print(layout_rich(g))
            for i, m in enumerate(result.moves, 1):
                g.push(m)
                console.rule(f"{i}. {m}")
                console.print(layout_rich(g))
    sys.stdout.flush()
    return EXIT_STATUS[result.status]
