"""The honest player's speed and strength (issue 21; docs/honest.md).

Prints, on this machine:

1. the honest hint's time mid-game at the web's default budget (``WEB_BUDGET``, no time limit, so the
   whole budget is spent): p50 / p90 over positions reached after 10, 20 and 30 moves of the solver's
   heuristic from deals ``--deals`` of each variant (target for Yukon: p90 <= 2 s);
2. whole honest games at the study's default budget (``STUDY_BUDGET``), by default of Yukon over
   ``--deals`` (``--games yukon:1-10,milligan-yukon:1-5`` names variants and deals): median over the
   deals (target for Yukon <= 20 s);
3. the honest win rate over the deals beside the solver's verdicts (``yukon.solve``, ``--solve-time`` s;
   0: none) and the greedy agent of bench/agents.py. ``--method`` names the player's method
   (``yukon.honest.Method``: ``honest-1``, the default, ``playouts`` or ``second-look``); ``--compare``
   also plays every deal with the first honest player (``HONEST_1``), in the same run, and prints both.

``--reference`` also times every hint and plays every game with the reference player, in the same run,
one after the other: the first player's decision as first written (every candidate searched in every
sample, then the rule; two-deck verdicts through the solver's ``Searcher``, which shortens and replays
each winning line), and says whether the moves are the same (they must be: docs/honest.md, "Budgets and
speed").

The load averages of the machine are printed before and after.

Times are wall clock and CPU seconds of this process (the CPU time is what an idle core would take; the
wall time shows what the machine's load made of it).

    python bench/honest.py                    # deals 1-10
    python bench/honest.py --deals 1-20 --variants yukon
    python bench/honest.py --deals 1-20 --variants yukon --method playouts --compare
    python bench/honest.py --deals 1-10 --variants yukon,milligan-yukon \
        --games yukon:1-10,milligan-yukon:1-5 --reference --solve-time 0
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import yukon
from yukon.cli_common import run_script
from yukon.env import ENV_IDS
from yukon.honest import (
    HONEST_1,
    STUDY_BUDGET,
    WEB_BUDGET,
    Budget,
    HonestHint,
    Method,
    evaluator,
    honest_hint,
    play_honest,
    player,
)
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


@contextlib.contextmanager
def reference_player() -> Iterator[None]:
    """The first player's decision as first written: every candidate in every sample, then the rule; two-deck
    verdicts through ``Searcher.run``."""
    player.PRUNED, evaluator.DIRECT_TWO_DECK = False, False
    try:
        yield
    finally:
        player.PRUNED, evaluator.DIRECT_TWO_DECK = True, True


def timed_hint(game: yukon.Game, budget: Budget, method: Method) -> tuple[HonestHint, float, float]:
    started, started_cpu = time.perf_counter(), time.process_time()
    hint = honest_hint(game, None, seed=1, budget=budget, method=method)
    return hint, time.perf_counter() - started, time.process_time() - started_cpu


def hint_times(variant: str, deals: range, budget: Budget, method: Method,
               reference: bool = False) -> tuple[list[float], list[float], list[float], int]:
    """Wall-clock and CPU seconds per hint (CPU time is what an idle core would take: the machine is shared);
    with ``reference``, the reference player's CPU seconds of the same hints and how many chose another move
    or share (0: none)."""
    wall, cpu, ref_cpu, differ = [], [], [], 0
    for game in mid_game_positions(variant, deals):
        hint, w, c = timed_hint(game, budget, method)
        wall.append(w)
        cpu.append(c)
        if reference:
            with reference_player():
                ref, _, c = timed_hint(game, budget, method)
            ref_cpu.append(c)
            differ += (ref.move, ref.win_share, ref.samples) != (hint.move, hint.win_share, hint.samples)
    return wall, cpu, ref_cpu, differ


def parse_games(text: str | None, deals: range) -> list[tuple[str, range]]:
    """``yukon:1-10,milligan-yukon:1-5`` as (variant, deals) pairs; None: Yukon over ``deals``."""
    if not text:
        return [("yukon", deals)]
    pairs = []
    for item in text.split(","):
        variant, _, span = item.partition(":")
        pairs.append((variant.strip(), parse_deals(span) if span else deals))
    return pairs


def env_id(variant: str) -> str:
    return next(k for k, v in ENV_IDS.items() if v == variant)


def whole_games(variant: str, deals: range, method: Method, args: argparse.Namespace) -> None:
    print()
    print(f"## Whole games of {variant}, study budget")
    print()
    extra = ""
    if args.compare:
        extra += " honest-1 | honest-1 CPU s |"
    if args.reference:
        extra += " reference CPU s | same moves |"
    print("| deal | honest | moves | cards up | wall s | CPU s | nodes | solver | greedy |" + extra)
    print("|---:|---|---:|---:|---:|---:|---:|---|---|" + "---|---:|" * args.compare + "---:|---|" * args.reference)
    greedy = {s: w for s, w, _ in agents.play(env_id(variant), agents.GreedyAgent(), deals).per_deal}
    won = solver_won = solver_decided = 0
    seconds, cpu = [], []
    old_won, old_cpu, ref_cpu, same = 0, [], [], 0
    for deal in deals:
        started_cpu = time.process_time()
        game = yukon.Game.deal(variant, seed=deal)
        played = play_honest(game, STUDY_BUDGET, seed=deal, method=method)
        cpu.append(time.process_time() - started_cpu)
        old = ""
        if args.compare:
            started_cpu = time.process_time()
            first = play_honest(yukon.Game.deal(variant, seed=deal), STUDY_BUDGET, seed=deal, method=HONEST_1)
            old_cpu.append(time.process_time() - started_cpu)
            old_won += first.won
            old += f" {'won' if first.won else 'lost'} | {old_cpu[-1]:.1f} |"
        if args.reference:
            with reference_player():
                started_cpu = time.process_time()
                ref_game = yukon.Game.deal(variant, seed=deal)
                play_honest(ref_game, STUDY_BUDGET, seed=deal, method=method)
                ref_cpu.append(time.process_time() - started_cpu)
            alike = ref_game.move_stack == game.move_stack
            same += alike
            old += f" {ref_cpu[-1]:.1f} | {'yes' if alike else 'NO'} |"
        verdict = "–"
        if args.solve_time > 0:
            verdict = yukon.solve(yukon.Game.deal(variant, seed=deal), time_limit=args.solve_time).status
            solver_won += verdict == "won"
            solver_decided += verdict != "unknown"
        won += played.won
        seconds.append(played.seconds)
        print(f"| {deal} | {'won' if played.won else 'lost'} ({played.reason}) | {played.moves} "
              f"| {played.cards_on_foundations} | {played.seconds:.1f} | {cpu[-1]:.1f} | {played.nodes:,} | {verdict} "
              f"| {'won' if greedy[deal] else 'lost'} |{old}", flush=True)
    n = len(deals)
    g = sum(greedy.values())
    print()
    print(f"median honest game: {statistics.median(seconds):.1f} s wall, {statistics.median(cpu):.1f} s CPU "
          f"(p90 {quantile(seconds, 0.9):.1f} s wall, {quantile(cpu, 0.9):.1f} s CPU; "
          f"total {sum(cpu):.1f} s CPU)")
    print(f"honest: {won}/{n} = {pct(won / n)} (95% CI {pct_range(wilson(won, n))}); "
          f"solver: {solver_won}/{solver_decided} decided = "
          f"{pct(solver_won / solver_decided) if solver_decided else '–'}; "
          f"greedy: {g}/{n} = {pct(g / n)} (95% CI {pct_range(wilson(g, n))})")
    if args.compare:
        print(f"honest-1 (HONEST_1, same deals): {old_won}/{n} = {pct(old_won / n)} "
              f"(95% CI {pct_range(wilson(old_won, n))}); median {statistics.median(old_cpu):.1f} s CPU")
    if args.reference:
        print(f"reference player: median {statistics.median(ref_cpu):.1f} s CPU, total {sum(ref_cpu):.1f} s CPU "
              f"({sum(ref_cpu) / max(sum(cpu), 1e-9):.1f} times this player's); the same moves in {same} of {n} games")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-10", help="deal numbers, 'A-B' or 'N' (default 1-10)")
    parser.add_argument("--variants", default="yukon,russian,alaska,australian,milligan-yukon",
                        help="hint timing: these variants (comma list; '' for none)")
    parser.add_argument("--games", default=None,
                        help="whole games: VARIANT:DEALS,... (default: yukon over --deals)")
    parser.add_argument("--solve-time", type=float, default=10.0,
                        help="seconds per solver verdict (default 10; 0: no verdicts)")
    parser.add_argument("--method", choices=sorted(METHODS), default="honest-1",
                        help="the player's method (default honest-1, the default player)")
    parser.add_argument("--compare", action="store_true",
                        help="also play every deal with the first honest player (HONEST_1)")
    parser.add_argument("--reference", action="store_true",
                        help="also time every hint and game with the reference player (the same moves, slower)")
    args = parser.parse_args()
    deals = parse_deals(args.deals)
    method = METHODS[args.method]
    print(f"deals {deals.start}-{deals.stop - 1}; web budget {WEB_BUDGET}; study budget {STUDY_BUDGET}; "
          f"method {args.method}: {method}")
    print(f"load average {load_average()}")
    variants = [v for v in args.variants.split(",") if v]
    if variants:
        print()
        print("## Honest hint mid-game, web budget (after 10, 20, 30 moves)")
        print()
        ref_head = " reference CPU p50 | reference CPU p90 | other choices |" if args.reference else ""
        print("| variant | positions | wall p50 | wall p90 | CPU p50 | CPU p90 | CPU max |" + ref_head)
        print("|---|---:|---:|---:|---:|---:|---:|" + "---:|---:|---:|" * args.reference)
    for variant in variants:
        timing_deals = deals if variant == "yukon" else range(deals.start, deals.start + 3)
        w, c, r, differ = hint_times(variant, timing_deals, WEB_BUDGET, method, args.reference)
        ref = f" {quantile(r, 0.5):.2f} s | {quantile(r, 0.9):.2f} s | {differ} |" if args.reference else ""
        print(f"| {variant} | {len(w)} | {quantile(w, 0.5):.2f} s | {quantile(w, 0.9):.2f} s "
              f"| {quantile(c, 0.5):.2f} s | {quantile(c, 0.9):.2f} s | {max(c):.2f} s |{ref}", flush=True)
    for variant, game_deals in parse_games(args.games, deals):
        whole_games(variant, game_deals, method, args)
    print(f"load average {load_average()}")


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    run_script(main)
