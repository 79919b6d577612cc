"""The terminal game: a Textual app that draws a :class:`~yukon.tui.session.Session` and plays it.

Keyboard: a cursor moves over the cards; ``space``/``enter`` picks the card
under it (the cards on it travel along) and then puts it on the column or
foundation under the cursor; digits put it on a column at once. Mouse: click
a card, then a destination. Every key is declared once in
:attr:`YukonApp.BINDINGS`, which feeds the footer and the help screen.

The app is made of parts by job: :class:`~yukon.tui.jobs.SolverJobs` (worker threads, hints, the
still-winnable indicator), :class:`~yukon.tui.replaying.ReplayActions` (export, replay, the analysis'
keys) and :class:`~yukon.tui.newgames.NewGames`, over :class:`~yukon.tui.base.TableApp`; its words are
:mod:`yukon.tui.texts`.
"""

from __future__ import annotations

import contextlib
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.geometry import Region
from textual.widgets import Static

from ..advisor import HONEST, HintKind
from ..analysis import Analysis, analyze
from ..autoplay import held_back, is_certain_win, left_in_sentences, left_to_the_player
from ..cards import PRETTY
from ..cli_common import plural
from ..demo import computer_moves
from ..errors import IllegalMoveError, YukonError
from ..game import Game
from ..notation import FOUNDATION, STOCK_MOVE, WASTE, Move
from ..rules import Rules, rules_for
from ..session import NothingToDoError, card_key
from ..store import Store
from ..winnable_deals import (
    shown_difficulty,
)
from .demo import Demo
from .footer import FittingFooter
from .jobs import SolverJobs
from .newgames import NewGames
from .replay import Replay
from .replaying import ReplayActions
from .screens import GameOverScreen, HelpScreen, StatsScreen, clock_text
from .session import Pick, Session, describe_move
from .texts import (
    STATUS_LINES,
    analysis_text,
    fit_status,
    info_line,
    no_line_text,
    replay_label,
    status_lines_for,
    win_stats_line,
)
from .widgets import (
    MAX_WIDTH,
    SLOT,
    ColumnView,
    Cursor,
    PileView,
    TableState,
    pile_widths,
    tableau_columns,
    top_row,
)

#: What a key or click that would change the game says while a replay is shown.
REPLAYING = "Replaying: l plays on from here, esc goes back to the game"


class Tableau(VerticalScroll, can_focus=False):
    """The columns; scrolls when they are taller than the terminal (keys stay with the app)."""

    _laid_out_for: tuple[int, int] | None = None

    def on_resize(self, event: events.Resize) -> None:
        # the status line taking its second line (or giving it back) changes nothing on the table: no redraw
        lines = getattr(self.app, "_status_lines", lambda: 1)()
        room = (event.size.width, event.size.height + lines)
        if room == self._laid_out_for:
            return
        self._laid_out_for = room
        refresh = getattr(self.app, "refresh_table", None)
        if refresh is not None:
            self.call_after_refresh(refresh)


class YukonApp(ReplayActions, NewGames, SolverJobs):
    """Yukon and its family at the terminal."""

    TITLE = "Yukon"
    ENABLE_COMMAND_PALETTE = False

    CSS = """
    Screen { layout: vertical; }
    #info { height: 1; padding: 0 1; background: $panel; color: $text; }
    #piles-row { height: 1; margin: 1 0 0 0; padding: 0 1; align-horizontal: center; }
    #piles { height: 1; width: auto; }
    #piles .spacer { width: 1fr; height: 1; }
    #tableau { height: 1fr; padding: 0 1; scrollbar-size: 1 1; overflow-x: auto; align-horizontal: center; }
    #columns { height: auto; width: auto; min-height: 100%; }
    #status { height: auto; max-height: 2; padding: 0 1; color: $text-muted; }  /* (3 below 80 columns) */
    #status.error { color: $error; }
    #status.good { color: $success; }
    """

    #: Every key, once: the footer shows the keys a player needs (``show=True``), the help (``?``) all of them.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_game", "New", tooltip="New game (a random deal; winnable only if chosen with v)"),
        Binding("g,number_sign", "deal_number", "Deal #", tooltip="Play a deal by its number"),
        Binding("v", "variant", "Variant", tooltip="New game: choose the variant, its rule options and the deal "
                "(winnable, of a difficulty, lost)"),
        Binding("s", "stats", "Stats", tooltip="Statistics (shared with the web game)"),
        Binding("h", "hint", "Hint", tooltip="Show a good move: the honest player's (it sees what you see), "
                "or the solver's (it sees the face-down cards) when chosen with k"),
        Binding("p", "play_hint", "Play hint", tooltip="Play the hint shown (or the next one)"),
        Binding("u,backspace", "undo", "Undo", tooltip="Take back the last move"),
        # (in the key bar while the stock has cards: Australian Patience and Milligan Yukon)
        Binding("d", "deal", "Deal", tooltip="Deal from the stock"),
        Binding("t", "demo", "Watch", tooltip="Watch the computer play (it sees only what you see); t or esc "
                "stops it, space pauses, . then plays one move, + and - set the speed, any move of yours takes over"),
        Binding("t", "demo_stop", "Stop", tooltip="While the computer plays: stop it (or esc) and play on from there"),
        Binding("space", "demo_pause", "Pause", tooltip="While the computer plays: pause"),
        Binding("space", "demo_resume", "Play on", tooltip="While the computer's game is paused: play on"),
        Binding("full_stop", "demo_step", "Step", key_display=".",
                tooltip="While the computer's game is paused: it plays one move, and stays paused"),
        Binding("plus,equals_sign", "demo_speed(1)", "Faster", key_display="+",
                tooltip="While the computer plays: faster"),
        Binding("minus", "demo_speed(-1)", "Slower", key_display="-", tooltip="While the computer plays: slower"),
        Binding("q,ctrl+c", "quit", "Quit", key_display="q", tooltip="Quit (the game is saved and resumes next time)"),
        Binding("question_mark,f1", "help", "Help", key_display="?", tooltip="This help: every key"),
        Binding("left", "cursor('left')", "Cursor", show=False, tooltip="Move the cursor"),
        Binding("right", "cursor('right')", "Cursor", show=False, tooltip="Move the cursor"),
        Binding("up", "cursor('up')", "Cursor", show=False, tooltip="Move the cursor"),
        Binding("down", "cursor('down')", "Cursor", show=False, tooltip="Move the cursor"),
        Binding("space,enter", "select", "Pick/put", show=False,
                tooltip="Pick up the card under the cursor (the cards on it travel along), or put it down here"),
        *[
            Binding(str(n), f"column({n - 1})", f"Column {n}", show=False,
                    tooltip="Put the picked card on column N (or go to column N)")
            for n in range(1, 10)
        ],
        Binding("f", "foundation", "Up", show=False, tooltip="Send the picked card (or the one under the cursor) up"),
        Binding("m", "smart", "Move", show=False,
                tooltip="Move the card (and those on it) where it fits best: up, else onto a column"),
        Binding("w", "waste", "Waste", show=False, tooltip="Pick the waste's top card"),
        Binding("escape", "cancel", "Cancel", show=False, tooltip="Cancel: put the picked card back, hide the hint"),
        Binding("r", "redo", "Redo", show=False, tooltip="Play the move taken back again"),
        Binding("a", "toggle_autoplay", "Auto", show=False,
                tooltip="Auto-play on/off: cards that cannot be needed go up by themselves"),
        Binding("e", "finish", "Finish", show=False, tooltip="Auto-finish, once every card is face up and in order"),
        Binding("c", "toggle_winnable", "Winnable?", show=False,
                tooltip="Still winnable? indicator on/off (perfect information: the solver sees the face-down cards)"),
        Binding("k", "toggle_hint_kind", "Hint kind", show=False,
                tooltip="Hints: no peeking (the default) or the solver hint, which sees the face-down cards"),
        Binding("R", "restart", "Restart", show=False, tooltip="Restart this deal (r then redoes the moves)"),
        Binding("comma", "replay(-1)", "Back", show=False, key_display=",",
                tooltip="Replay: one move back (the saved game does not change)"),
        Binding("full_stop", "replay(1)", "Forward", show=False, key_display=".",
                tooltip="Replay: one move forward"),
        Binding("l", "play_from_here", "Play from here", show=False,
                tooltip="Replay: play on from the position shown (the later moves go to the redo list)"),
        Binding("x", "export", "Export", show=False,
                tooltip="Export the game as a record (a JSON file in the current directory), once it is over"),
        Binding("W", "analyze", "Where?", show=False,
                tooltip="Where did it go wrong? The move that lost the game (a game in play is given up first)"),
        Binding("b", "better_line", "Better line", show=False,
                tooltip="After the analysis: step through a winning line from before the losing move"),
    ]

    #: The keys that work while replaying (the others would change the game).
    REPLAY_ACTIONS: ClassVar[frozenset[str]] = frozenset({
        "replay", "play_from_here", "cancel", "quit", "help", "stats", "cursor", "export", "analyze", "better_line",
    })

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

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Static(id="info")
        with Horizontal(id="piles-row"), Horizontal(id="piles"):
            yield from top_row(self.state)
        with Tableau(id="tableau"), Horizontal(id="columns"):
            yield from tableau_columns(self.state)
        yield Static(id="status")
        yield FittingFooter(compact=True)

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

    # ------------------------------------------------------------------ drawing

    @property
    def game(self) -> Game:
        """The position on the table: the game in play, or the replay's position."""
        return self.replay.position if self.replay is not None else self.session.game

    def refresh_table(self) -> None:
        """Redraw everything from the session (after any change)."""
        state = self.state
        state.game = self.game
        self._clamp_cursor()
        state.targets = self._targets()
        try:
            tableau = self.query_one("#tableau", Tableau)
        except Exception:
            return
        columns = list(self.query(ColumnView))
        need = 1 + max((len(d) + len(u) for d, u in self.game.columns), default=0)
        # counted as if the status line took all its lines: a long message then does not fold the columns
        most = self._fit_status()
        avail = tableau.size.height - (most - self._status_lines())
        # Where even the folded columns are taller than that, the blank line over the top row goes (the table
        # scrolled, and its scrollbar moved every column sideways). Decided on the height the table has with
        # that line, so that taking it away never brings it back.
        row = self.query_one("#piles-row")
        spaced = row.styles.margin.top > 0
        folded = 1 + max((min(1, len(d)) + len(u) for d, u in self.game.columns), default=0)
        tight = bool(avail) and folded > avail - (0 if spaced else 1)
        if tight == spaced:
            row.styles.margin = (0 if tight else 1, 0, 0, 0)
        state.compact = bool(avail) and need > avail
        # Equal columns as wide as the terminal allows (SLOT to MAX_WIDTH cells; padding and a scrollbar
        # aside); the top row spans the same width, so the stock sits over column 1 and the foundations
        # end over the last column. More piles than columns (Milligan Yukon) share that width.
        width = max(SLOT, min(MAX_WIDTH, (self.size.width - 3) // max(1, len(columns))))
        for w in columns:
            if w.styles.width is None or w.styles.width.value != width:
                w.styles.width = width
            w.refresh(layout=True)
        piles = list(self.query(PileView))
        table_width = width * max(1, len(columns))
        stock_width, pile_width = pile_widths(table_width, len(piles), width, self.game.rules.has_stock)
        with contextlib.suppress(Exception):
            row = self.query_one("#piles", Horizontal)
            if row.styles.width is None or row.styles.width.value != table_width:
                row.styles.width = table_width
        for p in piles:
            want = stock_width if p.kind == "stock" else pile_width
            if p.styles.width is None or p.styles.width.value != want:
                p.styles.width = want
            p.refresh(layout=True)
        self._update_info()
        # the stock and waste keys come and go with the variant, and d with the stock's last card
        bindings_for = (self.game.rules.variant, self._can_deal())
        if self._bindings_for != bindings_for:
            self._bindings_for = bindings_for
            self.refresh_bindings()  # (it rebuilds the key bar: not after every move)
        self.call_after_refresh(self._scroll_to_cursor)

    def _scroll_to_cursor(self) -> None:
        cur = self.state.cursor
        if cur.area != "tab":
            return
        try:
            tableau = self.query_one("#tableau", Tableau)
            col = self.query_one(f"#col-{cur.pile + 1}", ColumnView)
        except Exception:
            return
        row = col.row_of(cur.index)
        region = col.virtual_region
        tableau.scroll_to_region(Region(region.x, region.y + max(0, row - 1), region.width, 2), animate=False)

    def _update_info(self) -> None:
        s = self.session
        g = s.game
        winnable = self.winnable_text if self.show_winnable else ""
        if s.result == "abandoned":  # given up (W): what is played on from here counts for nothing; say so
            winnable = " · ".join(w for w in ("given up", winnable) if w)
        elif s.result == "won":  # (a won game may be undone: its win stays counted, and the top line says so)
            winnable = " · ".join(w for w in ("won" if g.is_won() else "won (undone)", winnable) if w)
        moves = self.replay.shown_at if self.replay is not None else s.moves_made
        # the grade says the deal can be won: shown for a deal dealt as winnable, or once the game is over
        grade = shown_difficulty(g.rules, g.seed, g.numbering, told_winnable=s.extra.get("deal_winnable") == "won",
                                 over=s.result is not None or g.is_over())
        # the position on the table (a replay's, when replaying): its move count goes with its cards up
        text = info_line(self.game, moves, s.elapsed, s.autoplay, winnable, max(20, self.size.width - 2), grade,
                         replay=replay_label(self.replay) if self.replay is not None else None)
        with contextlib.suppress(Exception):
            self.query_one("#info", Static).update(Text(text, no_wrap=True, overflow="ellipsis"))

    def set_status(self, text: str, kind: str = "", *, width: int | None = None, shorter: tuple[str, ...] = ()) -> None:
        """The message at the bottom, on one line or more (status_lines_for) when it is long: ``kind`` is ``""``,
        ``"error"`` or ``"good"``; ``width``: the terminal's (default: the app's size now). ``shorter``: shorter
        forms of ``text``, the first that fits shown where ``text`` does not (fit_status: else it ends after a
        whole clause)."""
        self._status_text, self._status_kind, self._status_shorter = text, kind, shorter
        try:
            status = self.query_one("#status", Static)
        except Exception:
            return
        columns = self.size.width if width is None else width
        status.update(Text(fit_status([text, *shorter], columns - 2, status_lines_for(columns)), overflow="ellipsis"))
        status.set_class(kind == "error", "error")
        status.set_class(kind == "good", "good")

    def on_resize(self, event: events.Resize) -> None:
        # folded again for the new width: the event's (while it is handled, the app's size is still the old one)
        self.set_status(self._status_text, self._status_kind, width=event.size.width, shorter=self._status_shorter)

    @property
    def status_text(self) -> str:
        return self._status_text

    def _status_lines(self) -> int:
        """How many lines the status line takes now (1 before it is laid out)."""
        try:
            return max(1, min(status_lines_for(self.size.width), self.query_one("#status", Static).size.height))
        except Exception:
            return 1

    def _fit_status(self) -> int:
        """Let the status line take as many lines as this width needs (status_lines_for); return that many."""
        most = status_lines_for(self.size.width)
        with contextlib.suppress(Exception):
            status = self.query_one("#status", Static)
            if status.styles.max_height is None or status.styles.max_height.value != most:
                status.styles.max_height = most
        return most

    def _targets(self) -> frozenset[int]:
        """Where the picked card may go (columns, and FOUNDATION), to mark them."""
        pick = self.state.pick
        if pick is None:
            return frozenset()
        return frozenset(
            m.dst for m in self.game.legal_moves()
            if m.src == pick.src and m.card == pick.card and (m.count == pick.count or m.dst == FOUNDATION)
        )

    # ------------------------------------------------------------------ cursor

    def _free_index(self, column: int) -> int:
        down, up = self.game.columns[column]
        return max(0, len(down) + len(up) - 1)

    def _clamp_cursor(self) -> None:
        cur = self.state.cursor
        if cur.area == "top":
            n = len(self.state.top_piles())
            cur.pile = min(max(cur.pile, 0), n - 1)
            return
        cols = self.game.rules.columns
        cur.pile = min(max(cur.pile, 0), cols - 1)
        down, up = self.game.columns[cur.pile]
        if not up:
            cur.index = 0
        else:
            cur.index = min(max(cur.index, len(down)), len(down) + len(up) - 1)

    def _top_for_column(self, column: int) -> int:
        """The top-row pile above a column (roughly, by position)."""
        tops = self.state.top_piles()
        cols = self.game.rules.columns
        founds = [i for i, (k, _) in enumerate(tops) if k == "found"]
        others = [i for i, (k, _) in enumerate(tops) if k != "found"]
        if others and column < len(others):
            return others[column]
        # foundations are right-aligned: column c sits under the (cols - c)-th pile from the right
        from_right = cols - 1 - column
        return founds[max(0, len(founds) - 1 - from_right)]

    def _column_for_top(self, top: int) -> int:
        tops = self.state.top_piles()
        cols = self.game.rules.columns
        kind = tops[top][0]
        if kind != "found":
            return min(top, cols - 1)
        from_right = len(tops) - 1 - top
        return max(0, cols - 1 - from_right)

    def action_cursor(self, direction: str) -> None:
        cur = self.state.cursor
        if cur.area == "top":
            n = len(self.state.top_piles())
            if direction == "left":
                cur.pile = (cur.pile - 1) % n
            elif direction == "right":
                cur.pile = (cur.pile + 1) % n
            elif direction == "down":
                col = self._column_for_top(cur.pile)
                down, _ = self.game.columns[col]
                self.state.cursor = Cursor("tab", col, len(down))
        else:
            cols = self.game.rules.columns
            down, up = self.game.columns[cur.pile]
            if direction in ("left", "right"):
                cur.pile = (cur.pile + (1 if direction == "right" else -1)) % cols
            elif direction == "up":
                if up and cur.index > len(down):
                    cur.index -= 1
                else:
                    self.state.cursor = Cursor("top", self._top_for_column(cur.pile), 0)
            elif direction == "down" and up and cur.index < len(down) + len(up) - 1:
                cur.index += 1
        self.refresh_table()

    # ------------------------------------------------------------------ playing

    def play(self, move: Move, prefix: str = "") -> bool:
        """Play the player's move; an illegal one is explained in the status bar. True if played."""
        if self.replay is not None:
            self.set_status(REPLAYING, "error")
            return False
        before = self.game.copy()
        try:
            played = self.session.play(move)
        except YukonError as exc:
            self.set_status(self._reason(exc), "error")
            self.bell()
            self.refresh_table()
            return False
        self.state.pick = None
        self.state.hint = None
        text = prefix + describe_move(before, move)
        extra = len(played) - 1
        if extra:
            text += f"; {extra} card{'s' if extra > 1 else ''} played up automatically"
        self.held_note, self.held_short = self._held_back_news()
        short = text + f"; {self.held_short}" if self.held_short else ""
        if self.held_note:
            text += f"; {self.held_note}"
        self.set_status(text[:1].upper() + text[1:], shorter=(short[:1].upper() + short[1:],) if short else ())
        self._after_change()
        return True

    def _reason(self, exc: YukonError) -> str:
        """Why the move was refused, in the session's words (the same as the web table's)."""
        text = self.session.explain(exc) if isinstance(exc, IllegalMoveError) else str(exc)
        return text[:1].upper() + text[1:]

    def _held_back_news(self) -> tuple[str, str]:
        """Why auto-play leaves a card that could go up (said once per card and game), or ``""``: while a
        Milligan stock lasts, or because the tableau may still need it (an Ace in Alaska, where a 2 may go
        on it), in the web table's words too (:func:`~yukon.autoplay.left_to_the_player`; the cards left for the
        same reason in one sentence, :func:`~yukon.autoplay.left_in_sentences`); and its short form,
        the cards alone, for a status line too small for every card's why (a Milligan deal leaving two Aces
        took 320 characters: at 80x24 it ended mid-sentence)."""
        if not self.session.autoplay:
            return "", ""
        said: list[tuple[Move, str]] = []
        for move, why in left_to_the_player(self.game):
            if move.card not in self._explained:
                self._explained.add(move.card)
                said.append((move, why))
        if not said:
            return "", ""
        key = "; f plays it up" if len(said) == 1 else "; f plays one up"
        stock = {m.card for m in held_back(self.game)}
        short = []
        for for_stock in (True, False):
            cards = [PRETTY[m.card] for m, _ in said if (m.card in stock) == for_stock]
            if cards:
                named = ", ".join(cards[:-1]) + " and " + cards[-1] if len(cards) > 1 else cards[0]
                why = " while the stock lasts" if for_stock else \
                    f" (the tableau may still need {'them' if len(cards) > 1 else 'it'})"
                short.append(f"auto-play leaves {named}{why}")
        # (cards left for the same reason share one sentence: "A♠ and A♥ are not played up ... on each")
        whole = left_in_sentences(self.game, {m.card for m, _ in said})
        return "; ".join(whole) + key, "; ".join(short) + key

    def _after_change(self) -> None:
        self.analysis = None  # it was of the game before this change
        if self.session.store_error:
            self.set_status(f"Warning: {self.session.store_error}", "error")
        self.state.hint = None
        self._cancel("hint")
        self.refresh_table()
        self._start_winnable()
        self._check_over()

    def _check_over(self) -> None:
        s = self.session
        status = s.status
        if status not in ("won", "lost"):
            self._announced = False
            return
        if self._announced:
            return
        self._announced = True
        if status == "lost" and s.result == "won":
            # A won game undone and played on into a dead end: it stays won (the statistics keep the win, the top
            # line says "won (undone)"), so no lost box; the web table takes no move after a win at all.
            self.set_status("No legal move left on this line: a dead end, but the game was won and stays won.  "
                            "u: undo  n: new game")
            return
        won = status == "won"
        deal = f"Deal {self.game.seed}" if self.game.seed is not None else "This position"
        details = f"{deal} of {self.game.rules.title}: {plural(s.moves_made, 'move')}, {clock_text(s.elapsed)}."
        computer = computer_moves(s.extra)
        if computer:
            details += f" The computer chose {plural(computer, 'move')}: the game is not counted in the statistics."
        if won and computer:
            self.set_status("The computer won!  n: new game  s: statistics", "good")
        elif won:
            self.set_status("You won!  n: new game  s: statistics", "good")
        else:
            self.set_status("No legal move left: the game is lost.  u: undo  n: new game", "error")
        # (the streak and best time belong under the player's win, not the computer's: it counts for nothing)
        stats = self._win_stats() if won and not computer else ""
        self.push_screen(GameOverScreen(won, details, winner="The computer" if computer else "You", stats=stats),
                         self._after_game_over)

    def _win_stats(self) -> str:
        """The statistics line of the rules and deal numbering in play, from the store (as the web's won box)."""
        if self.store is None:
            return ""
        rules = self.game.rules
        try:
            rows = self.store.stats(rules.variant)
        except (sqlite3.Error, OSError):  # (a store that cannot be read never stops the game)
            return ""
        row = next((r for r in rows if r.options == rules.options() and r.numbering == self.game.numbering), None)
        return win_stats_line(row, self.session.elapsed)

    def _after_game_over(self, choice: str | None) -> None:
        if choice == "new":
            self.action_new_game()
        elif choice == "undo":
            self.action_undo()
        elif choice == "restart":
            self.action_restart()
        elif choice == "stats":
            self.action_stats()
        elif choice == "export":
            self.action_export()
        elif choice == "analyze":
            self.action_analyze()

    def _pick_here(self) -> None:
        """Pick the card under the cursor (with the cards on it)."""
        cur = self.state.cursor
        down, up = self.game.columns[cur.pile]
        cards = down + up
        if not cards:
            self.set_status(f"Column {cur.pile + 1} is empty: pick a card first, then put it here", "error")
            return
        if cur.index < len(down):
            self.set_status("That card is face down", "error")
            return
        count = len(cards) - cur.index
        self._set_pick(Pick(cur.pile, cards[cur.index], count))

    def _set_pick(self, pick: Pick | None) -> None:
        self.state.pick = pick
        self.state.hint = None
        if pick is not None:
            self.refresh_table()
            what = PRETTY[pick.card]
            if pick.count > 1:
                # as the moves are told ("A♠ and 1 card on it from column 2 ..."): "A♠ with 1 card" was unclear
                what += f" and {pick.count - 1} card{'s' if pick.count > 2 else ''} on it"
            cols = [str(t + 1) for t in sorted(self.state.targets) if t != FOUNDATION]
            where = []
            if cols:
                where.append(f"column{'s' if len(cols) > 1 else ''} {', '.join(cols)}")
            if FOUNDATION in self.state.targets:
                where.append("its foundation")
            tail = f"it fits on {' and '.join(where)}" if where else "it fits nowhere now"
            self.set_status(f"Picked {what}; {tail} (esc: cancel)")
        else:
            self.refresh_table()

    def action_select(self) -> None:
        cur = self.state.cursor
        pick = self.state.pick
        if cur.area == "top":
            kind, pile = self.state.top_piles()[cur.pile]
            self._act_on_pile(kind, pile)
            return
        if pick is None:
            self._pick_here()
            return
        if pick.src == cur.pile:
            down, up = self.game.columns[cur.pile]
            cards = down + up
            if cur.index < len(cards) and len(cards) - cur.index != pick.count and cur.index >= len(down):
                self._pick_here()  # another card of the same column
            else:
                self._set_pick(None)
                self.set_status("Put back")
            return
        self.play(pick.move_to(cur.pile))

    def _act_on_pile(self, kind: str, pile: int) -> None:
        """A key or click on the stock, the waste or a foundation pile."""
        pick = self.state.pick
        if kind == "stock":
            if pick is not None:
                self._set_pick(None)
            self.action_deal()
        elif kind == "waste":
            if pick is not None and pick.src == WASTE:
                self._set_pick(None)
                self.set_status("Put back")
            elif pick is not None:
                self.set_status("Cards do not go onto the waste", "error")
            else:
                self.action_waste()
        else:
            if pick is not None and pick.src == FOUNDATION:
                self._set_pick(None)
                self.set_status("Put back")
            elif pick is not None:
                self.play(pick.move_to(FOUNDATION))
            else:
                found = self.game.foundations[pile]
                if not found:
                    self.set_status("An empty foundation: pick an Ace to put here", "error")
                elif not self.game.rules.foundation_return:
                    self.set_status("Cards do not come back from the foundations in these rules", "error")
                else:
                    self._set_pick(Pick(FOUNDATION, found[-1], 1))

    def action_column(self, column: int) -> None:
        if column >= self.game.rules.columns:
            self.set_status(f"There is no column {column + 1}", "error")
            return
        pick = self.state.pick
        if pick is not None and pick.src != column:
            self.state.cursor = Cursor("tab", column, self._free_index(column))
            self.play(pick.move_to(column))
            return
        if pick is not None:
            self._set_pick(None)
        self.state.cursor = Cursor("tab", column, self._free_index(column))
        self.refresh_table()

    def action_foundation(self) -> None:
        pick = self.state.pick
        if pick is not None:
            self.play(pick.move_to(FOUNDATION))
            return
        cur = self.state.cursor
        if cur.area == "top":
            kind, _ = self.state.top_piles()[cur.pile]
            if kind == "waste" and self.game.waste:
                self.play(Move(WASTE, FOUNDATION, self.game.waste[-1], 1))
            else:
                self.set_status("Put the cursor on a free card (or pick one), then press f", "error")
            return
        down, up = self.game.columns[cur.pile]
        if not up:
            self.set_status(f"Column {cur.pile + 1} is empty", "error")
            return
        cards = down + up
        self.play(Move(cur.pile, FOUNDATION, cards[cur.index], 1))

    def smart_move(self, pick: Pick) -> bool:
        """Play the picked cards where they fit best: the foundation, else a column with cards, else an
        empty column (the leftmost of equals)."""
        best = self.session.best_moves().get(card_key(pick.move_to(FOUNDATION)))
        if best is None:
            self.state.pick = None
            what = PRETTY[pick.card] + (" with the cards on it" if pick.count > 1 else "")
            self.set_status(f"{what} fits nowhere now", "error")
            self.bell()
            self.refresh_table()
            return False
        self.state.pick = None
        return self.play(best)

    def action_smart(self) -> None:
        pick = self.state.pick
        if pick is None:
            cur = self.state.cursor
            if cur.area == "top":
                kind, _ = self.state.top_piles()[cur.pile]
                if kind == "waste" and self.game.waste:
                    pick = Pick(WASTE, self.game.waste[-1], 1)
            else:
                down, up = self.game.columns[cur.pile]
                cards = down + up
                if up and cur.index >= len(down):
                    pick = Pick(cur.pile, cards[cur.index], len(cards) - cur.index)
        if pick is None:
            self.set_status("Put the cursor on a face-up card first", "error")
            return
        self.smart_move(pick)

    def action_deal(self) -> None:
        if not self.game.rules.has_stock:
            self.set_status(f"{self.game.rules.title} has no stock", "error")
            return
        stock_before = len(self.game.stock)
        if self.play(STOCK_MOVE):
            rules, left = self.game.rules, len(self.game.stock)
            dealt = stock_before - left
            if rules.has_waste:
                text = "Dealt one card to the waste"
            elif dealt < rules.columns:  # Milligan's ninth deal: its last 4 cards, onto the first columns
                text = f"Dealt the last {plural(dealt, 'card')} onto column{'s 1 to' if dealt > 1 else ''} {dealt}"
            else:
                text = "Dealt a card onto every column"
            text += f"; {left} left in the stock" if left else "; the stock is empty"
            self.set_status(text + (f"; {self.held_note}" if self.held_note else ""),
                            shorter=(f"{text}; {self.held_short}",) if self.held_short else ())

    def action_waste(self) -> None:
        if not self.game.rules.has_waste:
            self.set_status(f"{self.game.rules.title} has no waste", "error")
            return
        waste = self.game.waste
        if not waste:
            self.set_status("The waste is empty: d deals a card from the stock", "error")
            return
        self._set_pick(Pick(WASTE, waste[-1], 1))

    def action_cancel(self) -> None:
        if "analysis" in self._jobs:
            self._cancel("analysis")
            self.set_status("Analysis stopped")
        elif self.replay is not None:
            self.leave_replay()
            self.set_status(f"Back to the game: {plural(self.session.moves_made, 'move')} played")
        elif self.state.pick is not None:
            self._set_pick(None)
            self.set_status("Put back")
        elif self.state.hint is not None:
            self.state.hint = None
            self.refresh_table()
            self.set_status("")

    def action_undo(self) -> None:
        self.state.pick = None
        try:
            undone = self.session.undo()
        except NothingToDoError:
            self.set_status("Nothing to undo", "error")
            return
        self._cursor_on_brought_back(undone[-1] if undone else None)
        # (the turn's first move only: its card is in sight again, the automatic plays after it may have shown
        # cards that now lie face down again)
        what = f": {describe_move(self.game, undone[-1])}" if undone else ""
        more = f" and {plural(len(undone) - 1, 'automatic move')}" if len(undone) > 1 else ""
        # (the terminal lets a won game be undone: the statistics still count it won, and the player is told)
        kept = "; the win stays counted" if self.session.result == "won" else ""
        self.set_status(f"Undone{what}{more}; {plural(self.session.moves_made, 'move')} played{kept}")
        self._after_change()

    def _cursor_on_brought_back(self, move: Move | None) -> None:
        """The cursor on the lead card an undone move brought back to its column (it stayed where it was: on
        the card under it, which ⏎ or f then took for the player's)."""
        if move is None or not 0 <= move.src < self.game.rules.columns:
            return
        down, up = self.game.columns[move.src]
        self.state.cursor = Cursor("tab", move.src, max(len(down), len(down) + len(up) - move.count))

    def action_redo(self) -> None:
        self.state.pick = None
        before = self.game.copy()
        try:
            redone = self.session.redo()
        except NothingToDoError:
            self.set_status("Nothing to redo", "error")
            return
        what = f": {describe_move(before, redone[0])}" if redone else ""
        self.set_status(f"Redone{what}; {plural(self.session.moves_made, 'move')} played")
        self._after_change()

    def action_restart(self) -> None:
        self.state.pick = None
        try:
            self.session.restart()
        except NothingToDoError:
            self.set_status("Already at the start of the deal")
            return
        self.set_status("Back to the deal (r redoes the moves one turn at a time)")
        self._after_change()

    def action_toggle_autoplay(self) -> None:
        on = not self.session.autoplay
        played = self.session.set_autoplay(on)
        msg = "Auto-play on: safe cards go up by themselves" if on else "Auto-play off"
        if played:
            msg += f"; {len(played)} played up"
        shorter: tuple[str, ...] = ()
        if on:
            self._explained.clear()
            held, short = self._held_back_news()
            if held:
                shorter = (f"{msg}; {short}",)
                msg += f"; {held}"
        self.set_status(msg, shorter=shorter)
        self._after_change()

    def action_finish(self) -> None:
        if self.game.is_won():
            self.set_status("The game is already won")
            return
        if not is_certain_win(self.game):
            self.set_status("Auto-finish needs every card face up, each column in descending order", "error")
            return
        played = self.session.finish()
        self.set_status(f"Finished: {len(played)} cards played up", "good")
        self._after_change()

    # ------------------------------------------------------------------ analysis

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

    # ------------------------------------------------------------------ help, statistics, and which keys work

    def action_stats(self) -> None:
        self.push_screen(StatsScreen(self.store, self.game.rules, self.game.numbering))

    def action_help(self) -> None:
        rules = self.game.rules
        bindings = [
            b for b in self.BINDINGS
            if isinstance(b, Binding) and (self.check_action(b.action.split("(")[0], ()) is not False
                                           or (b.action == "deal" and rules.has_stock and self.replay is None))
            and not (b.action.startswith("column(") and int(b.key) > rules.columns)
        ]
        self.push_screen(HelpScreen(bindings, self.game.rules))

    def on_key(self, event: events.Key) -> None:
        """d and w where the variant has no stock or waste, and d once the stock is empty: their bindings are
        left out (the key bar and the help do not offer them), so the key reaches here; say why nothing happens
        rather than nothing. So too for the keys a player may try that are bound to nothing: 0 beside the column
        digits, z (and ctrl+z, the web table's undo) for undo; and while replaying, for the keys that would
        change the game (a click there says the same)."""
        rules = self.game.rules
        if self.screen is not self.screen_stack[0]:
            return
        if self.replay is not None:
            actions = {b.action.split("(")[0] for b in self.BINDINGS
                       if isinstance(b, Binding) and event.key in b.key.split(",")}
            if actions and not actions & self.REPLAY_ACTIONS:
                self.set_status(REPLAYING, "error")
                event.stop()
            return
        if event.key == "0":
            self.set_status(f"There is no column 0: the columns are 1 to {rules.columns}", "error")
            event.stop()
            return
        if event.key in ("z", "ctrl+z"):
            self.set_status(f"{event.key} is no key here: u (or backspace) takes back the last move, "
                            "r plays it again", "error")
            event.stop()
            return
        if event.key == "d" and rules.has_stock and not self._can_deal():
            self.demo.intercept("deal")  # (as run_action does: a key that plays stops the computer's game)
            self.action_deal()  # (its own word on an empty stock)
            event.stop()
        elif (event.key == "d" and not rules.has_stock) or (event.key == "w" and not rules.has_waste):
            what = "stock" if event.key == "d" or not rules.has_stock else "waste"
            dealt = " (every card is dealt at the start)" if not rules.has_stock else ""
            self.set_status(f"{rules.title} has no {what}{dealt}", "error")
            event.stop()

    def _can_deal(self) -> bool:
        return self.game.is_legal(STOCK_MOVE)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide the stock and waste keys where the variant has none, and while replaying the keys that
        would change the game."""
        if self.replay is not None and action not in self.REPLAY_ACTIONS:
            return False
        if action in ("demo_speed", "demo_stop"):  # shown (and bound) only while the computer plays
            return self.demo.active
        if action == "demo_pause":  # space: Pause while it plays, Play on while paused
            return self.demo.active and not self.demo.paused
        if action in ("demo_resume", "demo_step"):  # (else . is the replay's step, as without the computer)
            return self.demo.active and self.demo.paused
        if action == "demo":  # while it plays, t is "Stop" (the binding above)
            return not self.demo.active
        if action == "deal":  # (with an empty stock d still answers, in on_key: the key bar leaves it out)
            return self._can_deal()
        if action == "waste":
            return self.game.rules.has_waste
        return True

    # ------------------------------------------------------------------ mouse

    async def run_action(self, action: Any, default_namespace: Any = None, namespaces: Any = None) -> bool:
        """Every key's action: while the computer plays, one that plays stops it first (the player takes over)."""
        if default_namespace in (None, self) and isinstance(action, str) and self.demo.intercept(action.split("(")[0]):
            return True
        return await super().run_action(action, default_namespace, namespaces)

    def action_demo(self) -> None:
        if self.demo.active:
            self.demo.stop("Stopped: play on from here")
        else:
            self.demo.start()

    def action_demo_stop(self) -> None:
        if self.demo.active:
            self.demo.stop("Stopped: play on from here")

    def action_demo_pause(self) -> None:
        self.demo.toggle_pause()

    def action_demo_resume(self) -> None:
        self.demo.toggle_pause()

    def action_demo_step(self) -> None:
        self.demo.step()

    def action_demo_speed(self, step: int) -> None:
        self.demo.change_speed(step)

    def on_column_view_clicked(self, message: ColumnView.Clicked) -> None:
        if self.demo.active:
            self.demo.take_over()
        if self.replay is not None:
            self.set_status(REPLAYING, "error")
            return
        col = message.column
        pick = self.state.pick
        down, up = self.game.columns[col]
        if message.index is not None:
            self.state.cursor = Cursor("tab", col, message.index)
        else:
            self.state.cursor = Cursor("tab", col, self._free_index(col))
        if message.chain >= 2 and message.index is not None and message.index >= len(down):
            # double click: the card (with those on it) goes where it fits best
            cards = down + up
            self.smart_move(Pick(col, cards[message.index], len(cards) - message.index))
            return
        if pick is not None and pick.src != col:
            self.play(pick.move_to(col))
            return
        if message.index is None:
            if pick is not None:
                self._set_pick(None)
                self.set_status("Put back")
            else:
                self.refresh_table()
            return
        if pick is not None and len(down + up) - message.index == pick.count:
            self._set_pick(None)
            self.set_status("Put back")
            return
        self._pick_here()

    def on_pile_view_clicked(self, message: PileView.Clicked) -> None:
        if self.demo.active:
            self.demo.take_over()
        if self.replay is not None:
            self.set_status(REPLAYING, "error")
            return
        tops = self.state.top_piles()
        self.state.cursor = Cursor("top", tops.index((message.kind, message.pile)), 0)
        if message.chain >= 2 and message.kind == "waste" and self.game.waste:
            self.smart_move(Pick(WASTE, self.game.waste[-1], 1))
            return
        self._act_on_pile(message.kind, message.pile)
        self.refresh_table()


def _read_verdicts() -> None:
    """Read the shipped verdicts into their cache (:mod:`yukon.deal_data`); a damaged file is told when used."""
    from .. import deal_data

    with contextlib.suppress(deal_data.VerdictDataError):
        deal_data.has_verdicts(rules_for("yukon"))


# (the status line's and the analysis' words live in texts.py; named here too, where the app's users find them)
__all__ = ["STATUS_LINES", "YukonApp", "analysis_text", "info_line", "no_line_text"]
