"""Rule 4: cards that can never go up, by a relaxation of the rules (docs/solver-design.md, rule 4).

One deck, no stock or waste, with or without foundation return. The relaxation keeps, for the position
given, four
kinds of event, each "at some time, now or later", and never forgets one (what a later move undoes still
counts):

- ``free(c)``: the card ``c`` is the free card of its column (for a card on a foundation now: it has come
  down);
- ``leaves(c)``: ``c`` leaves the card (or floor) it lies on now, as the lead of a move or to its foundation;
- ``up(c)``: ``c`` is on its foundation;
- ``empty``: some column is empty.

Each event of any real line needs others before it (or at the same moment), and the least set of events
closed under these needs holds every event of every line:

- ``free(c)`` (not free now) needs ``leaves(y)``, y the card lying on c now: a card stops lying on c only
  by leading a move or going up (a pile carried along keeps its cards on each other);
- ``leaves(x)`` needs x face up (a face-down x must first be the free card of its column: ``free(x)``), and
  one of: ``free(t)`` for a card t that x fits on, other than the one it lies on, and, if t lies above x in
  its column now, ``leaves(z)`` for a card z above x, at or below t (or t would still be in x's pile);
  ``empty`` if x may go into an empty column (a King, or any card where any card may); ``up(x)``;
- ``up(c)`` needs ``free(c)`` and the card below it in its suit up (none for an Ace);
- ``empty`` (no column empty now) needs ``leaves(b)`` for the bottom card b of some column.

With foundation return a card ``c`` on a foundation now may come down: ``free(c)`` then needs, if the card
above it in its suit is on the foundation now, ``free`` of that card (it came down first, onto a column, as
its free card), and one of ``free(t)`` for a card t that c fits on, or ``empty`` if c may go into an empty
column. Such a card is one more target for ``leaves(x)`` (with no pile condition: it is in no column now).
A card of the tableau that goes up and comes down adds nothing: ``leaves``, ``free`` and ``empty`` are about
the first time, and its going up already gave it ``free`` and ``leaves``.

A win needs ``up(c)`` for every card; a card outside the least closed set never goes up, and the
position is lost. The set is computed by adding events until nothing more follows.
"""

from __future__ import annotations

from ..cards import RANK
from ..game import Game

FLOOR = -1


def never_up(game: Game) -> list[int]:
    """The cards that can provably never go up (then the game is lost), or [] where the rule does not
    apply (two decks, a stock or waste) or proves nothing."""
    rules = game.rules
    if rules.decks != 1 or rules.has_waste:
        return []
    cols = [list(c) for c in game.column_cards]
    downs = list(game.down_counts)
    targets_of = rules.build_rule.placeable_on
    any_into_empty = not rules.kings_only
    up: set[int] = set()
    for pile in game.foundation_piles:
        up.update(pile)
    # the cards that may come down (foundation return), each with the card above it up now (None: none)
    returnable = {c: c + 4 if c + 4 in up else None for c in up} if rules.foundation_return else {}
    place: dict[int, tuple[int, int]] = {}
    for ci, col in enumerate(cols):
        for i, c in enumerate(col):
            place[c] = (ci, i)
    in_tableau = list(place)
    support = {c: cols[ci][i - 1] if i else FLOOR for c, (ci, i) in place.items()}
    lying_on = {c: cols[ci][i + 1] if i + 1 < len(cols[ci]) else None for c, (ci, i) in place.items()}
    face_down = {c for c, (ci, i) in place.items() if i < downs[ci]}
    free = {c for c in in_tableau if lying_on[c] is None}
    leaves: set[int] = set()
    empty = any(not col for col in cols)

    def reachable(x: int, t: int) -> bool:
        """Can x lead onto t, as far as the events so far say?"""
        if t not in place:  # on a foundation now: once it has come down
            return t in free
        if t not in free or t == support[x]:
            return False
        (xc, xi), (tc, ti) = place[x], place[t]
        if xc == tc and ti > xi:  # t in x's pile now: a card between must leave first
            return any(z in leaves for z in cols[xc][xi + 1:ti + 1])
        return True

    def below_is_up(c: int) -> bool:
        return RANK[c] == 1 or (c - 4) in up

    changed = True
    while changed:
        changed = False
        for c, above in returnable.items():
            if c not in free and (above is None or above in free) and (
                    ((any_into_empty or RANK[c] == 13) and empty) or any(t in free for t in targets_of[c])):
                free.add(c)
                changed = True
        for c in in_tableau:
            if c not in free and lying_on[c] in leaves:
                free.add(c)
                changed = True
            if c not in up and c in free and below_is_up(c):
                up.add(c)
                changed = True
            if c not in leaves and (c not in face_down or c in free) and (
                    c in up or ((any_into_empty or RANK[c] == 13) and empty)
                    or any(reachable(c, t) for t in targets_of[c])):
                leaves.add(c)
                changed = True
        if not empty and any(col and col[0] in leaves for col in cols):
            empty = True
            changed = True
    return sorted(c for c in range(52) if c not in up)
