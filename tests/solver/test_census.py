"""bench/census.py: the census build searches node for node as the normal one, and its counts hang together
(without rule 4 in the search, as the census that led to it: with it, deal 80's root is locked outright).

The census (src/yukon/solver/core/census.c, a build with -DYUKON_CENSUS) measures how many nodes a perfect
test of a kind of dead end would save; the figures in docs/solver-design.md ("Where lost proofs spend their
nodes") come from it. It runs in a subprocess: it loads its own build of the core as yukon.solver._core.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from yukon import Game
from yukon.solver.search import Limits, Searcher

ROOT = Path(__file__).resolve().parents[2]
CENSUS = ROOT / "bench" / "census.py"
#: lost deals decided within a few hundred thousand nodes (80), and a deal whose loss is of the locked
#: kind for a quarter of its nodes (2: its last column hides three Kings over a 5 and a 9), cut short
SEEDS = "2,80"
NODE_LIMIT = 2_000_000


@pytest.fixture(scope="module")
def census(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    out = tmp_path_factory.mktemp("census") / "census.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    subprocess.run(
        [sys.executable, str(CENSUS), "--seeds", SEEDS, "--node-limit", str(NODE_LIMIT), "--json", str(out),
         "--no-relax"],
        cwd=ROOT, check=True, capture_output=True, timeout=900, env=env,
    )
    return json.loads(out.read_text())


def normal_search(seed: int) -> tuple[str, int]:
    saved = Searcher.compiled_threads, Searcher.compiled_interleave, Searcher.compiled_sleep, Searcher.compiled_relax
    Searcher.compiled_threads, Searcher.compiled_interleave, Searcher.compiled_sleep = 1, True, False
    Searcher.compiled_relax = False
    try:
        out = Searcher(Game.deal("yukon", seed=seed), Limits(node_limit=NODE_LIMIT)).run()
    finally:
        (Searcher.compiled_threads, Searcher.compiled_interleave, Searcher.compiled_sleep,
         Searcher.compiled_relax) = saved
    return out.status, out.stats.nodes


def test_the_census_build_searches_as_the_normal_one(census: list[dict]) -> None:
    for row in census:
        assert (row["status"], row["search_nodes"]) == normal_search(row["seed"])
        assert row["nodes"] == row["search_nodes"]


def test_the_counts_hang_together(census: list[dict]) -> None:
    by_seed = {row["seed"]: row for row in census}
    assert by_seed[80]["status"] == "lost"
    for row in census:
        kinds = row["kinds"]
        # every node is one child of one kind (sleep and twin children are not nodes)
        counted = sum(sum(kinds[k]) for k in ("table", "swap", "forced", "pass"))
        assert counted == row["nodes"]
        assert kinds["table"][0] == sum(row["down"].values()) == sum(row["found"].values())
        assert sum(row["ahead"].values()) == row["finished"]
        assert 0 < row["signatures"] <= kinds["table"][0]
        # a stalled class (nothing turned or played up below it) is locked too; locked is column or suit
        assert row["stalled"] <= row["locked"] <= row["column"] + row["suit"]
        assert max(row["column"], row["suit"]) <= row["locked"] <= row["finished"]
        for kind in ("stalled", "column", "suit", "locked"):
            assert 0 <= row["saved_" + kind] <= row["nodes"]
            # (a dead class's nodes count once a live class above it finishes: in a search cut short, a
            # wider kind may not have been credited yet)
            if row["status"] != "unknown":
                assert row["saved_" + kind] <= row["saved_locked"]
    # deal 80 is searched to the end, and its root is locked: a plain breadth-first search of its whole
    # position graph (230,822 positions, every legal move; docs/solver-changelog.md, "Solver 15") never
    # turns a card in columns 3 and 5 and never plays a spade or a diamond up, as the census finds
    deal80 = by_seed[80]
    assert deal80["root_turns"] & (1 << 3 | 1 << 5) == 0 and deal80["root_turns"] & (1 << 2 | 1 << 4 | 1 << 6)
    assert deal80["root_ups"] == 1 << 1 | 1 << 3  # hearts and clubs only
    assert deal80["saved_locked"] == deal80["nodes"]
    assert by_seed[2]["saved_locked"] > 0
