"""Variants as data: one frozen :class:`Rules` object per variant, and a registry.

Every rule of docs/rules.md lives here exactly once, as a field; the game engine
reads the fields and has no per-variant code paths.

>>> r = rules_for("russian-solitaire")
>>> r.variant, r.build, r.empty_column
('russian', 'suit', 'kings')
>>> rules_for("yukon", empty_column="any").empty_column
'any'
>>> rules_for("milligan-yukon").foundation_return
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache
from typing import Any

from .cards import DECK, KING, RANK, RED, SUIT
from .errors import InvalidRulesError, UnknownVariantError, shown

#: Build rules on the tableau: how a lead card must relate to the free card it lands on.
BUILDS = ("alternate", "suit", "suit-updown")
#: What may lead into an empty column.
EMPTY_COLUMN = ("kings", "any")
#: Stock handling: none; one card at a time to a waste pile, one pass; one card onto every column at once.
STOCKS = ("none", "waste", "rows")

#: The options a player may set, with the values each takes.
OPTIONS: dict[str, tuple[Any, ...]] = {
    "empty_column": EMPTY_COLUMN,
    "foundation_return": (False, True),
}


@dataclass(frozen=True)
class Rules:
    """Everything that distinguishes one variant (with its options) from another."""

    variant: str
    title: str
    decks: int
    #: face-down and face-up cards dealt to each column, left to right
    deal_down: tuple[int, ...]
    deal_up: tuple[int, ...]
    build: str
    stock: str
    empty_column: str = "kings"
    foundation_return: bool = False

    @property
    def columns(self) -> int:
        return len(self.deal_up)

    @property
    def foundations(self) -> int:
        return 4 * self.decks

    @property
    def card_count(self) -> int:
        return 52 * self.decks

    @property
    def stock_size(self) -> int:
        """Cards left for the stock after the deal."""
        return self.card_count - sum(self.deal_down) - sum(self.deal_up)

    @property
    def has_stock(self) -> bool:
        return self.stock != "none"

    @property
    def has_waste(self) -> bool:
        return self.stock == "waste"

    @property
    def kings_only(self) -> bool:
        return self.empty_column == "kings"

    def options(self) -> dict[str, Any]:
        """The rule options, every key present: the ``rules`` object of the JSON form."""
        return {"empty_column": self.empty_column, "foundation_return": self.foundation_return}

    def with_options(self, /, **options: Any) -> Rules:
        """A copy with options changed; unknown options or values raise :class:`InvalidRulesError`."""
        for key, value in options.items():
            if key not in OPTIONS:
                raise InvalidRulesError(
                    f"unknown rule option {shown(key)} (known: {', '.join(OPTIONS)})"
                )
            allowed = OPTIONS[key]
            if isinstance(value, bool) is not isinstance(allowed[0], bool) or value not in allowed:
                raise InvalidRulesError(
                    f"rule option {key!r} takes {' or '.join(map(repr, allowed))}, not {shown(value)}"
                )
        return dataclasses.replace(self, **options) if options else self

    def fits(self, lead: int, target: int) -> bool:
        """True if ``lead`` may be placed on a free ``target`` card of a column."""
        return bool(build_table(self.build)[target * 52 + lead])

    def accepts_into_empty(self, lead: int) -> bool:
        return self.empty_column == "any" or RANK[lead] == KING

    @property
    def about(self) -> str:
        """The variant in one sentence for a player (its layout and how it builds)."""
        return ABOUT[self.variant]

    def describe(self) -> str:
        """One line for people: ``'Yukon (empty column: kings, foundation return: off)'``."""
        ret = "on" if self.foundation_return else "off"
        return f"{self.title} (empty column: {self.empty_column}, foundation return: {ret})"


_YUKON_DOWN = (0, 1, 2, 3, 4, 5, 6)
_YUKON_UP = (1, 5, 5, 5, 5, 5, 5)

VARIANTS: dict[str, Rules] = {
    r.variant: r
    for r in (
        Rules("yukon", "Yukon", 1, _YUKON_DOWN, _YUKON_UP, "alternate", "none"),
        Rules("russian", "Russian Solitaire", 1, _YUKON_DOWN, _YUKON_UP, "suit", "none"),
        Rules("alaska", "Alaska", 1, _YUKON_DOWN, _YUKON_UP, "suit-updown", "none"),
        Rules("australian", "Australian Patience", 1, (0,) * 7, (4,) * 7, "suit", "waste"),
        Rules(
            "milligan-yukon", "Milligan Yukon", 2, tuple(range(8)), (1,) * 8,
            "alternate", "rows", foundation_return=True,
        ),
    )
}

#: Each variant in one sentence, for players (the web table's New game dialog and help).
ABOUT: dict[str, str] = {
    "yukon": "7 columns, build down in alternating colours; every card is dealt.",
    "russian": "Yukon, but build down in the same suit.",
    "alaska": "Yukon, but build up or down in the same suit.",
    "australian": "7 columns of 4 face-up cards; build down in suit; a stock turned one card at a time, one pass.",
    "milligan-yukon": "Two decks, 8 columns, 8 foundations; each deal from the stock puts one card on every column.",
}

ALIASES: dict[str, str] = {
    "russian-solitaire": "russian",
    "russian_solitaire": "russian",
    "australian-patience": "australian",
    "australian_patience": "australian",
    "milligan": "milligan-yukon",
    "milligan_yukon": "milligan-yukon",
    "milliganyukon": "milligan-yukon",
    "classic": "yukon",
}


def variant_name(name: str) -> str:
    """The registry name of a variant, given it or one of its aliases."""
    if not isinstance(name, str):
        raise UnknownVariantError(f"variant must be a name, not {shown(name)}")
    key = name.strip().lower().replace(" ", "-")
    key = ALIASES.get(key, key)
    if key not in VARIANTS:
        raise UnknownVariantError(
            f"unknown variant {shown(name)} (known: {', '.join(VARIANTS)})"
        )
    return key


def rules_for(variant: str | Rules, /, **options: Any) -> Rules:
    """The rules of a variant (name or alias) with options applied.

    ``variant`` is positional only, so that options read from outside that hold a key ``variant`` are
    an unknown option (:class:`InvalidRulesError`), not a TypeError of the call."""
    base = variant if isinstance(variant, Rules) else VARIANTS[variant_name(variant)]
    return base.with_options(**options)


@cache
def build_table(build: str) -> bytes:
    """``table[target * 52 + lead]`` is 1 when ``lead`` may go on ``target``."""
    if build not in BUILDS:
        raise InvalidRulesError(f"unknown build rule {shown(build)}")
    table = bytearray(52 * 52)
    for t in DECK:
        for c in DECK:
            if build == "alternate":
                ok = RANK[c] == RANK[t] - 1 and RED[c] != RED[t]
            elif build == "suit":
                ok = RANK[c] == RANK[t] - 1 and SUIT[c] == SUIT[t]
            else:
                ok = abs(RANK[c] - RANK[t]) == 1 and SUIT[c] == SUIT[t]
            table[t * 52 + c] = ok
    return bytes(table)


@cache
def accepted_by(build: str) -> tuple[tuple[int, ...], ...]:
    """``accepted_by(build)[target]``: the cards that may be placed on ``target``."""
    table = build_table(build)
    return tuple(tuple(c for c in DECK if table[t * 52 + c]) for t in DECK)



@cache
def safe_table(build: str) -> bytes:
    """``table[card * 4 + suit]``: how high that suit's foundation must be before ``card`` is safe to play up.

    Safe (the solver's rule 1, docs/solver-design.md): no card that could ever be placed on ``card`` is
    still off the foundations, so each suit's foundation must reach the highest of those cards of that
    suit. Under "suit-updown" the next card up fits on ``card`` as well, a height no foundation reaches
    while ``card`` is off it: only Kings are ever safe there. The compiled search takes this table.

    >>> list(safe_table("alternate")[17 * 4:][:4])  # the 5 of hearts: the black 4s (spades, clubs) up
    [4, 0, 0, 4]
    >>> list(safe_table("suit-updown")[17 * 4:][:4])  # the 6 of hearts fits on it too
    [0, 6, 0, 0]
    """
    table = bytearray(52 * 4)
    for card in DECK:
        for lead in accepted_by(build)[card]:
            at = card * 4 + SUIT[lead]
            table[at] = max(table[at], RANK[lead])
    return bytes(table)
