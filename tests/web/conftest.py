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
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("web") / f"{request.module.__name__}.sqlite3") as s:
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
