"""yukon.demo: the computer's decision reads only what the player sees, its moves are counted in the game's
record, and a game the computer played in stays out of the statistics."""

from __future__ import annotations

import pytest

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
