"""The fixtures of the browser tests (browser_setup.py): one chromium and one server per test module, and
a fresh server with no solver for each test under the real Content-Security-Policy."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_setup import Server, chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("web") / f"{request.module.__name__}.sqlite3") as s:
        yield s


@pytest.fixture
def strict_url() -> Iterator[str]:
    with Server(":memory:", warm_solver=False) as s:
        yield s.url
