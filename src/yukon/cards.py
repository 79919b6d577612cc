"""Cards as small ints, and their two-character text form.

A card is the int ``(rank - 1) * 4 + suit`` with rank 1 (Ace) .. 13 (King)
and suit 0..3 for spades, hearts, diamonds, clubs. The next card of the same
suit is therefore ``card + 4``; tables below are computed once so the hot
path only indexes tuples.

>>> parse_card("TH")
37
>>> card_name(parse_card("10h"))
'TH'
>>> card_name(parse_card("♠A"))
'AS'
"""

from __future__ import annotations

from .errors import InvalidCardError, shown, whole

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
ACE, KING = 1, 13
DECK_SIZE = 52

#: Every card of one deck, in rank order (AS, AH, AD, AC, 2S, ...).
DECK: tuple[int, ...] = tuple(range(DECK_SIZE))

#: rank of a card, 1..13
RANK: tuple[int, ...] = tuple(c // 4 + 1 for c in DECK)
#: suit of a card, 0..3
SUIT: tuple[int, ...] = tuple(c % 4 for c in DECK)
#: True for hearts and diamonds
RED: tuple[bool, ...] = tuple(c % 4 in (HEARTS, DIAMONDS) for c in DECK)
#: two-character names, indexed by card
NAME: tuple[str, ...] = tuple(RANKS[RANK[c] - 1] + SUITS[SUIT[c]] for c in DECK)
#: names with the suit as a symbol, for people
PRETTY: tuple[str, ...] = tuple(
    ("10" if RANK[c] == 10 else RANKS[RANK[c] - 1]) + SUIT_SYMBOLS[SUIT[c]] for c in DECK
)

_SUIT_OF_CHAR = {**{s: i for i, s in enumerate(SUITS)}, **{s: i for i, s in enumerate(SUIT_SYMBOLS)}}
# Variation selectors sometimes trail emoji suit symbols ("♠️").
_VARIATION_SELECTORS = "\ufe0f\ufe0e"


def card(rank: int, suit: int) -> int:
    """The card of ``rank`` (1..13) and ``suit`` (0..3).

    >>> card_name(card(12, CLUBS))
    'QC'
    """
    r, s = whole(rank), whole(suit)  # ('a' raised TypeError, and 1.5 gave the card 3.0)
    if r is None or s is None or not (1 <= r <= 13 and 0 <= s <= 3):
        raise InvalidCardError(f"no card has rank {shown(rank)} and suit {shown(suit)} (ints: 1 to 13, 0 to 3)")
    return (r - 1) * 4 + s


def parse_card(text: str) -> int:
    """Read a card: ``TH``, ``10h``, ``th``, ``T♥``, ``♥T`` are all the ten of hearts.

    >>> parse_card("QC") == card(12, CLUBS)
    True
    >>> parse_card("1H")
    Traceback (most recent call last):
    ...
    yukon.errors.InvalidCardError: not a card: '1H'
    """
    if not isinstance(text, str):
        raise InvalidCardError(f"not a card: {shown(text)} (expected a string such as 'TH')")
    s = text.strip()
    for vs in _VARIATION_SELECTORS:
        s = s.replace(vs, "")
    s = s.upper()
    if len(s) >= 2 and s[0] in _SUIT_OF_CHAR and s[0] in SUIT_SYMBOLS:
        s = s[1:] + s[0]  # symbol written first: "♥T"
    if len(s) == 3 and s.startswith("10"):
        s = "T" + s[2]
    if len(s) != 2 or s[0] not in RANKS or s[1] not in _SUIT_OF_CHAR:
        raise InvalidCardError(f"not a card: {shown(text)}")
    return (RANKS.index(s[0])) * 4 + _SUIT_OF_CHAR[s[1]]


def card_name(c: int) -> str:
    """The two-character name of a card, as every writer emits it.

    >>> card_name(0)
    'AS'
    >>> card_name(52)
    Traceback (most recent call last):
    ...
    yukon.errors.InvalidCardError: not a card number: 52 (a card is an int from 0 to 51)
    """
    return NAME[check_card(c)]


def check_card(c: object) -> int:
    """``c`` if it is a card int (0 to 51; numpy's ints too, not a bool), as an int; else
    :class:`InvalidCardError`, pointing a card's name to :func:`parse_card`.

    The one check of every call that takes a card int: a bare ``NAME[c]`` would answer IndexError for 52
    and, worse, 'KC' for -1 (Python's negative index).

    >>> check_card(37)
    37
    >>> check_card(-1)
    Traceback (most recent call last):
    ...
    yukon.errors.InvalidCardError: not a card number: -1 (a card is an int from 0 to 51)
    """
    i = whole(c)
    if i is not None and 0 <= i < DECK_SIZE:
        return i
    name = f": parse_card({c!r}) reads a name" if isinstance(c, str) and len(c) <= 8 else ""
    raise InvalidCardError(f"not a card number: {shown(c)} (a card is an int from 0 to {DECK_SIZE - 1}{name})")


def card_long_name(c: int) -> str:
    """Words for screen readers: ``'queen of clubs'``.

    >>> card_long_name(parse_card("QC"))
    'queen of clubs'
    """
    c = check_card(c)
    return f"{RANK_NAMES[RANK[c] - 1]} of {SUIT_NAMES[SUIT[c]]}"
