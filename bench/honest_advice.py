"""The honest player's advice per variant, old against new on the same deals (docs/honest.md, "Round three").

Plays every deal of ``--deals`` twice in this one process, alternating, at the study budget (12 x 10,000:
counted in samples and nodes, so the outcomes do not depend on the load): with the first player's advice
on every variant (``HONEST_1``, the greedy agent's weights) and with the advice the rules choose
(``DEFAULT_METHOD``), or with ``--advice`` weights over the rules' advice. Prints per deal won/lost, how
the game ended and the CPU seconds of each, then the win counts, the paired difference (deals won by one
and not the other) and the CPU times.

    python bench/honest_advice.py --variant alaska --deals 1-60
    python bench/honest_advice.py --variant russian --empty-column any --deals 1-60
    python bench/honest_advice.py --variant alaska --deals 61-80 --advice link=80,shuffle=40
    python bench/honest_advice.py --variant alaska --trace 4 --old   # one game's decisions, honest-1's advice

``--trace DEAL`` prints one game's decisions instead: per move the source (safe, only move, samples),
whether it turns a card, and for sampled decisions the close moves (share / the advice's score, in the
advice's order) and, after ``||``, the moves the samples vetoed.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import time

import yukon
from yukon.cli_common import run_script
from yukon.honest import DEFAULT_METHOD, HONEST_1, STUDY_BUDGET, Method, choose, play_honest
from yukon.honest.heuristic import Advice, advice_for
from yukon.honest.player import SHARE_MARGIN
from yukon.visible import VisiblePosition, visible_history


def parse_deals(text: str) -> list[int]:
    deals: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        deals.extend(range(int(lo), int(hi or lo) + 1))
    return deals


def parse_advice(text: str, base: Advice) -> Advice:
    """``'link=80,shuffle=40'`` over ``base`` (the name gets a ``*``: not a shipped advice)."""
    changes: dict[str, object] = {}
    fields = {f.name: f.type for f in dataclasses.fields(Advice)}
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        if key not in fields or key == "name":
            raise SystemExit(f"unknown advice weight {key!r} (known: {', '.join(f for f in fields if f != 'name')})")
        kind = fields[key]
        changes[key] = (value.lower() in ("1", "true", "yes") if kind in ("bool", bool)
                        else int(value) if kind in ("int", int) else float(value))
    return dataclasses.replace(base, name=base.name + "*", **changes)


def trace(game: yukon.Game, deal: int, method: Method) -> None:
    """Play ``game`` as :func:`yukon.honest.play_honest` does and print every decision."""
    seen = set(visible_history(game))
    for ply in range(1000):
        if game.is_won():
            print("won")
            return
        view = VisiblePosition.of(game)
        seen.add(view)
        hint = choose(view, frozenset(seen), STUDY_BUDGET, deal * 1009 + ply, None, None, method)
        if hint.move is None:
            print(f"no move, {game.cards_on_foundations} cards up")
            return
        after = view.after(hint.move)
        line = (f"{ply:3d} {hint.move!s:10} {hint.source:9} down {sum(view.down_counts):2d} "
                f"up {game.cards_on_foundations:2d} {'turns' if after is None else '     '}")
        if hint.source == "samples":
            advice = method.advice_for(view)
            top = max(v.share for v in hint.values)
            close = [v for v in hint.values if v.share >= top - max(SHARE_MARGIN, 1 / hint.samples)]
            close.sort(key=lambda v: (advice.preference(view, v.move), v.share), reverse=True)
            line += " | " + " ".join(f"{v.move}:{v.share:.2f}/{advice.preference(view, v.move):.0f}" for v in close)
            vetoed = [v for v in hint.values if v not in close]
            if vetoed:
                line += " || " + " ".join(f"{v.move}:{v.share:.2f}" for v in vetoed)
        print(line, flush=True)
        if after is not None and after in seen:
            print(f"repeats, {game.cards_on_foundations} cards up")
            return
        game.push(hint.move)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="alaska")
    parser.add_argument("--empty-column", default=None, choices=("kings", "any"))
    parser.add_argument("--deals", default="1-20", help="deal numbers: 'A-B', 'N' or a comma list of them")
    parser.add_argument("--trace", type=int, metavar="DEAL", help="print the decisions of one game")
    parser.add_argument("--old", action="store_true", help="--trace: with the first player's advice")
    parser.add_argument("--new-only", action="store_true", help="play the new advice only (tuning)")
    parser.add_argument("--advice", default="", help="weights over the rules' advice, e.g. link=80,shuffle=40")
    args = parser.parse_args()
    options = {} if args.empty_column is None else {"empty_column": args.empty_column}
    rules = yukon.Game.deal(args.variant, seed=1, **options).rules
    new_advice = parse_advice(args.advice, advice_for(rules)) if args.advice else advice_for(rules)
    new = dataclasses.replace(DEFAULT_METHOD, advice=new_advice) if args.advice else DEFAULT_METHOD
    if args.trace is not None:
        trace(yukon.Game.deal(rules.variant, seed=args.trace, **options), args.trace, HONEST_1 if args.old else new)
        return
    print(f"{rules.variant}, empty column: {rules.empty_column}; budget {STUDY_BUDGET}")
    print(f"old: advice {HONEST_1.advice}\nnew: advice {new_advice}")
    print(f"load average {load_average()}\n")
    print("| deal | old | old CPU s | new | new CPU s |")
    print("|---:|---|---:|---|---:|")
    results: dict[str, list[bool]] = {"old": [], "new": []}
    cpu: dict[str, list[float]] = {"old": [], "new": []}
    for deal in parse_deals(args.deals):
        cells = []
        for name, method in (("old", HONEST_1), ("new", new))[1 if args.new_only else 0:]:
            started = time.process_time()
            played = play_honest(yukon.Game.deal(rules.variant, seed=deal, **options), STUDY_BUDGET, seed=deal,
                                 method=method)
            cpu[name].append(time.process_time() - started)
            results[name].append(played.won)
            cells.append(f"{'won' if played.won else 'lost'} ({played.reason}, {played.cards_on_foundations} up) "
                         f"| {cpu[name][-1]:.1f}")
        print(f"| {deal} | {' | '.join(cells)} |", flush=True)
    if args.new_only:
        print(f"\nnew {sum(results['new'])}/{len(results['new'])}; CPU total {sum(cpu['new']):.0f} s")
        return
    old, new_won = results["old"], results["new"]
    only_new = sum(n and not o for o, n in zip(old, new_won, strict=True))
    only_old = sum(o and not n for o, n in zip(old, new_won, strict=True))
    print(f"\nold {sum(old)}/{len(old)}, new {sum(new_won)}/{len(new_won)}; won by new only {only_new}, "
          f"by old only {only_old} (paired difference {only_new - only_old:+d} of {only_new + only_old} differing)")
    for name in ("old", "new"):
        print(f"{name} CPU: total {sum(cpu[name]):.0f} s, median {statistics.median(cpu[name]):.2f} s per game")
    print(f"load average {load_average()}")


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    run_script(main)
