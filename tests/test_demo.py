"""yukon.demo: the computer's decision reads only what the player sees, its moves are counted in the game's
record, and a game the computer played in stays out of the statistics."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yukon import Game, IllegalMoveError
from yukon.demo import (
    COMPUTER_MOVES,
    REPEATS,
    SPEEDS,
    computer_moves,
    decide,
    play_computer_move,
    situation,
    speed_pause,
)
from yukon.honest import Budget
from yukon.notation import Move
from yukon.session import PlaySession
from yukon.store import Store
from yukon.visible import VisiblePosition

SMALL = Budget(samples=3, nodes=2_000)
NEARLY_WON = "yukon,kings,noreturn QCKH/KD/KC/-/-/-/- KS/QH/QD/JC"


def test_the_decision_sees_only_the_view() -> None:
    game = Game.deal("alaska", seed=4)
    view, seen, seed = situation(game)
    assert seen == frozenset() and seed == 0
    other = view.fill(tuple(reversed(view.unseen)))
    assert other.to_text() != game.to_text()
    mine, theirs = decide(view, seen, seed, SMALL, None), decide(*situation(other), SMALL, None)
    assert mine.move is not None and (mine.move, mine.source, mine.win_share) == (
        theirs.move, theirs.source, theirs.win_share)


#: Three legal moves, none of which turns a card or is safe to play up (found by playing Yukon deal 1 at random).
NOTHING_TO_TURN = ("yukon,kings,noreturn 5C4D3S2H/-/5D.QCJD/TS8D9S.8HAH4H3C/TD9CKSKH.6DQDJCTH7S6H5S9H6S5H7H6C/"
                   "2DTC2S7DKC.8CKDQS4S3D/4CJHASAC7C2C.3H8SJS9DQH AD/-/-/-")


def test_the_computer_gives_up_rather_than_go_round_in_circles() -> None:
    view, _, seed = situation(Game.from_text(NOTHING_TO_TURN))
    moves = view.legal_moves()
    assert len(moves) == 3 and all(view.after(m) is not None for m in moves)
    assert decide(view, frozenset(), seed, SMALL, None).reason == "move"
    every_move_goes_back = frozenset(view.after(m) for m in moves)
    decision = decide(view, every_move_goes_back, seed, SMALL, None)  # type: ignore[arg-type]
    assert decision.move is None and decision.reason == REPEATS, decision


def test_computer_moves_are_counted_in_the_same_save(store: Store) -> None:
    core = PlaySession(Game.from_text(NEARLY_WON), store, client="test", write_at="deal", autoplay=True)
    played = play_computer_move(core, Move.from_text("1:KH>F"))
    assert len(played) == 4 and core.result == "won"
    record = store.load_game(core.id)
    assert record is not None and record.extra[COMPUTER_MOVES] == 1 and record.result == "won"
    assert store.stats() == []
    with pytest.raises(Exception, match="over"):
        play_computer_move(core, Move.from_text("1:KH>F"))
    assert core.extra[COMPUTER_MOVES] == 1  # a refused move is not counted


def test_an_illegal_computer_move_changes_nothing(store: Store) -> None:
    core = PlaySession(Game.deal("yukon", seed=3), store, client="test", write_at="deal")
    with pytest.raises(IllegalMoveError):
        play_computer_move(core, Move.from_text("1:KH>F"))
    assert COMPUTER_MOVES not in core.extra and core.moves == []


def test_only_the_players_games_count(store: Store) -> None:
    for n, extra in enumerate([{}, {COMPUTER_MOVES: 2}, {COMPUTER_MOVES: 0}, {COMPUTER_MOVES: True}]):
        store.create_game(f"g{n}", "yukon", {}, n, {}, "web", extra, result="won")
    (row,) = store.stats()
    assert (row.played, row.won) == (3, 3)  # the one with two computer moves is left out


def test_counts_and_speeds() -> None:
    assert computer_moves({COMPUTER_MOVES: 3}) == 3
    assert computer_moves({}) == computer_moves({COMPUTER_MOVES: "3"}) == computer_moves({COMPUTER_MOVES: -1}) == 0
    assert [speed_pause(name) for name, _ in SPEEDS] == sorted((p for _, p in SPEEDS), reverse=True)
    with pytest.raises(ValueError, match="slow, normal, fast, fastest"):
        speed_pause("warp")


def test_views_of_games_that_differ_in_hidden_cards_are_equal() -> None:
    game = Game.deal("australian", seed=2)
    view = VisiblePosition.of(game)
    assert VisiblePosition.of(view.fill(sorted(view.unseen))) == view


def _same_history_other_cards(start: Game, moves: list[Move], rng: random.Random) -> Game:
    """The game of ``moves`` from ``start``, with the cards still unseen at the end moved around in the deal."""
    end = start.copy()
    for m in moves:
        end.push(m)
    columns = [(list(down), list(up)) for down, up in start.columns]
    stock = list(start.stock)
    # face-down cards never move until they are turned, from the top; the stock deals its last card first
    slots = [(i, k) for i, (down, _) in enumerate(end.columns) for k in range(len(down))] + \
        [(-1, k) for k in range(len(end.stock))]
    cards = {place: (columns[place[0]][0][place[1]] if place[0] >= 0 else stock[place[1]]) for place in slots}
    shuffled = [cards[p] for p in slots]
    rng.shuffle(shuffled)
    for (i, k), card in zip(slots, shuffled, strict=True):
        if i >= 0:
            columns[i][0][k] = card
        else:
            stock[k] = card
    other = Game(start.rules, columns, [list(p) for p in start.foundations], stock, list(start.waste))
    for m in moves:
        other.push(m)
    return other


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(variant=st.sampled_from(["yukon", "russian", "alaska", "australian", "milligan-yukon"]),
       seed=st.integers(0, 10_000), plies=st.integers(0, 25), shuffle=st.integers(0, 2**32))
def test_games_with_the_same_history_and_other_unseen_cards_get_the_same_decision(
    variant: str, seed: int, plies: int, shuffle: int,
) -> None:
    rng = random.Random(shuffle)
    start = Game.deal(variant, seed=seed)
    game = start.copy()
    moves: list[Move] = []
    for _ in range(plies):
        legal = game.legal_moves()
        if len(legal) < 2:
            break
        moves.append(rng.choice(legal))
        game.push(moves[-1])
    other = _same_history_other_cards(start, moves, rng)
    assert situation(game) == situation(other)
    mine, theirs = decide(*situation(game), SMALL, None), decide(*situation(other), SMALL, None)
    assert (mine.move, mine.reason, mine.source, mine.win_share) == (
        theirs.move, theirs.reason, theirs.source, theirs.win_share)
