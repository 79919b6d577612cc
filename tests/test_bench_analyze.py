"""bench/analyze.py: its games are reproducible and its command call works (a tiny run)."""

from __future__ import annotations

from pathlib import Path

from bench_scripts import load_bench
from yukon.record import GameRecord


def test_weak_games_are_reproducible() -> None:
    bench = load_bench("analyze")
    first, again = bench.weak_game(4, 120), bench.weak_game(4, 120)
    assert first.move_stack == again.move_stack and first == again
    assert len(first.move_stack) == 30  # deal 4's weak player reaches a dead end at move 30
    assert bench.weak_game(5, 10).move_stack != bench.weak_game(6, 10).move_stack


def test_percentile() -> None:
    bench = load_bench("analyze")
    assert bench.percentile([float(i) for i in range(1, 21)], 90) == 18.0
    assert bench.percentile([3.0], 90) == 3.0


def test_run_analyze(tmp_path: Path) -> None:
    bench = load_bench("analyze")
    path = tmp_path / "game.json"
    GameRecord.from_game(bench.weak_game(4, 120)).write(path)
    seconds, answer = bench.run_analyze(path, ["--time-limit", "10"])
    assert answer["losing_move"] == 15 and seconds > 0
