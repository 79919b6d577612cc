"""How much :func:`yukon.solver.tidy.tidy_line` takes out of the analysis' winning lines (docs/records.md).

Games of Yukon deals ``--deals`` are played by random legal moves (a generator seeded by the deal) for
``--moves`` moves; for each one the analysis finds lost after a won position, the solver's continuation
from the position before the losing move is tidied, and the lengths before and after are printed.

    python bench/tidy.py --deals 1-30
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from honest_advice import parse_deals  # (bench/honest_advice.py, beside this script)

import yukon
from yukon.analysis import analyze
from yukon.cli_common import run_script
from yukon.solver.tidy import tidy_line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-30")
    parser.add_argument("--moves", type=int, default=25, help="random moves played before the analysis")
    args = parser.parse_args()
    before, after, seconds = [], [], []
    for deal in parse_deals(args.deals):
        game = yukon.Game.deal("yukon", seed=deal)
        rng = random.Random(deal)
        for _ in range(args.moves):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
        result = analyze(game, time_limit=2.0, total_limit=20.0)
        if result.losing_move is None:
            continue
        start = yukon.GameRecord.from_game(game).game(result.losing_move - 1)
        raw = yukon.solve(start, time_limit=10.0)
        if raw.status != "won":
            continue
        t = time.perf_counter()
        tidy = tidy_line(start, raw.moves)
        seconds.append(time.perf_counter() - t)
        before.append(len(raw.moves))
        after.append(len(tidy))
        print(f"deal {deal}: losing move {result.losing_move}, line {len(raw.moves)} -> {len(tidy)} moves "
              f"({seconds[-1] * 1000:.0f} ms)", flush=True)
    if before:
        print(f"{len(before)} lines: median {statistics.median(before)} -> {statistics.median(after)} moves, "
              f"{sum(before)} -> {sum(after)} in all ({100 * (1 - sum(after) / sum(before)):.0f}% fewer); "
              f"tidying took {statistics.median(seconds) * 1000:.0f} ms at the median, "
              f"{max(seconds) * 1000:.0f} ms at most")


if __name__ == "__main__":
    run_script(main)
