"""One game at the terminal table, without any drawing: a thin layer over :class:`yukon.session.PlaySession`.

The Textual app (:mod:`yukon.tui.app`) only draws a :class:`Session` and
forwards the player's intentions to it, so everything here is testable
without a terminal. The rules of play (turns, undo/redo, the clock, automatic
plays, results and saving) are the ones shared with the web game, written once
in :mod:`yukon.session`; this layer picks the terminal's options:

- client ``"tui"`` in the shared :class:`yukon.store.Store`; a game is written
  at its first move (a deal looked at and left costs nothing), then after every
  turn, with auto-play in ``extra["autoplay"]``;
- auto-play covers both safe cards and the auto-finish, one switch;
- a won game may still be undone (its result stays recorded);
- a store that cannot be written never stops the game: :attr:`Session.store_error` says so;
- undo, redo and restart answer True or False instead of raising.

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

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import YukonError
from ..game import Game
from ..notation import FOUNDATION, STOCK, WASTE, Move, make_move
from ..record import GameRecord as GameFile
from ..session import IDLE_CAP, NothingToDoError, PlaySession
from ..store import GameRecord, Store

CLIENT = "tui"


@dataclass(frozen=True)
class Pick:
    """A picked card: where it lies, the card, and how many cards travel (it and those on it)."""

    src: int
    card: int
    count: int

    def move_to(self, dst: int) -> Move:
        return make_move(self.src, dst, self.card, 1 if dst == FOUNDATION else self.count)


class Session:
    """A game in play at the terminal: the shared :class:`~yukon.session.PlaySession` with the terminal's options."""

    def __init__(
        self,
        game: Game,
        store: Store | None,
        *,
        autoplay: bool = True,
        clock: Callable[[], float] = time.monotonic,
        record: GameRecord | None = None,
    ) -> None:
        self.core = PlaySession(
            game, store, client=CLIENT, write_at="first_move", autoplay=autoplay, autofinish=autoplay,
            lock_when_over=False, tolerate_store_errors=True, clock=clock, record=record,
            extra={"autoplay": autoplay},
        )
        if record is not None:
            self.autoplay = bool(record.extra.get("autoplay", autoplay))
            if self.core.moves:
                self.core.start_clock()  # the game is on the screen again: its clock runs

    @classmethod
    def from_game_record(
        cls, record: GameFile, store: Store | None, *, autoplay: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> Session:
        """A new terminal game that continues an imported game record (:mod:`yukon.record`): its moves
        are played (one turn each, so undo steps back through them) and its clock goes on."""
        session = cls.__new__(cls)
        session.core = PlaySession.from_game_record(
            record, store, client=CLIENT, write_at="first_move", autoplay=autoplay, autofinish=autoplay,
            lock_when_over=False, tolerate_store_errors=True, clock=clock, extra={"autoplay": autoplay},
        )
        if session.core.moves:
            session.core.start_clock()
        return session

    @classmethod
    def resume(cls, store: Store, **kwargs: Any) -> Session | None:
        """The latest unfinished terminal game in ``store``, or None (also if it cannot be read).

        A saved game that no longer replays is set aside as damaged (``"abandoned"``, out of the
        statistics, named in the log) and the next one is tried."""
        for record in store.unfinished(CLIENT):
            try:
                game = Game.from_dict(record.start)
                game.seed = record.seed
                return cls(game, store, record=record, **kwargs)
            except (YukonError, ValueError, TypeError, KeyError, RecursionError) as exc:
                store.set_aside(record.id, f"it no longer replays ({exc})")
        return None

    # ------------------------------------------------------------------ reading

    @property
    def store(self) -> Store | None:
        return self.core.store

    @property
    def game(self) -> Game:
        return self.core.game

    @property
    def start(self) -> Game:
        """The position the game started from."""
        return self.core.start

    @property
    def game_id(self) -> str | None:
        """The game's id in the store (None until it is written)."""
        return self.core.id if self.core.stored else None

    @property
    def result(self) -> str | None:
        return self.core.result

    @property
    def store_error(self) -> str | None:
        """The last problem writing to the store (None when the last write worked)."""
        return self.core.store_error

    @property
    def turns(self) -> list[int]:
        """Sizes of the turns played, oldest first."""
        return self.core.turns

    @property
    def redo_turns(self) -> list[list[Move]]:
        """The undone turns, the next to redo last."""
        return list(reversed(self.core.undone))

    @property
    def autoplay(self) -> bool:
        return self.core.autoplay

    @autoplay.setter
    def autoplay(self, on: bool) -> None:
        self.core.autoplay = self.core.autofinish = on
        self.core.extra["autoplay"] = on

    @property
    def elapsed(self) -> float:
        """Seconds of play: from the first move, while the game is open, idle gaps capped."""
        return self.core.elapsed

    @property
    def moves(self) -> list[Move]:
        """The moves played, oldest first."""
        return self.core.moves

    @property
    def move_count(self) -> int:
        return self.core.move_count

    @property
    def in_progress(self) -> bool:
        """Moves made (or undone) and no result yet."""
        return self.core.in_progress

    @property
    def status(self) -> str:
        """``won``, ``lost`` (no legal move left), ``abandoned`` or ``playing``."""
        return self.core.status

    def can_undo(self) -> bool:
        return self.core.can_undo

    def can_redo(self) -> bool:
        return self.core.can_redo

    # ------------------------------------------------------------------ playing

    def play(self, move: Move) -> list[Move]:
        """Play the player's move and the automatic plays it allows; raises :class:`IllegalMoveError`.

        Returns every move played in this turn.
        """
        return self.core.play(move)

    def play_many(self, moves: list[Move]) -> list[Move]:
        """Play a line of moves as one turn (auto-finish); stops at the first illegal one."""
        return self.core.play_line(moves)

    def auto_now(self) -> list[Move]:
        """Make the automatic plays available now (when auto-play is switched on) as one turn."""
        return self.core.play_auto()

    def finish(self) -> list[Move]:
        """Auto-finish: when the win is certain, play every card up as one turn."""
        return self.core.finish()

    def undo(self) -> bool:
        """Take back the last turn; False when there is none."""
        try:
            self.core.undo()
        except NothingToDoError:
            return False
        return True

    def redo(self) -> bool:
        """Play the last undone turn again; False when there is none."""
        try:
            self.core.redo()
        except NothingToDoError:
            return False
        return True

    def restart(self) -> bool:
        """Back to the deal: every turn goes to the redo list, so a restart can be redone."""
        try:
            self.core.restart()
        except NothingToDoError:
            return False
        return True

    def set_autoplay(self, on: bool) -> list[Move]:
        self.autoplay = on
        played = self.auto_now() if on else []
        if not played:
            self.core.save()
        return played

    # ------------------------------------------------------------------ store

    def save(self) -> None:
        """Write the current state (the clock too); called when the app closes."""
        if self.result is None:
            self.core.save()

    def abandon(self) -> None:
        """The player leaves a game in progress for another one: ``lost`` at a dead end, else ``abandoned``."""
        self.core.abandon()


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
