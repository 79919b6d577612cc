"""The repository's own checks, under plain pytest: every test module imports cleanly, and ruff is clean.

A test module that fails to import is a collection error that a ``-k`` or ``-m`` run may never show, and
one that imports only after another module (a helper on ``sys.path`` by luck) breaks a run of that file
alone: here each one is imported by itself (a child of a fresh interpreter each), the way pytest imports
it (the conftest.py files above it first; its folder, or the folder above its package, on ``sys.path``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from once_per_run import once_per_run

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"

#: imports each test module given by itself and says how it went
IMPORTER = TESTS / "import_test_module.py"


def module_files() -> list[Path]:
    """Every test module and conftest.py under tests/."""
    return sorted(p for p in TESTS.rglob("*.py") if p.name.startswith("test_") or p.name == "conftest.py")


def import_each_module() -> list[dict[str, Any]]:
    """How each test module imported by itself (one interpreter, a forked child per module)."""
    run = subprocess.run(
        [sys.executable, str(IMPORTER), str(TESTS), *map(str, module_files())],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    return [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]


@pytest.fixture(scope="module")
def imports(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, dict[str, Any]]:
    """How each test module imported by itself: found once per run, whatever the number of xdist workers.

    Under xdist each worker would run the import check (16 s) for the cases it got; there the first worker
    to come runs it and leaves the outcomes in the run's own temporary folder (the one above the workers'
    folders, new for each run), under a lock the others wait on, and they read them.
    """
    if "PYTEST_XDIST_WORKER" not in os.environ:
        outcomes = import_each_module()
    else:
        outcomes = once_per_run(tmp_path_factory.getbasetemp().parent / "test_codebase_imports.pickle",
                                import_each_module)
    return {Path(o["path"]): o for o in outcomes}


@pytest.mark.parametrize("path", module_files(), ids=lambda p: str(p.relative_to(TESTS)))
def test_every_test_module_imports_cleanly_by_itself(imports: dict[Path, dict[str, Any]], path: Path) -> None:
    outcome = imports[path]
    assert outcome["result"] != "failed", outcome["error"]
    assert outcome["warnings"] == [], "importing the module warns"


def test_ruff_is_clean() -> None:
    assert importlib.util.find_spec("ruff") is not None, "ruff is not installed: pip install -e '.[test]'"
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "src", "tests", "bench"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
