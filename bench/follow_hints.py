"""Follow hints alone on Yukon deals: a fresh ``yukon.hint`` after every move vs the shared hint policy,
and the honest hint as the web table and the terminal game give it (``yukon.advisor``).

    PYTHONPATH=src python3 bench/follow_hints.py 5 7
    PYTHONPATH=src python3 bench/follow_hints.py --kind honest --time-limit 0.8 1-10

Prints, per deal and way: the result, the hints played (at most 400), how many took back the move
just played, how many went back to a position already seen, and the searches run. ``--kind``:
``solver`` (the fresh hint and the policy, the default), ``honest`` (the advisor's honest hint), or
``all``. An honest game ends when the hint offers no move (every move would go back: ``stopped``).
"""

from __future__ import annotations

import argparse
import sys
import time

import yukon
from yukon import Game
from yukon.advisor import Advisor
from yukon.cli_common import run_script
from yukon.hinting import HintPolicy, is_reverse
from yukon.session import PlaySession
from yukon.solver.key import position_key

MAX_HINTS = 400
WAYS = {"solver": ("fresh hint", "policy"), "honest": ("honest",), "all": ("fresh hint", "policy", "honest")}


def follow(seed: int, way: str, limit: float = 1.0) -> tuple[str, int, int, int, int]:
    s = PlaySession(Game.deal("yukon", seed=seed), None, client="bench", autoplay=True, autofinish=True)
    policy = HintPolicy(time_limit=limit)
    advisor = Advisor(hint_time=limit)
    hinted = reversed_ = repeated = 0
    seen = {position_key(s.game)}
    status = ""
    while s.status == "playing" and hinted < MAX_HINTS:
        if way == "policy":
            move = policy.advise(s.game).move
        elif way == "honest":
            text = advisor.hint(s.game).move
            if text is None:
                status = "stopped"
                break
            move = s.game.parse_move(text)
        else:
            move = yukon.hint(s.game, time_limit=limit).move
        assert move is not None
        last = s.game.move_stack[-1] if s.game.move_stack else None
        reversed_ += bool(last and is_reverse(move, last))
        s.play(move)
        hinted += 1
        key = position_key(s.game)
        repeated += key in seen
        seen.add(key)
    searches = policy.searches if way == "policy" else hinted
    return status or s.status, hinted, reversed_, repeated, searches


def parse_seeds(words: list[str]) -> list[int]:
    seeds: list[int] = []
    for word in words:
        first, _, last = word.partition("-")
        seeds += range(int(first), int(last or first) + 1)
    return seeds


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seeds", nargs="*", default=["5", "7"], help="deal numbers or ranges (1-10)")
    parser.add_argument("--kind", choices=list(WAYS), default="solver")
    parser.add_argument("--time-limit", type=float, default=1.0, help="seconds per hint search")
    args = parser.parse_args(argv)
    totals: dict[str, list[int]] = {}
    for seed in parse_seeds(args.seeds):
        for name in WAYS[args.kind]:
            way = {"fresh hint": "fresh", "policy": "policy", "honest": "honest"}[name]
            t0 = time.perf_counter()
            status, hinted, reversed_, repeated, searches = follow(seed, way, args.time_limit)
            print(f"deal {seed} {name:>10}: {status}, {hinted} hints, {reversed_} reversed, "
                  f"{repeated} repeated, {searches} searches, {time.perf_counter() - t0:.1f} s", flush=True)
            row = totals.setdefault(name, [0, 0, 0, 0])
            row[0] += 1
            row[1] += status == "won"
            row[2] += reversed_
            row[3] += repeated
    for name, (games, won, reversed_, repeated) in totals.items():
        print(f"{name}: {won}/{games} won, {reversed_} reversed, {repeated} repeated in all")
    return 0


if __name__ == "__main__":
    run_script(lambda: main(sys.argv[1:]))
