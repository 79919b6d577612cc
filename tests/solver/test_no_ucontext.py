"""The compiled core without ucontext (macOS, Windows, musl: docs/solver-design.md, "Portability").

The core is built with YUKON_NO_UCONTEXT forced (as setup.py does where swapcontext does not link) into a
temporary folder, with a ``ucontext.h`` on the include path that stops the build if anything includes it.
That build takes its interleaved turns between two threads; the tests of the interleave pass on it, and it
takes the same turns as the ucontext build, node for node.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from yukon import Game
from yukon.solver import search
from yukon.solver.search import Limits, Searcher

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,  # a build of the core (some 15 s) and the interleave's tests on it
    # (a minute or more of CI's 15: the long set, with the other portability and long-run checks)
    pytest.mark.skipif(not os.environ.get("YUKON_SLOW_TESTS"), reason="YUKON_SLOW_TESTS=1: build without ucontext"),
    pytest.mark.timeout(600),
    pytest.mark.skipif(search._core is None, reason="the compiled core was not built (no C compiler)"),
]

#: runs in a process of its own: loads the core at argv[1] as yukon.solver._core before yukon is imported
PRELOAD = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("yukon.solver._core", sys.argv[1])
core = importlib.util.module_from_spec(spec)
sys.modules["yukon.solver._core"] = core
spec.loader.exec_module(core)
"""

#: deals and node limits whose interleaved searches take many turns (deal 2 is lost in some 12 million nodes)
SAME_TURNS = [(2, 3_000_000), (28, 10_000_000), (52, 10_000_000), (123, 10_000_000)]


@pytest.fixture(scope="module")
def portable_core(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The core built with YUKON_NO_UCONTEXT; its path."""
    tmp = tmp_path_factory.mktemp("no-ucontext")
    poisoned = tmp / "include"
    poisoned.mkdir()
    (poisoned / "ucontext.h").write_text('#error "the YUKON_NO_UCONTEXT build included ucontext.h"\n')
    env = {**os.environ, "YUKON_PGO": "0", "YUKON_NO_UCONTEXT": "1"}
    build = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--build-lib", str(tmp / "lib"), "--build-temp",
         str(tmp / "build"), "--include-dirs", str(poisoned)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stderr[-3000:]
    assert "no ucontext" in build.stderr
    (core,) = (tmp / "lib" / "yukon" / "solver").glob("_core*")
    return core


def _in_portable_core(core: Path, code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT / "tests")])}
    return subprocess.run([sys.executable, "-c", PRELOAD + code, str(core), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


def _turns(seed: int, node_limit: int) -> tuple[str, int, int]:
    searcher = Searcher(Game.deal("yukon", seed=seed), Limits(node_limit=node_limit))
    searcher.compiled_threads = 1
    searcher.compiled_switch_at = 1_000
    searcher.compiled_interleave = True
    out = searcher.run_compiled()
    return out.status, out.stats.nodes, out.stats.peak_table


def test_this_build_uses_ucontext() -> None:
    assert search._core.INTERLEAVE_TURNS == "ucontext"


def test_the_portable_build_takes_the_same_turns(portable_core: Path) -> None:
    """Interleaved, node-limited searches on the two builds: the same verdict, nodes and table, node for
    node (the threads hand over the turn where swapcontext would switch stacks)."""
    code = """
import json
from yukon.solver import search
from solver.test_no_ucontext import _turns
print(json.dumps([search._core.INTERLEAVE_TURNS, [_turns(s, n) for s, n in json.loads(sys.argv[2])]]))
"""
    done = _in_portable_core(portable_core, code, json.dumps(SAME_TURNS))
    assert done.returncode == 0, done.stderr[-3000:]
    kind, portable = json.loads(done.stdout)
    assert kind == "threads"
    assert [tuple(t) for t in portable] == [_turns(s, n) for s, n in SAME_TURNS]


def test_the_interleave_tests_pass_on_the_portable_build(portable_core: Path) -> None:
    code = """
import pytest
from yukon.solver import search
assert search._core.INTERLEAVE_TURNS == "threads", search._core.INTERLEAVE_TURNS
sys.exit(pytest.main(["-p", "no:cacheprovider", "tests/solver/test_interleave.py"]))
"""
    done = _in_portable_core(portable_core, code)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    assert " passed" in done.stdout
