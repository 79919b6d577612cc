"""Layouts for people: the plain-text layout (``str(game)``) and the Rich layout."""

from __future__ import annotations

import io

from rich.console import Console

from engine_helpers import make
from yukon import Game
from yukon.render import layout_rich, layout_text


def rich_text(game: Game) -> str:
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(layout_rich(game))
    return out.getvalue()


def test_text_layout_of_a_yukon_deal() -> None:
    g = Game.deal("yukon", seed=1)
    lines = str(g).splitlines()
    assert str(g) == layout_text(g)
    assert lines[0] == "Yukon  foundations: --  --  --  --"
    assert lines[1] == "  1   2   3   4   5   6   7"
    assert lines[2] == " 5C  ##  ##  ##  ##  ##  ##"
    assert len(lines) == 2 + 11  # the longest column has 11 cards
    assert sum(line.count("##") for line in lines) == 21


def test_text_layout_shows_stock_waste_and_foundations() -> None:
    g = Game.deal("australian", seed=1)
    g.push(g.parse_move("deal"))
    lines = str(g).splitlines()
    assert lines[1] == "stock: 23  waste: QH"
    m = make("milligan-yukon", ["KS"], foundations=["KS", "KH", "KD", "KC", "QS", "KH", "KD", "KC"])
    assert str(m).splitlines()[:2] == ["Milligan Yukon  foundations: KS  KH  KD  KC  QS  KH  KD  KC", "stock: 0"]


def test_rich_layout() -> None:
    g = Game.deal("australian", seed=1)
    g.push(g.parse_move("deal"))
    text = rich_text(g)
    assert "Australian Patience (empty column: kings, foundation return: off)  deal 1" in text
    assert "Stock: 23 card(s)   Waste:  Q♥" in text
    assert "10♠" in text and "A♦" in text
    y = rich_text(Game.deal("yukon", seed=1))
    assert "▒▒" in y and "Stock" not in y
    m = rich_text(make("milligan-yukon", ["KS"], foundations=["KS", "KH", "KD", "KC", "QS", "KH", "KD", "KC"]))
    assert "Foundations:  K♠  K♥  K♦  K♣  Q♠" in m and "Stock: 0 card(s)" in m and "Waste" not in m
    assert "deal" not in m.splitlines()[0]  # a hand-made position has no deal number
