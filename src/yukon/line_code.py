"""A line of moves in a few bytes: each move as its index among the position's legal moves.

The legal moves of a position are put in one fixed order, that of their notation text
(``sorted(game.legal_moves(), key=str)``), so the code depends on the rules and the notation
only, not on the order in which the engine happens to generate moves. An index below 255 is
one byte; a larger one (never seen in this family, but possible) is the byte 255 and two more,
big-endian, for ``index - 255``. The bytes are written in URL-safe base64 without padding.

A code means something only from its starting position: :func:`decode` replays it there,
so a code that is not a line of that position is refused.

>>> from yukon import Game
>>> game = Game.deal("yukon", seed=1)
>>> line = [game.legal_moves()[0]]
>>> code = encode(game, line)
>>> decode(game, code) == line
True
>>> decode(game, "")
[]
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable

from .errors import YukonError
from .game import Game
from .notation import Move

#: the byte that says "two more bytes follow" (an index of 255 or more)
_ESCAPE = 255
_MAX_INDEX = _ESCAPE + 0xFFFF


class InvalidLineCodeError(YukonError):
    """Text that is not the code of a line of moves from the given position."""


def ordered_moves(game: Game) -> list[Move]:
    """The legal moves of ``game`` in the code's fixed order (by their notation text)."""
    return sorted(game.legal_moves(), key=str)


def encode(game: Game, moves: Iterable[Move]) -> str:
    """The code of ``moves`` played from ``game`` (unchanged by the call).

    Raises :class:`yukon.IllegalMoveError` (a YukonError) if a move is not legal where it is played."""
    board = game.copy()
    out = bytearray()
    for move in moves:
        index = {str(m): i for i, m in enumerate(ordered_moves(board))}.get(str(move))
        if index is None:
            board.push(move)  # raises the engine's own error, naming the move and why
            raise AssertionError("a move pushed although it is not among the legal moves")  # pragma: no cover
        if index < _ESCAPE:
            out.append(index)
        else:
            if index > _MAX_INDEX:  # pragma: no cover - far beyond any position of the family
                raise InvalidLineCodeError(f"a position with {index + 1} legal moves cannot be coded")
            out.append(_ESCAPE)
            out += (index - _ESCAPE).to_bytes(2, "big")
        board.push(move)
    return base64.urlsafe_b64encode(bytes(out)).decode("ascii").rstrip("=")


def _indices(code: str) -> list[int]:
    if not isinstance(code, str):
        raise InvalidLineCodeError(f"a line code is text, not {type(code).__name__}")
    text = code.strip()
    if not text.isascii():
        raise InvalidLineCodeError("a line code is URL-safe base64 (ASCII)")
    try:  # (validate: urlsafe_b64decode alone skips characters outside the alphabet)
        data = base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)
    except (binascii.Error, ValueError):
        raise InvalidLineCodeError(f"not URL-safe base64: {text[:40]!r}") from None
    indices: list[int] = []
    i = 0
    while i < len(data):
        if data[i] < _ESCAPE:
            indices.append(data[i])
            i += 1
        elif i + 2 < len(data):
            indices.append(_ESCAPE + int.from_bytes(data[i + 1:i + 3], "big"))
            i += 3
        else:
            raise InvalidLineCodeError("the line code ends inside an escaped index")
    return indices


def decode(game: Game, code: str) -> list[Move]:
    """The moves that ``code`` names, replayed from ``game`` (unchanged by the call).

    Raises :class:`InvalidLineCodeError` when the text is not a code, or names a move that the
    position it is played in does not have."""
    board = game.copy()
    moves: list[Move] = []
    for step, index in enumerate(_indices(code)):
        legal = ordered_moves(board)
        if index >= len(legal):
            raise InvalidLineCodeError(f"move {step + 1} of the line is number {index + 1} of a position that "
                                       f"has {len(legal)} legal moves")
        move = legal[index]
        board.push(move)
        moves.append(move)
    return moves


__all__ = ["InvalidLineCodeError", "decode", "encode", "ordered_moves"]
