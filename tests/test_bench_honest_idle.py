"""bench/honest_idle.py replays the study's honest games move for move (its figures are those games')."""

from __future__ import annotations

import pytest

import yukon
from bench_scripts import BENCH, load_bench
from yukon.honest import STUDY_BUDGET, play_honest


def test_its_games_are_play_honests(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCH))  # it imports bench/honest_advice.py beside it
    idle = load_bench("honest_idle")
    table = idle.Table("milligan-yukon", "kings", False)
    deal, reason, moves, most = idle.longest_idle(table, 24, max_moves=12)
    game = yukon.Game.deal("milligan-yukon", seed=24, empty_column="kings", foundation_return=False)
    played = play_honest(game, STUDY_BUDGET, seed=24, max_moves=12)
    assert (deal, reason, moves) == (24, played.reason, played.moves)
    assert 0 <= most < moves
