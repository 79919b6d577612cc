"""The screens over the table: help, statistics, confirmation, game over (the deal number's and the new
game's are :mod:`yukon.tui.dealscreens`).

Every one of them is a :class:`Dialog`: ``q`` and ``ctrl+c`` quit from it as from the table.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, ClassVar, TypeVar

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from ..rules import VARIANTS, Rules
from ..store import StatsRow, Store

_MODAL_CSS = """
{name} {{
    align: center middle;
    background: $background 60%;
}}
{name} > Vertical {{
    width: {width};
    max-width: 96%;
    height: auto;
    max-height: 96%;
    border: round $accent;
    background: $surface;
    padding: 0 1;
}}
{name} .title {{
    text-style: bold;
    width: 100%;
    content-align: center middle;
}}
{name} .note {{
    color: $text-muted;
}}
"""


def modal_css(name: str, width: int = 60) -> str:
    """The CSS of a box over the table: the screen ``name``, its box ``width`` cells wide (at most 96%)."""
    return _MODAL_CSS.format(name=name, width=width)


ResultT = TypeVar("ResultT")

#: The keys that quit from every screen (the game is saved and resumes next time).
QUIT_BINDINGS: list[BindingType] = [
    Binding("q", "app.quit", "Quit", priority=True),
    Binding("ctrl+c", "app.quit", "Quit", show=False, priority=True),
]


class Dialog(ModalScreen[ResultT]):
    """A box over the table: ``q`` and ``ctrl+c`` quit from it, as from the table."""

    BINDINGS: ClassVar[list[BindingType]] = list(QUIT_BINDINGS)


def key_label(key: str) -> str:
    """How a binding's key is written for people: ``question_mark`` is ``?``."""
    names = {
        "question_mark": "?", "number_sign": "#", "space": "space", "enter": "enter", "escape": "esc",
        "left": "←", "right": "→", "up": "↑", "down": "↓", "backspace": "backspace", "comma": ",", "full_stop": ".",
    }
    return ", ".join(names.get(k.strip(), k.strip()) for k in key.split(","))


class HelpScreen(Dialog[None]):
    """The key bindings (read from the app's BINDINGS) and how to play with the mouse."""

    # A fixed height, so that the keys scroll inside it (an "auto" height would grow past the screen). As wide as
    # a line of it is still read at a glance: at 160 columns a box of 76 folded most rows in two and scrolled.
    DEFAULT_CSS = modal_css("HelpScreen", 112) + """
    HelpScreen > Vertical { height: 96%; }
    HelpScreen #help-keys { height: 1fr; }
    """
    # The scroll keys have priority: the focused scroll box's own bindings would animate the scroll,
    # so where it stands after a key would depend on the clock.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1", "dismiss", "Close"),
        Binding("up", "scroll(-1)", "Up", show=False, priority=True),
        Binding("down", "scroll(1)", "Down", show=False, priority=True),
        Binding("pageup", "scroll(-10)", "Page up", show=False, priority=True),
        Binding("pagedown,space", "scroll(10)", "Page down", show=False, priority=True),
        Binding("home", "scroll_home", "Top", show=False, priority=True),
        Binding("end", "scroll_end", "End", show=False, priority=True),
    ]

    def __init__(self, bindings: Iterable[Binding], rules: Rules) -> None:
        super().__init__()
        self._help_keys = list(bindings)
        self._help_rules = rules

    def compose(self) -> ComposeResult:
        rows = Table(box=None, show_header=False, padding=(0, 1), expand=True)
        rows.add_column(justify="right", style="bold", no_wrap=True)
        rows.add_column(ratio=1)
        for keys, label in self.rows():
            rows.add_row(keys, label)
        with Vertical():
            yield Static(f"{self._help_rules.title}: how to play", classes="title")
            with VerticalScroll(id="help-keys"):
                # the rules first: a new player looks for them here, and found them after some thirty keys
                yield Static(rules_words(self._help_rules), classes="note", id="help-goal")
                yield Static(rows)
                yield Static(
                    "Mouse: click a card (it travels with the cards on it), then a column or a "
                    "foundation. Double-click a card to move it where it fits best (up first)."
                    + (" Click the stock to deal." if self._help_rules.has_stock else ""),  # (Yukon has none)
                    classes="note", id="help-mouse",
                )
            yield Static("↑ ↓ page up/down: scroll   esc: close the help   q: quit the game", classes="note")

    def rows(self) -> list[tuple[str, str]]:
        """(keys, what they do), one row per action; bindings sharing a description share a row."""
        groups: dict[str, list[str]] = {}
        for b in self._help_keys:
            groups.setdefault(b.tooltip or b.description, []).append(key_label(b.key))
        rows = []
        for label, keys in groups.items():
            text = ", ".join(keys)
            if len(keys) > 4:
                text = f"{keys[0]} … {keys[-1]}"
            rows.append((text, label))
        return rows

    def action_scroll(self, delta: int) -> None:
        self.query_one("#help-keys", VerticalScroll).scroll_relative(y=delta, animate=False)

    def action_scroll_home(self) -> None:
        self.query_one("#help-keys", VerticalScroll).scroll_home(animate=False)

    def action_scroll_end(self) -> None:
        self.query_one("#help-keys", VerticalScroll).scroll_end(animate=False)


def rules_words(rules: Rules) -> str:
    """The rules of this game in a few sentences, for the help: how cards build (Alaska builds up too: the
    help said "Build down ... (same suit, up or down)"), what an empty column takes, the stock, whether cards
    come back from the foundations, and the goal."""
    words = [rules.build_in_words, rules.options_in_words]
    if rules.stock == "waste":
        words.append("d turns the stock's top card onto the waste, one pass; w picks up the waste's card.")
    elif rules.stock == "rows":
        words.append("d deals a card from the stock onto every column.")
    words.append("Goal: every card on the foundations.")
    return " ".join(words)


def clock_text(seconds: float | None) -> str:
    """``m:ss`` (``h:mm:ss`` from an hour on); ``-`` for no time."""
    if seconds is None:
        return "-"
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def rate_text(rate: float) -> str:
    """A win rate as a percentage, rounded as the web table's statistics round it (half up, ``Math.round``):
    ``'0%'``, ``'13%'`` for 0.125 (the wide table showed a bare ``0``, the narrow one ``0%``).

    >>> rate_text(0.0), rate_text(0.125), rate_text(2 / 3), rate_text(1.0)
    ('0%', '13%', '67%', '100%')
    """
    return f"{math.floor(100 * rate + 0.5)}%"


def _options_words(row: StatsRow) -> str:
    """Short words for a row's rule options: ``kings``, ``any, return``."""
    opts = row.options
    words = ["kings" if opts.get("empty_column", "kings") == "kings" else "any"]
    if opts.get("foundation_return"):
        words.append("return")
    if row.numbering != "yukon":  # another program's deal numbers: other deals, counted apart
        words.append("PySolFC deals" if row.numbering == "pysolfc" else f"{row.numbering} deals")
    return ", ".join(words)


def _rules_lines(row: StatsRow) -> str:
    """:func:`_options_words` a rule a line after the first (``any, return``, then ``PySolFC deals``),
    for the narrow table, whose first column holds the variant and its rules."""
    words = _options_words(row).split(", ")
    head, rest = ", ".join(words[:2]), words[2:]
    return "\n".join([head, *rest])


class StatsScreen(Dialog[None]):
    """Statistics of every variant and set of options, shared with the web game.

    Two forms of one table: one line a row where the box has room for its nine columns, else (60 or 80
    columns with long rules) two lines a row in four columns, so that every figure is seen without
    scrolling sideways. The form follows the terminal's width, also when it is resized."""

    DEFAULT_CSS = modal_css("StatsScreen", 78) + """
    StatsScreen DataTable { height: auto; max-height: 16; width: 100%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,s", "dismiss", "Close")]

    NOTE_WIDE = ("Rules: what may fill an empty column (kings/any), whether cards may return from "
                 "the foundations, and PySolFC's deal numbers (other deals than this program's). "
                 "Streak: wins in a row now; Best: the longest streak; Time, Moves: the best win. "
                 "Shared with the web game.")
    NOTE_NARROW = ("Rules: what may fill an empty column (kings/any), whether cards may return from the "
                   "foundations, and PySolFC's deal numbers. Shared with the web game.")

    def __init__(self, store: Store | None, current: Rules | None = None, numbering: str = "yukon") -> None:
        super().__init__()
        self._store = store
        self._current = current
        self._numbering = numbering
        self._rows: list[StatsRow] = []

    def _is_current(self, row: StatsRow) -> bool:
        return (
            self._current is not None and row.variant == self._current.variant
            and row.options == self._current.options() and row.numbering == self._numbering
        )

    def _title(self, row: StatsRow) -> Text:
        title = (VARIANTS[row.variant].title if row.variant in VARIANTS else row.variant).split()[0]
        return Text(title, style="bold" if self._is_current(row) else "")

    def _wide_table(self, rows: list[StatsRow]) -> DataTable[str | Text]:
        table: DataTable[str | Text] = DataTable(cursor_type="row", zebra_stripes=True, id="stats")
        table.add_columns("Variant", "Rules", "Games", "Won", "Win %", "Streak", "Best", "Time", "Moves")
        for row in rows:
            table.add_row(
                self._title(row), _options_words(row), str(row.played),
                str(row.won), rate_text(row.win_rate), str(row.current_streak),
                str(row.best_streak), clock_text(row.best_time),
                "-" if row.fewest_moves is None else str(row.fewest_moves),
                key=f"{row.variant} {_options_words(row)}",
            )
        return table

    def _narrow_table(self, rows: list[StatsRow]) -> DataTable[str | Text]:
        """The same figures, two (or three) lines a row: the rules under the variant, the games won over
        the rate, the streak now over the best, the best win's time over its moves."""
        table: DataTable[str | Text] = DataTable(cursor_type="row", zebra_stripes=True, id="stats-narrow",
                                                 header_height=2)
        table.add_columns("Variant\nrules", "Won\nrate", "Streak\nbest", "Best win\nmoves")
        for row in rows:
            rules = _rules_lines(row)
            moves = "-" if row.fewest_moves is None else f"{row.fewest_moves} moves"
            table.add_row(
                Text.assemble(self._title(row), "\n", rules), f"{row.won} of {row.played}\n{rate_text(row.win_rate)}",
                f"{row.current_streak} now\n{row.best_streak} best", f"{clock_text(row.best_time)}\n{moves}",
                height=1 + rules.count("\n") + 1, key=f"{row.variant} {_options_words(row)}",
            )
        return table

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Statistics", classes="title")
            rows = self._store.stats() if self._store is not None else []
            self._rows = rows
            if not rows:  # (and no note on the columns of a table not shown)
                yield Static("No finished games yet: a game counts here once it is won or lost, or left for another."
                             if self._store is not None else "No statistics store.")
            else:
                yield self._wide_table(rows)
                yield self._narrow_table(rows)
                yield Static(self.NOTE_WIDE, classes="note", id="stats-note")
            yield Static("esc: close   q: quit", classes="note", id="stats-keys")

    def on_mount(self) -> None:
        self._choose_form()

    def on_resize(self) -> None:
        self._choose_form()

    def _choose_form(self) -> None:
        """The wide table where the terminal has room for all its columns, else the narrow one, as tall as
        the terminal leaves room for; then the keys say how to see what does not fit."""
        tables = list(self.query(DataTable))
        if not tables:  # no games yet
            return
        wide, narrow = tables
        needed = _table_width(wide) + 2 + 4  # a scrollbar's 2 (more rows than the box holds), border and padding
        fits = needed <= int(self.app.size.width * 0.96)  # the CSS: a box at most 96% of the terminal
        wide.display, narrow.display = fits, not fits
        box = max(78, needed) if fits else 78
        self.query_one(Vertical).styles.width = box
        note = self.NOTE_WIDE if fits else self.NOTE_NARROW
        self.query_one("#stats-note", Static).update(note)
        shown = wide if fits else narrow
        # the box's height less its border, title, note (a line more for the words' wrapping) and keys
        inside = min(box, int(self.app.size.width * 0.96)) - 4
        room = int(self.app.size.height * 0.96) - 2 - 1 - (len(note) // max(1, inside) + 2) - 1
        shown.styles.max_height = max(4, min(24, room))
        shown.focus()
        # the cursor starts on the row of the game in play (it lit up the first row, whatever was played)
        mine = [i for i, row in enumerate(self._rows) if self._is_current(row)]
        if mine:
            shown.move_cursor(row=mine[0])
        self.call_after_refresh(self._say_scroll, shown)

    def _say_scroll(self, table: DataTable[str | Text]) -> None:
        """Where the table does not fit the box (a terminal narrower than 50 columns, or rows more than its
        height), say how to see the rest."""
        keys = ["esc: close", "q: quit"]
        if table.max_scroll_y > 0:
            keys.insert(0, "↑ ↓: the other rows")
        if table.max_scroll_x > 0:
            keys.insert(0, "← →: the other columns")
        self.query_one("#stats-keys", Static).update("   ".join(keys))


def _table_width(table: DataTable[str | Text]) -> int:
    """The columns ``table`` needs to show all its cells (their widest content and padding)."""
    return sum(column.get_render_width(table) for column in table.columns.values())


class ConfirmScreen(Dialog[bool]):
    """A yes/no question."""

    DEFAULT_CSS = modal_css("ConfirmScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self._question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._question)
            yield Static("y: yes   n: no   q: quit", classes="note")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class KeyLine(Static):
    """Keys and what they do (``x: export the record``), wrapped between the pairs, never inside one
    (the won/lost box at 80 columns read "x:" at a line's end and "export the record" on the next)."""

    GAP = "   "

    def __init__(self, pairs: Iterable[str], **kwargs: Any) -> None:
        self._pairs = list(pairs)
        super().__init__(self.GAP.join(self._pairs), **kwargs)

    def lines(self, width: int) -> list[str]:
        """The pairs packed into lines of at most ``width`` cells (a pair wider than that has a line of its own)."""
        out: list[str] = []
        for pair in self._pairs:
            if out and cell_len(out[-1] + self.GAP + pair) <= width:
                out[-1] += self.GAP + pair
            else:
                out.append(pair)
        return out

    def render(self) -> Text:
        return Text("\n".join(self.lines(self.content_size.width or 10**6)))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))


class GameOverScreen(Dialog[str | None]):
    """The won/lost announcement; returns the action chosen (``new``, ``restart``, ``undo``, ``stats``,
    ``export``, ``analyze``)."""

    DEFAULT_CSS = modal_css("GameOverScreen") + """
    GameOverScreen .won { color: $success; text-style: bold; width: 100%; content-align: center middle; }
    GameOverScreen .lost { color: $warning; text-style: bold; width: 100%; content-align: center middle; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('new')", "New game"),
        Binding("u", "choose('undo')", "Undo"),
        Binding("R", "choose('restart')", "Restart"),
        Binding("s", "choose('stats')", "Statistics"),
        Binding("x", "choose('export')", "Export the record"),
        Binding("W", "choose('analyze')", "Where did it go wrong?"),
        Binding("escape,enter,space", "choose(None)", "Look at the table"),
    ]

    def __init__(self, won: bool, details: str, *, winner: str = "You", stats: str = "") -> None:
        """``stats``: the statistics line of a win (the streak, the best time, the games won), or ``""``."""
        super().__init__()
        self._won = won
        self._details = details
        self._winner = winner
        self._stats = stats

    def compose(self) -> ComposeResult:
        with Vertical():
            if self._won:
                yield Static(f"★ {self._winner} won! ★", classes="won")
            else:
                yield Static("No legal move left: the game is lost.", classes="lost")
            yield Static(self._details)
            if self._stats:
                yield Static(self._stats, id="stats-line")
            # (a won game has no losing move to look for: its box offers no analysis)
            analyze = [] if self._won else ["W: where did it go wrong?"]
            yield KeyLine(["n: new game", "s: statistics", "u: undo", "R: restart", "x: export the record",
                           *analyze, "esc: close", "q: quit"], classes="note")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (self._won and action == "choose" and parameters == ("analyze",))

    def action_choose(self, choice: str | None) -> None:
        self.dismiss(choice)


__all__ = [
    "QUIT_BINDINGS", "ConfirmScreen", "Dialog", "GameOverScreen", "HelpScreen", "KeyLine", "StatsScreen", "clock_text",
    "key_label", "modal_css", "rate_text", "rules_words",
]
