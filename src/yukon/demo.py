"""Watch the computer play: the honest player's moves, one decision at a time, played into a game.

The web table's "Watch the computer play" and ``yukon tui --demo`` share this:

- :func:`situation` turns a game into what its player sees (the view, the views
  passed on the way, and the decision's seed, which depends only on how many
  moves were played), and :func:`decide` makes the honest player's decision
  from that alone (:func:`yukon.honest.choose`): nothing else reaches it, so
  two games that differ only in their face-down cards get the same move.
- :func:`play_computer_move` plays the chosen move into a
  :class:`~yukon.session.PlaySession` as one turn and counts it in the game's
  ``extra[COMPUTER_MOVES]``, in the same save: a game the computer played in
  is left out of the statistics (:meth:`yukon.store.Store.stats`), whoever
  finishes it.

>>> from yukon import Game
>>> view, seen, seed = situation(Game.from_text("yukon,kings,noreturn KS/QS/-/-/-/-/- JS/KH/KD/KC"))
>>> decision = decide(view, seen, seed)
>>> str(decision.move), decision.reason, decision.source
('2:QS>F', 'move', 'safe')
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from .game import Game
from .honest import WEB_BUDGET, Budget, choose
from .notation import Move
from .session import PlaySession
from .store import COMPUTER_MOVES
from .visible import VisiblePosition, visible_history

#: Seconds one decision may think at most (the honest hint's target at the web budget: docs/honest.md).
THINK_TIME = 2.0
#: The pause after each move, by speed name, slowest first (the web table offers the same names).
SPEEDS: tuple[tuple[str, float], ...] = (("slow", 2.0), ("normal", 0.8), ("fast", 0.25), ("fastest", 0.0))
DEFAULT_SPEED = "normal"

#: Why a decision plays no move: the game is won, no legal move is left, or every move would only go back
#: to a position already passed (the honest player gives up rather than go round in circles).
WON, NO_MOVE, REPEATS = "won", "no move", "repeats"


@dataclass(frozen=True)
class Decision:
    """One decision of the computer: ``move`` (None when it plays none), ``reason`` (``move`` or why not),
    the honest hint's ``source`` and ``win_share``, its whole ``samples``, the ``odds`` in words
    (:attr:`yukon.honest.HonestHint.odds`), and the ``seconds`` it took."""

    move: Move | None
    reason: str
    source: str = "none"
    win_share: float | None = None
    samples: int = 0
    seconds: float = 0.0
    odds: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"move": None if self.move is None else str(self.move), "reason": self.reason,
                "source": self.source, "win_share": None if self.win_share is None else round(self.win_share, 3),
                "samples": self.samples, "odds": self.odds, "seconds": round(self.seconds, 3)}


def situation(game: Game) -> tuple[VisiblePosition, frozenset[VisiblePosition], int]:
    """What the player of ``game`` (with its history) sees: the view now, the views passed on the way, and
    the decision's seed (the number of moves played). The only input of :func:`decide`."""
    return VisiblePosition.of(game), frozenset(visible_history(game)), len(game.move_stack)


def decide(
    view: VisiblePosition,
    seen: frozenset[VisiblePosition],
    seed: int,
    budget: Budget = WEB_BUDGET,
    time_limit: float | None = THINK_TIME,
    stop: threading.Event | None = None,
) -> Decision:
    """The honest player's next move from what the player sees. ``time_limit`` None: only the budget
    counts, and the same view, views passed and seed give the same move on any machine."""
    started = time.perf_counter()
    if view.is_won():
        return Decision(None, WON)
    hint = choose(view, seen, budget, seed, time_limit, stop)
    seconds = time.perf_counter() - started
    if hint.move is None:
        return Decision(None, NO_MOVE, seconds=seconds)
    if view.goes_back(hint.move, seen):
        return Decision(None, REPEATS, hint.source, hint.win_share, hint.samples, seconds)
    return Decision(hint.move, "move", hint.source, hint.win_share, hint.samples, seconds, hint.odds)


def decision_job(
    view: VisiblePosition, seen: frozenset[VisiblePosition], seed: int, budget: Budget,
    time_limit: float | None, stop: threading.Event | None, left: float,
) -> Decision:
    """:func:`decide` in a solver worker (:class:`yukon.web.solving.SolverQueue`): ``left`` seconds to go,
    a little kept back for the answer."""
    limit = None if time_limit is None else max(0.01, min(time_limit, left - 0.1))
    return decide(view, seen, seed, budget, limit, stop)


def computer_moves(extra: dict[str, object]) -> int:
    """How many moves the computer chose in a game, from its record's ``extra``."""
    count = extra.get(COMPUTER_MOVES, 0)
    return count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 0


def play_computer_move(
    core: PlaySession, move: Move, *, autoplay: bool | None = None, autofinish: bool | None = None,
) -> list[Move]:
    """Play the computer's ``move`` (then the automatic plays) as one turn, counted in
    ``extra[COMPUTER_MOVES]`` in the same save; raises as :meth:`PlaySession.play` does, changing nothing."""
    before = core.extra.get(COMPUTER_MOVES)
    core.extra[COMPUTER_MOVES] = computer_moves(core.extra) + 1
    try:
        return core.play(move, autoplay=autoplay, autofinish=autofinish)
    except BaseException:
        if before is None:
            core.extra.pop(COMPUTER_MOVES, None)
        else:
            core.extra[COMPUTER_MOVES] = before
        raise


def speed_pause(name: str) -> float:
    """The pause after each move at speed ``name``; raises ValueError naming the speeds for another."""
    for speed, pause in SPEEDS:
        if speed == name:
            return pause
    raise ValueError(f"the demo's speed is one of {', '.join(s for s, _ in SPEEDS)}, not {name!r}")


__all__ = [
    "COMPUTER_MOVES", "DEFAULT_SPEED", "NO_MOVE", "REPEATS", "SPEEDS", "THINK_TIME", "WON", "Decision",
    "computer_moves", "decide", "decision_job", "play_computer_move", "situation", "speed_pause",
]
