"""Watch the computer play at the terminal table: the honest player, one move after another.

``yukon tui --demo`` starts with it, ``t`` starts (and stops) it in any game. Each decision is
:func:`yukon.demo.decide` from what the player sees (:func:`yukon.demo.situation`), in a worker thread
with a stop event, so the table keeps answering; its move is played into the session as one turn and
counted in the game's ``extra`` (the game is then left out of the statistics). While it plays: space
pauses and resumes, ``.`` plays one move while paused (the web table's Step), ``+`` and ``-`` set the
speed (the pause after each move), esc or ``t`` stops, ``q`` quits, and any other key that plays (a move,
undo, a new game) stops it first: the player takes over.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from ..demo import (
    DEFAULT_SPEED,
    NO_MOVE,
    REPEATS,
    SPEEDS,
    THINK_TIME,
    WON,
    Decision,
    decide,
    play_computer_move,
    situation,
    speed_pause,
)
from ..game import Game
from ..honest import WEB_BUDGET, Budget
from .session import describe_move

if TYPE_CHECKING:
    from textual.timer import Timer

    from .app import YukonApp

#: The app's actions that leave the demo running: its own keys, and those that only look.
KEEPS_RUNNING = frozenset({
    "demo", "demo_stop", "demo_pause", "demo_resume", "demo_step", "demo_speed", "quit", "help", "stats", "cursor",
    "toggle_winnable",
})
PAUSED = "Paused: space plays on, . plays one move, esc stops, any move of yours takes over"
_ENDED = {
    WON: "The game is won",
    NO_MOVE: "No legal move left: the computer stops",
    REPEATS: "The computer sees no way forward that does not go round in circles: it stops here (play on, or n)",
}


class Demo:
    """The computer playing ``app``'s game. ``budget`` and ``think_time`` (seconds per move; None: the
    budget alone) are the honest player's thinking; ``speed`` a name of :data:`yukon.demo.SPEEDS`."""

    def __init__(self, app: YukonApp, *, budget: Budget = WEB_BUDGET, think_time: float | None = THINK_TIME,
                 speed: str = DEFAULT_SPEED) -> None:
        speed_pause(speed)  # a bad name is refused here
        self.app = app
        self.budget = budget
        self.think_time = think_time
        self.speed = speed
        #: the demo runs (perhaps paused) / is paused
        self.active = False
        self.paused = False
        #: moves the computer played since it was started, and the automatic plays that followed them
        self.moves = 0
        self.automatic = 0
        #: paused, but playing the one move asked for (``.``)
        self.stepping = False
        self._thinking = threading.Event()  # set while a decision is being searched (in the worker)
        self._timer: Timer | None = None

    @property
    def thinking(self) -> bool:
        """Is a decision being searched in the worker thread now?"""
        return self._thinking.is_set()

    # ------------------------------------------------------------------ the player's keys

    def start(self) -> None:
        """Watch the computer play this game (a new deal of the same rules when this one is over)."""
        app = self.app
        if self.active or app.replay is not None:
            return
        if app.session.game.is_over():
            rules = app.session.game.rules
            app.start_game(Game.deal(rules, seed=app._new_seed()))
        self.active, self.paused, self.stepping, self.moves, self.automatic = True, False, False, 0, 0
        app.refresh_bindings()
        app.set_status(f"The computer plays (it sees only what you see): space pauses, +/- speed "
                       f"({self.speed}), esc stops, any move of yours takes over")
        self._step()

    def stop(self, message: str = "", kind: str = "") -> None:
        """Stop at once: the search in progress is told to stop and its move is not played."""
        if not self.active:
            return
        self.active = self.paused = self.stepping = False
        self._cancel_timer()
        self.app._cancel("demo")
        if self.app.screen_stack:  # (none left while the app exits, q during the demo: nothing to redraw)
            self.app.refresh_bindings()
        if message:
            self.app.set_status(message, kind)

    def toggle_pause(self) -> None:
        if not self.active:
            return
        self.paused = not self.paused
        self.stepping = False
        self.app.refresh_bindings()  # (space reads "Play on" while paused, and . "Step")
        if self.paused:
            self._cancel_timer()
            self.app._cancel("demo")
            self.app.set_status(PAUSED)
        else:
            self.app.set_status(f"The computer plays on ({self.speed})")
            self._step()

    def step(self) -> None:
        """Paused: play the computer's next move, and stay paused."""
        if not (self.active and self.paused) or self.stepping:
            return
        self.stepping = True
        self.app.set_status("The computer thinks about one move…")
        self._step()

    def change_speed(self, step: int) -> None:
        """One speed faster (``step`` 1) or slower (-1)."""
        names = [name for name, _ in SPEEDS]
        self.speed = names[max(0, min(len(names) - 1, names.index(self.speed) + step))]
        self.app.set_status(f"Speed: {self.speed} ({speed_pause(self.speed):g} s after each move)")

    def intercept(self, action: str) -> bool:
        """Called before each of the app's actions while the demo is on: True when the demo handled it
        (esc stops it); any action that plays stops the demo first (the player takes over)."""
        if not self.active or action in KEEPS_RUNNING:
            return False
        if action == "cancel":
            automatic = f" (and {self.automatic} played up automatically)" if self.automatic else ""
            self.stop(f"Stopped after {self.moves} move{'s' if self.moves != 1 else ''} of the computer's"
                      f"{automatic}: play on from here")
            return True
        self.stop()
        return False

    def take_over(self) -> None:
        """The player clicked the table: they play from here."""
        self.stop("You took over: play on from here")

    # ------------------------------------------------------------------ playing

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _step(self) -> None:
        self._timer = None
        if not self.active or (self.paused and not self.stepping):
            return
        game = self.app.session.game.copy(history=True)
        key, count = game.to_text(), len(game.move_stack)
        view, seen, seed = situation(game)
        budget, think_time, thinking = self.budget, self.think_time, self._thinking

        def work(stop: threading.Event) -> Decision:
            thinking.set()
            try:
                return decide(view, seen, seed, budget, think_time, stop)
            finally:
                thinking.clear()

        self.app._start_job("demo", work, lambda result: self._decided(result, key, count))

    def _decided(self, result: Any, key: str, count: int) -> None:
        if not self.active or (self.paused and not self.stepping):
            return
        app = self.app
        session = app.session
        if isinstance(result, Exception):
            self.stop(f"The computer could not play: {result}", "error")
            return
        if session.game.to_text() != key or session.move_count != count:
            self._step()  # the game changed meanwhile: decide again
            return
        decision: Decision = result
        if decision.move is None:
            self.stop(_ENDED.get(decision.reason, "The computer stops"), "good" if decision.reason == WON else "")
            return
        before = session.game.copy()
        played = play_computer_move(session, decision.move)
        self.moves += 1
        self.automatic += len(played) - 1
        text = f"The computer: {describe_move(before, decision.move)}"
        if len(played) > 1:
            text += f"; {len(played) - 1} up automatically"
        if decision.source == "samples" and decision.odds:
            text += f" ({decision.odds})"
        elif decision.source in ("safe", "only move"):
            text += f" ({'safe to play up' if decision.source == 'safe' else 'the only move'})"
        app.state.pick = None
        stepped, self.stepping = self.stepping, False
        app.set_status(text + ("   paused: space plays on  .: step  esc: stop" if stepped else
                               "   space: pause  esc: stop"))
        over = session.game.is_over()
        if over:
            self.stop()
        app._after_change()
        if not over and not stepped:
            self._timer = app.set_timer(max(0.01, speed_pause(self.speed)), self._step)


__all__ = ["KEEPS_RUNNING", "PAUSED", "Demo"]
