"""With foundation return in one deck, solve() first searches the game without returns (solver 16)."""

from __future__ import annotations

import pytest

import yukon
from yukon import Game
from yukon.rules import rules_for
from yukon.solver import NO_RETURN_SHARE, SOLVER_VERSION, solve, solver_version
from yukon.solver.search import Limits, Searcher


def returns_deal(seed: int, empty: str = "kings") -> Game:
    return Game.deal("yukon", seed=seed, empty_column=empty, foundation_return=True)


@pytest.mark.parametrize("seed", [95, 114])
def test_a_deal_won_without_returns_is_won_with_them_by_that_line(seed: int) -> None:
    """Deals 95 and 114: solver 15's search with returns left them undecided at 30 s; without returns they
    are won in about 15,000 positions."""
    game = returns_deal(seed)
    before = game.to_text()
    result = solve(game, time_limit=None, node_limit=1_000_000)
    assert game.to_text() == before
    assert (result.status, result.reason) == ("won", "won without foundation returns")
    assert result.nodes < 1_000_000 * NO_RETURN_SHARE
    assert not any(str(m).startswith("F:") for m in result.moves)  # (not one return in it)
    game.replay(result.moves)  # every move checked by the engine with the rules of the game: returns on
    assert game.is_won()


def test_the_search_with_returns_alone_does_not_find_what_the_phase_finds() -> None:
    """Deal 216: the phase wins it in about a thousand positions; the search with returns (rule 4 and return
    blocks on) does not within two million."""
    result = solve(returns_deal(216), time_limit=None, node_limit=2_000_000)
    assert result.status == "won" and result.nodes < 10_000
    outcome = Searcher(returns_deal(216), Limits(node_limit=2_000_000)).run()
    assert outcome.status == "unknown"


def test_a_loss_without_returns_leaves_the_search_with_returns_to_decide() -> None:
    """Lost without returns (the 8S on the face-down 3S fits only on a red Nine, both up), won with them (the
    9H comes back down onto the 10S)."""
    text = "yukon,kings,return 3S.8S/TS/KSQSJS9S7S6S5S4S/TH/JH/QH/KH 2S/9H/KD/KC"
    game = Game.from_text(text)
    plain = Game.from_text(text.replace(",return", ",noreturn"))
    assert solve(plain, time_limit=None).status == "lost"
    result = solve(game, time_limit=None)
    assert result.status == "won"
    assert result.reason != "won without foundation returns"
    game.replay(result.moves)
    assert game.is_won()


def test_the_node_limit_covers_both_searches() -> None:
    """Deal 20 is lost without returns after 98 million positions and undecided with them: both searches
    run out, and together they keep the limit."""
    result = solve(returns_deal(20), time_limit=None, node_limit=400_000)
    assert (result.status, result.reason) == ("unknown", "node limit")
    assert result.nodes <= 400_000 * 1.01


def test_the_version_names_the_search_the_rules_get() -> None:
    assert SOLVER_VERSION == "16"
    assert solver_version(rules_for("yukon", foundation_return=True)) == "16"
    assert solver_version(rules_for("alaska", foundation_return=True)) == "16"
    for rules in (rules_for("yukon"), rules_for("russian"), rules_for("australian"), rules_for("milligan-yukon"),
                  rules_for("milligan-yukon", foundation_return=False)):
        assert solver_version(rules) == "15"
    won = yukon.solve(Game.from_text("yukon,kings,noreturn KS/QS/-/-/-/-/- JS/KH/KD/KC"), time_limit=5)
    assert won.to_dict()["solver_version"] == "15"
    assert solve(returns_deal(95), time_limit=None, node_limit=100_000).to_dict()["solver_version"] == "16"
