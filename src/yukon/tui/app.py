"""The terminal game: a Textual app that draws a :class:`~yukon.tui.session.Session` and plays it.

Keyboard: a cursor moves over the cards; ``space``/``enter`` picks the card
under it (the cards on it travel along) and then puts it on the column or
foundation under the cursor; digits put it on a column at once. Mouse: click
a card, then a destination. Every key is declared once in
:attr:`YukonApp.BINDINGS` (:mod:`yukon.tui.keys`), which feeds the footer and the help screen.

The app is made of parts by job, each a mixin over :class:`~yukon.tui.base.TableApp` (which declares what they
share): :class:`~yukon.tui.keys.KeyActions` (the bindings, which keys work now, help, statistics, the demo's
keys), :class:`~yukon.tui.layout.TableLayout` (the widgets and their sizes, the top and status lines),
:class:`~yukon.tui.picking.Picking` (the cursor, picking and putting down by key or click),
:class:`~yukon.tui.playing.Playing` (moves, deal, undo, redo, restart, auto-play),
:class:`~yukon.tui.gameover.GameOver` (the won/lost box), :class:`~yukon.tui.replaying.ReplayActions`
(export, replay, the analysis' keys), :class:`~yukon.tui.newgames.NewGames` and
:class:`~yukon.tui.jobs.SolverJobs` (worker threads, hints, the still-winnable indicator). Here: the app's
state, its start and end, and the analysis' job. Its words are :mod:`yukon.tui.texts`.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..advisor import HONEST, HintKind
from ..analysis import Analysis, analyze
from ..cli_common import plural
from ..game import Game
from ..rules import Rules, rules_for
from ..store import Store
from .demo import Demo
from .gameover import GameOver
from .jobs import SolverJobs
from .keys import KeyActions
from .layout import TABLE_CSS, Tableau, TableLayout
from .newgames import NewGames
from .picking import Picking
from .playing import Playing
from .replay import Replay
from .replaying import ReplayActions
from .session import Session
from .texts import STATUS_LINES, analysis_text, info_line, no_line_text
from .widgets import Cursor, TableState


class YukonApp(KeyActions, Picking, Playing, GameOver, TableLayout, ReplayActions, NewGames, SolverJobs):
    """Yukon and its family at the terminal."""

    TITLE = "Yukon"
    ENABLE_COMMAND_PALETTE = False

    CSS = TABLE_CSS

    def __init__(
        self,
        store: Store | None,
        game: Game | None = None,
        *,
        rules: Rules | None = None,
        resume: bool = True,
        clock: Callable[[], float] = time.monotonic,
        hint_time: float = 1.0,
        winnable_time: float = 5.0,
        winnable: bool = False,
        autoplay: bool = True,
        hint_kind: HintKind = HONEST,
        tick: bool = True,
        new_seed: Callable[[], int] | None = None,
        session: Session | None = None,
        export_dir: Path | None = None,
        demo: bool = False,
        analysis_time: float = 1.0,
        analysis_total: float = 30.0,
    ) -> None:
        """``game``: play this position; otherwise resume the latest unfinished game in ``store``
        (when ``resume``), else deal a random game of ``rules`` (default: Yukon).

        ``clock`` measures the playing time, ``tick=False`` stops the once-a-second redraw and
        ``new_seed`` picks the deal numbers of new games (all three for tests); ``hint_time`` and
        ``winnable_time`` limit the solver's thinking. ``session``: play this session (an imported game
        record, :meth:`Session.from_game_record`). ``export_dir``: where ``x`` writes records (default:
        the current directory). ``analysis_time`` and ``analysis_total``: the solver's seconds per
        position and for the whole analysis (``W``). ``demo``: start watching the computer play
        (:class:`yukon.tui.demo.Demo`, also ``t``)."""
        super().__init__()
        self._new_seed = new_seed or (lambda: secrets.randbelow(1 << 32))
        self.store = store
        self._time_source = clock
        self._show_clock = tick
        self.hint_time = hint_time
        self.winnable_time = winnable_time
        self.show_winnable = winnable
        #: new games are deals the solver proved winnable (chosen in the new-game screen)
        self.winnable_only = False
        #: the new-game screen's other choices: a deal proven lost, or a winnable deal of a difficulty
        self.deal_kind = "any"
        self.deal_difficulty: str | None = None
        self._deal_note = ""
        self.export_dir = export_dir
        self.analysis_time = analysis_time
        self.analysis_total = analysis_total
        #: the replay shown (None: the game in play)
        self.replay: Replay | None = None
        self._clock_before_replay = False  # the game's clock ran when the replay began (it runs again after)
        #: the last analysis of this game (``W``), for ``b``
        self.analysis: Analysis | None = None
        #: the last record written by ``x``
        self.exported: Path | None = None
        self.resumed = False
        if session is None and game is None and resume and store is not None:
            session = Session.resume(store, clock=clock)
            self.resumed = session is not None
        if session is None:
            if game is None:
                game = Game.deal(rules or rules_for("yukon"), seed=self._new_seed())
            session = Session(game, store, clock=clock, autoplay=autoplay, hint_kind=hint_kind)
            session.play_opening()
        self.session = session
        self.state = TableState(session.game)
        self.winnable_text = ""
        self._hint_shown_kind: str = HONEST  # the kind of the hint on the table (state.hint)
        self.data_reader: threading.Thread | None = None  # reads the shipped verdicts at start (on_mount)
        self._status_text = ""
        self._status_kind = ""
        self._status_shorter: tuple[str, ...] = ()
        self._jobs: dict[str, tuple[int, threading.Event]] = {}
        self._job_counter = 0
        self._announced = False
        self.advisor = self._new_advisor()
        self._explained: set[int] = set()  # cards whose holding back by auto-play was explained
        #: why auto-play left a card after the last move ("" when it did not), and its short form (the cards alone)
        self.held_note = ""
        self.held_short = ""
        self._bindings_for: tuple[str, bool] = ("", False)
        #: the computer playing this table ("watch the computer play")
        self.demo = Demo(self)
        self._demo_at_start = demo

    def on_mount(self) -> None:
        self.state.cursor = Cursor("tab", 0, self._free_index(0))
        # The shipped verdicts (the deal's grade, lost deals) take a third of a second to read, once: read them
        # now, beside the table, not when the game ends (the top line's grade froze the table as it was won).
        self.data_reader = threading.Thread(target=_read_verdicts, name="yukon-verdicts", daemon=True)
        self.data_reader.start()
        if self._show_clock:
            self.set_interval(1.0, self._update_info)
        if self.resumed:
            g = self.session.game
            what = f"deal {g.seed}" if g.seed is not None else "your position"
            self.set_status(f"Welcome back: {what} of {g.rules.title}, "
                            f"{plural(self.session.moves_made, 'move')} played.  n: new game", "good")
        else:
            tip = "  d: deal." if self.game.rules.has_stock else ""
            self.set_status(f"Pick a card (⏎ or click), then where it goes.{tip}  ?: help")
        self.refresh_table()
        self._start_winnable()
        self._check_over()  # a resumed game may be at a dead end
        if self._demo_at_start:
            self.demo.start()

    def on_unmount(self) -> None:
        self.demo.stop()
        for _, stop in self._jobs.values():
            stop.set()
        with contextlib.suppress(Exception):  # never lose the exit to a store problem
            if self.session.result is None:
                self.session.save()

    @property
    def game(self) -> Game:
        """The position on the table: the game in play, or the replay's position."""
        return self.replay.position if self.replay is not None else self.session.game

    # (here, not in ReplayActions: the search it runs is this module's analyze, which a test stands in for)
    def _analyze(self) -> None:
        record = self._record()
        per_position, total = self.analysis_time, self.analysis_total
        self.set_status(f"Where did it go wrong? The solver looks at the game (up to {total:g} s; esc stops)…")

        def work(stop: threading.Event) -> Any:
            return analyze(record, time_limit=per_position, total_limit=total, stop=stop)

        def done(result: Any) -> None:
            if isinstance(result, Exception):
                self.set_status(f"The analysis did not run: {result}", "error")
                return
            self.analysis = result
            self.set_status(*analysis_text(result, record.moves, record.start, self.session.dealt))

        self._start_job("analysis", work, done)


def _read_verdicts() -> None:
    """Read the shipped verdicts into their cache (:mod:`yukon.deal_data`); a damaged file is told when used."""
    from .. import deal_data

    with contextlib.suppress(deal_data.VerdictDataError):
        deal_data.has_verdicts(rules_for("yukon"))


# (the status line's and the analysis' words live in texts.py; named here too, where the app's users find them)
__all__ = ["STATUS_LINES", "Tableau", "YukonApp", "analysis_text", "info_line", "no_line_text"]
