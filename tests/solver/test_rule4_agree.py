"""Rule 4's two implementations against each other: ``never_up`` (relaxation.py, before any search) and the
compiled ``relaxed_lost`` (core/position.c, at every swap class the search enters), position by position.

Both compute the least set of events closed under the needs of docs/solver-design.md ("Rule 4"), so on
every position where both apply they must give one answer: the C closure says lost exactly when
``never_up`` names a card. They apply together with one deck, no stock or waste, no foundation return, and
swap classes (alternating colours and Alaska's building); with same-suit building (Russian Solitaire) the
compiled search has no classes and never asks the relaxation, and where neither applies both stay silent.

``relaxed_lost`` has no entry of its own: it is reached through ``_core.search``. For a position Q with a
card on the foundations, the probe searches a parent R: Q with the top card x of a foundation back on the
first column, under a rule 1 table that calls x alone safe. R's only move is x up (rule 1 forces it), which
enters Q as a new class, where rule 4 runs before any move of Q is tried: with ``relax`` on, the search
ends lost after that one node exactly when ``relaxed_lost(Q)``, and otherwise goes on into Q's moves (the
node limit then stops it). The same search without ``relax`` tells apart a Q with no move to try at all.
The table changes which positions rule 1 forces, not the relaxation, which reads no safety table.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yukon import Game, rules_for
from yukon.cards import SUIT
from yukon.solver import search
from yukon.solver.relaxation import never_up

from .positions import small_position, stuck_position
from .reference import reference_solve

pytestmark = pytest.mark.skipif(search._core is None, reason="the compiled core was not built")

#: the options where both implementations apply: (variant, empty column)
BOTH = [(variant, empty) for variant in ("yukon", "alaska") for empty in ("kings", "any")]
NEVER_SAFE = 14  # no foundation is that high: a card needing it is never safe
#: the search checks its node limit every few thousand nodes: a probe costs at most that many
NODE_LIMIT = 1


def heights_of(game: Game) -> list[int]:
    heights = [0, 0, 0, 0]
    for pile in game.foundation_piles:
        if pile:
            heights[SUIT[pile[0]]] = len(pile)
    return heights


def only_safe(card: int) -> bytes:
    """A rule 1 table (``yukon.rules.safe_table``'s layout) under which ``card`` alone is ever safe."""
    table = bytearray([NEVER_SAFE] * 52 * 4)
    table[card * 4:card * 4 + 4] = bytes(4)
    return bytes(table)


def core_search(game: Game, columns: list[list[int]], heights: list[int], safe: bytes, relax: bool,
                node_limit: int) -> tuple[str, int]:
    """``_core.search`` on this position, one thread, rule 4 in the search alone on or off: (status, nodes)."""
    rules = game.rules
    stock = list(game.stock_cards) if rules.has_waste else None
    waste = list(game.waste_cards) if rules.has_waste else None
    core = search._core
    assert core is not None
    status, _line, nodes, _peak, _seconds, _reason = core.search(
        columns, list(game.down_counts), heights, rules.build_rule.table, rules.build_rule.code,
        int(rules.kings_only), int(rules.foundation_return), node_limit, 0.0, 0, None, stock, waste, 1, 2_000_000,
        True, True, True, True, safe=safe, interleave=False, blocks=rules.foundation_return, relax=relax)
    return status, nodes


def compiled_relaxed_lost(game: Game) -> bool | None:
    """``relaxed_lost`` on ``game``'s position as the compiled search runs it (see the module's text); None
    where the probe cannot tell: no card on the foundations, or no move for the search to try there."""
    rules = game.rules
    assert rules.decks == 1 and not rules.has_stock and not rules.foundation_return
    heights = heights_of(game)
    if game.is_won() or not any(heights):
        return None
    suit = max(range(4), key=lambda s: heights[s])
    x = (heights[suit] - 1) * 4 + suit  # the top card of that foundation
    parent_heights = list(heights)
    parent_heights[suit] -= 1
    columns = [list(c) for c in game.column_cards]
    columns[0].append(x)  # face up: the parent's move x up leaves the column as the position has it

    def run(relax: bool) -> tuple[str, int]:
        return core_search(game, columns, parent_heights, only_safe(x), relax, NODE_LIMIT)

    if run(relax=True) != ("lost", 1):
        return False
    if run(relax=False) == ("lost", 1):
        return None  # lost after one node without the rule too: the position has no move to try
    return True


def check(game: Game) -> bool | None:
    """The two answers on ``game``, asserted equal; the answer (None: the probe could not tell)."""
    compiled = compiled_relaxed_lost(game)
    if compiled is not None:
        python = never_up(game)
        assert compiled == bool(python), (
            f"rule 4 disagrees on {game.to_text()}: compiled {'lost' if compiled else 'not lost'}, "
            f"never_up {python}")
    return compiled


def playout(variant: str, empty: str, seed: int, rng: random.Random, steps: int) -> list[Game]:
    """The positions of a random play-out of deal ``seed`` (at most ``steps`` moves)."""
    game = Game.deal(variant, seed=seed, empty_column=empty)
    seen = []
    for _ in range(steps):
        seen.append(game.copy())
        moves = game.legal_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
    return seen


@pytest.mark.parametrize(("variant", "empty"), BOTH)
def test_they_agree_on_random_play_outs(variant: str, empty: str) -> None:
    rng = random.Random(f"rule-4-agree-{variant}-{empty}")
    answers: Counter[bool | None] = Counter()
    for seed in range(1, 31):
        for game in playout(variant, empty, seed, rng, 150):
            answers[check(game)] += 1
    # both answers, many times each: the comparison has teeth either way
    assert answers[True] >= 200 and answers[False] >= 200, answers


@pytest.mark.parametrize(("variant", "empty"), BOTH)
def test_they_agree_on_small_and_stuck_positions(variant: str, empty: str) -> None:
    """The generators of test_relaxation.py, whose positions lie near the rule's edge: few cards left, many
    face down, cards lying on every card they fit on; with any card into empty columns, every column used
    (the rule fires only where no column can be emptied in time: in Alaska that is rare, the play-outs
    above hold its proofs)."""
    rng = random.Random(f"rule-4-small-{variant}-{empty}")
    answers: Counter[bool | None] = Counter()
    for i in range(1200):
        if empty == "any":
            game: Game | None = small_position(rng, variant, empty, False, remaining=(8, 20), down_chance=0.95,
                                               used=(7, 7))
        else:
            game = (small_position(rng, variant, empty, False, remaining=(6, 20), down_chance=0.9) if i % 2
                    else stuck_position(rng, variant, empty, False, remaining=(6, 14)))
        if game is not None:
            answers[check(game)] += 1
    assert answers[True] >= 1 and answers[False] >= 200, answers


@settings(max_examples=60, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(option=st.sampled_from(BOTH), seed=st.integers(1, 10**6), moves=st.lists(st.integers(0, 10**6), max_size=120))
def test_they_agree_along_any_play_out(option: tuple[str, str], seed: int, moves: list[int]) -> None:
    variant, empty = option
    game = Game.deal(variant, seed=seed, empty_column=empty)
    check(game)
    for pick in moves:
        legal = game.legal_moves()
        if not legal:
            break
        game.push(legal[pick % len(legal)])
        check(game)


def test_the_probe_reads_the_compiled_answer() -> None:
    """The probe on positions whose answer is known: the Queen of diamonds lies on the
    King of clubs, above the Jack she would follow up, and can go nowhere else (no King of spades free, no
    Queen into an empty column): lost, the plain search agrees; two cards from won; and the positions the
    probe leaves alone."""
    lost = Game.from_text("yukon,kings,noreturn -/-/-/-/KDQS/-/KSJDKC.QD JS/KH/TD/QC")
    assert compiled_relaxed_lost(lost) is True and never_up(lost)
    assert reference_solve(lost, max_states=5000).status == "lost"  # type: ignore[union-attr]
    nearly_won = Game.from_text("yukon,kings,noreturn KD.QS/KS/-/-/-/-/- JS/KH/QD/KC")
    assert compiled_relaxed_lost(nearly_won) is False and never_up(nearly_won) == []
    assert compiled_relaxed_lost(Game.deal("yukon", seed=1)) is None  # nothing up yet
    assert compiled_relaxed_lost(Game.from_text("yukon,kings,noreturn -/-/-/-/-/-/- KS/KH/KD/KC")) is None


@pytest.mark.parametrize(("variant", "empty", "ret"), [
    ("russian", "kings", False), ("russian", "any", False), ("yukon", "kings", True), ("alaska", "any", True),
    ("australian", "kings", False),
])
def test_the_compiled_search_never_asks_it_where_it_has_no_classes_or_it_does_not_apply(
        variant: str, empty: str, ret: bool) -> None:
    """Russian Solitaire (same-suit building: no swap classes), foundation return, a stock: the compiled
    search with rule 4 on searches node for node as with it off, on positions where ``never_up`` proves
    some move's position lost (so rule 4 in the search would cut, were it asked) wherever it applies
    (Russian Solitaire: there it runs before the search alone; with return or a stock it names nothing,
    test_relaxation.py)."""
    rng = random.Random(f"rule-4-silent-{variant}-{empty}-{ret}")
    rules = rules_for(variant, empty_column=empty, foundation_return=ret)
    cut = 0
    for _ in range(60):
        game = small_position(rng, variant, empty, ret, remaining=(8, 16), down_chance=0.9)
        args = ([list(c) for c in game.column_cards], heights_of(game), search.safe_table(rules.build_rule))
        assert core_search(game, *args, True, 20_000) == core_search(game, *args, False, 20_000), game.to_text()
        for move in game.legal_moves():
            child = game.copy()
            child.push(move)
            cut += bool(never_up(child))
    if (variant, empty) == ("russian", "kings"):
        assert cut >= 20, cut
