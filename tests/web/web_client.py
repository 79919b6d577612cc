"""The web tests' ways into the app: without a server, ``create_app`` on a store through Starlette's
TestClient on the loopback address the guard accepts, and the calls most of those tests make; as a
program, ``yukon play`` in a child process (:func:`start_play`)."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from fastapi.testclient import TestClient

from yukon.store import Store
from yukon.web import create_app, solving

LOCAL = "http://127.0.0.1"
#: ``yukon play`` of this interpreter, no browser opened
PLAY = [sys.executable, "-m", "yukon.cli", "play", "--no-browser"]


@contextmanager
def app_client(store: Store, **options: Any) -> Iterator[TestClient]:
    """A client of ``create_app(store, **options)``, its app started (and stopped at the end)."""
    with TestClient(create_app(store, **options), base_url=LOCAL) as client:
        yield client


def solver_threads() -> solving.SolverQueue:
    """The solver in threads of this process: worker processes started cold by the first hint can take
    longer than its limit to start on a busy machine (the hint is then a best guess); test_web_faults.py
    covers the processes."""
    return solving.SolverQueue(processes=False)


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    """``POST /api/games`` with ``body``: the new game's state (the test fails unless it was created)."""
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def error_of(r: Any, status: int) -> str:
    """The error message of the answer ``r``, which must have ``status`` and nothing but the error (a refused
    move also says which rule it breaks, in a player's words)."""
    assert r.status_code == status, r.text
    data = r.json()
    assert set(data) in ({"error"}, {"error", "reason", "explanation"}) and data["error"]
    return str(data["error"])


def start_play(args: list[str]) -> tuple[subprocess.Popen[str], str]:
    """``yukon play --port 0 ARGS`` in a child process, and the address its first line gives (the caller
    stops it)."""
    proc = subprocess.Popen([*PLAY, "--port", "0", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r"http://\S+", line)
    assert match, line
    return proc, match.group(0)


def wait_up(url: str, **kw: object) -> httpx.Response:
    """``GET url`` once the server answers (it may still be starting)."""
    for _ in range(200):
        try:
            return httpx.get(url, timeout=2, **kw)  # type: ignore[arg-type]
        except httpx.TransportError:
            time.sleep(0.05)
    raise AssertionError("the server did not start")  # pragma: no cover
