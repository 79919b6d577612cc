"""Depth-first search over the position graph, with a transposition table.

The search is complete: every position reachable from the start is either
visited or cut by a pruning rule proven safe in docs/solver-design.md, so when the
search runs out of positions without reaching a win, the deal is lost. The
table of visited positions doubles as the cycle check (a position is entered
once); when it would outgrow its memory budget the search stops with
``unknown`` (reason "memory limit").
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType

from ..autoplay import twin_has_a_slot, waits_for_the_stock
from ..cards import NAME, RANK, SUIT
from ..game import Game
from ..notation import FOUNDATION, WASTE, Move, make_move, move_of_key
from ..rules import BuildRule, build_rule, safe_table
from .key import column_key, extra_key, position_key
from .relaxation import never_up


def _compiled_core() -> ModuleType | None:
    """The compiled search (setup.py builds it when a C compiler is there), or None: the pure Python one."""
    try:
        from . import _core
    except ImportError:  # pragma: no cover - pure Python fallback
        return None
    return _core


_core = _compiled_core()


#: limits beyond what the compiled search's 64-bit integers hold are as good as none
_C_LONG_MAX = (1 << 63) - 1


def compiled_supports(game: Game) -> bool:
    """Can the compiled search take this position? One deck, no stock or one dealt to a waste, at most
    16 columns; or two decks (:func:`compiled_two_deck`)."""
    rules = game.rules
    if rules.decks == 2:
        return compiled_two_deck(game)
    return rules.decks == 1 and rules.stock in ("none", "waste") and len(game.column_cards) <= 16


#: the compiled two-deck search (``solver/core/two_deck.c``) takes Milligan Yukon; off (tests, comparisons),
#: two-deck positions go to the Python searches
COMPILED_TWO_DECK = True


def compiled_two_deck(game: Game) -> bool:
    """Does the compiled two-deck search take this position? Two decks with a stock dealt in rows (Milligan
    Yukon), at most 16 columns and 62 face-down cards, and :data:`COMPILED_TWO_DECK` on."""
    rules = game.rules
    return (
        COMPILED_TWO_DECK and _core is not None and hasattr(_core, "search_two_deck") and rules.decks == 2
        and rules.stock == "rows" and len(game.column_cards) <= 16 and sum(game.down_counts) <= 62
    )


def compiled_outcome(
    game: Game, status: str, line: list[tuple[int, int, int, int]], stats: SearchStats, nodes: int, peak: int,
    seconds: float, reason: str, search: str,
) -> SearchOutcome:
    """A compiled search's answer as a :class:`SearchOutcome`, its figures in ``stats``; a winning line is
    replayed through the engine first (an illegal or not winning line raises: it is never reported)."""
    stats.nodes = nodes
    stats.peak_table = peak
    stats.seconds = seconds
    moves = [make_move(*t) for t in line]
    if status == "won":
        replay = game.copy()
        for m in moves:
            replay.push(m)  # raises IllegalMoveError on a faulty line
        if not replay.is_won():
            raise AssertionError(f"the {search} returned a line that does not win")
    return SearchOutcome(status, moves, stats, reason)


def run_two_deck(game: Game, limits: Limits, best_first_positions: int = 0, shorten: bool = True) -> SearchOutcome:
    """The compiled two-deck search: the depth-first search of ``Searcher.run_python`` (or, with
    ``best_first_positions``, :func:`best_first` storing at most that many), move for move; its winning
    line is replayed through the engine before it is returned. ``shorten``: a depth-first line (hundreds
    of thousands of moves on a deal: the whole search path) takes the shortcuts along it, each position
    one of the path's (docs/solver-design.md, "Two decks"); off, it is ``run_python``'s line."""
    if _core is None:
        raise RuntimeError("the compiled search is not built (python setup.py build_ext --inplace)")
    stats = SearchStats()
    why = limits.expired()
    if why:
        return SearchOutcome("unknown", [], stats, why)
    time_left = 0.0  # (0: no time limit)
    if limits.deadline is not None:
        time_left = max(limits.deadline - time.perf_counter(), 1e-6)
    rules = game.rules
    status, line, nodes, peak, seconds, reason = _core.search_two_deck(
        [list(c) for c in game.column_cards], list(game.down_counts), [list(p) for p in game.foundation_piles],
        list(game.stock_cards), rules.build_rule.table, rules.build_rule.safe_table, int(rules.kings_only),
        int(rules.foundation_return), rules.card_count, min(limits.node_limit or 0, _C_LONG_MAX), time_left,
        min(limits.table_limit * 200, _C_LONG_MAX) if limits.table_limit else 0,
        limits.stop.is_set if limits.stop is not None else None,
        best_first_positions,
        shorten,
    )
    return compiled_outcome(game, status, line, stats, nodes, peak, seconds, reason, "compiled two-deck search")


@dataclass
class SearchStats:
    nodes: int = 0
    seconds: float = 0.0
    peak_table: int = 0


@dataclass
class SearchOutcome:
    status: str  # "won" | "lost" | "unknown"
    moves: list[Move] = field(default_factory=list)
    stats: SearchStats = field(default_factory=SearchStats)
    reason: str = ""


class Limits:
    """When to give up: wall-clock deadline, node budget, table size, or a stop event."""

    __slots__ = ("deadline", "node_limit", "stop", "table_limit")

    def __init__(
        self,
        time_limit: float | None = None,
        node_limit: int | None = None,
        memory_limit: int | None = None,
        stop: threading.Event | None = None,
    ) -> None:
        if time_limit is not None and time_limit > 1e300:  # (an int too large for a float: no limit)
            time_limit = math.inf
        self.deadline = time.perf_counter() + time_limit if time_limit is not None else None
        self.node_limit = node_limit
        # about 200 bytes per table entry (key bytes + set slot + object header)
        self.table_limit = memory_limit // 200 if memory_limit else None
        self.stop = stop

    def narrowed(self, seconds: float) -> Limits:
        """The same limits with the deadline brought forward to ``seconds`` from now, if that is sooner."""
        narrow = Limits(None, self.node_limit, None, self.stop)
        narrow.table_limit = self.table_limit
        soon = time.perf_counter() + seconds
        narrow.deadline = soon if self.deadline is None else min(self.deadline, soon)
        return narrow

    def expired(self) -> str:
        """Why to stop now: ``"stopped"`` or ``"time limit"``; ``""`` while neither. Costs well under a
        microsecond, so that every loop of the solver can ask it after each step of a few milliseconds."""
        stop = self.stop
        if stop is not None and stop.is_set():
            return "stopped"
        deadline = self.deadline
        if deadline is not None and time.perf_counter() > deadline:
            return "time limit"
        return ""


#: nodes between two looks at the clock and the stop event in the Python searches
CLOCK_EVERY = 16


def min_heights(game: Game) -> list[int]:
    """Per suit, how many ranks of that suit have all their copies on the foundations."""
    decks = game.rules.decks
    per_suit: list[list[int]] = [[], [], [], []]
    for pile in game.foundation_piles:
        if pile:
            per_suit[SUIT[pile[0]]].append(len(pile))
    return [min(h) if len(h) == decks else 0 for h in per_suit]


def is_safe_foundation_card(build: str | BuildRule, card: int, heights: list[int]) -> bool:
    """No card that could ever be placed on ``card`` remains off the foundations (:meth:`BuildRule.is_safe`).

    Then playing ``card`` up cannot lose a win (docs/solver-design.md, rule 1), provided
    cards may not return from the foundations.
    """
    return build_rule(build).is_safe(card, heights)


#: the cards of each suit, one bit per card (card numbers are rank * 4 + suit)
_SUIT_CARDS = 0x1111111111111


def block_pending(game: Game, m: Move, pending: int) -> int:
    """After the return ``m`` (just played in ``game``), the cards of its return block not used yet: a
    return uses the card it lands on and the card it uncovers on its foundation, and is not used yet
    itself (docs/solver-design.md, "Return blocks"; ``block_pending`` in ``core/children.c``)."""
    col = game.column_cards[m.dst]
    if len(col) >= 2:
        pending &= ~(1 << col[-2])
    pending &= ~(_SUIT_CARDS << SUIT[m.card])
    return pending | 1 << m.card


def block_closable(build: str, heights: list[int], pending: int) -> bool:
    """Can a return block with the cards ``pending`` not used yet still end, the foundations at ``heights``?
    Where cards build down by one rank, a return of rank q uses only cards of rank q + 1, at most two, and
    the move ending the block one: the unused cards and returns to come of rank q + 1 need at least half as
    many returns of rank q, each of a suit still up that high; nothing uses an Ace (docs/solver-design.md,
    "Return blocks"; ``block_closable`` in ``core/children.c``)."""
    if build == "suit-updown" or not pending:
        return True
    count = [0] * 14
    low = 14
    for c in range(52):
        if pending >> c & 1:
            count[RANK[c]] += 1
            low = min(low, RANK[c])
    if count[1]:
        return False
    strands = count[13]
    for q in range(13, 1, -1):
        if not strands:
            strands = count[q - 1]
            continue
        if strands == 1 and q <= low:
            return True
        if q == 2:
            return False
        need = (strands + 1) // 2
        if need > sum(h >= q - 1 for h in heights):
            return False
        strands = need + count[q - 1]
    return True


def block_moves(game: Game, pending: int, last: Move | None, moves: list[Move]) -> list[Move]:
    """The moves of a position with foundation returns that may follow (docs/solver-design.md, "Return
    blocks"), in their order. Outside a block (``pending`` 0): every move, but a return only if a block
    could end after it. Inside one (``last`` the return just played): a return that uses ``last``'s card,
    or another return of a higher-numbered card (two returns in a row that do not use each other's cards
    are tried in one order only), again only if the block could still end; and a move from the tableau or
    the waste onto the one card still pending (``block_moves`` in the C core)."""
    cols = game.column_cards
    build = game.rules.build
    heights = [0, 0, 0, 0]
    for pile in game.foundation_piles:
        if pile:
            heights[SUIT[pile[0]]] = len(pile)
    kept = []
    for m in moves:
        onto = cols[m.dst][-1] if m.dst < FOUNDATION and cols[m.dst] else -1
        if m.src == FOUNDATION:
            if pending and last is not None and not (
                m.card > last.card or SUIT[m.card] == SUIT[last.card] or onto == last.card
            ):
                continue
            after = pending & ~(1 << onto) if onto >= 0 else pending
            after = (after & ~(_SUIT_CARDS << SUIT[m.card])) | 1 << m.card
            lowered = heights.copy()
            lowered[SUIT[m.card]] -= 1
            if block_closable(build, lowered, after):
                kept.append(m)
        elif not pending or (onto >= 0 and not pending & ~(1 << onto)):
            kept.append(m)
    return kept


def _first(pair: tuple[int, Move]) -> int:
    return pair[0]


def _carries_king(col: Sequence[int], start: int) -> bool:
    """Is there a King among ``col[start:]`` (cards carried on top of a group's lead)?"""
    return any(col[i] >= 48 for i in range(start, len(col)))


class Searcher:
    """One search from one position. ``run()`` returns a :class:`SearchOutcome`."""

    #: The compiled search starts a second thread (a second depth-first search from the root, sharing
    #: the table) after this many nodes, when there is no node limit (node-limited runs must give the
    #: same answer every time) and the machine has two cores or more.
    compiled_threads = 2 if (os.cpu_count() or 1) >= 2 else 1
    compiled_switch_at = 2_000_000
    #: On one thread (one core, a node limit, or ``compiled_threads = 1`` as in the studies' workers), the
    #: second search still joins after ``compiled_switch_at`` nodes, on the same core: the two take turns
    #: (docs/solver-design.md, "Two searches on one core"). Turns are counted in nodes, so a node-limited
    #: run gives the same answer every time. Off, one thread runs the first search alone.
    compiled_interleave = True
    #: Rule 4 (docs/solver-design.md) in the compiled search: before it, and at every swap class entered (a
    #: class whose position the relaxation proves lost is finished at once; with swap classes only, so that
    #: without them the compiled search stays the Python one's, position for position). ``solve`` asks it
    #: before any search all the same.
    compiled_relax = True
    #: The compiled search keeps one table entry per swap class (docs/solver-design.md); off, it visits exactly
    #: the positions of ``run_python`` (the tests compare the two).
    compiled_merge = True
    #: Sleep sets (docs/solver-design.md, "Sleep sets"): with swap classes, where the graph between classes has
    #: no cycle, a position does not try the moves that lead where an earlier sibling's finished class led.
    compiled_sleep = True
    #: Link keys (docs/solver-design.md, "Link keys"): each position's key is a 16-byte number kept up to date
    #: move by move and stored in the table's slots; off, the table stores the sorted columns. The same
    #: positions are equal under both, so the search is the same, node for node.
    compiled_links = True
    #: (tests) recompute the link key from scratch at every position searched and fail on a difference.
    compiled_verify_links = False
    #: Return blocks (docs/solver-design.md, "Return blocks"): with foundation returns in one deck, a return
    #: is searched only inside a block of returns that ends with a move onto the last card returned, each
    #: return used by a later move of its block; the positions inside a block get no table entry. Both
    #: searches (Python and compiled); off, every return is a move like any other.
    return_blocks = True

    def __init__(self, game: Game, limits: Limits) -> None:
        self.game = game.copy()
        self.limits = limits
        self.rules = game.rules
        self.total = game.rules.card_count
        self.forced_ok = not game.rules.foundation_return
        # A deal of Milligan Yukon puts a card on every column, on a "safe" card too, which may then
        # lead a group away: rule 1 waits for the stock to be empty there (docs/solver-design.md, rule 1).
        self.stats = SearchStats()

    # ------------------------------------------------------------------ move ordering

    def children(self) -> list[Move]:
        """The moves to try here, best first, after safe pruning."""
        g = self.game
        moves = g.legal_moves()
        if not moves:
            return moves
        cols = g.column_cards
        down = g.down_counts
        if self.forced_ok and not waits_for_the_stock(g):
            heights = None
            build = self.rules.build_rule
            for m in moves:
                if m.dst == FOUNDATION and m.src != FOUNDATION:
                    if heights is None:
                        heights = min_heights(g)
                    if is_safe_foundation_card(build, m.card, heights) and twin_has_a_slot(g, m.card):
                        return [m]
        first_empty = -1
        if not waits_for_the_stock(g):  # while a Milligan stock lasts, column order matters
            for i, c in enumerate(cols):
                if not c:
                    first_empty = i
                    break
        else:
            first_empty = -2
        # Buckets instead of a sort: moves that turn a card (from the deepest column first); then moves
        # that empty a column, free a card that can go up, or play from the waste; then cards up; then
        # other rearrangements; then those that carry a King onto another card (burying what lies
        # under it); then the stock and returns from the foundations.
        turning: list[tuple[int, Move]] = []
        good: list[Move] = []
        up: list[Move] = []
        rest_moves: list[Move] = []
        burying: list[Move] = []
        last: list[Move] = []
        accept = g.foundation_accepts
        for m in moves:
            s = m.src
            d = m.dst
            if s < FOUNDATION:
                if d == FOUNDATION:
                    up.append(m)
                    continue
                target = cols[d]
                if not target and d != first_empty and first_empty != -2:
                    continue  # another empty column gives the same position up to column order
                col = cols[s]
                rest = len(col) - m.count
                nd = down[s]
                if rest == nd and nd:
                    turning.append((-nd, m))
                elif target and m.count > 1 and _carries_king(col, rest + 1):
                    burying.append(m)
                elif rest == nd or accept[col[rest - 1]]:
                    good.append(m)
                else:
                    rest_moves.append(m)
            elif s == WASTE:
                if d < FOUNDATION and not cols[d] and d != first_empty and first_empty != -2:
                    continue
                (up if d == FOUNDATION else good).append(m)
            elif s == FOUNDATION:
                if not cols[d] and d != first_empty and first_empty != -2:
                    continue
                last.append(m)
            else:
                last.insert(0, m)
        if turning:
            turning.sort(key=_first)
            return [m for _, m in turning] + good + up + rest_moves + burying + last
        return good + up + rest_moves + burying + last

    def child_key(self, m: Move, colkeys: list[bytes], extra: bytes) -> bytes | None:
        """The key of the position after ``m``, without playing it (tableau and foundation moves);
        None where the move must be played to know."""
        s = m.src
        if s >= FOUNDATION:
            return None
        d = m.dst
        g = self.game
        cols = g.column_cards
        down = g.down_counts
        col = cols[s]
        rest = len(col) - m.count
        nd = down[s]
        if rest == nd and nd:
            nd -= 1
        keys = colkeys.copy()
        keys[s] = bytes((nd, rest)) + bytes(col[:rest])
        if d < FOUNDATION:
            target = cols[d]
            keys[d] = bytes((down[d], len(target) + m.count)) + bytes(target) + bytes(col[rest:])
        if not waits_for_the_stock(g):
            keys.sort()
        return b"".join(keys) + extra

    def run(self) -> SearchOutcome:
        if _core is not None and compiled_supports(self.game):
            return self.run_compiled()
        return self.run_python()

    def run_compiled(self) -> SearchOutcome:
        """The same search in C (``solver/core/``); its winning line is replayed through the engine."""
        if _core is None:
            raise RuntimeError("the compiled search is not built (python setup.py build_ext --inplace)")
        g = self.game
        limits = self.limits
        stats = self.stats
        if g.rules.decks == 2:
            outcome = run_two_deck(g, limits)
            self.stats = outcome.stats
            return outcome
        stuck = stuck_cards(g)
        if stuck:
            return SearchOutcome("lost", [], stats, "stuck: " + " ".join(NAME[c] for c in stuck))
        never = never_up(g) if self.compiled_relax else []  # (rule 4)
        if never:
            return SearchOutcome("lost", [], stats, "never up: " + " ".join(NAME[c] for c in never))
        heights = [0, 0, 0, 0]
        for pile in g.foundation_piles:
            if pile:
                heights[SUIT[pile[0]]] = len(pile)
        why = limits.expired()
        if why:
            return SearchOutcome("unknown", [], stats, why)
        time_left = 0.0  # (0: no time limit)
        if limits.deadline is not None:
            time_left = max(limits.deadline - time.perf_counter(), 1e-6)
        status, line, nodes, peak, seconds, reason = _core.search(
            [list(c) for c in g.column_cards], list(g.down_counts), heights, self.rules.build_rule.table,
            self.rules.build_rule.code, int(self.rules.kings_only), int(self.rules.foundation_return),
            min(limits.node_limit or 0, _C_LONG_MAX), time_left,
            min(limits.table_limit * 200, _C_LONG_MAX) if limits.table_limit else 0,
            limits.stop.is_set if limits.stop is not None else None,
            list(g.stock_cards) if self.rules.has_waste else None,
            list(g.waste_cards) if self.rules.has_waste else None,
            self.compiled_threads if limits.node_limit is None else 1,
            self.compiled_switch_at,
            self.compiled_merge,
            self.compiled_sleep,
            self.compiled_links,
            self.compiled_verify_links,
            safe=safe_table(self.rules.build_rule),
            interleave=self.compiled_interleave,
            blocks=self.return_blocks,
            relax=self.compiled_relax,
        )
        return compiled_outcome(g, status, line, stats, nodes, peak, seconds, reason, "compiled search")

    def run_python(self) -> SearchOutcome:
        start = time.perf_counter()
        g = self.game
        stats = self.stats
        limits = self.limits
        try:
            if g.cards_on_foundations == self.total:
                return SearchOutcome("won", [], stats)
            stuck = stuck_cards(g)
            if stuck:
                return SearchOutcome("lost", [], stats, "stuck: " + " ".join(NAME[c] for c in stuck))
            never = never_up(g)  # (rule 4)
            if never:
                return SearchOutcome("lost", [], stats, "never up: " + " ".join(NAME[c] for c in never))
            cols = g.column_cards
            down = g.down_counts
            colkeys = [column_key(down[i], c) for i, c in enumerate(cols)]
            extra = extra_key(g)
            root = position_key(g)
            table: set[bytes] = {root}
            path_keys: list[bytes] = [root]
            on_path: set[bytes] = {root}
            line: list[Move] = []
            blocks = self.return_blocks and self.rules.foundation_return and self.rules.decks == 1
            first = self.children()
            stack: list[tuple[list[Move], int]] = [(block_moves(g, 0, None, first) if blocks else first, 0)]
            pendings: list[int] = [0]  # per level: the return block's cards not used yet (0: no block)
            nodes = 0
            check_every = 512
            check_clock = 0
            expired = limits.expired
            node_limit = limits.node_limit
            table_limit = limits.table_limit
            total = self.total
            push = g.push_unchecked
            pop = g.pop
            children = self.children
            child_key = self.child_key
            while stack:
                moves, i = stack[-1]
                if i >= len(moves):
                    stack.pop()
                    pendings.pop()
                    if line:
                        m = line.pop()
                        pop()
                        on_path.discard(path_keys.pop())
                        if m.src < FOUNDATION:
                            colkeys[m.src] = column_key(down[m.src], cols[m.src])
                            if m.dst < FOUNDATION:
                                colkeys[m.dst] = column_key(down[m.dst], cols[m.dst])
                        else:
                            colkeys = [column_key(down[j], c) for j, c in enumerate(cols)]
                            extra = extra_key(g)
                    continue
                stack[-1] = (moves, i + 1)
                m = moves[i]
                nodes += 1
                if nodes >= check_clock:  # a few dozen microseconds of work per node at most
                    check_clock = nodes + CLOCK_EVERY
                    why = expired()
                    if why:
                        stats.nodes = nodes
                        stats.peak_table = max(stats.peak_table, len(table))
                        return SearchOutcome("unknown", [], stats, why)
                if blocks and m.src == FOUNDATION:
                    # inside a return block: no table entry (the block's moves depend on the path)
                    push(m)
                    colkeys = [column_key(down[j], c) for j, c in enumerate(cols)]
                    extra = extra_key(g)
                    pending = block_pending(g, m, pendings[-1])
                    path_keys.append(b"")
                    line.append(m)
                    stack.append((block_moves(g, pending, m, children()), 0))
                    pendings.append(pending)
                    continue
                k = child_key(m, colkeys, extra)
                if k is not None:
                    if k in table or k in on_path:
                        continue
                    push(m)
                    if g.cards_on_foundations == total:
                        line.append(m)
                        stats.nodes = nodes
                        return SearchOutcome("won", line, stats)
                    colkeys[m.src] = column_key(down[m.src], cols[m.src])
                    if m.dst < FOUNDATION:
                        colkeys[m.dst] = column_key(down[m.dst], cols[m.dst])
                else:
                    push(m)
                    if g.cards_on_foundations == total:
                        line.append(m)
                        stats.nodes = nodes
                        return SearchOutcome("won", line, stats)
                    new_keys = [column_key(down[j], c) for j, c in enumerate(cols)]
                    new_extra = extra_key(g)
                    k = position_key(g)
                    if k in table or k in on_path:
                        pop()
                        continue
                    colkeys, extra = new_keys, new_extra
                table.add(k)
                on_path.add(k)
                path_keys.append(k)
                line.append(m)
                stack.append((block_moves(g, 0, None, children()) if blocks else children(), 0))
                pendings.append(0)
                if nodes >= check_every:
                    check_every = nodes + 512
                    if len(table) > stats.peak_table:
                        stats.peak_table = len(table)
                    if node_limit is not None and nodes >= node_limit:
                        stats.nodes = nodes
                        return SearchOutcome("unknown", [], stats, "node limit")
                    if table_limit is not None and len(table) > table_limit:
                        stats.nodes = nodes
                        stats.peak_table = len(table)
                        return SearchOutcome("unknown", [], stats, "memory limit")
            stats.nodes = nodes
            stats.peak_table = max(stats.peak_table, len(table))
            return SearchOutcome("lost", [], stats)
        finally:
            stats.seconds = time.perf_counter() - start


def stuck_cards(game: Game) -> list[int]:
    """Cards that can provably never leave their place (then the game is lost).

    One-deck variants with the kings-only empty-column rule. A card Y with no
    face-up card beneath it in its column (a face-down card, or the lowest
    face-up one) can leave only as the lead of a move or to its foundation.
    The stuck set S is the largest set of such cards, none a King (only Kings
    lead into empty columns), where for each Y in S every card Y could be
    placed on lies beneath Y, beneath another card of S, or (without
    foundation returns) on a foundation, and a lower card of Y's suit, not
    up, lies beneath Y, beneath a card of S or is in S. No card of S ever
    leaves (the first to leave would need one of those cards), so S not empty
    means lost. Returns S and the cards beneath it. See docs/solver-design.md, rule 3.
    """
    rules = game.rules
    if not rules.kings_only or rules.decks != 1:
        return []
    targets_of = rules.build_rule.placeable_on
    cols = game.column_cards
    place: dict[int, tuple[int, int]] = {}
    for ci, col in enumerate(cols):
        for i, c in enumerate(col):
            place[c] = (ci, i)
    heights = [0, 0, 0, 0]
    for pile in game.foundation_piles:
        if pile:
            heights[SUIT[pile[0]]] = len(pile)
    keep_up = not rules.foundation_return
    stuck = {col[i] for col, nd in zip(cols, game.down_counts, strict=False)
             for i in range(min(nd + 1, len(col))) if RANK[col[i]] != 13}

    def covered(c: int) -> bool:
        """Is ``c`` in a column, beneath a card of the current S?"""
        if c not in place:
            return False
        ci, i = place[c]
        return any(x in stuck for x in cols[ci][i + 1:])

    changed = True
    while changed and stuck:
        changed = False
        for y in sorted(stuck):
            blocked = all((keep_up and RANK[t] <= heights[SUIT[t]]) or covered(t) for t in targets_of[y])
            if blocked:
                lower = (r * 4 + SUIT[y] for r in range(heights[SUIT[y]], RANK[y] - 1))
                blocked = any(c in place and (c in stuck or covered(c)) for c in lower)
            if not blocked:
                stuck.discard(y)
                changed = True
    beneath = {c for y in stuck for c in cols[place[y][0]][:place[y][1]]}
    return sorted(stuck | beneath)


def disorder_estimate(game: Game) -> int:
    """A cost-to-win estimate for best-first search: face-down cards weigh most, then
    face-up cards lying on a card they do not fit on, then cards not yet up."""
    rules = game.rules
    fits = rules.build_rule.table
    down = game.down_counts
    bad = 0
    for col, d in zip(game.column_cards, down, strict=False):
        prev = -1
        for i in range(d, len(col)):
            c = col[i]
            if prev >= 0 and not fits[prev * 52 + c]:
                bad += 1
            prev = c
    hidden = sum(down) * 4
    stock = game.stock_cards
    if stock:
        hidden += len(stock) * (1 if rules.has_waste else 4)
    hidden += len(game.waste_cards) * 3
    return hidden + bad * 2 + (rules.card_count - game.cards_on_foundations)


def _moves_of(path: bytes) -> list[Move]:
    """The moves whose keys ``path`` holds, 4 bytes each (every move is made through ``make_move``)."""
    return [move_of_key(int.from_bytes(path[i:i + 4])) for i in range(0, len(path), 4)]


def best_first(game: Game, limits: Limits, max_positions: int) -> SearchOutcome:
    """Greedy best-first search by :func:`disorder_estimate`; finds most wins in few positions.

    Returns ``unknown`` when its budget runs out; ``lost`` when it exhausts the
    (pruned) position graph, which is as complete a proof as the depth-first search's.
    """
    import heapq

    from .key import position_key

    if compiled_two_deck(game):
        return run_two_deck(game, limits, max(1, max_positions))
    start = time.perf_counter()
    stats = SearchStats()
    searcher = Searcher(game, limits)
    root = searcher.game
    total = root.rules.card_count
    if root.cards_on_foundations == total:
        return SearchOutcome("won", [], stats)
    seen = {position_key(root)}
    # positions wait as bytes, and their lines as the moves' keys (4 bytes each): thousands of Game
    # copies and tuples would make the garbage collector's full passes take up to 100 ms
    heap: list[tuple[int, int, bytes, bytes]] = [(disorder_estimate(root), 0, root.to_image(), b"")]
    counter = 0
    expired = limits.expired
    try:
        while heap:
            why = expired()
            if why:
                return SearchOutcome("unknown", [], stats, why)
            _, _, image, path = heapq.heappop(heap)
            g = Game.from_image(root.rules, image, seed=root.seed)
            searcher.game = g
            for m in searcher.children():
                if stats.nodes % CLOCK_EVERY == 0:
                    why = expired()
                    if why:
                        return SearchOutcome("unknown", [], stats, why)
                g.push_unchecked(m)
                stats.nodes += 1
                if g.cards_on_foundations == total:
                    return SearchOutcome("won", [*_moves_of(path), m], stats)
                k = position_key(g)
                if k not in seen:
                    seen.add(k)
                    counter += 1
                    heapq.heappush(heap, (disorder_estimate(g), counter, g.to_image(), path + m.key.to_bytes(4)))
                g.pop()
            if counter >= max_positions:
                return SearchOutcome("unknown", [], stats, "best-first budget")
            if limits.node_limit is not None and stats.nodes >= limits.node_limit:
                return SearchOutcome("unknown", [], stats, "node limit")
        return SearchOutcome("lost", [], stats)
    finally:
        stats.peak_table = len(seen)
        stats.seconds = time.perf_counter() - start
