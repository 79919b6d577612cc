"""bench/solver.py: seed lists, percentiles, and a tiny run (Russian Solitaire deals are decided at once)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench_scripts import load_bench


def test_seed_lists_and_percentiles() -> None:
    bench = load_bench("solver")
    assert bench.parse_seeds("1-5") == [1, 2, 3, 4, 5]
    assert bench.parse_seeds("1-3,10,20-21") == [1, 2, 3, 10, 20, 21]
    assert bench.percentile([float(i) for i in range(1, 11)], 90) == 9.0
    assert bench.percentile([3.0], 90) == 3.0
    with pytest.raises(ValueError):
        bench.parse_seeds("5-1")


def test_tiny_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_bench("solver")
    out = tmp_path / "r.json"
    code = bench.main(["--variant", "russian", "--seeds", "1-4", "--time-limit", "5", "--json", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "won / lost / unknown" in text and "peak memory" in text
    data = json.loads(out.read_text())
    s = data["summary"]
    assert s["deals"] == 4 and s["won"] + s["lost"] + s["unknown"] == 4
    assert s["verified"] == s["won"] and not s["bad_lines"]
    assert [d["seed"] for d in data["deals"]] == [1, 2, 3, 4]


def test_returns_compares_rule_4(capsys: pytest.CaptureFixture[str]) -> None:
    """bench/returns.py --compare relax: Yukon with return, deal 30 (lost: rule 4 at once, 25,000 nodes
    without) and deal 1 (won), checked against the verdict study."""
    bench = load_bench("returns")
    study = str(Path(__file__).resolve().parents[2] / "data" / "verdict-study.csv.gz")
    code = bench.main(["--compare", "relax", "--seeds", "1,30", "--node-limit", "200000", "--study", study])
    text = capsys.readouterr().out
    assert code == 0, text
    assert "rule 4 off and on" in text and "with rule 4: 2 of 2 decided" in text
    assert "0 verdicts differ" in text
    row = next(line.split() for line in text.splitlines() if line.split()[:1] == ["30"])
    assert row[3] == "lost" and row[4] == "0" and int(row[2].replace(",", "")) > 0
