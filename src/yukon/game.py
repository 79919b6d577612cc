"""The game: a position of any variant, its legal moves, ``push`` and ``pop``.

>>> game = Game.deal("yukon", seed=42)
>>> len(game.legal_moves()) > 0
True
>>> move = game.legal_moves()[0]
>>> before = game.to_dict()
>>> game.push(move)
>>> game.pop() == move and game.to_dict() == before
True

State is kept in plain lists of ints so that the solver can call
``legal_moves``/``push``/``pop`` millions of times: each column is one list
of cards (bottom first) plus the number of face-down cards at its bottom.
Searches read those lists through the read-only properties ``column_cards``,
``down_counts``, ``foundation_piles``, ``stock_cards``, ``waste_cards`` and
``foundation_accepts``, play with ``push_unchecked`` and keep positions as
``to_image()`` bytes; no other module touches a game's private attributes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from .cards import NAME, RANK, check_card
from .deal import check_seed, shuffled
from .errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidPlaceError,
    InvalidPositionError,
    InvalidRulesError,
    shown,
    whole,
)
from .notation import (
    FOUNDATION,
    STOCK,
    STOCK_MOVE,
    WASTE,
    Move,
    make_move,
    parse_move_parts,
)
from .rules import Rules, rules_for

_KINGS = frozenset(range(48, 52))
#: every card's byte in an image (:meth:`Game.to_image`)
_CARD_BYTES = bytes(range(52))
_KING_LIST = (48, 49, 50, 51)


class Game:
    """A position with its history. Create one with :meth:`deal` or :meth:`from_dict`."""

    __slots__ = (
        "_accept",
        "_accepted_by",
        "_cols",
        "_down",
        "_fits",
        "_found",
        "_history",
        "_loc",
        "_ncols",
        "_on_foundations",
        "_stock",
        "_waste",
        "numbering",
        "rules",
        "seed",
    )

    def __init__(
        self,
        rules: Rules,
        columns: Sequence[tuple[Sequence[int], Sequence[int]]],
        foundations: Sequence[Sequence[int]] = (),
        stock: Sequence[int] = (),
        waste: Sequence[int] = (),
        seed: int | None = None,
        numbering: str = "yukon",
    ) -> None:
        """Build a position from already-validated parts (use :meth:`from_dict` for input).

        ``columns`` holds ``(down, up)`` pairs of card ints, bottom first. ``seed`` is the
        deal number, in ``numbering`` (``"yukon"``, this package's, or ``"pysolfc"``).
        """
        self.rules = rules
        self.seed = seed
        self.numbering = numbering
        self._cols: list[list[int]] = [list(down) + list(up) for down, up in columns]
        self._down: list[int] = [len(down) for down, _ in columns]
        piles = [list(p) for p in foundations] or [[] for _ in range(rules.foundations)]
        self._found: list[list[int]] = piles
        self._accept = bytearray(52)
        for pile in piles:
            if not pile:
                for ace in range(4):
                    self._accept[ace] += 1
            elif RANK[pile[-1]] < 13:
                self._accept[pile[-1] + 4] += 1
        self._stock: list[int] = list(stock)
        self._waste: list[int] = list(waste)
        # (move, turned_up, pile) per move played; pile is the foundation pile used, or
        # for the stock move in Milligan Yukon the number of columns that got a card.
        self._history: list[tuple[Move, int, int]] = []
        self._on_foundations = sum(len(p) for p in piles)
        self._fits = rules.build_rule.table
        self._accepted_by = rules.build_rule.accepted_by
        self._ncols = rules.columns
        # One deck: the column of each face-up card (-1 elsewhere), so that legal_moves can go
        # from each free card to the two or so cards that fit on it instead of scanning columns.
        self._loc: list[int] | None = None
        if rules.decks == 1:
            loc = [-1] * 52
            for i, col in enumerate(self._cols):
                for c in col[self._down[i]:]:
                    loc[c] = i
            self._loc = loc

    # ----------------------------------------------------------------- creation

    @classmethod
    def deal(
        cls, variant: str | Rules = "yukon", seed: int | None = None, numbering: str = "yukon", **options: Any
    ) -> Game:
        """A reproducible deal: the same variant and seed give the same cards forever.

        ``seed=None`` picks a random deal number (kept in :attr:`seed`). ``numbering="pysolfc"``
        deals PySolFC's game ``seed`` instead (see :mod:`yukon.pysolfc`).
        """
        rules = rules_for(variant, **options)
        if numbering != "yukon":
            from .pysolfc import check_numbering, pysolfc_layout

            check_numbering(numbering)
            if seed is None:
                import secrets

                seed = 1 + secrets.randbelow(1 << 32)
            columns, stock, waste = pysolfc_layout(rules, seed)
            return cls(rules, columns, stock=stock, waste=waste, seed=seed, numbering=numbering)
        if seed is None:
            import secrets

            seed = secrets.randbelow(1 << 32)
        check_seed(seed)
        order = shuffled(seed, rules.card_count)
        deck = [i % 52 for i in order]
        pos = 0
        columns = []
        for n_down, n_up in zip(rules.deal_down, rules.deal_up, strict=True):
            down = deck[pos:pos + n_down]
            up = deck[pos + n_down:pos + n_down + n_up]
            pos += n_down + n_up
            columns.append((down, up))
        return cls(rules, columns, stock=deck[pos:], seed=seed)

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        """Read the JSON position of docs/contract.md, parsed (a dict); raises :class:`InvalidPositionError`."""
        from .position import game_from_dict

        return game_from_dict(data)

    @classmethod
    def from_json(cls, text: str | bytes | bytearray) -> Game:
        """Read the contract's JSON position as text; raises :class:`InvalidPositionError`."""
        from .position import game_from_json

        return game_from_json(text)

    def to_dict(self) -> dict[str, Any]:
        """The JSON position of docs/contract.md (every key written)."""
        return {
            "variant": self.rules.variant,
            "rules": self.rules.options(),
            "tableau": [
                {"down": [NAME[c] for c in col[:d]], "up": [NAME[c] for c in col[d:]]}
                for col, d in zip(self._cols, self._down, strict=False)
            ],
            "foundations": [[NAME[c] for c in pile] for pile in self._found],
            "stock": [NAME[c] for c in self._stock],
            "waste": [NAME[c] for c in self._waste],
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text, indented (what ``yukon deal --json`` prints); :meth:`from_json` reads it."""
        return json.dumps(self.to_dict(), indent=2)

    @classmethod
    def from_text(cls, text: str) -> Game:
        """Read the one-line form written by :meth:`to_text`."""
        from .position import game_from_text

        return game_from_text(text)

    def to_text(self) -> str:
        """The compact one-line form of the position (see :mod:`yukon.position`)."""
        from .position import game_to_text

        return game_to_text(self)

    def copy(self, *, history: bool = False) -> Game:
        """An independent copy of the position (and, if asked, of its history)."""
        g = Game.__new__(Game)
        g.rules = self.rules
        g.seed = self.seed
        g.numbering = self.numbering
        g._cols = [list(c) for c in self._cols]
        g._down = list(self._down)
        g._found = [list(p) for p in self._found]
        g._accept = bytearray(self._accept)
        g._stock = list(self._stock)
        g._waste = list(self._waste)
        g._history = list(self._history) if history else []
        g._on_foundations = self._on_foundations
        g._fits = self._fits
        g._accepted_by = self._accepted_by
        g._ncols = self._ncols
        g._loc = None if self._loc is None else list(self._loc)
        return g

    def to_image(self) -> bytes:
        """The position (not its history) as bytes; :meth:`from_image` reads it back.

        A search that keeps thousands of positions keeps these rather than copies, which the
        garbage collector would have to walk (pauses of 100 ms).
        """
        out = bytearray()
        for col, d in zip(self._cols, self._down, strict=False):
            out += bytes((d, len(col)))
            out += bytes(col)
        for part in (*self._found, self._stock, self._waste):
            out.append(len(part))
            out += bytes(part)
        return bytes(out)

    @classmethod
    def from_image(cls, rules: Rules, image: bytes, seed: int | None = None) -> Game:
        """A game of ``rules`` at the position ``image`` written by :meth:`to_image` under the same rules.

        Not checked against the rules, like :meth:`push_unchecked` (an image is only ever one the engine
        wrote; a search reads thousands a second), but bytes that are not an image of ``rules``' layout
        (cut short, too long, a card that is no card, the wrong number of cards) raise
        :class:`InvalidPositionError` instead of an IndexError or a corrupt position.
        """
        if not isinstance(rules, Rules):
            raise InvalidRulesError(f"not rules: {shown(rules)} (give yukon.rules_for(variant))")
        if not isinstance(image, (bytes, bytearray)):
            raise InvalidPositionError(f"not a position image: {shown(image)} (the bytes of Game.to_image())")
        pos = 0
        columns = []
        parts = []
        try:  # (an IndexError is a read past the end, or one of the checks below)
            for _ in range(rules.columns):
                d, n = image[pos], image[pos + 1]
                cards = image[pos + 2:pos + 2 + n]
                # (translate deletes every card's byte in one C pass: what is left is no card)
                if d > n or len(cards) != n or cards.translate(None, _CARD_BYTES):
                    raise IndexError
                columns.append((cards[:d], cards[d:]))
                pos += 2 + n
            for _ in range(rules.foundations + 2):
                n = image[pos]
                cards = image[pos + 1:pos + 1 + n]
                if len(cards) != n or cards.translate(None, _CARD_BYTES):
                    raise IndexError
                parts.append(cards)
                pos += 1 + n
        except IndexError:
            raise InvalidPositionError(f"not a position image of {rules.title}: {shown(bytes(image))} (cut short, a "
                                       "byte that is no card, or more face-down cards than cards)") from None
        if pos != len(image) or pos - 2 * rules.columns - rules.foundations - 2 != rules.card_count:
            raise InvalidPositionError(f"not a position image of {rules.title}: {shown(bytes(image))} (it holds "
                                       f"{rules.card_count} cards and ends after them)")
        return cls(rules, columns, parts[:-2], parts[-2], parts[-1], seed=seed)

    # ----------------------------------------------------------------- reading

    @property
    def variant(self) -> str:
        """The variant's name, as ``Rules.variant`` (``"yukon"``, ``"milligan-yukon"``, ...)."""
        return self.rules.variant

    @property
    def columns(self) -> list[tuple[list[int], list[int]]]:
        """``(down, up)`` card lists of each column, bottom first (copies)."""
        return [(col[:d], col[d:]) for col, d in zip(self._cols, self._down, strict=False)]

    @property
    def foundations(self) -> list[list[int]]:
        """Each foundation pile's cards, bottom first (copies); piles fill left to right."""
        return [list(p) for p in self._found]

    @property
    def stock(self) -> list[int]:
        """The stock's cards, bottom first, the next one dealt last (a copy; empty without a stock)."""
        return list(self._stock)

    @property
    def waste(self) -> list[int]:
        """The waste's cards, bottom first, its playable top card last (a copy; empty without a waste)."""
        return list(self._waste)

    @property
    def move_stack(self) -> list[Move]:
        """The moves played since the position was created, oldest first."""
        return [h[0] for h in self._history]

    @property
    def cards_on_foundations(self) -> int:
        """How many cards lie on the foundations (``rules.card_count`` when the game is won)."""
        return self._on_foundations

    @property
    def face_down_count(self) -> int:
        """How many cards of the columns are face down."""
        return sum(self._down)

    def is_won(self) -> bool:
        """All cards on the foundations."""
        return self._on_foundations == self.rules.card_count

    def is_lost(self) -> bool:
        """Not won, and no legal move left."""
        return not self.is_won() and not self.has_legal_move()

    def is_over(self) -> bool:
        """Won, or no legal move left (the stock counts as a move while it has cards)."""
        return self.is_won() or not self.has_legal_move()

    def has_legal_move(self) -> bool:
        """True if some move may be played (dealing from the stock included)."""
        return bool(self._stock) or bool(self.legal_moves())

    def __eq__(self, other: object) -> bool:
        """Same position (history is not compared)."""
        if not isinstance(other, Game):
            return NotImplemented
        return (
            self.rules == other.rules and self._cols == other._cols
            and self._down == other._down and self._found == other._found
            and self._stock == other._stock and self._waste == other._waste
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Game.from_text({self.to_text()!r})"

    def __str__(self) -> str:
        from .render import layout_text

        return layout_text(self)

    # ----------------------------------------------------------------- the raw state (read-only)
    # For code that reads positions millions of times (the solver, the agent environment): the
    # engine's own lists, not copies, so that reading costs nothing. They are read-only: change a
    # position only through push/pop. Each stays the same object for the game's life (moves change
    # it in place), so a caller may keep a reference across push and pop.

    @property
    def column_cards(self) -> Sequence[Sequence[int]]:
        """Each column's cards as ints (:mod:`yukon.cards`), bottom first, the face-down ones first.

        Column ``i``'s first ``down_counts[i]`` cards are face down. The engine's own lists: read-only.
        """
        return self._cols

    @property
    def down_counts(self) -> Sequence[int]:
        """How many cards at the bottom of each column lie face down. The engine's own list: read-only."""
        return self._down

    @property
    def foundation_piles(self) -> Sequence[Sequence[int]]:
        """Each foundation pile's cards, bottom (the Ace) first. The engine's own lists: read-only."""
        return self._found

    @property
    def stock_cards(self) -> Sequence[int]:
        """The stock's cards, the next to be dealt last. The engine's own list: read-only."""
        return self._stock

    @property
    def waste_cards(self) -> Sequence[int]:
        """The waste's cards, the playable one last. The engine's own list: read-only."""
        return self._waste

    @property
    def foundation_accepts(self) -> Sequence[int]:
        """Per card int, how many foundation piles would take it now (0: none). The engine's own: read-only."""
        return self._accept

    # ----------------------------------------------------------------- moves

    def legal_moves(self) -> list[Move]:
        """Every distinct legal move, once each (a fresh list)."""
        if self._loc is not None:
            return self._legal_moves_indexed(self._loc)
        cols = self._cols
        down = self._down
        accepted = self._accepted_by
        accept = self._accept
        moves: list[Move] = []
        append = moves.append

        # Which cards each column's free card would take; and the empty columns.
        want: dict[int, list[int]] = {}
        empties: list[int] = []
        for d, col in enumerate(cols):
            if col:
                for c in accepted[col[-1]]:
                    w = want.get(c)
                    if w is None:
                        want[c] = [d]
                    else:
                        w.append(d)
            else:
                empties.append(d)
        any_into_empty = not self.rules.kings_only

        for s, col in enumerate(cols):
            n = len(col)
            if not n:
                continue
            for i in range(down[s], n):
                c = col[i]
                dests = want.get(c)
                if dests is not None:
                    for d in dests:
                        if d != s:
                            append(make_move(s, d, c, n - i))
                if empties and i and (any_into_empty or c in _KINGS):
                    for d in empties:
                        append(make_move(s, d, c, n - i))
            top = col[-1]
            if accept[top]:
                append(make_move(s, FOUNDATION, top, 1))

        if self._waste:
            top = self._waste[-1]
            for d in want.get(top, ()):
                append(make_move(WASTE, d, top, 1))
            if empties and (any_into_empty or top in _KINGS):
                for d in empties:
                    append(make_move(WASTE, d, top, 1))
            if accept[top]:
                append(make_move(WASTE, FOUNDATION, top, 1))
        if self._stock:
            append(STOCK_MOVE)
        if self.rules.foundation_return:
            seen = set()
            for pile in self._found:
                if pile and pile[-1] not in seen:
                    f = pile[-1]
                    seen.add(f)
                    for d in want.get(f, ()):
                        append(make_move(FOUNDATION, d, f, 1))
                    if empties and (any_into_empty or f in _KINGS):
                        for d in empties:
                            append(make_move(FOUNDATION, d, f, 1))
        return moves

    def _legal_moves_indexed(self, loc: list[int]) -> list[Move]:
        """``legal_moves`` for one deck: from each free card to the cards that fit on it."""
        cols = self._cols
        accepted = self._accepted_by
        accept = self._accept
        moves: list[Move] = []
        append = moves.append
        empties: list[int] = []
        for d, col in enumerate(cols):
            if not col:
                empties.append(d)
                continue
            for c in accepted[col[-1]]:
                s = loc[c]
                if s >= 0 and s != d:
                    scol = cols[s]
                    count = len(scol) - scol.index(c)
                    append(make_move(s, d, c, count))
        kings_only = self.rules.kings_only
        if empties:
            if kings_only:
                for c in _KING_LIST:
                    s = loc[c]
                    if s >= 0:
                        scol = cols[s]
                        i = scol.index(c)
                        if i:
                            for d in empties:
                                append(make_move(s, d, c, len(scol) - i))
            else:
                down = self._down
                for s, col in enumerate(cols):
                    n = len(col)
                    for i in range(down[s] or 1, n):
                        c = col[i]
                        for d in empties:
                            append(make_move(s, d, c, n - i))
        for s, col in enumerate(cols):
            if col and accept[col[-1]]:
                top = col[-1]
                append(make_move(s, FOUNDATION, top, 1))
        if self._waste or self.rules.foundation_return:
            fits = self._fits
            sources = [(WASTE, self._waste[-1])] if self._waste else []
            if self.rules.foundation_return:
                tops = {p[-1] for p in self._found if p}
                sources.extend((FOUNDATION, f) for f in sorted(tops))
            for src, c in sources:
                for d, col in enumerate(cols):
                    if col and fits[col[-1] * 52 + c]:
                        append(make_move(src, d, c, 1))
                if empties and (not kings_only or c in _KINGS):
                    for d in empties:
                        append(make_move(src, d, c, 1))
                if src == WASTE and accept[c]:
                    append(make_move(WASTE, FOUNDATION, c, 1))
        if self._stock:
            append(STOCK_MOVE)
        return moves

    def generate_legal_moves(self) -> Iterator[Move]:
        """An iterator over :meth:`legal_moves` (python-chess's name for it)."""
        return iter(self.legal_moves())

    def is_legal(self, move: object) -> bool:
        """True if ``move`` may be played now (checked directly, without listing moves)."""
        if not isinstance(move, Move):
            return False
        s, d, c, k = move.src, move.dst, move.card, move.count
        ncols = self._ncols
        if s == STOCK:
            return move == STOCK_MOVE and bool(self._stock)
        if not 0 <= c < 52 or k < 1:
            return False
        if s < ncols:
            col = self._cols[s]
            n = len(col)
            if k > n - self._down[s] or col[n - k] != c:
                return False
            if d == FOUNDATION:
                return k == 1 and self._accept[c] > 0
            whole_column = k == n and self._down[s] == 0
        elif s == WASTE:
            if k != 1 or not self._waste or self._waste[-1] != c:
                return False
            if d == FOUNDATION:
                return self._accept[c] > 0
            whole_column = False
        elif s == FOUNDATION:
            if k != 1 or not self.rules.foundation_return:
                return False
            if not any(p and p[-1] == c for p in self._found):
                return False
            whole_column = False
        else:
            return False
        if not 0 <= d < ncols or d == s:
            return False
        target = self._cols[d]
        if target:
            return bool(self._fits[target[-1] * 52 + c])
        if whole_column:
            return False
        return not self.rules.kings_only or c in _KINGS

    def push(self, move: Move) -> None:
        """Play ``move``; raises :class:`IllegalMoveError` (changing nothing) if it is not legal."""
        if not self.is_legal(move):
            raise self._illegal(move)
        self.push_unchecked(move)

    def push_unchecked(self, move: Move) -> None:
        """Play a move the caller knows to be legal (one of :meth:`legal_moves`), without checking it.

        For searches that play millions of moves they took from :meth:`legal_moves`; an illegal
        move corrupts the position. Everyone else calls :meth:`push`.
        """
        s = move.src
        d = move.dst
        turned = 0
        pile = -1
        loc = self._loc
        if s < FOUNDATION:
            col = self._cols[s]
            if d == FOUNDATION:
                c = col.pop()
                pile = self._to_foundation(c)
                if loc is not None:
                    loc[c] = -1
            else:
                k = move.count
                group = col[-k:]
                self._cols[d].extend(group)
                del col[-k:]
                if loc is not None:
                    for c in group:
                        loc[c] = d
            nd = self._down[s]
            if nd and len(col) == nd:
                self._down[s] = nd - 1
                turned = 1
                if loc is not None:
                    loc[col[-1]] = s
        elif s == WASTE:
            c = self._waste.pop()
            if d == FOUNDATION:
                pile = self._to_foundation(c)
            else:
                self._cols[d].append(c)
                if loc is not None:
                    loc[c] = d
        elif s == FOUNDATION:
            pile = self._from_foundation(move.card)
            self._cols[d].append(move.card)
            if loc is not None:
                loc[move.card] = d
        else:  # the stock
            stock = self._stock
            if self.rules.has_waste:
                self._waste.append(stock.pop())
            else:
                pile = min(self._ncols, len(stock))
                for i in range(pile):
                    self._cols[i].append(stock.pop())
        self._history.append((move, turned, pile))

    def pop(self) -> Move:
        """Undo the last move exactly and return it; ``IndexError`` if there is none."""
        if not self._history:
            raise IndexError("pop from a game with no moves played")
        move, turned, pile = self._history.pop()
        s = move.src
        d = move.dst
        loc = self._loc
        if s < FOUNDATION:
            col = self._cols[s]
            if turned:
                if loc is not None:
                    loc[col[-1]] = -1
                self._down[s] += 1
            if d == FOUNDATION:
                c = self._undo_foundation(pile)
                col.append(c)
                if loc is not None:
                    loc[c] = s
            else:
                k = move.count
                dcol = self._cols[d]
                group = dcol[-k:]
                col.extend(group)
                del dcol[-k:]
                if loc is not None:
                    for c in group:
                        loc[c] = s
        elif s == WASTE:
            if d == FOUNDATION:
                self._waste.append(self._undo_foundation(pile))
            else:
                c = self._cols[d].pop()
                self._waste.append(c)
                if loc is not None:
                    loc[c] = -1
        elif s == FOUNDATION:
            c = self._cols[d].pop()
            self._put_on_pile(pile, c)
            if loc is not None:
                loc[c] = -1
        else:
            stock = self._stock
            if self.rules.has_waste:
                stock.append(self._waste.pop())
            else:
                for i in range(pile - 1, -1, -1):
                    stock.append(self._cols[i].pop())
        return move

    def peek(self) -> Move:
        """The last move played."""
        if not self._history:
            raise IndexError("no moves played")
        return self._history[-1][0]

    def _pile_taking(self, c: int) -> int:
        """The index of the first foundation pile that takes ``c`` now (where a play up puts it), or -1."""
        for i, pile in enumerate(self._found):
            if pile:
                if pile[-1] + 4 == c:
                    return i
            elif c < 4:
                return i
        return -1

    def _to_foundation(self, c: int) -> int:
        """Put ``c`` on the first pile that takes it; return the pile's index."""
        i = self._pile_taking(c)
        if i < 0:  # pragma: no cover - callers check legality first
            raise AssertionError(f"no foundation takes {NAME[c]}")
        self._put_on_pile(i, c)
        return i

    def _undo_foundation(self, i: int) -> int:
        """Take the top card off pile ``i`` (undoing a play to it)."""
        pile = self._found[i]
        c = pile.pop()
        accept = self._accept
        if c < 48:
            accept[c + 4] -= 1
        if pile:
            accept[c] += 1
        else:
            for ace in range(4):
                accept[ace] += 1
        self._on_foundations -= 1
        return c

    def _from_foundation(self, c: int) -> int:
        """Take ``c`` back from the last pile whose top it is; return the pile's index."""
        for i in range(len(self._found) - 1, -1, -1):
            pile = self._found[i]
            if pile and pile[-1] == c:
                self._undo_foundation(i)
                return i
        raise AssertionError(f"{NAME[c]} is on no foundation")  # pragma: no cover

    def _put_on_pile(self, i: int, c: int) -> None:
        """Put ``c`` on foundation pile ``i`` (a play up, or undoing a card's return)."""
        pile = self._found[i]
        accept = self._accept
        if pile:
            accept[c] -= 1
        else:
            for ace in range(4):
                accept[ace] -= 1
        if c < 48:
            accept[c + 4] += 1
        pile.append(c)
        self._on_foundations += 1

    def _illegal(self, move: object) -> IllegalMoveError:
        """The error for an illegal ``move``: a message, and the rule it breaks (``reason``)."""
        if not isinstance(move, Move):
            hint = " (push takes a Move; push_text reads the notation)" if isinstance(move, str) else ""
            return IllegalMoveError(f"not a move: {shown(move)}{hint}")
        s, d, c = move.src, move.dst, move.card
        text = str(move)
        ncols = self._ncols

        def err(reason: str, why: str, target: int | None = None) -> IllegalMoveError:
            card = NAME[c] if s != STOCK else None
            return IllegalMoveError(f"illegal move {text!r}: {why}", reason, card,
                                    None if target is None else NAME[target])

        if s == STOCK:
            return err("stock-empty", "the stock is empty") if self.rules.has_stock \
                else err("no-stock", f"{self.rules.title} has no stock")
        if (s < FOUNDATION and s >= ncols) or (d < FOUNDATION and d >= ncols):
            return err("no-such-column", f"there are only {ncols} columns")
        if s == WASTE and not self.rules.has_waste:
            return err("no-waste", f"{self.rules.title} has no waste")
        if s == FOUNDATION and not self.rules.foundation_return:
            return err("no-return", "cards may not return from the foundations (foundation_return is off)")
        if s < ncols:
            col, nd = self._cols[s], self._down[s]
            if c not in col[nd:]:
                return err("not-face-up", f"{NAME[c]} is not face up in column {s + 1}")
            if col[len(col) - move.count] != c if move.count <= len(col) else True:
                depth = len(col) - max(i for i in range(nd, len(col)) if col[i] == c)
                if d == FOUNDATION:
                    return err("covered", f"only a free card goes to a foundation, and {NAME[c]} is covered")
                return err("group-size", f"{NAME[c]} moves with {depth - 1} card(s) on it (write +{depth - 1})")
        if s == WASTE and (not self._waste or self._waste[-1] != c):
            return err("not-waste-top", f"{NAME[c]} is not the waste's top card")
        if s == FOUNDATION and not any(p and p[-1] == c for p in self._found):
            return err("not-foundation-top", f"{NAME[c]} is not the top card of a foundation")
        if d == FOUNDATION:
            return err("not-next-on-foundation", f"{NAME[c]} does not fit on a foundation yet")
        if d == s:
            return err("same-pile", "source and destination are the same")
        target = self._cols[d] if 0 <= d < ncols else None
        if target:
            return err("does-not-fit", f"{NAME[c]} does not fit on {NAME[target[-1]]} ({self.rules.build} build)",
                       target[-1])
        if target is not None:
            if s < ncols and move.count == len(self._cols[s]) and self._down[s] == 0:
                if self.rules.stock == "rows" and self._stock:  # docs/rules.md, reading 6
                    return err("whole-column", "moving a whole column into an empty one only reorders the "
                               "columns, which is never a move (not even while the stock deals onto them)")
                return err("whole-column", "moving a whole column into an empty one changes nothing")
            return err("kings-only", "only a King may lead into an empty column")
        return IllegalMoveError(f"illegal move {text!r}", "illegal", NAME[c])

    def parse_move(self, text: str) -> Move:
        """Read a move in full or short notation and check it is legal here.

        Raises :class:`InvalidMoveError` for text that is not a move (or is
        ambiguous here) and :class:`IllegalMoveError` for a move that is not legal.
        """
        parts = parse_move_parts(text)
        if parts is None:
            if not self._stock:
                raise self._illegal(STOCK_MOVE)
            return STOCK_MOVE
        if parts.is_complete():
            assert parts.src is not None and parts.card is not None and parts.count is not None
            move = make_move(parts.src, parts.dst, parts.card, parts.count)
            if not self.is_legal(move):
                raise self._illegal(move)
            return move
        single: Move | None = None
        if parts.src is not None and parts.card is not None:
            # '2:7H>5' is both the full form of a single card (what str() writes) and a short
            # form whose count the position finds: the single card, when legal, comes first.
            single = make_move(parts.src, parts.dst, parts.card, 1)
            if self.is_legal(single):
                return single
        candidates = [
            m for m in self.legal_moves()
            if m.src != STOCK and m.dst == parts.dst
            and (parts.src is None or m.src == parts.src)
            and (parts.card is None or m.card == parts.card)
            and (parts.count is None or m.count == parts.count)
        ]
        if len(candidates) == 1:
            return candidates[0]
        if len(candidates) > 1:
            options = ", ".join(str(m) for m in candidates)
            raise InvalidMoveError(f"ambiguous move {shown(text)}: could be {options}")
        if single is None and parts.src is None and parts.card is not None:
            # 'QC>F' names its card but not its place: where the card lies face up in one place only (a
            # column, or the top of the waste), that move's own fault says more than "no legal move matches"
            places = [s for s in range(self._ncols) if parts.card in self._cols[s][self._down[s]:]]
            if self._waste and self._waste[-1] == parts.card:
                places.append(WASTE)
            if len(places) == 1:
                single = make_move(places[0], parts.dst, parts.card, 1)
                if parts.dst == FOUNDATION:  # (one card goes up, whatever lies on it: as '1:QC>F' says)
                    raise self._illegal(single)
        if single is not None:
            raise self._illegal(self._with_its_group(single))
        raise IllegalMoveError(f"illegal move {shown(text)}: no legal move matches it here", "no-match")

    def _with_its_group(self, move: Move) -> Move:
        """``move`` with the count its card would carry from its column (for error messages)."""
        s = move.src
        if s < self._ncols:
            col = self._cols[s]
            for i in range(len(col) - 1, self._down[s] - 1, -1):
                if col[i] == move.card:
                    return make_move(s, move.dst, move.card, len(col) - i)
        return move

    def push_text(self, text: str) -> Move:
        """Parse and play a move; returns the move played."""
        move = self.parse_move(text)
        self.push_unchecked(move)
        return move

    def replay(self, moves: Iterable[Move | str]) -> None:
        """Play several moves (objects or text) in order; stops at the first bad one."""
        if isinstance(moves, str):  # (iterated, a str is its characters: "not a move: '4'" of '4:QH+3>2')
            raise InvalidMoveError(f"not a list of moves: {shown(moves)} (a str: give a list, or use push_text)")
        try:
            moves = iter(moves)
        except TypeError:
            raise InvalidMoveError(f"not a list of moves: {shown(moves)}") from None
        for m in moves:
            if isinstance(m, str):
                self.push_text(m)
            else:
                self.push(m)

    # ----------------------------------------------------------------- helpers

    def card_at(self, column: int, index: int) -> int:
        """The card (an int) at ``index`` of column ``column``, both from 0: index 0 is the bottom card.

        Face-down cards are counted (and returned: the engine sees them). A column or index that is not
        there raises :class:`InvalidPlaceError`: -1 is not the last (Python's wrap would answer for a
        place the caller did not name).
        """
        c, i = whole(column), whole(index)
        if c is None or not 0 <= c < self._ncols:
            raise InvalidPlaceError(f"no column {shown(column)}: {self.rules.title} has columns 0 to "
                                    f"{self._ncols - 1} (card_at counts from 0)")
        cards = self._cols[c]
        if i is None or not 0 <= i < len(cards):
            n = len(cards)
            held = "it is empty" if not n else "it holds one card, index 0" if n == 1 else \
                f"it holds {n} cards, indexes 0 to {n - 1}"
            raise InvalidPlaceError(f"no card at index {shown(index)} of column {c}: {held}")
        return cards[i]

    def foundation_target(self, card: int) -> bool:
        """True if ``card`` (an int, as :func:`yukon.parse_card` gives) would fit on a foundation now."""
        return self._accept[check_card(card)] > 0  # ('AS' raised TypeError, 99 IndexError; -1 read KC)

    def foundation_pile_for(self, card: int) -> int | None:
        """The index in :attr:`foundations` of the pile ``card`` (an int) would go on if played up now (the
        first that takes it, as :meth:`push` chooses), or None when no pile takes it. A table lights up and
        animates to that pile without knowing the rule.

        >>> from yukon import Game, parse_card
        >>> g = Game.from_text("yukon,kings,noreturn KS/-/-/-/-/-/- KH/QS/KD/KC")
        >>> g.foundation_pile_for(parse_card("KS")), g.foundation_pile_for(parse_card("QS"))
        (1, None)
        """
        i = self._pile_taking(check_card(card))
        return None if i < 0 else i


__all__ = ["Game"]
