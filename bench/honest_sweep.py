"""Advice weights and budgets of the honest player, measured on many deals (docs/honest.md, "Round four").

Each run plays one player on ``--deals`` and appends a row per deal to ``--out`` (a CSV: deal, won, how
the game ended, cards up, CPU seconds), so a stopped run resumes where it stopped. ``--jobs`` plays
deals in parallel processes. The budget is counted in samples and nodes, so the outcomes do not depend
on the load or on the number of jobs; the CPU seconds do.

    python bench/honest_sweep.py --out /tmp/base.csv --deals 1001-1300
    python bench/honest_sweep.py --out /tmp/link.csv --deals 1001-1300 --advice link=60,shuffle=60
    python bench/honest_sweep.py --out /tmp/b24.csv --deals 1001-1200 --budget 24x20000
    python bench/honest_sweep.py --out /tmp/roll.csv --deals 1001-1081 --rollouts 6 --jobs 2
    python bench/honest_sweep.py --compare /tmp/base.csv /tmp/link.csv /tmp/b24.csv

``--greedy`` plays the advice alone instead, as a greedy player with no samples (the highest score
among the moves that return to no view already passed; ties by a generator seeded by the deal): a
fast proxy, about 20 ms a game of Yukon, that decides nothing about the honest player by itself.
``--method untried_first=1`` sets other options of :class:`yukon.honest.Method` (or
``--method ease=shallow,shallow_nodes=500``).
``--rollouts R`` plays ``Method(rollouts=R)`` (the honest player's own rollouts among the close moves
of the opening). ``--same-samples`` gives every decision of a game the same seed (``deal * 1009``), so
the decisions draw the same samples while the unseen cards stay the same, instead of
:func:`yukon.honest.play_honest`'s ``deal * 1009 + move number``.
``--compare BASE OTHER...`` prints, for each OTHER, its wins and BASE's on the deals both played and
the paired difference (deals won by one only).
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import multiprocessing
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from honest_advice import parse_advice, parse_deals  # (bench/honest_advice.py, beside this script)

import yukon
from yukon.cli_common import ignore_interrupt, run_script
from yukon.honest import STUDY_BUDGET, Budget, Method, choose, play_honest
from yukon.honest.heuristic import Advice, advice_for
from yukon.notation import Move
from yukon.rules import Rules
from yukon.study.players import parse_budget
from yukon.visible import VisiblePosition, visible_history


@dataclass(frozen=True)
class Player:
    variant: str
    options: tuple[tuple[str, str], ...]
    advice: Advice
    budget: Budget
    greedy: bool
    rollouts: int = 0
    same_samples: bool = False
    method_options: tuple[tuple[str, object], ...] = ()

    def play(self, deal: int) -> tuple[int, int, str, int, float]:
        game = yukon.Game.deal(self.variant, seed=deal, **dict(self.options))
        started = time.process_time()
        method = Method(advice=self.advice, rollouts=self.rollouts, **dict(self.method_options))
        if self.greedy:
            reason = play_greedy(game, self.advice, random.Random(deal))
        elif self.same_samples:
            reason = play_same_samples(game, self.budget, deal * 1009, method)
        else:
            reason = play_honest(game, self.budget, seed=deal, method=method).reason
        return deal, int(game.is_won()), reason, game.cards_on_foundations, round(time.process_time() - started, 3)


def parse_method(text: str) -> tuple[tuple[str, object], ...]:
    """``'untried_first=1,margin=0.1'`` as :class:`yukon.honest.Method` options (checked by Method itself)."""
    kinds = {f.name: f.type for f in dataclasses.fields(Method)}
    options: list[tuple[str, object]] = []
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        kind = kinds.get(key)
        if kind not in ("bool", "int", "float", "str"):
            raise SystemExit(f"unknown Method option {key!r} (known: "
                             f"{', '.join(k for k, v in kinds.items() if v in ('bool', 'int', 'float', 'str'))})")
        options.append((key, value.lower() in ("1", "true", "yes") if kind == "bool"
                        else int(value) if kind == "int" else float(value) if kind == "float" else value))
    Method(**dict(options))  # (a bad value stops here, before any game)
    return tuple(options)


def play_by(game: yukon.Game, pick: Callable[[VisiblePosition, frozenset[VisiblePosition]], Move | None],
            max_moves: int = 1000) -> str:
    """Play ``game`` by ``pick(view, views passed)`` as :func:`yukon.honest.play_honest` does: until it is
    won, ``pick`` has no move, or the move would return to a view passed; how it ended."""
    seen = set(visible_history(game))
    for _ in range(max_moves):
        if game.is_won():
            return "won"
        view = VisiblePosition.of(game)
        seen.add(view)
        move = pick(view, frozenset(seen))
        if move is None:
            return "no move"
        after = view.after(move)
        if after is not None and after in seen:
            return "repeats"
        game.push(move)
    return "move limit"


def play_greedy(game: yukon.Game, advice: Advice, rng: random.Random) -> str:
    """Play ``game`` by the advice alone: the best-scored move that returns to no view passed."""
    def pick(view: VisiblePosition, seen: frozenset[VisiblePosition]) -> Move | None:
        moves = view.legal_moves()
        fresh = [m for m in moves if (after := view.after(m)) is None or after not in seen]
        scored = [(advice.preference(view, m), m) for m in fresh]
        if not scored:
            return moves[0] if moves else None  # every move returns: the game ends by repeats
        top = max(score for score, _ in scored)
        best = [move for score, move in scored if score == top]
        return best[rng.randrange(len(best))]
    return play_by(game, pick)


def play_same_samples(game: yukon.Game, budget: Budget, seed: int, method: Method) -> str:
    """:func:`yukon.honest.play_honest` with one seed for every decision."""
    return play_by(game, lambda view, seen: choose(view, seen, budget, seed, None, None, method).move)


def read_rows(path: str) -> dict[int, int]:
    """deal -> won (1/0) of one run's CSV."""
    if not os.path.exists(path):
        return {}
    with open(path, newline="") as f:
        return {int(row[0]): int(row[1]) for row in csv.reader(f) if row}


def compare(base_path: str, others: list[str]) -> None:
    base = read_rows(base_path)
    print(f"base {base_path}: {sum(base.values())} of {len(base)}")
    for path in others:
        other = read_rows(path)
        common = sorted(set(other) & set(base))
        plus = sum(other[d] > base[d] for d in common)
        minus = sum(other[d] < base[d] for d in common)
        print(f"{path}: {len(common)} deals in common, won {sum(other[d] for d in common)} against the base's "
              f"{sum(base[d] for d in common)}; won by it only {plus}, by the base only {minus} "
              f"(paired difference {plus - minus:+d} of {plus + minus} differing)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="yukon")
    parser.add_argument("--empty-column", default=None, choices=("kings", "any"))
    parser.add_argument("--deals", default="1001-1300", help="deal numbers: 'A-B', 'N' or a comma list of them")
    parser.add_argument("--advice", default="", help="weights over the rules' advice, e.g. link=60,shuffle=60")
    parser.add_argument("--budget", default=None, help=f"SAMPLESxNODES (default the study's, {STUDY_BUDGET})")
    parser.add_argument("--greedy", action="store_true", help="the advice alone, as a greedy player")
    parser.add_argument("--rollouts", type=int, default=0, help="Method(rollouts=R) (default 0: off)")
    parser.add_argument("--method", default="", help="other options of yukon.honest.Method, e.g. untried_first=1")
    parser.add_argument("--same-samples", action="store_true", help="one seed for every decision of a game")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--out", help="the run's CSV (appended to: a run resumes)")
    parser.add_argument("--compare", nargs="+", metavar="CSV", help="BASE OTHER...: paired wins")
    args = parser.parse_args()
    if args.compare:
        compare(args.compare[0], args.compare[1:])
        return
    if not args.out:
        parser.error("--out is needed (or --compare)")
    options = () if args.empty_column is None else (("empty_column", args.empty_column),)
    rules: Rules = yukon.Game.deal(args.variant, seed=1, **dict(options)).rules
    advice = parse_advice(args.advice, advice_for(rules))
    budget = parse_budget(args.budget) if args.budget else STUDY_BUDGET
    player = Player(rules.variant, options, advice, budget, args.greedy, args.rollouts, args.same_samples,
                    parse_method(args.method))
    done = set(read_rows(args.out))
    todo = [d for d in parse_deals(args.deals) if d not in done]
    print(f"{rules.variant}, empty column {rules.empty_column}: {'greedy' if args.greedy else budget}, "
          f"advice {advice}, rollouts {args.rollouts}, same samples {args.same_samples}, method {args.method or '-'}; "
          f"{len(done)} deals done, "
          f"{len(todo)} to play", flush=True)
    started = time.perf_counter()
    with open(args.out, "a", newline="") as f, multiprocessing.Pool(args.jobs, initializer=ignore_interrupt) as pool:
        writer = csv.writer(f)
        for row in pool.imap_unordered(player.play, todo):
            writer.writerow(row)
            f.flush()
    rows = read_rows(args.out)
    print(f"won {sum(rows.values())} of {len(rows)} ({time.perf_counter() - started:.0f} s wall this run)")


if __name__ == "__main__":
    run_script(main)
