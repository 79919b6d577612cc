"""One game being played in the browser, and the registry that loads and saves them.

A :class:`Session` is the shared :class:`yukon.session.PlaySession` (turns,
undo/redo, the clock, automatic plays, results and saving, written once for the
web and terminal games, with the same names) with the web game's options: client ``"web"``,
a game written to the store as soon as it is dealt (the page addresses games by
id), no change accepted once a result is recorded (:class:`GameOverError`), and
a store error let through, so a change is acknowledged only once it is written.
It adds what only the browser needs: the JSON state (only what the player can
see), a lock per game, and the game's :class:`~yukon.advisor.Advisor`.

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
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..advisor import Advisor
from ..autoplay import left_in_sentences, left_to_the_player
from ..cards import NAME
from ..demo import computer_moves
from ..errors import IllegalMoveError, YukonError
from ..game import Game
from ..notation import Move
from ..rules import Rules, rules_for
from ..session import IDLE_CAP, GameOverError, NothingToDoError, PlaySession, describe_move, move_text
from ..store import DamagedGameError, GameRecord, Store
from ..visible import hidden_in
from ..winnable_deals import shown_difficulty

if TYPE_CHECKING:
    from ..record import GameRecord as GameFile

CLIENT = "web"
#: At most this many games stay in memory; a game unused this many seconds is dropped (both reload from the store).
MAX_SESSIONS = 200
IDLE_SECONDS = 15 * 60.0
#: Seconds between two signs of life from a page on a game whose clock runs (clock.js beats this often), and
#: the gap beyond which the page counts as gone: its game's clock then counts nothing after the last sign of life
#: (a browser killed or crashed sends no "pause" as a closed tab does; its clock ran on until the page came back).
HEARTBEAT_SECONDS = 5.0
PAGE_GONE_SECONDS = 12.0


def new_id() -> str:
    return secrets.token_urlsafe(16)


def visible_position(game: Game) -> dict[str, Any]:
    """What a player sees of ``game``: never a face-down card nor the stock's order.

    A column gives its face-up cards and how many lie face down under them
    (``down_count``), the stock how many cards it holds (``stock_count``).
    """
    face_up = [c for _, up in game.columns for c in up] + list(game.waste)
    return {
        "tableau": [{"down_count": len(down), "up": [NAME[c] for c in up]} for down, up in game.columns],
        "foundations": [[NAME[c] for c in pile] for pile in game.foundations],
        "stock_count": len(game.stock),
        "waste": [NAME[c] for c in game.waste],
        "cards_on_foundations": game.cards_on_foundations,
        "face_down_count": game.face_down_count,
        # where a face-up card would go up now, by name: the index of the foundation pile (the engine's choice),
        # for the page to light up and aim at without knowing the rule. Face-up cards only: a card the player
        # has not seen is named nowhere, and only a face-up card moves
        "foundation_piles": {NAME[c]: p for c in face_up if (p := game.foundation_pile_for(c)) is not None},
        # what the player cannot see, in words (the page says what a solver's answer would show: "the stock's order")
        "unseen": hidden_in(game),
    }


def move_words(rules: Rules, moves: Iterable[Move | str]) -> dict[str, str]:
    """``{notation: words}`` for the moves an answer names, in the one wording the terminal game shares
    (:func:`yukon.session.describe_move`): the page shows these words and words no move itself. A move
    given as text is read (a move that does not read is a :class:`~yukon.YukonError`)."""
    words: dict[str, str] = {}
    for m in moves:
        move = m if isinstance(m, Move) else Move.from_text(m)
        words[move_text(move)] = describe_move(rules, move)
    return words


class ReplayError(YukonError):
    """A replay request that does not fit this game (a move number out of range, a continuation
    asked of a game in progress, a continuation move that is not legal there)."""


class Session(PlaySession):
    """A game in play in the browser: the shared play session with the web game's options, and its advisor.

    ``options`` are :class:`~yukon.session.PlaySession`'s; the web's defaults are client ``"web"`` and
    ``write_at="deal"``. ``advisor``: the solver's advice for this game (the server gives it a runner
    that puts the searches in its solver queue; by default they run in the calling thread)."""

    def __init__(self, game: Game, store: Store | None = None, *, advisor: Advisor | None = None,
                 **options: Any) -> None:
        options.setdefault("client", CLIENT)
        options.setdefault("write_at", "deal")
        # the game's clock stands still once the page has been silent too long (set before the session reads it)
        self._real_clock: Callable[[], float] = options.pop("clock", time.monotonic)
        #: the time of the last request on this game (a page's sign of life: see :meth:`seen`)
        self.last_seen = self._real_clock()
        super().__init__(game, store, clock=self._page_clock, **options)
        #: held while a request reads or changes this game: one change at a time, each saved before the next
        self.lock = threading.RLock()
        #: hints (honest or solver), "still winnable?" and the last winnable position (yukon.advisor)
        self.advisor = advisor or Advisor()
        #: the cards whose being left by automatic play a move's answer has explained (once per card and game,
        #: as the terminal game does: :meth:`held_back_note`)
        self.explained: set[int] = set()

    # ------------------------------------------------------------------ the page

    def _page_clock(self) -> float:
        """The clock the game's time is counted by: real time while a page shows signs of life, else stopped at
        the last one (time with no page open is not play; a gap that short is a page between two beats)."""
        now = self._real_clock()
        return now if now - self.last_seen <= PAGE_GONE_SECONDS else self.last_seen

    def seen(self) -> bool:
        """A request on this game: a sign of life from a page. After a silence longer than
        :data:`PAGE_GONE_SECONDS` the clock counts nothing of it and runs on from now; True then (the clock's
        value changed: the caller saves it)."""
        now = self._real_clock()
        gone = self.clock_running and now - self.last_seen > PAGE_GONE_SECONDS
        if gone:
            self.stop_clock()  # counts up to the last sign of life (the page clock stands there)
        self.last_seen = now
        if gone:
            self.start_clock()
        return gone

    def refusal(self, move: str) -> IllegalMoveError | None:
        """Why ``move`` (notation) may not be played now, or None when it may; plays nothing. Raises
        :class:`~yukon.InvalidMoveError` for text that is not a move, :class:`GameOverError` once the game is over."""
        self._check_open()
        try:  # (reading the move already refuses one that names a card not where it says)
            parsed = self.game.parse_move(move)
            if self.game.is_legal(parsed):
                return None
            self.game.push(parsed)  # raises, changing nothing: the error names the rule the move breaks
        except IllegalMoveError as exc:
            return exc
        raise AssertionError(f"{move!r} is refused by is_legal and played by push")  # pragma: no cover

    def held_back_note(self) -> dict[str, Any]:
        """Why automatic play leaves the cards it leaves now that no answer has explained yet: ``sentences``, one
        per reason, the cards left for the same reason named together (the terminal's words:
        :func:`~yukon.autoplay.left_in_sentences`), and ``cards``, how many they name. Those cards count as
        explained from then on (once per card and game, as the terminal game says it)."""
        fresh = {m.card for m, _ in left_to_the_player(self.game)} - self.explained
        self.explained |= fresh
        return {"sentences": left_in_sentences(self.game, fresh) if fresh else [], "cards": len(fresh)}

    def to_state(self, played: Sequence[Move] = (), undone: Sequence[Move] = ()) -> dict[str, Any]:
        """The JSON the API returns: what the player can see of the position, plus the game's state.

        Never a face-down card nor the stock's order: a column gives its face-up
        cards and how many lie face down under them (``down_count``), the stock
        how many cards it holds (``stock_count``). Everything the page needs
        to play (legal moves, the best place for each card, the moves to a
        foundation) comes from here, so the page knows no rule.
        """
        g = self.game
        r = g.rules
        legal = g.legal_moves()  # once: the status, the moves offered and the best places all read them
        status = self.status_of(legal)
        line = self.line_texts()
        playing = status == "playing" and not self.locked
        left = left_to_the_player(g) if playing else []
        return visible_position(g) | {
            "variant": r.variant,
            "rules": r.options(),
            "id": self.id,
            "seed": self.seed,
            "title": r.title,
            "description": r.describe(),
            "about": r.about,
            "build_in_words": r.build_in_words,
            "options_in_words": r.options_in_words,
            "layout": {
                "columns": r.columns, "foundations": r.foundations, "has_stock": r.has_stock,
                "has_waste": r.has_waste, "build": r.build, "stock": r.stock,
                "deal_down": list(r.deal_down), "deal_up": list(r.deal_up), "decks": r.decks,
            },
            "moves": line,
            "move_count": len(line),
            # the moves a table shows: the deal's automatic plays (an Ace straight up) are the deal's, not moves
            "moves_made": self.moves_made,
            "dealt": self.dealt,
            "legal_moves": [move_text(m) for m in legal] if playing else [],
            "best_moves": {k: move_text(m) for k, m in self.best_moves(legal).items()} if playing else {},
            "foundation_moves": {k: move_text(m) for k, m in self.foundation_moves(legal).items()} if playing else {},
            # the plays up that automatic play leaves: while the Milligan stock lasts (a deal may put a card on
            # it), or as the tableau may still need the card (an Ace in Alaska, where a 2 may go on it). The page
            # says why once per card, as the terminal game does, rather than seem to forget them; the reasons come
            # from here in words, the terminal's words (the page knows no rule)
            "held_back": [move_text(m) for m, _ in left],
            "held_back_why": {move_text(m): why for m, why in left},
            "can_undo": self.can_undo,
            "can_redo": self.can_redo,
            "status": status,
            "result": self.result,
            "player_moved": self.player_moved,
            "elapsed": round(self.elapsed, 3),
            "clock_running": self.clock_running,
            "card_count": r.card_count,
            "numbering": g.numbering,
            "played": [move_text(m) for m in played],
            # the undone moves may name cards that lie face down again: their number, and the earliest alone (the
            # position is the one before it, where its card lay face up)
            "undone_count": len(undone),
            "undone_first": move_text(undone[-1]) if undone else None,
            # the moves this answer names, in words (the page words no move itself)
            "words": move_words(r, [*played, *undone[-1:]]),
            "deal_note": self.extra.get("deal_note"),
            # the deal's grade only where it tells nothing new: a deal dealt as winnable, or a game over
            "difficulty": shown_difficulty(r, self.seed, g.numbering,
                                           told_winnable=self.extra.get("deal_winnable") == "won",
                                           over=status != "playing" or self.result is not None),
            # moves the computer chose ("watch the computer play"): the game is not counted in the statistics
            "computer_moves": computer_moves(self.extra),
        }


    def replay_state(self, at: int, then: Sequence[str] = ()) -> dict[str, Any]:
        """The position after the first ``at`` moves of the game's line, as the player saw it (the same
        view as :meth:`to_state`); changes nothing.

        ``then``: moves (notation) played on from there, e.g. the analysis's winning continuation;
        only once the game is over, as they turn up cards the player has not seen.
        Raises :class:`ReplayError` (a :class:`~yukon.YukonError`) for a request that does not fit.
        """
        line = self.game.move_stack
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= len(line):
            raise ReplayError(f"'at' is a move number from 0 to {len(line)} for this game, not {at!r}")
        if then and self.result is None:
            raise ReplayError("a continuation is replayed once the game is over: it turns up face-down cards")
        game = self.start.copy()
        for move in line[:at]:
            game.push(move)
        played: list[str] = []
        for k, text in enumerate(then, 1):
            try:
                move = Move.from_text(text)
                game.push(move)
            except YukonError as exc:
                raise ReplayError(f"continuation move {k} ({text!r}) does not play here: {exc}") from None
            played.append(str(move))
        return visible_position(game) | {
            "id": self.id, "at": at, "move_count": len(line), "moves": [str(m) for m in line],
            "then": played, "status": "won" if game.is_won() else "lost" if game.is_lost() else "playing",
            # the line's next move in words (the replay's "Next"; a continuation's are the analysis's)
            "words": move_words(game.rules, line[at:at + 1] if not then else []),
            "card_count": self.game.rules.card_count, "result": self.result,
        }

    def resign(self) -> str:
        """End the game now, not won: ``"lost"`` at a dead end, else ``"abandoned"``; return the result recorded.

        The player's own decision, so it counts as played even if only records' or automatic moves
        were made; a finished game answers :class:`GameOverError`."""
        if self.result is not None:
            raise GameOverError(f"this game is over already ({self.result})")
        with self.atomic():
            self.player_moved = True
            result = self.abandon()
        if result is None:
            raise GameOverError("the game could not be ended just now: try again")
        return result


class Registry:
    """Live sessions by id, loaded from the store on first use (so games survive a restart and an eviction).

    Every change is saved before it is acknowledged, so a session can be dropped at any time it is
    not in use and read back from the store when asked for again: at most ``max_sessions`` stay in
    memory (the least recently used go first), and none longer than ``idle_seconds`` unused.
    """

    def __init__(self, store: Store, *, max_sessions: int = MAX_SESSIONS, idle_seconds: float = IDLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic,
                 advisor: Callable[[str], Advisor] | None = None) -> None:
        """``advisor(game_id)``: the advisor of a game (default: one whose searches run in the caller's thread)."""
        self.store = store
        self.advisor = advisor or (lambda game_id: Advisor())
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds
        self._clock = clock
        self._sessions: OrderedDict[str, Session] = OrderedDict()  # least recently used first
        self._last_used: dict[str, float] = {}
        self._in_use: dict[str, int] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)

    def sessions(self) -> list[Session]:
        """The sessions in memory now."""
        with self._lock:
            return list(self._sessions.values())

    def new_game(
        self, variant: str, options: dict[str, Any], seed: int | None = None,
        position: dict[str, Any] | None = None, extra: dict[str, Any] | None = None, numbering: str = "yukon",
        browser: str | None = None,
    ) -> Session:
        """Deal (or set up ``position``), record it in the store, and return the session.

        ``numbering``: what the deal number means (``yukon`` or ``pysolfc``, :mod:`yukon.pysolfc`);
        the session keeps it in the saved game's ``extra``. ``browser``: the browser that asked for it
        (recorded with the game, see :meth:`latest`)."""
        if position is not None:
            game = Game.from_dict(position)
            game.seed = None
        else:
            game = Game.deal(rules_for(variant, **options), seed=seed, numbering=numbering)
        game_id = new_id()
        session = Session(game, self.store, game_id=game_id, extra=extra, advisor=self.advisor(game_id),
                          browser=browser, clock=self._clock)
        with self._lock:
            self._keep(session)
        return session

    def import_record(self, record: GameFile, browser: str | None = None) -> Session:
        """A new game continuing a game record (:mod:`yukon.record`), recorded in the store (with
        ``browser``, the browser that asked for it)."""
        game_id = new_id()
        # (the deal's automatic plays it opens with stay the deal's: "Play on from here" counted them as moves)
        session = Session.from_game_record(record, self.store, keep_opening=True, game_id=game_id,
                                           advisor=self.advisor(game_id), browser=browser, clock=self._clock)
        with self._lock:
            self._keep(session)
        return session

    def _keep(self, session: Session) -> None:
        self._sessions[session.id] = session
        self._sessions.move_to_end(session.id)
        self._last_used[session.id] = self._clock()
        self._evict()

    def _evict(self) -> None:
        """Drop the sessions unused for too long, then the least recently used beyond the cap (never one in use)."""
        now = self._clock()
        excess = len(self._sessions) - self.max_sessions
        for gid in list(self._sessions):
            if self._in_use.get(gid):
                continue
            if excess > 0 or now - self._last_used.get(gid, now) > self.idle_seconds:
                del self._sessions[gid]
                self._last_used.pop(gid, None)
                excess -= 1
            elif excess <= 0:
                break  # the rest were used more recently

    def get(self, game_id: str) -> Session | None:
        """The session of ``game_id`` (loaded from the store if needed), or None.

        Raises :class:`~yukon.store.DamagedGameError` for a saved game that cannot be restored
        (it is set aside in the store)."""
        with self._lock:
            session = self._sessions.get(game_id)
            if session is not None:
                self._sessions.move_to_end(game_id)
                self._last_used[game_id] = self._clock()
                return session
        record = self.store.load_game(game_id)
        if record is None:
            return None
        session = self._from_record(record)
        with self._lock:
            kept = self._sessions.get(game_id)
            if kept is not None:
                return kept
            self._keep(session)
            return session

    @contextmanager
    def use(self, game_id: str) -> Iterator[Session | None]:
        """The session of ``game_id`` (as :meth:`get`), kept in memory while the block runs."""
        with self._lock:
            self._in_use[game_id] = self._in_use.get(game_id, 0) + 1
        try:
            yield self.get(game_id)
        finally:
            with self._lock:
                left = self._in_use[game_id] - 1
                if left:
                    self._in_use[game_id] = left
                else:
                    del self._in_use[game_id]
                if game_id in self._sessions:
                    self._last_used[game_id] = self._clock()
                self._evict()

    def latest(self, browser: str | None = None) -> Session | None:
        """The most recently played unfinished web game that can be restored (damaged ones are set aside);
        with ``browser``, only one that this browser started (None: any browser's)."""
        for record in self.store.unfinished(CLIENT, browser=browser):
            try:
                session = self.get(record.id)
            except DamagedGameError:
                continue
            if session is not None:
                return session
        return None

    def _from_record(self, record: GameRecord) -> Session:
        if record.damaged is not None:
            raise DamagedGameError(record.id, record.damaged)
        try:
            return Session.from_record(record, self.store, advisor=self.advisor(record.id), clock=self._clock)
        except (YukonError, ValueError, TypeError, KeyError, RecursionError) as exc:
            reason = f"it no longer replays ({exc})"
            self.store.set_aside(record.id, reason)
            raise DamagedGameError(record.id, reason) from None

    def save(self, session: Session) -> None:
        """Commit the session (and its clock); record a win. Returns once the write is durable."""
        session.save()

    def abandon(self, session: Session) -> None:
        """The player leaves the game for another: it counts as played and not won (lost if it was).

        A game left before any move is forgotten."""
        session.abandon()
        if not session.stored:
            with self._lock:
                self._sessions.pop(session.id, None)
                self._last_used.pop(session.id, None)


__all__ = [
    "CLIENT", "IDLE_CAP", "IDLE_SECONDS", "MAX_SESSIONS", "GameOverError", "NothingToDoError", "Registry",
    "ReplayError", "Session", "new_id", "visible_position",
]
