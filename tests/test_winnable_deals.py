"""The search for a winnable deal, shared by the web table and the terminal game."""

from __future__ import annotations

import threading
import time

from wall_clock import LOADED
from yukon import Game
from yukon.winnable_deals import PROVED, find_winnable_deal

#: Russian Solitaire deals 1 and 2 are proved lost at once; 22 is won.
LOST_THEN_WON = [1, 2, 22]


def russian(seed: int) -> Game:
    return Game.deal("russian", seed=seed)


def test_lost_deals_are_passed_over() -> None:
    found = find_winnable_deal(russian, threading.Event(), seeds=iter(LOST_THEN_WON))
    assert (found.seed, found.status, found.note, found.tried) == (22, "won", PROVED, 3)


def test_out_of_deals_the_last_one_is_offered_and_says_it_is_not_proved() -> None:
    found = find_winnable_deal(russian, threading.Event(), seeds=iter([1, 2]))
    assert (found.seed, found.status, found.tried) == (2, "unknown", 2)
    assert "not proven winnable" in found.note


def test_a_stop_event_ends_the_search() -> None:
    stop = threading.Event()
    stop.set()
    started = time.monotonic()
    found = find_winnable_deal(lambda s: Game.deal("milligan-yukon", seed=s), stop, seeds=iter(range(100, 200)))
    assert found.status in ("unknown", "won") and found.tried == 1
    assert time.monotonic() - started < 5  # the solver's reaction time on a busy machine, not 100 deals


def test_the_budget_ends_the_search() -> None:
    started = time.monotonic()
    found = find_winnable_deal(russian, threading.Event(), per_deal=0.2, budget=0.0, seeds=iter([1, 2, 22]))
    assert found.status == "unknown" and found.tried == 1 and "within 0 s" in found.note
    assert time.monotonic() - started < 5


# ------------------------------------------------------------------ from the shipped verdicts

import pytest  # noqa: E402

import yukon  # noqa: E402
import yukon.solver  # noqa: E402
from yukon import deal_data, winnable_deals  # noqa: E402
from yukon import difficulty as difficulty_module  # noqa: E402
from yukon.difficulty import EASY_MEDIUM_HARD, EASY_OR_HARD  # noqa: E402
from yukon.rules import rules_for  # noqa: E402
from yukon.winnable_deals import (  # noqa: E402
    NoSuchDealError,
    deal_difficulty,
    deal_from_data,
    pick_deal,
    shown_difficulty,
)


@pytest.fixture
def no_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver ran although the shipped verdicts know these deals")

    monkeypatch.setattr(yukon, "solve", refuse)
    monkeypatch.setattr(yukon.solver, "solve", refuse)


@pytest.mark.parametrize("variant", list(yukon.VARIANTS))
def test_a_winnable_deal_comes_from_the_data_without_the_solver(no_solver: None, variant: str) -> None:
    rules = rules_for(variant)
    started = time.monotonic()
    found = find_winnable_deal(lambda seed: Game.deal(rules, seed=seed), threading.Event())
    assert time.monotonic() - started < LOADED  # a look-up; the solver would fail the test at once
    assert found.status == "won" and found.note == PROVED and found.tried == 0
    known = deal_data.verdict_for(rules, found.seed)
    assert known is not None and known.status == "won"


def test_known_seeds_are_answered_by_the_data(no_solver: None) -> None:
    """The seeds given: the data's lost ones are passed over, its won one taken, no search."""
    lost = [v.seed for v in deal_data.verdicts("russian", status="lost")][:3]
    won = deal_data.verdicts("russian", status="won")[0].seed
    found = find_winnable_deal(russian, threading.Event(), seeds=iter([*lost, won]))
    assert (found.seed, found.status, found.tried) == (won, "won", 4)


def test_rules_the_data_lacks_fall_back_to_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deal_data, "has_verdicts", lambda *a, **k: False)
    monkeypatch.setattr(deal_data, "verdict_for", lambda *a, **k: None)
    calls: list[int] = []
    real = yukon.solve

    def counted(game: Game, **kwargs: object) -> object:
        calls.append(1)
        return real(game, **kwargs)

    monkeypatch.setattr(yukon, "solve", counted)
    found = find_winnable_deal(russian, threading.Event(), seeds=iter(LOST_THEN_WON))
    assert found.seed == 22 and found.status == "won"
    assert deal_from_data(rules_for("russian"), "winnable") is None  # the caller searches as before


@pytest.mark.parametrize("kind, difficulty, status", [("lost", None, "lost"), ("winnable", "hard", "won"),
                                                      ("winnable", "easy", "won"), ("winnable", None, "won")])
def test_pick_a_deal_of_a_kind(no_solver: None, kind: str, difficulty: str | None, status: str) -> None:
    rules = rules_for("yukon")
    for _ in range(5):
        found = pick_deal(rules, kind, difficulty)
        known = deal_data.verdict_for(rules, found.seed)
        assert known is not None and known.status == status == found.status
        assert difficulty is None or known.difficulty == difficulty
        assert (difficulty or "") in found.note


def test_pick_refuses_what_the_data_cannot_give(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = rules_for("yukon")
    for kind, difficulty in (("maybe", None), ("lost", "hard"), ("winnable", "impossible")):
        with pytest.raises(NoSuchDealError):
            pick_deal(rules, kind, difficulty)
    with pytest.raises(NoSuchDealError, match="no proven lost deal"):
        pick_deal(rules_for("milligan-yukon", empty_column="any"), "lost")
    monkeypatch.setattr(winnable_deals, "secrets", type("S", (), {"randbelow": staticmethod(lambda n: 0)}))
    first_lost = deal_data.verdicts("yukon", "kings", False, status="lost")[0]
    assert pick_deal(rules, "lost").seed == first_lost.seed


def test_a_grade_is_shown_only_to_a_player_who_knows_the_deal_is_winnable_or_has_finished() -> None:
    """A grade exists only for deals proven winnable: shown on a deal dealt by number or as any deal, it would
    say so. shown_difficulty gives it when the player asked for (and got) a winnable deal, or after the game."""
    rules = rules_for("yukon")
    v = next(v for v in deal_data.verdicts("yukon", "kings", False, status="won") if v.difficulty == "expert")
    assert deal_difficulty(rules, v.seed) == "expert"
    assert shown_difficulty(rules, v.seed, "yukon", told_winnable=False, over=False) is None
    assert shown_difficulty(rules, v.seed, "yukon", told_winnable=True, over=False) == "expert"
    assert shown_difficulty(rules, v.seed, "yukon", told_winnable=False, over=True) == "expert"
    lost = deal_data.verdicts("yukon", "kings", False, status="lost")[0]
    for seed in (lost.seed, 2**64 - 1, None):  # a lost deal, an unknown one, an own position: none, ever
        assert shown_difficulty(rules, seed, "yukon", told_winnable=True, over=True) is None
    assert shown_difficulty(rules, v.seed, "pysolfc", told_winnable=True, over=True) is None  # another deal
    won = deal_data.verdicts("russian", "kings", False, status="won")[0]  # rules that offer no grade
    assert shown_difficulty(rules_for("russian"), won.seed, "yukon", told_winnable=True, over=True) is None


def test_any_deal_says_nothing_of_itself(no_solver: None) -> None:
    found = pick_deal(rules_for("yukon"), "any")
    assert (found.status, found.note) == ("unknown", "")


@pytest.mark.parametrize("scale, difficulty, words", [
    (None, "easy", "has no difficulty grade"),
    (EASY_MEDIUM_HARD, "expert", "graded easy, medium, hard only"),
    (EASY_OR_HARD, "medium", "graded easy, hard only"),
])
def test_a_grade_the_rules_do_not_offer_is_refused(no_solver: None, monkeypatch: pytest.MonkeyPatch,
                                                   scale: tuple[str, ...] | None, difficulty: str, words: str) -> None:
    key = ("yukon", "any", False)
    if scale is None:
        monkeypatch.delitem(difficulty_module.SCALES, key, raising=False)
    else:
        monkeypatch.setitem(difficulty_module.SCALES, key, scale)
    with pytest.raises(NoSuchDealError, match=words):
        pick_deal(rules_for("yukon", empty_column="any"), "winnable", difficulty)
