"""The terminal game's table on the screen: the widgets (:meth:`TableLayout.compose`), their sizes for the
terminal (:meth:`TableLayout.refresh_table`), the top line and the status line at the bottom.
"""

from __future__ import annotations

import contextlib

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.geometry import Region
from textual.widgets import Static

from ..notation import FOUNDATION
from ..winnable_deals import shown_difficulty
from .base import TableApp
from .footer import FittingFooter
from .texts import fit_status, info_line, replay_label, status_lines_for
from .widgets import MAX_WIDTH, SLOT, ColumnView, PileView, pile_widths, tableau_columns, top_row

#: The table's styles (the app's CSS).
TABLE_CSS = """
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


class TableLayout(TableApp):
    """Drawing the table: its widgets and their sizes, the top line, the status line."""

    def compose(self) -> ComposeResult:
        yield Static(id="info")
        with Horizontal(id="piles-row"), Horizontal(id="piles"):
            yield from top_row(self.state)
        with Tableau(id="tableau"), Horizontal(id="columns"):
            yield from tableau_columns(self.state)
        yield Static(id="status")
        yield FittingFooter(compact=True)

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


__all__ = ["TABLE_CSS", "TableLayout", "Tableau"]
