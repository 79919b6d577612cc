"""Rule 4's two implementations against each other: ``never_up`` (relaxation.py, before any search) and the
compiled ``relaxed_lost`` (core/position.c, at every swap class the search enters), position by position.

Both compute the least set of events closed under the needs of docs/solver-design.md ("Rule 4"), so on
every position where both apply they must give one answer: the C closure says lost exactly when
``never_up`` names a card. They apply together with one deck, no stock or waste, with or without foundation
return, and swap classes (alternating colours and Alaska's building); with same-suit building (Russian
Solitaire) the compiled search has no classes and never asks the relaxation, and where neither applies both
stay silent.

With foundation return the closure is compared through ``_core.relaxed_lost`` (the same C function on one
position, no search; the probe below needs rule 1, which is off with return), on every position, Russian
Solitaire's too; without return that entry is checked against the probe, so both read one closure.

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
from collections.abc import Callable

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


def direct_relaxed_lost(game: Game) -> bool:
    """``relaxed_lost`` on ``game``'s position through its own entry, ``_core.relaxed_lost``."""
    rules = game.rules
    core = search._core
    assert core is not None
    return core.relaxed_lost([list(c) for c in game.column_cards], list(game.down_counts), heights_of(game),
                             rules.build_rule.table, rules.kings_only, rules.foundation_return)


def check_direct(game: Game) -> bool:
    """The direct C answer against ``never_up`` (and, without return, against the probe), asserted equal."""
    compiled = direct_relaxed_lost(game)
    python = never_up(game)
    assert compiled == bool(python), (
        f"rule 4 disagrees on {game.to_text()}: compiled {'lost' if compiled else 'not lost'}, never_up {python}")
    if not game.rules.foundation_return:
        probed = compiled_relaxed_lost(game)
        assert probed is None or probed == compiled, game.to_text()
    return compiled


def check(game: Game) -> bool | None:
    """The two answers on ``game``, asserted equal; the answer (None: the probe could not tell)."""
    compiled = compiled_relaxed_lost(game)
    if compiled is not None:
        python = never_up(game)
        assert compiled == bool(python), (
            f"rule 4 disagrees on {game.to_text()}: compiled {'lost' if compiled else 'not lost'}, "
            f"never_up {python}")
    return compiled


def playout(variant: str, empty: str, seed: int, rng: random.Random, steps: int, ret: bool = False) -> list[Game]:
    """The positions of a random play-out of deal ``seed`` (at most ``steps`` moves)."""
    game = Game.deal(variant, seed=seed, empty_column=empty, foundation_return=ret)
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


def play_out(game: Game, moves: list[int], checked: Callable[[Game], object]) -> None:
    """``checked`` on ``game`` and after each move of a play-out that picks the legal moves by ``moves``."""
    checked(game)
    for pick in moves:
        legal = game.legal_moves()
        if not legal:
            break
        game.push(legal[pick % len(legal)])
        checked(game)


@settings(max_examples=60, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(option=st.sampled_from(BOTH), seed=st.integers(1, 10**6), moves=st.lists(st.integers(0, 10**6), max_size=120))
def test_they_agree_along_any_play_out(option: tuple[str, str], seed: int, moves: list[int]) -> None:
    variant, empty = option
    play_out(Game.deal(variant, seed=seed, empty_column=empty), moves, check)


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
    ("russian", "kings", False), ("russian", "any", False), ("russian", "kings", True),
    ("australian", "kings", False),
])
def test_the_compiled_search_never_asks_it_where_it_has_no_classes_or_it_does_not_apply(
        variant: str, empty: str, ret: bool) -> None:
    """Russian Solitaire (same-suit building: no swap classes), a stock: the compiled search with rule 4 on
    searches node for node as with it off, on positions where ``never_up`` proves some move's position lost
    (so rule 4 in the search would cut, were it asked) wherever it applies (Russian Solitaire: there it runs
    before the search alone; with a stock it names nothing, test_relaxation.py)."""
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


# ---------------------------------------------------------------- with foundation return

#: the options with foundation return where rule 4 applies: (variant, empty column)
WITH_RETURN = [(variant, empty) for variant in ("yukon", "alaska", "russian") for empty in ("kings", "any")]


@pytest.mark.parametrize(("variant", "empty"), WITH_RETURN)
def test_with_return_they_agree_on_random_play_outs(variant: str, empty: str) -> None:
    """Play-outs with returns among the moves (cards go up and come down), most positions with cards on the
    foundations: the C closure and ``never_up`` give one answer, both answers many times."""
    rng = random.Random(f"rule-4-return-{variant}-{empty}")
    answers: Counter[tuple[bool, bool]] = Counter()
    for seed in range(1, 21):
        for game in playout(variant, empty, seed, rng, 150, ret=True):
            answers[check_direct(game), any(heights_of(game))] += 1
    # (Russian Solitaire's random play-outs are soon stuck for good: few positions there are not lost)
    assert answers[True, True] >= 30 and answers[False, True] + answers[False, False] >= 5, answers


@pytest.mark.parametrize(("variant", "empty"), WITH_RETURN)
def test_with_return_they_agree_on_small_and_stuck_positions(variant: str, empty: str) -> None:
    rng = random.Random(f"rule-4-return-small-{variant}-{empty}")
    answers: Counter[bool] = Counter()
    for i in range(600):
        if empty == "any":
            game: Game | None = small_position(rng, variant, empty, True, remaining=(8, 20), down_chance=0.95,
                                               used=(7, 7))
        else:
            game = (small_position(rng, variant, empty, True, remaining=(6, 20), down_chance=0.9) if i % 2
                    else stuck_position(rng, variant, empty, True, remaining=(6, 14)))
        if game is not None:
            answers[check_direct(game)] += 1
    assert answers[False] >= 100, answers


@pytest.mark.parametrize(("variant", "empty"), BOTH)
def test_the_direct_entry_is_the_closure_the_search_runs(variant: str, empty: str) -> None:
    """Without return, ``_core.relaxed_lost`` against the probe through the search (and ``never_up``)."""
    rng = random.Random(f"rule-4-direct-{variant}-{empty}")
    answers: Counter[bool] = Counter()
    for seed in range(1, 11):
        for game in playout(variant, empty, seed, rng, 100):
            answers[check_direct(game)] += 1
    assert answers[True] >= 50 and answers[False] >= 50, answers


@settings(max_examples=60, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(option=st.sampled_from(WITH_RETURN), seed=st.integers(1, 10**6),
       moves=st.lists(st.integers(0, 10**6), max_size=120))
def test_with_return_they_agree_along_any_play_out(option: tuple[str, str], seed: int, moves: list[int]) -> None:
    variant, empty = option
    play_out(Game.deal(variant, seed=seed, empty_column=empty, foundation_return=True), moves, check_direct)


def test_the_direct_entry_reads_a_card_that_may_come_down() -> None:
    """A position that is lost without return and won with it (test_relaxation.SAVED_BY_A_RETURN): the
    4C and 3C must come down for the 2H to leave the AH. Both closures say lost without, not lost with."""
    text = "yukon,kings,{} AH.2H/4H/3H/KHQHJHTH9H8H7H6H5H/KCQCJCTC9C8C7C6C5C/-/- KS/-/KD/4C"
    assert check_direct(Game.from_text(text.format("noreturn"))) is True
    assert check_direct(Game.from_text(text.format("return"))) is False


@pytest.mark.parametrize(("variant", "empty"), [("yukon", "kings"), ("yukon", "any"), ("alaska", "kings")])
def test_with_return_the_compiled_search_asks_it(variant: str, empty: str) -> None:
    """With foundation return and swap classes the search runs rule 4 at the classes it enters: on play-out
    positions where it proves some move's position lost, the search with it differs from the search without
    it (fewer nodes, or the same count where no class it enters is proved), and the verdicts agree."""
    rng = random.Random(f"rule-4-asked-{variant}-{empty}")
    rules = rules_for(variant, empty_column=empty, foundation_return=True)
    fewer = 0
    for seed in range(1, 16):
        for game in playout(variant, empty, seed, rng, 60, ret=True)[20::10]:
            args = ([list(c) for c in game.column_cards], heights_of(game), search.safe_table(rules.build_rule))
            on = core_search(game, *args, True, 200_000)
            off = core_search(game, *args, False, 200_000)
            if "unknown" not in (on[0], off[0]):
                assert on[0] == off[0], game.to_text()
            assert on[1] <= off[1] or on[0] == "won" or off[0] == "won", game.to_text()
            fewer += on[1] < off[1]
    assert fewer >= 5, fewer
