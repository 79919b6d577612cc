"""What a player sees of a game: the one view that honest players and hints receive.

A :class:`VisiblePosition` holds the face-up cards, the foundations, the waste,
how many cards lie face down in each column and how many are in the stock, the
rules, and so which cards are still unseen (as a sorted multiset: nothing says
where each lies). Two games that differ only in which unseen card lies in which
face-down place, or in the order of the stock, have equal views; that is what
makes a player that reads only the view honest.

Nothing about the past is needed: in every variant a card once seen stays in
sight (face-down cards never turn back, the waste is face up, the stock is
passed once).

>>> from yukon import Game
>>> view = VisiblePosition.of(Game.deal("yukon", seed=1))
>>> view.down_counts, view.stock_count, len(view.unseen)
((0, 1, 2, 3, 4, 5, 6), 0, 21)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cached_property

from .cards import NAME
from .errors import YukonError
from .game import Game
from .notation import Move
from .rules import Rules


@dataclass(frozen=True)
class VisiblePosition:
    """A position as a player sees it (hashable: equal views are equal keys)."""

    rules: Rules
    #: per column: the number of face-down cards, then the face-up cards bottom first
    columns: tuple[tuple[int, tuple[int, ...]], ...]
    foundations: tuple[tuple[int, ...], ...]
    waste: tuple[int, ...]
    stock_count: int
    #: the cards in the face-down places and the stock, sorted (with two decks a card may appear twice)
    unseen: tuple[int, ...]

    @classmethod
    def of(cls, game: Game) -> VisiblePosition:
        """The view of ``game``: the only place where hidden cards are read, and only to be sorted away."""
        if not isinstance(game, Game):
            raise TypeError(f"VisiblePosition.of() needs a yukon.Game, not {type(game).__name__}")
        columns = game.columns
        hidden: list[int] = game.stock
        for down, _ in columns:
            hidden.extend(down)
        return cls(
            rules=game.rules,
            columns=tuple((len(down), tuple(up)) for down, up in columns),
            foundations=tuple(tuple(p) for p in game.foundations),
            waste=tuple(game.waste),
            stock_count=len(game.stock),
            unseen=tuple(sorted(hidden)),
        )

    @property
    def down_counts(self) -> tuple[int, ...]:
        """Face-down cards of each column."""
        return tuple(n for n, _ in self.columns)

    @property
    def is_determined(self) -> bool:
        """Whether the view leaves one arrangement of the unseen cards: at most one is unseen, or copies of
        one card only (two decks), so a player knows where every card lies."""
        return len(set(self.unseen)) <= 1

    @property
    def hidden_places(self) -> int:
        """Face-down places plus stock cards: as many as there are unseen cards."""
        return len(self.unseen)

    def fill(self, cards: Sequence[int]) -> Game:
        """A game of this view with ``cards`` put into the hidden places: the face-down places column by
        column, bottom first, then the stock bottom first (its last card is dealt first).

        ``cards`` must be an arrangement of :attr:`unseen`; raises :class:`YukonError` otherwise.
        """
        if sorted(cards) != list(self.unseen):
            raise YukonError(
                f"a fill must arrange the {len(self.unseen)} unseen card(s) of the view, "
                f"not {' '.join(NAME[c] for c in cards) or 'nothing'}"
            )
        pos = 0
        columns = []
        for n_down, up in self.columns:
            columns.append((list(cards[pos:pos + n_down]), list(up)))
            pos += n_down
        stock = list(cards[pos:])
        return Game(self.rules, columns, [list(p) for p in self.foundations], stock, list(self.waste))

    @cached_property
    def canonical(self) -> Game:
        """One fixed fill (the unseen cards in sorted order): for what depends on the view only, such as
        the legal moves or a heuristic's score. Treat it as read-only."""
        return self.fill(self.unseen)

    def legal_moves(self) -> list[Move]:
        """The legal moves (they depend only on what is seen: the hidden places count, not their cards)."""
        return self.canonical.legal_moves()

    def is_won(self) -> bool:
        """All cards on the foundations."""
        return self.canonical.is_won()

    def after(self, move: Move) -> VisiblePosition | None:
        """The view after ``move`` when it reveals nothing (no card turned, nothing dealt), else None."""
        game = self.canonical.copy()
        game.push(move)
        view = VisiblePosition.of(game)
        if view.hidden_places != self.hidden_places:
            return None
        return view

    def goes_back(self, move: Move, seen: Collection[VisiblePosition]) -> bool:
        """Does ``move`` lead back to one of the views ``seen`` (a move that reveals nothing, into a position
        the player saw already)? The honest player gives up rather than make such a move: it goes round in
        circles."""
        after = self.after(move)
        return after is not None and after in seen


def hidden_words(face_down: int, stock: int) -> str:
    """What a player cannot see, in words, given how many cards lie face down and in the stock: "the
    face-down cards", "the stock's order" (Australian Patience deals every card face up), or both.

    >>> hidden_words(21, 0), hidden_words(0, 24), hidden_words(10, 8)
    ('the face-down cards', "the stock's order", 'the face-down cards and the stock')
    """
    if face_down and stock:
        return "the face-down cards and the stock"
    return "the stock's order" if stock else "the face-down cards"


def hidden_in(game: Game) -> str:
    """What the player cannot see in ``game``, in words (:func:`hidden_words`): what a solver's hint or
    verdict sees beyond the table, and what an honest hint guesses at."""
    return hidden_words(game.face_down_count, len(game.stock))


def visible_history(game: Game) -> list[VisiblePosition]:
    """The views of the positions the game went through before this one, oldest first (what the player
    saw on the way: used to avoid going round in circles)."""
    replay = game.copy(history=True)
    views: list[VisiblePosition] = []
    while replay.move_stack:
        replay.pop()
        views.append(VisiblePosition.of(replay))
    views.reverse()
    return views


__all__ = ["VisiblePosition", "hidden_words", "visible_history"]
