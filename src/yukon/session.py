"""One game being played, without any user interface: the logic the web and terminal games share.

A :class:`PlaySession` holds the live :class:`~yukon.Game` (with its history),
the turns, the redo list, the clock and the result, and keeps the game's record
in the shared :class:`~yukon.store.Store`. The browser game's and the terminal
game's sessions (:mod:`yukon.web.session`, :mod:`yukon.tui.session`) are
subclasses that only choose options and add what their client alone needs, so
every rule below is written once, with one name for each thing:

- **Turns.** A turn is the player's move together with the automatic plays it
  triggered (safe cards to the foundations, :mod:`yukon.autoplay`, and the
  auto-finish of a certain win). Undo and redo work a turn at a time, so an
  undone move is not played straight back by the automatic play. A new turn
  clears the redo list, unless it is exactly the next turn to redo (then it
  *is* the redo, and the rest of the list stays).
- **The player's own moves.** A game becomes the player's at their first own
  action (a move, undo, redo or restart: :attr:`PlaySession.player_moved`);
  the automatic plays at the deal are not one.
  Before that the game counts for nothing and its clock does not run.
- **The deal's automatic plays** (:meth:`PlaySession.play_opening`: an Ace dealt face up
  goes straight up when automatic play is on) belong to the deal, as in a card table's
  dealing: they are not a turn, undo and restart stop after them, and they are not
  counted among the moves a table shows (:attr:`PlaySession.moves_made`). They stay in
  the game's line (:attr:`PlaySession.moves`), which replays from the deal, and their
  number is saved with it (``dealt`` in ``extra``); a record the web table imports that
  opens with them (:func:`opening_plays`) keeps them the deal's.
- **Clock.** It starts at the player's first own move, stops when the game ends (won, or no
  legal move left; an undo out of that dead end lets it run again), and between two
  actions counts at most :data:`IDLE_CAP` seconds (a game left open overnight
  does not ruin the best time).
- **Results.** A game is recorded ``"won"`` as soon as it is won. When the
  player leaves it for another game (:meth:`PlaySession.abandon`) it is
  recorded ``"lost"`` if no legal move was left, else ``"abandoned"``; a game
  left before the player's first own move (the automatic plays at the deal do
  not count) leaves no trace: its record, if it was written, is deleted. Undo stays possible at a dead end.
- **Saving.** After every turn, undo, redo and restart the game is written to
  the store (client name ``client``): the moves as notation, the redo list
  with the next move to redo first, the elapsed seconds, and in ``extra`` the
  turn sizes (``groups``, ``redo_groups``) next to the caller's own notes.
  ``write_at`` says when a new game is first written: ``"deal"`` (at once: the
  web game, whose page addresses games by id) or ``"first_move"`` (a deal only
  looked at costs nothing: the terminal game). A change is applied only if it is
  saved: when the write fails (a locked database, a full disk), the session is put
  back as it was before the change and the error is raised (:meth:`PlaySession.atomic`);
  the moves and a result reached by them are written in one transaction.

Two choices stay with the caller: ``lock_when_over`` (the web game refuses
every change once a result is recorded; the terminal game still lets the
player undo a won game, whose result stays recorded) and
``tolerate_store_errors`` (the terminal game keeps playing when the store
cannot be written and says so in :attr:`PlaySession.store_error`; the web game
lets the error through, so nothing unsaved is ever acknowledged).

>>> from yukon import Game
>>> from yukon.store import Store
>>> store = Store(":memory:")
>>> s = PlaySession(Game.from_text("yukon,kings,noreturn KS/KC.QC/-/-/-/-/- QS/KH/KD/JC"), store,
...                 client="doc", autoplay=True)
>>> [str(m) for m in s.play("1:KS>F")]   # then QC and KC are safe to go up
['1:KS>F', '2:QC>F', '2:KC>F']
>>> s.status, s.result, s.turns, store.stats()[0].won
('won', 'won', [3], 1)
"""

from __future__ import annotations

import sqlite3
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, Self

from .autoplay import finish_moves, is_certain_win, next_safe_move
from .cards import RANKS, SUIT_SYMBOLS, SUITS, card_long_name, parse_card
from .errors import IllegalMoveError
from .game import Game
from .notation import FOUNDATION, STOCK, WASTE, Move
from .pysolfc import NUMBERINGS
from .rules import Rules
from .store import GameRecord, Store

if TYPE_CHECKING:
    from .record import GameRecord as GameFile

#: The clock never counts more than this many seconds between two actions.
IDLE_CAP = 15 * 60.0
#: Safety bound on the automatic plays after one move.
MAX_AUTO = 2 * 52 * 2

WriteAt = Literal["deal", "first_move"]


class GameOverError(Exception):
    """The game is finished (won, lost or abandoned) and takes no more changes."""


class NothingToDoError(Exception):
    """Undo with no move played, redo with nothing undone, restart at the deal."""


def new_id() -> str:
    """A fresh game id for the store."""
    return uuid.uuid4().hex


@lru_cache(maxsize=4096)
def move_text(move: Move) -> str:
    """``str(move)``, remembered (the recent ones: at most a megabyte): an answer of a user interface
    writes out a dozen moves or more, and a move's text takes a microsecond to build."""
    return str(move)


def describe_move(rules: Rules, move: Move, name: Callable[[int], str] = card_long_name) -> str:
    """A move in a player's words, the one wording of the web table and the terminal game (a move played,
    undone or redone, a hint, the computer's move, the replay's next move): the card, with the cards on it,
    where it comes from and where it goes. What a move is, not that it happened (a hint names it too): the
    caller starts a sentence with a capital. ``name`` names the card: as a screen reader says it (the web
    table's), or as the terminal draws it (``yukon.cards.PRETTY``, "Q♥": a status line of 80 columns holds
    a hint's words and its odds then).

    >>> from yukon import Game
    >>> rules = Game.deal("yukon", seed=1).rules
    >>> describe_move(rules, Move.from_text("2:QH+3>5"))
    'queen of hearts and 3 cards on it from column 2 to column 5'
    >>> describe_move(rules, Move.from_text("4:AH>F")), describe_move(rules, Move.from_text("F:5S>3"))
    ('ace of hearts from column 4 to its foundation', 'five of spades from its foundation to column 3')
    >>> from yukon.cards import PRETTY
    >>> describe_move(rules, Move.from_text("2:QH+3>5"), PRETTY.__getitem__)
    'Q♥ and 3 cards on it from column 2 to column 5'
    """
    if move.src == STOCK:
        return "deal from the stock" if rules.has_waste else "deal a row from the stock"
    card = name(move.card)
    if move.count > 1:
        card += f" and {move.count - 1} card{'s' if move.count > 2 else ''} on it"
    src = {WASTE: "the waste", FOUNDATION: "its foundation"}.get(move.src, f"column {move.src + 1}")
    dst = "its foundation" if move.dst == FOUNDATION else f"column {move.dst + 1}"
    return f"{card} from {src} to {dst}"


def _sizes(stored: Any, total: int) -> list[int]:
    """Turn sizes read from a record, or one move per turn when they do not fit (another client wrote it)."""
    try:
        sizes = [int(n) for n in stored or []]
    except (TypeError, ValueError):
        sizes = []
    if sum(sizes) != total or any(n < 1 for n in sizes):
        return [1] * total
    return sizes


class PlaySession:
    """A game in play: position, history in turns, redo list, clock, result and its record in the store."""

    def __init__(
        self,
        game: Game,
        store: Store | None = None,
        *,
        client: str,
        write_at: WriteAt = "first_move",
        game_id: str | None = None,
        autoplay: bool = False,
        autofinish: bool = False,
        lock_when_over: bool = True,
        tolerate_store_errors: bool = False,
        clock: Callable[[], float] = time.monotonic,
        extra: dict[str, Any] | None = None,
        record: GameRecord | None = None,
        browser: str | None = None,
    ) -> None:
        """Play ``game`` (its position; its history is not kept), or resume ``record`` (``game`` is then
        its start position). A new game is written at once when ``write_at == "deal"``. ``browser``: the
        browser that started a web game, written with it (the server resumes a browser's own games)."""
        self.store = store
        self.client = client
        self.browser = browser
        self.write_at: WriteAt = write_at
        self.lock_when_over = lock_when_over
        self.tolerate_store_errors = tolerate_store_errors
        #: Default automatic plays after a move (each call may override them).
        self.autoplay = autoplay
        self.autofinish = autofinish
        self._clock = clock
        self.start = game.copy()
        self.game = game.copy()
        self.id: str = game_id or new_id()
        #: Is the game in the store (written, and not deleted since)?
        self.stored = False
        #: Sizes of the turns played, oldest first.
        self.turns: list[int] = []
        #: The undone turns, the next one to redo first.
        self.undone: list[list[Move]] = []
        self.result: str | None = None
        #: The caller's notes kept in the record's ``extra`` (besides the turn sizes).
        self.extra: dict[str, Any] = dict(extra or {})
        if game.numbering != "yukon":  # the store keeps only the deal number: its numbering goes here
            self.extra["numbering"] = game.numbering
        #: The last problem writing to the store (None when the last write worked).
        self.store_error: str | None = None
        #: Has the player made a move of their own (not only the automatic plays at the deal)?
        self.player_moved = False
        #: How many moves at the start of the line are the deal's automatic plays (:meth:`play_opening`).
        self.dealt = 0
        self._elapsed_before = 0.0  # seconds counted up to self._since
        self._since: float | None = None  # the clock runs since then (None: stopped)
        self._atomic_depth = 0
        self._line: list[Move] = []  # the moves of the last line_texts(), and their texts
        self._line_texts: list[str] = []
        if record is not None:
            self._restore(record)
        elif write_at == "deal" and store is not None:
            self._guarded(self._write, "could not save the game")

    @classmethod
    def from_record(cls, record: GameRecord, store: Store | None, **options: Any) -> Self:
        """The game of ``record``, where it was left; raises :class:`~yukon.YukonError` if it no longer replays.

        ``options`` are the constructor's (``client`` defaults to the record's)."""
        game = Game.from_dict(record.start)
        game.seed = record.seed
        numbering = record.extra.get("numbering", "yukon")
        game.numbering = numbering if numbering in NUMBERINGS else "yukon"
        options.setdefault("client", record.client)
        return cls(game, store, record=record, **options)

    @classmethod
    def from_game_record(
        cls, record: GameFile, store: Store | None, *, keep_opening: bool = False, **options: Any,
    ) -> Self:
        """A new game that continues an imported game record (:mod:`yukon.record`): its start, its
        moves played (one turn each, so undo steps back through them), its clock. ``options`` are the
        constructor's; ``extra["imported"]`` marks it in the store. ``keep_opening``: moves that open the
        record with exactly the deal's automatic plays (:func:`opening_plays`) are the deal's here too, as
        in the game played (the web table's imports)."""
        options["extra"] = {**options.get("extra", {}), "imported": True}
        session = cls(record.start, store, **options)
        opening = opening_plays(record.start) if keep_opening else []
        # (a record keeps no count of them: "Play on from here" made the deal's Ace a move to count and undo)
        session.dealt = len(opening) if list(record.moves[:len(opening)]) == opening else 0
        for n, move in enumerate(record.moves):
            session.game.push(move)
            if n >= session.dealt:
                session.turns.append(1)
        session._elapsed_before = float(record.time or 0.0)
        if record.moves:
            session.save()
        return session

    def _restore(self, record: GameRecord) -> None:
        self.game.replay(record.moves)
        dealt = record.extra.get("dealt", 0)
        # a damaged count is read as none: every move is then the player's, and undoable, as before the count existed
        self.dealt = dealt if type(dealt) is int and 0 <= dealt <= len(record.moves) else 0
        self.turns = _sizes(record.extra.get("groups"), len(record.moves) - self.dealt)
        redo = [Move.from_text(t) for t in record.redo]
        probe = self.game.copy()
        pos = 0
        try:
            for n in _sizes(record.extra.get("redo_groups"), len(redo)):
                turn = redo[pos:pos + n]
                pos += n
                for m in turn:
                    probe.push(m)
                self.undone.append(turn)
        except IllegalMoveError:
            pass  # a stale redo list is dropped from the first turn that no longer fits
        self.extra = {k: v for k, v in record.extra.items()
                      if k not in ("groups", "redo_groups", "player_moved", "dealt")}
        # records written before the flag existed: any move counts, as it did then
        self.player_moved = bool(record.extra.get("player_moved", record.moves or record.redo))
        self.id = record.id
        self.stored = True
        self.result = record.result
        self._elapsed_before = float(record.elapsed)

    # ------------------------------------------------------------------ reading

    @property
    def seed(self) -> int | None:
        return self.start.seed

    def to_record(self, date: str | None = None) -> GameFile:
        """The game as a game record (:mod:`yukon.record`) to export: the start, the moves played (not
        the redo list), the deal number, the clock, ``date`` (default: now) and the result where the
        moves bear it out (a won game undone since is exported without one)."""
        from datetime import UTC, datetime

        from .record import DealNumber
        from .record import GameRecord as GameFile

        result = self.result
        if (result == "won") != self.game.is_won() or (result == "lost" and not self.game.is_lost()):
            result = None
        seed = self.start.seed
        return GameFile.from_parts(
            self.start, self.game.move_stack,
            deal=DealNumber(seed, self.start.numbering) if seed is not None else None,
            date=date or datetime.now(UTC).isoformat(timespec="seconds"),
            result=result, time=round(self.elapsed, 3),
        )

    @property
    def moves(self) -> list[Move]:
        """The moves played, oldest first."""
        return self.game.move_stack

    def line_texts(self) -> list[str]:
        """The moves played in notation, oldest first (a fresh list). Every save and every answer
        writes out the whole line: only the moves new since the last call are written out here."""
        line = self.game.move_stack
        known = len(self._line)
        if known > len(line) or line[:known] != self._line:  # undone, or another line: start again
            self._line, self._line_texts, known = [], [], 0
        self._line_texts += [move_text(m) for m in line[known:]]
        self._line = line
        return list(self._line_texts)

    @property
    def move_count(self) -> int:
        """The moves in the line, the deal's automatic plays included (what a client quotes back to say
        which position it saw)."""
        return len(self.game.move_stack)

    @property
    def moves_made(self) -> int:
        """The moves played since the deal, its automatic plays not counted: the count a table shows."""
        return len(self.game.move_stack) - self.dealt

    @property
    def redo_moves(self) -> list[Move]:
        """The undone moves in play order, the next to redo first."""
        return [m for turn in self.undone for m in turn]

    @property
    def redo_sizes(self) -> list[int]:
        """Sizes of the undone turns, the next first."""
        return [len(turn) for turn in self.undone]

    @property
    def in_progress(self) -> bool:
        """The player made a move of their own and there is no result yet."""
        return self.result is None and self.player_moved

    @property
    def locked(self) -> bool:
        """No more changes: a result is recorded and ``lock_when_over`` is set."""
        return self.lock_when_over and self.result is not None

    @property
    def can_undo(self) -> bool:
        return not self.locked and bool(self.turns)

    @property
    def can_redo(self) -> bool:
        return not self.locked and bool(self.undone)

    @property
    def status(self) -> str:
        """``won``, ``lost`` (no legal move left), ``abandoned`` or ``playing``."""
        return self.status_of(None)

    def status_of(self, legal: Sequence[Move] | None) -> str:
        """:attr:`status`, given the position's legal moves when the caller has them already (None: not)."""
        if self.result == "abandoned":
            return "abandoned"
        if self.game.is_won():
            return "won"
        if not legal and self.game.is_lost():  # a legal move in hand says it is not lost
            return "lost"
        return "playing"

    # ------------------------------------------------------------------ clock

    @property
    def elapsed(self) -> float:
        """Seconds of play: from the first move, idle gaps capped, stopped at the end (won or lost)."""
        if self._since is None:
            return self._elapsed_before
        return self._elapsed_before + min(max(0.0, self._clock() - self._since), IDLE_CAP)

    @property
    def clock_running(self) -> bool:
        return self._since is not None

    def _tick(self) -> None:
        """An action: count the time since the last one (capped), keep the clock running."""
        if self._since is not None:
            now = self._clock()
            self._elapsed_before += min(max(0.0, now - self._since), IDLE_CAP)
            self._since = now

    def start_clock(self) -> None:
        """Let the clock run (if the game is open and it is not running already)."""
        if self.result is None and self._since is None and not self.game.is_over():
            self._since = self._clock()

    def stop_clock(self) -> None:
        self._tick()
        self._since = None

    # ------------------------------------------------------------------ playing

    def _check_open(self) -> None:
        if self.locked:
            raise GameOverError(f"this game is over ({self.result}); start a new one")

    def auto_moves(self, autoplay: bool | None = None, autofinish: bool | None = None) -> list[Move]:
        """Play the automatic moves (not as a turn of their own); return them."""
        autoplay = self.autoplay if autoplay is None else autoplay
        autofinish = self.autofinish if autofinish is None else autofinish
        g = self.game
        played: list[Move] = []
        while len(played) < MAX_AUTO and not g.is_won():
            if autofinish and is_certain_win(g):
                for finishing in finish_moves(g):
                    g.push(finishing)
                    played.append(finishing)
                break
            safe = next_safe_move(g) if autoplay else None
            if safe is None:
                break
            g.push(safe)
            played.append(safe)
        return played

    def play(self, move: Move | str, *, autoplay: bool | None = None, autofinish: bool | None = None) -> list[Move]:
        """Play the player's move (a move or its notation), then the automatic plays, as one turn.

        Returns every move played. Raises :class:`~yukon.InvalidMoveError` /
        :class:`~yukon.IllegalMoveError` (changing nothing), or :class:`GameOverError`.
        """
        self._check_open()
        if isinstance(move, str):
            move = self.game.parse_move(move)
        with self.atomic():
            self.game.push(move)  # raises, changing nothing, when illegal
            played = [move, *self.auto_moves(autoplay, autofinish)]
            self.player_moved = True
            self._end_turn(played)
        return played

    def play_line(
        self, moves: Iterable[Move], *, autoplay: bool | None = None, autofinish: bool | None = None,
    ) -> list[Move]:
        """Play a line of moves and then the automatic plays as one turn; stops at the first illegal move."""
        self._check_open()
        played: list[Move] = []
        with self.atomic():
            for m in moves:
                try:
                    self.game.push(m)
                except IllegalMoveError:
                    break
                played.append(m)
            if played:
                played += self.auto_moves(autoplay, autofinish)
                self.player_moved = True
                self._end_turn(played)
        return played

    def play_opening(self, *, autoplay: bool | None = None, autofinish: bool | None = None) -> list[Move]:
        """The automatic plays at the deal, as part of it (not a turn: undo and restart stop after them);
        return them. Only on a game with no move played yet (else nothing is played)."""
        self._check_open()
        if self.game.move_stack:
            return []
        with self.atomic():
            played = self.auto_moves(autoplay, autofinish)
            self.dealt = len(played)
            if played:
                self._after_change()
        return played

    def play_auto(self, *, autoplay: bool | None = None, autofinish: bool | None = None) -> list[Move]:
        """Only the automatic plays (when the player switches them on), as one turn."""
        self._check_open()
        with self.atomic():
            played = self.auto_moves(autoplay, autofinish)
            if played:
                self._end_turn(played)
        return played

    def finish(self) -> list[Move]:
        """Auto-finish: when the win is certain, play every card up as one turn (else nothing)."""
        if self.game.is_won() or not is_certain_win(self.game):
            return []
        return self.play_line(finish_moves(self.game))

    def _end_turn(self, played: list[Move]) -> None:
        self._tick()
        if self.player_moved:
            self.start_clock()  # the player's first move starts the clock
        self.turns.append(len(played))
        if self.undone and self.undone[0] == played:
            del self.undone[0]  # the same as redoing: keep the rest of the redo list
        else:
            self.undone.clear()
        self._after_change()

    def undo(self, to: int | None = None) -> list[Move]:
        """Undo the last turn, or back to ``to`` moves played; return the moves undone (last first).

        Undoing to the middle of a turn splits it. Raises :class:`NothingToDoError`,
        :class:`GameOverError`, or ``ValueError`` for a ``to`` out of range.
        """
        self._check_open()
        n = len(self.game.move_stack)
        if to is None:
            if not self.turns:
                raise NothingToDoError("nothing to undo")
            to = n - self.turns[-1]
        if not self.dealt <= to <= n:
            first = f"{self.dealt} (the deal's automatic plays)" if self.dealt else "0"
            raise ValueError(f"'to' must be between {first} and {n} (the moves played), not {to}")
        if to == n:
            raise NothingToDoError("nothing to undo: that many moves are played already")
        with self.atomic():
            self.player_moved = True
            self._tick()
            undone: list[Move] = []
            while len(self.game.move_stack) > to:
                size = self.turns.pop()
                keep = max(0, size - (len(self.game.move_stack) - to))
                turn = [self.game.pop() for _ in range(size - keep)]
                turn.reverse()
                if keep:
                    self.turns.append(keep)
                self.undone.insert(0, turn)
                undone.extend(reversed(turn))
            self.start_clock()  # an undo is the player's too: it can be the first, or lead out of a dead end
            self._after_change()
        return undone

    def redo(self) -> list[Move]:
        """Play the next undone turn again; return its moves. Raises :class:`NothingToDoError`."""
        self._check_open()
        if not self.undone:
            raise NothingToDoError("nothing to redo")
        turn = self.undone[0]
        for i, m in enumerate(turn):
            try:
                self.game.push(m)
            except IllegalMoveError:  # pragma: no cover - the redo list follows the history
                for _ in range(i):
                    self.game.pop()
                self.undone.clear()
                raise NothingToDoError("nothing to redo: the redo list no longer fits") from None
        with self.atomic(pushed=len(turn)):
            del self.undone[0]
            self.player_moved = True
            self._tick()
            self.start_clock()
            self.turns.append(len(turn))
            self._after_change()
        return turn

    def restart(self) -> list[Move]:
        """Back to the deal (and its automatic plays); every turn can be redone. Returns the moves undone,
        last first."""
        self._check_open()
        if len(self.game.move_stack) <= self.dealt:
            raise NothingToDoError("nothing to restart: no move played yet")
        return self.undo(self.dealt)

    def _after_change(self) -> None:
        if self.game.is_over():
            self.stop_clock()  # won, or no legal move left: the time of the game is its time so far
        self.save()

    # ------------------------------------------------------------------ advice for a user interface

    def best_moves(self, legal: Sequence[Move] | None = None) -> dict[str, Move]:
        """The best place for every card that can move now, by ``"source:card"`` (``"3:JH"``, ``"W:5C"``).

        A foundation first, then a column with cards, then an empty column: the
        place a single click or tap sends the card (with the cards on it) to.
        ``legal``: the position's legal moves, when the caller has them already.
        """
        best: dict[str, tuple[int, Move]] = {}
        if self.locked or self.game.is_won():
            return {}
        columns = self.game.column_cards
        for m in self.game.legal_moves() if legal is None else legal:
            if m.is_stock_move:
                continue
            key = card_key(m)
            rank = 0 if m.dst == FOUNDATION else 1 if columns[m.dst] else 2
            if key not in best or rank < best[key][0]:
                best[key] = (rank, m)
        return {k: m for k, (_, m) in best.items()}

    def foundation_moves(self, legal: Sequence[Move] | None = None) -> dict[str, Move]:
        """The moves to a foundation, by ``"source:card"``: what a double click does (``legal`` as
        :meth:`best_moves` takes it)."""
        if self.locked:
            return {}
        return {card_key(m): m for m in (self.game.legal_moves() if legal is None else legal)
                if m.dst == FOUNDATION and m.count == 1}

    def explain(self, error: IllegalMoveError) -> str:
        """Why a move was refused, in a player's words (from the error's ``reason``)."""
        return explain(error, self.game.rules)

    # ------------------------------------------------------------------ store

    def store_extra(self) -> dict[str, Any]:
        """The record's ``extra``: the caller's notes and the turn sizes."""
        return {**self.extra, "groups": list(self.turns), "redo_groups": self.redo_sizes,
                "player_moved": self.player_moved, "dealt": self.dealt}

    @contextmanager
    def atomic(self, *, pushed: int = 0) -> Iterator[None]:
        """All or nothing: a change made inside that fails (its save above all) leaves the session as it was.

        With ``tolerate_store_errors`` a failed save is noted instead, so nothing needs undoing. Nested
        blocks count as the outermost one. ``pushed``: moves pushed onto the game just before the block,
        taken back as well when it fails.
        """
        if self._atomic_depth or self.store is None or self.tolerate_store_errors:
            self._atomic_depth += 1
            try:
                yield
            finally:
                self._atomic_depth -= 1
            return
        before = self._snapshot(pushed)
        self._atomic_depth += 1
        try:
            yield
        except BaseException:
            self._restore_snapshot(before)
            raise
        finally:
            self._atomic_depth -= 1

    def _snapshot(self, pushed: int) -> tuple[Any, ...]:
        game = self.game.copy(history=True)
        for _ in range(pushed):
            game.pop()
        return (game, list(self.turns), [list(t) for t in self.undone], self.result, self.stored,
                dict(self.extra), self._elapsed_before, self._since, self.store_error, self.player_moved, self.dealt)

    def _restore_snapshot(self, snapshot: tuple[Any, ...]) -> None:
        (self.game, self.turns, self.undone, self.result, self.stored, self.extra, self._elapsed_before,
         self._since, self.store_error, self.player_moved, self.dealt) = snapshot

    def _guarded(self, write: Callable[[], None], problem: str) -> bool:
        """Run a store write; a failure is raised, or noted in :attr:`store_error` when tolerated.

        True when the write was made."""
        try:
            write()
        except (sqlite3.Error, KeyError) as exc:
            if not self.tolerate_store_errors:
                raise
            self.store_error = f"{problem} ({exc})"
            return False
        self.store_error = None
        return True

    def _write(self, result: str | None = None) -> None:
        """Write the game as it stands, with ``result`` when it ends now, in one transaction."""
        if self.store is None:
            return
        rules = self.start.rules
        moves = self.line_texts()
        redo = [move_text(m) for m in self.redo_moves]
        elapsed = round(self.elapsed, 3)
        if not self.stored:
            if self.write_at == "first_move" and not (self.player_moved or result):
                return  # a deal only looked at (or only played automatically) costs nothing
            self.store.create_game(
                self.id, rules.variant, rules.options(), self.start.seed, self.start.to_dict(), self.client,
                self.store_extra(), moves=moves, redo=redo, elapsed=elapsed, result=result,
                move_count=self.moves_made, browser=self.browser,
            )
            self.stored = True
            return
        self.store.update_game(self.id, moves, redo, elapsed, self.store_extra(), result=result,
                               move_count=self.moves_made)

    def save(self) -> None:
        """Write the game (and its clock) to the store; record the win the first time it is seen.

        Without ``tolerate_store_errors`` a failed write is raised and changes nothing here."""
        with self.atomic():
            won_now = self.result is None and self.game.is_won()
            if won_now:
                self.stop_clock()
            elif self.result is None:
                self._tick()
            if self._guarded(lambda: self._write("won" if won_now else None), "could not save the game"):
                if won_now:
                    self.result = "won"
            elif won_now:
                self._finish("won")

    def _finish(self, result: str) -> None:
        """Record ``result`` (in memory, and in the store when the game is there)."""
        if self.result is not None:
            return
        self.stop_clock()
        self.result = result
        if self.store is not None and self.stored:
            store = self.store

            def write() -> None:
                store.finish_game(self.id, result, move_count=self.moves_made, elapsed=round(self.elapsed, 3))

            self._guarded(write, "could not record the result")

    def abandon(self) -> str | None:
        """The player leaves this game for another; return the result recorded (None if none).

        In progress: ``"lost"`` at a dead end, else ``"abandoned"``. Nothing played and
        nothing to redo: no result, and the record (if written) is deleted.
        """
        if self.in_progress:
            with self.atomic():
                self.stop_clock()
                result = "won" if self.game.is_won() else "lost" if self.game.is_lost() else "abandoned"
                if self._guarded(lambda: self._write(result), "could not save the game"):
                    self.result = result
                else:
                    self._finish(result)
            return self.result
        if self.result is None and self.stored and self.store is not None:
            store = self.store

            def delete() -> None:
                store.delete_game(self.id)
                self.stored = False

            self._guarded(delete, "could not forget the game")
        return None


def opening_plays(start: Game) -> list[Move]:
    """The deal's automatic plays on ``start`` (:meth:`PlaySession.play_opening` with automatic play on: an Ace
    dealt face up goes straight up); ``start`` is not changed."""
    game = start.copy()
    played: list[Move] = []
    while len(played) < MAX_AUTO and not game.is_won() and (safe := next_safe_move(game)) is not None:
        game.push(safe)
        played.append(safe)
    return played


def card_key(move: Move) -> str:
    """Which card a move takes, as ``"source:card"`` (``"3:JH"``, ``"W:5C"``): the keys of
    :meth:`PlaySession.best_moves` and :meth:`PlaySession.foundation_moves`."""
    return move_text(move).split(">")[0].split("+")[0]


def _short(name: str) -> str:
    """``'TH'`` -> ``'10♥'``."""
    return ("10" if name[0] == "T" else name[0]) + SUIT_SYMBOLS[SUITS.index(name[1])]


def explain(error: IllegalMoveError, rules: Rules) -> str:
    """A refused move's reason in a player's words, e.g. ``'7♥ needs a black 8 (8♠ or 8♣); 9♣ is not one.'``:
    every card named as the table draws it (``Q♥ cannot go up yet: J♥ must be ...``)."""
    card, target = error.card, error.target
    if card is None:
        return {"stock-empty": "The stock is empty.", "no-stock": f"{rules.title} has no stock."}.get(
            error.reason, str(error))
    lead = _short(card)
    rank = RANKS.index(card[0]) + 1
    reason = error.reason
    if reason == "covered":
        return f"Only a free card goes to a foundation: {lead} has cards on it."
    if reason == "not-next-on-foundation":
        if rank == 1:
            return f"{lead} cannot go up: every foundation is taken."
        return f"{lead} cannot go up yet: {_short(RANKS[rank - 2] + card[1])} must be on a foundation first."
    if reason == "no-return":
        return "In this game cards may not come back from the foundations."
    if reason == "not-face-up":
        return f"{lead} is not face up there."
    if reason == "not-waste-top":
        return "Only the top card of the waste can be played."
    if reason == "not-foundation-top":
        return "Only the top card of a foundation can come back."
    if reason == "same-pile":
        return f"{lead} is there already."
    if reason == "whole-column":
        if rules.stock == "rows":  # the order of the columns decides where a deal lands: it is not nothing
            return "Moving a whole column into an empty one only reorders the columns, which is never a move."
        return "Moving a whole column into an empty one changes nothing."
    if reason == "kings-only":
        return "Only a King (with the cards on it) may go into an empty column."
    if reason == "does-not-fit" and target is not None:
        return rules.build_rule.refusal(parse_card(card), parse_card(target))
    return str(error)


__all__ = ["IDLE_CAP", "MAX_AUTO", "GameOverError", "NothingToDoError", "PlaySession", "WriteAt", "card_key",
           "describe_move", "explain", "move_text", "new_id"]
