"""Check the compiled search's own reductions (swap classes, undone swaps) on random positions.

Each position comes from a deal played at random for a while (``--deep``: Yukon only, mostly tableau
moves, 20-150 of them, where swaps abound; otherwise Yukon or Alaska under random options, 0-60
moves). The C search runs with and without the reductions (4 million nodes each); whenever both
decide, the verdicts must agree. Prints the counts and every disagreement; exits 1 if there is one.
With ``--keys`` it compares the link keys with the sorted-column keys instead (docs/solver-design.md, "Link
keys"): the same search, so the same verdict, nodes and classes stored, position for position.

    python bench/reductions.py --seeds 0-700 --deep
    python bench/reductions.py --seeds 0-700
    python bench/reductions.py --seeds 0-700 --deep --keys
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from yukon import Game
from yukon.cli_common import run_script
from yukon.solver.search import Limits, Searcher


def solve(game: Game, merge: bool) -> str:
    searcher = Searcher(game, Limits(node_limit=4_000_000))
    searcher.compiled_merge = merge
    return searcher.run_compiled().status


def solve_keys(game: Game, links: bool) -> str:
    """The verdict, nodes and classes stored, as one string (the two keys must give the same)."""
    searcher = Searcher(game, Limits(node_limit=4_000_000))
    searcher.compiled_links = links
    out = searcher.run_compiled()
    return f"{out.status} {out.stats.nodes} {out.stats.peak_table}"


def position(seed: int, deep: bool) -> Game:
    rnd = random.Random(seed)
    if deep:
        game = Game.deal("yukon", seed=seed, empty_column=rnd.choice(["kings", "any"]))
        plies = rnd.randint(20, 150)
    else:
        variant = rnd.choice(["yukon", "yukon", "alaska"])
        options = {"empty_column": rnd.choice(["kings", "any"]), "foundation_return": rnd.random() < 0.3}
        game = Game.deal(variant, seed=seed, **options)
        plies = rnd.randint(0, 60)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        tableau = [m for m in moves if m.dst < 16]
        pick = tableau if deep and tableau and rnd.random() < 0.85 else moves
        game.push(rnd.choice(pick))
    return game


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0-200", help="a range, e.g. 0-700")
    parser.add_argument("--deep", action="store_true", help="positions deep into Yukon games")
    parser.add_argument("--keys", action="store_true", help="link keys against sorted-column keys")
    args = parser.parse_args()
    first, last = (int(x) for x in args.seeds.split("-"))
    Searcher.compiled_threads = 1
    counts: Counter[tuple[str, str]] = Counter()
    bad = 0
    for seed in range(first, last):
        game = position(seed, args.deep)
        if args.keys:
            linked, columns = solve_keys(game, True), solve_keys(game, False)
            counts[(linked.split()[0], columns.split()[0])] += 1
            if linked != columns:
                bad += 1
                print(f"DIFFER seed {seed}: {game.to_text()} links {linked}, columns {columns}")
            continue
        with_reductions, without = solve(game, True), solve(game, False)
        counts[(with_reductions, without)] += 1
        if "unknown" not in (with_reductions, without) and with_reductions != without:
            bad += 1
            print(f"DISAGREE seed {seed}: {game.to_text()} with {with_reductions}, without {without}")
    first_label, second_label = ("links", "columns") if args.keys else ("with", "without")
    for (a, b), n in sorted(counts.items()):
        print(f"{first_label} {a:8} {second_label} {b:8} {n:5}")
    print(f"{sum(counts.values())} positions, {bad} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    run_script(main)
