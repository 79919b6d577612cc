"""Game records: one game as a file to save, share, replay and analyse (docs/records.md).

A record is a JSON object: the start position (the JSON position of
docs/contract.md, so a record may start anywhere, not only at a deal), the
moves in notation, and optional metadata::

    {"format": "yukon-game", "version": 1, "start": {...}, "moves": ["2:7H+2>5", ...],
     "title": "Yukon", "deal": {"number": 42, "numbering": "yukon"},
     "date": "2026-12-01T09:30:00+00:00", "result": "lost", "time": 312.5}

Loading checks everything, every move included, and loads nothing from a bad
record: :class:`InvalidRecordError` says what is wrong, and for a move
:class:`RecordMoveError` names the first bad one (its number, from 1, and text).

>>> from yukon import Game
>>> game = Game.deal("yukon", seed=42)
>>> game.push(game.legal_moves()[0])
>>> record = GameRecord.from_game(game)
>>> again = GameRecord.from_json(record.to_json())
>>> again == record, len(again.moves), again.deal
(True, 1, DealNumber(number=42, numbering='yukon'))
>>> again.game() == game
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from .errors import YukonError, shown
from .game import Game
from .notation import Move
from .pysolfc import NUMBERINGS

FORMAT = "yukon-game"
VERSION = 1
#: What a record may say of how the game ended (as the saved games of :mod:`yukon.store` do).
RESULTS = ("won", "lost", "abandoned")
#: the longest record file read: a game of 10,000 moves is about 100 KB
MAX_RECORD_BYTES = 16_000_000
#: the longest game time a record may say, in seconds (a century: beyond it a clock was wrong)
MAX_TIME = 100 * 365.25 * 24 * 3600
#: The keys of version 1; any other key is kept as it is (``extra``) for the programs that wrote it.
KEYS = ("format", "version", "start", "moves", "title", "deal", "date", "result", "time")


class InvalidRecordError(YukonError):
    """A game record that cannot be read: not JSON, another format or version, a bad start or metadata."""


def _parse_json(text: str | bytes, where: str) -> Any:
    """The JSON value of a record's text, or an :class:`InvalidRecordError` that says what is wrong with it
    (``where``: what the text is, e.g. the file's name). It said "a game record is JSON, and this is not:
    Expecting value: line 1 column 1 (char 0)" for an empty file, a file cut short and a position alike, and
    a deeply nested file was a RecursionError."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode(json.detect_encoding(text))  # (as json.loads reads bytes: UTF-8, -16, -32)
        except UnicodeDecodeError:
            raise InvalidRecordError(f"{where} is not JSON: it is not UTF-8 text") from None
    if not text.strip():
        raise InvalidRecordError(f"{where} is empty (no JSON in it)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.pos >= len(exc.doc.rstrip()):
            raise InvalidRecordError(f"{where} ends early (its JSON stops at line {exc.lineno}, column {exc.colno}): "
                                     "is the file cut short?") from None
        if _is_one_line_position(text):
            raise InvalidRecordError(f"{where} is the one-line form of a position, not a game record "
                                     "(docs/records.md): 'yukon solve' reads a position") from None
        raise InvalidRecordError(f"{where} is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") \
            from None
    except RecursionError:
        raise InvalidRecordError(f"{where} is not a game record: its JSON is nested too deeply") from None
    except ValueError:  # (Python reads no int of over 4,300 digits: a plain ValueError, not a JSONDecodeError)
        raise InvalidRecordError(f"{where} is not a game record: a number in it has too many digits") from None


def _is_one_line_position(text: str) -> bool:
    try:
        Game.from_text(text.strip())
    except YukonError:
        return False
    return True


class RecordMoveError(InvalidRecordError):
    """A record's move that is not a move, or not legal where it is played.

    ``number`` counts from 1; ``text`` is the move as the record wrote it; ``reason``, why it fails.
    """

    def __init__(self, number: int, text: object, reason: str) -> None:
        self.number = number
        self.text = text
        self.reason = reason
        super().__init__(f"move {number} ({shown(text)}) is bad: {reason}")


@dataclass(frozen=True)
class DealNumber:
    """Which deal a record starts from: its number in a numbering (``yukon`` or ``pysolfc``)."""

    number: int
    numbering: str = "yukon"

    def to_dict(self) -> dict[str, Any]:
        """The record's ``deal`` object: ``{"number": ..., "numbering": ...}``."""
        return {"number": self.number, "numbering": self.numbering}


@dataclass(frozen=True, eq=False)
class GameRecord:
    """One game: where it started and the moves played, with what is known about it.

    ``start`` is never changed (:meth:`game` and :meth:`positions` work on copies).
    """

    start: Game
    moves: tuple[Move, ...] = ()
    deal: DealNumber | None = None
    date: str | None = None
    result: str | None = None
    time: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------------ making one

    @classmethod
    def from_game(
        cls, game: Game, *, result: str | None = None, date: str | None = None, time: float | None = None,
        extra: dict[str, Any] | None = None,
    ) -> GameRecord:
        """The record of ``game``'s moves since it was created, from the position they started at.

        The deal number is kept when ``game`` is a deal (:meth:`Game.deal`).
        """
        start = game.copy(history=True)
        while start.move_stack:
            start.pop()
        deal = DealNumber(game.seed, game.numbering) if game.seed is not None else None
        return cls.from_parts(start, game.move_stack, deal=deal, result=result, date=date, time=time,
                              extra=extra or {})

    @classmethod
    def from_parts(
        cls, start: Game, moves: Sequence[Move | str], *, deal: DealNumber | None = None,
        date: str | None = None, result: str | None = None, time: float | None = None,
        extra: dict[str, Any] | None = None,
    ) -> GameRecord:
        """A checked record: every move legal in turn, the metadata consistent with the game."""
        start = start.copy()
        start.seed = deal.number if deal is not None else None
        start.numbering = deal.numbering if deal is not None else "yukon"
        record = cls(start, _checked_moves(start, moves), deal, date, result, time, dict(extra or {}))
        record._check_metadata()
        return record

    # ------------------------------------------------------------------ reading

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Read a record's JSON text (:meth:`from_dict` checks it); :class:`InvalidRecordError` if it is not
        JSON or not a good record."""
        return cls.from_dict(_parse_json(text, "the game record"))

    @classmethod
    def read(cls, path: str | Path) -> GameRecord:
        """Read a record file; :class:`InvalidRecordError` if it cannot be read or is not a good record."""
        try:
            with Path(path).open("rb") as file:  # (a bounded read: /dev/zero or a huge file is refused, not read)
                raw = file.read(MAX_RECORD_BYTES + 1)
        except OSError as exc:
            raise InvalidRecordError(f"cannot read the game record {str(path)!r}: {exc.strerror or exc}") from None
        if len(raw) > MAX_RECORD_BYTES:
            raise InvalidRecordError(f"the game record {str(path)!r} is longer than {MAX_RECORD_BYTES:,} bytes: "
                                     "it is no game record")
        return cls.from_dict(_parse_json(raw, f"the game record {str(path)!r}"))

    @classmethod
    def read_stdin(cls, raw: bytes) -> GameRecord:
        """Read a record given on standard input (its errors say so; read at most ``MAX_RECORD_BYTES + 1``
        bytes of it: more is refused)."""
        if len(raw) > MAX_RECORD_BYTES:
            raise InvalidRecordError(f"the game record on standard input is longer than {MAX_RECORD_BYTES:,} bytes: "
                                     "it is no game record")
        return cls.from_dict(_parse_json(raw, "the game record on standard input"))

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Check a record (parsed JSON) completely and build it; nothing is built from a bad one."""
        if not isinstance(data, dict):
            raise InvalidRecordError(f"a game record is a JSON object, not {type(data).__name__}")
        if "format" not in data and "tableau" in data:  # (a file of the other kind)
            raise InvalidRecordError("this is a position (docs/contract.md), not a game record: a record keeps "
                                     "its start position in 'start', with the moves played from it")
        if "format" not in data:
            raise InvalidRecordError(
                f"not a yukon game record: it has no \"format\" (a record starts {{\"format\": \"{FORMAT}\", ...}})")
        if data["format"] != FORMAT:
            raise InvalidRecordError(
                f"not a yukon game record: its 'format' is {shown(data['format'])}, not {FORMAT!r}"
            )
        version = data.get("version")
        if isinstance(version, bool) or not isinstance(version, int):
            raise InvalidRecordError(f"the record's 'version' must be an integer, not {shown(version)}")
        if version != VERSION:
            newer = " (written by a newer program)" if version > VERSION else ""
            raise InvalidRecordError(
                f"game record version {shown(version)} is not read here{newer}: only version {VERSION}")
        if "start" not in data:
            raise InvalidRecordError("the record has no 'start' position")
        if not isinstance(data["start"], dict):  # (it said "... not str (JSON text: use Game.from_json)")
            raise InvalidRecordError(f"the record's start position is bad: 'start' is a JSON object with "
                                     f"'variant' and 'tableau' (docs/contract.md), not {shown(data['start'])}")
        try:
            start = Game.from_dict(data["start"])
        except YukonError as exc:
            raise InvalidRecordError(f"the record's start position is bad: {exc}") from None
        moves = data.get("moves")
        if not isinstance(moves, list):
            raise InvalidRecordError(f"the record's 'moves' must be a list of moves, not {shown(moves)}")
        deal = _read_deal(data.get("deal"))
        title = data.get("title")
        if title is not None and title != start.rules.title:
            raise InvalidRecordError(
                f"the record's title {shown(title)} is not the start position's variant ({start.rules.title!r})"
            )
        extra = {k: v for k, v in data.items() if k not in KEYS}
        return cls.from_parts(start, moves, deal=deal, date=data.get("date"), result=data.get("result"),
                              time=data.get("time"), extra=extra)

    # ------------------------------------------------------------------ writing

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON data; metadata that is not known is left out."""
        data: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "start": self.start.to_dict(),
            "moves": [str(m) for m in self.moves], "title": self.start.rules.title,
        }
        if self.deal is not None:
            data["deal"] = self.deal.to_dict()
        for key in ("date", "result", "time"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        return {**self.extra, **data}

    def to_json(self) -> str:
        """The file's text: one top-level key a line, each value on one line (diffable, and short)."""
        lines = [f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in self.to_dict().items()]
        return "{\n " + ",\n ".join(lines) + "\n}\n"

    def write(self, path: str | Path) -> None:
        """Write :meth:`to_json` to the file ``path`` (UTF-8), replacing it; ``OSError`` if it cannot."""
        Path(path).write_text(self.to_json(), encoding="utf-8")

    # ------------------------------------------------------------------ replaying

    def game(self, upto: int | None = None) -> Game:
        """A new game at the start with the first ``upto`` moves played (all by default), history kept."""
        n = len(self.moves) if upto is None else upto
        if not 0 <= n <= len(self.moves):
            raise IndexError(f"the record has {len(self.moves)} moves; there is no position after move {n}")
        g = self.start.copy()
        for move in self.moves[:n]:
            g.push(move)
        return g

    def positions(self) -> Iterator[Game]:
        """The start, then the position after each move (a fresh copy each)."""
        g = self.start.copy()
        yield g.copy()
        for move in self.moves:
            g.push(move)
            yield g.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameRecord):
            return NotImplemented
        return (
            self.start == other.start and self.moves == other.moves and self.deal == other.deal
            and self.date == other.date and self.result == other.result and self.time == other.time
            and self.extra == other.extra
        )

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ checks

    def _check_metadata(self) -> None:
        if self.date is not None:
            if not isinstance(self.date, str):
                raise InvalidRecordError(f"the record's 'date' must be an ISO 8601 text, not {shown(self.date)}")
            try:
                datetime.fromisoformat(self.date)
            except ValueError:
                raise InvalidRecordError(
                    f"the record's 'date' {shown(self.date)} is not an ISO 8601 date (such as 2026-12-01T09:30:00Z)"
                ) from None
        t = self.time
        if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float)) or t != t or t < 0
                              or t > MAX_TIME):  # (x != x: NaN; math.isfinite() of a huge int is an OverflowError)
            raise InvalidRecordError(f"the record's 'time' must be seconds (a number from 0), not {shown(t)}")
        if self.result is not None:
            if self.result not in RESULTS:
                raise InvalidRecordError(
                    f"the record's 'result' must be one of {', '.join(RESULTS)}, not {shown(self.result)}"
                )
            end = self.game()
            if (self.result == "won") != end.is_won():
                what = "won" if end.is_won() else "not won"
                raise InvalidRecordError(f"the record says {shown(self.result)}, but its moves end {what}")
            if self.result == "lost" and not end.is_lost():
                raise InvalidRecordError("the record says 'lost', but moves are left at its end")
        if self.deal is not None:
            from .pysolfc import NumberingError

            try:
                dealt = Game.deal(self.start.rules, seed=self.deal.number, numbering=self.deal.numbering)
            except NumberingError as exc:
                raise InvalidRecordError(f"the record's deal number is bad: {exc}") from None
            except ValueError as exc:
                raise InvalidRecordError(f"the record's deal number is bad: {exc}") from None
            if dealt != self.start:
                raise InvalidRecordError(
                    f"the record's start is not deal {self.deal.number} ({self.deal.numbering} numbering) "
                    f"of {self.start.rules.title}"
                )


def _read_deal(value: Any) -> DealNumber | None:
    if value is None:
        return None
    if not isinstance(value, dict) or "number" not in value:
        raise InvalidRecordError(
            f"the record's 'deal' must be an object such as {{'number': 42, 'numbering': 'yukon'}}, not {shown(value)}"
        )
    number = value["number"]
    numbering = value.get("numbering", "yukon")
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        raise InvalidRecordError(f"the record's deal number must be a whole number from 0, not {shown(number)}")
    if numbering not in NUMBERINGS:
        raise InvalidRecordError(
            f"the record's deal numbering must be one of {', '.join(NUMBERINGS)}, not {shown(numbering)}"
        )
    return DealNumber(number, numbering)


def _checked_moves(start: Game, moves: Sequence[Move | str]) -> tuple[Move, ...]:
    """Every move played in turn from ``start`` (a copy); the first bad one raises :class:`RecordMoveError`."""
    g = start.copy()
    played: list[Move] = []
    for number, item in enumerate(moves, 1):
        try:
            if isinstance(item, Move):
                g.push(item)
                played.append(item)
            elif isinstance(item, str):
                played.append(g.push_text(item))
            else:
                raise RecordMoveError(number, item, "a move is a text in the notation, such as '2:7H+2>5'")
        except RecordMoveError:
            raise
        except YukonError as exc:
            raise RecordMoveError(number, item, str(exc)) from None
    return tuple(played)


__all__ = [
    "FORMAT", "RESULTS", "VERSION", "DealNumber", "GameRecord", "InvalidRecordError", "RecordMoveError",
]
