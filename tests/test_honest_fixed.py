"""A player is fixed by its name: ``honest-1`` plays today the games its committed study recorded, whatever
the solver has learnt since (evaluator.PLAYER_SEARCH keeps the search it was measured with)."""

from __future__ import annotations

import csv
import gzip
from pathlib import Path

import pytest

from yukon import Game
from yukon.honest import STUDY_BUDGET, evaluator, play_honest
from yukon.solver.search import compiled_supports

STUDY = Path(__file__).resolve().parents[1] / "data" / "honest-study.csv"


def recorded(seeds: range) -> dict[int, tuple[str, int]]:
    opener = gzip.open if STUDY.suffix == ".gz" else open
    with opener(STUDY, "rt", newline="") as f:  # type: ignore[operator]
        rows = [r for r in csv.DictReader(f) if r["solver_version"] == "honest-1 12x10000"]
    return {int(r["seed"]): (r["status"], int(r["line_length"])) for r in rows if int(r["seed"]) in seeds}


@pytest.mark.skipif(not compiled_supports(Game.deal("yukon", seed=1)), reason="needs the compiled search")
@pytest.mark.parametrize("seed", [5, 9])
def test_honest_1_plays_the_games_its_study_recorded(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Deals that solver 15's search would lose (the recorded games won them; 10 and 1 differ too)."""
    status, moves = recorded(range(seed, seed + 1))[seed]
    played = play_honest(Game.deal("yukon", seed=seed), STUDY_BUDGET, seed=seed)  # the study's seed
    assert (("won" if played.won else "lost"), played.moves) == (status, moves)
    monkeypatch.setattr(evaluator, "PLAYER_SEARCH", {})
    today = play_honest(Game.deal("yukon", seed=seed), STUDY_BUDGET, seed=seed)
    assert (today.won, today.moves) != (played.won, played.moves)  # so the pin is what keeps the player
