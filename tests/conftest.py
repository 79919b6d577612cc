"""Fixtures shared by the test modules: a store in a temporary file, and a clock the test moves by hand."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fake_clock import FakeClock
from yukon.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "yukon.sqlite3")
    yield s
    s.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
