"""Import test modules (or conftest.py files) each by itself, as pytest's "prepend" import mode would.

Run by test_codebase.py: ``python import_test_module.py TESTS_FOLDER MODULE_FILE...`` prints one JSON
line per module: its file, its dotted name, "imported", "skipped: why" or "failed" (with the error), and
the warnings raised from a file under the tests folder while it was imported. Each module is imported in
a child of this process (forked after the libraries every test uses are loaded once, which is quick;
a few children at a time), so none sees what another one put on ``sys.path`` or in ``sys.modules``.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import json
import os
import sys
import traceback
import warnings
from pathlib import Path

import pytest


def base_of(folder: Path) -> Path:
    """The first folder up from ``folder`` that is not a package: what pytest puts on sys.path."""
    while (folder / "__init__.py").exists():
        folder = folder.parent
    return folder


def load_conftests(path: Path, tests: Path) -> None:
    """The conftest.py files above ``path`` (not itself), outermost first, as pytest loads them before it."""
    folders = [tests, *reversed([p for p in path.parents if p.is_relative_to(tests) and p != tests])]
    for n, folder in enumerate(folders):
        conftest = folder / "conftest.py"
        if conftest.exists() and conftest != path:
            base = base_of(folder)
            sys.path.insert(0, str(base))
            if folder != base:  # in a package: pytest imports it by its dotted name (relative imports work)
                importlib.import_module(".".join([*folder.relative_to(base).parts, "conftest"]))
                continue
            spec = importlib.util.spec_from_file_location(f"conftest_{n}", conftest)
            assert spec is not None and spec.loader is not None
            spec.loader.exec_module(importlib.util.module_from_spec(spec))


def import_module(path: Path, tests: Path) -> dict[str, object]:
    base = base_of(path.parent)
    name = ".".join([*path.parent.relative_to(base).parts, path.stem])
    outcome: dict[str, object] = {"module": name}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            load_conftests(path, tests)
            sys.path.insert(0, str(base))
            importlib.import_module(name)
            outcome["result"] = "imported"
        except pytest.skip.Exception as skip:  # a module-level skip: a missing optional tool, said so
            outcome["result"] = f"skipped: {skip}"
        except BaseException:
            outcome["result"] = "failed"
            outcome["error"] = traceback.format_exc()
    outcome["warnings"] = [f"{w.filename}:{w.lineno}: {w.category.__name__}: {w.message}"
                           for w in caught if Path(w.filename).resolve().is_relative_to(tests)]
    return outcome


#: loaded once before the children are forked: libraries and yukon's own modules, not test code (the slow
#: part of an import: with only the first six, the 114 children took 16 s; loading what two or more test
#: modules import here makes each child import only its test code and what few modules need alone)
SHARED = ("hypothesis", "yukon", "yukon.solver", "yukon.web", "fastapi.testclient", "textual.app",
          "sqlite3", "multiprocessing", "concurrent.futures", "yukon.store", "yukon.honest", "yukon.session",
          "yukon.hinting", "yukon.advisor", "yukon.demo", "yukon.winnable_deals", "yukon.position",
          "yukon.cli_common", "yukon.cli", "yukon.analysis", "yukon.render", "yukon.web.app", "fastapi",
          "playwright.sync_api", "textual", "yukon.tui.app", "yukon.tui.screens", "yukon.tui.demo",
          "yukon.study.runner", "yukon.study.db", "yukon.study.players", "yukon.study.report", "numpy",
          "gymnasium", "pydantic")


def start_child(path: Path, tests: Path) -> tuple[int, int]:
    """Fork a child that imports ``path`` and writes its JSON line to a pipe: (its pid, the pipe's end)."""
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read)
        try:
            line = json.dumps({"path": str(path), **import_module(path, tests)})
        except BaseException:
            line = json.dumps({"path": str(path), "result": "failed", "error": traceback.format_exc()})
        os.write(write, line.encode() + b"\n")
        os._exit(0)
    os.close(write)
    return child, read


def main(tests: Path, paths: list[Path]) -> None:
    for library in SHARED:
        with contextlib.suppress(ImportError):  # an optional library: its test modules will say so
            importlib.import_module(library)
    sys.stdout.flush()
    # a few children at once (each one still imports a single module in a fresh copy of this process),
    # read and printed in the order given
    at_once = max(1, min(4, os.cpu_count() or 1))
    running: list[tuple[Path, int, int]] = []
    pending = list(paths)
    while pending or running:
        while pending and len(running) < at_once:
            path = pending.pop(0)
            running.append((path, *start_child(path, tests)))
        path, child, read = running.pop(0)
        with os.fdopen(read, "rb") as pipe:
            line = pipe.read().decode().strip()
        _, status = os.waitpid(child, 0)
        if not line:
            line = json.dumps({"path": str(path), "result": "failed", "error": f"the import crashed ({status})"})
        print(line, flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), [Path(p).resolve() for p in sys.argv[2:]])
