"""The honest player's speed-ups change none of its moves (issue 21, docs/honest.md "Budgets and speed").

The first player's decision (:func:`yukon.honest.evaluator.decide`) searches only what can still change
it; with ``yukon.honest.player.PRUNED`` off, every candidate is searched in every sample and the rule
applied after (the player as it was first written). The two must choose the same move with the same share
of the same samples, always; the pruned one must search less. Two-deck verdicts come straight from the
compiled search (:func:`yukon.honest.evaluator.search_status`): the same status, node count and reason as
the solver's ``Searcher``.
"""

from __future__ import annotations

import hashlib
import threading
import time

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from engine_helpers import ALL_OPTIONS, mid_game
from yukon import Game
from yukon.honest import Budget, Method, evaluator, honest_hint, play_honest, player
from yukon.honest.evaluator import LOST, UNKNOWN, WON, _Bounds, decide, search_status
from yukon.honest.sampler import iter_games
from yukon.solver.search import Limits, Searcher, compiled_two_deck
from yukon.visible import VisiblePosition

TINY = Budget(samples=3, nodes=2_000, python_samples=2, python_nodes=60)

SETTINGS = settings(
    max_examples=40,
    derandomize=True,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)



def both(game: Game, **kwargs: object) -> tuple[player.HonestHint, player.HonestHint]:
    """The pruned and the exhaustive hint of ``game``."""
    assert player.PRUNED
    pruned = honest_hint(game, None, **kwargs)  # type: ignore[arg-type]
    player.PRUNED = False
    try:
        full = honest_hint(game, None, **kwargs)  # type: ignore[arg-type]
    finally:
        player.PRUNED = True
    return pruned, full


def same_choice(a: player.HonestHint, b: player.HonestHint) -> tuple[object, ...]:
    return (a.move, a.source, a.win_share, a.samples)


options = st.sampled_from(ALL_OPTIONS)
deals = st.integers(1, 10_000)
choices = st.lists(st.integers(0, 1_000), max_size=40)


@SETTINGS
@given(options, deals, choices, st.integers(0, 2**32))
def test_the_pruned_decision_is_the_exhaustive_one(option, deal, picks, seed) -> None:
    game = mid_game(option, deal, picks)
    pruned, full = both(game, seed=seed, budget=TINY)
    assert same_choice(pruned, full) == same_choice(full, full), game.to_text()
    assert pruned.nodes <= full.nodes


class Oracle:
    """Stands in for the searches: a fixed verdict per position (a hash of it and a salt), so that the
    pruning meets far more ties, vetoes and lost roots than real searches give in a test's time."""

    def __init__(self, salt: int, lost_share: int) -> None:
        self.salt = salt
        self.lost_share = lost_share
        self.calls = 0

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(evaluator._Clock, "search", lambda clock, game, nodes: self.verdict(game))

    def verdict(self, game: Game) -> str:
        self.calls += 1
        digest = hashlib.sha256(f"{self.salt} {game.to_text()}".encode()).digest()
        return LOST if digest[0] % 100 < self.lost_share else (WON, UNKNOWN)[digest[1] % 2]


@settings(SETTINGS, max_examples=300)
@given(options, deals, choices, st.integers(0, 2**16), st.integers(0, 60), st.integers(1, 8),
       st.sampled_from([0.0, 0.1, 0.3]))
def test_the_pruning_chooses_as_the_rule_whatever_the_verdicts(
    monkeypatch, option, deal, picks, salt, lost_share, samples, margin,
) -> None:
    """The bounds reasoning of ``decide`` against the exhaustive rule, over verdicts drawn at random."""
    game = mid_game(option, deal, picks)
    oracle = Oracle(salt, lost_share)
    oracle.install(monkeypatch)
    budget = Budget(samples=samples, nodes=100, python_samples=samples, python_nodes=100)
    method = Method(margin=margin)
    pruned, full = both(game, seed=salt, budget=budget, method=method)
    assert same_choice(pruned, full) == same_choice(full, full), game.to_text()


def test_pruning_searches_less_on_every_variant() -> None:
    spent = {True: 0, False: 0}
    for option in ALL_OPTIONS:
        for deal in (1, 2):
            game = mid_game(option, deal, [0, 1, 2, 0, 1])
            pruned, full = both(game, seed=deal, budget=TINY)
            assert same_choice(pruned, full) == same_choice(full, full)
            spent[True] += pruned.nodes
            spent[False] += full.nodes
    assert spent[True] < 0.9 * spent[False], spent


def test_one_sample_one_favourite_takes_two_searches(monkeypatch) -> None:
    """Every card in sight: one sample, every move within one sample's worth of the best; the advice's
    favourite is chosen after the position's own search and the favourite's (the exhaustive rule: one
    search per candidate more)."""
    game = Game.from_text(  # Yukon deal 2 with every card face up
        "yukon,kings,noreturn TH/JHAC8D9S4DTD/6DAS2HQHAD3C5C/8CTS3HQC6C2C5SJC/JS8H4H7SQS9H8S6H5D/"
        "KHTC2S3D7D4S7C2DJD3S/9C5HKSKDKCQD7H4CAH6S9D -/-/-/-")
    view = VisiblePosition.of(game)
    assert view.hidden_places == 0 and len(view.legal_moves()) > 2
    oracle = Oracle(1, 0)
    oracle.install(monkeypatch)
    pruned, full = both(game, seed=1, budget=TINY)
    assert same_choice(pruned, full) == same_choice(full, full)
    assert pruned.source == "samples" and pruned.samples == 1 and len(full.values) > 2
    assert oracle.calls == 2 + 1 + len(full.values)


def test_a_milligan_game_plays_the_same_moves() -> None:
    budget = Budget(samples=3, nodes=1_500)
    games = []
    for pruned in (True, False):
        player.PRUNED = pruned
        try:
            game = Game.deal("milligan-yukon", seed=4)
            played = play_honest(game, budget, seed=4, max_moves=80)
        finally:
            player.PRUNED = True
        games.append((played, [str(m) for m in game.move_stack]))
    (a, moves_a), (b, moves_b) = games
    assert moves_a == moves_b and (a.won, a.reason) == (b.won, b.reason)
    assert a.nodes < b.nodes


def test_two_deck_verdicts_are_the_searchers() -> None:
    """Status, nodes and reason as ``Searcher.run`` gives them, on sampled positions of a Milligan game from
    the deal to the end (won and undecided; the game played by quick honest hints)."""
    seen = set()
    game = Game.deal("milligan-yukon", seed=2)
    for ply in range(200):
        if ply % 20 == 0:
            for sample in iter_games(VisiblePosition.of(game), 2, ply):
                assert compiled_two_deck(sample)
                for nodes in (300, 3_000):
                    outcome = Searcher(sample, Limits(None, nodes)).run()
                    expected = (outcome.status, outcome.stats.nodes, outcome.reason)
                    assert search_status(sample, Limits(None, nodes)) == expected, sample.to_text()
                    seen.add(outcome.status)
        hint = honest_hint(game, None, seed=ply, budget=Budget(samples=1, nodes=300))
        assert hint.move is not None
        game.push(hint.move)
    assert {WON, UNKNOWN} <= seen


def test_two_deck_verdicts_keep_to_a_stop() -> None:
    game = Game.deal("milligan-yukon", seed=5)
    stop = threading.Event()
    stop.set()
    assert search_status(game, Limits(None, 10_000, None, stop)) == (UNKNOWN, 0, "stopped")


def test_a_stop_before_the_first_search_leaves_the_advice() -> None:
    game = mid_game(("milligan-yukon", "kings", True), 3, [0, 1, 0])
    view = VisiblePosition.of(game)
    moves = view.legal_moves()
    stop = threading.Event()
    stop.set()
    decision = decide(view, moves, [0.0] * len(moves), 0.1, TINY, 1, None, stop)
    assert decision.move is None and decision.samples == 0 and not decision.certain
    hint = honest_hint(game, None, stop, budget=TINY)
    assert hint.move is not None and game.is_legal(hint.move)


def test_bounds_rank_ties_by_share_then_by_order() -> None:
    bounds = _Bounds([5.0, 5.0, 1.0], samples=2, margin=0.1)
    bounds.half, bounds.left = [2, 4, 4], [0, 0, 0]  # shares 0.5, 1.0, 1.0: the margin is one sample's worth
    out, sure = bounds.classify()
    assert out == [False, False, False] and sure == [True, True, True]
    assert bounds.winner(out, sure) == 1  # the same advice: the higher share
    bounds.half = [4, 4, 4]
    assert bounds.winner(*bounds.classify()) == 0  # the same advice and share: the first
    bounds.half, bounds.left = [0, 4, 0], [2, 0, 0]  # the favourite may still reach 1.0 or fall to 0
    out, sure = bounds.classify()
    assert bounds.winner(out, sure) is None and bounds.next_to_search(out) == 0


def test_a_huge_budget_draws_only_the_samples_it_reaches() -> None:
    """The samples are drawn as the searches reach them: a budget of far more than a deadline allows answers
    within the deadline (drawing 200,000 Milligan fills first would take many seconds)."""
    game = mid_game(("milligan-yukon", "kings", True), 6, [0, 1])
    huge = Budget(samples=200_000, nodes=5_000_000)
    started = time.perf_counter()
    hint = honest_hint(game, time_limit=0.3, budget=huge)
    assert time.perf_counter() - started < 3.0  # generous: the machine is shared
    assert hint.move is not None and game.is_legal(hint.move)
