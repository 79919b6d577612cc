"""Does the solver keep its time limit? Overshoot of ``solve`` and ``hint`` over a fuzz set of positions.

    python bench/limits.py                     # 1,000 positions, time limit 0.2 s
    python bench/limits.py --count 200 --time-limit 0.1 --seed 7

The fuzz set is reproducible (``--seed``): each position is a random deal of a random variant with random
rule options, then a random play-out of 0 to 150 legal moves (stopping early if the game ends). On each,
``yukon.solve(time_limit=T)`` and ``yukon.hint(time_limit=T)`` run once; the overshoot is the wall time
beyond T (negative when the call decided sooner). Prints max / p99 / p50 of the overshoot of each and how
many calls took longer than ``--allowed`` seconds (default 0.3), of wall time and of the calling thread's
CPU time (a loaded machine deschedules the process: wall time over the limit with CPU time under it is
the machine's, not the solver's), with the slowest positions. Exit 0.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from dataclasses import dataclass

from yukon import VARIANTS, Game
from yukon.cli_common import run_script
from yukon.rules import OPTIONS
from yukon.solver import hint, solve

#: longest random play-out from a deal
MAX_PLAYOUT = 150


def fuzz_positions(count: int, seed: int) -> list[Game]:
    """``count`` positions over every variant and rule option, the same for the same ``seed``."""
    rng = random.Random(seed)
    variants = sorted(VARIANTS)
    positions: list[Game] = []
    while len(positions) < count:
        variant = rng.choice(variants)
        options = {key: rng.choice(values) for key, values in OPTIONS.items()}
        game = Game.deal(variant, seed=rng.randrange(1 << 64), **options)
        for _ in range(rng.randrange(MAX_PLAYOUT + 1)):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
        positions.append(Game.from_text(game.to_text()))  # no history: what a caller would hand over
    return positions


@dataclass
class Timing:
    seconds: float  # wall time
    cpu: float  # CPU time of the calling thread (the compiled search's first thread runs on it)
    text: str
    status: str


def percentile(xs: list[float], q: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, round(q * (len(ys) - 1)))]


def report(name: str, timings: list[Timing], limit: float, allowed: float) -> None:
    over = [t.seconds - limit for t in timings]
    slow = sorted((t for t in timings if t.seconds > allowed), key=lambda t: -t.seconds)
    busy = [t for t in timings if t.cpu > allowed]
    print(f"{name}: {len(timings)} calls, overshoot max {max(over) * 1000:+.1f} ms, "
          f"p99 {percentile(over, 0.99) * 1000:+.1f} ms, p50 {statistics.median(over) * 1000:+.1f} ms; "
          f"{len(slow)} took over {allowed:g} s of wall time, {len(busy)} over {allowed:g} s of CPU time")
    for t in slow[:5]:
        print(f"  {t.seconds:.3f} s (CPU {t.cpu:.3f} s, {t.status}): {t.text}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=1000, help="positions in the fuzz set (default 1000)")
    parser.add_argument("--seed", type=int, default=23, help="seed of the fuzz set (default 23)")
    parser.add_argument("--time-limit", type=float, default=0.2, help="seconds given to each call (default 0.2)")
    parser.add_argument("--allowed", type=float, default=0.3, help="seconds a call may take (default 0.3)")
    args = parser.parse_args()
    started = time.perf_counter()
    positions = fuzz_positions(args.count, args.seed)
    print(f"{len(positions)} positions (fuzz seed {args.seed}) built in {time.perf_counter() - started:.1f} s; "
          f"time limit {args.time_limit:g} s")
    solves: list[Timing] = []
    hints: list[Timing] = []
    for game in positions:
        c0, t0 = time.thread_time(), time.perf_counter()
        result = solve(game, time_limit=args.time_limit)
        c1, t1 = time.thread_time(), time.perf_counter()
        suggestion = hint(game, time_limit=args.time_limit)
        c2, t2 = time.thread_time(), time.perf_counter()
        text = game.to_text()
        solves.append(Timing(t1 - t0, c1 - c0, text, result.status))
        hints.append(Timing(t2 - t1, c2 - c1, text, suggestion.source))
    report("solve", solves, args.time_limit, args.allowed)
    report("hint", hints, args.time_limit, args.allowed)
    statuses = {s: sum(t.status == s for t in solves) for s in ("won", "lost", "unknown")}
    load = f", load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores" if hasattr(os, "getloadavg") else ""
    print(f"solve verdicts: {statuses}; total {time.perf_counter() - started:.0f} s{load}")


if __name__ == "__main__":
    run_script(main)
