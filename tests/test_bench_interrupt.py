"""Ctrl-C in a bench/*.py script ends it quietly with status 130, as the yukon commands do (no traceback)."""

from __future__ import annotations

import argparse
import os
import runpy
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import NoReturn

import pytest

from bench_scripts import BENCH

SCRIPTS = sorted(p.name for p in BENCH.glob("*.py"))


def _interrupted(*_args: object, **_kwargs: object) -> NoReturn:
    raise KeyboardInterrupt


@pytest.mark.parametrize("name", SCRIPTS)
def test_ctrl_c_ends_quietly_with_130(name: str, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    # every script reads its arguments first in main(): a Ctrl-C there stands for one at any point of main()
    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", _interrupted)
    monkeypatch.syspath_prepend(str(BENCH))  # (as 'python bench/NAME.py' has it: a script may import another)
    monkeypatch.setattr("sys.argv", [str(BENCH / name)])
    try:
        runpy.run_path(str(BENCH / name), run_name="__main__")
    except KeyboardInterrupt:  # (what a traceback is printed for)
        pytest.fail(f"Ctrl-C in bench/{name} ends with KeyboardInterrupt's traceback")
    except SystemExit as stop:
        assert stop.code == 130
    else:
        pytest.fail(f"bench/{name} went on after Ctrl-C")
    said = capsys.readouterr()
    assert said.err == "" and said.out == ""


def test_the_scripts_share_one_helper() -> None:
    """One helper (yukon.cli_common.run_script) for every script, not a copy of the try/except in each."""
    for path in BENCH.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "except KeyboardInterrupt" not in text.split('if __name__ == "__main__":')[-1], path.name
        assert 'if __name__ == "__main__":\n    run_script(' in text, path.name


@pytest.mark.timeout(120)
def test_ctrl_c_with_pool_workers_is_quiet_too(tmp_path: Path) -> None:
    """A real Ctrl-C (SIGINT to the process group) while bench/honest_sweep.py's two pool workers play: each
    worker printed its own KeyboardInterrupt traceback after the parent's quiet 130."""
    out = tmp_path / "sweep.csv"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(BENCH.parent / "src"), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, str(BENCH / "honest_sweep.py"), "--deals", "1-40", "--jobs", "2",
                             "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while not (out.exists() and out.read_text().strip()):  # a game finished: the workers are playing
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.stderr else ""
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130 and err == "", err
    assert len(out.read_text().splitlines()) < 40  # (it was stopped, not finished)
