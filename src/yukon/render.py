"""Layouts of a position for people: plain text (for logs, ``ansi`` renders) and Rich.

>>> from yukon import Game
>>> print(layout_text(Game.deal("yukon", seed=1)).splitlines()[0])
Yukon  foundations: --  --  --  --
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import NAME, PRETTY, RED

if TYPE_CHECKING:
    from rich.console import RenderableType

    from .game import Game

_BACK = "##"


def _header(game: Game, name: tuple[str, ...]) -> list[str]:
    found = "  ".join(name[p[-1]] if p else "--" for p in game.foundations)
    head = f"{game.rules.title}  foundations: {found}"
    lines = [head]
    if game.rules.has_stock:
        stock = f"stock: {len(game.stock)}"
        if game.rules.has_waste:
            waste = game.waste
            stock += f"  waste: {name[waste[-1]] if waste else '--'}"
        lines.append(stock)
    return lines


def layout_text(game: Game) -> str:
    """Columns side by side, top row first; face-down cards are ``##``."""
    lines = _header(game, NAME)
    cols = game.columns
    lines.append(" ".join(f"{i + 1:>3}" for i in range(len(cols))))
    height = max((len(d) + len(u) for d, u in cols), default=0)
    for row in range(height):
        cells = []
        for down, up in cols:
            if row < len(down):
                cells.append(f"{_BACK:>3}")
            elif row < len(down) + len(up):
                cells.append(f"{NAME[up[row - len(down)]]:>3}")
            else:
                cells.append("   ")
        lines.append(" ".join(cells).rstrip())
    return "\n".join(lines)


def layout_rich(game: Game) -> RenderableType:
    """A coloured layout with suit symbols, for the terminal."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    def face(c: int) -> Text:
        return Text(f"{PRETTY[c]:>3}", style="bold red on white" if RED[c] else "bold black on white")

    title = Text(f"{game.rules.describe()}", style="bold")
    if game.seed is not None:
        title.append(f"  deal {game.seed}", style="dim")
    found = Text("Foundations: ")
    for p in game.foundations:
        found.append_text(face(p[-1]) if p else Text(" --", style="dim"))
        found.append(" ")
    table = Table(show_header=True, header_style="dim", box=None, padding=(0, 1))
    cols = game.columns
    for i in range(len(cols)):
        table.add_column(str(i + 1), justify="right")
    height = max((len(d) + len(u) for d, u in cols), default=0)
    for row in range(height):
        cells: list[Text] = []
        for down, up in cols:
            if row < len(down):
                cells.append(Text(" ▒▒", style="blue"))
            elif row < len(down) + len(up):
                cells.append(face(up[row - len(down)]))
            else:
                cells.append(Text(""))
        table.add_row(*cells)
    parts: list[RenderableType] = [title, found]
    if game.rules.has_stock:
        extra = Text(f"Stock: {len(game.stock)} card(s)")
        if game.rules.has_waste:
            extra.append("   Waste: ")
            w = game.waste
            extra.append_text(face(w[-1]) if w else Text("--", style="dim"))
        parts.append(extra)
    parts.append(table)
    return Group(*parts)
