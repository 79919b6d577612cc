"""A winning line without its detours, for a person to follow.

A search's line wins, but it may wander: a depth-first search walks groups of cards to and fro between
columns, and a greedy probe moves a group away and back while it waits for a card. Played to a player
(the analysis after a loss, a solver hint's line) such a line looks wrong. :func:`tidy_line` keeps the
line winning and removes two kinds of detour:

- a loop: the line comes back to a position it passed; everything between goes;
- a shortcut: one legal move from a position of the line reaches a position further along than the
  line's own next move does; the moves it skips go.

Positions are compared whole (face-down cards and the stock included), so the tidy line reaches every
position it keeps exactly as the line did, and ends where the line ends: won.

>>> from yukon import Game
>>> g = Game.from_text("yukon,kings,noreturn KSQH/KCQD/KH/KD/QSJS/-/- TS/JH/JD/QC")
>>> played = g.copy()
>>> played.replay(["5:JS>1", "1:JS>2", "2:JS>1", "5:QS>3"])
>>> [str(m) for m in tidy_line(g, played.move_stack)]  # the jack went to and fro
['5:JS>1', '5:QS>3']
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from ..game import Game
from ..notation import Move


def tidy_line(game: Game, line: Sequence[Move], deadline: float | None = None,
              stop: threading.Event | None = None) -> list[Move]:
    """``line`` (legal moves from ``game``, which is not changed) without loops and with every shortcut
    one move can take. At ``deadline`` (a :func:`time.perf_counter` time) or once ``stop`` is set, the
    rest of the line is kept as it is: the answer is always a line that reaches the same end."""
    board = game.copy()
    last_seen: dict[str, int] = {board.to_text(): 0}
    for i, move in enumerate(line, 1):
        board.push(move)
        last_seen[board.to_text()] = i  # (a later visit overwrites: a jump goes as far as it can)
    board = game.copy()
    tidy: list[Move] = []
    i = last_seen[board.to_text()]  # (the line may come back to its start)
    while i < len(line):
        if (deadline is not None and time.perf_counter() > deadline) or (stop is not None and stop.is_set()):
            tidy.extend(line[i:])
            break
        best, through = i + 1, line[i]
        for move in board.legal_moves():
            board.push(move)
            reached = last_seen.get(board.to_text(), -1)
            board.pop()
            if reached > best:
                best, through = reached, move
        board.push(through)
        tidy.append(through)
        i = best
    return tidy


__all__ = ["tidy_line"]
