"""Watch the computer play (yukon.demo): how long each move's decision takes, and how fast a stop ends one.

Prints, on this machine:

1. the decision's time per move as the demo plays it (``WEB_BUDGET``, at most ``THINK_TIME`` = 2 s per
   decision): p50 / p90 / max wall and CPU seconds over the first ``--moves`` decisions of deals ``--deals``
   of Yukon, with how the decisions were made (safe, only move, samples, heuristic);
2. the stop latency: a decision with a budget far too large to finish is started in a thread, its stop
   event set after 0.3 s, and the time until it returns is measured (p50 / max over ``--stops`` tries).

    python bench/demo.py                  # deals 1-3, 15 moves each, 5 stops
    python bench/demo.py --deals 1-5 --moves 30
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from collections import Counter

from yukon import Game
from yukon.cli_common import run_script
from yukon.demo import THINK_TIME, decide, situation
from yukon.honest import WEB_BUDGET, Budget

ENDLESS = Budget(samples=100_000, nodes=2_000_000)


def deals(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1-3")
    parser.add_argument("--moves", type=int, default=15)
    parser.add_argument("--stops", type=int, default=5)
    args = parser.parse_args()

    wall: list[float] = []
    cpu: list[float] = []
    sources: Counter[str] = Counter()
    for seed in deals(args.deals):
        game = Game.deal("yukon", seed=seed)
        for _ in range(args.moves):
            t0, c0 = time.perf_counter(), time.process_time()
            decision = decide(*situation(game), WEB_BUDGET, THINK_TIME)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            sources[decision.source] += 1
            if decision.move is None:
                break
            game.push(decision.move)
    q = statistics.quantiles(wall, n=10)
    qc = statistics.quantiles(cpu, n=10)
    print(f"decisions: {len(wall)} (Yukon deals {args.deals}, up to {args.moves} moves each); "
          f"sources: {dict(sources)}")
    print(f"  wall p50 {statistics.median(wall):.2f} s, p90 {q[8]:.2f} s, max {max(wall):.2f} s; "
          f"CPU p50 {statistics.median(cpu):.2f} s, p90 {qc[8]:.2f} s, max {max(cpu):.2f} s")

    latencies = []
    view, seen, seed = situation(Game.deal("yukon", seed=7))

    def think(stop: threading.Event, done: list[float]) -> None:
        decide(view, seen, seed, ENDLESS, None, stop)
        done.append(time.perf_counter())

    for _ in range(args.stops):
        stop = threading.Event()
        done: list[float] = []
        thread = threading.Thread(target=think, args=(stop, done))
        thread.start()
        time.sleep(0.3)
        asked = time.perf_counter()
        stop.set()
        thread.join(30)
        latencies.append(done[0] - asked)
    print(f"stop latency over {args.stops} stops: p50 {statistics.median(latencies) * 1000:.1f} ms, "
          f"max {max(latencies) * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    run_script(main)
