"""One game at the terminal table, without any drawing: moves, turns, undo/redo, saving, results.

The Textual app (:mod:`yukon.tui.app`) only draws a :class:`Session` and
forwards the player's intentions to it, so everything here is testable
without a terminal.

A *turn* is what one key press or click does: the player's move plus the
automatic plays that follow it (safe cards to the foundations, auto-finish).
Undo and redo work on whole turns, so that an automatic play never undoes
itself straight back.

Saving goes through the shared :class:`yukon.store.Store` (client ``"tui"``),
in the same form as the web game (``extra["groups"]`` and
``extra["redo_groups"]`` hold the turn sizes; the redo list is stored next
move first): a game is written at its first move (a deal looked at and left
costs nothing) and after every turn. It is recorded ``"won"`` as soon as it is
won; when the player leaves it for another game it is recorded ``"lost"`` if
no legal move was left, else ``"abandoned"`` (undo stays possible after a
dead end, as in the web game).

The clock runs from the first move, and between two actions counts at most
:data:`IDLE_CAP` seconds (a terminal left open overnight does not ruin the best time).

>>> from yukon import Game
>>> s = Session(Game.from_text("yukon,kings,noreturn KS/KC.QC/-/-/-/-/- QS/KH/KD/JC"), None)
>>> [str(m) for m in s.play(s.game.parse_move("1:KS>F"))]   # then QC and KC are safe to go up
['1:KS>F', '2:QC>F', '2:KC>F']
>>> s.status, s.turns
('won', [3])
>>> s.undo(), s.game.cards_on_foundations
(True, 49)
"""

from __future__ import annotations

import sqlite3
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..autoplay import finish_moves, is_certain_win, next_safe_move
from ..errors import IllegalMoveError, YukonError
from ..game import Game
from ..notation import FOUNDATION, STOCK, WASTE, Move, make_move
from ..store import GameRecord, Store

CLIENT = "tui"
#: The clock never counts more than this many seconds between two actions (as in the web game).
IDLE_CAP = 15 * 60.0


@dataclass(frozen=True)
class Pick:
    """A picked card: where it lies, the card, and how many cards travel (it and those on it)."""

    src: int
    card: int
    count: int

    def move_to(self, dst: int) -> Move:
        return make_move(self.src, dst, self.card, 1 if dst == FOUNDATION else self.count)


class Session:
    """A game in play: the position, its turns, the redo list and its record in the store."""

    def __init__(
        self,
        game: Game,
        store: Store | None,
        *,
        autoplay: bool = True,
        clock: Callable[[], float] = time.monotonic,
        record: GameRecord | None = None,
    ) -> None:
        self.store = store
        self.autoplay = autoplay
        self._clock = clock
        self.start = game.copy()
        self.game = game.copy()
        self.game_id: str | None = None
        self.turns: list[int] = []
        self.redo_turns: list[list[Move]] = []
        self.result: str | None = None
        self._elapsed_before = 0.0  # seconds counted up to self._since
        self._since: float | None = None  # the clock runs since then (None: stopped)
        #: The last problem writing to the store (None when the last write worked).
        self.store_error: str | None = None
        if record is not None:
            self._load(record)

    # ------------------------------------------------------------------ creation

    @classmethod
    def resume(cls, store: Store, **kwargs: Any) -> Session | None:
        """The latest unfinished terminal game in ``store``, or None (also if it cannot be read)."""
        record = store.latest_unfinished(CLIENT)
        if record is None:
            return None
        try:
            game = Game.from_dict(record.start)
        except YukonError:
            store.finish_game(record.id, "abandoned")
            return None
        game.seed = record.seed
        try:
            return cls(game, store, record=record, **kwargs)
        except YukonError:
            store.finish_game(record.id, "abandoned")
            return None

    def _load(self, record: GameRecord) -> None:
        moves = [Move.from_text(t) for t in record.moves]
        turns = [int(n) for n in record.extra.get("groups", [])]
        if sum(turns) != len(moves) or any(n < 1 for n in turns):
            turns = [1] * len(moves)
        for m in moves:
            self.game.push(m)
        self.turns = turns
        self.autoplay = bool(record.extra.get("autoplay", self.autoplay))
        # The redo list: upcoming moves in play order, grouped by "redo_groups" (next turn first).
        redo = [Move.from_text(t) for t in record.redo]
        sizes = [int(n) for n in record.extra.get("redo_groups", [])]
        if sum(sizes) != len(redo) or any(n < 1 for n in sizes):
            sizes = [1] * len(redo)
        probe = self.game.copy()
        groups: list[list[Move]] = []
        pos = 0
        try:
            for n in sizes:
                group = redo[pos:pos + n]
                pos += n
                for m in group:
                    probe.push(m)
                groups.append(group)
        except IllegalMoveError:
            pass  # a stale redo list is dropped from the first move that no longer fits
        self.redo_turns = list(reversed(groups))
        self.game_id = record.id
        self._elapsed_before = float(record.elapsed)
        if moves and not self.game.is_won():
            self._since = self._clock()

    # ------------------------------------------------------------------ reading

    @property
    def elapsed(self) -> float:
        """Seconds of play: from the first move, while the game is open, idle gaps capped."""
        if self._since is None:
            return self._elapsed_before
        return self._elapsed_before + min(max(0.0, self._clock() - self._since), IDLE_CAP)

    def _tick(self) -> None:
        """An action: count the time since the last one (capped), keep the clock running."""
        if self._since is not None:
            now = self._clock()
            self._elapsed_before += min(max(0.0, now - self._since), IDLE_CAP)
            self._since = now

    def _stop_clock(self) -> None:
        self._tick()
        self._since = None

    @property
    def move_count(self) -> int:
        return len(self.game.move_stack)

    @property
    def in_progress(self) -> bool:
        """Moves made (or undone) and no result yet."""
        return self.result is None and bool(self.game.move_stack or self.redo_turns)

    @property
    def status(self) -> str:
        """``won``, ``lost`` (no legal move left), ``abandoned`` or ``playing``."""
        if self.result == "abandoned":
            return "abandoned"
        if self.game.is_won():
            return "won"
        if self.game.is_lost():
            return "lost"
        return "playing"

    def can_undo(self) -> bool:
        return bool(self.turns)

    def can_redo(self) -> bool:
        return bool(self.redo_turns)

    # ------------------------------------------------------------------ playing

    def play(self, move: Move) -> list[Move]:
        """Play the player's move and the automatic plays it allows; raises :class:`IllegalMoveError`.

        Returns every move played in this turn.
        """
        self.game.push(move)  # raises, changing nothing, when illegal
        played = [move]
        played += self._automatic()
        self._end_turn(played)
        return played

    def play_many(self, moves: list[Move]) -> list[Move]:
        """Play a line of moves as one turn (auto-finish); stops at the first illegal one."""
        played: list[Move] = []
        for m in moves:
            try:
                self.game.push(m)
            except IllegalMoveError:
                break
            played.append(m)
        if played:
            played += self._automatic()
            self._end_turn(played)
        return played

    def auto_now(self) -> list[Move]:
        """Make the automatic plays available now (when auto-play is switched on) as one turn."""
        played = self._automatic()
        if played:
            self._end_turn(played)
        return played

    def finish(self) -> list[Move]:
        """Auto-finish: when the win is certain, play every card up as one turn."""
        if not is_certain_win(self.game) or self.game.is_won():
            return []
        return self.play_many(finish_moves(self.game))

    def _automatic(self) -> list[Move]:
        if not self.autoplay:
            return []
        played: list[Move] = []
        while not self.game.is_won():
            if is_certain_win(self.game):
                line = finish_moves(self.game)
                for m in line:
                    self.game.push(m)
                played += line
                break
            m = next_safe_move(self.game)
            if m is None:
                break
            self.game.push(m)
            played.append(m)
        return played

    def _end_turn(self, played: list[Move]) -> None:
        if self._since is None and self.result is None:
            self._since = self._clock()  # the first move starts the clock
        self.turns.append(len(played))
        if self.redo_turns and self.redo_turns[-1] == played:
            self.redo_turns.pop()  # the same as redoing: keep the rest of the redo list
        else:
            self.redo_turns.clear()
        self._after_change()

    def undo(self) -> bool:
        """Take back the last turn; False when there is none."""
        if not self.turns:
            return False
        n = self.turns.pop()
        group = [self.game.pop() for _ in range(n)]
        group.reverse()
        self.redo_turns.append(group)
        self._after_change()
        return True

    def redo(self) -> bool:
        """Play the last undone turn again; False when there is none."""
        if not self.redo_turns:
            return False
        group = self.redo_turns.pop()
        for i, m in enumerate(group):
            try:
                self.game.push(m)
            except IllegalMoveError:  # pragma: no cover - the redo list is kept consistent
                for _ in range(i):
                    self.game.pop()
                self.redo_turns.clear()
                return False
        self.turns.append(len(group))
        self._after_change()
        return True

    def restart(self) -> bool:
        """Back to the deal: every turn goes to the redo list, so a restart can be redone."""
        if not self.turns:
            return False
        while self.turns:
            n = self.turns.pop()
            group = [self.game.pop() for _ in range(n)]
            group.reverse()
            self.redo_turns.append(group)
        self._after_change()
        return True

    def set_autoplay(self, on: bool) -> list[Move]:
        self.autoplay = on
        played = self.auto_now() if on else []
        if not played:
            self._save()
        return played

    # ------------------------------------------------------------------ store

    def _after_change(self) -> None:
        self._tick()
        if self.game.is_won() and self.result is None:
            self._stop_clock()
            self._save()
            self._finish("won")
        else:
            self._save()

    def _save(self) -> None:
        try:
            self._write()
        except (sqlite3.Error, KeyError) as exc:  # e.g. the file is locked: keep playing, say so
            self.store_error = f"could not save the game ({exc})"
        else:
            self.store_error = None

    def _write(self) -> None:
        if self.store is None or (not self.game.move_stack and self.game_id is None):
            return
        if self.game_id is None:
            self.game_id = uuid.uuid4().hex
            self.store.create_game(
                self.game_id, self.start.rules.variant, self.start.rules.options(), self.start.seed,
                self.start.to_dict(), CLIENT,
            )
        upcoming = [m for group in reversed(self.redo_turns) for m in group]
        extra = {
            "groups": self.turns,
            "redo_groups": [len(g) for g in reversed(self.redo_turns)],
            "autoplay": self.autoplay,
        }
        self.store.update_game(
            self.game_id, [str(m) for m in self.game.move_stack], [str(m) for m in upcoming],
            round(self.elapsed, 3), extra,
        )

    def _finish(self, result: str) -> None:
        if self.result is not None:
            return
        self._stop_clock()
        elapsed = self.elapsed
        self.result = result
        if self.store is not None and self.game_id is not None:
            try:
                self.store.finish_game(self.game_id, result, move_count=self.move_count, elapsed=round(elapsed, 3))
            except (sqlite3.Error, KeyError) as exc:
                self.store_error = f"could not record the result ({exc})"

    def save(self) -> None:
        """Write the current state (the clock too); called when the app closes."""
        if self.result is None:
            self._tick()
            self._save()

    def abandon(self) -> None:
        """The player leaves a game in progress for another one: ``lost`` at a dead end, else ``abandoned``."""
        if self.in_progress:
            self._stop_clock()
            self._save()
            self._finish("lost" if self.game.is_lost() else "abandoned")


def describe_move(game: Game, move: Move) -> str:
    """Words for a move in ``game`` (before it is played): ``'7♥ and 2 cards from column 2 to column 5'``."""
    from ..cards import PRETTY

    if move.src == STOCK:
        return "deal from the stock" if game.rules.has_waste else "deal a row from the stock"
    card = PRETTY[move.card]
    if move.count > 1:
        card += f" and {move.count - 1} card{'s' if move.count > 2 else ''} on it"
    src = {WASTE: "the waste", FOUNDATION: "its foundation"}.get(move.src, f"column {move.src + 1}")
    dst = "its foundation" if move.dst == FOUNDATION else f"column {move.dst + 1}"
    return f"{card} from {src} to {dst}"


__all__ = ["CLIENT", "IDLE_CAP", "Pick", "Session", "describe_move"]
