"""The search for a winnable deal, shared by the web table and the terminal game."""

from __future__ import annotations

import threading
import time

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
