"""The terminal game's records and replays: export (``x``), stepping through the moves (``,`` ``.`` ``l``),
and the keys of the analysis (``W``, ``b``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from ..cli_common import plural
from ..demo import computer_moves
from ..notation import Move
from ..record import GameRecord as GameFile
from ..store import COMPUTER_MOVES
from ..visible import hidden_in
from .base import TableApp
from .replay import Replay
from .session import Session, describe_move
from .texts import no_line_text


class ReplayActions(TableApp):
    """Records, replays and the analysis' keys (the analysis itself runs as a job: YukonApp._analyze)."""

    def _over_or_why(self, what: str) -> bool:
        """Is the game over (won, no legal move, or given up with W, as in the web game, where a game given
        up can be exported)? If not, say why ``what`` waits for that."""
        if self.session.game.is_over() or self.session.result is not None:
            return True
        self.set_status(f"{what} once the game is over (won, no legal move left, or given up with W): "
                        f"the record shows {self._start_hid()} at the start", "error")
        return False

    def _start_hid(self) -> str:
        """What the record and the analysis show that the player could not see, in the engine's words: the
        start's (Australian Patience deals every card face up: there it is the stock's order, not "the face-down
        cards"; and the start's, not the table's: a stock played out or every card turned hid them before)."""
        return hidden_in(self.session.start)

    def _record(self) -> GameFile:
        """The game as a record, with its end: at a dead end the terminal game records ``lost`` only
        when the player leaves it (undo may still lead out), but the record of the dead end says so."""
        record = self.session.to_record()
        game = self.session.game
        if record.result is None and game.is_over():
            record = dataclasses.replace(record, result="won" if game.is_won() else "lost")
        return record

    def action_export(self) -> None:
        if not self._over_or_why("Export works"):
            return
        record = self._record()
        start = self.session.start
        deal = str(start.seed) if start.seed is not None else "position"
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        path = (self.export_dir or Path.cwd()) / f"yukon-{start.rules.variant}-{deal}-{stamp}.json"
        try:
            record.write(path)
        except OSError as exc:
            self.set_status(f"Could not write {path}: {exc.strerror or exc}", "error")
            return
        self.exported = path
        self.set_status(f"Game record written to {path}", "good")

    def _enter_replay(self, line: Sequence[Move], at: int, better_from: int | None = None) -> None:
        self.state.pick = None
        self.state.hint = None
        if self.replay is None:
            # looking back is not playing: the game's clock stands still while a replay is shown (and the top
            # line, the saved game and the statistics keep the game's own time)
            self._clock_before_replay = self.session.clock_running
            self.session.stop_clock()
        self.replay = Replay(self.session.start, line, at, better_from, first=self.session.dealt)
        self.refresh_bindings()

    def leave_replay(self) -> None:
        self.replay = None
        if self._clock_before_replay:
            self.session.start_clock()
        self._clock_before_replay = False
        self.refresh_bindings()
        self.refresh_table()

    def action_replay(self, delta: int) -> None:
        if self.replay is None:
            moves = self.session.moves
            if delta > 0 or not moves:
                self.set_status("Replay: , steps back through the moves played (. forward)", "error")
                return
            self._enter_replay(moves, len(moves))
        replay = self.replay
        assert replay is not None
        if not replay.step(delta):
            self.set_status("The start of the game" if delta < 0 else "The end of the line", "error")
            return
        self._say_replay()
        self.refresh_table()

    def _say_replay(self) -> None:
        replay = self.replay
        assert replay is not None
        total = replay.shown_total
        nxt = replay.next_move
        upcoming = f"; next: {describe_move(replay.position, nxt)}" if nxt is not None else ""
        keys = ", .: step  l: play from here  esc: back"
        if replay.better_from is not None:
            where = "winning line" if replay.at >= replay.better_from else "game, before the winning line"
            self.set_status(f"Replay of the {where}: move {replay.shown_at}/{total} ({keys}){upcoming}", "good")
        else:
            self.set_status(f"Replay: move {replay.shown_at}/{total} ({keys}){upcoming}")

    def action_play_from_here(self) -> None:
        replay = self.replay
        if replay is None:
            self.set_status("l plays on from a replay: , steps back through the game first", "error")
            return
        played = len(self.session.moves)
        keep = replay.at if replay.better_from is None else min(replay.at, replay.better_from)
        if replay.better_from is None:  # the deal's automatic plays are the deal's: play resumes after them
            keep = max(keep, self.session.dealt)
        theirs = [] if replay.better_from is None else list(replay.line[replay.better_from:replay.at])
        # A finished game (won, lost, or given up with W) keeps its result: playing on is a new game, saved as it
        # is played, as the web's "Play on from here (a new game)". (It went on in the game given up: the header
        # said "given up", the clock stood still, and the moves were lost on quitting, unsaved.)
        finished = self.session.result is not None
        if finished and keep == played and not theirs and self.session.game.is_over():
            self.set_status("The game ended here: , steps back to a position to play on from", "error")
            return
        self.leave_replay()
        session = Session.played_on(self.session, clock=self._time_source) if finished else self.session
        try:
            if finished:
                session.start_clock()  # a game in play (it stops at once if the position is over)
            if keep < played:
                session.undo(to=keep)
            if theirs:
                # the solver's moves are the computer's: a game it wins is not the player's win in the statistics
                session.extra[COMPUTER_MOVES] = computer_moves(session.extra) + len(theirs)
                session.play_line(theirs)
            elif finished and keep == played:
                session.save()  # (a game given up, played on from where it was left)
        except Exception as exc:  # the session says why (a game locked by its result, say)
            self.set_status(f"Cannot play from there: {exc}", "error")
            self.refresh_table()
            return
        if finished:
            self._take_up(session)
        # (it said "the later moves are on the redo list" also when nothing was undone and the solver's moves
        # had just been played: r then had nothing to redo)
        text = f"{'A new game from' if finished else 'Playing on from'} move {self.session.moves_made}"
        if theirs:
            text += f": the solver's {plural(len(theirs), 'move')} {'is' if len(theirs) == 1 else 'are'} played " + (
                f"(u takes {'it' if len(theirs) == 1 else 'them'} back)")
        elif keep < played:
            text += " (the later moves are on the redo list: r)"
        self.set_status(text)
        self._after_change()

    def action_analyze(self) -> None:
        session = self.session
        if session.result is None and not session.moves_made and not session.game.is_over():
            # (not "... or given up with W": W was the key just pressed; a game not begun has no move to blame).
            # Nor one taken back to the deal (R, or u to the start): W asked to give it up, then said of its
            # no moves "It can still be won from here: no move lost it"
            none = "none is on the table (r redoes the moves taken back)" if session.can_redo else "play a move first"
            self.set_status(f"Where did it go wrong? looks at the moves you play: {none}", "error")
            return
        if session.in_progress and not session.game.is_over():
            # at any time, as in the web game: the answer shows face-down cards, so the game ends first
            self._confirm_then(f"Give up this game to see where it went wrong? {self._leaving().capitalize()} "
                               f"(the answer shows {self._start_hid()}).", self._give_up_and_analyze)
            return
        if session.result != "abandoned" and not self._over_or_why("Where did it go wrong? works"):
            return
        self._analyze()

    def _give_up_and_analyze(self) -> None:
        self.session.abandon()
        self.refresh_table()
        self._analyze()

    def action_better_line(self) -> None:
        result = self.analysis
        if result is not None and result.losing_move is not None:
            before, then = result.losing_move - 1, result.continuation
        elif result is not None and result.winning_line:  # a game given up while it could still be won
            before, then = len(self.session.moves), result.winning_line
        else:
            self.set_status(no_line_text(result, own_position=self.session.start.seed is None), "error")
            return
        line = [*self.session.moves[:before], *then]
        self._enter_replay(line, before, better_from=before)
        self._say_replay()
        self.refresh_table()


__all__ = ["ReplayActions"]
