"""The server under faults: a locked database, damaged saved games, big deal numbers, odd bodies,
memory over many games, and a busy solver."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_client import LOCAL, error_of

from wall_clock import LOADED
from yukon import Game, advisor
from yukon.deal import MAX_SEED
from yukon.notation import Move
from yukon.store import Store
from yukon.web import create_app, solving
from yukon.web.session import CLIENT, Registry


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "faults.sqlite3"


@pytest.fixture
def store(db: Path, request: pytest.FixtureRequest) -> Iterator[Store]:
    """The store, waiting 1.5 s for a lock (or as long as the test's indirect parameter says)."""
    s = Store(db, busy_timeout=getattr(request, "param", 1.5))
    yield s
    s.close()


# ---------------------------------------------------------------------- a locked database


def test_a_move_that_cannot_be_saved_changes_nothing_and_the_server_keeps_answering(
        client: TestClient, db: Path) -> None:
    s = client.post("/api/games", json={"seed": 42}).json()
    gid, move = s["id"], s["legal_moves"][0]
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another program holds the file
    answer: dict[str, Any] = {}

    def play() -> None:
        answer["r"] = client.post(f"/api/games/{gid}/moves", json={"move": move})

    mover = threading.Thread(target=play)
    mover.start()
    time.sleep(0.2)  # the move now waits for the lock
    t0 = time.perf_counter()
    assert client.get("/api/variants").status_code == 200
    waited = time.perf_counter() - t0
    assert mover.is_alive()  # the move still waits, and the server answered meanwhile
    mover.join(30)
    assert waited < 1.0  # the busy timeout is 1.5 s: the variants did not wait for it
    assert "locked" in error_of(answer["r"], 503)
    assert client.get(f"/api/games/{gid}").json()["moves"] == []
    other.execute("ROLLBACK")
    other.close()
    r = client.post(f"/api/games/{gid}/moves", json={"move": move})
    assert r.status_code == 200 and r.json()["moves"][0] == move  # the retry works (no 409)
    assert Store(db).load_game(gid).moves == r.json()["moves"]  # type: ignore[union-attr]


# (each of the five changes below waits for the lock before it is refused: 0.3 s each, not 1.5 s; the lock is
# held all along, so the wait's length changes nothing of what is checked)
@pytest.mark.parametrize("store", [0.3], indirect=True, ids=["lock-wait-0.3s"])
def test_other_changes_that_cannot_be_saved_change_nothing(client: TestClient, db: Path) -> None:
    s = client.post("/api/games", json={"seed": 42}).json()
    gid = s["id"]
    played = client.post(f"/api/games/{gid}/moves", json={"move": s["legal_moves"][0]}).json()
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        for path, body in (("undo", None), ("restart", None), ("clock", {"running": False})):
            error_of(client.post(f"/api/games/{gid}/{path}", json=body), 503)
        error_of(client.post("/api/games", json={"seed": 1, "abandon": gid}), 503)
        error_of(client.post("/api/games", json={"seed": 1}), 503)
    finally:
        other.execute("ROLLBACK")
        other.close()
    after = client.get(f"/api/games/{gid}").json()
    assert after["moves"] == played["moves"] and after["status"] == "playing" and after["can_undo"]
    assert [r.id for r in Store(db).unfinished(CLIENT)] == [gid]
    assert client.post(f"/api/games/{gid}/undo").status_code == 200


# ---------------------------------------------------------------------- deal numbers and odd bodies


@pytest.mark.parametrize("seed", [2**63 - 1, 2**63, MAX_SEED])
def test_every_deal_number_plays_and_survives_a_restart(store: Store, db: Path, seed: int) -> None:
    with TestClient(create_app(store), base_url=LOCAL) as c:
        s = c.post("/api/games", json={"seed": seed})
        assert s.status_code == 201 and s.json()["seed"] == seed
        gid = s.json()["id"]
        r = c.post(f"/api/games/{gid}/moves", json={"move": s.json()["legal_moves"][0]})
        assert r.status_code == 200
    again = Store(db)
    with TestClient(create_app(again), base_url=LOCAL) as c:
        state = c.get(f"/api/games/{gid}").json()
        assert state["seed"] == seed and state["moves"] == r.json()["moves"]
        assert state["tableau"] == r.json()["tableau"]
    again.close()


def test_variant_among_the_options_or_in_a_position_s_rules_is_no_500(client: TestClient) -> None:
    assert "variant" in error_of(client.post("/api/games", json={"options": {"variant": "alaska"}}), 422)
    position = Game.deal("yukon", seed=1).to_dict()
    position["rules"] = {**position.get("rules", {}), "variant": "alaska"}
    r = client.post("/api/games", json={"position": position})
    assert r.status_code in (400, 422), r.text
    assert set(r.json()) == {"error"}


def test_deeply_nested_json_is_no_500(client: TestClient) -> None:
    deep = "[" * 20_000 + "]" * 20_000
    for text in ('{"position": {"a": ' + deep + "}}", deep):
        r = client.post("/api/games", content=text.encode(), headers={"content-type": "application/json"})
        assert r.status_code in (400, 413, 422), r.text


# ---------------------------------------------------------------------- damaged saved games


def _damage(db: Path, gid: str, column: str, value: str) -> None:
    with sqlite3.connect(db) as raw:
        raw.execute(f"UPDATE games SET {column}=? WHERE id=?", (value, gid))


@pytest.mark.parametrize(("column", "value"), [("moves", "[not json"), ("moves", '["1:KS>F", "9:AH>F"]'),
                                                ("start", '{"variant": "nonsense"}'), ("extra", "7")])
def test_a_damaged_saved_game_is_named_and_skipped(store: Store, db: Path, column: str, value: str,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    with TestClient(create_app(store), base_url=LOCAL) as c:
        good = c.post("/api/games", json={"seed": 3}).json()
        c.post(f"/api/games/{good['id']}/moves", json={"move": good["legal_moves"][0]})
        bad = c.post("/api/games", json={"seed": 4}).json()
        c.post(f"/api/games/{bad['id']}/moves", json={"move": bad["legal_moves"][0]})
    _damage(db, bad["id"], column, value)  # the most recent game is the damaged one
    fresh = Store(db)
    with TestClient(create_app(fresh), base_url=LOCAL) as c:
        latest = c.get("/api/games/latest")
        assert latest.status_code == 200 and latest.json()["id"] == good["id"]
        assert bad["id"] in error_of(c.get(f"/api/games/{bad['id']}"), 410)
        assert c.get("/api/stats").json()["stats"] == []  # set aside, not counted as played
        assert c.get(f"/api/games/{good['id']}").status_code == 200
    assert [gid for gid, _ in fresh.damaged_games()] == [bad["id"]]
    assert bad["id"] in caplog.text
    fresh.close()


def test_a_finished_game_with_damaged_options_leaves_the_statistics_readable(client: TestClient, db: Path) -> None:
    s = client.post("/api/games", json={"position": Game.from_text(
        "yukon,kings,noreturn KS/KH/-/-/-/-/- QS/QH/KD/KC").to_dict()}).json()
    client.post(f"/api/games/{s['id']}/moves", json={"move": "1:KS>F", "autofinish": True})
    t = client.post("/api/games", json={"seed": 9}).json()
    client.post(f"/api/games/{t['id']}/moves", json={"move": t["legal_moves"][0]})
    client.post("/api/games", json={"seed": 10, "abandon": t["id"]})
    assert len(client.get("/api/stats").json()["stats"]) == 1
    _damage(db, s["id"], "options", "{oops")
    rows = client.get("/api/stats").json()["stats"]
    assert [(r["played"], r["won"]) for r in rows] == [(1, 0)]


# ---------------------------------------------------------------------- memory: sessions are evicted


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_sessions_beyond_the_cap_are_evicted_and_reload_from_the_store(store: Store) -> None:
    reg = Registry(store, max_sessions=3)
    ids = []
    for seed in range(10):
        s = reg.new_game("yukon", {}, seed=seed)
        s.play(str(s.game.legal_moves()[0]))
        ids.append(s.id)
    assert len(reg) == 3 and {s.id for s in reg.sessions()} == set(ids[-3:])
    back = reg.get(ids[0])
    assert back is not None and len(back.moves) >= 1 and back.seed == 0
    assert len(reg) == 3


def test_idle_sessions_are_evicted_but_never_one_in_use(store: Store) -> None:
    clock = Clock()
    reg = Registry(store, max_sessions=100, idle_seconds=60, clock=clock)
    a = reg.new_game("yukon", {}, seed=1)
    b = reg.new_game("yukon", {}, seed=2)
    with reg.use(a.id) as held:
        assert held is a
        clock.now = 61
        reg.new_game("yukon", {}, seed=3)  # evicts what is idle: b, not a
        assert {s.id for s in reg.sessions()} == {a.id, reg.sessions()[-1].id}
        assert b.id not in {s.id for s in reg.sessions()}
    assert reg.get(b.id) is not b and reg.get(b.id).seed == 2  # type: ignore[union-attr]


def test_the_server_keeps_a_bounded_number_of_games_in_memory(store: Store) -> None:
    app = create_app(store, max_sessions=5)
    with TestClient(app, base_url=LOCAL) as c:
        ids = [c.post("/api/games", json={"seed": n}).json()["id"] for n in range(20)]
        assert len(app.state.registry) == 5
        assert all(c.get(f"/api/games/{gid}").status_code == 200 for gid in ids)
        assert len(app.state.registry) == 5


# ---------------------------------------------------------------------- a busy solver


def _slow_hint(release: threading.Event, kind: str) -> Any:
    def hint(game: Game, stop: threading.Event, time_limit: float = 0.8) -> advisor.Hint:
        release.wait(30)  # a search that ignores its limit (the worst case) until released
        return advisor.Hint(None, kind, "solver", "unknown", time_limit)

    return hint


@pytest.mark.parametrize("kind", ["honest", "solver"])
def test_hints_answer_within_their_limit_and_moves_do_not_wait_for_the_solver(
        store: Store, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    release = threading.Event()
    monkeypatch.setattr(advisor, f"{kind}_hint", _slow_hint(release, kind))
    queue = solving.SolverQueue(workers=1, max_pending=2, processes=False)
    limit = 1.0  # a move that waited for a hint would take at least this
    try:
        with TestClient(create_app(store, hint_time=limit, solver=queue), base_url=LOCAL) as c:
            games = [c.post("/api/games", json={"seed": n}).json() for n in range(4)]
            answers: list[tuple[float, dict[str, Any]]] = []

            def ask(gid: str) -> None:
                t0 = time.perf_counter()
                r = c.post(f"/api/games/{gid}/hint", json={"kind": kind})
                answers.append((time.perf_counter() - t0, r.json()))

            askers = [threading.Thread(target=ask, args=(g["id"],)) for g in games]
            for t in askers:
                t.start()
            t0 = time.perf_counter()
            g = games[0]
            moved = c.post(f"/api/games/{g['id']}/moves", json={"move": g["legal_moves"][0]})
            move_time = time.perf_counter() - t0
            for t in askers:
                t.join(30)
            assert moved.status_code == 200 and move_time < 0.8 * limit
            assert len(answers) == 4
            for seconds, h in answers:
                assert seconds < limit + LOADED  # the stand-in search runs until released (30 s)
                assert h["source"] == "heuristic" and h["status"] == "unknown" and h["move"] and h["kind"] == kind
                assert "best guess" in h["note"]
            notes = " ".join(h["note"] for _, h in answers)
            assert "busy" in notes and "ran out of time" in notes  # 2 queued, 2 refused at once
            assert queue.pending <= 2
    finally:
        release.set()


def test_the_time_before_the_search_counts_against_the_hints_limit(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint whose game is slow to come (read back from a busy store, a wait for a thread) still answers
    within its limit: the limit counts from the request's arrival, and the search gets the time left."""
    given: list[float] = []

    def patient_hint(game: Game, stop: threading.Event, time_limit: float = 0.8) -> advisor.Hint:
        given.append(time_limit)
        stop.wait(time_limit)  # a solver that uses all the time it is given
        return advisor.Hint(str(game.legal_moves()[0]), "solver", "solver", "unknown", time_limit)

    monkeypatch.setattr(advisor, "solver_hint", patient_hint)
    limit, delay = 1.0, 0.5
    app = create_app(store, hint_time=limit, solver=solving.SolverQueue(processes=False))
    with TestClient(app, base_url=LOCAL) as c:
        gid = c.post("/api/games", json={"seed": 3}).json()["id"]
        registry = app.state.registry
        real_get = registry.get

        def slow_get(game_id: str) -> Any:
            time.sleep(delay)
            return real_get(game_id)

        monkeypatch.setattr(registry, "get", slow_get)
        t0 = time.perf_counter()
        r = c.post(f"/api/games/{gid}/hint", json={"kind": "solver"})
        seconds = time.perf_counter() - t0
    assert r.status_code == 200 and r.json()["move"]
    # the search was given only what was left (before: its full share of the limit, after the delay)
    assert given and all(t < limit - delay for t in given)
    assert seconds < limit + LOADED


def test_a_hint_answers_by_its_limit_even_when_the_work_after_the_search_is_slow(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a machine short of CPU the hint policy's own work after a search (keeping the line found) can
    outlast the limit: the answer does not wait for it, it is a best guess at the limit."""
    def winning_hint(game: Game, stop: threading.Event, time_limit: float = 0.8) -> advisor.Hint:
        move = str(game.legal_moves()[0])
        return advisor.Hint(move, "solver", "solver", "won", 0.01, line=[move])

    release = threading.Event()

    def slow_remember(self: advisor.Lines, game: Game, line: list[str]) -> None:
        release.wait(30)  # work after the search that outlasts any limit, until released

    monkeypatch.setattr(advisor, "solver_hint", winning_hint)
    monkeypatch.setattr(advisor.Lines, "remember", slow_remember)
    limit = 0.8
    try:
        with TestClient(create_app(store, hint_time=limit, solver=solving.SolverQueue(processes=False)),
                        base_url=LOCAL) as c:
            gid = c.post("/api/games", json={"seed": 3}).json()["id"]
            t0 = time.perf_counter()
            h = c.post(f"/api/games/{gid}/hint", json={"kind": "solver"}).json()
            seconds = time.perf_counter() - t0
            release.set()
    finally:
        release.set()
    assert seconds < limit + LOADED  # before: until the work was done
    assert h["source"] == "heuristic" and h["move"] and "ran out of time" in h["note"]


def test_a_newer_request_for_a_game_supersedes_the_older_one() -> None:
    import asyncio

    queue = solving.SolverQueue(workers=2, max_pending=4, processes=False)
    stopped: list[bool] = []

    def work(stop: threading.Event, left: float) -> str:
        stopped.append(stop.wait(30))
        return "done"

    async def main() -> list[Any]:
        first = asyncio.create_task(queue.run(("g", "hint"), work, 30))
        await asyncio.sleep(0.1)
        second = asyncio.create_task(queue.run(("g", "hint"), lambda stop, left: "newer", 30))
        return list(await asyncio.gather(first, second))

    t0 = time.perf_counter()
    assert asyncio.run(main()) == ["done", "newer"]
    assert stopped == [True] and time.perf_counter() - t0 < 0.1 + LOADED  # unstopped, the older one waits 30 s
    queue.shutdown()


def test_a_hint_does_not_queue_behind_long_solver_jobs() -> None:
    """Long jobs ("winnable?" with its look-back, the deal search, the analysis) have workers of their own:
    with both of them asked for, a hint still starts at once; beyond their share of the queue, they are refused."""
    import asyncio

    queue = solving.SolverQueue(workers=2, max_pending=4, processes=False)
    release = threading.Event()

    async def main() -> tuple[str | None, float]:
        long_jobs = [asyncio.create_task(queue.run((g, "winnable"), lambda stop, left: release.wait(30), 30,
                                                   long=True)) for g in ("a", "b")]
        await asyncio.sleep(0.1)
        with pytest.raises(solving.SolverBusyError):  # two long jobs are their share of four places
            await queue.run(("c", "winnable"), lambda stop, left: True, 10, long=True)
        t0 = time.perf_counter()
        answer = await queue.run(("d", "hint"), lambda stop, left: "a hint", 10.0)
        seconds = time.perf_counter() - t0
        release.set()
        assert await asyncio.gather(*long_jobs) == [True, True]
        return answer, seconds

    try:
        answer, seconds = asyncio.run(main())
    finally:
        release.set()
        queue.shutdown()
    assert answer == "a hint" and seconds < LOADED  # before: behind the long jobs until its limit (10 s), then None
    assert queue.pending == 0


def test_a_full_queue_refuses_at_once() -> None:
    import asyncio

    queue = solving.SolverQueue(workers=1, max_pending=1, processes=False)
    release = threading.Event()

    async def main() -> None:
        running = asyncio.create_task(queue.run(("a", "hint"), lambda stop, left: release.wait(5), 5))
        await asyncio.sleep(0.05)
        with pytest.raises(solving.SolverBusyError):
            await queue.run(("b", "hint"), lambda stop, left: True, 5)
        release.set()
        assert await running is True

    asyncio.run(main())
    assert queue.pending == 0
    queue.shutdown()


def test_json_of_a_hint_is_unchanged_for_a_known_line(store: Store) -> None:
    with TestClient(create_app(store, hint_time=10.0), base_url=LOCAL) as client:  # the workers start first
        _hint_json_is_json(client)


def _hint_json_is_json(client: TestClient) -> None:
    position = Game.from_text("yukon,kings,noreturn KS/KH/-/-/-/-/- QS/QH/KD/KC").to_dict()
    gid = client.post("/api/games", json={"position": position}).json()["id"]
    h = client.post(f"/api/games/{gid}/hint", json={"kind": "solver"}).json()
    assert h["source"] == "solver" and h["move"] in ("1:KS>F", "2:KH>F")
    assert json.loads(json.dumps(h)) == h


def wait_for_stop(started: Path, stop: Any, left: float) -> tuple[bool, int]:
    """A solver stand-in for the worker processes: says it has started, then waits until stopped (or 20 s)."""
    import os

    started.touch()
    return stop.wait(20), os.getpid()


def test_worker_processes_are_stopped_across_the_process_boundary(tmp_path: Path) -> None:
    import asyncio
    import os
    from functools import partial

    queue = solving.SolverQueue(workers=1, max_pending=2)
    started = tmp_path / "started"

    async def main() -> tuple[list[Any], float]:
        first = asyncio.create_task(queue.run(("g", "hint"), partial(wait_for_stop, started), 60))
        deadline = time.monotonic() + 60  # the worker process starts (it imports yukon): slow on a busy machine
        while not started.exists():
            assert time.monotonic() < deadline, "the worker process did not start the job within 60 s"
            await asyncio.sleep(0.05)
        asked = time.perf_counter()
        second = asyncio.create_task(queue.run(("g", "hint"), partial(wait_for_stop, tmp_path / "second"), 0.5))
        answers = list(await asyncio.gather(first, second))
        return answers, time.perf_counter() - asked

    try:
        ((stopped, pid), timed_out), seconds = asyncio.run(main())
        assert stopped and pid != os.getpid()  # it ran in another process, and the newer request stopped it
        assert timed_out is None  # the newer one waited its 0.5 s, then the caller answered without it
        assert seconds < 0.5 + LOADED  # unstopped, the older one waits 20 s
    finally:
        queue.shutdown()


# ---------------------------------------------------------------------- a client that goes away


class _Search:
    """A solver job stand-in that searches until stopped (at most ``cap`` seconds) and says whether it was."""

    def __init__(self, answer: Any, cap: float = 3.0) -> None:
        self.answer = answer
        self.cap = cap
        self.started = threading.Event()
        self.stopped: list[bool] = []

    def __call__(self, *args: Any) -> Any:
        stop, left = args[-2:]
        self.started.set()
        self.stopped.append(stop.wait(min(left, self.cap)))
        return self.answer


def _leave_during(client: TestClient, path: str, body: bytes, search: _Search) -> None:
    """``POST path`` straight to the app, as a client that goes away once the search has started."""
    import anyio

    async def call() -> None:
        given = False

        async def receive() -> dict[str, Any]:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            while not search.started.is_set():
                await anyio.sleep(0.01)
            return {"type": "http.disconnect"}  # the tab was closed, the page reloaded

        async def send(message: dict[str, Any]) -> None:
            pass  # nobody reads the answer

        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
                 "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "", "query_string": b"",
                 "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                             (b"content-length", str(len(body)).encode())],
                 "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 80)}
        await client.app(scope, receive, send)

    assert client.portal is not None
    client.portal.call(call)


@pytest.mark.parametrize("what", ["analysis", "winnable", "deal", "demo"])
def test_a_search_stops_when_its_client_goes_away(store: Store, monkeypatch: pytest.MonkeyPatch, what: str) -> None:
    """A long search (an analysis, "still winnable?", a winnable deal, the computer's move) nobody waits for
    any more stops at once: else it keeps one of the few long-job workers (or the demo's) for its whole limit,
    and every other player's "still winnable?" is "busy" meanwhile."""
    from yukon import demo
    from yukon.web import app as web_app
    from yukon.web import deals

    if what == "analysis":
        search = _Search({"start": 0})
        monkeypatch.setattr(web_app, "analysis_job", search)
    elif what == "winnable":
        search = _Search((advisor.Verdict("unknown", "solver"), {}))
        monkeypatch.setattr(advisor, "winnable_job", search)
    elif what == "deal":
        search = _Search((5, advisor.Verdict("unknown", "solver")))
        monkeypatch.setattr(solving, "winnable_deal_job", search)
        monkeypatch.setattr(deals, "has_data", lambda rules: False)
    else:
        search = _Search(demo.Decision(None, "no move"))
        monkeypatch.setattr(demo, "decision_job", search)
    queue = solving.SolverQueue(processes=False)
    app = create_app(store, winnable_time=2.0, analysis_time=2.0, solver=queue)
    app.state.demo.think_time = 2.0
    with TestClient(app, base_url=LOCAL) as c:
        state = c.post("/api/games", json={"seed": 3}).json()
        gid = state["id"]
        if what == "analysis":
            c.post(f"/api/games/{gid}/resign")
        if what == "demo":  # the computer found a move: with nobody watching, it is not played
            search.answer = demo.Decision(Move.from_text(state["legal_moves"][0]), "move")
        path, body = {"analysis": (f"/api/games/{gid}/analysis", b""), "winnable": (f"/api/games/{gid}/winnable", b""),
                      "deal": ("/api/games", b'{"winnable_only": true}'),
                      "demo": (f"/api/games/{gid}/demo-move", b"{}")}[what]
        _leave_during(c, path, body, search)
        assert search.stopped == [True]  # before: it searched on until its limit
        assert queue.pending == 0
        assert c.get(f"/api/games/{gid}").json()["move_count"] == 0
