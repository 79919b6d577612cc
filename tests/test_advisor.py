"""The advisor shared by the web table and the terminal game: hint kinds and their labels, time limits,
stop events, "still winnable?" as a perfect-information verdict, and the honest kind never going back."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest

import yukon
from wall_clock import LOADED, stop_after, timed
from yukon import Game
from yukon.advisor import (
    HINT_LABELS,
    WINNABLE_LABEL,
    Advisor,
    Hint,
    SearchUnavailable,
    check_kind,
)
from yukon.honest import Budget

#: Yukon deal 5 after three moves: the solver needs seconds to prove it won (about 5 s unbounded here),
#: the honest player samples 24 deals of the unseen cards.
MID_GAME_MOVES = 3
#: 8♥ can go between 9♠ (column 1) and 9♣ (column 2), and nothing else can move: after 8♥ to 9♣
#: the only move takes it straight back.
SHUTTLE = "yukon,kings,noreturn 9S8H/9C/8STSQS.KS/7H9HTH.KH/JHQH.KC/8CJC.JS/QC.TC 7S/6H/KD/7C"
#: Russian, empty column: any: winnable; 6:JC>7 fills the last empty column and loses it.
WINNABLE_ANY = "russian,any,noreturn TSQS.KH/THQH.KD/TDQD.KC/TCQC.KS/JS.JH/JDJC/- 9S/9H/9D/9C"
#: Yukon deal 595: the solver does not decide it within 30 s (docs/solver.md)
UNDECIDED = 595
#: the honest player's budget in the timing tests: thousands of samples, far longer than their margins
#: (the web's budget decides in a fraction of a second)
HUGE = Budget(samples=5_000, nodes=5_000_000)


def mid_game() -> Game:
    g = Game.deal("yukon", seed=5)
    for _ in range(MID_GAME_MOVES):
        g.push(g.legal_moves()[0])
    return g


def test_the_hint_is_honest_by_default_and_names_its_kind() -> None:
    g = mid_game()
    h = Advisor(hint_time=5.0).hint(g)
    assert (h.kind, h.label) == ("honest", "hint (no peeking)")
    assert h.move is not None and g.parse_move(h.move) in g.legal_moves()
    assert h.to_dict()["label"] == "hint (no peeking)" and h.to_dict()["kind"] == "honest"
    assert h.status == "unknown"  # an honest player cannot know more


def test_the_honest_hint_says_its_samples_as_counts() -> None:
    # a share ("77% of 24") that no count of 24 gives puzzled a player: undecided searches count half in it
    g = mid_game()
    result = yukon.hint(g, time_limit=None, peek=False, seed=3)
    assert result.source == "samples"
    value = next(v for v in result.values if v.move == result.move)
    words = f"wins in {value.won} of {value.samples} guesses at the face-down cards"
    if value.lost and value.unknown:  # (every guess counted: won, lost, undecided)
        words += f", loses in {value.lost}"
    assert result.odds == words + (f", {value.unknown} undecided" if value.unknown else "")
    assert result.win_share == pytest.approx((value.won + value.unknown / 2) / value.samples)
    h = Advisor(hint_time=5.0).hint(g)
    assert h.source == "samples" and re.fullmatch(r"wins in \d+ of \d+ guesses at the face-down cards"
                                                  r"(, loses in \d+)?(, \d+ undecided)?", h.note), h.note


def test_a_hint_with_nothing_left_to_guess_gives_its_verdict_not_one_guess() -> None:
    # with one card face down the player knows where it lies: "wins in 1 of 1 guess at the face-down cards" said
    # a guess was made
    g = Game.from_text("yukon,kings,noreturn KCQDJC/KHQCJDTC9H8S7H6S5H/-/TS/TD.9C8H7S6H5S4HQSJH/KSQHJS9D8CKDTH9S/- "
                       "3H/7C/4S/8D")
    result = yukon.hint(g, time_limit=None, peek=False, seed=1)
    assert (result.source, result.samples, result.unseen) == ("samples", 1, "")
    assert result.odds == "wins for certain: no card is left to guess"
    assert Advisor(hint_time=5.0).hint(g).note == result.odds
    assert yukon.hint(mid_game(), time_limit=None, peek=False, seed=1).unseen == "the face-down cards"


def test_the_solver_kind_on_the_setting_or_per_call() -> None:
    g = Game.from_text("yukon,kings,noreturn KS/QH.KH/-/-/-/-/- QS/JH/KD/KC")
    solver = Advisor(kind="solver", hint_time=5.0).hint(g)
    assert (solver.kind, solver.label, solver.source, solver.status) == (
        "solver", "solver hint: it sees the face-down cards", "solver", "won")
    assert solver.line and solver.line[0] == solver.move
    advisor = Advisor(hint_time=5.0)
    assert advisor.hint(g, kind="solver").kind == "solver" and advisor.hint(g).kind == "honest"
    assert HINT_LABELS == {"honest": "hint (no peeking)", "solver": "solver hint: it sees the face-down cards"}


def test_a_hint_kind_that_is_not_one_is_refused() -> None:
    with pytest.raises(ValueError, match="honest, solver"):
        check_kind("peek")
    with pytest.raises(ValueError, match="not 'peek'"):
        Advisor(kind="peek")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Advisor().hint(mid_game(), kind="both")  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["", 0])
def test_an_empty_hint_kind_is_refused_naming_it(kind: object) -> None:
    # '' and 0 read as "no kind given" and gave the default kind's hint
    with pytest.raises(ValueError, match=f"not {kind!r}"):
        Advisor().hint(mid_game(), kind=kind)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=f"not {kind!r}"):
        Advisor(kind="solver").next_on_line(mid_game(), kind=kind)  # type: ignore[arg-type]


def test_a_hint_of_no_kind_is_refused_where_it_is_made() -> None:
    # its label was a bare KeyError('peek') when the web or the terminal came to show it
    with pytest.raises(ValueError, match="a hint kind is one of honest, solver, not 'peek'"):
        Hint("1:AS>F", "peek", "solver", "unknown", 0.0)


@pytest.fixture
def long_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """The honest hint with :data:`HUGE`, so that both kinds run far longer than the tests' margins unbounded."""
    real = yukon.hint

    def hint(game: Game, time_limit: float | None = 1.0, peek: bool = True, **kwargs: Any) -> Any:
        if not peek:
            kwargs["budget"] = HUGE
        return real(game, time_limit=time_limit, peek=peek, **kwargs)

    monkeypatch.setattr(yukon, "hint", hint)


@pytest.mark.parametrize("kind", ["honest", "solver"])
def test_a_hint_keeps_its_time_limit(kind: str, long_hints: None) -> None:
    g = Game.deal("yukon", seed=UNDECIDED)
    limit = 0.4
    h, seconds = timed(Advisor(kind=kind, hint_time=limit).hint, g)  # type: ignore[arg-type]
    assert seconds < limit + LOADED
    assert h.move is not None and g.parse_move(h.move) in g.legal_moves() and h.kind == kind


@pytest.mark.parametrize("kind", ["honest", "solver"])
def test_a_stop_event_ends_the_hint_at_once(kind: str, long_hints: None) -> None:
    g = Game.deal("yukon", seed=UNDECIDED)
    stop = stop_after(0.2)
    h = Advisor(kind=kind, hint_time=60.0).hint(g, stop=stop)  # type: ignore[arg-type]
    assert stop.since() < LOADED
    assert h.move is not None and g.parse_move(h.move) in g.legal_moves() and h.kind == kind
    if kind == "solver":
        assert h.source == "heuristic" and "best guess" in h.note


def test_a_stop_event_ends_the_honest_sampling() -> None:
    stop = threading.Event()
    stop.set()
    h = Advisor(hint_time=60.0).hint(mid_game(), stop=stop)
    assert h.source == "heuristic" and h.move is not None  # no sample was searched
    assert Advisor(hint_time=60.0).hint(mid_game()).source == "samples"  # unstopped, it samples


def test_the_runner_gets_the_limit_and_the_stop_event() -> None:
    asked: list[tuple[str, float, Any]] = []

    def run(question: str, job: Any, limit: float, stop: Any) -> Any:
        asked.append((question, limit, stop))
        return job(stop, limit)

    stop = threading.Event()
    advisor = Advisor(run, hint_time=0.5, winnable_time=0.7, lookback=0.3)
    advisor.hint(mid_game(), stop=stop)
    advisor.winnable(mid_game(), stop=stop)
    assert asked == [("hint", 0.5, stop), ("winnable", 0.7 + 0.3, stop)]


@pytest.mark.parametrize("kind", ["honest", "solver"])
def test_a_search_that_cannot_run_gets_an_honest_best_guess(kind: str) -> None:
    def busy(question: str, job: Any, limit: float, stop: Any) -> Any:
        raise SearchUnavailable("the solver is busy with other requests")

    def late(question: str, job: Any, limit: float, stop: Any) -> Any:
        return None

    g = mid_game()
    for run, why in ((busy, "busy"), (late, "ran out of time")):
        h = Advisor(run, kind=kind).hint(g)  # type: ignore[arg-type]
        assert h.source == "heuristic" and h.kind == kind and why in h.note and "best guess" in h.note
        assert h.move is not None and g.parse_move(h.move) in g.legal_moves()
    verdict = Advisor(busy).winnable(g)
    assert verdict.status == "unknown" and "busy" in verdict.note and verdict.perfect_information


def test_still_winnable_is_a_perfect_information_verdict_and_finds_the_last_winnable_move() -> None:
    g = Game.from_text(WINNABLE_ANY)
    advisor = Advisor(winnable_time=10.0)
    won = advisor.winnable(g)
    assert won.status == "won" and won.last_winnable is None
    assert won.perfect_information is True and won.label == WINNABLE_LABEL
    assert "sees the face-down cards" in WINNABLE_LABEL
    assert won.to_dict()["perfect_information"] is True and won.to_dict()["label"] == WINNABLE_LABEL
    g.push_text("6:JC>7")
    lost = advisor.winnable(g)
    assert lost.status == "lost" and lost.last_winnable == 0


def test_the_honest_hint_never_goes_back_to_a_position_seen() -> None:
    g = Game.from_text(SHUTTLE)
    assert [str(m) for m in g.legal_moves()] == ["1:8H>2"]
    advisor = Advisor(hint_time=5.0)
    first = advisor.hint(g)
    assert first.move == "1:8H>2"
    g.push_text("1:8H>2")
    assert [str(m) for m in g.legal_moves()] == ["2:8H>1"]  # only straight back
    import yukon

    assert str(yukon.hint(g, peek=False, time_limit=None, seed=1).move) == "2:8H>1"  # the honest player would
    back = advisor.hint(g)
    assert back.move is None and back.kind == "honest" and "back to a position seen" in back.note


def test_following_honest_hints_never_repeats_a_position() -> None:
    """Followed on a whole game, the honest hints never reach a position twice (so they end)."""
    from yukon.session import PlaySession

    s = PlaySession(Game.deal("russian", seed=22), None, client="test", autoplay=True, autofinish=True)
    advisor = Advisor(hint_time=0.3)
    seen = {s.game.to_text()}
    for _ in range(300):
        if s.status != "playing":
            break
        h = advisor.hint(s.game)
        if h.move is None:
            break
        s.play(h.move)
        assert s.game.to_text() not in seen
        seen.add(s.game.to_text())
    assert s.status != "playing" or h.move is None


def test_hint_answers_are_json() -> None:
    h = Hint("1:KS>F", "solver", "solver", "won", 0.01234, "", ["1:KS>F"])
    assert h.to_dict() == {"move": "1:KS>F", "kind": "solver", "label": HINT_LABELS["solver"], "source": "solver",
                           "status": "won", "seconds": 0.012, "note": "", "unseen": "the face-down cards"}
    assert h.to_dict("the stock's order")["label"] == "solver hint: it sees the stock's order"
