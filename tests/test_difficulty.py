"""yukon.difficulty: the grades on each scale, the thresholds, and the held-out validation that decides the scales."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

import yukon
from yukon.difficulty import (
    CANDIDATES,
    EASY_MEDIUM_HARD,
    EASY_OR_HARD,
    GRADES,
    MIN_GAMES,
    SCALES,
    Deal,
    discriminates,
    grade,
    held_out,
    scale,
    thresholds,
)
from yukon.rules import OPTIONS


def test_every_scale_is_a_candidate_of_known_rules() -> None:
    for (variant, empty, ret), grades in SCALES.items():
        assert variant in yukon.VARIANTS and empty in OPTIONS["empty_column"] and isinstance(ret, bool)
        assert grades in CANDIDATES
    assert all(c[0] == "easy" and set(c) <= set(GRADES) for c in CANDIDATES)
    assert scale("russian", "kings", False) == ()  # 6% winnable: too few won deals to tell grades apart
    assert scale("milligan-yukon", "kings", True) == ()  # no honest games


@pytest.mark.parametrize("grades, expected", [
    (GRADES, ["easy", "medium", "medium", "medium", "hard", "hard", "expert"]),  # thresholds 30 / 50
    (EASY_MEDIUM_HARD, ["easy", "medium", "medium", "medium", "medium", "hard", "hard"]),  # threshold 40
    (EASY_OR_HARD, ["easy", "hard", "hard", "hard", "hard", "hard", "hard"]),
    ((), [None] * 7),
])
def test_grades_on_each_scale(grades: tuple[str, ...], expected: list[str | None]) -> None:
    nodes = [10, 20, 30, 40, 50, 60]
    bounds = thresholds(nodes, grades)
    assert len(bounds) == max(0, len(grades) - 2)
    got = [grade("won", True, 10**9, bounds, grades)] + [grade("won", False, n, bounds, grades) for n in nodes]
    assert got == expected
    assert grade("lost", True, 1, bounds, grades) is None and grade("unknown", False, 1, bounds, grades) is None


def test_no_searched_deal_gives_zero_thresholds() -> None:
    assert thresholds([]) == (0, 0) and thresholds([], EASY_MEDIUM_HARD) == (0,) and thresholds([], EASY_OR_HARD) == ()


@given(st.lists(st.integers(0, 10**9), min_size=1, max_size=300), st.sampled_from(CANDIDATES))
def test_the_searched_deals_split_in_order_and_near_equal_parts(nodes: list[int], grades: tuple[str, ...]) -> None:
    bounds = thresholds(nodes, grades)
    assert list(bounds) == sorted(bounds)
    got = {n: grade("won", False, n, bounds, grades) for n in nodes}
    rank = {g: i for i, g in enumerate(grades)}
    ordered = sorted(nodes)
    assert all(rank[got[a]] <= rank[got[b]] for a, b in itertools.pairwise(ordered))  # more nodes: no easier
    assert "easy" not in got.values()  # the first grade is the probe's alone
    if len(set(nodes)) == len(nodes):  # distinct counts: each part within two deals of an equal share
        parts = len(grades) - 1
        for g in grades[1:]:
            share = sum(v == g for v in got.values())
            assert abs(share - len(nodes) / parts) < 2, (g, share, bounds)


def _deals(rates: list[float], per_grade: int) -> list[Deal]:
    """Won deals whose honest result depends on the nodes' part only: the first grade the probe's, then
    ``len(rates) - 1`` bands of nodes; within a band, the first ``rate`` share won. Odd and even seeds alike."""
    out = []
    seed = 1
    for band, rate in enumerate(rates):
        for k in range(per_grade):
            out.append(Deal(seed, band == 0, 1000 * band + k, k < rate * per_grade))
            seed += 1
    return out


def test_held_out_grades_come_from_the_other_halfs_thresholds() -> None:
    deals = _deals([0.9, 0.6, 0.3, 0.1], 40)
    counts = held_out(deals, GRADES)
    assert sum(n for _, n in counts.values()) == len(deals)
    assert counts["easy"] == (36, 40)
    assert discriminates(counts) == ""
    unplayed = [Deal(d.seed, d.probe, d.nodes, None) for d in deals]
    assert all(n == 0 for _, n in held_out(unplayed, GRADES).values())  # not played: counted nowhere


@pytest.mark.parametrize("counts, words", [
    ({"easy": (9, 10)}, "two grades"),
    ({"easy": (80, 100), "hard": (1, MIN_GAMES - 1)}, f"fewer than {MIN_GAMES} honest games of hard"),
    ({"easy": (80, 100), "medium": (20, 100), "hard": (30, 100)}, "rises: medium 20% < hard 30%"),
    ({"easy": (6, 10), "hard": (4, 10)}, "intervals of easy and hard overlap"),
])
def test_what_does_not_validate_a_scale(counts: dict[str, tuple[int, int]], words: str) -> None:
    assert words in discriminates(counts)


def test_a_scale_validated_on_one_player_and_not_on_a_flat_one() -> None:
    assert discriminates(held_out(_deals([0.9, 0.5, 0.1], 30), EASY_MEDIUM_HARD)) == ""
    assert "overlap" in discriminates(held_out(_deals([0.5, 0.5], 30), EASY_OR_HARD))
