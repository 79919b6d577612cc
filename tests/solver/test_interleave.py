"""Two searches on one core (docs/solver-design.md, "Two searches on one core"): on one thread, the second
search (random order, restarts) takes turns with the first. The verdicts stay the one search's, a loss is
still a proof, a node-limited run gives the same answer every time, and the stop event and the limits hold
while the second search has its turn."""

from __future__ import annotations

import threading
import time

import pytest

from wall_clock import LOADED
from yukon import Game
from yukon.solver import search
from yukon.solver.search import Limits, Searcher

from .cases import ALL_OPTIONS, late_cases, small_cases
from .positions import option_id
from .reference import replays_to_win

pytestmark = pytest.mark.skipif(search._core is None, reason="the compiled core was not built")


def run(
    game: Game, *, interleave: bool, switch_at: int = 1_000, merge: bool = True, **limits: object
) -> search.SearchOutcome:
    """The compiled search on one thread, the second search joining after ``switch_at`` nodes (and then
    taking turns every ``switch_at`` nodes, each search checking at most every 4,096) or never."""
    searcher = Searcher(game, Limits(**limits))  # type: ignore[arg-type]
    searcher.compiled_threads = 1
    searcher.compiled_switch_at = switch_at
    searcher.compiled_interleave = interleave
    searcher.compiled_merge = merge
    return searcher.run_compiled()


CASES = [("yukon", s, {}) for s in (2, 3, 5, 8, 28, 30, 80, 99, 123, 155, 172)]
CASES += [("australian", s, {}) for s in (1, 2, 3)] + [("russian", s, {}) for s in (1, 2, 3)]
CASES += [("yukon", s, {"empty_column": "any"}) for s in (1, 2)] + [("alaska", 3, {})]
CASES += [("yukon", s, {"foundation_return": True}) for s in (30, 80)]


@pytest.mark.parametrize(("variant", "seed", "options"), CASES)
def test_interleaved_verdicts_are_the_one_search_verdicts(variant: str, seed: int, options: dict[str, object]) -> None:
    """With the second search joining at once and the two switching at every check, the verdict is the one
    search's (which the other tests hold to the plain exhaustive search); won lines replay; where the
    graph has cycles (empty columns for any card, foundation return, Alaska) nothing is interleaved."""
    game = Game.deal(variant, seed=seed, **options)
    one = run(game, interleave=False, time_limit=60)
    both = run(game, interleave=True, time_limit=60)
    assert one.status in ("won", "lost")
    assert both.status == one.status
    if both.status == "won":
        assert replays_to_win(game, both.moves)


@pytest.mark.parametrize("seed", [28, 80, 123])
def test_interleaved_searches_store_every_position_once(seed: int) -> None:
    """Without classes (whose normal form depends on where they were entered) the positions stored by the
    two searches taking turns are exactly those of the one search: each stored once, the loss proven
    only when one of them has finished the root; and more than one turn was taken."""
    game = Game.deal("yukon", seed=seed)
    one = run(game, interleave=False, merge=False)
    both = run(game, interleave=True, merge=False)
    assert one.status == both.status == "lost"
    assert both.stats.peak_table == one.stats.peak_table
    assert both.stats.nodes > 3 * 4_096  # (several turns)


ACYCLIC = [o for o in ALL_OPTIONS if o[0] in ("yukon", "russian", "australian") and o[1:] == ("kings", False)]


@pytest.mark.parametrize("opt", [pytest.param(o, id=option_id(o)) for o in ACYCLIC])
def test_interleaved_verdicts_agree_with_the_exhaustive_search(opt: tuple[str, str, bool]) -> None:
    """Small and late positions, the second search joining after 1 node and the two taking turns at every
    node (a turn shorter than 4,096 nodes brings the checks that closer): the verdict of the plain
    exhaustive search, won lines replaying."""
    cases = small_cases(opt)[0] + late_cases(opt)[0]
    assert len(cases) >= 10
    for game, ref in cases:
        both = run(game, interleave=True, switch_at=1, node_limit=10**7)
        assert both.status == ref.status, game.to_text()
        if both.status == "won":
            assert replays_to_win(game, both.moves)


def test_a_node_limited_interleaved_run_gives_the_same_answer_every_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turns are counted in nodes, so with a node limit (which counts both searches' nodes) every run
    visits the same nodes and stores the same classes."""
    monkeypatch.setattr(Searcher, "compiled_relax", False)  # (rule 4 proves deal 2 lost in 400,000 nodes)
    game = Game.deal("yukon", seed=2)  # lost in some 12 million nodes
    runs = [run(game, interleave=True, node_limit=3_000_000) for _ in range(2)]
    assert {(r.status, r.reason) for r in runs} == {("unknown", "node limit")}
    assert runs[0].stats.nodes == runs[1].stats.nodes
    assert runs[0].stats.peak_table == runs[1].stats.peak_table
    assert 3_000_000 <= runs[0].stats.nodes <= 3_000_000 + 2 * 4_096 + 1_000


def test_the_second_search_on_the_same_core_finds_a_win_the_first_misses(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 52: the first search alone does not win it in 10 million nodes; with the second search taking
    turns (after the default 2 million), both together win it within that, and the line replays (without
    rule 4 in the search, with which the first search alone wins it)."""
    monkeypatch.setattr(Searcher, "compiled_relax", False)
    game = Game.deal("yukon", seed=52)
    alone = run(game, interleave=False, switch_at=Searcher.compiled_switch_at, node_limit=10_000_000)
    both = run(game, interleave=True, switch_at=Searcher.compiled_switch_at, node_limit=10_000_000)
    assert alone.status == "unknown"
    assert both.status == "won" and replays_to_win(game, both.moves)


def test_interleaved_searches_honour_the_stop_event_and_the_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first search polls the stop event; the second's turn lasts milliseconds, so a stop set by
    another thread still ends the search at once; the time limit holds in either search's turn."""
    monkeypatch.setattr(Searcher, "compiled_relax", False)  # (rule 4 proves deal 181 lost before any search)
    game = Game.deal("yukon", seed=181)  # lost after some 700 million nodes
    stop = threading.Event()
    outcome: list[search.SearchOutcome] = []
    worker = threading.Thread(target=lambda: outcome.append(run(game, interleave=True, time_limit=60, stop=stop)))
    worker.start()
    time.sleep(0.5)
    asked = time.perf_counter()
    stop.set()
    worker.join()
    assert (outcome[0].status, outcome[0].reason) == ("unknown", "stopped")
    assert time.perf_counter() - asked < LOADED
    out = run(game, interleave=True, time_limit=1.0)
    assert (out.status, out.reason) == ("unknown", "time limit")
    assert out.stats.seconds < 1.0 + LOADED
