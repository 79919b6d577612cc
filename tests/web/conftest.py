"""The fixtures of the browser tests (browser_setup.py): one chromium for the run, one server per test module,
and a fresh server with no solver for each test under the real Content-Security-Policy."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_setup import ARGS, CHROMIUM, Server, playwright
from fastapi.testclient import TestClient
from web_client import app_client

from yukon.store import Store


@pytest.fixture(scope="session")
def _playwright() -> Iterator[dict[str, Any]]:
    """Playwright, and one chromium for the whole run (of each xdist worker), started by the first module
    that needs it: starting one took a second or more for every test module."""
    with playwright() as p:
        held: dict[str, Any] = {"playwright": p, "browser": None}
        yield held
        if held["browser"] is not None and held["browser"].is_connected():
            held["browser"].close()


@pytest.fixture(scope="module")
def browser(_playwright: dict[str, Any]) -> Iterator[Any]:
    """The chromium, for one test module (started again should it have died); the module's pages are closed
    after it, as when each module had a chromium of its own (every test opens a context of its own: nothing
    is kept from one test to the next)."""
    b = _playwright["browser"]
    if b is None or not b.is_connected():
        b = _playwright["browser"] = _playwright["playwright"].chromium.launch(executable_path=CHROMIUM, args=ARGS)
    yield b
    for context in list(b.contexts):
        context.close()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """The module's server, on a store in memory: the store commits each move with ``synchronous=FULL``, and
    on a file the disk's sync took about half of a browser move's round trip (a whole game is hundreds of
    them). No browser test reads the file; the store on a file, its WAL and its sync are the store's own tests
    (tests/test_store.py) and the servers on files of test_web_cli.py, test_web_api.py and others."""
    with Server(":memory:") as s:
        yield s


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    """The app on the test's store (tests/conftest.py's, or the module's own), started for the test."""
    with app_client(store) as c:
        yield c


@pytest.fixture
def strict_url() -> Iterator[str]:
    with Server(":memory:", warm_solver=False) as s:
        yield s.url
