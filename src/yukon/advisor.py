"""The solver's advice for one game in play, shared by the web table and the terminal game.

An :class:`Advisor` answers three questions about its game, each within a time limit and stoppable:

- **The hint**, of one of two kinds. ``honest`` (the default): :func:`yukon.hint` with
  ``peek=False``, which sees only what the player sees (:mod:`yukon.honest`). ``solver``: the
  solver's hint, which sees the face-down cards, through the shared :class:`~yukon.hinting.HintPolicy`
  (it follows the winning line it found and never hints a move back). Every answer names its kind
  and says it in words (:data:`HINT_LABELS`).
- **Still winnable?** A perfect-information verdict (the solver sees the face-down cards), and it
  says so (:data:`WINNABLE_LABEL`); when the position is lost, the last position of the game that
  could still be won (:attr:`Verdict.last_winnable`, a move count).

Where the searches run is the caller's only choice, a :data:`Runner`: the terminal game runs them
here, in its worker thread, with its stop event (:func:`run_here`); the web server runs them in its
solver queue's worker processes (:class:`yukon.web.solving.QueueRunner`), so that moves never wait
for the solver. A search that does not answer in time (or cannot run: a busy queue) gets an honest
fallback, marked ``source: "heuristic"``: a best guess from what the player sees.

**Reversals.** The solver kind keeps the hint policy's guarantees (no move straight back, no move
to a position already seen while another winning move exists). The honest kind never hints a move
to a position the game has already been in (as the player saw it): the honest player itself avoids
those, and when every move would go back, the hint offers no move and says so. Following honest
hints therefore never repeats a position, so it ends (a finite game), and never bounces between two
moves (``bench/follow_hints.py --kind honest`` measures it).

>>> from yukon import Game
>>> advisor = Advisor()
>>> h = advisor.hint(Game.from_text("yukon,kings,noreturn KS/QS/-/-/-/-/- JS/KH/KD/KC"))
>>> str(h.move), h.kind, h.label
('2:QS>F', 'honest', 'hint (no peeking)')
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal, TypeVar, cast

from .autoplay import is_safe_to_play_up
from .game import Game
from .hinting import HintPolicy
from .notation import FOUNDATION, STOCK, Move

T = TypeVar("T")

HintKind = Literal["honest", "solver"]
HONEST: HintKind = "honest"
SOLVER: HintKind = "solver"
KINDS: tuple[HintKind, ...] = (HONEST, SOLVER)
#: What a player cannot see, where the position does not say (most variants deal cards face down).
FACE_DOWN = "the face-down cards"
#: What each kind of hint says it is (in a game with face-down cards: :func:`hint_label` says it of any position).
HINT_LABELS: dict[str, str] = {
    HONEST: "hint (no peeking)",
    SOLVER: f"solver hint: it sees {FACE_DOWN}",
}
#: The honest hint's note when every legal move leads back to a position seen already: a hint without a move, of
#: status ``unknown``, in a game not over, where playing on goes round in circles. Each table adds its own way on
#: (undo, the solver hint, where the game went wrong): its keys or its buttons.
GOES_BACK = "every move leads back to a position seen already"
#: What the "still winnable?" verdict says it is (in a game with face-down cards: :func:`winnable_label`).
WINNABLE_LABEL = f"perfect information: the solver sees {FACE_DOWN}"


def hint_label(kind: str, unseen: str = FACE_DOWN) -> str:
    """What a hint of ``kind`` says it is, ``unseen`` what the player cannot see
    (:func:`yukon.honest.player.unseen_words`: the stock's order in Australian Patience).

    >>> hint_label("solver", "the stock's order")
    "solver hint: it sees the stock's order"
    """
    return HINT_LABELS[HONEST] if kind == HONEST else f"solver hint: it sees {unseen}"


def winnable_label(unseen: str = FACE_DOWN) -> str:
    """What the "still winnable?" verdict says it is, ``unseen`` what the player cannot see."""
    return f"perfect information: the solver sees {unseen}"

#: Seconds a hint may think, and the solver to decide whether a position can still be won.
HINT_TIME = 0.8
WINNABLE_TIME = 3.0
#: Seconds in all to look back for the last winnable position.
LOOKBACK_BUDGET = 8.0
#: Seconds a search keeps back of its time for handing its answer over.
HAND_OVER = 0.075
#: The shortest search worth starting: with less time left, the hint is a best guess at once.
MIN_SEARCH = 0.02


class Deadline(threading.Event):
    """A stop event that is also set once ``deadline`` (``time.perf_counter()``) has passed.

    Given as the ``stop`` of a question, it carries a time limit counted from elsewhere (the web's:
    from the request's arrival) to everything under it: a search started late gets only the time
    that is left."""

    def __init__(self, deadline: float) -> None:
        super().__init__()
        self.deadline = deadline

    def left(self) -> float:
        """Seconds until the deadline (0 once it has passed or the event is set)."""
        return 0.0 if super().is_set() else max(0.0, self.deadline - time.perf_counter())

    def is_set(self) -> bool:
        return super().is_set() or time.perf_counter() >= self.deadline

    def wait(self, timeout: float | None = None) -> bool:
        left = self.deadline - time.perf_counter()
        super().wait(max(0.0, left if timeout is None else min(timeout, left)))
        return self.is_set()


def _time_for(limit: float, stop: Any) -> float:
    """``limit``, or less when ``stop`` is a :class:`Deadline` nearer than that."""
    return min(limit, stop.left()) if isinstance(stop, Deadline) else limit


class SearchUnavailable(Exception):
    """The search cannot run just now (e.g. every worker is busy): the advice answers without it."""


#: ``run(question, job, limit, stop)``: run ``job(stop, seconds_left)`` somewhere and return its
#: answer, or None when it did not answer within ``limit`` seconds; raises :class:`SearchUnavailable`
#: when it cannot run. ``question`` (``"hint"``, ``"winnable"``) lets a runner stop an older job
#: of the same question. The job is picklable (a :func:`functools.partial` of a module function).
Runner = Callable[[str, Callable[[Any, float], Any], float, Any], Any]


def run_here(question: str, job: Callable[[Any, float], T], limit: float, stop: Any) -> T | None:
    """Run the search in the calling thread (the terminal game's worker), with the caller's stop event."""
    return job(stop if stop is not None else threading.Event(), limit)


# ---------------------------------------------------------------------- answers


@dataclass
class Hint:
    """A hint: the move (notation; None when there is none), its kind and what is known.

    ``source``: how it was found (the solver's ``solver``/``heuristic``, the honest player's
    ``safe``/``only move``/``samples``, or ``heuristic`` for a fallback, ``none`` without a move).
    ``status``: ``won``/``lost`` when proved (the solver kind only, or a game over), else ``unknown``.
    """

    move: str | None
    kind: str
    source: str
    status: str
    seconds: float
    note: str = ""
    line: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        # (a kind of no label read as a bare KeyError from .label, far from the hint that had it)
        check_kind(self.kind)

    @property
    def label(self) -> str:
        return HINT_LABELS[self.kind]

    def to_dict(self, unseen: str = FACE_DOWN) -> dict[str, Any]:
        """The hint as JSON data; ``unseen``: what the player cannot see in its position (the label says it)."""
        return {"move": self.move, "kind": self.kind, "label": hint_label(self.kind, unseen), "source": self.source,
                "status": self.status, "seconds": round(self.seconds, 3), "note": self.note, "unseen": unseen}


@dataclass
class Verdict:
    """Can the position still be won? With perfect information (the solver sees the face-down cards).

    ``last_winnable``: when lost, the number of moves after which the game could still be won
    (None: not found, or not lost)."""

    status: str  # "won" | "lost" | "unknown"
    source: str  # "solver" | "rules"
    seconds: float = 0.0
    note: str = ""
    line: list[str] = field(default_factory=list)
    last_winnable: int | None = None

    perfect_information = True
    label = WINNABLE_LABEL

    def to_dict(self, unseen: str = FACE_DOWN) -> dict[str, Any]:
        """The verdict as JSON data; ``unseen``: what the player cannot see in its position (the label says it)."""
        return {"status": self.status, "source": self.source, "seconds": round(self.seconds, 3),
                "note": self.note, "last_winnable": self.last_winnable,
                "perfect_information": self.perfect_information, "label": winnable_label(unseen), "unseen": unseen}


# ---------------------------------------------------------------------- the searches (picklable jobs)


def solver_hint(game: Game, stop: Any, time_limit: float = HINT_TIME) -> Hint:
    """The solver's next move for ``game`` (a copy): it sees the face-down cards."""
    import yukon

    t0 = time.perf_counter()
    if game.is_won():
        return Hint(None, SOLVER, "none", "won", 0.0, "the game is won")
    if not game.has_legal_move():
        return Hint(None, SOLVER, "none", "lost", 0.0, "no legal move is left")
    result = yukon.hint(game, time_limit=time_limit, stop=stop, peek=True)
    seconds = time.perf_counter() - t0
    if result.move is None:
        return Hint(None, SOLVER, "solver", result.status, seconds,
                    "no move wins from here: undo to find a better line")
    if result.source == "solver":
        note = ""
    elif result.status == "lost":
        note = "the solver proved this position lost: no move wins from here; undo to the last winnable one"
    else:
        note = "a best guess: the solver ran out of time"
    line = [str(m) for m in result.line or []] if result.source == "solver" else []
    return Hint(str(result.move), SOLVER, result.source, result.status, seconds, note, line)


def honest_hint(game: Game, stop: Any, time_limit: float = HINT_TIME) -> Hint:
    """The honest player's next move for ``game`` (with its history): from what the player sees only."""
    import yukon

    t0 = time.perf_counter()
    result = yukon.hint(game, time_limit=max(0.01, time_limit), stop=stop, peek=False)
    seconds = time.perf_counter() - t0
    if result.move is None:
        note = {"won": "the game is won", "lost": "no legal move is left"}.get(result.status, "")
        return Hint(None, HONEST, "none", result.status, seconds, note)
    note = getattr(result, "odds", "")
    if not note and result.source == "heuristic":
        note = "a best guess: no sample could be searched in time"
    return Hint(str(result.move), HONEST, result.source, result.status, seconds, note)


def solver_hint_job(game: Game, stop: Any, left: float) -> Hint:
    return solver_hint(game, stop, max(0.01, left - HAND_OVER))


def honest_hint_job(game: Game, stop: Any, left: float) -> Hint:
    return honest_hint(game, stop, max(0.01, left - HAND_OVER))


def decide(game: Game, stop: Any, time_limit: float = WINNABLE_TIME) -> Verdict:
    """Can ``game`` (a copy) still be won, with perfect information? ``won`` / ``lost`` / ``unknown``."""
    import yukon

    if game.is_won():
        return Verdict("won", "rules")
    if not game.has_legal_move():
        return Verdict("lost", "rules", note="no legal move is left")
    t0 = time.perf_counter()
    result = yukon.solve(game, time_limit=time_limit, stop=stop)
    seconds = time.perf_counter() - t0
    note = "" if result.status != "unknown" else f"the solver could not decide within {time_limit:g} s"
    return Verdict(result.status, "solver", seconds, note, [str(m) for m in result.moves or []])


def last_winnable(game: Game, proven: dict[str, str], stop: Any, *, budget: float = LOOKBACK_BUDGET) -> int | None:
    """The largest number of moves played after which the position was (proven) winnable.

    ``game`` is a copy with its history; ``proven`` caches what the solver found (position text ->
    status) and is updated."""
    deadline = time.monotonic() + budget
    g = game
    while g.move_stack:
        g.pop()
        key = g.to_text()
        status = proven.get(key)
        if status is None:
            left = deadline - time.monotonic()
            if left <= 0 or stop.is_set():
                return None
            status = decide(g, stop, min(2.0, left)).status
            if status != "unknown":
                proven[key] = status
        if status == "won":
            return len(g.move_stack)
    return None


def winnable_job(
    game: Game, cached: str | None, proven: dict[str, str], time_limit: float, lookback: float, stop: Any,
    left: float,
) -> tuple[Verdict, dict[str, str]]:
    """Can ``game`` (with its history) still be won; when lost, the last winnable move count.

    ``cached``: what is known of this position already; ``proven``: what is known of the others.
    Returns the verdict and everything proven on the way (to remember)."""
    found = dict(proven)
    started = time.monotonic()
    key = game.to_text()
    verdict = Verdict(cached, "solver") if cached else decide(game, stop, round(max(0.01, min(time_limit, left)), 2))
    if verdict.status != "unknown":
        found[key] = verdict.status
    if verdict.status == "lost":
        budget = max(0.0, min(lookback, left - (time.monotonic() - started) - HAND_OVER))
        verdict.last_winnable = last_winnable(game.copy(history=True), found, stop, budget=budget)
    return verdict, found


# ---------------------------------------------------------------------- fallbacks without a search


def heuristic_move(game: Game) -> Move | None:
    """A reasonable next move without search (safe cards up, turn a card, empty a column, ...): reads
    only what the player sees (the face-up cards and how many lie face down)."""
    moves = game.legal_moves()
    if not moves:
        return None
    columns = game.columns

    def score(m: Move) -> float:
        if m.dst == FOUNDATION and m.src < FOUNDATION:
            return 100 if is_safe_to_play_up(game, m.card) else 40
        if m.src == STOCK:
            return 5
        s = 0.0
        if m.src < FOUNDATION:
            down, up = columns[m.src]
            if m.count == len(up) and down:
                s += 60 + len(down)  # turns a face-down card
            elif m.count == len(up) and not down:
                s += 20  # empties a column
            if m.dst < FOUNDATION and not columns[m.dst][1]:
                s -= 30 if not down and m.count == len(up) else 10
        elif m.dst == FOUNDATION:
            s += 40
        else:
            s += 15
        return s

    return max(moves, key=score)


def _honest_fallback(game: Game) -> Move | None:
    """The honest player's own advice, without sampling (a view is all it reads)."""
    from .honest.heuristic import preference
    from .visible import VisiblePosition

    view = VisiblePosition.of(game)
    moves = view.legal_moves()
    return max(moves, key=lambda m: preference(view, m)) if moves else None


def best_guess(game: Game, kind: HintKind, seconds: float, why: str) -> Hint:
    """A hint of ``kind`` without a search (the solver is busy or out of time), saying ``why``."""
    move = _honest_fallback(game) if kind == HONEST else heuristic_move(game)
    return Hint(None if move is None else str(move), kind, "heuristic" if move else "none", "unknown",
                seconds, f"a best guess: {why}")


class Lines:
    """Winning lines the solver found for positions of one game: position text -> the rest of the line.

    A line found once serves every position along it (the winnable check reads them)."""

    def __init__(self, limit: int = 2000) -> None:
        self.limit = limit
        self._lines: dict[str, list[str]] = {}

    def get(self, key: str) -> list[str] | None:
        return self._lines.get(key)

    def remember(self, game: Game, line: list[str]) -> None:
        """Store ``line`` (winning from ``game``, a copy that this plays along) for every position on it."""
        if len(self._lines) + len(line) > self.limit:
            self._lines.clear()
        g = game.copy()
        for i, text in enumerate(line):
            self._lines[g.to_text()] = line[i:]
            try:
                g.push_text(text)
            except ValueError:  # pragma: no cover - the solver's lines are legal
                return


# ---------------------------------------------------------------------- the advisor


class Advisor:
    """Advice for one game (make a new one for a new game): hints of either kind and "still winnable?".

    ``run``: where the searches run (default: here, in the calling thread). ``kind``: the hint kind
    asked for when a call names none (the player's setting). ``hint_time`` and ``winnable_time``:
    the seconds each question may take (the look-back for the last winnable position has
    ``lookback`` more). Call it from a worker thread: a search blocks its caller.
    """

    def __init__(
        self,
        run: Runner = run_here,
        *,
        kind: HintKind = HONEST,
        hint_time: float = HINT_TIME,
        winnable_time: float = WINNABLE_TIME,
        lookback: float = LOOKBACK_BUDGET,
    ) -> None:
        self.run = run
        self.kind = check_kind(kind)
        self.hint_time = hint_time
        self.winnable_time = winnable_time
        self.lookback = lookback
        #: position text -> "won" / "lost": what the solver proved about positions of this game
        self.proven: dict[str, str] = {}
        #: winning lines the solver found
        self.lines = Lines()
        #: the solver kind's policy: it follows the line it found and never hints a move back
        self.policy = HintPolicy(self._solver_search, time_limit=hint_time)
        self._why_not = ""

    # ------------------------------------------------------------------ hints

    def next_on_line(self, game: Game, kind: HintKind | None = None) -> Hint | None:
        """The solver kind's next move when ``game`` is on the line found already: no search, no wait."""
        if check_kind(self.kind if kind is None else kind) != SOLVER:
            return None
        known = self.policy.next_on_line(game)
        if known is None or known.move is None:
            return None
        return Hint(str(known.move), SOLVER, known.source, known.status, 0.0)

    def hint(self, game: Game, *, kind: HintKind | None = None, stop: Any = None) -> Hint:
        """The next move for ``game`` (with its history since the deal; left unchanged), of ``kind``
        (default: :attr:`kind`), within :attr:`hint_time` seconds."""
        kind = check_kind(self.kind if kind is None else kind)  # ('' is no kind: not the default either)
        if kind == SOLVER:
            return self._solver_hint(game, stop)
        return self._honest_hint(game, stop)

    def _solver_hint(self, game: Game, stop: Any) -> Hint:
        # the policy may spend half as much again as its search looking for a move that does not
        # go back, so it is given two thirds of the limit
        advice = self.policy.advise(game, stop=stop, time_limit=max(MIN_SEARCH, _time_for(self.hint_time, stop) / 1.5))
        if advice.line:
            self.lines.remember(game, [str(m) for m in advice.line])
        move = None if advice.move is None else str(advice.move)
        if advice.status in ("won", "lost") and advice.source == "solver":
            self.proven[game.to_text()] = advice.status
        return Hint(move, SOLVER, advice.source if move is not None else "none", advice.status, advice.seconds,
                    advice.note, [str(m) for m in advice.line])

    def _solver_search(self, game: Game, time_limit: float, stop: Any = None) -> Hint:
        """The policy's hint function: one search where the runner puts it, else an honest best guess."""
        started = time.perf_counter()
        why = "the solver ran out of time"
        result: Hint | None
        try:
            result = self.run("hint", partial(solver_hint_job, game), time_limit, stop)
        except SearchUnavailable as exc:
            result, why = None, str(exc)
        if result is not None:
            return result
        return best_guess(game, SOLVER, time.perf_counter() - started, why)

    def _honest_hint(self, game: Game, stop: Any) -> Hint:
        from .visible import VisiblePosition, visible_history

        started = time.perf_counter()
        if game.is_won():
            return Hint(None, HONEST, "none", "won", 0.0, "the game is won")
        if not game.has_legal_move():
            return Hint(None, HONEST, "none", "lost", 0.0, "no legal move is left")
        why = "the honest player ran out of time"
        result: Hint | None
        try:
            result = self.run("hint", partial(honest_hint_job, game.copy(history=True)),
                              _time_for(self.hint_time, stop), stop)
        except SearchUnavailable as exc:
            result, why = None, str(exc)
        if result is None:
            result = best_guess(game, HONEST, 0.0, why)
        result.seconds = time.perf_counter() - started
        if result.move is None:
            return result
        view = VisiblePosition.of(game)
        seen = {*visible_history(game), view}
        move = game.parse_move(result.move)
        if view.goes_back(move, seen):
            fresh = [m for m in view.legal_moves() if not view.goes_back(m, seen)]
            if not fresh:
                # (the way on is each table's to name: its keys or buttons for undo, the solver hint, the analysis)
                return Hint(None, HONEST, "none", "unknown", result.seconds, GOES_BACK)
            from .honest.heuristic import preference

            result.move = str(max(fresh, key=lambda m: preference(view, m)))
            result.source, result.note = "heuristic", "the honest choice went back to a position seen already"
        return result

    # ------------------------------------------------------------------ still winnable?

    def winnable(self, game: Game, *, stop: Any = None) -> Verdict:
        """Can ``game`` (with its history) still be won? A perfect-information verdict; when lost, the
        last winnable move count. Within :attr:`winnable_time` (plus the look-back's time when lost)."""
        key = game.to_text()
        cached = "won" if self.lines.get(key) else self.proven.get(key)
        job = partial(winnable_job, game.copy(history=True), cached, dict(self.proven), self.winnable_time,
                      self.lookback)
        out: tuple[Verdict, dict[str, str]] | None
        try:
            out = self.run("winnable", job, self.winnable_time + self.lookback, stop)
        except SearchUnavailable as exc:
            return Verdict("unknown", "solver", note=f"{exc}: ask again")
        if out is None:
            return Verdict("unknown", "solver", note="the solver ran out of time")
        verdict, proven = out
        self.proven.update(proven)
        if verdict.line:
            self.lines.remember(game, verdict.line)
        return verdict


def check_kind(kind: Any) -> HintKind:
    """``kind`` when it is a hint kind; else a :class:`ValueError` naming the kinds."""
    if kind not in KINDS:
        raise ValueError(f"a hint kind is one of {', '.join(KINDS)}, not {kind!r}")
    return cast(HintKind, kind)


__all__ = [
    "FACE_DOWN",
    "GOES_BACK",
    "HINT_LABELS",
    "HINT_TIME",
    "HONEST",
    "KINDS",
    "LOOKBACK_BUDGET",
    "MIN_SEARCH",
    "SOLVER",
    "WINNABLE_LABEL",
    "WINNABLE_TIME",
    "Advisor",
    "Deadline",
    "Hint",
    "HintKind",
    "Lines",
    "Runner",
    "SearchUnavailable",
    "Verdict",
    "best_guess",
    "check_kind",
    "decide",
    "heuristic_move",
    "hint_label",
    "honest_hint",
    "last_winnable",
    "run_here",
    "solver_hint",
    "winnable_job",
    "winnable_label",
]
