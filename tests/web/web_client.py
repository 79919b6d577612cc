"""The web tests' way into the app without a server: ``create_app`` on a store, through Starlette's
TestClient on the loopback address the guard accepts, and the calls most of those tests make."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient

from yukon.store import Store
from yukon.web import create_app, solving

LOCAL = "http://127.0.0.1"


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
