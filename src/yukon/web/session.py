"""One game being played in the browser, and the registry that loads and saves them.

A :class:`Session` holds the live :class:`~yukon.Game` (with its history),
the redo list, the clock and the result. Moves are grouped into *turns*: a
player's move together with the automatic plays it triggered; undo and redo
work a turn at a time, so an undone move does not get played straight back
by the automatic play. Every change is written to the :class:`~yukon.store.Store`
before the caller replies (``save``), so a crash loses nothing acknowledged.

The store keeps the moves as notation (``moves``), the redo list with the
next move to redo first (``redo``), the elapsed seconds, and in ``extra`` the
turn sizes (``groups``, ``redo_groups``) and a few notes.

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
import time
from collections.abc import Sequence
from typing import Any

from ..autoplay import finish_moves, is_certain_win, next_safe_move
from ..errors import IllegalMoveError
from ..game import Game
from ..notation import Move
from ..rules import Rules, rules_for
from ..store import GameRecord, Store
from .solving import Lines

CLIENT = "web"
#: The clock never counts more than this many seconds between two actions
#: (a tab left open overnight does not ruin the best time).
IDLE_CAP = 15 * 60.0
#: Safety bound on automatic plays after one move.
_MAX_AUTO = 2 * 52 * 2


class GameOverError(Exception):
    """The game is finished (won, lost or abandoned) and takes no more moves."""


class NothingToDoError(Exception):
    """Undo with no move played, redo with nothing undone."""


def new_id() -> str:
    return secrets.token_urlsafe(16)


class Session:
    """A game in play: position, history in turns, redo list, clock, result."""

    def __init__(
        self, game_id: str, game: Game, start: dict[str, Any], *, seed: int | None,
        elapsed: float = 0.0, result: str | None = None, extra: dict[str, Any] | None = None,
    ) -> None:
        self.id = game_id
        self.game = game
        self.start = start
        self.seed = seed
        self.groups: list[int] = []
        self.redo_moves: list[Move] = []  # the next move to redo first
        self.redo_groups: list[int] = []  # sizes of the redo turns, the next first
        self.elapsed = elapsed
        self.clock_since: float | None = None  # time.monotonic() when the clock started running
        self.last_action = time.monotonic()
        self.result = result
        self.extra: dict[str, Any] = dict(extra or {})
        #: position text -> "won" / "lost": what the solver proved about positions of this game
        self.proven: dict[str, str] = {}
        #: winning lines the solver found, for instant hints along them
        self.lines = Lines()
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
    def rules(self) -> Rules:
        return self.game.rules

    @property
    def moves(self) -> list[Move]:
        return self.game.move_stack

    @property
    def can_undo(self) -> bool:
        return self.result is None and bool(self.groups)

    @property
    def can_redo(self) -> bool:
        return self.result is None and bool(self.redo_moves)

    @property
    def status(self) -> str:
        """``won``, ``lost`` (no legal move), ``abandoned`` or ``playing``."""
        if self.result == "abandoned":
            return "abandoned"
        if self.game.is_won():
            return "won"
        if not self.game.has_legal_move():
            return "lost"
        return "playing"

    def elapsed_now(self) -> float:
        if self.clock_since is None:
            return self.elapsed
        return self.elapsed + min(time.monotonic() - self.clock_since, IDLE_CAP)

    # ------------------------------------------------------------------ clock

    def _tick(self) -> None:
        """Account for the time since the last action (capped), keeping the clock running."""
        now = time.monotonic()
        if self.clock_since is not None:
            self.elapsed += min(now - self.clock_since, IDLE_CAP)
            self.clock_since = now
        self.last_action = now

    def start_clock(self) -> None:
        if self.result is None and self.clock_since is None and not self.game.is_won():
            self.clock_since = time.monotonic()

    def stop_clock(self) -> None:
        self._tick()
        self.clock_since = None

    # ------------------------------------------------------------------ changes

    def _check_open(self) -> None:
        if self.result is not None:
            raise GameOverError(f"this game is over ({self.result}); start a new one")

    def auto_moves(self, autoplay: bool, autofinish: bool) -> list[Move]:
        """Play the automatic moves the player asked for; return them."""
        g = self.game
        played: list[Move] = []
        while len(played) < _MAX_AUTO and not g.is_won():
            if autofinish and is_certain_win(g):
                for m in finish_moves(g):
                    g.push(m)
                    played.append(m)
                break
            m = next_safe_move(g) if autoplay else None
            if m is None:
                break
            g.push(m)
            played.append(m)
        return played

    def play(self, text: str, *, autoplay: bool = False, autofinish: bool = False) -> list[Move]:
        """Play a move given as notation, then the automatic plays; return every move played.

        Raises :class:`~yukon.InvalidMoveError` / :class:`~yukon.IllegalMoveError`
        (changing nothing), or :class:`GameOverError`.
        """
        self._check_open()
        move = self.game.parse_move(text)
        self._tick()
        self.start_clock()
        self.game.push(move)
        played = [move, *self.auto_moves(autoplay, autofinish)]
        self.groups.append(len(played))
        self.redo_moves.clear()
        self.redo_groups.clear()
        self._after_change()
        return played

    def play_auto(self, *, autoplay: bool, autofinish: bool) -> list[Move]:
        """Only the automatic plays (e.g. after a new deal, or when the player switches autoplay on)."""
        self._check_open()
        played = self.auto_moves(autoplay, autofinish)
        if played:
            self._tick()
            self.start_clock()
            self.groups.append(len(played))
            self.redo_moves.clear()
            self.redo_groups.clear()
            self._after_change()
        return played

    def undo(self, to: int | None = None) -> list[Move]:
        """Undo the last turn, or back to ``to`` moves played; return the moves undone (last first)."""
        self._check_open()
        n = len(self.game.move_stack)
        if to is None:
            if not self.groups:
                raise NothingToDoError("nothing to undo")
            to = n - self.groups[-1]
        if not 0 <= to <= n:
            raise ValueError(f"'to' must be between 0 and {n} (the moves played), not {to}")
        if to == n:
            raise NothingToDoError("nothing to undo: that many moves are played already")
        self._tick()
        undone: list[Move] = []
        while len(self.game.move_stack) > to:
            size = self.groups.pop()
            keep = max(0, size - (len(self.game.move_stack) - to))
            turn = [self.game.pop() for _ in range(size - keep)]
            turn.reverse()
            if keep:
                self.groups.append(keep)
            self.redo_moves[:0] = turn
            self.redo_groups.insert(0, len(turn))
            undone.extend(reversed(turn))
        self._after_change()
        return undone

    def redo(self) -> list[Move]:
        """Play the next undone turn again; return its moves."""
        self._check_open()
        if not self.redo_moves:
            raise NothingToDoError("nothing to redo")
        size = self.redo_groups[0]
        turn = self.redo_moves[:size]
        done = 0
        try:
            for m in turn:
                self.game.push(m)
                done += 1
        except IllegalMoveError:  # pragma: no cover - the redo list follows the history
            for _ in range(done):
                self.game.pop()
            raise
        self._tick()
        self.start_clock()
        del self.redo_groups[0]
        del self.redo_moves[:size]
        self.groups.append(size)
        self._after_change()
        return turn

    def restart(self) -> list[Move]:
        """Back to the deal; every move can be redone."""
        self._check_open()
        if not self.game.move_stack:
            raise NothingToDoError("nothing to restart: no move played yet")
        return self.undo(0)

    def _after_change(self) -> None:
        if self.game.is_won():
            self.stop_clock()

    # ------------------------------------------------------------------ persistence

    def store_extra(self) -> dict[str, Any]:
        extra = dict(self.extra)
        extra["groups"] = list(self.groups)
        extra["redo_groups"] = list(self.redo_groups)
        return extra

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
            clock_running=self.clock_since is not None,
            cards_on_foundations=g.cards_on_foundations,
            card_count=r.card_count,
            played=[str(m) for m in played],
            undone=[str(m) for m in undone],
            deal_note=self.extra.get("deal_note"),
        )
        return state


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
            seed = None
        else:
            game = Game.deal(rules_for(variant, **options), seed=seed)
            seed = game.seed
        start = game.to_dict()
        gid = new_id()
        session = Session(gid, game, start, seed=seed, extra=extra)
        self.store.create_game(
            gid, game.rules.variant, game.rules.options(), seed, start, CLIENT, session.store_extra(),
        )
        with self._lock:
            self._sessions[gid] = session
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

    @staticmethod
    def _from_record(record: GameRecord) -> Session:
        game = Game.from_dict(record.start)
        game.seed = record.seed
        session = Session(
            record.id, game, record.start, seed=record.seed, elapsed=record.elapsed,
            result=record.result, extra=record.extra,
        )
        game.replay(record.moves)
        groups = [int(n) for n in record.extra.get("groups", [])]
        if sum(groups) != len(record.moves) or any(n < 1 for n in groups):
            groups = [1] * len(record.moves)  # written by another client: one move per turn
        session.groups = groups
        redo = [Move.from_text(t) for t in record.redo]
        redo_groups = [int(n) for n in record.extra.get("redo_groups", [])]
        if sum(redo_groups) != len(redo) or any(n < 1 for n in redo_groups):
            redo_groups = [1] * len(redo)
        session.redo_moves, session.redo_groups = redo, redo_groups
        for key in ("groups", "redo_groups"):
            session.extra.pop(key, None)
        return session

    def save(self, session: Session) -> None:
        """Commit the session's moves; record a win. Returns once the write is durable."""
        self.store.update_game(
            session.id, [str(m) for m in session.moves], [str(m) for m in session.redo_moves],
            session.elapsed_now(), session.store_extra(),
        )
        if session.result is None and session.game.is_won():
            session.result = "won"
            self.store.finish_game(session.id, "won", len(session.moves), session.elapsed_now())

    def abandon(self, session: Session) -> None:
        """The player leaves an unfinished game: it counts as played and not won (lost if it was)."""
        if session.result is not None or not (session.moves or session.redo_moves):
            return
        session.stop_clock()
        result = "lost" if session.status == "lost" else "abandoned"
        self.save(session)
        session.result = result
        self.store.finish_game(session.id, result, len(session.moves), session.elapsed)
