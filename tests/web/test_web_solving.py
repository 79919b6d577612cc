"""The advisor's searches as the server runs them: the fallback heuristic, obvious cases, known lines, looking back."""

from __future__ import annotations

import threading

from wall_clock import LOADED
from yukon import Game, advisor


def test_heuristic_prefers_safe_foundation_moves_and_turning_cards() -> None:
    g = Game.from_text("yukon,kings,noreturn KS/QH.KH/-/-/-/-/- QS/JH/KD/KC")
    assert str(advisor.heuristic_move(g)) == "2:KH>3"  # turns the face-down queen
    g.push_text("2:KH>3")
    assert str(advisor.heuristic_move(g)) == "2:QH>F"  # safe: both black jacks are up
    g = Game.deal("yukon", seed=42)
    assert advisor.heuristic_move(g) in g.legal_moves()
    lost = Game.from_text("russian,kings,noreturn TSQS.KH/THQH.KD/TDQD.KC/TCQC.KS/JS.JH/JD/JC 9S/9H/9D/9C")
    assert advisor.heuristic_move(lost) is None


def test_rules_decide_the_obvious_cases() -> None:
    stop = threading.Event()
    won = Game.from_text("yukon,kings,noreturn -/-/-/-/-/-/- KS/KH/KD/KC")
    assert advisor.decide(won, stop).status == "won"
    assert advisor.solver_hint(won, stop).move is None
    lost = Game.from_text("russian,kings,noreturn TSQS.KH/THQH.KD/TDQD.KC/TCQC.KS/JS.JH/JD/JC 9S/9H/9D/9C")
    assert (advisor.decide(lost, stop).status, advisor.decide(lost, stop).source) == ("lost", "rules")


def test_lines_serve_every_position_along_them() -> None:
    g = Game.from_text("yukon,kings,noreturn KS/QH.KH/-/-/-/-/- QS/JH/KD/KC")
    line = ["2:KH>3", "2:QH>F", "3:KH>F", "1:KS>F"]
    lines = advisor.Lines()
    lines.remember(g, line)
    assert lines.get(g.to_text()) == line
    g.push_text(line[0])
    assert lines.get(g.to_text()) == line[1:]
    assert lines.get("nothing") is None


def test_last_winnable_walks_back() -> None:
    g = Game.from_text("russian,any,noreturn TSQS.KH/THQH.KD/TDQD.KC/TCQC.KS/JS.JH/JDJC/- 9S/9H/9D/9C")
    g.push_text("6:JC>7")
    proven: dict[str, str] = {}
    assert advisor.last_winnable(g.copy(history=True), proven, threading.Event()) == 0
    assert "won" in proven.values()
    fresh = Game.from_text("russian,any,noreturn TSQS.KH/THQH.KD/TDQD.KC/TCQC.KS/JS.JH/JDJC/- 9S/9H/9D/9C")
    assert advisor.last_winnable(fresh, {}, threading.Event()) is None  # no move to undo


def test_a_deadline_is_a_stop_event_that_sets_itself_when_the_time_is_up() -> None:
    import time

    from yukon.advisor import Deadline

    d = Deadline(time.perf_counter() + 0.2)
    assert not d.is_set() and 0.1 < d.left() <= 0.2
    t0 = time.perf_counter()
    assert d.wait(5.0) is True  # waits no longer than the deadline
    assert 0.15 < time.perf_counter() - t0 < 0.2 + LOADED
    assert d.is_set() and d.left() == 0.0
    early = Deadline(time.perf_counter() + 60)
    assert early.wait(0.01) is False
    early.set()
    assert early.is_set() and early.left() == 0.0 and early.wait() is True
