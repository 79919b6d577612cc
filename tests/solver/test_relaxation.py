"""Rule 4 (yukon.solver.relaxation.never_up): cards a relaxation of the rules proves can never go up.

Checked against the plain exhaustive search wherever it fires on small and late positions of every option
it applies to, on deals it proves lost at once (two of them undecided within 30 s before), against the
won deals of the verdict study, and where it must stay silent (two decks, a stock, foundation return).
"""

from __future__ import annotations

import csv
import gzip
import random
from pathlib import Path

import pytest

import yukon
from yukon import Game
from yukon.solver import search
from yukon.solver.relaxation import never_up

from .positions import small_position, stuck_position
from .reference import reference_solve

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ("yukon", "russian", "alaska")


def check_lost(game: Game) -> int:
    """1 when the plain search decides ``game`` (and finds it lost, as rule 4 says), 0 when it is too big."""
    ref = reference_solve(game, max_states=8_000)
    if ref is None:
        return 0
    assert ref.status == "lost", (game.to_text(), never_up(game), ref.line)
    return 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_small_positions_it_proves_lost_are_lost(variant: str) -> None:
    rng = random.Random(f"never-up-{variant}")
    fired = checked = 0
    for i in range(3000):
        game = (small_position(rng, variant, "kings", False, remaining=(6, 16), down_chance=0.9) if i % 2
                else stuck_position(rng, variant, "kings", False, remaining=(6, 12)))
        if game is not None and never_up(game):
            fired += 1
            checked += check_lost(game)
        if checked >= 12:
            break
    assert checked >= 6, f"never_up() fired on {fired} positions, {checked} decided by the plain search"


def test_small_positions_with_any_card_into_empty_columns() -> None:
    """Any card may go into an empty column: the rule then fires only where no column is empty and none can
    be emptied in time, so these positions fill every column."""
    rng = random.Random("never-up-any")
    fired = checked = 0
    for _ in range(3000):
        game = small_position(rng, "yukon", "any", False, remaining=(8, 16), down_chance=0.95, used=(7, 7))
        if never_up(game):
            fired += 1
            checked += check_lost(game)
        if checked >= 8:
            break
    assert checked >= 4, f"never_up() fired on {fired} positions, {checked} decided by the plain search"


def test_it_decides_tail_deals_at_once() -> None:
    for seed in (181, 271):
        result = yukon.solve(Game.deal("yukon", seed=seed), time_limit=5)
        assert result.status == "lost" and result.nodes == 0
        assert result.reason.startswith("never up: ")
    assert "never up: " in search.Searcher(Game.deal("yukon", seed=181), search.Limits(node_limit=1000)).run().reason


def won_seeds(limit: int) -> list[int]:
    seeds = []
    with gzip.open(ROOT / "data" / "verdict-study.csv.gz", "rt") as f:
        for row in csv.DictReader(f):
            if (row["variant"], row["empty_column"], row["foundation_return"]) == ("yukon", "kings", "0") \
                    and row["status"] == "won" and row["solver_version"] in ("13", "14"):
                seeds.append(int(row["seed"]))
    return sorted(set(seeds))[:limit]


def test_never_fires_on_won_deals() -> None:
    seeds = won_seeds(300)
    assert len(seeds) >= 200
    for seed in seeds:
        assert never_up(Game.deal("yukon", seed=seed)) == [], seed


def test_it_fires_on_some_deals_rule_3_does_not_decide() -> None:
    fired = [s for s in range(1, 201) if never_up(Game.deal("yukon", seed=s))]
    stuck = [s for s in fired if search.stuck_cards(Game.deal("yukon", seed=s))]
    assert set(fired) >= {30, 62, 64, 88, 92, 115, 135, 181, 185, 194}
    assert len(fired) - len(stuck) >= 5


@pytest.mark.parametrize(("variant", "ret"), [("milligan-yukon", False), ("australian", False), ("yukon", True)])
def test_it_stays_silent_where_it_does_not_apply(variant: str, ret: bool) -> None:
    rng = random.Random(f"silent-{variant}-{ret}")
    for _ in range(200):
        assert never_up(small_position(rng, variant, "kings", ret)) == []
