"""One game being played in the browser, and the registry that loads and saves them.

A :class:`Session` is a thin layer over the shared :class:`yukon.session.PlaySession`
(turns, undo/redo, the clock, automatic plays, results and saving, written once
for the web and terminal games) with the web game's options: client ``"web"``,
a game written to the store as soon as it is dealt (the page addresses games by
id), no change accepted once a result is recorded (:class:`GameOverError`), and
a store error let through, so a change is acknowledged only once it is written.
It adds what only the browser needs: the JSON state, and the solver's findings
about the game.

The store keeps the moves as notation (``moves``), the redo list with the
next move to redo first (``redo``), the elapsed seconds, and in ``extra`` the
turn sizes (``groups``, ``redo_groups``) and a few notes (``deal_note``).

>>> from yukon.store import Store
>>> reg = Registry(Store(":memory:"))
>>> s = reg.new_game("yukon", {}, seed=7)
>>> first = s.game.legal_moves()[0]
>>> [str(m) for m in s.play(str(first))] == [str(first)]
True
>>> s.undo() and s.can_redo
True
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Sequence
from typing import Any

from ..game import Game
from ..hinting import HintPolicy
from ..notation import Move
from ..rules import Rules, rules_for
from ..session import IDLE_CAP, GameOverError, NothingToDoError, PlaySession
from ..store import GameRecord, Store
from . import solving
from .solving import Lines

CLIENT = "web"


def new_id() -> str:
    return secrets.token_urlsafe(16)


class Session:
    """A game in play in the browser: the shared play session plus the solver's findings."""

    def __init__(self, core: PlaySession) -> None:
        self.core = core
        #: position text -> "won" / "lost": what the solver proved about positions of this game
        self.proven: dict[str, str] = {}
        #: winning lines the solver found (the winnable check reads them)
        self.lines = Lines()
        #: the hint policy shared with the terminal game: it follows the line found, never goes back
        self.hints = HintPolicy(_server_hint, time_limit=solving.HINT_TIME)
        #: the stop events of the solver work running for this game, by kind ("hint", "winnable")
        self.solver_stops: dict[str, threading.Event] = {}

    def supersede(self, kind: str) -> threading.Event:
        """A stop event for new solver work of ``kind``; the previous one of that kind is stopped."""
        old = self.solver_stops.get(kind)
        if old is not None:
            old.set()
        stop = self.solver_stops[kind] = threading.Event()
        return stop

    # ------------------------------------------------------------------ reading

    @property
    def id(self) -> str:
        return self.core.id

    @property
    def game(self) -> Game:
        return self.core.game

    @property
    def start(self) -> dict[str, Any]:
        """The position the game started from (JSON)."""
        return self.core.start.to_dict()

    @property
    def seed(self) -> int | None:
        return self.core.seed

    @property
    def rules(self) -> Rules:
        return self.core.game.rules

    @property
    def moves(self) -> list[Move]:
        return self.core.moves

    @property
    def groups(self) -> list[int]:
        """Sizes of the turns played, oldest first."""
        return self.core.turns

    @property
    def redo_moves(self) -> list[Move]:
        """The undone moves, the next to redo first."""
        return self.core.redo_moves

    @property
    def redo_groups(self) -> list[int]:
        """Sizes of the undone turns, the next first."""
        return self.core.redo_sizes

    @property
    def result(self) -> str | None:
        return self.core.result

    @property
    def extra(self) -> dict[str, Any]:
        return self.core.extra

    @property
    def can_undo(self) -> bool:
        return self.core.can_undo

    @property
    def can_redo(self) -> bool:
        return self.core.can_redo

    @property
    def status(self) -> str:
        """``won``, ``lost`` (no legal move), ``abandoned`` or ``playing``."""
        return self.core.status

    @property
    def elapsed(self) -> float:
        return self.core.elapsed

    def elapsed_now(self) -> float:
        return self.core.elapsed

    @property
    def clock_running(self) -> bool:
        return self.core.clock_running

    # ------------------------------------------------------------------ changes (each one saved before it returns)

    def start_clock(self) -> None:
        self.core.start_clock()

    def stop_clock(self) -> None:
        self.core.stop_clock()

    def play(self, text: str, *, autoplay: bool = False, autofinish: bool = False) -> list[Move]:
        """Play a move given as notation, then the automatic plays; return every move played.

        Raises :class:`~yukon.InvalidMoveError` / :class:`~yukon.IllegalMoveError`
        (changing nothing), or :class:`GameOverError`.
        """
        return self.core.play(text, autoplay=autoplay, autofinish=autofinish)

    def play_auto(self, *, autoplay: bool, autofinish: bool) -> list[Move]:
        """Only the automatic plays (e.g. after a new deal, or when the player switches autoplay on)."""
        return self.core.play_auto(autoplay=autoplay, autofinish=autofinish)

    def undo(self, to: int | None = None) -> list[Move]:
        """Undo the last turn, or back to ``to`` moves played; return the moves undone (last first)."""
        return self.core.undo(to)

    def redo(self) -> list[Move]:
        """Play the next undone turn again; return its moves."""
        return self.core.redo()

    def restart(self) -> list[Move]:
        """Back to the deal; every move can be redone."""
        return self.core.restart()

    # ------------------------------------------------------------------ the page

    def store_extra(self) -> dict[str, Any]:
        return self.core.store_extra()

    def to_state(self, played: Sequence[Move] = (), undone: Sequence[Move] = ()) -> dict[str, Any]:
        """The JSON the API returns: the position (CONTRACT.md) plus the game's state."""
        g = self.game
        r = g.rules
        state = g.to_dict()
        status = self.status
        moves = g.move_stack
        state.update(
            id=self.id,
            seed=self.seed,
            title=r.title,
            description=r.describe(),
            layout={
                "columns": r.columns, "foundations": r.foundations, "has_stock": r.has_stock,
                "has_waste": r.has_waste, "build": r.build, "stock": r.stock,
            },
            moves=[str(m) for m in moves],
            move_count=len(moves),
            legal_moves=[str(m) for m in g.legal_moves()] if status == "playing" else [],
            can_undo=self.can_undo,
            can_redo=self.can_redo,
            status=status,
            result=self.result,
            elapsed=round(self.elapsed_now(), 3),
            clock_running=self.clock_running,
            cards_on_foundations=g.cards_on_foundations,
            card_count=r.card_count,
            played=[str(m) for m in played],
            undone=[str(m) for m in undone],
            deal_note=self.extra.get("deal_note"),
        )
        return state


def _server_hint(game: Game, time_limit: float, stop: threading.Event | None) -> solving.Hint:
    return solving.hint(game, stop or threading.Event(), time_limit)


class Registry:
    """Live sessions by id, loaded from the store on first use (so games survive a restart)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def new_game(
        self, variant: str, options: dict[str, Any], seed: int | None = None,
        position: dict[str, Any] | None = None, extra: dict[str, Any] | None = None,
    ) -> Session:
        """Deal (or set up ``position``), record it in the store, and return the session."""
        if position is not None:
            game = Game.from_dict(position)
            game.seed = None
        else:
            game = Game.deal(rules_for(variant, **options), seed=seed)
        session = Session(PlaySession(game, self.store, client=CLIENT, write_at="deal", game_id=new_id(), extra=extra))
        with self._lock:
            self._sessions[session.id] = session
        return session

    def get(self, game_id: str) -> Session | None:
        with self._lock:
            session = self._sessions.get(game_id)
        if session is not None:
            return session
        record = self.store.load_game(game_id)
        if record is None:
            return None
        session = self._from_record(record)
        with self._lock:
            return self._sessions.setdefault(game_id, session)

    def latest(self) -> Session | None:
        record = self.store.latest_unfinished(CLIENT)
        return None if record is None else self.get(record.id)

    def _from_record(self, record: GameRecord) -> Session:
        return Session(PlaySession.from_record(record, self.store, write_at="deal"))

    def save(self, session: Session) -> None:
        """Commit the session (and its clock); record a win. Returns once the write is durable."""
        session.core.save()

    def abandon(self, session: Session) -> None:
        """The player leaves the game for another: it counts as played and not won (lost if it was).

        A game left before any move is forgotten."""
        session.core.abandon()
        if not session.core.stored:
            with self._lock:
                self._sessions.pop(session.id, None)


__all__ = ["CLIENT", "IDLE_CAP", "GameOverError", "NothingToDoError", "Registry", "Session", "new_id"]
