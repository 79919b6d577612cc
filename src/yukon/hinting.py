"""Hints that lead somewhere: one hint policy for every interface that keeps a game going.

A hint function (:func:`yukon.hint`, the advisor's :func:`yukon.advisor.solver_hint`, an honest
hint that sees only face-up cards, ...) answers one position at a time. Asked again after each
move, it may choose another of the many winning lines each time, and following such hints can
send a group back and forth between two columns for ever. :class:`HintPolicy` wraps any hint
function and keeps the line it found:

- while the player follows that line, the next hint is the line's next move, with no new search
  (the foundation plays that auto-play made on the way are taken off the line, when what is left
  still replays to the same end);
- after a deviation (or an undo past the line's start) it searches again from the new position;
- it never hints the exact reverse of the move just played, nor a move to a position already seen
  in this game (columns in another order count as the same position), when another winning move
  exists: it then plays a later move of the line first, or another move before the line, when the
  line still wins that way, else looks for a winning line starting with another move (nor does it
  take a card down from a foundation that auto-play would put straight back);
- a position the hint function proves lost at the deal says "This deal cannot be won".

The game passed in carries its history (the moves since the deal), which is where the positions
already seen come from.

>>> from yukon import Game
>>> policy = HintPolicy()
>>> game = Game.from_text("yukon,kings,noreturn KS/QH.KH/-/-/-/-/- QS/JH/KD/KC")
>>> first = policy.advise(game)
>>> first.status, first.followed, first.move == first.line[0]
('won', False, True)
>>> game.push(first.move)
>>> second = policy.advise(game)
>>> second.followed, second.move == first.line[1], policy.searches
(True, True, 1)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .autoplay import is_safe_to_play_up
from .game import Game
from .notation import FOUNDATION, STOCK, Move

#: ``hint_function(game, time_limit=seconds, stop=event)``: an object with ``move``, ``status``
#: (``won``/``lost``/``unknown``), ``source`` and ``line`` (the winning line, this move first;
#: moves or their notation). :func:`yukon.hint` is one.
HintFunction = Callable[..., Any]

#: How far down the line a move may be brought forward to avoid going back.
REORDER_REACH = 40

#: What the player is told when the deal itself is proved lost.
DEAL_LOST = "This deal cannot be won"
#: ... and when the position is lost but the deal was not (or is not known to be).
POSITION_LOST = "The solver proved this position lost: no move wins from here; undo to find a winning line"


@dataclass(frozen=True)
class Advice:
    """A hint: the move (None when the game is over), what is known of the position, and why.

    ``status``: ``won`` (``line`` wins from here, ``move`` first), ``lost`` (proved: no line wins)
    or ``unknown``. ``source``: the hint function's (``solver``, ``heuristic``, ...), or ``none``
    when the game is over. ``followed``: the move is the next one of the line already found
    (no search ran). ``note``: a sentence for the player, or ``""``.
    """

    move: Move | None
    status: str
    source: str
    line: tuple[Move, ...] = ()
    note: str = ""
    followed: bool = False
    seconds: float = 0.0


def _default_hint(game: Game, time_limit: float, stop: threading.Event | None) -> Any:
    from . import hint

    return hint(game, time_limit=time_limit, stop=stop)


def _position_key(game: Game) -> bytes:
    from .solver.key import position_key

    return position_key(game)


class HintPolicy:
    """Hints for one game in play (see the module text); make a new one for a new game.

    ``hint``: the hint function (default :func:`yukon.hint`, the solver). ``time_limit``: seconds
    for a search; a call may spend up to half as much again looking for another winning first
    move when the one found would go back. ``replan_after_reveal``: follow a line only up to the
    first move that turns a face-down card (for a hint function that cannot see them, whose line
    beyond that is a guess). Safe to call from worker threads.
    """

    def __init__(
        self,
        hint: HintFunction | None = None,
        *,
        time_limit: float = 1.0,
        replan_after_reveal: bool = False,
    ) -> None:
        self.hint_function: HintFunction = hint or _default_hint
        self.time_limit = time_limit
        self.replan_after_reveal = replan_after_reveal
        self._lock = threading.Lock()
        self._line: list[Move] = []
        self._texts: list[str] = []  # _texts[i]: the position before _line[i]; one more at the end
        self._line_wins = False
        self._line_source = "solver"
        self._deal_lost = False
        self._seen_moves: list[Move] = []
        self._seen_texts: list[str] = []
        self._seen_keys: list[bytes] = []
        #: searches run so far (tests and benchmarks read it)
        self.searches = 0

    # ------------------------------------------------------------------ the hint

    def advise(self, game: Game, *, stop: threading.Event | None = None, time_limit: float | None = None) -> Advice:
        """The next move to play in ``game`` (with its history since the deal; left unchanged)."""
        started = time.perf_counter()
        limit = self.time_limit if time_limit is None else time_limit
        if game.is_won():
            return Advice(None, "won", "none", note="The game is won")
        if not game.has_legal_move():
            return Advice(None, "lost", "none", note="No legal move is left")
        game = game.copy(history=True)
        history, seen = self._history(game)
        last = game.move_stack[-1] if game.move_stack else None
        on_line = self._on_line(game, history, seen)
        if on_line is not None:
            return on_line

        result = self._search(game, limit, stop)
        status = str(getattr(result, "status", "unknown"))
        source = str(getattr(result, "source", "") or "none")
        line = _without_loops(game, _moves_of(game, getattr(result, "line", None) or []))
        if status == "won" and line:
            if not self._allowed(game, line[0], last, seen):
                other = self._reordered(game, line, last, seen, must_win=True)
                if other is None:
                    deadline = started + 1.5 * limit
                    other = self._other_winning_line(game, line[0], last, seen, stop, deadline)
                if other:
                    line = other
            self._keep(game, line, wins=True)
            self._line_source = source
            return Advice(line[0], "won", source, tuple(line), seconds=time.perf_counter() - started)

        if status == "lost" and _only_safe_plays(game):
            self._deal_lost = True
        move = _move_of(game, getattr(result, "move", None))
        if move is not None and not self._allowed(game, move, last, seen):
            move = self._best_allowed(game, last, seen) or move
        if status == "lost":
            note = DEAL_LOST if self._deal_lost else POSITION_LOST
        else:
            note = str(getattr(result, "note", "") or "")
            if not note and source == "heuristic":
                note = "A best guess: no winning line was found in time"
        return Advice(move, status, source, note=note, seconds=time.perf_counter() - started)

    def next_on_line(self, game: Game) -> Advice | None:
        """The next move of the line kept, when ``game`` is on it and the move is allowed; no search."""
        if game.is_won() or not game.has_legal_move():
            return None
        game = game.copy(history=True)
        return self._on_line(game, *self._history(game))

    def _history(self, game: Game) -> tuple[list[str], set[bytes]]:
        """The texts of the game's positions since the deal (the current one last), and their keys.

        Kept from one call to the next: only the positions after the moves in common are worked out."""
        moves = game.move_stack
        with self._lock:
            old_moves, old_texts, old_keys = self._seen_moves, self._seen_texts, self._seen_keys
        common = 0
        for a, b in zip(moves, old_moves, strict=False):
            if a != b:
                break
            common += 1
        g = game.copy(history=True)
        for _ in range(len(moves) - common):
            g.pop()
        if not old_texts or common >= len(old_texts) or old_texts[common] != g.to_text():
            while g.move_stack:  # another game: from the deal
                g.pop()
            common, texts, keys = 0, [g.to_text()], [_position_key(g)]
        else:
            texts, keys = old_texts[:common + 1], old_keys[:common + 1]
        for m in moves[common:]:
            g.push(m)
            texts.append(g.to_text())
            keys.append(_position_key(g))
        with self._lock:
            self._seen_moves, self._seen_texts, self._seen_keys = list(moves), texts, keys
        return list(texts), set(keys)

    def _on_line(self, game: Game, history: list[str], seen: set[bytes]) -> Advice | None:
        followed = self._follow(game, history)
        if not followed:
            return None
        last = game.move_stack[-1] if game.move_stack else None
        with self._lock:
            wins = self._line_wins
        if not self._allowed(game, followed[0], last, seen):
            # the line goes back here: a later move of it played first may do instead (no search)
            reordered = self._reordered(game, followed, last, seen, must_win=wins)
            if reordered is None:
                return None
            self._keep(game, reordered, wins=wins)
            followed = reordered
        return Advice(followed[0], "won" if wins else "unknown", self._line_source, tuple(followed), followed=True)

    def _reordered(
        self, game: Game, line: list[Move], last: Move | None, seen: set[bytes], *, must_win: bool,
    ) -> list[Move] | None:
        """``line`` with one of its next moves brought to the front (moves that do not depend on each
        other commute), or else after another legal move, when the first move is allowed and the whole
        still replays (to the win, if the line won); no search."""
        tries = [[line[j], *line[:j], *line[j + 1:]] for j in range(1, min(len(line), REORDER_REACH))]
        # else another legal move first, then the whole line (it may still replay: moves elsewhere)
        others = [m for m in game.legal_moves() if m not in line[:REORDER_REACH]]
        others.sort(key=lambda m: -_score(game, m))
        tries += [[m, *line] for m in others]
        for candidate in tries:
            if not self._allowed(game, candidate[0], last, seen) or not _replays(game, candidate, must_win=must_win):
                continue
            cut = _without_loops(game, candidate)
            if cut and cut[0] == candidate[0]:
                return cut
        return None

    def forget(self) -> None:
        """Drop the line kept (e.g. when the rules of play change)."""
        with self._lock:
            self._line, self._texts, self._line_wins = [], [], False

    # ------------------------------------------------------------------ the line kept

    def _keep(self, game: Game, line: Sequence[Move], *, wins: bool) -> None:
        g = game.copy()
        texts = [g.to_text()]
        kept: list[Move] = []
        for m in line:
            down = g.face_down_count
            g.push(m)
            kept.append(m)
            texts.append(g.to_text())
            if self.replan_after_reveal and g.face_down_count < down:
                wins = wins and g.is_won()
                break
        with self._lock:
            self._line, self._texts, self._line_wins = kept, texts, wins

    def _follow(self, game: Game, history_texts: list[str]) -> list[Move] | None:
        """The rest of the line kept, from ``game``'s position, or None if the game left it."""
        with self._lock:
            line, texts, wins = list(self._line), list(self._texts), self._line_wins
        if not line:
            return None
        here = game.to_text()
        for i in range(len(line) - 1, -1, -1):
            if texts[i] == here:
                return line[i:]
        # The game left the line at its latest position still on it: were the moves since then the
        # line's own, or foundation plays it makes later (auto-play)? Then the rest may still do.
        for h in range(len(history_texts) - 2, -1, -1):
            if history_texts[h] in texts[:-1]:
                i = texts.index(history_texts[h])
                rest = _take_off(line[i:], game.move_stack[h:])
                if rest and _replays(game, rest, must_win=wins):
                    self._keep(game, rest, wins=wins)
                    return rest
                return None
        return None

    # ------------------------------------------------------------------ searching

    def _search(self, game: Game, limit: float, stop: threading.Event | None) -> Any:
        self.searches += 1
        return self.hint_function(game.copy(), time_limit=limit, stop=stop)

    def _other_winning_line(
        self, game: Game, avoid: Move, last: Move | None, seen: set[bytes], stop: threading.Event | None,
        deadline: float,
    ) -> list[Move] | None:
        """A winning line whose first move is allowed (not ``avoid``), searched move by move."""
        candidates = [m for m in game.legal_moves() if m != avoid and self._allowed(game, m, last, seen)]
        candidates.sort(key=lambda m: -_score(game, m))
        for m in candidates:
            left = deadline - time.perf_counter()
            if left <= 0.01 or (stop is not None and stop.is_set()):
                return None
            after = game.copy()
            after.push(m)
            if after.is_won():
                return [m]
            result = self._search(after, max(0.01, left / 2), stop)
            if getattr(result, "status", "") != "won":
                continue
            line = _without_loops(game, [m, *_moves_of(after, getattr(result, "line", None) or [])])
            if line and self._allowed(game, line[0], last, seen) and _replays(game, line, must_win=True):
                return line
        return None

    def _best_allowed(self, game: Game, last: Move | None, seen: set[bytes]) -> Move | None:
        allowed = [m for m in game.legal_moves() if self._allowed(game, m, last, seen)]
        return max(allowed, key=lambda m: _score(game, m)) if allowed else None

    @staticmethod
    def _allowed(game: Game, move: Move, last: Move | None, seen: set[bytes]) -> bool:
        """Neither the reverse of the move just played nor a move back to a position seen already,
        nor a card taken down from its foundation that the tableau cannot need (auto-play would
        put it straight back)."""
        if last is not None and is_reverse(move, last):
            return False
        after = game.copy()
        try:
            after.push(move)
        except ValueError:
            return False
        if move.src == FOUNDATION and is_safe_to_play_up(after, move.card):
            return False
        return _position_key(after) not in seen


def _only_safe_plays(game: Game) -> bool:
    """Are the moves played (if any) only cards played up safely (the deal's automatic plays, say)? Then the
    position is as winnable as the deal: a lost one means the deal is lost, and there is nothing to undo to."""
    line = list(game.move_stack)
    if not line:
        return True
    replay = game.copy(history=True)
    for _ in line:
        replay.pop()
    for move in line:
        if move.dst != FOUNDATION or not is_safe_to_play_up(replay, move.card):
            return False
        replay.push(move)
    return True


def is_reverse(move: Move, last: Move) -> bool:
    """Does ``move`` take the cards of ``last`` straight back where they came from?"""
    if move.src == STOCK or last.src == STOCK:
        return False
    same_cards = move.count == last.count or FOUNDATION in (move.src, move.dst)
    return move.card == last.card and move.src == last.dst and move.dst == last.src and same_cards


def _move_of(game: Game, move: Move | str | None) -> Move | None:
    if move is None or isinstance(move, Move):
        return move
    try:
        return game.parse_move(move)
    except ValueError:
        return None


def _moves_of(game: Game, line: Sequence[Move | str]) -> list[Move]:
    """The line as moves, as far as it replays legally from ``game``."""
    g = game.copy()
    out: list[Move] = []
    for item in line:
        try:
            if isinstance(item, str):
                out.append(g.push_text(item))
            else:
                g.push(item)
                out.append(item)
        except ValueError:
            break
    return out


def _without_loops(game: Game, line: Sequence[Move]) -> list[Move]:
    """``line`` with every stretch that comes back to a position it passed through cut out."""
    g = game.copy()
    at: dict[str, int] = {g.to_text(): 0}
    out: list[Move] = []
    for m in line:
        try:
            g.push(m)
        except ValueError:
            break  # only the legal start of a line is a line
        out.append(m)
        text = g.to_text()
        if text in at:
            del out[at[text]:]
            at = {t: i for t, i in at.items() if i <= len(out)}
        else:
            at[text] = len(out)
    return out


def _take_off(line: Sequence[Move], played: Sequence[Move]) -> list[Move] | None:
    """The line without the moves played since it was left: its own moves, or foundation plays of
    cards it puts up later (with its moves of those cards). None if a move played is neither (a
    real deviation)."""
    rest = list(line)
    for x in played:
        if x in rest:
            rest.remove(x)
            continue
        if x.dst != FOUNDATION or not any(r.dst == FOUNDATION and r.card == x.card for r in rest):
            return None
        # Auto-play puts up only a card nothing still to come can be placed on: the line's own moves
        # of that card (about the tableau, then up) all go; the replay afterwards checks the rest.
        rest = [r for r in rest if not (r.card == x.card and r.count == 1)]
    return rest


def _replays(game: Game, line: Sequence[Move], *, must_win: bool) -> bool:
    g = game.copy()
    for m in line:
        try:
            g.push(m)
        except ValueError:
            return False
    return g.is_won() or not must_win


def _score(game: Game, move: Move) -> int:
    from .solver.heuristic import score_move

    return score_move(game, move)


__all__ = ["DEAL_LOST", "POSITION_LOST", "Advice", "HintFunction", "HintPolicy", "is_reverse"]
