"""How easily the samples win, among the close moves (``Method(ease=...)``, docs/honest.md, "Round six"):
honest, deterministic, read off the searches already made, ranked as documented."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine_helpers import mid_game
from test_honest import SETTINGS, TINY, choices, close_values, deals, options, rearranged
from yukon.honest import HONEST_1, Budget, Method, honest_hint
from yukon.honest.evaluator import LOST, UNKNOWN, WON, MoveValue, search_status
from yukon.honest.sampler import iter_games
from yukon.notation import Move
from yukon.solver.search import Limits, compiled_supports
from yukon.visible import VisiblePosition

EASY = [Method(ease="nodes"), Method(ease="shallow", shallow_nodes=300)]


def test_method_rejects_bad_ease_values() -> None:
    with pytest.raises(ValueError, match="ease"):
        Method(ease="fast")
    for bad in (0, 1.5, True):
        with pytest.raises(ValueError, match="shallow_nodes"):
            Method(ease="shallow", shallow_nodes=bad)  # type: ignore[arg-type]
    assert Method().ease == "" and HONEST_1.ease == ""  # off in the shipped player


@settings(SETTINGS, max_examples=15)
@pytest.mark.parametrize("method", EASY, ids=["nodes", "shallow"])
@given(options, deals, choices, st.lists(st.integers(0, 200), min_size=1, max_size=120), st.integers(0, 2**32))
def test_the_ease_rules_are_honest(method, option, deal, picks, order, seed) -> None:
    game = mid_game(option, deal, picks).copy()
    hints = [honest_hint(g, None, seed=seed, budget=TINY, method=method) for g in (game, rearranged(game, order))]
    assert len({(h.move, h.source, h.samples, h.nodes) for h in hints}) == 1, game.to_text()
    assert hints[0].move is None or game.is_legal(hints[0].move)
    again = honest_hint(game, None, seed=seed, budget=TINY, method=method)
    assert (again.move, again.win_share, again.nodes) == (hints[0].move, hints[0].win_share, hints[0].nodes)


def test_ease_reads_the_searches_made() -> None:
    value = MoveValue(Move(0, 1, 1))
    for status, spent in ((WON, 100), (WON, 900), (LOST, 50), (UNKNOWN, 10_000), (LOST, 0)):
        value.add(status, spent)
    assert (value.won, value.lost, value.unknown) == (2, 2, 1)
    assert value.ease_nodes(10_000) == (100 + 900 + 3 * 10_000) / 5  # a sample not won: the node limit
    assert value.shallow_share(500) == (1 + 0.5 * 2) / 5  # the 900-node win undecided within 500, two losses
    assert value.shallow_share(1_000) == value.share == (2 + 0.5) / 5
    assert value.merged(value).ease_nodes(10_000) == value.ease_nodes(10_000)
    assert MoveValue(Move(0, 1, 1)).shallow_share(500) == 0.0


@pytest.mark.skipif(not compiled_supports(mid_game(("yukon", "kings", False), 1, [0])), reason="compiled search")
def test_a_lower_node_limit_cuts_the_same_search_short() -> None:
    """The shallow share is read off the searches made: a search limited to fewer nodes is the same search
    cut short (the compiled one checks its limit every 4,096 nodes: at 4,096 the two agree exactly)."""
    decided = 0
    for deal in (3, 8):
        view = VisiblePosition.of(mid_game(("yukon", "kings", False), deal, [0, 1, 0]))
        for game in iter_games(view, 3, seed=deal):
            for m in game.legal_moves()[:5]:
                game.push(m)
                status, spent, _ = search_status(game, Limits(None, 10_000))
                short = search_status(game, Limits(None, 4_096))
                assert short[:2] == (status, spent) or (spent > 4_096 and short[0] == UNKNOWN), game.to_text()
                decided += short[0] != UNKNOWN
                game.pop()
    assert decided


def test_the_ease_ranks_the_close_moves() -> None:
    """The chosen move is one of the close moves (the samples' veto) with the best ease; the ease changes
    some choices of the first player, the same with the same seed."""
    budget = Budget(samples=4, nodes=2_000)
    changed = dict.fromkeys(range(len(EASY)), 0)
    for deal in range(1, 16):
        game = mid_game(("yukon", "kings", False), deal, [deal % 3])
        first = honest_hint(game, None, seed=deal, budget=budget, method=HONEST_1)
        for i, method in enumerate(EASY):
            hint = honest_hint(game, None, seed=deal, budget=budget, method=method)
            if first.source != "samples":
                assert hint.move == first.move
                continue
            close = close_values(game, first, budget, deal)

            def ease(v: MoveValue, method: Method = method) -> float:
                return -v.ease_nodes(2_000) if method.ease == "nodes" else v.shallow_share(method.shallow_nodes)

            chosen = next(v for v in close if v.move == hint.move)
            assert ease(chosen) == max(ease(v) for v in close)
            assert hint.move == honest_hint(game, None, seed=deal, budget=budget, method=method).move
            changed[i] += hint.move != first.move
    assert all(changed.values()), changed


def test_the_sweep_takes_the_ease_rule(monkeypatch) -> None:
    from bench_scripts import BENCH, load_bench

    monkeypatch.syspath_prepend(str(BENCH))  # it imports bench/honest_advice.py beside it
    bench = load_bench("honest_sweep")
    assert bench.parse_method("ease=shallow,shallow_nodes=500") == (("ease", "shallow"), ("shallow_nodes", 500))
    with pytest.raises(ValueError, match="ease"):
        bench.parse_method("ease=fast")
