"""Under pytest-xdist, the workers of a run share the generated test cases (tests/solver/cases.py: ``shared``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from . import cases


@pytest.fixture(scope="session", autouse=True)
def share_cases_between_workers(request: pytest.FixtureRequest,
                                tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """An xdist worker's base temporary directory lies in the run's own (fresh each run): the workers keep
    their cases there. Without xdist each process builds its own (no directory outlives the run's use)."""
    if hasattr(request.config, "workerinput"):
        shared = tmp_path_factory.getbasetemp().parent / "solver-cases"
        shared.mkdir(exist_ok=True)
        cases.SHARED_DIR = shared
    yield
    cases.SHARED_DIR = None
