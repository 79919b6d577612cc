"""PySolFC's game numbers: the deal PySolFC shows as game N, for the variants it shares with us.

PySolFC (the open-source solitaire collection) numbers its deals; ``pysol-cards``
is its own dealer, published separately (Expat licence). We take the shuffled
deck from ``pysol-cards`` and never re-derive its random generators, so that
"PySolFC game 123456" means the same cards here as there.

Yukon, Russian Solitaire and Alaska deal the same layout in PySolFC (its
``Yukon.startGame``, which ``pysol-cards`` reproduces for Yukon): column ``i``
(from 0) gets ``i`` face-down cards, then columns 2..7 get four face-up rows and
every column one more face-up card. PySolFC shuffles independently of the game
played, so the three share the deal of one number. Australian Patience (PySolFC
game 447) deals four face-up rows of seven and then turns the first stock card
onto the waste; ``pysol-cards`` has no layout for it, so we deal its shuffled
deck that way. Milligan Yukon (two decks) is not in PySolFC.

``pysol-cards`` is imported only when such a deal is made.

>>> from yukon import Game
>>> g = Game.deal("yukon", seed=1, numbering="pysolfc")
>>> g.numbering, g.to_text().split()[1].split("/")[0]
('pysolfc', '3D')
"""

from __future__ import annotations

from .errors import YukonError, shown
from .rules import Rules

#: Names of the deal numberings: this package's own shuffle, and PySolFC's.
NUMBERINGS = ("yukon", "pysolfc")
#: PySolFC's game id for each variant it deals from the same layout (its ``registerGame`` ids).
PYSOLFC_GAME_IDS = {"yukon": 19, "russian": 20, "alaska": 186, "australian": 447}
#: PySolFC game numbers run from 1 to 20 decimal digits (numbers up to 32000 are the
#: Microsoft-compatible deals; pysol-cards picks the generator).
MIN_GAME_NUMBER = 1
MAX_GAME_NUMBER = 10**20 - 1

# pysol-cards' suits, by index: clubs, spades, hearts, diamonds; ours are S, H, D, C (yukon.cards).
_OUR_SUIT = (3, 0, 1, 2)


class NumberingError(YukonError):
    """A deal numbering that does not exist, or does not cover this variant or number."""


def check_numbering(numbering: object) -> str:
    """``numbering`` if it is one of :data:`NUMBERINGS` (``yukon``, ``pysolfc``); else :class:`NumberingError`."""
    if numbering not in NUMBERINGS:
        raise NumberingError(f"unknown deal numbering {shown(numbering)} (known: {', '.join(NUMBERINGS)})")
    return str(numbering)


def check_game_number(rules: Rules, number: object) -> int:
    """``number`` if it is a PySolFC game number of ``rules``' variant; else :class:`NumberingError`."""
    if rules.variant not in PYSOLFC_GAME_IDS:
        offered = ", ".join(PYSOLFC_GAME_IDS)
        raise NumberingError(f"PySolFC numbering is not available for {rules.title} (only for: {offered})")
    if isinstance(number, bool) or not isinstance(number, int) \
            or not MIN_GAME_NUMBER <= number <= MAX_GAME_NUMBER:
        raise NumberingError(
            f"a PySolFC game number is an int from {MIN_GAME_NUMBER} to {MAX_GAME_NUMBER}, not {shown(number)}"
        )
    return number


def parse_game_number(text: str) -> int:
    """A PySolFC game number written in ASCII digits, for :func:`check_game_number` to judge; one of more
    digits than any game number is refused here (``int`` would raise ValueError past 4,300 digits)."""
    digits = text.strip() if isinstance(text, str) else ""
    if not digits.isascii() or not digits.isdigit():
        raise NumberingError(f"not a PySolFC game number: {shown(text)} (write digits 0-9)")
    if len(digits.lstrip("0")) > len(str(MAX_GAME_NUMBER)):
        raise NumberingError(f"PySolFC game number {shown(digits)} is too large: they run from {MIN_GAME_NUMBER} "
                             f"to {MAX_GAME_NUMBER}")
    return int(digits)


def dealing_order(number: int) -> list[int]:
    """The 52 cards in the order PySolFC deals them for game ``number`` (first dealt first)."""
    try:
        from pysol_cards.deal_game import Game as PysolGame
        from pysol_cards.random_base import RandomBase
    except ImportError:
        raise NumberingError(
            "PySolFC numbering needs the pysol-cards package (pip install pysol-cards)"
        ) from None
    dealer = PysolGame("yukon", number, RandomBase.DEALS_PYSOLFC)
    dealer.deal()
    return [(card.rank - 1) * 4 + _OUR_SUIT[card.suit] for card in dealer.cards]


def pysolfc_layout(
    rules: Rules, number: int
) -> tuple[list[tuple[list[int], list[int]]], list[int], list[int]]:
    """``(columns, stock, waste)`` of PySolFC game ``number``: columns as ``(down, up)`` bottom first,
    stock and waste bottom first (the stock's last card is the next one turned)."""
    check_game_number(rules, number)
    cards = iter(dealing_order(number))
    ncols = rules.columns
    down: list[list[int]] = [[] for _ in range(ncols)]
    up: list[list[int]] = [[] for _ in range(ncols)]
    if rules.variant == "australian":
        for _ in range(4):
            for col in up:
                col.append(next(cards))
        waste = [next(cards)]
    else:  # PySolFC's Yukon.startGame, row by row from the left
        for i in range(1, ncols):
            for j in range(i, ncols):
                down[j].append(next(cards))
        for _ in range(4):
            for j in range(1, ncols):
                up[j].append(next(cards))
        for col in up:
            col.append(next(cards))
        waste = []
    stock = list(cards)
    stock.reverse()
    if not rules.has_stock and stock:  # pragma: no cover - the layouts above deal every card
        raise AssertionError(f"{len(stock)} cards left after dealing {rules.title}")
    return list(zip(down, up, strict=True)), stock, waste


__all__ = [
    "MAX_GAME_NUMBER", "MIN_GAME_NUMBER", "NUMBERINGS", "PYSOLFC_GAME_IDS", "NumberingError",
    "check_game_number", "check_numbering", "dealing_order", "parse_game_number", "pysolfc_layout",
]
