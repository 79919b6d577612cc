"""The honest player's speed and strength (issue 21; docs/honest.md).

Prints, on this machine:

1. the honest hint's time mid-game at the web's default budget (``WEB_BUDGET``, no time limit, so the
   whole budget is spent): p50 / p90 over positions reached after 10, 20 and 30 moves of the solver's
   heuristic from deals ``--deals`` of each variant (target for Yukon: p90 <= 2 s);
2. a whole honest game of Yukon at the study's default budget (``STUDY_BUDGET``): median over the deals
   (target <= 20 s);
3. the honest win rate over the deals beside the solver's verdicts (``yukon.solve``, ``--solve-time`` s)
   and the greedy agent of bench/agents.py. ``--method`` names the player's method (``yukon.honest.Method``:
   ``honest-1``, the default, ``playouts`` or ``second-look``); ``--compare`` also plays every deal
   with the first honest player (``HONEST_1``), in the same run, and prints both.

The load averages of the machine are printed before and after.

Times are wall clock and CPU seconds of this process (the CPU time is what an idle core would take; the
wall time shows what the machine's load made of it).

    python bench/honest.py                    # deals 1-10
    python bench/honest.py --deals 1-20 --variants yukon
    python bench/honest.py --deals 1-20 --variants yukon --method playouts --compare
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import yukon
from yukon.honest import HONEST_1, STUDY_BUDGET, WEB_BUDGET, Budget, Method, honest_hint, play_honest
from yukon.solver.heuristic import best_heuristic_move
from yukon.study.stats import pct, pct_range, wilson

sys.path.insert(0, str(Path(__file__).resolve().parent))
import agents  # bench/agents.py: the greedy baseline

#: the methods ``--method`` names
METHODS = {"honest-1": HONEST_1, "playouts": Method(playouts=12), "second-look": Method(second_look=2)}


def parse_deals(text: str) -> range:
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi) + 1) if hi else range(1, int(lo) + 1)


def mid_game_positions(variant: str, deals: range, plies: tuple[int, ...] = (10, 20, 30)) -> list[yukon.Game]:
    positions = []
    for deal in deals:
        game = yukon.Game.deal(variant, seed=deal)
        for ply in range(max(plies) + 1):
            if ply in plies and game.legal_moves():
                positions.append(game.copy())
            move = best_heuristic_move(game)
            if move is None:
                break
            game.push(move)
    return positions


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def hint_times(variant: str, deals: range, budget: Budget, method: Method) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds per hint (CPU time is what an idle core would take: the machine is shared)."""
    wall, cpu = [], []
    for game in mid_game_positions(variant, deals):
        started, started_cpu = time.perf_counter(), time.process_time()
        honest_hint(game, None, seed=1, budget=budget, method=method)
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-10", help="deal numbers, 'A-B' or 'N' (default 1-10)")
    parser.add_argument("--variants", default="yukon,russian,alaska,australian,milligan-yukon",
                        help="hint timing: these variants (comma list)")
    parser.add_argument("--solve-time", type=float, default=10.0, help="seconds per solver verdict (default 10)")
    parser.add_argument("--method", choices=sorted(METHODS), default="honest-1",
                        help="the player's method (default honest-1, the default player)")
    parser.add_argument("--compare", action="store_true",
                        help="also play every deal with the first honest player (HONEST_1)")
    args = parser.parse_args()
    deals = parse_deals(args.deals)
    method = METHODS[args.method]
    print(f"deals {deals.start}-{deals.stop - 1}; web budget {WEB_BUDGET}; study budget {STUDY_BUDGET}; "
          f"method {args.method}: {method}")
    print(f"load average {load_average()}")
    print()
    print("## Honest hint mid-game, web budget (after 10, 20, 30 moves)")
    print()
    print("| variant | positions | wall p50 | wall p90 | CPU p50 | CPU p90 | CPU max |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for variant in args.variants.split(","):
        timing_deals = deals if variant == "yukon" else range(deals.start, deals.start + 3)
        w, c = hint_times(variant, timing_deals, WEB_BUDGET, method)
        print(f"| {variant} | {len(w)} | {quantile(w, 0.5):.2f} s | {quantile(w, 0.9):.2f} s "
              f"| {quantile(c, 0.5):.2f} s | {quantile(c, 0.9):.2f} s | {max(c):.2f} s |", flush=True)
    print()
    print("## Whole games of Yukon, study budget")
    print()
    print("| deal | honest | moves | cards up | wall s | CPU s | solver | greedy |"
          + (" honest-1 | honest-1 CPU s |" if args.compare else ""))
    print("|---:|---|---:|---:|---:|---:|---|---|" + ("---|---:|" if args.compare else ""))
    greedy = {s: w for s, w, _ in agents.play("yukon/Yukon-v0", agents.GreedyAgent(), deals).per_deal}
    won = solver_won = solver_decided = 0
    seconds, cpu = [], []
    old_won, old_cpu = 0, []
    for deal in deals:
        started_cpu = time.process_time()
        played = play_honest(yukon.Game.deal("yukon", seed=deal), STUDY_BUDGET, seed=deal, method=method)
        cpu.append(time.process_time() - started_cpu)
        old = ""
        if args.compare:
            started_cpu = time.process_time()
            first = play_honest(yukon.Game.deal("yukon", seed=deal), STUDY_BUDGET, seed=deal, method=HONEST_1)
            old_cpu.append(time.process_time() - started_cpu)
            old_won += first.won
            old = f" {'won' if first.won else 'lost'} | {old_cpu[-1]:.1f} |"
        verdict = yukon.solve(yukon.Game.deal("yukon", seed=deal), time_limit=args.solve_time).status
        won += played.won
        solver_won += verdict == "won"
        solver_decided += verdict != "unknown"
        seconds.append(played.seconds)
        print(f"| {deal} | {'won' if played.won else 'lost'} ({played.reason}) | {played.moves} "
              f"| {played.cards_on_foundations} | {played.seconds:.1f} | {cpu[-1]:.1f} | {verdict} "
              f"| {'won' if greedy[deal] else 'lost'} |{old}", flush=True)
    n = len(deals)
    g = sum(greedy.values())
    print()
    print(f"median honest game: {statistics.median(seconds):.1f} s wall, {statistics.median(cpu):.1f} s CPU "
          f"(p90 {quantile(seconds, 0.9):.1f} s wall, {quantile(cpu, 0.9):.1f} s CPU)")
    print(f"honest: {won}/{n} = {pct(won / n)} (95% CI {pct_range(wilson(won, n))}); "
          f"solver: {solver_won}/{solver_decided} decided = "
          f"{pct(solver_won / solver_decided) if solver_decided else '–'}; "
          f"greedy: {g}/{n} = {pct(g / n)} (95% CI {pct_range(wilson(g, n))})")
    if args.compare:
        print(f"honest-1 (HONEST_1, same deals): {old_won}/{n} = {pct(old_won / n)} "
              f"(95% CI {pct_range(wilson(old_won, n))}); median {statistics.median(old_cpu):.1f} s CPU")
    print(f"load average {load_average()}")


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    main()
