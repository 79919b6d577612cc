"""Engine speed: random playouts on fixed deals of every variant.

One playout step is ``legal_moves()`` on a position not seen before, then
``push()`` of one of its moves (chosen by a fixed-seed RNG); when the
playout ends (no legal move, or 200 steps) it is undone with ``pop()``, and
that time counts too. Also prints ``legal_moves()`` calls and push+pop pairs
per second on their own.

    python bench/engine.py [--seconds 3] [--variant yukon]
"""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.table import Table

from yukon import VARIANTS, Game
from yukon.cli_common import run_script

DEALS = range(1, 21)
MAX_STEPS = 200


def playout_rate(variant: str, seconds: float) -> tuple[float, float, float]:
    games = [Game.deal(variant, seed=s) for s in DEALS]
    rng = random.Random(12345)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    i = 0
    while time.perf_counter() < deadline:
        g = games[i % len(games)]
        i += 1
        n = 0
        while n < MAX_STEPS:
            moves = g.legal_moves()
            if not moves:
                break
            g.push(moves[rng.randrange(len(moves))])
            n += 1
        for _ in range(n):
            g.pop()
        steps += n
    elapsed = time.perf_counter() - start
    step_rate = steps / elapsed

    # legal_moves alone, and push+pop alone, over positions of a recorded playout
    positions: list[tuple[Game, list]] = []
    for s in DEALS:
        g = Game.deal(variant, seed=s)
        for _ in range(60):
            moves = g.legal_moves()
            if not moves:
                break
            positions.append((g.copy(), moves))
            g.push(moves[rng.randrange(len(moves))])
    calls = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds / 2:
        for g, _ in positions:
            g.legal_moves()
        calls += len(positions)
    lm_rate = calls / (time.perf_counter() - t0)
    pairs = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds / 2:
        for g, moves in positions:
            for m in moves:
                g.push(m)
                g.pop()
            pairs += len(moves)
    pp_rate = pairs / (time.perf_counter() - t0)
    return step_rate, lm_rate, pp_rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--variant", action="append", help="only these variants")
    args = parser.parse_args()
    table = Table(title="Engine speed (one process)")
    table.add_column("variant")
    table.add_column("playout steps/s", justify="right")
    table.add_column("legal_moves()/s", justify="right")
    table.add_column("push+pop/s", justify="right")
    for variant in args.variant or list(VARIANTS):
        step, lm, pp = playout_rate(variant, args.seconds)
        table.add_row(variant, f"{step:,.0f}", f"{lm:,.0f}", f"{pp:,.0f}")
    Console().print(table)


if __name__ == "__main__":
    run_script(main)
