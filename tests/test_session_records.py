"""The play session and game records: export (PlaySession.to_record) and the deal numbering kept in the store."""

from __future__ import annotations

from engine_helpers import make
from yukon import Game
from yukon.record import DealNumber, GameRecord
from yukon.session import PlaySession
from yukon.store import Store


def test_export_round_trips_and_replays() -> None:
    store = Store(":memory:")
    session = PlaySession(Game.deal("yukon", seed=9), store, client="test")
    for _ in range(5):
        session.play(str(session.game.legal_moves()[0]))
    record = GameRecord.from_json(session.to_record(date="2026-12-01T10:00:00+00:00").to_json())
    assert record.deal == DealNumber(9, "yukon") and record.date == "2026-12-01T10:00:00+00:00"
    assert record.start == Game.deal("yukon", seed=9)
    assert record.game() == session.game and list(record.moves) == session.moves
    assert record.result is None and record.time is not None and record.time >= 0


def test_a_won_game_exports_won_and_an_undone_win_without_result() -> None:
    session = PlaySession(make("yukon", ["KS", "QS"], ["JS", "KH", "KD", "KC"]), None, client="test",
                          lock_when_over=False)
    session.play("2:QS>F")
    session.play("1:KS>F")
    assert session.result == "won" and session.to_record().result == "won"
    session.undo()
    assert session.result == "won" and session.to_record().result is None  # the moves no longer end won


def test_the_numbering_survives_the_store() -> None:
    store = Store(":memory:")
    game = Game.deal("russian", seed=123456, numbering="pysolfc")
    session = PlaySession(game, store, client="test", write_at="deal")
    session.play(str(session.game.legal_moves()[0]))
    saved = store.load_game(session.id)
    assert saved is not None and saved.seed == 123456 and saved.extra["numbering"] == "pysolfc"
    again = PlaySession.from_record(saved, store)
    assert again.start.numbering == "pysolfc" and again.game == session.game
    assert again.to_record().deal == DealNumber(123456, "pysolfc")
    yukon = PlaySession(Game.deal("yukon", seed=4), store, client="test", write_at="deal")
    assert "numbering" not in store.load_game(yukon.id).extra  # type: ignore[union-attr]


def test_import_continues_the_game_with_undo_through_its_moves() -> None:
    played = Game.deal("yukon", seed=9)
    for _ in range(4):
        played.push(played.legal_moves()[0])
    record = GameRecord.from_game(played, time=42.0)
    store = Store(":memory:")
    session = PlaySession.from_game_record(record, store, client="test", write_at="deal")
    assert session.game == played and session.moves == played.move_stack and session.turns == [1, 1, 1, 1]
    assert session.start == Game.deal("yukon", seed=9) and session.seed == 9
    assert session.elapsed == 42.0
    saved = store.load_game(session.id)
    assert saved is not None and saved.moves == [str(m) for m in played.move_stack] and saved.extra["imported"]
    session.undo()
    assert len(session.moves) == 3 and session.to_record().moves == record.moves[:3]


def test_import_of_a_won_game_records_the_win() -> None:
    game = make("yukon", ["KS", "QS"], ["JS", "KH", "KD", "KC"])
    game.replay(["2:QS>F", "1:KS>F"])
    session = PlaySession.from_game_record(GameRecord.from_game(game, result="won"), Store(":memory:"),
                                           client="test")
    assert session.result == "won" and session.to_record().result == "won"
