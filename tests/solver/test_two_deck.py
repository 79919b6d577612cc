"""The compiled two-deck search (``solver/core/two_deck.c``) against the Python searches it mirrors.

The compiled depth-first search is ``Searcher.run_python`` move for move, and the compiled best-first search
is ``best_first``'s: on small random Milligan Yukon positions of every option, on positions near the end of
real deals and on deals, both give the same verdict, visit the same number of positions and return the same
line, and every won line replays to a win. The tests switch between the two with
``search.COMPILED_TWO_DECK`` (the Python searches stay for comparison).
"""

from __future__ import annotations

import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wall_clock import LOADED, stop_after, timed
from yukon import Game
from yukon.rules import build_table, safe_table
from yukon.solver import search, solve
from yukon.solver.search import Limits, Searcher, best_first, compiled_supports, compiled_two_deck, run_two_deck

from .cases import late_cases, small_cases
from .positions import option_id, small_positions
from .reference import reference_solve, replays_to_win

pytestmark = pytest.mark.skipif(
    search._core is None or not hasattr(search._core, "search_two_deck"), reason="the compiled core was not built"
)

MILLIGAN = [("milligan-yukon", empty, ret) for empty in ("kings", "any") for ret in (False, True)]
OPTION_IDS = [option_id(o) for o in MILLIGAN]


def python_depth_first(game: Game, node_limit: int | None = None) -> search.SearchOutcome:
    return Searcher(game, Limits(node_limit=node_limit)).run_python()


def python_best_first(game: Game, positions: int, monkeypatch: pytest.MonkeyPatch) -> search.SearchOutcome:
    with monkeypatch.context() as m:
        m.setattr(search, "COMPILED_TWO_DECK", False)
        assert not compiled_two_deck(game)
        return best_first(game, Limits(), positions)


def assert_mirrors(game: Game, node_limit: int | None = None) -> search.SearchOutcome:
    """The compiled depth-first search and the Python one agree on ``game``; the compiled outcome."""
    assert compiled_two_deck(game)
    c = run_two_deck(game, Limits(node_limit=node_limit), shorten=False)
    p = python_depth_first(game, node_limit)
    where = game.to_text()
    assert c.status == p.status or "unknown" in (c.status, p.status), where
    if "unknown" not in (c.status, p.status):  # (the two look at a node limit at different intervals)
        assert c.stats.nodes == p.stats.nodes, where
        assert [str(m) for m in c.moves] == [str(m) for m in p.moves], where
    if c.status == "won":
        assert replays_to_win(game, c.moves), where
    return c


@pytest.mark.parametrize("opt", MILLIGAN, ids=OPTION_IDS)
def test_compiled_agrees_with_python_and_reference(opt: tuple[str, str, bool]) -> None:
    small, _ = small_cases(opt)
    late, _ = late_cases(opt)
    cases = [*small, *late]
    assert len(cases) >= 2  # (few with foundation return: the random positions below add more)
    for game, ref in cases:
        c = assert_mirrors(game)
        assert c.status == ref.status, game.to_text()


@pytest.mark.parametrize("opt", MILLIGAN, ids=OPTION_IDS)
def test_compiled_agrees_with_python_on_random_positions(opt: tuple[str, str, bool]) -> None:
    statuses: list[str] = []
    checked = 0
    # loose positions, and crowded ones (every column holds a face-down card: losses are found there)
    loose = small_positions(22, opt, 40, remaining=(4, 16), used=(1, 8))
    crowded = small_positions(23, opt, 60, remaining=(10, 20), used=(8, 8), down_chance=1.0,
                              stock_share=0.05)
    for game in [*loose, *crowded]:
        statuses.append(assert_mirrors(game, node_limit=5_000).status)
    assert statuses.count("unknown") <= 10
    assert "won" in statuses and ("lost" in statuses or opt[1:] != ("kings", False))
    # and the plain search's verdict, where it can reach one
    for game in small_positions(24, opt, 12, remaining=(2, 5), used=(1, 3), stock_share=0.2):
        status = assert_mirrors(game).status
        ref = reference_solve(game, max_states=1_000)
        if ref is not None:
            assert status == ref.status, game.to_text()
            checked += 1
    assert checked >= 2  # (with foundation return few are small enough for the plain search)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), which=st.integers(0, 3), left=st.integers(3, 20))
def test_compiled_agrees_with_python_property(seed: int, which: int, left: int) -> None:
    game = next(small_positions(seed, MILLIGAN[which], 1, remaining=(left, left), used=(1, 8)))
    assert_mirrors(game, node_limit=5_000)


@pytest.mark.parametrize("opt", MILLIGAN, ids=OPTION_IDS)
def test_compiled_best_first_mirrors_python(opt: tuple[str, str, bool], monkeypatch: pytest.MonkeyPatch) -> None:
    _, empty, ret = opt
    for seed in (1, 2):
        game = Game.deal("milligan-yukon", seed=seed, empty_column=empty, foundation_return=ret)
        c = best_first(game, Limits(), 1_500)
        p = python_best_first(game, 1_500, monkeypatch)
        assert (c.status, c.reason, c.stats.nodes, c.stats.peak_table) == (
            p.status, p.reason, p.stats.nodes, p.stats.peak_table)
        assert [str(m) for m in c.moves] == [str(m) for m in p.moves]
        if c.status == "won":
            assert replays_to_win(game, c.moves)
    for game in small_positions(5, opt, 15, remaining=(4, 12)):
        c = best_first(game, Limits(), 200)
        p = python_best_first(game, 200, monkeypatch)
        assert (c.status, c.stats.nodes, [str(m) for m in c.moves]) == (
            p.status, p.stats.nodes, [str(m) for m in p.moves]), game.to_text()


@pytest.mark.parametrize("opt", MILLIGAN, ids=OPTION_IDS)
def test_compiled_mirrors_python_on_deals(opt: tuple[str, str, bool]) -> None:
    _, empty, ret = opt
    for seed in (1, 2, 7) if empty == "kings" else (8, 9, 10):  # deals won in 4,000-10,000 positions
        game = Game.deal("milligan-yukon", seed=seed, empty_column=empty, foundation_return=ret)
        assert assert_mirrors(game, node_limit=12_000).status == "won"
    game = Game.deal("milligan-yukon", seed=3, empty_column=empty, foundation_return=ret)
    assert assert_mirrors(game, node_limit=3_000).status == "unknown"


def test_solve_decides_milligan_deals_on_the_compiled_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Searcher, "run_python", lambda self: pytest.fail("the Python search ran"))
    for seed in (1, 3, 8):
        game = Game.deal("milligan-yukon", seed=seed)
        result = solve(game, time_limit=30)
        assert result.status == "won"
        assert replays_to_win(game, result.moves)


def test_the_python_search_stays_available(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game.deal("milligan-yukon", seed=1)
    assert compiled_supports(game) and compiled_two_deck(game)
    monkeypatch.setattr(search, "COMPILED_TWO_DECK", False)
    assert not compiled_supports(game)
    monkeypatch.setattr(Searcher, "run_compiled", lambda self: pytest.fail("the compiled search ran"))
    assert Searcher(game, Limits(node_limit=2_000)).run().stats.nodes >= 1


def test_time_limit_and_stop_event_are_kept() -> None:
    game = Game.deal("milligan-yukon", seed=450, empty_column="any")  # undecided after 30 s
    out, took = timed(run_two_deck, game, Limits(time_limit=0.2))
    assert (out.status, out.reason) == ("unknown", "time limit")
    assert 0.2 <= took < 0.2 + LOADED
    assert out.stats.nodes > 1_000

    stop = stop_after(0.2)
    out = run_two_deck(game, Limits(stop=stop))
    assert (out.status, out.reason) == ("unknown", "stopped")
    assert stop.since() < LOADED

    stop = threading.Event()
    stop.set()
    assert run_two_deck(game, Limits(stop=stop)).reason == "stopped"


def test_the_best_first_search_keeps_its_limits() -> None:
    game = Game.deal("milligan-yukon", seed=8)
    stop = threading.Event()
    stop.set()
    assert best_first(game, Limits(stop=stop), 10**6).reason == "stopped"
    out = best_first(game, Limits(node_limit=500), 10**6)
    assert (out.status, out.reason) == ("unknown", "node limit")
    assert 500 <= out.stats.nodes < 1_000


def test_memory_limit_gives_unknown() -> None:
    game = Game.deal("milligan-yukon", seed=8)
    out = run_two_deck(game, Limits(memory_limit=2_000_000))
    assert (out.status, out.reason) == ("unknown", "memory limit")
    assert out.stats.peak_table > 1_000


def test_the_binding_refuses_bad_positions() -> None:
    game = Game.deal("milligan-yukon", seed=1)
    args = [
        [list(c) for c in game.column_cards], list(game.down_counts), [list(p) for p in game.foundation_piles],
        list(game.stock_cards), build_table("alternate"), safe_table("alternate"), 1, 1, 104, 0, 0.0, 0,
    ]
    core = search._core
    assert core is not None
    short = list(args)
    short[3] = list(game.stock_cards)[1:]
    with pytest.raises(ValueError, match="all the deck"):
        core.search_two_deck(*short)
    bad_pile = list(args)
    bad_pile[2] = [[0, 5]] + [[] for _ in range(7)]
    with pytest.raises(ValueError, match="foundation pile"):
        core.search_two_deck(*bad_pile)
    bad_card = list(args)
    bad_card[0] = [[60], *args[0][1:]]
    with pytest.raises(ValueError):
        core.search_two_deck(*bad_card)
    status, line, nodes, _peak, _seconds, reason = core.search_two_deck(*args[:9], 1_000, 0.0, 0)
    assert (status, reason, line) == ("unknown", "node limit", [])
    assert 1_000 <= nodes < 1_100  # (it looks at the limit on entering a new position)


def test_the_honest_player_uses_the_compiled_search(monkeypatch: pytest.MonkeyPatch) -> None:
    from yukon.honest import honest_hint
    from yukon.honest.evaluator import WEB_BUDGET
    from yukon.visible import VisiblePosition

    game = Game.deal("milligan-yukon", seed=4)
    assert WEB_BUDGET.for_rules(VisiblePosition.of(game)) == (WEB_BUDGET.samples, WEB_BUDGET.nodes)
    monkeypatch.setattr(Searcher, "run_python", lambda self: pytest.fail("the Python search ran"))
    result = honest_hint(game, time_limit=10, seed=1)
    assert result.move is not None


def test_a_depth_first_line_takes_the_shortcuts_along_its_path() -> None:
    for seed in (1, 2):
        game = Game.deal("milligan-yukon", seed=seed)
        plain = run_two_deck(game, Limits(), shorten=False)
        short = run_two_deck(game, Limits())
        assert plain.status == short.status == "won"
        assert plain.stats.nodes == short.stats.nodes  # (the same search)
        assert replays_to_win(game, short.moves)
        assert len(short.moves) * 3 < len(plain.moves)  # (2,245 -> 371 and 3,333 -> 341 moves)


def test_solve_runs_the_phases_in_their_two_deck_order() -> None:
    """Best-first, a short depth-first run, the greedy probes, the depth-first search (yukon.solver)."""
    game = Game.deal("milligan-yukon", seed=1)
    result = solve(game, node_limit=10**6)
    assert (result.status, result.reason, result.nodes) == ("won", "", best_first(game, Limits(), 4_000).stats.nodes)
    game = Game.deal("milligan-yukon", seed=291)  # the depth-first search wanders past a win a probe finds
    result = solve(game, node_limit=400_000)
    assert (result.status, result.reason) == ("won", "greedy probe")
    assert replays_to_win(game, result.moves)
    result = solve(game, node_limit=100_000)  # (the node limit is kept, and the probes have no room left)
    assert (result.status, result.reason) == ("unknown", "node limit")
    assert result.nodes <= 100_000 + 1_000


def test_a_budget_below_the_first_chunk_of_keys_gives_unknown() -> None:
    game = Game.deal("milligan-yukon", seed=8)
    for positions in (0, 4_000):
        out = run_two_deck(game, Limits(memory_limit=10_000), positions)
        assert (out.status, out.reason) == ("unknown", "memory limit")
