"""How long the honest player only rearranges before it wins or loses (docs/honest.md, "Round five").

Plays the study's games again (``yukon.honest.play_honest`` at the study's budget and seed, so each game is
the study's, watched through its ``observe``) and prints, per deal, how it ended and the most views passed
with the same cards up, face down and in the stock at a decision where no move turns, plays up or deals a
card: the count a rule that resigns after so many rearrangements would read.

    python bench/honest_idle.py --variant milligan-yukon --empty-column kings --no-foundation-return \\
        --deals 24,90 --jobs 2
"""

from __future__ import annotations

import argparse
import multiprocessing
from dataclasses import dataclass

from honest_advice import parse_deals  # (bench/honest_advice.py, beside this script)

import yukon
from yukon.cli_common import ignore_interrupt, run_script
from yukon.honest import STUDY_BUDGET, play_honest
from yukon.honest.player import _progress, _rearrangements
from yukon.visible import VisiblePosition


@dataclass(frozen=True)
class Table:
    variant: str
    empty_column: str | None
    foundation_return: bool | None

    def deal(self, seed: int) -> yukon.Game:
        options = {k: v for k, v in (("empty_column", self.empty_column),
                                     ("foundation_return", self.foundation_return)) if v is not None}
        return yukon.Game.deal(self.variant, seed=seed, **options)


def makes_progress(view: VisiblePosition, move: yukon.Move) -> bool:
    after = view.after(move)
    return after is None or _progress(after) != _progress(view)


def longest_idle(table: Table, deal: int, max_moves: int = 1000) -> tuple[int, str, int, int]:
    """(deal, how the game ended, its moves, the most rearranged views at a decision with no progress move)."""
    most = 0

    def observe(view: VisiblePosition, seen: frozenset[VisiblePosition]) -> None:
        nonlocal most
        moves = view.legal_moves()
        if moves and not any(makes_progress(view, m) for m in moves):
            most = max(most, _rearrangements(view, seen))

    game = table.deal(deal)
    played = play_honest(game, STUDY_BUDGET, seed=deal, max_moves=max_moves, observe=observe)
    return deal, played.reason, played.moves, most


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="milligan-yukon")
    parser.add_argument("--empty-column", choices=("kings", "any"))
    parser.add_argument("--foundation-return", action=argparse.BooleanOptionalAction)
    parser.add_argument("--deals", type=parse_deals, default=parse_deals("24"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--max-moves", type=int, default=1000)
    args = parser.parse_args()
    table = Table(args.variant, args.empty_column, args.foundation_return)
    print("deal,ended,moves,most_rearranged_views_with_no_progress_move", flush=True)
    with multiprocessing.Pool(max(1, args.jobs), initializer=ignore_interrupt) as pool:
        jobs = [(table, d, args.max_moves) for d in args.deals]
        for deal, reason, moves, most in pool.starmap(longest_idle, jobs):
            print(f"{deal},{reason},{moves},{most}", flush=True)
    return 0


if __name__ == "__main__":
    run_script(main)
