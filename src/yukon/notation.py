"""Moves and their text notation.

A move names where a card comes from, the card, how many cards travel with
it, and where they go. Columns are numbered from 1, left to right.

======================  ==================================================
``2:7H>5``              7H, the free card of column 2, onto column 5
``2:7H+2>5``            7H with the 2 cards lying on it, onto column 5
``3:QC>F``              QC from column 3 to its foundation
``W:9D>4``, ``W:AS>F``  the waste's top card to column 4 / the foundation
``F:5S>3``              5S back from its foundation onto column 3
``deal``                the stock: one card to the waste (Australian), or
                        one card onto every column (Milligan Yukon)
======================  ==================================================

The column and the count make a move unambiguous even with two decks; the
card is stated so that a person can read the move and so that a stale move
is caught. :meth:`yukon.Game.parse_move` also accepts shorter forms that
the position completes (``7H>5``, ``QC>F``, ``2>5``).

>>> m = Move.from_text("2:7H+2>5")
>>> m
Move.from_text('2:7H+2>5')
>>> str(m), m.count, m.is_tableau_move
('2:7H+2>5', 3, True)
>>> Move.from_text("deal") == STOCK_MOVE
True
"""

from __future__ import annotations

import re

from .cards import NAME, parse_card
from .errors import InvalidCardError, InvalidMoveError, shown

#: Pseudo-piles. Columns are 0..15.
FOUNDATION = 16
WASTE = 17
STOCK = 18

#: Columns the notation can name (1..16 in text); no variant has more than 8.
MAX_COLUMNS = 16
#: The most cards one move can carry: every card of two decks.
MAX_COUNT = 104

_PILE_TEXT = {FOUNDATION: "F", WASTE: "W"}


class Move:
    """One move; hashable, immutable, independent of any position.

    ``src`` and ``dst`` are column indices (from 0) or :data:`FOUNDATION`,
    :data:`WASTE`, :data:`STOCK`; ``card`` is the lead card (-1 for the stock
    move); ``count`` is the number of cards that travel (1 for a single card).
    """

    __slots__ = ("_key", "card", "count", "dst", "src")

    src: int
    dst: int
    card: int
    count: int
    _key: int

    def __init__(self, src: int, dst: int, card: int, count: int = 1) -> None:
        # Range checks keep every field inside its bits of ``key`` (so distinct moves never
        # compare equal) and keep nonsense out of the engine's list indexing.
        fields = (src, dst, card, count)
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in fields):
            raise InvalidMoveError(f"not a move: Move{shown(fields)} (its four fields are ints)")
        if src == STOCK:
            if (dst, card, count) != (STOCK, -1, 0):
                raise InvalidMoveError(f"not a move: the stock move is Move({STOCK}, {STOCK}, -1, 0)")
        elif not (0 <= src <= WASTE and 0 <= dst <= FOUNDATION and 0 <= card < 52 and 1 <= count <= MAX_COUNT):
            raise InvalidMoveError(
                f"not a move: Move{shown(fields)} (columns 0..{MAX_COLUMNS - 1},"
                f" FOUNDATION={FOUNDATION}, WASTE={WASTE}; a card 0..51; a count 1..{MAX_COUNT})"
            )
        object.__setattr__(self, "src", src)
        object.__setattr__(self, "dst", dst)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "_key", move_key(src, dst, card, count))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Move is immutable")

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Read the full notation (what ``str()`` writes); raises :class:`InvalidMoveError`."""
        return parse_move_text(text)

    @property
    def key(self) -> int:
        """A small int that identifies the move; equal moves have equal keys."""
        return self._key

    @property
    def is_stock_move(self) -> bool:
        """The ``deal`` move (from the stock)."""
        return self.src == STOCK

    @property
    def is_tableau_move(self) -> bool:
        """Column to column."""
        return self.src < FOUNDATION and self.dst < FOUNDATION

    @property
    def is_foundation_move(self) -> bool:
        """A card played up to its foundation."""
        return self.dst == FOUNDATION

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and other._key == self._key

    def __hash__(self) -> int:
        return self._key

    def __str__(self) -> str:
        if self.src == STOCK:
            return "deal"
        src = _PILE_TEXT.get(self.src) or str(self.src + 1)
        dst = _PILE_TEXT.get(self.dst) or str(self.dst + 1)
        extra = f"+{self.count - 1}" if self.count > 1 else ""
        return f"{src}:{NAME[self.card]}{extra}>{dst}"

    def __repr__(self) -> str:
        return f"Move.from_text({str(self)!r})"

    def __reduce__(self) -> tuple[object, tuple[int, int, int, int]]:
        return (Move, (self.src, self.dst, self.card, self.count))


def move_key(src: int, dst: int, card: int, count: int) -> int:
    """The key of the move ``Move(src, dst, card, count)`` (:attr:`Move.key`): each field in its own bits."""
    return ((src * 32 + dst) * 64 + card + 1) * 256 + count


#: every move made by make_move, by its fields (a tuple's hash is quicker than the key's arithmetic,
#: and legal_moves asks for each move it lists) and by its key
_MOVES: dict[tuple[int, int, int, int], Move] = {}
_MOVES_BY_KEY: dict[int, Move] = {}


def make_move(src: int, dst: int, card: int, count: int = 1) -> Move:
    """A shared instance of a move: engine code builds moves through this.

    Raises :class:`InvalidMoveError` for fields that make no move (as ``Move`` does).
    """
    m = _MOVES.get((src, dst, card, count))
    if m is None:
        m = _MOVES[src, dst, card, count] = Move(src, dst, card, count)
        _MOVES_BY_KEY[m.key] = m
    return m


def move_of_key(key: int) -> Move:
    """The move whose :attr:`Move.key` is ``key``, of those made so far by :func:`make_move`.

    For searches that keep lines as keys; ``KeyError`` for a key no move made has.
    """
    return _MOVES_BY_KEY[key]


STOCK_MOVE = make_move(STOCK, STOCK, -1, 0)

_STOCK_WORDS = {"deal", "stock", "turn", "draw", "s", "d"}
_MOVE_RE = re.compile(
    r"""^\s*
    (?:(?P<src>\d{1,2}|[WwFf])\s*[:.]?\s*)??   # source pile (optional in short forms)
    (?P<card>(?:10|[A2-9TJQKatjqk])\s*[SHDCshdc♠♥♦♣]\ufe0f?|[♠♥♦♣]\ufe0f?\s*(?:10|[A2-9TJQKatjqk]))?
    (?:\s*\+\s*(?P<extra>\d{1,3}))?
    \s*(?:>|-|->|\s)\s*
    (?P<dst>\d{1,2}|[Ff])
    \s*$""",
    re.VERBOSE | re.ASCII,  # ASCII: \d and \s would take '３' or '٣' for a column, and \s odd spaces
)


class ParsedMove:
    """A move read from text, with the parts a short form left out set to None."""

    __slots__ = ("card", "count", "dst", "src")

    def __init__(self, src: int | None, card: int | None, count: int | None, dst: int) -> None:
        self.src, self.card, self.count, self.dst = src, card, count, dst

    def is_complete(self) -> bool:
        return self.src is not None and self.card is not None and self.count is not None


def parse_move_parts(text: str) -> ParsedMove | None:
    """Read full or short notation; ``None`` means the stock move.

    Raises :class:`InvalidMoveError` for text that is not a move.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"not a move: {shown(text)} (expected text such as '2:7H>5')")
    if text.strip().lower() in _STOCK_WORDS:
        return None
    m = _MOVE_RE.match(text)
    if not m or (m.group("src") is None and m.group("card") is None):
        raise InvalidMoveError(f"not a move: {shown(text)} (write e.g. '2:7H>5', '3:QC>F', 'deal')")
    src_text, card_text, extra, dst_text = m.group("src", "card", "extra", "dst")
    src: int | None = None
    if src_text is not None:
        up = src_text.upper()
        src = FOUNDATION if up == "F" else WASTE if up == "W" else _column(up, text)
    dst = FOUNDATION if dst_text.upper() == "F" else _column(dst_text, text)
    card: int | None = None
    if card_text is not None:
        try:
            card = parse_card(card_text.replace(" ", ""))
        except InvalidCardError as exc:  # pragma: no cover - the regex admits only cards
            raise InvalidMoveError(f"not a move: {shown(text)} ({exc})") from None
    if extra is not None and card is None:
        raise InvalidMoveError(f"not a move: {shown(text)} (a '+N' count needs a card)")
    count = int(extra) + 1 if extra is not None else None
    if count is not None and count > MAX_COUNT:
        raise InvalidMoveError(f"not a move: {shown(text)} (a move carries at most {MAX_COUNT} cards)")
    if src is not None and src >= FOUNDATION and count is not None and count != 1:
        raise InvalidMoveError(f"not a move: {shown(text)} (only one card leaves the waste or a foundation)")
    if src == dst:
        raise InvalidMoveError(f"not a move: {shown(text)} (source and destination are the same)")
    if src is not None and src >= FOUNDATION:
        count = 1
    if dst == FOUNDATION and count is not None and count != 1:
        raise InvalidMoveError(f"not a move: {shown(text)} (only a single card goes to a foundation)")
    if dst == FOUNDATION and card is not None and count is None and src is not None:
        count = 1
    return ParsedMove(src, card, count, dst)


def _column(digits: str, text: str) -> int:
    """The 0-based index of a column written from 1."""
    n = int(digits)
    if not 1 <= n <= MAX_COLUMNS:
        raise InvalidMoveError(f"not a move: {shown(text)} (columns are numbered 1 to {MAX_COLUMNS})")
    return n - 1


def parse_move_text(text: str) -> Move:
    """Read the full notation without a position."""
    parts = parse_move_parts(text)
    if parts is None:
        return STOCK_MOVE
    if parts.src is None or parts.card is None:
        raise InvalidMoveError(
            f"incomplete move {shown(text)}: the full form names the source, e.g. '2:7H>5'"
        )
    count = parts.count if parts.count is not None else 1
    return make_move(parts.src, parts.dst, parts.card, count)
