"""The hint policy shared by every interface: it follows the line it found and never goes back."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import Any

import pytest

import yukon
from hint_games import CASES, SLOW_SEEDS, assert_never_went_back, case_id, most_searches
from yukon import Game, Move, rules_for
from yukon.autoplay import next_safe_move
from yukon.hinting import DEAL_LOST, POSITION_LOST, HintPolicy, is_reverse
from yukon.notation import FOUNDATION
from yukon.session import PlaySession

#: Time for one search: generous, as the machine may be busy; a followed line costs none.
SEARCH_TIME = 10.0


@dataclass
class FakeHint:
    """A hint function's answer, as :func:`yukon.hint` gives it."""

    move: Move | str | None
    status: str
    source: str = "solver"
    line: list[Any] = field(default_factory=list)


class CountingHint:
    """The solver's hint, counting the searches (and the positions searched)."""

    def __init__(self) -> None:
        self.positions: list[str] = []

    def __call__(self, game: Game, time_limit: float, stop: threading.Event | None) -> Any:
        self.positions.append(game.to_text())
        return yukon.hint(game, time_limit=time_limit, stop=stop)


def follow_hints(rules: Any, seed: int, autoplay: bool, limit: int = 1500) -> tuple[PlaySession, HintPolicy, str]:
    """Play nothing but the policy's hints (auto-play on or off); the first hint's status too."""
    session = PlaySession(Game.deal(rules, seed=seed), None, client="test", autoplay=autoplay, autofinish=autoplay)
    policy = HintPolicy(time_limit=SEARCH_TIME)
    first = ""
    for _ in range(limit):
        if session.status != "playing":
            break
        advice = policy.advise(session.game)
        first = first or advice.status
        if first != "won":
            break  # not known to be winnable: nothing to follow
        assert advice.move is not None
        session.play(advice.move)
    return session, policy, first


@pytest.mark.parametrize("autoplay", [True, False], ids=["autoplay", "no-autoplay"])
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_hints_alone_win_every_variant_and_option_without_going_back(
    case: tuple[str, dict[str, Any], int], autoplay: bool,
) -> None:
    variant, options, seed = case
    session, policy, first = follow_hints(rules_for(variant, **options), seed, autoplay)
    assert first == "won"
    assert session.status == "won"
    assert_never_went_back(session.start, [str(m) for m in session.moves])
    assert policy.searches <= most_searches(variant)  # the line found is followed


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("YUKON_SLOW_TESTS"), reason="set YUKON_SLOW_TESTS=1 for the long version")
@pytest.mark.parametrize("variant", ["yukon", "russian", "alaska", "australian", "milligan-yukon"])
def test_hints_alone_many_deals(variant: str) -> None:
    """Seeds 1-12 of every option set: every deal the first hint calls winnable is won without going back."""
    for options in ({}, {"empty_column": "any"}, {"foundation_return": not rules_for(variant).foundation_return}):
        for seed in SLOW_SEEDS:
            for autoplay in (True, False):
                session, _, first = follow_hints(rules_for(variant, **options), seed, autoplay)
                if first == "won":  # (a deal not known to be winnable may well go round in circles)
                    assert session.status == "won", (options, seed, autoplay)
                    assert_never_went_back(session.start, [str(m) for m in session.moves])


def test_following_the_line_needs_no_new_search() -> None:
    counting = CountingHint()
    policy = HintPolicy(counting, time_limit=SEARCH_TIME)
    game = Game.deal("yukon", seed=1)
    first = policy.advise(game)
    assert first.status == "won" and not first.followed and len(counting.positions) == 1
    for expected in first.line[:10]:
        advice = policy.advise(game)
        assert advice.move == expected and advice.followed and advice.seconds == 0
        game.push(advice.move)
    assert len(counting.positions) == 1


def test_after_a_deviation_it_searches_again_from_the_new_position() -> None:
    counting = CountingHint()
    policy = HintPolicy(counting, time_limit=SEARCH_TIME)
    game = Game.deal("yukon", seed=1)
    first = policy.advise(game)
    other = next(m for m in game.legal_moves() if m != first.move and m.dst != yukon.FOUNDATION)
    game.push(other)
    advice = policy.advise(game)
    assert not advice.followed and counting.positions == [Game.deal("yukon", seed=1).to_text(), game.to_text()]
    assert advice.move in game.legal_moves()


def test_undo_along_the_line_finds_its_place_again() -> None:
    counting = CountingHint()
    policy = HintPolicy(counting, time_limit=SEARCH_TIME)
    game = Game.deal("yukon", seed=1)
    line = policy.advise(game).line
    for m in line[:5]:
        game.push(m)
    game.pop()
    game.pop()
    advice = policy.advise(game)
    assert advice.followed and advice.move == line[3] and len(counting.positions) == 1


def test_foundation_plays_of_auto_play_keep_the_line() -> None:
    """Auto-play puts safe cards up before the line would: the rest of the line still serves."""
    counting = CountingHint()
    policy = HintPolicy(counting, time_limit=SEARCH_TIME)
    session = PlaySession(Game.deal("yukon", seed=3), None, client="test", autoplay=True)
    auto_seen = 0
    while session.status == "playing":
        played = session.play(policy.advise(session.game).move)  # type: ignore[arg-type]
        auto_seen += len(played) - 1
    assert session.status == "won" and auto_seen > 0 and len(counting.positions) == 1


#: QS on KH in column 1, KS in column 2, the rest up; any card may fill an empty column.
TWO_LEFT = "yukon,any,noreturn KHQS/KS/-/-/-/-/- JS/QH/KD/KC"


def test_never_the_reverse_of_the_move_just_played_when_another_move_wins() -> None:
    game = Game.from_text(TWO_LEFT)
    game.push_text("1:QS>3")
    back = game.parse_move("3:QS>1")
    assert is_reverse(back, game.move_stack[-1])

    def stubborn(g: Game, time_limit: float, stop: threading.Event | None) -> Any:
        if g == game:  # a winning line that starts by taking back the last move
            return FakeHint(back, "won", line=[back, "1:QS>F", "1:KH>F", "2:KS>F"])
        return yukon.hint(g, time_limit=time_limit, stop=stop)

    advice = HintPolicy(stubborn, time_limit=SEARCH_TIME).advise(game)
    assert advice.status == "won" and advice.move != back
    # 3:QS>4 would be the same position in another column order: seen already
    assert str(advice.move) in ("3:QS>F", "1:KH>F")
    g = game.copy()
    for m in advice.line:
        g.push(m)
    assert g.is_won()


def test_a_line_that_comes_back_to_where_it_was_is_cut_short() -> None:
    game = Game.from_text(TWO_LEFT)
    game.push_text("1:QS>3")

    def loopy(g: Game, time_limit: float, stop: threading.Event | None) -> Any:
        return FakeHint("3:QS>1", "won", line=["3:QS>1", "1:QS>3", "3:QS>F", "1:KH>F", "2:KS>F"])

    advice = HintPolicy(loopy).advise(game)
    assert [str(m) for m in advice.line] == ["3:QS>F", "1:KH>F", "2:KS>F"]


def test_a_deal_proved_lost_says_so() -> None:
    lost_at_start = Game.from_text("yukon,kings,noreturn JSKH.QS/JHKS.QH/JDKC.QD/JCKD.QC/TC/-/- TS/TH/TD/9C")
    policy = HintPolicy(time_limit=SEARCH_TIME)
    advice = policy.advise(lost_at_start)
    assert advice.status == "lost" and advice.note == DEAL_LOST
    assert advice.move is not None  # the solver's best try is still shown
    # later in the same game the deal is still the reason
    lost_at_start.push(advice.move)
    if lost_at_start.has_legal_move():
        assert policy.advise(lost_at_start).note == DEAL_LOST


def test_a_deal_lost_after_only_its_automatic_plays_is_the_deal_lost() -> None:
    # deal 123's A♥ goes up with the deal: the hint said "undo to find a winning line" with nothing to undo
    def lost(g: Game, time_limit: float, stop: threading.Event | None) -> Any:
        return FakeHint(g.legal_moves()[0], "lost")

    dealt = Game.deal("yukon", seed=6)
    dealt.push(next_safe_move(dealt) or dealt.legal_moves()[0])  # (deal 6 has an Ace face up and free)
    assert dealt.move_stack[0].dst == FOUNDATION
    assert HintPolicy(lost).advise(dealt).note == DEAL_LOST
    dealt.push(next(m for m in dealt.legal_moves() if m.dst != FOUNDATION))  # a move of the player's
    assert HintPolicy(lost).advise(dealt).note == POSITION_LOST


def test_a_position_lost_after_moves_points_to_undo() -> None:
    game = Game.from_text("russian,any,noreturn TSQS.KH/THQH.KD/TDQD.KC/TCQC.KS/JS.JH/JDJC/- 9S/9H/9D/9C")
    game.push_text("6:JC>7")  # fills the last empty column: lost, but moves are left
    advice = HintPolicy(time_limit=SEARCH_TIME).advise(game)
    if advice.move is not None:
        assert advice.status == "lost" and advice.note == POSITION_LOST
    else:  # no legal move at all
        assert advice.note == "No legal move is left"


def test_an_honest_hint_function_fits_and_replans_after_a_card_turns() -> None:
    """Any hint function fits (here one giving notation): with ``replan_after_reveal`` the line is
    followed only up to the first move that turns a face-down card."""
    counting = CountingHint()

    def as_text(g: Game, time_limit: float, stop: threading.Event | None) -> Any:
        r = counting(g, time_limit, stop)
        return FakeHint(None if r.move is None else str(r.move), r.status, r.source, [str(m) for m in r.line])

    policy = HintPolicy(as_text, time_limit=SEARCH_TIME, replan_after_reveal=True)
    game = Game.deal("yukon", seed=1)
    for _ in range(30):
        down = game.face_down_count
        advice = policy.advise(game)
        assert advice.move is not None
        game.push(advice.move)
        if game.face_down_count < down:
            searches = len(counting.positions)
            policy.advise(game)
            assert len(counting.positions) == searches + 1  # a card turned: a new search
            break
    else:
        pytest.fail("no card turned in 30 hinted moves")
