"""bench/agents.py's command line (its agents are tested with the environment: tests/test_honest_study.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import yukon

pytest.importorskip("gymnasium")

from bench_scripts import load_bench


@pytest.mark.parametrize("argv", [["--seeds", "abc"], ["--seeds", "5-1"], ["--honest-seeds", "1-3,9"]])
def test_a_bad_seed_range_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                      argv: list[str]) -> None:
    """It was a traceback (InvalidSeedError out of main)."""
    agents = load_bench("agents")
    monkeypatch.setattr(sys, "argv", ["agents.py", *argv])
    with pytest.raises(SystemExit) as info:
        agents.main()
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("agents.py: error: "), err
    assert "seed range" in err[-1] or "range of deals" in err[-1], err


def test_seeds_for_the_honest_agent_alone_is_refused_naming_honest_seeds(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The honest agent plays --honest-seeds: `--seeds 1-5 --agent honest` played deals 1-20 without a word
    (docs/agents.md itself said `--seeds 1-20 ... --agent honest`, true only through the default)."""
    agents = load_bench("agents")
    monkeypatch.setattr(agents, "play", lambda *a: pytest.fail("it played"))
    monkeypatch.setattr(sys, "argv", ["agents.py", "--seeds", "1-5", "--agent", "honest"])
    with pytest.raises(SystemExit) as info:
        agents.main()
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("agents.py: error: ") and "--honest-seeds" in err[-1], err


def test_a_small_run_prints_the_three_agents_side_by_side(tmp_path: Path) -> None:
    """The script itself, as a user runs it: one table, a row per agent for each variant, exit status 0; the
    first line names the honest agent's own deals (it said 'deals 1-3' alone while the honest agent played 1-2)."""
    script = Path(__file__).resolve().parents[1] / "bench" / "agents.py"
    env = {**os.environ, "PYTHONPATH": str(Path(yukon.__file__).resolve().parents[1])}
    out = subprocess.run(
        [sys.executable, str(script), "--seeds", "1-3", "--honest-seeds", "1-2", "--variant", "russian"],
        capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "deals 1-3 (the honest agent: deals 1-2), default rules, max_episode_steps 1000", lines[0]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in lines if line.startswith("| russian")]
    assert [r[1] for r in rows] == ["random", "greedy", "honest (deals 1-2)"]
    assert [r[2].split("/")[1] for r in rows] == ["3", "3", "2"]
    assert rows[0][6] != "-" and rows[1][6] == rows[2][6] == "-"  # the env's speed: on the random agent's games
    assert list(tmp_path.iterdir()) == []


def test_a_reader_that_stops_early_ends_it_quietly(tmp_path: Path) -> None:
    """'python bench/agents.py | head -1' ended with a BrokenPipeError traceback. The reader is gone before
    the first line is written (a reader that reads one line first races the script: on an idle machine the
    whole table can be in the pipe before it closes, and the script ends well)."""
    script = Path(__file__).resolve().parents[1] / "bench" / "agents.py"
    env = {**os.environ, "PYTHONPATH": str(Path(yukon.__file__).resolve().parents[1])}
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.Popen([sys.executable, str(script), "--seeds", "1-3", "--variant", "russian", "--agent",
                                 "random"], stdout=write_end, stderr=subprocess.PIPE, env=env, cwd=tmp_path)
    finally:
        os.close(write_end)
    assert proc.stderr is not None
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141, err
    assert err == ""
