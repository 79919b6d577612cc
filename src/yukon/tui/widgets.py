"""The pieces of the card table: tableau columns, the stock, the waste and the foundations.

Each widget draws itself from the app's :class:`TableState` (the game, the
cursor, the picked card, the hint) and turns a mouse click into a message to
the app; none of them holds game state of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from ..cards import PRETTY, RANKS, RED
from ..notation import FOUNDATION, STOCK, WASTE, Move

if TYPE_CHECKING:
    from ..game import Game
    from .session import Pick

#: Width of a card face in cells, of a card with the cursor markers around it, and of a column at most.
CELL = 5
SLOT = CELL + 2
MAX_WIDTH = 11
#: Width of the stock, which is labelled (``Stock 24``: a bare "24" told a new player nothing), and of the
#: stock with the cursor markers around it.
STOCK_CELL = 8
STOCK_SLOT = STOCK_CELL + 2

FACE_RED = Style(color="#c1121f", bgcolor="#f8f8f2", bold=True)
FACE_BLACK = Style(color="#101010", bgcolor="#f8f8f2", bold=True)
PICKED_BG = "#ffd75f"
HINT_BG = "#9be39b"
BACK = Style(color="#7fa7e0", bgcolor="#1f3a78")
EMPTY = Style(color="#8a8a8a", dim=False)
STOCK_STYLE = Style(color="#ffffff", bgcolor="#1f3a78", bold=True)
CURSOR = Style(color="#ffd700", bold=True)
HEADER = Style(color="#8a8a8a")
HEADER_CURSOR = Style(color="#ffd700", bold=True)
HEADER_TARGET = Style(color="#5fd75f", bold=True)
#: The cursor on a pile too narrow for the markers (Milligan Yukon's nine piles at 60 columns).
NARROW_CURSOR = Style(reverse=True, underline=True)


@dataclass
class Cursor:
    """Where the keyboard cursor is: on the top row (``area='top'``, ``pile`` indexes
    :meth:`TableState.top_piles`) or in the tableau (``pile`` a column, ``index`` a card of it)."""

    area: str = "tab"
    pile: int = 0
    index: int = 0


@dataclass
class TableState:
    """What the widgets draw: the game plus the player's cursor, picked card and hint."""

    game: Game
    cursor: Cursor = field(default_factory=Cursor)
    pick: Pick | None = None
    hint: Move | None = None
    compact: bool = False
    targets: frozenset[int] = frozenset()

    def top_piles(self) -> list[tuple[str, int]]:
        """The piles of the top row, left to right: ``("stock", 0)``, ``("waste", 0)``, ``("found", i)``."""
        rules = self.game.rules
        piles: list[tuple[str, int]] = []
        if rules.has_stock:
            piles.append(("stock", 0))
        if rules.has_waste:
            piles.append(("waste", 0))
        piles += [("found", i) for i in range(rules.foundations)]
        return piles


def card_text(card: int, bg: str | None = None) -> Text:
    """A face-up card as ``CELL`` cells: `` 10♥ ``, ``  K♠ ``."""
    style = FACE_RED if RED[card] else FACE_BLACK
    if bg is not None:
        style = style + Style(bgcolor=bg)
    return Text(f" {PRETTY[card]:>3} ", style=style)


def back_text(count: int = 1) -> Text:
    """A face-down card, or (``count`` > 1) a compacted pile of them showing their number."""
    if count > 1:
        return Text(f"▒{'×' + str(count):^3}▒", style=BACK)
    return Text("▒" * CELL, style=BACK)


def slot_text(label: str, bg: str | None = None) -> Text:
    """An empty place: ``[ K ]``."""
    style = EMPTY if bg is None else EMPTY + Style(bgcolor=bg, color="#202020")
    return Text(f"[{label:^3}]", style=style)


def stock_text(count: int, hinted: bool, width: int) -> Text:
    """The stock in a pile ``width`` cells wide: ``Stock 24`` where it fits (``Stock  0`` greyed once empty),
    else the number alone."""
    if count:
        style = BACK + Style(bgcolor=HINT_BG, color="#202020") if hinted else STOCK_STYLE
    else:
        style = EMPTY
    if width >= STOCK_CELL:
        return Text(f"Stock{count:>{STOCK_CELL - 5}}", style=style)
    return Text(f"{count:^{CELL}}", style=style) if count else slot_text("")


def pile_widths(table_width: int, piles: int, width: int, has_stock: bool) -> tuple[int, int]:
    """The widths of the stock and of every other pile of a top row of ``piles`` piles, in ``table_width``
    cells, the piles at most ``width`` wide: the others give up what they have beyond :data:`SLOT` for the
    stock's label (Milligan Yukon's nine piles at 80 columns)."""
    pile = min(width, table_width // max(1, piles))
    if not has_stock or pile >= STOCK_SLOT or piles < 2:
        return pile, pile
    others = piles - 1
    other = min(pile, max(SLOT, (table_width - STOCK_SLOT) // others))
    return max(pile, min(STOCK_SLOT, table_width - others * other)), other


def framed(cell: Text, cursor: bool, width: int) -> Text:
    """A cell with the cursor markers (or blanks) around it, centred in ``width`` cells; too narrow
    for the markers (:data:`SLOT` for a card), the cell alone, shown reversed under the cursor."""
    line = Text()
    size = max(CELL, cell.cell_len)
    if width < size + 2:
        line.append(" " * max(0, (width - size) // 2))
        if cursor:
            cell = cell.copy()
            cell.stylize(NARROW_CURSOR)
        line.append_text(cell)
        return line
    left = max(0, (width - size - 2) // 2)
    line.append(" " * left)
    line.append("▶" if cursor else " ", style=CURSOR)
    line.append_text(cell)
    line.append("◀" if cursor else " ", style=CURSOR)
    return line


class ColumnView(Widget):
    """One tableau column: its number, then its cards from the bottom (top of the screen) down."""

    DEFAULT_CSS = """
    ColumnView {
        width: 11;
        height: auto;
        min-height: 100%;  /* a click anywhere below a column's cards lands on it */
    }
    """

    class Clicked(Message):
        """A click on column ``column``, on card ``index`` (None: the header or below the cards)."""

        def __init__(self, column: int, index: int | None, chain: int) -> None:
            super().__init__()
            self.column = column
            self.index = index
            self.chain = chain

    def __init__(self, column: int, state: TableState) -> None:
        super().__init__(id=f"col-{column + 1}")
        self.column = column
        self.state = state

    def rows(self) -> list[tuple[str, int, int]]:
        """The lines below the header: (kind, first card index, cards on the line)."""
        if self.column >= len(self.state.game.columns):
            return []  # (a column of the table before it is rebuilt for a variant with fewer: drawn empty)
        down, up = self.state.game.columns[self.column]
        out: list[tuple[str, int, int]] = []
        if self.state.compact and len(down) > 1:
            out.append(("back", 0, len(down)))
        else:
            out += [("back", i, 1) for i in range(len(down))]
        out += [("face", len(down) + i, 1) for i in range(len(up))]
        if not down and not up:
            out.append(("empty", 0, 0))
        return out

    def row_of(self, index: int) -> int:
        """The line (0 = header) showing card ``index``."""
        for line, (_, first, n) in enumerate(self.rows(), start=1):
            if first <= index < first + max(n, 1):
                return line
        return 1

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 1 + len(self.rows())

    def render(self) -> Text:
        state = self.state
        game = state.game
        width = self.size.width or SLOT + 2
        if self.column >= len(game.columns):
            return Text("")
        down, up = game.columns[self.column]
        cards = down + up
        cur = state.cursor
        cursor_here = cur.area == "tab" and cur.pile == self.column
        pick = state.pick
        picked_from = len(cards) - pick.count if pick is not None and pick.src == self.column else None
        hint = state.hint
        hint_from = len(cards) - hint.count if hint is not None and hint.src == self.column else None
        hint_to = hint is not None and hint.dst == self.column

        header_style = HEADER
        if self.column in state.targets:
            header_style = HEADER_TARGET
        elif cursor_here:
            header_style = HEADER_CURSOR
        number = str(self.column + 1)
        if self.column in state.targets:
            number = f"↓{number}"
        lines = [Text(number.center(width).rstrip(), style=header_style)]
        rows = self.rows()
        for kind, first, n in rows:
            on_cursor = cursor_here and (first <= cur.index < first + max(n, 1))
            if kind == "back":
                cell = back_text(n)
            elif kind == "empty":
                label = "K" if game.rules.kings_only else ""
                cell = slot_text(label, HINT_BG if hint_to else None)
            else:
                bg = None
                if picked_from is not None and first >= picked_from:
                    bg = PICKED_BG
                elif (hint_from is not None and first >= hint_from) or (hint_to and first == len(cards) - 1):
                    bg = HINT_BG
                cell = card_text(cards[first], bg)
            lines.append(framed(cell, on_cursor, width))
        return Text("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        line = event.y
        rows = self.rows()
        index: int | None = None
        if 1 <= line <= len(rows):
            kind, first, _ = rows[line - 1]
            index = None if kind == "empty" else first
        elif line > len(rows) and rows and rows[-1][0] != "empty":
            index = None
        self.post_message(self.Clicked(self.column, index, event.chain))


class PileView(Widget):
    """A pile of the top row: the stock, the waste, or one foundation pile."""

    DEFAULT_CSS = """
    PileView {
        width: 7;
        height: 1;
    }
    """

    class Clicked(Message):
        def __init__(self, kind: str, pile: int, chain: int) -> None:
            super().__init__()
            self.kind = kind
            self.pile = pile
            self.chain = chain

    def __init__(self, kind: str, pile: int, top_index: int, state: TableState) -> None:
        name = "stock" if kind == "stock" else "waste" if kind == "waste" else f"found-{pile + 1}"
        super().__init__(id=name)
        self.kind = kind
        self.pile = pile
        self.top_index = top_index
        self.state = state

    def render(self) -> Text:
        state = self.state
        game = state.game
        cur = state.cursor
        on_cursor = cur.area == "top" and cur.pile == self.top_index
        hint = state.hint
        pick = state.pick
        if self.kind == "stock":
            cell = stock_text(len(game.stock), hint is not None and hint.src == STOCK, self.size.width or SLOT)
        elif self.kind == "waste":
            waste = game.waste
            bg = None
            if pick is not None and pick.src == WASTE:
                bg = PICKED_BG
            elif hint is not None and hint.src == WASTE:
                bg = HINT_BG
            cell = card_text(waste[-1], bg) if waste else slot_text("", None)
        elif self.pile >= len(game.foundations):
            cell = Text("")  # (a pile of the table before it is rebuilt for a variant with fewer)
        else:
            pile = game.foundations[self.pile]
            bg = None
            top = pile[-1] if pile else None
            if top is not None and pick is not None and pick.src == FOUNDATION and pick.card == top:
                bg = PICKED_BG
            elif hint is not None and (
                (hint.dst == FOUNDATION and self.pile == game.foundation_pile_for(hint.card))
                or (hint.src == FOUNDATION and top == hint.card)
            ):
                bg = HINT_BG
            if top is not None:
                cell = card_text(top, bg)
            else:
                cell = slot_text(RANKS[0], bg)
        return framed(cell, on_cursor, self.size.width or SLOT)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.kind, self.pile, event.chain))


def top_row(state: TableState) -> list[Widget]:
    """The stock, the waste and the foundations of ``state``'s game, left to right, as the top row holds them
    (a gap before the foundations)."""
    widgets: list[Widget] = []
    tops = state.top_piles()
    for i, (kind, pile) in enumerate(tops):
        if kind == "found" and (i == 0 or tops[i - 1][0] != "found"):
            widgets.append(Static(classes="spacer"))
        widgets.append(PileView(kind, pile, i, state))
    return widgets


def tableau_columns(state: TableState) -> list[Widget]:
    return [ColumnView(c, state) for c in range(state.game.rules.columns)]


__all__ = [
    "CELL", "MAX_WIDTH", "SLOT", "STOCK_CELL", "STOCK_SLOT", "ColumnView", "Cursor", "PileView", "TableState",
    "back_text", "card_text", "framed", "pile_widths", "slot_text", "stock_text", "tableau_columns", "top_row",
]
