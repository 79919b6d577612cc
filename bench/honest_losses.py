"""Where the honest player loses a winnable deal, and what its undecided searches are worth (docs/honest.md).

``losses``: each deal is played by the honest player (study budget, ``--method`` as in bench/honest.py);
for a lost game the solver, with perfect information (``yukon.solve``, ``--solve-time`` s per position),
finds the first decision after which the real deal was lost (a binary search over the game's positions:
a position reached from a lost one is lost), and prints that decision's candidates: their counts over the
player's samples, the advice's score and the move's verdict in the real deal.

``resignations``: each deal is played by the honest player; for a lost game the solver decides the position
where the player resigned (``--solve-time`` s): a player that resigns a position the solver wins gave up
too early.

``undecided``: searches of the study's node limit from positions 6, 12 and 18 heuristic moves into the
deals (four samples each, the first six moves), and the undecided ones searched again at ``--more``
nodes: what an undecided search turns out to be.

    python bench/honest_losses.py losses --deals 4,7,16
    python bench/honest_losses.py resignations --deals 1001-1086
    python bench/honest_losses.py undecided --deals 1-12
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import yukon
from yukon.cli_common import run_script
from yukon.honest import STUDY_BUDGET, Method, choose
from yukon.honest.heuristic import preference
from yukon.honest.player import HonestHint
from yukon.honest.sampler import iter_games
from yukon.solver.search import Limits, Searcher
from yukon.visible import VisiblePosition, visible_history

sys.path.insert(0, str(Path(__file__).resolve().parent))
from honest import METHODS, mid_game_positions


def parse_deals(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out


def played_decisions(deal: int, method: Method) -> tuple[yukon.Game, list[tuple[yukon.Game, HonestHint]]]:
    """The game of ``play_honest`` move for move, with the hint of every decision."""
    game = yukon.Game.deal("yukon", seed=deal)
    seen = set(visible_history(game))
    decisions = []
    for ply in range(1000):
        if game.is_won():
            break
        view = VisiblePosition.of(game)
        seen.add(view)
        hint = choose(view, frozenset(seen), STUDY_BUDGET, deal * 1009 + ply, None, None, method)
        if hint.move is None:
            break
        after = view.after(hint.move)
        if after is not None and after in seen:
            break
        decisions.append((game.copy(), hint))
        game.push(hint.move)
    return game, decisions


class Verdicts:
    """The solver's verdict of each position of a game, asked once."""

    def __init__(self, positions: list[yukon.Game], solve_time: float) -> None:
        self.positions = positions
        self.solve_time = solve_time
        self.known: dict[int, str] = {}

    def __call__(self, i: int) -> str:
        if i not in self.known:
            self.known[i] = yukon.solve(self.positions[i], time_limit=self.solve_time, shorten=False).status
        return self.known[i]


def losses(deals: list[int], method: Method, solve_time: float) -> None:
    for deal in deals:
        final, decisions = played_decisions(deal, method)
        print(f"deal {deal}: {'won' if final.is_won() else 'lost'} after {len(decisions)} moves, "
              f"{final.cards_on_foundations} cards up", flush=True)
        if final.is_won():
            continue
        verdict = Verdicts([g for g, _ in decisions] + [final], solve_time)
        if verdict(0) != "won":
            print(f"  the deal is {verdict(0)} to the solver in {solve_time} s")
            continue
        won, lost = 0, len(decisions)
        if verdict(lost) == "won":
            print("  the last position is still won: the player resigned a winnable position")
            continue
        undecided = 0
        while lost - won > 1:
            mid = (won + lost) // 2
            if verdict(mid) == "won":
                won = mid
            else:  # lost, or undecided: counted lost (the decision found is then a guess)
                undecided += verdict(mid) == "unknown"
                lost = mid
        game, hint = decisions[won]
        view = VisiblePosition.of(game)
        print(f"  the losing decision: move {won + 1}, {view.hidden_places} cards face down, "
              f"{game.cards_on_foundations} up; {hint.source}, {hint.samples} samples"
              + (f" ({undecided} undecided positions on the way: a guess)" if undecided else ""))
        for value in hint.values:
            after = game.copy()
            after.push(value.move)
            truth = yukon.solve(after, time_limit=solve_time, shorten=False).status
            mark = "*" if value.move == hint.move else " "
            print(f"   {mark} {value.move!s:10} won {value.won:2} lost {value.lost:2} undecided {value.unknown:2} "
                  f"advice {preference(view, value.move):5.0f}  real deal: {truth}", flush=True)


def resignations(deals: list[int], method: Method, solve_time: float) -> None:
    verdicts = {"won": 0, "lost": 0, "unknown": 0}
    for deal in deals:
        final, decisions = played_decisions(deal, method)
        if final.is_won():
            continue
        status = yukon.solve(final, time_limit=solve_time, shorten=False).status
        verdicts[status] += 1
        print(f"deal {deal}: resigned after {len(decisions)} moves, {final.cards_on_foundations} cards up; "
              f"the position is {status} to the solver", flush=True)
    print(f"positions resigned: {sum(verdicts.values())}, of which the solver won {verdicts['won']}, "
          f"proved lost {verdicts['lost']}, left undecided {verdicts['unknown']} ({solve_time} s each)")


def undecided(deals: list[int], nodes: int, more: int) -> None:
    first = {"won": 0, "lost": 0, "unknown": 0}
    later = {"won": 0, "lost": 0, "unknown": 0}
    started = time.process_time()
    for position in mid_game_positions("yukon", range(deals[0], deals[-1] + 1), (6, 12, 18)):
        for sample in iter_games(VisiblePosition.of(position), 4, 99):
            for move in sample.legal_moves()[:6]:
                sample.push(move)
                status = Searcher(sample, Limits(None, nodes)).run().status
                first[status] += 1
                if status == "unknown":
                    later[Searcher(sample, Limits(None, more)).run().status] += 1
                sample.pop()
    print(f"searches at {nodes:,} nodes: {first}; the undecided ones at {more:,} nodes: {later} "
          f"({time.process_time() - started:.1f} s CPU)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("losses", "resignations", "undecided"))
    parser.add_argument("--deals", default="4,7,16", help="deal numbers: a comma list of N or A-B")
    parser.add_argument("--method", choices=sorted(METHODS), default="honest-1",
                        help="losses, resignations: the player's method (default honest-1)")
    parser.add_argument("--solve-time", type=float, default=3.0, help="losses, resignations: seconds per solver verdict")
    parser.add_argument("--more", type=int, default=400_000, help="undecided: nodes of the second search")
    args = parser.parse_args()
    if args.what == "losses":
        losses(parse_deals(args.deals), METHODS[args.method], args.solve_time)
    elif args.what == "resignations":
        resignations(parse_deals(args.deals), METHODS[args.method], args.solve_time)
    else:
        undecided(parse_deals(args.deals), STUDY_BUDGET.nodes, args.more)


if __name__ == "__main__":
    run_script(main)
