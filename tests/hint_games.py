"""Deals for following hints to a win, and the check that a game never went back.

Shared by the hint policy's tests (``tests/test_hinting.py``), the web API's
(``tests/web/test_web_hint_policy.py``) and the terminal game's (``tests/tui/test_tui_hints.py``); a position
where hints run out, by the web table's (``tests/web/test_newplayer_play.py``) and the terminal game's.
"""

from __future__ import annotations

from typing import Any

import yukon
from yukon import Game, Move
from yukon.hinting import is_reverse
from yukon.solver.key import position_key

#: (variant, options, deal): winnable deals the solver wins within a second or two, of every
#: variant and every rule option (the variant's defaults, any card in an empty column, the
#: other foundation-return rule).
CASES: list[tuple[str, dict[str, Any], int]] = [
    ("yukon", {}, 1),
    ("yukon", {"empty_column": "any"}, 3),
    ("yukon", {"foundation_return": True}, 3),
    ("russian", {}, 22),
    ("russian", {"empty_column": "any"}, 2),
    ("russian", {"foundation_return": True}, 27),
    ("alaska", {}, 3),
    ("alaska", {"empty_column": "any"}, 2),
    ("alaska", {"foundation_return": True}, 3),
    ("australian", {}, 2),
    ("australian", {"empty_column": "any"}, 2),
    ("australian", {"foundation_return": True}, 2),
    ("milligan-yukon", {}, 2),
    ("milligan-yukon", {"empty_column": "any"}, 8),
    ("milligan-yukon", {"foundation_return": False}, 2),
]

#: Round in circles: the 9♠ alone can move, from the 10♥ to the 10♦ (``ROUND_IN_CIRCLES_MOVE``), and then only
#: back, the rest face down under them: after that move every move leads back to a position seen already.
ROUND_IN_CIRCLES = "yukon,kings,noreturn JSQSKSJHQHKH9H.TH9S/8STSJDQDKD9D.TD/-/-/-/-/- 7S/8H/8D/KC"
ROUND_IN_CIRCLES_MOVE = "1:9S>2"

#: More deals for the slow version (seeds 1-12 of every variant and option, winnable or not).
SLOW_SEEDS = range(1, 13)


def most_searches(variant: str) -> int:
    """The searches a game of ``variant`` played by following hints alone may make, in any interface (the same
    policy): one at the deal, and a few more where the line found would go back or auto-play takes another
    route than the line's. Milligan Yukon's first line comes from the best-first phase since solver 14 (before
    the probes), and auto-play leaves it a little more often: after auto-play put up a card the line moves
    otherwise, the rest of the line no longer replays (a group move of it no longer fits: ``1:4C+6>7`` finds 2
    cards on the 4♣, not 6) and the policy searches again (milligan-yukon empty_column=any deal 8, auto-play on:
    4 such, 5 searches, in the policy's own test and at the terminal alike)."""
    return 6 if variant == "milligan-yukon" else 4


def case_id(case: tuple[str, dict[str, Any], int]) -> str:
    variant, options, seed = case
    words = [f"{k}={v}" for k, v in options.items()]
    return "-".join([variant, *words, str(seed)])


def assert_never_went_back(start: Game, moves: list[str]) -> None:
    """Replaying ``moves`` from ``start``: no move takes back the one just played and no position is
    reached twice (columns in any order count as the same position), unless no other move wins there
    (the solver checks the others, given 10 seconds each)."""
    g = start.copy()
    seen = {position_key(g): 0}
    last = None
    for i, text in enumerate(moves, start=1):
        before = g.copy()
        move = g.push_text(text)
        key = position_key(g)
        problem = ""
        if last is not None and is_reverse(move, last):
            problem = f"move {i} ({text}) takes back move {i - 1}"
        elif key in seen:
            problem = f"move {i} ({text}) goes back to the position after move {seen[key]}"
        if problem:
            other = _other_winning_move(before, move, last, set(seen))
            assert other is None, f"{problem}, yet {other} wins"
        seen.setdefault(key, i)
        last = move


def _other_winning_move(game: Game, played: Move, last: Move | None, seen: set[bytes]) -> str | None:
    for m in game.legal_moves():
        if m == played or (last is not None and is_reverse(m, last)):
            continue
        after = game.copy()
        after.push(m)
        if position_key(after) not in seen and (after.is_won() or yukon.solve(after, time_limit=10).status == "won"):
            return str(m)
    return None
