"""Variants as data: one frozen :class:`Rules` object per variant, and a registry.

Every rule of docs/rules.md lives here exactly once, as a field; the game engine
reads the fields and has no per-variant code paths. A variant's build rule is an
object of its own (:class:`BuildRule`): which card fits on which, the cards safe
to play up that follows from it, and the words for a card that does not fit.

>>> from yukon.cards import parse_card
>>> r = rules_for("russian-solitaire")
>>> r.variant, r.build, r.empty_column
('russian', 'suit', 'kings')
>>> r.build_rule.fits(parse_card("8H"), parse_card("9H")), r.build_rule.wanted(parse_card("8H"))
(True, 'the nine of hearts')
>>> rules_for("yukon", empty_column="any").empty_column
'any'
>>> rules_for("milligan-yukon").foundation_return
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .cards import DECK, KING, PRETTY, RANK, RANK_NAMES, RED, SUIT, SUIT_NAMES
from .errors import InvalidRulesError, UnknownVariantError, shown


@dataclass(frozen=True)
class BuildRule:
    """A build rule on the tableau: how a lead card must relate to the free card it lands on.

    A lead fits on a target one rank lower (or, with ``up_too``, one rank higher too), of the same
    suit (``same_suit``) or else of the other colour. Everything else about the rule is derived
    from that here, once: the tables the engine and the compiled search look cards up in, the
    "safe to play up" rule, and the words that say what a card needs.

    >>> from yukon.cards import parse_card
    >>> ALTERNATE.wanted(parse_card("7S")), ALTERNATE.safe_for(parse_card("5H"))
    ('a red eight', (4, 0, 0, 4))
    >>> SUIT_UPDOWN.wanted(parse_card("7S")), SUIT_UPDOWN.safe_for(parse_card("7S"))
    ('the eight or six of spades', (8, 0, 0, 0))
    """

    #: the name variants, the JSON of the web table and the engine's messages use
    name: str
    same_suit: bool
    up_too: bool
    #: how it builds, for a player's help text
    words: str
    #: the compiled search's number for it (solver/core/core.h: ``rules_t.build``)
    code: int

    def fits(self, lead: int, target: int) -> bool:
        """True if ``lead`` may be placed on a free ``target`` card of a column."""
        step = RANK[target] - RANK[lead]
        if not (step == 1 or (self.up_too and step == -1)):
            return False
        return SUIT[lead] == SUIT[target] if self.same_suit else RED[lead] != RED[target]

    @cached_property
    def table(self) -> bytes:
        """``table[target * 52 + lead]`` is 1 when ``lead`` may go on ``target`` (the engine's and the
        compiled search's lookup)."""
        return bytes(self.fits(lead, target) for target in DECK for lead in DECK)

    @cached_property
    def accepted_by(self) -> tuple[tuple[int, ...], ...]:
        """``accepted_by[target]``: the cards that may be placed on ``target``."""
        return tuple(tuple(lead for lead in DECK if self.fits(lead, target)) for target in DECK)

    @cached_property
    def placeable_on(self) -> tuple[tuple[int, ...], ...]:
        """``placeable_on[lead]``: the cards ``lead`` may be placed on."""
        return tuple(tuple(target for target in DECK if self.fits(lead, target)) for lead in DECK)

    def safe_for(self, card: int) -> tuple[int, int, int, int]:
        """Per suit, how high the foundations of that suit must all be before ``card`` is safe to play up.

        Safe (docs/rules.md, "Automatic plays"; the solver's rule 1, docs/solver-design.md): no card
        that could ever be placed on ``card`` is still off the foundations, so each suit must be up to
        the highest of those cards of that suit. Where the next card up fits on ``card`` as well
        (``up_too``), that is a height no foundation reaches while ``card`` is off it: only Kings are
        ever safe there, not even Aces.
        """
        need = [0, 0, 0, 0]
        for lead in self.accepted_by[card]:
            need[SUIT[lead]] = max(need[SUIT[lead]], RANK[lead])
        return need[0], need[1], need[2], need[3]

    @cached_property
    def safe_table(self) -> bytes:
        """``safe_table[card * 4 + suit]``: :meth:`safe_for` of every card, the table the compiled
        search takes (its ``safe`` argument)."""
        return bytes(h for c in DECK for h in self.safe_for(c))

    def is_safe(self, card: int, heights: Sequence[int]) -> bool:
        """Is ``card`` safe to play up, ``heights[suit]`` being how many ranks of each suit have all
        their copies on the foundations? (The rule as far as the build decides it; with two decks a
        card also waits for its twin, and while a Milligan stock lasts nothing is safe.)"""
        need = self.safe_table
        at = card * 4
        return (heights[0] >= need[at] and heights[1] >= need[at + 1] and heights[2] >= need[at + 2]
                and heights[3] >= need[at + 3])

    def wanted(self, lead: int) -> str | None:
        """The cards ``lead`` may be placed on, in words (``'a red eight'``, ``'the eight of spades'``,
        ``'the eight or six of spades'``); None when there are none (a King, building down)."""
        ranks = sorted({RANK[t] for t in self.placeable_on[lead]}, reverse=True)
        if not ranks:
            return None
        named = " or ".join(RANK_NAMES[r - 1] for r in ranks)
        if self.same_suit:
            return f"the {named} of {SUIT_NAMES[SUIT[lead]]}"
        return f"a {'black' if RED[lead] else 'red'} {named}"

    def refusal(self, lead: int, target: int) -> str:
        """Why ``lead`` may not go on ``target``, in a player's words, every card named as the table draws it
        (``'7♥ needs a black 8 (8♠ or 8♣); 9♣ is not one.'``, ``'6♣ goes only on 7♣, not on 7♠.'``): one
        card in words and the other in symbols ("goes only on the nine of clubs, not on 3♦") read as two
        kinds of thing."""
        onto = sorted(self.placeable_on[lead], key=lambda t: (-RANK[t], SUIT[t]))
        if not onto:
            return f"{PRETTY[lead]} is a King: nothing is higher, it can only lead an empty column."
        cards = " or ".join(PRETTY[t] for t in onto)
        if self.same_suit:
            return f"{PRETTY[lead]} goes only on {cards}, not on {PRETTY[target]}."
        rank = PRETTY[onto[0]][:-1]  # (as the card shows it: 8, 10, J)
        colour = "black" if RED[lead] else "red"
        return f"{PRETTY[lead]} needs a {colour} {rank} ({cards}); {PRETTY[target]} is not one."


ALTERNATE = BuildRule("alternate", same_suit=False, up_too=False, words="alternate colours", code=0)
SUIT_DOWN = BuildRule("suit", same_suit=True, up_too=False, words="same suit", code=1)
SUIT_UPDOWN = BuildRule("suit-updown", same_suit=True, up_too=True, words="same suit, up or down", code=2)

#: The build rules on the tableau by name.
BUILD_RULES: dict[str, BuildRule] = {b.name: b for b in (ALTERNATE, SUIT_DOWN, SUIT_UPDOWN)}
#: Their names.
BUILDS = tuple(BUILD_RULES)
#: What may lead into an empty column.
EMPTY_COLUMN = ("kings", "any")
#: Stock handling: none; one card at a time to a waste pile, one pass; one card onto every column at once.
STOCKS = ("none", "waste", "rows")

#: The options a player may set, with the values each takes.
OPTIONS: dict[str, tuple[Any, ...]] = {
    "empty_column": EMPTY_COLUMN,
    "foundation_return": (False, True),
}


def build_rule(build: str | BuildRule) -> BuildRule:
    """The :class:`BuildRule` of that name (a rule is its own)."""
    if isinstance(build, BuildRule):
        return build
    rule = BUILD_RULES.get(build) if isinstance(build, str) else None
    if rule is None:
        raise InvalidRulesError(f"unknown build rule {shown(build)} (known: {', '.join(BUILD_RULES)})")
    return rule


@dataclass(frozen=True)
class Rules:
    """Everything that distinguishes one variant (with its options) from another."""

    variant: str
    title: str
    decks: int
    #: face-down and face-up cards dealt to each column, left to right
    deal_down: tuple[int, ...]
    deal_up: tuple[int, ...]
    #: how cards build on the tableau
    build_rule: BuildRule
    stock: str
    empty_column: str = "kings"
    foundation_return: bool = False

    @property
    def build(self) -> str:
        """The build rule's name: ``"alternate"``, ``"suit"`` or ``"suit-updown"``."""
        return self.build_rule.name

    @property
    def columns(self) -> int:
        """Number of tableau columns (7; 8 in Milligan Yukon)."""
        return len(self.deal_up)

    @property
    def foundations(self) -> int:
        """Number of foundation piles: four per deck."""
        return 4 * self.decks

    @property
    def card_count(self) -> int:
        """Number of cards in play: 52 per deck."""
        return 52 * self.decks

    @property
    def stock_size(self) -> int:
        """Cards left for the stock after the deal."""
        return self.card_count - sum(self.deal_down) - sum(self.deal_up)

    @property
    def has_stock(self) -> bool:
        """True if the variant has a stock (Australian Patience, Milligan Yukon)."""
        return self.stock != "none"

    @property
    def has_waste(self) -> bool:
        """True if the stock deals to a waste (Australian Patience), not onto the columns."""
        return self.stock == "waste"

    @property
    def kings_only(self) -> bool:
        """True if only a King (with the cards on it) may go into an empty column."""
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
                takes = ("true or false (False or True in Python)" if isinstance(allowed[0], bool)
                         else " or ".join(map(repr, allowed)))  # (JSON positions and Python callers alike)
                raise InvalidRulesError(f"rule option {key!r} takes {takes}, not {shown(value)}")
        return dataclasses.replace(self, **options) if options else self

    def fits(self, lead: int, target: int) -> bool:
        """True if ``lead`` may be placed on a free ``target`` card of a column."""
        return self.build_rule.fits(lead, target)

    def accepts_into_empty(self, lead: int) -> bool:
        """True if the card int ``lead`` may lead a group into an empty column."""
        return self.empty_column == "any" or RANK[lead] == KING

    @property
    def about(self) -> str:
        """The variant in one sentence for a player (its layout and how it builds)."""
        return ABOUT[self.variant]

    @property
    def build_in_words(self) -> str:
        """How cards build on the tableau, in a player's words, for every help (the web table's and the
        terminal's: one place for the rule's words).

        >>> rules_for("milligan-yukon").build_in_words
        'Build down in alternate colours; any face-up card can move with the cards on it.'
        """
        build = self.build_rule
        how = ("up or down" if build.up_too else "down") + (" in the same suit" if build.same_suit
                                                              else " in alternate colours")
        return f"Build {how}; any face-up card can move with the cards on it."

    @property
    def options_in_words(self) -> str:
        """The two options in a player's words (:meth:`describe` names them as the options do).

        >>> rules_for("yukon").options_in_words
        'Only a King (with the cards on it) goes into an empty column; a card on a foundation stays there.'
        """
        empty = ("Only a King (with the cards on it) goes into an empty column" if self.kings_only
                 else "Any card (with the cards on it) goes into an empty column")
        back = ("a card on a foundation may come back to a column" if self.foundation_return
                else "a card on a foundation stays there")
        return f"{empty}; {back}."

    def describe(self) -> str:
        """One line for people: ``'Yukon (empty column: kings, foundation return: off)'``."""
        ret = "on" if self.foundation_return else "off"
        return f"{self.title} (empty column: {self.empty_column}, foundation return: {ret})"


_YUKON_DOWN = (0, 1, 2, 3, 4, 5, 6)
_YUKON_UP = (1, 5, 5, 5, 5, 5, 5)

VARIANTS: dict[str, Rules] = {
    r.variant: r
    for r in (
        Rules("yukon", "Yukon", 1, _YUKON_DOWN, _YUKON_UP, ALTERNATE, "none"),
        Rules("russian", "Russian Solitaire", 1, _YUKON_DOWN, _YUKON_UP, SUIT_DOWN, "none"),
        Rules("alaska", "Alaska", 1, _YUKON_DOWN, _YUKON_UP, SUIT_UPDOWN, "none"),
        Rules("australian", "Australian Patience", 1, (0,) * 7, (4,) * 7, SUIT_DOWN, "waste"),
        Rules(
            "milligan-yukon", "Milligan Yukon", 2, tuple(range(8)), (1,) * 8,
            ALTERNATE, "rows", foundation_return=True,
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


def build_table(build: str | BuildRule) -> bytes:
    """``table[target * 52 + lead]`` is 1 when ``lead`` may go on ``target``: :attr:`BuildRule.table`."""
    return build_rule(build).table


def accepted_by(build: str | BuildRule) -> tuple[tuple[int, ...], ...]:
    """``accepted_by(build)[target]``: the cards that may be placed on ``target``: :attr:`BuildRule.accepted_by`."""
    return build_rule(build).accepted_by


def safe_table(build: str | BuildRule) -> bytes:
    """``table[card * 4 + suit]``: how high that suit's foundation must be before ``card`` is safe to play
    up: :attr:`BuildRule.safe_table`, the table the compiled search takes.

    >>> list(safe_table("alternate")[17 * 4:][:4])  # the 5 of hearts: the black 4s (spades, clubs) up
    [4, 0, 0, 4]
    >>> list(safe_table("suit-updown")[17 * 4:][:4])  # the 6 of hearts fits on it too
    [0, 6, 0, 0]
    """
    return build_rule(build).safe_table
