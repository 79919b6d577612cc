"""What the information-set tree search (``yukon.honest.Method(tree=...)``) does to the values of the moves
(docs/honest.md, "Round ten").

For the sampled decisions of the first player's games on ``--deals`` (its first ``--moves`` decisions with more
than one candidate and no safe card), each candidate's share of samples won (the first player's value,
``--samples`` x ``--nodes``) beside its mean in the tree (``--iterations`` at the same nodes), split into the moves
that turn a card and those that only rearrange the face-up cards:

    python bench/honest_tree.py --deals 3001,3007,3008,3010,3011
"""

from __future__ import annotations

import argparse
import statistics

from honest_advice import parse_deals  # (bench/honest_advice.py, beside this script)

import yukon
from yukon.autoplay import safe_moves
from yukon.cli_common import run_script
from yukon.honest import STUDY_BUDGET, Budget, play_honest
from yukon.honest.evaluator import evaluate
from yukon.honest.heuristic import advice_for
from yukon.honest.player import _candidates, tree_moves
from yukon.honest.tree import tree_search
from yukon.visible import VisiblePosition


def decisions_of(deal: int) -> list[tuple[VisiblePosition, frozenset[VisiblePosition]]]:
    """What each decision of the first player's game of Yukon deal ``deal`` read: the view, the views passed."""
    decisions: list[tuple[VisiblePosition, frozenset[VisiblePosition]]] = []
    play_honest(yukon.Game.deal("yukon", seed=deal), STUDY_BUDGET, seed=deal,
                observe=lambda view, seen: decisions.append((view, seen)))
    return decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", default="3001,3007,3008,3010,3011", help="e.g. 3001-3005 or 3001,3007")
    parser.add_argument("--moves", type=int, default=25, help="decisions of each game looked at")
    parser.add_argument("--samples", type=int, default=24)
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rows: list[tuple[bool, float, float, int]] = []
    for deal in parse_deals(args.deals):
        for view, seen in decisions_of(deal)[:args.moves]:
            if safe_moves(view.canonical):
                continue
            candidates = _candidates(view, view.legal_moves(), seen)
            if len(candidates) < 2:
                continue
            shares = evaluate(view, candidates, Budget(args.samples, args.nodes), args.seed)
            ordered, candidates_of = tree_moves(advice_for(view.rules))
            tree = tree_search(view, seen, candidates, ordered, candidates_of, args.iterations, args.nodes,
                               args.seed, 0.4)
            means = dict(zip(tree.moves, tree.means, strict=True))
            visits = dict(zip(tree.moves, tree.visits, strict=True))
            for value in shares.values:
                rows.append((view.after(value.move) is None, value.share, means[value.move], visits[value.move]))
        print(f"deal {deal}: {len(rows)} moves so far", flush=True)
    for turns in (True, False):
        some = [r for r in rows if r[0] == turns]
        if some:
            print(f"{'turns a card' if turns else 'rearranges  '}: {len(some)} moves, share "
                  f"{statistics.mean(r[1] for r in some):.3f}, tree mean {statistics.mean(r[2] for r in some):.3f}, "
                  f"visits {statistics.mean(r[3] for r in some):.1f}")


if __name__ == "__main__":
    run_script(main)
