"""Follow hints alone on Yukon deals: a fresh ``yukon.hint`` after every move vs the shared hint policy.

    PYTHONPATH=src python3 bench/follow_hints.py 5 7

Prints, per deal and way: the result, the hints played (at most 400), how many took back the move
just played, how many went back to a position already seen, and the searches run.
"""

from __future__ import annotations

import sys

import yukon
from yukon import Game
from yukon.hinting import HintPolicy, is_reverse
from yukon.session import PlaySession
from yukon.solver.key import position_key

MAX_HINTS = 400


def follow(seed: int, use_policy: bool, limit: float = 1.0) -> tuple[str, int, int, int, int]:
    s = PlaySession(Game.deal("yukon", seed=seed), None, client="bench", autoplay=True, autofinish=True)
    policy = HintPolicy(time_limit=limit)
    hinted = reversed_ = repeated = 0
    seen = {position_key(s.game)}
    while s.status == "playing" and hinted < MAX_HINTS:
        move = policy.advise(s.game).move if use_policy else yukon.hint(s.game, time_limit=limit).move
        assert move is not None
        last = s.game.move_stack[-1] if s.game.move_stack else None
        reversed_ += bool(last and is_reverse(move, last))
        s.play(move)
        hinted += 1
        key = position_key(s.game)
        repeated += key in seen
        seen.add(key)
    return s.status, hinted, reversed_, repeated, policy.searches if use_policy else hinted


def main(seeds: list[int]) -> int:
    for seed in seeds:
        for name, use_policy in (("fresh hint", False), ("policy", True)):
            status, hinted, reversed_, repeated, searches = follow(seed, use_policy)
            print(f"deal {seed} {name:>10}: {status}, {hinted} hints, {reversed_} reversed, "
                  f"{repeated} repeated, {searches} searches", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main([int(a) for a in sys.argv[1:]] or [5, 7]))
