"""The shared play session (yukon.session): turns, undo/redo, the clock, results, saving and resuming."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from engine_helpers import move_that_triggers_autoplay
from fake_clock import FakeClock
from yukon import Game, IllegalMoveError, InvalidMoveError
from yukon.session import IDLE_CAP, GameOverError, NothingToDoError, PlaySession
from yukon.store import Store

#: One move from a win: KH (on QC) goes up, then QC, KC and KD are safe and follow.
NEARLY_WON = "yukon,kings,noreturn QCKH/KD/KC/-/-/-/- KS/QH/QD/JC"
#: Every card face up and in order: the auto-finish wins it.
CERTAIN_WIN = "yukon,kings,noreturn KHQC/KD/KC/-/-/-/- KS/QH/QD/JC"
#: One move (10♣ up) from lost: then only the four Queens are face up, with nothing to go on.
ONE_FROM_LOST = "yukon,kings,noreturn JSKH.QS/JHKS.QH/JDKC.QD/JCKD.QC/TC/-/- TS/TH/TD/9C"
#: Three plain moves of deal 42 of Yukon (no automatic play follows them).
SEED = 42
A, B, C = "6:8D>5", "2:AS+1>1", "4:AH>F"


def session(game: Game | str, store: Store | None = None, **options: Any) -> PlaySession:
    if isinstance(game, str):
        game = Game.from_text(game)
    options.setdefault("client", "test")
    return PlaySession(game, store, **options)


def deal() -> Game:
    return Game.deal("yukon", seed=SEED)


def texts(moves: list[Any]) -> list[str]:
    return [str(m) for m in moves]


# ---------------------------------------------------------------------- turns, undo, redo


def test_a_turn_is_the_move_and_its_automatic_plays() -> None:
    game, move = move_that_triggers_autoplay()
    s = session(game, autoplay=True)
    played = s.play(move)
    assert str(played[0]) == move and len(played) > 1 and s.turns == [len(played)]
    undone = s.undo()
    assert undone == list(reversed(played)) and s.move_count == 0 and s.game == game
    assert s.redo_moves == played and s.redo_sizes == [len(played)]
    assert s.redo() == played and s.turns == [len(played)] and not s.can_redo


def test_automatic_plays_follow_the_options_of_the_call() -> None:
    game, move = move_that_triggers_autoplay()
    s = session(game, autoplay=True)
    assert texts(s.play(move, autoplay=False)) == [move] and s.turns == [1]
    auto = s.play_auto()
    assert auto and s.turns == [1, len(auto)]
    assert session(CERTAIN_WIN).play("1:QC>F") == [Game.from_text(CERTAIN_WIN).parse_move("1:QC>F")]
    s = session(CERTAIN_WIN)
    assert len(s.play("1:QC>F", autofinish=True)) == 4 and s.status == "won"


def test_finish_plays_a_certain_win_as_one_turn() -> None:
    s = session(CERTAIN_WIN)
    s.play("1:QC>F")
    assert s.game.cards_on_foundations == 49 and s.result is None
    assert len(s.finish()) == 3 and s.status == "won" and s.result == "won" and s.turns == [1, 3]
    assert session(deal()).finish() == []


def test_bad_moves_change_nothing() -> None:
    s = session(deal())
    before = s.game.to_dict()
    with pytest.raises(IllegalMoveError):
        s.play("1:KS>5")
    with pytest.raises(InvalidMoveError):
        s.play("zz")
    assert s.game.to_dict() == before and s.turns == [] and not s.clock_running


def test_undo_redo_restart() -> None:
    s = session(deal())
    for m in (A, B):
        s.play(m)
    end = s.game.to_dict()
    assert texts(s.undo()) == [B] and texts(s.redo_moves) == [B]
    assert texts(s.undo()) == [A] and texts(s.redo_moves) == [A, B]
    with pytest.raises(NothingToDoError, match="nothing to undo"):
        s.undo()
    with pytest.raises(NothingToDoError, match="nothing to restart"):
        s.restart()
    assert texts(s.redo()) == [A] and texts(s.redo()) == [B] and s.game.to_dict() == end
    with pytest.raises(NothingToDoError, match="nothing to redo"):
        s.redo()
    assert texts(s.restart()) == [B, A] and s.move_count == 0 and s.redo_sizes == [1, 1]
    s.redo()
    s.redo()
    assert s.game.to_dict() == end


def test_a_new_turn_clears_the_redo_list_unless_it_is_the_next_redo() -> None:
    s = session(deal())
    s.play(A)
    s.play(B)
    s.undo()
    s.undo()
    s.play(A)  # the same as redoing it: B stays to redo
    assert texts(s.redo_moves) == [B]
    s.undo()
    s.play(C)
    assert s.redo_moves == [] and not s.can_redo


def test_undo_to_a_move_count_splits_a_turn(clock: FakeClock) -> None:
    game, move = move_that_triggers_autoplay()
    s = session(game, autoplay=True, clock=clock)
    played = s.play(move)
    n = len(played)
    assert s.undo(to=1) == list(reversed(played[1:])) and s.turns == [1] and s.redo_sizes == [n - 1]
    with pytest.raises(ValueError, match="between 0 and 1"):
        s.undo(to=5)
    with pytest.raises(NothingToDoError):
        s.undo(to=1)
    assert s.redo() == played[1:] and s.turns == [1, n - 1]


# ---------------------------------------------------------------------- the deal's automatic plays


def test_the_deals_automatic_plays_are_the_deals_not_a_turn(store: Store) -> None:
    # deal 42 has A♥ face up in column 4: it goes straight up with the deal, and is no move of the player's
    s = session(deal(), store, autoplay=True, write_at="deal")
    assert texts(s.play_opening()) == [C] and s.dealt == 1
    assert (s.move_count, s.moves_made, s.turns, s.can_undo, s.player_moved) == (1, 0, [], False, False)
    with pytest.raises(NothingToDoError):
        s.undo()
    with pytest.raises(NothingToDoError):
        s.restart()
    with pytest.raises(ValueError, match=r"between 1 \(the deal's automatic plays\) and 1"):
        s.undo(to=0)
    assert s.play_opening() == []  # once: the game has its line now
    s.play(A, autoplay=False)
    s.play(B, autoplay=False)
    assert s.moves_made == 2 and texts(s.restart()) == [B, A] and texts(s.moves) == [C]
    record = store.load_game(s.id)
    assert record is not None and record.extra["dealt"] == 1 and record.moves == [C]
    again = PlaySession.from_record(record, store)  # resumed: still the deal's
    assert (again.dealt, again.moves_made, again.can_undo, again.redo_sizes) == (1, 0, False, [1, 1])
    assert texts(again.redo()) == [A] and again.moves_made == 1


def test_the_statistics_count_the_moves_the_table_counts(store: Store) -> None:
    # the terminal's win box said 116 moves and its statistics 117: the store counted the deal's Ace as a move
    s = session(deal(), store, autoplay=True, write_at="deal")
    s.play_opening()
    s.play(A, autoplay=False)
    assert s.abandon() == "abandoned"
    [(count,)] = store._db.execute("SELECT move_count FROM games WHERE id=?", (s.id,)).fetchall()
    assert count == s.moves_made == 1


def test_no_automatic_plays_at_the_deal_when_they_are_off_or_none_is_safe() -> None:
    s = session(deal(), autoplay=False)
    assert s.play_opening() == [] and (s.dealt, s.move_count) == (0, 0)
    none = session(Game.deal("yukon", seed=1), autoplay=True)  # (no Ace is dealt face up)
    assert none.play_opening() == [] and none.dealt == 0 and not none.can_undo


@pytest.mark.parametrize("dealt", [-1, 5, "1", 1.0, True])
def test_a_damaged_count_of_the_deals_plays_makes_every_move_the_players(store: Store, dealt: object) -> None:
    s = session(deal(), store, autoplay=True, write_at="deal")
    s.play_opening()
    s.play(A, autoplay=False)
    record = store.load_game(s.id)
    assert record is not None
    record.extra["dealt"] = dealt
    again = PlaySession.from_record(record, store)
    assert (again.dealt, again.turns) == (0, [1, 1])  # the ace is undoable: as records before the count


# ---------------------------------------------------------------------- clock


def test_clock_starts_at_the_first_move_and_caps_idle_time(clock: FakeClock) -> None:
    s = session(deal(), clock=clock)
    clock.now += 50  # looking at the deal does not count
    assert s.elapsed == 0.0 and not s.clock_running
    s.play(A)
    clock.now += 10
    s.play(B)
    clock.now += 3 * 3600  # a night away
    assert s.elapsed == pytest.approx(10 + IDLE_CAP)
    s.undo()
    clock.now += 5
    assert s.elapsed == pytest.approx(15 + IDLE_CAP)


def test_clock_pauses_and_stops_at_the_win(clock: FakeClock) -> None:
    s = session(NEARLY_WON, autoplay=True, clock=clock)
    s.start_clock()  # the deal of a game nobody touched: no move yet, but a caller may start it
    clock.now += 4
    s.stop_clock()
    clock.now += 100
    assert s.elapsed == pytest.approx(4.0)
    s.play("1:KH>F")
    clock.now += 100
    assert s.status == "won" and not s.clock_running and s.elapsed == pytest.approx(4.0)
    s.start_clock()
    assert not s.clock_running  # a finished game's clock stays stopped


# ---------------------------------------------------------------------- results


def test_a_win_is_recorded_at_once_and_the_game_locks(store: Store, clock: FakeClock) -> None:
    s = session(NEARLY_WON, store, autoplay=True, clock=clock)
    clock.now += 5
    s.play("1:KH>F")
    assert (s.status, s.result) == ("won", "won")
    record = store.load_game(s.id)
    assert record is not None and record.result == "won" and record.client == "test"
    [row] = store.stats()
    assert (row.played, row.won, row.fewest_moves, row.best_time) == (1, 1, 4, 0.0)
    assert not s.can_undo and not s.can_redo
    for change in (s.undo, s.redo, s.restart, s.play_auto, lambda: s.play("deal")):
        with pytest.raises(GameOverError, match="over"):
            change()
    assert s.abandon() is None and store.stats() == [row]


def test_without_lock_a_won_game_can_be_undone_and_stays_won(store: Store) -> None:
    s = session(NEARLY_WON, store, autoplay=True, lock_when_over=False)
    s.play("1:KH>F")
    assert s.can_undo and s.undo() and s.status == "playing" and s.result == "won"
    assert s.redo() and s.status == "won"
    [row] = store.stats()
    assert (row.played, row.won) == (1, 1)


def test_leaving_a_dead_end_records_lost(store: Store) -> None:
    s = session(ONE_FROM_LOST, store)
    s.play("5:TC>F")
    assert s.status == "lost" and s.result is None and s.can_undo  # undo stays possible at a dead end
    assert s.undo() and s.status == "playing" and s.redo() and s.status == "lost"
    assert s.abandon() == "lost" and s.result == "lost"
    assert store.load_game(s.id).result == "lost"  # type: ignore[union-attr]
    [row] = store.stats()
    assert (row.played, row.won) == (1, 0)


@pytest.mark.parametrize("undo_all", [False, True])
def test_leaving_after_a_move_records_abandoned(store: Store, undo_all: bool) -> None:
    s = session(deal(), store)
    s.play(A)
    if undo_all:
        s.restart()  # nothing on the table, but a move to redo: still a game in progress
    assert s.in_progress and s.abandon() == "abandoned" and s.status == "abandoned"
    [row] = store.stats()
    assert (row.played, row.won, row.current_streak) == (1, 0, 0)
    assert store.latest_unfinished("test") is None


# ---------------------------------------------------------------------- when a game is written


def test_written_at_the_deal_and_forgotten_when_left_untouched(store: Store) -> None:
    s = session(deal(), store, write_at="deal", extra={"deal_note": "chosen"})
    record = store.latest_unfinished("test")
    assert record is not None and record.id == s.id and s.stored
    assert (record.seed, record.moves, record.extra) == (SEED, [], {"deal_note": "chosen", "groups": [],
                                                                    "redo_groups": [], "player_moved": False,
                                                                    "dealt": 0})
    assert record.start == deal().to_dict()
    assert s.abandon() is None and not s.stored
    assert store.load_game(s.id) is None and store.stats() == []


def test_written_at_the_first_move(store: Store) -> None:
    s = session(deal(), store, write_at="first_move", game_id="g1")
    s.save()
    assert store.load_game("g1") is None and not s.stored
    assert s.abandon() is None and store.stats() == []
    s.play(A)
    record = store.load_game("g1")
    assert record is not None and record.moves == [A] and record.client == "test"


@pytest.mark.parametrize("write_at", ["deal", "first_move"])
def test_every_change_is_saved(store: Store, write_at: Any) -> None:
    s = session(deal(), store, write_at=write_at)
    s.play(A)
    s.play(B)
    s.undo()

    def saved() -> tuple[list[str], list[str]]:
        record = store.load_game(s.id)
        assert record is not None
        return record.moves, record.redo

    assert saved() == ([A], [B])
    s.restart()
    assert saved() == ([], [A, B])
    s.redo()
    assert saved() == ([A], [B])


# ---------------------------------------------------------------------- save and resume


def test_save_and_resume_with_turns_redo_clock_and_notes(store: Store, clock: FakeClock) -> None:
    game, move = move_that_triggers_autoplay()
    s = session(game, store, autoplay=True, clock=clock, extra={"autoplay": True})
    first = s.play(move)
    clock.now += 30
    s.play(s.game.legal_moves()[0], autoplay=False)
    clock.now += 12
    s.undo()
    s.save()
    record = store.load_game(s.id)
    assert record is not None and record.elapsed == pytest.approx(42.0)
    assert record.extra == {"autoplay": True, "groups": [len(first)], "redo_groups": [1], "player_moved": True,
                            "dealt": 0}
    assert record.moves == texts(first)

    clock.now += 1000  # closed meanwhile: that time does not count
    again = PlaySession.from_record(record, store, clock=clock)
    assert again.client == "test" and again.id == s.id and again.stored and again.result is None
    assert again.game == s.game and again.start == game and again.seed == game.seed
    assert again.turns == s.turns and again.undone == s.undone and again.extra == {"autoplay": True}
    assert again.elapsed == pytest.approx(42.0) and not again.clock_running
    again.start_clock()
    clock.now += 8
    assert again.elapsed == pytest.approx(50.0)
    assert again.redo() == s.undone[0]
    assert again.undo() and again.undo() == list(reversed(first)) and again.move_count == 0


def test_a_record_of_another_client_resumes_one_move_per_turn(store: Store) -> None:
    start = deal().to_dict()
    store.create_game("other", "yukon", {"empty_column": "kings", "foundation_return": False}, SEED, start, "x")
    store.update_game("other", [A, B], [C], 7.0, {"groups": [5]})  # sizes that do not fit the moves
    s = PlaySession.from_record(store.load_game("other"), store)  # type: ignore[arg-type]
    assert s.turns == [1, 1] and s.redo_sizes == [1] and s.client == "x"
    assert texts(s.undo()) == [B] and texts(s.redo_moves) == [B, C]


def test_a_stale_redo_list_is_dropped_where_it_no_longer_fits(store: Store) -> None:
    start = deal().to_dict()
    store.create_game("g", "yukon", {"empty_column": "kings", "foundation_return": False}, SEED, start, "test")
    store.update_game("g", [A], [B, "1:KS>5"], 3.0, {"groups": [1], "redo_groups": [1, 1]})
    s = PlaySession.from_record(store.load_game("g"), store)  # type: ignore[arg-type]
    assert texts(s.redo_moves) == [B]


def test_a_finished_record_resumes_finished(store: Store) -> None:
    s = session(NEARLY_WON, store, autoplay=True)
    s.play("1:KH>F")
    again = PlaySession.from_record(store.load_game(s.id), store)  # type: ignore[arg-type]
    assert again.result == "won" and again.locked and not again.can_undo


# ---------------------------------------------------------------------- a store that fails


def test_store_errors_are_raised_or_noted(tmp_path: Path) -> None:
    store = Store(tmp_path / "y.sqlite3")
    strict = session(deal(), store)
    tolerant = session(deal(), store, tolerate_store_errors=True)
    store.close()  # every later write fails
    with pytest.raises(sqlite3.Error, match="closed"):
        strict.play(A)
    tolerant.play(A)
    assert tolerant.move_count == 1 and tolerant.store_error and "could not save" in tolerant.store_error
    assert not tolerant.stored


# ---------------------------------------------------------------------- the two games' choices


def test_the_web_game_writes_at_the_deal_and_forgets_an_untouched_game(store: Store) -> None:
    from yukon.web.session import CLIENT, Registry

    reg = Registry(store)
    fresh = reg.new_game("yukon", {}, seed=SEED)
    assert store.latest_unfinished(CLIENT).id == fresh.id  # type: ignore[union-attr]
    reg.abandon(fresh)
    assert store.load_game(fresh.id) is None and reg.get(fresh.id) is None and store.stats() == []
    played = reg.new_game("yukon", {}, seed=SEED)
    played.play(A)
    reg.abandon(played)
    assert reg.get(played.id) is played and played.status == "abandoned" and store.stats()[0].played == 1


def test_the_terminal_game_writes_at_the_first_move(store: Store) -> None:
    from yukon.tui.session import CLIENT, Session

    s = Session(deal(), store, autoplay=False)
    s.save()
    assert store.latest_unfinished(CLIENT) is None
    s.play(s.game.parse_move(A))
    record = store.latest_unfinished(CLIENT)
    assert record is not None and record.moves == [A] and record.extra["autoplay"] is False


# ---------------------------------------------------------------------- the player's own moves


@pytest.mark.parametrize("write_at", ["deal", "first_move"])
def test_the_automatic_plays_at_the_deal_are_not_the_players(store: Store, clock: FakeClock, write_at: str) -> None:
    game = Game.deal("australian", seed=7)  # AH and AS play themselves at the deal
    s = session(game, store, autoplay=True, clock=clock, write_at=write_at)
    assert len(s.play_auto()) >= 2 and not s.player_moved and not s.in_progress
    clock.now += 30
    assert not s.clock_running and s.elapsed == 0  # the clock waits for the player's first move
    if write_at == "deal":  # written at the deal, it remembers the player has not moved yet
        record = store.load_game(s.id)
        assert record is not None and record.extra["player_moved"] is False
        assert not PlaySession.from_record(record, store).player_moved
    else:
        assert store.load_game(s.id) is None  # a deal only played automatically costs nothing
    assert s.abandon() is None and store.load_game(s.id) is None and store.stats() == []


@pytest.mark.parametrize("action", ["play", "undo"])
def test_the_first_own_action_makes_the_game_count(store: Store, clock: FakeClock, action: str) -> None:
    s = session(Game.deal("australian", seed=7), store, autoplay=True, clock=clock, write_at="deal")
    s.play_auto()
    if action == "play":
        s.play(s.game.legal_moves()[0])
    else:
        s.undo()  # taking back the automatic plays is the player's own act too
    assert s.player_moved and s.in_progress and s.clock_running
    record = store.load_game(s.id)
    assert record is not None and PlaySession.from_record(record, store).player_moved
    assert s.abandon() == "abandoned"
    [row] = store.stats()
    assert (row.played, row.won) == (1, 0)


def test_a_record_written_before_the_flag_counts_its_moves(store: Store) -> None:
    s = session(deal(), store, write_at="deal")
    s.play(A)
    record = store.load_game(s.id)
    assert record is not None
    record.extra.pop("player_moved")
    assert PlaySession.from_record(record, store).player_moved


# ---------------------------------------------------------------------- a change is applied only if it is saved


class FlakyStore(Store):
    """A store whose writes fail while ``failing`` is set (as a locked database does)."""

    failing = False

    def _write(self, work):  # type: ignore[no-untyped-def, override]
        if self.failing:
            raise sqlite3.OperationalError("database is locked")
        return super()._write(work)


def _view(s: PlaySession) -> tuple[Any, ...]:
    return (texts(s.moves), list(s.turns), texts(s.redo_moves), s.result, s.status, s.elapsed, s.clock_running,
            s.game.to_text(), s.stored)


@pytest.mark.parametrize("change", ["play", "undo", "redo", "restart", "auto", "win", "abandon", "save"])
def test_a_change_that_cannot_be_saved_changes_nothing(tmp_path: Path, clock: FakeClock, change: str) -> None:
    store = FlakyStore(tmp_path / "f.sqlite3")
    if change == "win":
        s = session(NEARLY_WON, store, clock=clock, autoplay=True, write_at="deal")
    elif change == "auto":
        g, m = move_that_triggers_autoplay()
        s = session(g, store, clock=clock, write_at="deal")
    else:
        s = session(deal(), store, clock=clock, write_at="deal")
        s.play(A)
        s.play(B)
        s.undo()
    clock.now += 30
    before = _view(s)
    record = store.load_game(s.id)
    store.failing = True
    do = {
        "play": lambda: s.play(C), "undo": s.undo, "redo": s.redo, "restart": s.restart,
        "auto": lambda: s.play(m, autoplay=True), "win": lambda: s.play("1:KH>F"), "abandon": s.abandon,
        "save": s.save,
    }[change]
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        do()
    assert _view(s) == before
    store.failing = False
    assert store.load_game(s.id) == record
    do()  # the retry works: nothing was half applied
    assert store.load_game(s.id).moves == texts(s.moves)  # type: ignore[union-attr]
    store.close()


def test_a_game_written_at_its_first_move_is_not_half_written(tmp_path: Path) -> None:
    store = FlakyStore(tmp_path / "f.sqlite3")
    s = session(deal(), store)
    store.failing = True
    with pytest.raises(sqlite3.OperationalError):
        s.play(A)
    assert not s.stored and s.moves == [] and store.latest_unfinished() is None
    store.failing = False
    s.play(A)
    assert store.latest_unfinished().moves == [A]  # type: ignore[union-attr]
    store.close()


def test_a_deal_that_cannot_be_written_raises(tmp_path: Path) -> None:
    store = FlakyStore(tmp_path / "f.sqlite3")
    store.failing = True
    with pytest.raises(sqlite3.OperationalError):
        session(deal(), store, write_at="deal")
    store.close()


@pytest.mark.parametrize("seed", [2**63, 2**64 - 1])
def test_a_deal_number_beyond_63_bits_is_saved_and_resumed(store: Store, seed: int) -> None:
    from yukon.tui.session import Session as TerminalSession

    s = TerminalSession(Game.deal("yukon", seed=seed), store)
    first = s.game.legal_moves()[0]
    s.play(first)  # the terminal game writes at its first move
    assert s.store_error is None
    again = TerminalSession.resume(store)
    assert again is not None and again.game.seed == seed and texts(again.game.move_stack) == [str(first)]
    assert again.game.to_text() == s.game.to_text()


@pytest.mark.parametrize("damage", ["moves='[oops'", "moves='[\"1:KS>F\"]'", "start='{\"variant\": 5}'"])
def test_the_terminal_game_skips_a_damaged_saved_game_and_resumes_the_next(store: Store, damage: str) -> None:
    from yukon.tui.session import Session as TerminalSession

    good = TerminalSession(deal(), store)
    good.play(good.game.parse_move(A))
    bad = TerminalSession(Game.deal("yukon", seed=7), store)
    bad.play(bad.game.legal_moves()[0])
    store._db.execute(f"UPDATE games SET {damage}, updated=updated+100 WHERE id=?", (bad.id,))
    resumed = TerminalSession.resume(store)
    assert resumed is not None and resumed.id == good.id
    assert [gid for gid, _ in store.damaged_games()] == [bad.id]
    assert store.stats() == []  # set aside, not counted as played
    assert TerminalSession.resume(store).id == good.id  # type: ignore[union-attr]
