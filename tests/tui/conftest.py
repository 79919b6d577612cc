"""Fixtures for the terminal game's tests: a temporary store and a fake clock."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# The tests import their shared positions from tui_helpers.py, next to this file, whatever pytest's import mode.
sys.path.insert(0, str(Path(__file__).parent))

from tui_helpers import FakeClock

from yukon.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "yukon.sqlite3")
    yield s
    s.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
