"""The solver's places are shared fairly: one game's flood of searches (a held key, a script) does not make
every other game's hint or "still winnable?" busy, and a game asking again gets its newest answer."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_client import LOCAL

from wall_clock import LOADED
from yukon import Game, advisor
from yukon.advisor import Verdict
from yukon.store import Store
from yukon.web import create_app, solving

QUESTIONS = ("hint", "winnable", "demo", "analysis")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "fair.sqlite3")
    yield s
    s.close()


def _wait_until(condition: Callable[[], bool], what: str, within: float = 60) -> None:
    """Wait for ``condition``; fail naming ``what`` if it does not come (never go on with it unmet: on a
    loaded machine a request can take seconds to reach the queue, and a test that went on would measure
    the queue before the request arrived)."""
    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {within:g} s for {what}")
        time.sleep(0.005)


@contextlib.contextmanager
def _released(release: threading.Event) -> Iterator[None]:
    """``release`` set on leaving, a failure included: the searches it holds end, so the app can stop (else
    its end waits for them, and a failed test hangs for their whole budget)."""
    try:
        yield
    finally:
        release.set()


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


class _Watched(solving.SolverQueue):
    """A queue that notes each search's key once the search has been let in or refused (``asked``)."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.asked: list[Hashable] = []

    async def run(self, key: Hashable, fn: Callable[[Any, float], Any], limit: float, **options: Any) -> Any:
        task = asyncio.ensure_future(super().run(key, fn, limit, **options))
        await asyncio.sleep(0)  # the search's first step: up to its first wait, it is let in or refused
        self.asked.append(key)
        return await task


def test_a_hint_flood_from_one_game_does_not_make_another_games_hint_busy(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the API: a script asks for hints on its game without pause, from eight connections, while its
    first search holds the one hint worker (a solver deep in a search notices its stop late: here, not until
    released); another player's hint asked then is not refused as busy, and is the solver's once the worker
    is free.

    Nothing here waits for a clock: the time limit is ten minutes, the held search ends when the test
    releases it, and that only once the other's search is in the queue. (With a 2 s limit and searches that
    noticed their stop 0.2 s late, at a load average of 10 the other's request, counted from its arrival,
    once took longer than its limit and rightly got a best guess: the time limit at work, not the flood.)"""
    flooded: set[int] = set()
    done, release = threading.Event(), threading.Event()
    flood_searches: list[int] = []

    def hint(game: Game, stop: threading.Event, time_limit: float = 0.8) -> advisor.Hint:
        if game.seed in flooded:
            flood_searches.append(1)
            release.wait(600)  # its stop unnoticed: the worker is held
            return advisor.Hint(None, "solver", "solver", "unknown", time_limit)
        return advisor.Hint(str(game.legal_moves()[0]), "solver", "solver", "won", 0.0)

    monkeypatch.setattr(advisor, "solver_hint", hint)
    queue = _Watched(processes=False)
    with TestClient(create_app(store, hint_time=600.0, solver=queue), base_url=LOCAL) as c:
        flood_game = c.post("/api/games", json={"seed": 11}).json()
        other = c.post("/api/games", json={"seed": 12}).json()
        flooded.add(11)
        sent: list[int] = []

        def flood() -> None:
            while not done.is_set():
                r = c.post(f"/api/games/{flood_game['id']}/hint", json={"kind": "solver"})
                sent.append(r.status_code)

        floods = [threading.Thread(target=flood) for _ in range(8)]
        answer: list[dict[str, Any]] = []
        asking = threading.Thread(target=lambda: answer.append(
            c.post(f"/api/games/{other['id']}/hint", json={"kind": "solver"}).json()))
        try:
            for t in floods:
                t.start()
            # the flood's first search holds the worker, and sixteen more of its hints have been answered
            # (each replaced by a newer one before it started: more than the queue has places)
            _wait_until(lambda: bool(flood_searches) and len(sent) >= 16, "the flood to be under way")
            held, searched = queue.pending, len(flood_searches)
            asking.start()
            # the other's search let in (or refused) while the flood's first search still holds the worker
            _wait_until(lambda: (other["id"], "hint") in queue.asked, "the other game's hint to reach the queue")
            release.set()
            _wait_until(lambda: bool(answer), "the other game's hint")
        finally:
            done.set()
            release.set()
            for t in floods:
                t.join(30)
            asking.join(30)
    assert answer[0]["source"] == "solver", answer  # before: a best guess, "the solver is busy with other requests"
    assert held <= 2, held  # the flood's held search and its newest, whatever the number of its requests
    assert searched == 1 and set(sent) == {200}  # (the worker was held throughout)
    assert queue.pending == 0


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


SEARCHED = {"variant": "russian", "options": {"foundation_return": True}, "winnable_only": True}  # no shipped data


def test_one_browsers_winnable_deal_searches_leave_another_browser_its_own(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The winnable-deal search (no shipped verdicts for these rules: the solver looks) is inside the share of
    the browser that asked, as a game's searches are inside the game's: a browser asking again and again has
    its older search give way to its newest (at most one at a time), and another browser's search, asked in
    the middle of the flood, is not stopped by it. Before, every client's deal searches shared one share: the
    flood stopped the other player's search ("the solver is busy: this deal is not checked")."""
    release = threading.Event()
    running: list[str] = []

    def search(variant: str, options: dict[str, Any], stop: Any, left: float) -> tuple[int, Verdict]:
        running.append(variant)
        while not (stop.is_set() or release.is_set()):
            time.sleep(0.005)
        if stop.is_set() and not release.is_set():
            return 1, Verdict("unknown", "solver", 0.0, "stopped")
        return 2, Verdict("won", "solver", 0.0, "found")

    monkeypatch.setattr(solving, "winnable_deal_job", search)
    # no search ends at its time limit (10 s): on a loaded machine the requests take seconds to arrive
    monkeypatch.setattr(solving, "DEAL_BUDGET", 600.0)
    queue = solving.SolverQueue(workers=3, max_pending=8, processes=False)
    app = create_app(store, solver=queue)
    flooder, other = TestClient(app, base_url=LOCAL), TestClient(app, base_url=LOCAL)
    with flooder, _released(release):
        flooder.get("/")
        other.get("/")  # each browser has its cookie
        answers: dict[str, Any] = {}

        def ask(name: str, client: TestClient) -> None:
            r = client.post("/api/games", json=SEARCHED)
            answers[name] = r.json().get("deal_note", r.text)

        threads: list[threading.Thread] = []

        def asking(name: str, client: TestClient) -> None:
            threads.append(threading.Thread(target=ask, args=(name, client)))
            threads[-1].start()
            _wait_until(lambda: len(running) == len(threads), f"{name}'s search to start")

        for name in ("a1", "a2", "b", "a3", "a4", "a5"):
            asking(name, other if name == "b" else flooder)
        _wait_until(lambda: queue.pending <= 2, "the searches that gave way to end")
        held = queue.pending
        release.set()
        for t in threads:
            t.join(30)
    assert answers["b"] == "found", answers  # before: "stopped", a's newer searches made b's give way
    assert [answers[f"a{n}"] for n in range(1, 5)] == ["stopped"] * 4  # a's older searches gave way to its newest
    assert answers["a5"] == "found"
    assert held <= 2  # a's newest and b's: a flood holds one place


def test_winnable_deal_searches_of_clients_without_a_cookie_share_one_share(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A script that keeps no cookie is a new browser with every request: its searches do not each get a
    share of their own (they would fill the long jobs' places), they share one, as before."""
    release = threading.Event()
    running: list[int] = []

    def search(variant: str, options: dict[str, Any], stop: Any, left: float) -> tuple[int, Verdict]:
        running.append(1)
        while not (stop.is_set() or release.is_set()):
            time.sleep(0.005)
        return 1, Verdict("unknown", "solver", 0.0, "stopped" if stop.is_set() else "found")

    monkeypatch.setattr(solving, "winnable_deal_job", search)
    # no search ends at its time limit (10 s): on a loaded machine the requests take seconds to arrive
    monkeypatch.setattr(solving, "DEAL_BUDGET", 600.0)
    queue = solving.SolverQueue(workers=5, max_pending=10, processes=False)
    app = create_app(store, solver=queue)
    threads: list[threading.Thread] = []
    with TestClient(app, base_url=LOCAL), _released(release):  # (the app's start and end)
        def ask() -> None:
            # a new client for each request: no cookie kept (clearing one client's cookies while its other
            # requests' answers set theirs, from other threads, raced)
            TestClient(app, base_url=LOCAL).post("/api/games", json=SEARCHED)

        for _ in range(4):
            threads.append(threading.Thread(target=ask))
            threads[-1].start()
            _wait_until(lambda: len(running) == len(threads), f"search {len(threads)} to start")
        _wait_until(lambda: queue.pending <= queue.share, "the searches that gave way to end")
        held = queue.pending
        release.set()
        for t in threads:
            t.join(30)
    assert len(running) == 4 and held == queue.share
