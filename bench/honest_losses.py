"""Where the honest player loses a winnable deal, and what its undecided searches are worth (docs/honest.md).

``losses``: each deal is played by the honest player (study budget, ``--method`` as in bench/honest.py);
for a lost game the solver, with perfect information (``yukon.solve``, ``--solve-time`` s per position),
finds the first decision after which the real deal was lost (a binary search over the game's positions:
a position reached from a lost one is lost), and prints that decision's candidates: their counts over the
player's samples, the advice's score and the move's verdict in the real deal.

``resignations``: each deal is played by the honest player; for a lost game the solver decides the position
where the player resigned (``--solve-time`` s): a player that resigns a position the solver wins gave up
too early.

``plans``: at each decision with more than one close move (the first ``--moves`` moves of each deal), each
close move that turns no card is valued again as if the player committed to one plan until the next card
turned: each sample's winning line cut after its first move that turns or deals a card, every such plan played
in every sample and searched on from there, the move worth its best plan's share. Prints per decision the
fused share (F), the committed share (D), the number of plans (p) and which move the player chose (*), then
how often D vetoes the chosen move.

``undecided``: searches of the study's node limit from positions 6, 12 and 18 heuristic moves into the
deals (four samples each, the first six moves), and the undecided ones searched again at ``--more``
nodes: what an undecided search turns out to be.

    python bench/honest_losses.py losses --deals 4,7,16
    python bench/honest_losses.py resignations --deals 1001-1086
    python bench/honest_losses.py plans --deals 1001,1003 --moves 30
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
from yukon.honest.evaluator import PLAYER_SEARCH, evaluate
from yukon.honest.heuristic import preference
from yukon.honest.player import HonestHint, _close
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


def _search(game: yukon.Game, nodes: int) -> tuple[str, list[yukon.Move]]:
    searcher = Searcher(game, Limits(None, nodes))
    for setting, value in PLAYER_SEARCH.items():
        setattr(searcher, setting, value)
    outcome = searcher.run()
    return outcome.status, outcome.moves


def _hidden(game: yukon.Game) -> tuple[int, int]:
    return sum(game.down_counts), len(game.stock_cards)


def _plan(game: yukon.Game, line: list[yukon.Move]) -> tuple[yukon.Move, ...]:
    """``line``'s moves up to and including the first that turns or deals a card."""
    before, replay, plan = _hidden(game), game.copy(), []
    for move in line:
        replay.push(move)
        plan.append(move)
        if _hidden(replay) != before:
            break
    return tuple(plan)


def _share(statuses: list[str]) -> float:
    return sum(1.0 if s == "won" else 0.5 if s == "unknown" else 0.0 for s in statuses) / len(statuses)


def committed_share(samples: list[yukon.Game], move: yukon.Move, nodes: int) -> tuple[float, int] | None:
    """``move``'s share when the player follows one plan until the next card turned (the best of the plans the
    samples' winning lines give), and how many plans; None for a move that turns a card itself."""
    plans = set()
    for sample in samples:
        after = sample.copy()
        after.push(move)
        if _hidden(after) != _hidden(sample):
            return None
        status, line = _search(after, nodes)
        if status == "won":
            plans.add(_plan(after, line))
    best = 0.0
    for plan in plans:
        statuses = []
        for sample in samples:
            after = sample.copy()
            for step in (move, *plan):
                after.push(step)
            statuses.append(_search(after, nodes)[0])
        best = max(best, _share(statuses))
    return best, len(plans)


def plans(deals: list[int], method: Method, moves: int) -> None:
    samples_n, nodes = STUDY_BUDGET.samples, STUDY_BUDGET.nodes
    decisions = spread = vetoed = close_moves = 0
    for deal in deals:
        _, played = played_decisions(deal, method)
        for ply, (game, hint) in enumerate(played[:moves]):
            if hint.source != "samples":
                continue
            view = VisiblePosition.of(game)
            seed = deal * 1009 + ply
            candidates = [v.move for v in hint.values]
            evaluation = evaluate(view, candidates, STUDY_BUDGET, seed)
            close = _close(evaluation.values, evaluation.samples, method.margin)
            if len(close) < 2:
                continue
            samples = list(iter_games(view, samples_n, seed))
            rows = []
            for value in close:
                committed = committed_share(samples, value.move, nodes)
                fused = value.share
                share, count = (fused, 0) if committed is None else committed
                spread += fused - share > 1 / samples_n + 1e-9
                rows.append((value.move, fused, share, count))
            decisions += 1
            close_moves += len(rows)
            best = max(share for _, _, share, _ in rows)
            chosen = next(share for move, _, share, _ in rows if move == hint.move)
            vetoed += chosen < best - method.margin - 1e-9
            print(f"deal {deal} move {ply + 1}, {view.hidden_places} face down: " + "; ".join(
                f"{'*' if move == hint.move else ''}{move} F={fused:.2f} D={share:.2f} p={count}"
                for move, fused, share, count in rows), flush=True)
    print(f"{decisions} decisions, {close_moves} close moves: the committed share is more than one sample below the "
          f"fused one for {spread}; it vetoes the chosen move at {vetoed} decisions")


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
    parser.add_argument("what", choices=("losses", "plans", "resignations", "undecided"))
    parser.add_argument("--deals", default="4,7,16", help="deal numbers: a comma list of N or A-B")
    parser.add_argument("--method", choices=sorted(METHODS), default="honest-1",
                        help="losses, resignations: the player's method (default honest-1)")
    parser.add_argument("--solve-time", type=float, default=3.0,
                        help="losses, resignations: seconds per solver verdict")
    parser.add_argument("--moves", type=int, default=30, help="plans: the decisions of each game's first MOVES moves")
    parser.add_argument("--more", type=int, default=400_000, help="undecided: nodes of the second search")
    args = parser.parse_args()
    if args.what == "losses":
        losses(parse_deals(args.deals), METHODS[args.method], args.solve_time)
    elif args.what == "plans":
        plans(parse_deals(args.deals), METHODS[args.method], args.moves)
    elif args.what == "resignations":
        resignations(parse_deals(args.deals), METHODS[args.method], args.solve_time)
    else:
        undecided(parse_deals(args.deals), STUDY_BUDGET.nodes, args.more)


if __name__ == "__main__":
    run_script(main)
