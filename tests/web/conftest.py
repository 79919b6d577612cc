"""The fixtures of the browser tests (browser_setup.py): one chromium and one server per test module, and
a fresh server with no solver for each test under the real Content-Security-Policy."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_setup import Server, chromium
from fastapi.testclient import TestClient
from web_client import app_client

from yukon.store import Store


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


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
