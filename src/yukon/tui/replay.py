"""Replaying a game at the terminal: a line of moves from a start, and the position after any number of them.

The positions are the game's own (copies), so a face-down card of the start stays face down until the
move that turned it up: the replay shows only what the player saw then.

>>> from yukon import Game
>>> start = Game.deal("yukon", seed=42)
>>> line = start.legal_moves()[:1]
>>> r = Replay(start, line, at=1)
>>> r.step(-1), r.at, r.position == start
(True, 0, True)
>>> r.step(-1)
False
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..game import Game
from ..notation import Move


@dataclass
class Replay:
    """``line`` played from ``start``, shown after ``at`` moves. ``better_from`` is set when the line
    is a winning continuation: the moves from that index on are the solver's, not the player's.
    ``first``: the earliest position shown, after the deal's automatic plays (the game as the player
    saw it dealt); the moves are numbered from there (:attr:`shown_at`)."""

    start: Game
    line: Sequence[Move]
    at: int
    better_from: int | None = None
    first: int = 0
    position: Game = field(init=False)

    def __post_init__(self) -> None:
        self.start = self.start.copy()
        self.line = list(self.line)
        self.first = min(max(self.first, 0), len(self.line))
        self.at = min(max(self.at, self.first), len(self.line))
        self.position = self._position_after(self.at)

    def _position_after(self, n: int) -> Game:
        game = self.start.copy()
        for move in self.line[:n]:
            game.push(move)
        return game

    def step(self, delta: int) -> bool:
        """Show the position ``delta`` moves later (earlier when negative); False at either end."""
        at = self.at + delta
        if not self.first <= at <= len(self.line):
            return False
        if delta == 1:
            self.position.push(self.line[self.at])
        else:
            self.position = self._position_after(at)
        self.at = at
        return True

    @property
    def shown_at(self) -> int:
        """The moves shown played, as the player counts them (the deal's automatic plays not counted)."""
        return self.at - self.first

    @property
    def shown_total(self) -> int:
        return len(self.line) - self.first

    @property
    def next_move(self) -> Move | None:
        return self.line[self.at] if self.at < len(self.line) else None


__all__ = ["Replay"]
