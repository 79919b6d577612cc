"""Automatic plays that the games offer (never part of ``push``): safe cards up, auto-finish.

These are player conveniences, shared by the web and terminal games so that
the rule for "cannot hurt" is written once.

A card is *safe* to play up when no card that could ever be placed on it in
the tableau is still off the foundations: then the card can serve no further
purpose in the tableau (it is only ever a target for such cards; carrying it
along in a group gains nothing), and the card uncovered below it only adds
options. Aces are safe where nothing can be placed on them. In Alaska
(building up or down in suit) the card one rank *higher* could also be placed
on a card, and it cannot be up before it, so only Kings qualify there (not even
Aces: a 2 may be placed on its Ace). With two decks a card also waits until its
twin is up or both piles of its suit are ready for it: otherwise playing it
first could take the one foundation slot its twin needs. And while the
Milligan stock has cards, nothing is safe: a deal puts a card on every column,
and the card under it could then lead that card away.
Where cards may return from the foundations the rule is the same: it is about
what the tableau still needs.

>>> from yukon import Game
>>> g = Game.from_text("yukon,kings,noreturn KS/-/-/-/-/-/- QS/KH/KD/KC")
>>> [str(m) for m in finish_moves(g)]
['1:KS>F']
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence

from .cards import PRETTY, RANK, SUIT, check_card
from .game import Game
from .notation import FOUNDATION, Move, make_move


def _check_game(game: object, name: str) -> Game:
    """``game`` when it is a :class:`~yukon.Game`; else a TypeError naming the function and what it got
    (a position text or a VisiblePosition read as an AttributeError deep inside)."""
    if not isinstance(game, Game):
        raise TypeError(f"{name}() needs a yukon.Game, not {type(game).__name__}")
    return game


def _foundation_height(game: Game) -> list[list[int]]:
    """``heights[suit]``: the heights of the foundation piles of that suit (empty piles count 0)."""
    heights: list[list[int]] = [[], [], [], []]
    for pile in game.foundations:
        if pile:
            heights[SUIT[pile[0]]].append(len(pile))
    for h in heights:
        while len(h) < game.rules.decks:
            h.append(0)
    return heights


def _all_up(heights: list[list[int]], suit: int, rank: int) -> bool:
    """Are all copies of the card of ``suit`` and ``rank`` on the foundations?"""
    return min(heights[suit]) >= rank


def is_safe_to_play_up(game: Game, card: int) -> bool:
    """True if playing ``card`` (an int) to its foundation cannot hurt (see the module text)."""
    _check_game(game, "is_safe_to_play_up")
    card = check_card(card)  # ('AS' raised TypeError, 99 IndexError, and -1 read the king of clubs)
    if waits_for_the_stock(game):
        # A deal may still put a card on it (Milligan Yukon), which it could then carry away as a lead.
        return False
    return _safe_for_the_tableau(game, card)


def waits_for_the_stock(game: Game) -> bool:
    """While a stock that deals rows onto the columns (Milligan Yukon) has cards, nothing is safe."""
    _check_game(game, "waits_for_the_stock")
    return game.rules.stock == "rows" and bool(game.stock)


def twin_has_a_slot(game: Game, card: int) -> bool:
    """With two decks: can playing ``card`` up never take the pile its twin needs? True with one deck,
    when the twin is up already, or when both piles of the suit reach the rank below (each copy then
    has a pile to go on); the solver's rule 1 asks the same (docs/solver-design.md, rule 1)."""
    _check_game(game, "twin_has_a_slot")
    card = check_card(card)
    if game.rules.decks == 1:
        return True
    rank = RANK[card]
    suit_piles = _foundation_height(game)[SUIT[card]]
    return max(suit_piles) >= rank or min(suit_piles) >= rank - 1


def _safe_for_the_tableau(game: Game, card: int) -> bool:
    if not twin_has_a_slot(game, card):
        return False
    return game.rules.build_rule.is_safe(card, [min(h) for h in _foundation_height(game)])


def safe_moves(game: Game) -> list[Move]:
    """Legal moves to the foundations that cannot hurt, free cards of columns and the waste."""
    _check_game(game, "safe_moves")
    return [
        m for m in game.legal_moves()
        if m.dst == FOUNDATION and m.src != FOUNDATION and is_safe_to_play_up(game, m.card)
    ]


def held_back(game: Game) -> list[Move]:
    """The foundation plays that would be safe but for the stock still to deal (Milligan Yukon):
    auto-play leaves them to the player, who may want to say why.

    >>> from yukon import Game
    >>> g = Game.deal("milligan-yukon", seed=1)
    >>> [str(m) for m in held_back(g)], safe_moves(g)
    (['7:AS>F'], [])
    """
    _check_game(game, "held_back")
    if not waits_for_the_stock(game):
        return []
    return [
        m for m in game.legal_moves()
        if m.dst == FOUNDATION and m.src != FOUNDATION and _safe_for_the_tableau(game, m.card)
    ]


def kept_for_the_tableau(game: Game) -> list[tuple[Move, str]]:
    """The foundation plays automatic play leaves because the tableau may still need the card, each with
    the reason in a player's words, naming the cards as the table draws them: else a free card that could
    go up (an Ace in Alaska, where a 2 may be placed on it) looks forgotten. (The plays left only while a
    Milligan stock lasts are :func:`held_back`'s; :func:`left_to_the_player` words both.)

    >>> from yukon import Game
    >>> [(str(m), why) for m, why in kept_for_the_tableau(Game.deal("alaska", seed=6))]
    [('5:AS>F', 'A♠ is not played up automatically: you may still want to move the 2♠ onto it')]
    """
    _check_game(game, "kept_for_the_tableau")
    return [(m, _sentence([m.card], why)) for m, why in _kept_reasons(game)]


#: A reason for leaving cards, after their names ("A♠ is not played up automatically"): in its words ``{it}`` is
#: "it" for one card, "them" for more, and ``{each}`` "it" or "each".
_STOCK_REASON = " while the stock lasts: a deal puts a card on {each}, and you may want to move the two together"


def _kept_reasons(game: Game) -> list[tuple[Move, str]]:
    """:func:`kept_for_the_tableau`'s plays, each with its reason as a :data:`_STOCK_REASON`-like template."""
    heights = [min(h) for h in _foundation_height(game)]
    build = game.rules.build_rule
    kept: list[tuple[Move, str]] = []
    for m in game.legal_moves():
        if m.dst != FOUNDATION or m.src == FOUNDATION or _safe_for_the_tableau(game, m.card):
            continue
        card = PRETTY[m.card]
        if not twin_has_a_slot(game, m.card):
            # (its own reason: never shared with another card's)
            kept.append((m, f": the other {card} may need the foundation pile it would go on"))
            continue
        # the cards that could still be placed on it: those not yet up in every copy. (A lead is worth moving
        # onto it with the cards on the lead, to free the card under the lead: a red Ace onto a 2♣ in Yukon.)
        open_leads = sorted((c for c in build.accepted_by[m.card] if heights[SUIT[c]] < RANK[c]),
                            key=lambda c: (RANK[c], SUIT[c]))
        names = " or ".join(PRETTY[c] for c in open_leads)
        kept.append((m, f": you may still want to move the {names} onto {{it}}"))
    return kept


def _reasons(game: Game) -> list[tuple[Move, str]]:
    """Every play :func:`left_to_the_player` tells, with its reason's template (the Milligan stock's first)."""
    # (a deal puts a card on every column; the card under it may then lead the dealt card away)
    return [(m, _STOCK_REASON) for m in held_back(game)] + _kept_reasons(game)


def _sentence(cards: Sequence[int], reason: str) -> str:
    """One sentence of the cards left for the same reason: "A♠ is ... on it", "A♠ and A♥ are ... on each"."""
    names = [PRETTY[c] for c in cards]
    if len(names) == 1:
        return f"{names[0]} is not played up automatically" + reason.format(it="it", each="it")
    told = ", ".join(names[:-1]) + " and " + names[-1]
    return f"{told} are not played up automatically" + reason.format(it="them", each="each")


def left_to_the_player(game: Game) -> list[tuple[Move, str]]:
    """Every foundation play of a free card that automatic play leaves, each with why in a player's words:
    :func:`held_back`'s (while a Milligan stock lasts) and :func:`kept_for_the_tableau`'s. The one place the
    web table and the terminal game take these words from (:func:`left_in_sentences` joins the cards left
    for the same reason).

    >>> from yukon import Game
    >>> [(str(m), why.split(": ")) for m, why in left_to_the_player(Game.deal("milligan-yukon", seed=1))]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('7:AS>F', ['A♠ is not played up automatically while the stock lasts',
                 'a deal puts a card on it, and you may want to move the two together'])]
    """
    _check_game(game, "left_to_the_player")
    return [(m, _sentence([m.card], why)) for m, why in _reasons(game)]


def left_in_sentences(game: Game, cards: Collection[int] | None = None) -> list[str]:
    """Why automatic play leaves the plays of :func:`left_to_the_player` whose card is one of ``cards`` (None:
    all of them): one sentence per reason, the cards left for the same reason named together, in the order
    :func:`left_to_the_player` gives them (two Aces held while a Milligan stock lasts were two sentences of
    the same 110 characters each).

    >>> from yukon import Game
    >>> left_in_sentences(Game.deal("milligan-yukon", seed=4133423762))  # doctest: +NORMALIZE_WHITESPACE
    ['A♠ and A♥ are not played up automatically while the stock lasts: a deal puts a card on each, and you may
      want to move the two together']
    """
    _check_game(game, "left_in_sentences")
    grouped: dict[str, list[int]] = {}
    for m, reason in _reasons(game):
        if cards is None or m.card in cards:
            group = grouped.setdefault(reason, [])
            if m.card not in group:  # (two decks: the two copies of a card are one name)
                group.append(m.card)
    return [_sentence(group, reason) for reason, group in grouped.items()]


def next_safe_move(game: Game) -> Move | None:
    """The first of :func:`safe_moves`, or None when no card is safe to play up."""
    _check_game(game, "next_safe_move")
    moves = safe_moves(game)
    return moves[0] if moves else None


def is_certain_win(game: Game) -> bool:
    """All cards face up, no stock or waste, and every column strictly descending to its free end.

    Then the lowest card still needed is always free, so playing cards up wins.
    """
    _check_game(game, "is_certain_win")
    if game.stock or game.waste:
        return False
    for down, up in game.columns:
        if down:
            return False
        for a, b in itertools.pairwise(up):
            if RANK[b] >= RANK[a]:
                return False
    return True


def finish_moves(game: Game) -> list[Move]:
    """The moves that finish a certain win (empty if :func:`is_certain_win` is false)."""
    _check_game(game, "finish_moves")
    if not is_certain_win(game):
        return []
    g = game.copy()
    line: list[Move] = []
    while not g.is_won():
        for s, (_, up) in enumerate(g.columns):
            if up and g.foundation_target(up[-1]):
                m = make_move(s, FOUNDATION, up[-1], 1)
                break
        else:  # pragma: no cover - impossible by the argument above
            return []
        g.push(m)
        line.append(m)
    return line


__all__ = [
    "finish_moves", "held_back", "is_certain_win", "is_safe_to_play_up", "kept_for_the_tableau", "left_in_sentences",
    "left_to_the_player",
    "next_safe_move",
    "safe_moves",
    "twin_has_a_slot", "waits_for_the_stock",
]
