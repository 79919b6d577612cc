"""The terminal game's solver work in worker threads: the jobs themselves, hints (``h``, ``p``, ``k``) and the
still-winnable indicator (``c``).

A job runs in a thread with a stop event; a newer job of the same name (or a change of position) makes an
older one's answer stale, and it is dropped.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ..advisor import GOES_BACK, HONEST, SOLVER, Advisor, Hint, HintKind, Verdict
from ..game import Game
from ..notation import FOUNDATION, Move
from ..visible import hidden_in
from .base import TableApp
from .session import describe_move
from .widgets import Cursor


class SolverJobs(TableApp):
    """The app's worker threads, and the keys whose answers come from them."""

    def _cancel(self, name: str) -> None:
        job = self._jobs.pop(name, None)
        if job is not None:
            job[1].set()

    def _start_job(self, name: str, work: Callable[[threading.Event], Any], done: Callable[[Any], None]) -> None:
        self._cancel(name)
        self._job_counter += 1
        token = self._job_counter
        stop = threading.Event()
        self._jobs[name] = (token, stop)

        def run() -> None:
            try:
                result: Any = work(stop)
            except Exception as exc:  # the solver failing must not take the game down
                result = exc
            if not stop.is_set():
                self.call_from_thread(self._job_done, name, token, done, result)

        self.run_worker(run, thread=True, group=name, exit_on_error=False)

    def _job_done(self, name: str, token: int, done: Callable[[Any], None], result: Any) -> None:
        job = self._jobs.get(name)
        if job is None or job[0] != token:
            return  # stale: the position changed meanwhile
        del self._jobs[name]
        done(result)

    def _new_advisor(self) -> Advisor:
        """The advisor of a new game (shared with the web table): its searches run in the job's thread."""
        return Advisor(kind=self.session.hint_kind, hint_time=self.hint_time, winnable_time=self.winnable_time)

    def action_hint(self) -> None:
        self.request_hint(play=False)

    def _unseen(self, position: Game | None = None) -> str:
        """What the solver sees that the player does not, in words: Australian Patience deals every card face
        up, so there it is the stock's order, not "the face-down cards" (the shared labels' words)."""
        return hidden_in(self.game if position is None else position)

    def action_toggle_hint_kind(self) -> None:
        kind: HintKind = SOLVER if self.session.hint_kind == HONEST else HONEST
        self.session.set_hint_kind(kind)
        self.advisor.kind = kind
        self._cancel("hint")
        self.state.hint = None
        # (it read "Hints from now on: solver hint: it sees the face-down cards  (k switches)")
        words = (f"the solver's: it sees {self._unseen()}" if kind == SOLVER
                 else "no peeking: the honest player sees only what you see")
        self.set_status(f"Hints from now on: {words} (k switches back)")
        self.refresh_table()

    def action_play_hint(self) -> None:
        """Play the hint shown; without one, find it and play it."""
        hint = self.state.hint
        if hint is not None and self.game.is_legal(hint):
            self._play_hint(hint, self._hint_shown_kind)
        else:
            self.request_hint(play=True)

    def request_hint(self, *, play: bool) -> None:
        if self.game.is_won():
            self.set_status("The game is won")
            return
        position = self.game.copy(history=True)
        self.state.pick = None
        advisor = self.advisor
        known = advisor.next_on_line(position)  # the next move of the solver's line: no waiting
        if known is not None:
            self._show_hint(position, known, play=play)
            return
        self.set_status("Thinking…")

        def work(stop: threading.Event) -> Hint:
            return advisor.hint(position, stop=stop)

        def done(result: Any) -> None:
            self._show_hint(position, result, play=play)

        self._start_job("hint", work, done)

    def _play_hint(self, move: Move, kind: str) -> None:
        self.state.hint = None
        # its kind said here too: p alone finds a hint and plays it, with no hint shown before to say it
        self.play(move, prefix="Hint played (no peeking): " if kind == HONEST else "Solver hint played: ")

    def _show_hint(self, position: Game, result: Hint | Exception, *, play: bool = False) -> None:
        if isinstance(result, Exception):  # a search that failed must not take the game down
            self.set_status(f"No hint: the search failed ({result})", "error")
            return
        # which kind of hint it is, always: "Hint (no peeking): ..." / "Solver hint: ... · it sees the face-down cards"
        label, peeked = ("Hint (no peeking)", "") if result.kind == HONEST else (
            "Solver hint", f" · it sees {self._unseen(position)}")
        note = result.note
        if result.move is None:
            # going round in circles is no game over (moves are left): the keys that go on from there
            ways = "  u: undo  k: solver hint  W: where it went wrong" if note == GOES_BACK else ""
            self.set_status(f"{label}: {note or 'no move left to suggest'}{peeked}{ways}", "error")
            return
        move = position.parse_move(result.move)
        if play:
            self._play_hint(move, result.kind)
            return
        self.state.hint, self._hint_shown_kind = move, result.kind
        if move.src < FOUNDATION:  # the cursor goes to the card to move: ⏎ picks it
            down, up = position.columns[move.src]
            self.state.cursor = Cursor("tab", move.src, len(down) + len(up) - move.count)
        what = describe_move(position, move)
        if result.status == "won":
            self.set_status(f"{label}: {what} (wins){peeked}   p: play it", "good")
        elif result.status == "lost":
            self.set_status(f"{note}. Best try ({label.lower()}): {what}{peeked}   p: play it", "error")
        else:
            words = f" ({note[:1].lower() + note[1:]})" if note else ""
            self.set_status(f"{label}: {what}{words}{peeked}   p: play it", "good")
        self.refresh_table()

    def action_toggle_winnable(self) -> None:
        self.show_winnable = not self.show_winnable
        if self.show_winnable:
            self.set_status("Still winnable? Checked after each move (perfect information: the solver sees "
                            f"{self._unseen()})")
            self._start_winnable()
        else:
            self._cancel("winnable")
            self.set_status("Still-winnable indicator off")
        self._update_info()

    def _start_winnable(self) -> None:
        if not self.show_winnable:
            return
        if self.game.is_won():
            self.winnable_text = "won"
            self._update_info()
            return
        position = self.game.copy(history=True)
        self.winnable_text = "winnable: …"
        self._update_info()
        advisor = self.advisor

        def work(stop: threading.Event) -> Verdict:
            return advisor.winnable(position, stop=stop)

        def done(result: Any) -> None:
            if isinstance(result, Exception):
                self.winnable_text = "winnable: n/a"
            elif result.status == "lost" and result.last_winnable is not None:
                self.winnable_text = f"not winnable ✗ (was at move {result.last_winnable - self.session.dealt})"
            else:
                self.winnable_text = {"won": "winnable ✓", "lost": "not winnable ✗"}.get(result.status, "winnable: ?")
            self._update_info()

        self._start_job("winnable", work, done)


__all__ = ["SolverJobs"]
