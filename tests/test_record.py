"""Game records (yukon.record, docs/records.md): round trips, and every bad record rejected with its reason."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_helpers import make, play_randomly
from yukon import Game, YukonError
from yukon.cards import NAME
from yukon.record import MAX_RECORD_BYTES, DealNumber, GameRecord, InvalidRecordError, RecordMoveError

VARIANTS = ("yukon", "russian", "alaska", "australian", "milligan-yukon")


def playout(variant: str, seed: int, choices: int, length: int, **options: Any) -> Game:
    """A deal with up to ``length`` moves chosen by ``random.Random(choices)``."""
    return play_randomly(Game.deal(variant, seed=seed, **options), random.Random(choices), length)


def long_record() -> dict[str, Any]:
    """A record of 30 moves of Yukon deal 7, as JSON data."""
    game = playout("yukon", 7, 1, 30)
    assert len(game.move_stack) == 30
    return GameRecord.from_game(game).to_dict()


@settings(max_examples=25, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**64 - 1),
    choices=st.integers(0, 2**32),
    length=st.integers(0, 60),
    empty=st.sampled_from(("kings", "any")),
    ret=st.booleans(),
    time=st.none() | st.floats(0, 1e6, allow_nan=False),
    date=st.none() | st.datetimes().map(lambda d: d.isoformat()),
)
def test_round_trip(variant: str, seed: int, choices: int, length: int, empty: str, ret: bool,
                    time: float | None, date: str | None) -> None:
    game = playout(variant, seed, choices, length, empty_column=empty, foundation_return=ret)
    result = "won" if game.is_won() else "lost" if game.is_lost() else None
    record = GameRecord.from_game(game, time=time, date=date, result=result)
    text = record.to_json()
    again = GameRecord.from_json(text)
    assert again == record
    assert again.to_json() == text
    assert again.game() == game and again.game().move_stack == game.move_stack
    assert again.deal == DealNumber(seed, "yukon")
    positions = list(again.positions())
    assert len(positions) == len(game.move_stack) + 1
    assert positions[0] == Game.deal(variant, seed=seed, empty_column=empty, foundation_return=ret)
    assert positions[-1] == game


def test_file_round_trip_and_metadata(tmp_path: Path) -> None:
    game = playout("australian", 11, 3, 40)
    record = GameRecord.from_game(game, date="2026-12-01T09:30:00Z", time=95.25, extra={"client": "web"})
    path = tmp_path / "game.json"
    record.write(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "yukon-game" and data["version"] == 1
    assert data["title"] == "Australian Patience"
    assert data["deal"] == {"number": 11, "numbering": "yukon"}
    assert data["start"] == Game.deal("australian", seed=11).to_dict()
    assert data["moves"] == [str(m) for m in game.move_stack]
    assert data["client"] == "web"  # unknown keys are kept
    assert GameRecord.read(path) == record


def test_a_record_from_any_position_has_no_deal() -> None:
    game = make("yukon", ["KS", "QS"], ["JS", "KH", "KD", "KC"])
    game.push_text("2:QS>F")
    record = GameRecord.from_game(game, result=None)
    assert record.deal is None and "deal" not in record.to_dict()
    assert GameRecord.from_json(record.to_json()).game() == game


def test_short_move_forms_are_read_and_written_in_full() -> None:
    data = GameRecord.from_game(Game.deal("yukon", seed=3)).to_dict()
    game = Game.deal("yukon", seed=3)
    move = next(m for m in game.legal_moves() if m.dst < 16)
    short = f"{NAME[move.card]}>{move.dst + 1}"  # no column, no count: the position completes it
    data["moves"] = [short]
    record = GameRecord.from_dict(data)
    assert record.moves == (move,) and record.to_dict()["moves"] == [str(move)]


def test_pysolfc_numbering_is_kept() -> None:
    game = Game.deal("russian", seed=123456, numbering="pysolfc")
    record = GameRecord.from_json(GameRecord.from_game(game).to_json())
    assert record.deal == DealNumber(123456, "pysolfc")
    assert record.game().numbering == "pysolfc" and record.game().seed == 123456


# ---------------------------------------------------------------------- bad records


def _huge(value: int | str | list[Any]) -> bool:
    """A test value whose id would be unreadable (or, for an int of 5,000 digits, raise)."""
    return value.bit_length() > 64 if isinstance(value, int) else len(value) > 1 and len(str(value)) > 100


def rejected(data: Any, *words: str) -> InvalidRecordError:
    with pytest.raises(InvalidRecordError) as info:
        if isinstance(data, (str, bytes)):
            GameRecord.from_json(data)
        else:
            GameRecord.from_dict(data)
    message = str(info.value)
    for word in words:
        assert word in message, message
    assert len(message) < 400, message[:400]
    assert isinstance(info.value, YukonError) and isinstance(info.value, ValueError)
    return info.value


@pytest.mark.parametrize("text", ["", "{", "not json", '{"format": "yukon-game",}', b"\xff\xfe{"])
def test_bad_json(text: str | bytes) -> None:
    rejected(text, "JSON")


@pytest.mark.parametrize("data, words", [
    ([], ("JSON object", "list")),
    ({"version": 1}, ("not a yukon game record", "it has no \"format\"", "{\"format\": \"yukon-game\"")),
    ({"format": "pysol-game", "version": 1}, ("not a yukon game record", "pysol-game")),
    (Game.deal("yukon", seed=3).to_dict(), ("this is a position", "not a game record", "'start'")),  # (it said
])                                                                                                 # no "format")
def test_unknown_format(data: Any, words: tuple[str, ...]) -> None:
    rejected(data, *words)


@pytest.mark.parametrize("version, words", [
    (2, ("version 2", "newer", "only version 1")),
    (0, ("version 0", "only version 1")),
    ("1", ("must be an integer", "'1'")),
    (True, ("must be an integer",)),
    (None, ("must be an integer",)),
])
def test_unknown_version(version: Any, words: tuple[str, ...]) -> None:
    data = long_record()
    data["version"] = version
    rejected(data, *words)


def test_an_illegal_move_at_17_is_named() -> None:
    data = long_record()
    game = Game.deal("yukon", seed=7)
    game.replay(data["moves"][:16])
    legal = {str(m) for m in game.legal_moves()}
    bad = next(str(m) for m in Game.deal("yukon", seed=8).legal_moves() if str(m) not in legal)
    data["moves"][16] = bad
    error = rejected(data, "move 17", repr(bad))
    assert isinstance(error, RecordMoveError)
    assert error.number == 17 and error.text == bad and "illegal" in error.reason


@pytest.mark.parametrize("move, words", [
    ("2:7H>>5", ("move 17", "'2:7H>>5'")),
    (42, ("move 17", "42", "a move is a text")),
    ("", ("move 17",)),
])
def test_a_move_that_is_not_a_move_is_named(move: Any, words: tuple[str, ...]) -> None:
    data = long_record()
    data["moves"][16] = move
    assert isinstance(rejected(data, *words), RecordMoveError)


def test_only_the_first_bad_move_is_named() -> None:
    data = long_record()
    data["moves"][20] = "9:KS>F"
    data["moves"][25] = "9:KS>F"
    assert rejected(data, "move 21").number == 21  # type: ignore[attr-defined]


@pytest.mark.parametrize("start, words", [
    (None, ("start position is bad",)),
    ({"variant": "klondike", "tableau": [], "foundations": []}, ("start position is bad", "klondike")),
    ("yukon", ("start position is bad",)),
])
def test_a_bad_start(start: Any, words: tuple[str, ...]) -> None:
    data = long_record()
    data["start"] = start
    rejected(data, *words)


def test_a_start_missing_a_card() -> None:
    data = long_record()
    data["start"]["tableau"][6]["up"].pop()
    data.pop("deal")
    rejected(data, "start position is bad", "missing")


def test_no_start() -> None:
    data = long_record()
    del data["start"]
    rejected(data, "no 'start'")


@pytest.mark.parametrize("key, value, words", [
    ("moves", "2:7H>5", ("'moves' must be a list",)),
    ("deal", {"number": 8, "numbering": "yukon"}, ("not deal 8",)),
    ("deal", {"number": -1}, ("deal number",)),
    ("deal", {"number": 7, "numbering": "microsoft"}, ("numbering", "microsoft")),
    ("deal", 7, ("'deal' must be an object",)),
    ("title", "Russian Solitaire", ("title", "Russian Solitaire", "Yukon")),
    ("date", "yesterday", ("date", "yesterday")),
    ("date", 20261201, ("date",)),
    ("time", -3, ("time", "-3")),
    ("time", "12s", ("time",)),
    ("result", "draw", ("result", "draw")),
    ("result", "won", ("says 'won'", "not won")),
    ("time", 10**5000, ("time", "bits")),
    ("time", 10**400, ("time",)),
    ("version", 10**5000, ("version", "bits", "newer")),
    ("result", "x" * 1_000_000, ("result", "xxx...xxx")),
    ("moves", ["1:AS>F" * 100_000], ("move 1", "...")),
], ids=lambda value: "huge" if isinstance(value, (int, str, list)) and _huge(value) else None)
def test_bad_metadata(key: str, value: Any, words: tuple[str, ...]) -> None:
    data = long_record()
    data[key] = value
    rejected(data, *words)


def test_result_must_match_the_end() -> None:
    won = make("yukon", ["KS", "QS"], ["JS", "KH", "KD", "KC"])
    won.replay(["2:QS>F", "1:KS>F"])
    data = GameRecord.from_game(won, result="won").to_dict()
    assert GameRecord.from_dict(data).result == "won"
    data["result"] = "abandoned"
    rejected(data, "says 'abandoned'", "won")
    data["result"] = "lost"
    rejected(data, "says 'lost'")
    data = long_record()
    data["result"] = "lost"
    rejected(data, "says 'lost'", "moves are left")


def test_read_errors(tmp_path: Path) -> None:
    with pytest.raises(InvalidRecordError, match="cannot read"):
        GameRecord.read(tmp_path / "nothing.json")
    path = tmp_path / "bad.json"
    path.write_text("[1, 2", encoding="utf-8")
    with pytest.raises(InvalidRecordError, match="JSON"):
        GameRecord.read(path)
    path.write_bytes(b" " * (MAX_RECORD_BYTES + 1))  # (it was read whole: /dev/zero never ended)
    with pytest.raises(InvalidRecordError, match=r"bad\.json' is longer than 16,000,000 bytes"):
        GameRecord.read(path)
    with pytest.raises(InvalidRecordError, match="standard input is longer than"):
        GameRecord.read_stdin(b" " * (MAX_RECORD_BYTES + 1))


def test_a_number_of_thousands_of_digits_in_the_json_is_named() -> None:
    """Python's json reads no int of over 4,300 digits: it raised a plain ValueError, not a YukonError."""
    text = json.dumps(long_record()).replace('"version": 1', '"version": 1' + "0" * 5000)
    rejected(text, "too many digits")


def test_replay_bounds() -> None:
    record = GameRecord.from_dict(long_record())
    assert record.game(0) == record.start and record.game(0) is not record.start
    assert len(record.game(10).move_stack) == 10
    with pytest.raises(IndexError):
        record.game(31)
    record.game().pop()
    assert len(record.game().move_stack) == 30  # the record itself is not changed
