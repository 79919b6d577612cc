"""One game at the terminal table, without any drawing: the shared :class:`yukon.session.PlaySession`.

The Textual app (:mod:`yukon.tui.app`) only draws a :class:`Session` and
forwards the player's intentions to it, so everything here is testable
without a terminal. The rules of play (turns, undo/redo, the clock, automatic
plays, results and saving) are the ones shared with the web game, written once
in :mod:`yukon.session`, with the same names; this layer picks the terminal's options:

- client ``"tui"`` in the shared :class:`yukon.store.Store`; a game is written
  at its first move (a deal looked at and left costs nothing), then after every
  turn, with the player's settings in ``extra`` (``autoplay``, ``hint_kind``);
- auto-play covers both safe cards and the auto-finish, one switch (:meth:`Session.set_autoplay`);
- a won game may still be undone (its result stays recorded);
- a store that cannot be written never stops the game: :attr:`Session.store_error` says so.

>>> from yukon import Game
>>> s = Session(Game.from_text("yukon,kings,noreturn KS/KC.QC/-/-/-/-/- QS/KH/KD/JC"), None)
>>> [str(m) for m in s.play(s.game.parse_move("1:KS>F"))]   # then QC and KC are safe to go up
['1:KS>F', '2:QC>F', '2:KC>F']
>>> s.status, s.turns
('won', [3])
>>> len(s.undo()), s.game.cards_on_foundations
(3, 49)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..advisor import HONEST, KINDS, HintKind, check_kind
from ..errors import YukonError
from ..game import Game
from ..notation import FOUNDATION, Move, make_move
from ..record import GameRecord as GameFile
from ..session import IDLE_CAP, PlaySession
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


def _terminal_options(autoplay: bool, hint_kind: str, clock: Callable[[], float]) -> dict[str, Any]:
    return {"client": CLIENT, "write_at": "first_move", "autoplay": autoplay, "autofinish": autoplay,
            "lock_when_over": False, "tolerate_store_errors": True, "clock": clock,
            "extra": {"autoplay": autoplay, "hint_kind": check_kind(hint_kind)}}


class Session(PlaySession):
    """A game in play at the terminal: the shared :class:`~yukon.session.PlaySession` with the terminal's options."""

    def __init__(
        self,
        game: Game,
        store: Store | None,
        *,
        autoplay: bool = True,
        hint_kind: HintKind = HONEST,
        clock: Callable[[], float] = time.monotonic,
        record: GameRecord | None = None,
        **options: Any,
    ) -> None:
        terminal = _terminal_options(autoplay, hint_kind, clock)
        terminal["extra"] |= options.pop("extra", None) or {}
        super().__init__(game, store, record=record, **terminal | options)
        if record is not None:
            self.set_autoplay(bool(record.extra.get("autoplay", autoplay)), play=False)
            kind = record.extra.get("hint_kind", hint_kind)
            self.extra["hint_kind"] = kind if kind in KINDS else hint_kind
            if self.moves:
                self.start_clock()  # the game is on the screen again: its clock runs

    @classmethod
    def from_game_record(  # type: ignore[override]
        cls, record: GameFile, store: Store | None, *, autoplay: bool = True, hint_kind: HintKind = HONEST,
        clock: Callable[[], float] = time.monotonic,
    ) -> Session:
        """A new terminal game that continues an imported game record (:mod:`yukon.record`): its moves
        are played (one turn each, so undo steps back through them) and its clock goes on."""
        session = super().from_game_record(record, store, autoplay=autoplay, hint_kind=hint_kind, clock=clock)
        if session.moves:
            session.start_clock()
        return session

    @classmethod
    def played_on(cls, finished: Session, *, clock: Callable[[], float] = time.monotonic) -> Session:
        """A new game in play with the line, turns and time of ``finished`` (a game over: won, lost or given
        up), to play on from one of its positions (undo there): ``finished`` keeps its result and its record,
        the new game is saved as it is played (the web's "Play on from here (a new game)", marked
        ``imported`` as the web's is). Nothing is written here: a won line is taken back before a save."""
        extra = {k: v for k, v in finished.extra.items() if k not in ("autoplay", "hint_kind")}
        session = cls(finished.start, finished.store, autoplay=finished.autoplay, hint_kind=finished.hint_kind,
                      clock=clock, extra={**extra, "imported": True})
        for move in finished.moves:
            session.game.push(move)
        session.dealt, session.turns = finished.dealt, list(finished.turns)
        session.player_moved = finished.player_moved
        session._elapsed_before = finished.elapsed  # (the clock goes on from the game's time, as an import's)
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

    @property
    def hint_kind(self) -> HintKind:
        """The hint asked for by ``h``: ``honest`` (it sees what the player sees) or ``solver``."""
        return check_kind(self.extra.get("hint_kind", HONEST))

    def set_hint_kind(self, kind: HintKind) -> None:
        """Choose the kind of hint (saved with the game, as auto-play is)."""
        self.extra["hint_kind"] = check_kind(kind)
        self.save()

    def set_autoplay(self, on: bool, *, play: bool = True) -> list[Move]:
        """Auto-play (safe cards up and the auto-finish) on or off; switched on, it plays what it can now
        (``play``) as one turn. The setting is saved with the game."""
        self.autoplay = self.autofinish = on
        self.extra["autoplay"] = on
        if not play:
            return []
        played = self.play_auto() if on else []
        if not played:
            self.save()
        return played


def describe_move(game: Game, move: Move) -> str:
    """Words for a move in ``game`` (before it is played), the web table's wording
    (:func:`yukon.session.describe_move`) with the cards as the table draws them:
    ``'7♥ and 2 cards on it from column 2 to column 5'``."""
    from ..cards import PRETTY
    from ..session import describe_move as in_words

    return in_words(game.rules, move, PRETTY.__getitem__)


__all__ = ["CLIENT", "IDLE_CAP", "Pick", "Session", "describe_move"]
