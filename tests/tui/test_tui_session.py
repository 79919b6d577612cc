"""The terminal game's session (no terminal): turns, undo/redo, automatic plays, saving, results."""

from __future__ import annotations

from pathlib import Path

import pytest
from tui_helpers import CERTAIN_WIN, NEARLY_WON, ONE_FROM_LOST, FakeClock

from yukon import Game, IllegalMoveError
from yukon.session import NothingToDoError
from yukon.store import Store
from yukon.tui.session import CLIENT, IDLE_CAP, Pick, Session, describe_move


def test_a_turn_groups_the_move_and_its_automatic_plays() -> None:
    s = Session(Game.from_text(NEARLY_WON), None)
    played = s.play(s.game.parse_move("1:KH>F"))
    assert str(played[0]) == "1:KH>F"
    assert len(played) == 4 and s.game.is_won() and s.result == "won"
    assert s.turns == [4]
    assert s.undo() and s.game == Game.from_text(NEARLY_WON)
    assert s.redo() and s.game.is_won()


def test_autoplay_off_plays_only_the_move_and_auto_finish_wins() -> None:
    s = Session(Game.from_text(CERTAIN_WIN), None, autoplay=False)
    s.play(s.game.parse_move("1:QC>F"))
    assert s.game.cards_on_foundations == 49 and s.result is None
    played = s.finish()
    assert len(played) == 3 and s.game.is_won() and s.turns == [1, 3]


def test_finish_does_nothing_unless_the_win_is_certain() -> None:
    s = Session(Game.deal("yukon", seed=3), None)
    assert s.finish() == [] and s.turns == []


def test_illegal_move_changes_nothing() -> None:
    s = Session(Game.deal("yukon", seed=42), None)
    before = s.game.to_dict()
    with pytest.raises(IllegalMoveError, match="does not fit"):
        s.play(Pick(3, s.game.columns[3][1][1], 4).move_to(5))
    assert s.game.to_dict() == before and s.turns == [] and s.move_count == 0


def test_undo_redo_and_a_new_move_clears_redo() -> None:
    s = Session(Game.deal("yukon", seed=42), None, autoplay=False)
    first = s.game.parse_move("6:8D>5")
    s.play(first)
    s.play(s.game.parse_move("2:AS+1>1"))
    assert s.undo() and s.undo()
    with pytest.raises(NothingToDoError):
        s.undo()
    assert s.can_redo and s.redo()
    assert s.game.move_stack == [first]
    s.play(s.game.parse_move("4:AH>F"))  # a different move: the rest of the redo list goes
    assert not s.can_redo
    with pytest.raises(NothingToDoError):
        s.redo()


def test_replaying_the_undone_move_keeps_the_redo_list() -> None:
    s = Session(Game.deal("yukon", seed=42), None, autoplay=False)
    a, b = s.game.parse_move("6:8D>5"), None
    s.play(a)
    b = s.game.parse_move("2:AS+1>1")
    s.play(b)
    s.undo()
    s.undo()
    s.play(a)
    assert s.can_redo and s.redo() and s.game.move_stack == [a, b]


def test_restart_can_be_redone() -> None:
    s = Session(Game.deal("yukon", seed=42), None, autoplay=False)
    s.play(s.game.parse_move("6:8D>5"))
    s.play(s.game.parse_move("2:AS+1>1"))
    end = s.game.to_dict()
    assert s.restart() and s.move_count == 0
    with pytest.raises(NothingToDoError):
        s.restart()
    while s.can_redo:
        s.redo()
    assert s.game.to_dict() == end


def test_nothing_is_stored_before_the_first_move(store: Store) -> None:
    s = Session(Game.deal("yukon", seed=42), store)
    s.save()
    s.abandon()
    assert store.latest_unfinished(CLIENT) is None and store.stats() == []


def test_saved_game_resumes_with_turns_redo_and_clock(store: Store, clock: FakeClock) -> None:
    s = Session(Game.deal("russian", seed=5, empty_column="any"), store, autoplay=False, clock=clock)
    moves = s.game.legal_moves()
    s.play(moves[0])
    clock.now += 30
    s.play(s.game.legal_moves()[0])
    clock.now += 12
    s.undo()
    s.save()
    record = store.latest_unfinished(CLIENT)
    assert record is not None and record.variant == "russian" and record.seed == 5
    assert record.options == {"empty_column": "any", "foundation_return": False}
    assert record.elapsed == pytest.approx(42.0)

    clock.now += 1000  # the app was closed meanwhile: that time does not count
    again = Session.resume(store, clock=clock)
    assert again is not None
    assert again.game == s.game and again.game.seed == 5 and again.game.rules == s.game.rules
    assert again.turns == s.turns and again.undone == s.undone and again.autoplay is False
    assert again.elapsed == pytest.approx(42.0)
    clock.now += 8
    assert again.elapsed == pytest.approx(50.0)
    assert again.redo()


def test_win_is_recorded_once_with_moves_and_time(store: Store, clock: FakeClock) -> None:
    s = Session(Game.from_text(NEARLY_WON), store, clock=clock)
    clock.now += 5
    s.play(s.game.parse_move("1:KH>F"))
    clock.now += 100
    assert s.elapsed == pytest.approx(0.0)  # the clock started at the first move and stopped at the win
    s.undo()
    s.redo()
    [row] = store.stats()
    assert (row.played, row.won, row.fewest_moves, row.best_time) == (1, 1, 4, 0.0)
    assert store.latest_unfinished(CLIENT) is None


def test_dead_end_is_recorded_lost_when_left(store: Store) -> None:
    s = Session(Game.from_text(ONE_FROM_LOST), store, autoplay=False)
    assert [str(m) for m in s.game.legal_moves()] == ["5:TC>F"]
    s.play(s.game.legal_moves()[0])
    assert s.status == "lost" and s.result is None  # undo is still possible, as in the web game
    assert s.undo() and s.status == "playing"
    assert s.redo() and s.status == "lost"
    s.abandon()
    assert s.result == "lost"
    [row] = store.stats()
    assert (row.played, row.won) == (1, 0)


def test_idle_time_is_capped(store: Store, clock: FakeClock) -> None:
    s = Session(Game.deal("yukon", seed=42), store, autoplay=False, clock=clock)
    s.play(s.game.parse_move("6:8D>5"))
    clock.now += 10
    s.play(s.game.parse_move("2:AS+1>1"))
    clock.now += 3 * 3600  # a night away from the keyboard
    assert s.elapsed == pytest.approx(10 + IDLE_CAP)
    s.undo()
    clock.now += 5
    assert s.elapsed == pytest.approx(15 + IDLE_CAP)


def test_abandoned_game_counts_as_played(store: Store) -> None:
    s = Session(Game.deal("yukon", seed=42), store)
    s.play(s.game.parse_move("6:8D>5"))
    s.abandon()
    [row] = store.stats()
    assert (row.played, row.won, row.current_streak) == (1, 0, 0)
    assert store.latest_unfinished(CLIENT) is None


def test_a_broken_saved_game_is_set_aside(store: Store) -> None:
    store.create_game("bad", "yukon", {"empty_column": "kings", "foundation_return": False}, 1,
                      {"variant": "nonsense"}, CLIENT)
    store.update_game("bad", ["1:KS>F"], [], 1.0)
    assert Session.resume(store) is None
    assert store.load_game("bad").result == "abandoned"  # type: ignore[union-attr]


def test_describe_move() -> None:
    g = Game.deal("yukon", seed=42)
    # the web table's wording (yukon.session.describe_move), with the cards as the terminal draws them
    assert describe_move(g, g.parse_move("2:AS+1>1")) == "A♠ and 1 card on it from column 2 to column 1"
    assert describe_move(g, g.parse_move("4:AH>F")) == "A♥ from column 4 to its foundation"


def test_a_store_that_fails_does_not_stop_the_game(tmp_path: Path) -> None:
    store = Store(tmp_path / "y.sqlite3")
    s = Session(Game.deal("yukon", seed=42), store, autoplay=False)
    store.close()  # every later write fails
    s.play(s.game.parse_move("6:8D>5"))
    assert s.move_count == 1 and s.store_error and "could not save" in s.store_error
