"""bench/agents.py's command line (its agents are tested with the environment: tests/test_honest_study.py)."""

from __future__ import annotations

import sys

import pytest

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
