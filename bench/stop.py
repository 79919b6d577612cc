"""How soon a search ends after its stop event is set (the compiled search polls it by the clock).

    python bench/stop.py
    python bench/stop.py --variant milligan-yukon      # the compiled two-deck search

Hard Yukon deals (or hard Milligan Yukon deals) are searched with no time limit; a timer sets the stop event
after 0.3, 0.7 or 1.3 s, and the time from then to the return of ``yukon.solve``
is printed (median and worst, in milliseconds). Exits 0.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time

import yukon
from yukon.cli_common import run_script

SEEDS = (78, 91, 71, 183, 181)
#: Milligan Yukon deals whose search runs for seconds (solver 14: 291 undecided at 30 s without its probes)
MILLIGAN_SEEDS = (291, 663, 754, 180, 935)
DELAYS = (0.3, 0.7, 1.3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="yukon", choices=("yukon", "milligan-yukon"))
    variant = parser.parse_args().variant
    late: list[float] = []
    for seed in MILLIGAN_SEEDS if variant == "milligan-yukon" else SEEDS:
        game = yukon.Game.deal(variant, seed=seed)
        for delay in DELAYS:
            stop = threading.Event()
            timer = threading.Timer(delay, stop.set)
            started = time.perf_counter()
            timer.start()
            result = yukon.solve(game, time_limit=None, stop=stop)
            ended = time.perf_counter()
            timer.cancel()
            if result.status == "unknown":
                late.append((ended - started - delay) * 1000)
    if late:
        print(f"stop to return, ms: {len(late)} searches, median {statistics.median(late):.1f}, "
              f"worst {max(late):.1f}")
    else:
        print("every search ended before its stop event was set")


if __name__ == "__main__":
    run_script(main)
