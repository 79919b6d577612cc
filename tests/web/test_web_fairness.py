"""The solver's places are shared fairly: one game's flood of searches (a held key, a script) does not make
every other game's hint or "still winnable?" busy, and a game asking again gets its newest answer."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_client import LOCAL

from wall_clock import LOADED
from yukon import Game, advisor
from yukon.store import Store
from yukon.web import create_app, solving

QUESTIONS = ("hint", "winnable", "demo", "analysis")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "fair.sqlite3")
    yield s
    s.close()


def _until_stopped(stop: Any, left: float) -> bool:
    return bool(stop.wait(min(left, 5.0)))  # a search that uses all its time unless stopped


def test_a_flood_from_one_game_leaves_the_other_games_their_places() -> None:
    """Game a asks every question ten times at once; game b's hint and "winnable?" asked right after are
    not refused as busy, and each gets its answer once a's searches are stopped."""
    queue = solving.SolverQueue(workers=2, max_pending=6, processes=False)

    async def main() -> tuple[list[Any], list[Any], int]:
        flood = [asyncio.ensure_future(queue.run(("a", q), _until_stopped, 5.0, long=q in ("winnable", "analysis")))
                 for _ in range(10) for q in QUESTIONS]
        others = [asyncio.ensure_future(queue.run(("b", q), lambda stop, left, q=q: f"b's {q}", 5.0,
                                                  long=q == "winnable")) for q in ("hint", "winnable")]
        await asyncio.sleep(0.05)  # every request above was let in or refused
        held = queue.pending
        for q in QUESTIONS:
            queue.stop(("a", q))
        answers = await asyncio.gather(*others, return_exceptions=True)
        return answers, await asyncio.gather(*flood, return_exceptions=True), held

    try:
        answers, flood, held = asyncio.run(main())
    finally:
        queue.shutdown()
    assert answers == ["b's hint", "b's winnable"]  # before: SolverBusyError, a held all six places
    assert not any(isinstance(a, BaseException) for a in flood)  # a's own older searches gave way to its newer
    assert held <= queue.share + 2 + 2  # a's share, b's two; a stopped search may still hold a worker
    assert queue.pending == 0


def test_a_game_at_its_share_gets_its_newest_question_answered() -> None:
    """A game with its share of searches under way ("winnable?" and a hint) that asks a third question
    gets it answered: its oldest search in the same lane (the hint, which it would wait behind) gives way
    and answers with what it has; the newest is not refused."""
    queue = solving.SolverQueue(workers=2, max_pending=6, processes=False)

    async def main() -> list[Any]:
        first = asyncio.ensure_future(queue.run(("a", "winnable"), _until_stopped, 5.0, long=True))
        second = asyncio.ensure_future(queue.run(("a", "hint"), _until_stopped, 5.0))
        await asyncio.sleep(0.05)
        t0 = time.perf_counter()
        third = await queue.run(("a", "demo"), lambda stop, left: "the newest", 5.0)
        assert time.perf_counter() - t0 < LOADED  # the hint gave way at once (else: 5 s)
        assert not first.done()  # "winnable?", in the other lane, searches on
        queue.stop(("a", "winnable"))
        return [await first, await second, third]

    try:
        assert asyncio.run(main()) == [True, True, "the newest"]  # the hint was stopped, then the winnable
    finally:
        queue.shutdown()
    assert queue.pending == 0


def test_a_superseded_search_that_has_not_started_leaves_its_place_at_once() -> None:
    """Pressing Hint again while the first hint still waits for the worker: the first leaves the queue at
    once (answered without the solver), so a held key never fills the queue with searches nobody reads."""
    queue = solving.SolverQueue(workers=1, max_pending=3, processes=False)
    release = threading.Event()

    async def main() -> list[Any]:
        busy = asyncio.ensure_future(queue.run(("x", "hint"), lambda stop, left: release.wait(5), 5.0))
        await asyncio.sleep(0.05)
        waiting = [asyncio.ensure_future(queue.run(("a", "hint"), lambda stop, left: "a", 5.0)) for _ in range(20)]
        await asyncio.sleep(0.05)
        pending = queue.pending
        release.set()
        out = await asyncio.gather(*waiting, return_exceptions=True)
        assert await busy is True
        return [pending, *out]

    try:
        pending, *out = asyncio.run(main())
    finally:
        release.set()
        queue.shutdown()
    assert pending == 2  # x's search and a's newest hint: before, the queue was full and a's hints busy
    assert out[:-1] == [None] * 19 and out[-1] == "a"


def test_a_hint_flood_from_one_game_does_not_make_another_games_hint_busy(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the API: a script asks for hints on its game without pause, from eight connections; another
    player's hint is still the solver's, within its limit."""
    flooded: set[int] = set()

    def hint(game: Game, stop: threading.Event, time_limit: float = 0.8) -> advisor.Hint:
        if game.seed in flooded:
            stop.wait(time_limit)  # the flood's searches use their time until superseded
            time.sleep(0.2)  # and notice their stop late (a solver deep in a search)
            return advisor.Hint(None, "solver", "solver", "unknown", time_limit)
        return advisor.Hint(str(game.legal_moves()[0]), "solver", "solver", "won", 0.0)

    monkeypatch.setattr(advisor, "solver_hint", hint)
    limit = 2.0
    queue = solving.SolverQueue(processes=False)
    with TestClient(create_app(store, hint_time=limit, solver=queue), base_url=LOCAL) as c:
        flood_game = c.post("/api/games", json={"seed": 11}).json()
        other = c.post("/api/games", json={"seed": 12}).json()
        flooded.add(11)
        done = threading.Event()
        sent: list[int] = []

        def flood() -> None:
            while not done.is_set():
                r = c.post(f"/api/games/{flood_game['id']}/hint", json={"kind": "solver"})
                sent.append(r.status_code)

        floods = [threading.Thread(target=flood) for _ in range(8)]
        for t in floods:
            t.start()
        try:
            while len(sent) < 16:  # the flood is under way
                time.sleep(0.01)
            t0 = time.perf_counter()
            h = c.post(f"/api/games/{other['id']}/hint", json={"kind": "solver"}).json()
            seconds = time.perf_counter() - t0
        finally:
            done.set()
            for t in floods:
                t.join(30)
    assert h["source"] == "solver", h  # before: a best guess, "the solver is busy with other requests"
    assert seconds < limit + LOADED
    assert set(sent) == {200}


def test_under_a_flood_the_time_limit_and_the_stop_on_disconnect_still_hold() -> None:
    """While game a floods the queue, b's search still ends at its limit, c's (under way) stops within
    milliseconds of its client going away, and d's (still waiting for a worker) leaves the queue at once."""
    queue = solving.SolverQueue(workers=2, max_pending=6, processes=False)
    stopped_at: list[float] = []

    def search(stop: Any, left: float) -> str:
        stop.wait(10)
        stopped_at.append(time.perf_counter())
        return "stopped"

    async def main() -> tuple[Any, float, Any, float, Any, float, int]:
        flood = [asyncio.ensure_future(queue.run(("a", q), _until_stopped, 5.0, long=q == "analysis"))
                 for _ in range(5) for q in QUESTIONS]
        await asyncio.sleep(0.05)
        t0 = time.perf_counter()
        limited = await queue.run(("b", "hint"), lambda stop, left: stop.wait(10), 0.3)
        limit_seconds = time.perf_counter() - t0
        queue.stop(("a", "analysis"))  # the long lane's worker is free for c
        gone, waiting = solving.ClientGone(), solving.ClientGone()
        running = asyncio.ensure_future(queue.run(("c", "winnable"), search, 10.0, long=True, gone=gone))
        await asyncio.sleep(0.1)
        queued = asyncio.ensure_future(queue.run(("d", "winnable"), search, 10.0, long=True, gone=waiting))
        await asyncio.sleep(0.05)
        before = queue.pending
        t1 = time.perf_counter()
        waiting.set()
        queued_answer = await queued
        queued_seconds = time.perf_counter() - t1
        held = before - queue.pending
        t2 = time.perf_counter()
        gone.set()
        answer = await running
        for q in QUESTIONS:
            queue.stop(("a", q))
        await asyncio.gather(*flood)
        return limited, limit_seconds, answer, t2, queued_answer, queued_seconds, held

    try:
        limited, limit_seconds, answer, gone_at, queued_answer, queued_seconds, freed = asyncio.run(main())
    finally:
        queue.shutdown()
    assert limited is None and limit_seconds < 0.3 + solving.GRACE + 0.1  # out of time, not busy
    assert answer == "stopped" and stopped_at and stopped_at[0] - gone_at < 0.05
    # before: d's place was held until the worker came to it (here: until c had stopped)
    assert queued_answer is None and queued_seconds < 0.05 and freed == 1
    assert len(stopped_at) == 1  # d never searched
    assert queue.pending == 0
