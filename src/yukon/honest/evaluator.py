"""Valuing the candidate moves of a visible position by determinized sampling (docs/honest.md).

For each sampled deal of the unseen cards, the compiled search (under a node
limit, so the answer is the same on every machine) decides whether the
position after each candidate can still be won. A candidate's value is its
share of samples won (an undecided search counts half). Every candidate is
searched on the same samples, so two candidates are compared sample by sample.
One search from the sample's current position comes first: a loss there is a
loss after every candidate, and the sample needs no more work.

No candidate gets a result it did not search for (the first move of the
current position's winning line, or a reversible move inheriting the current
position's result): those favour what the perfect-information search likes to
try first (docs/honest.md, "What was tried and dropped").

Only whole samples count, so a deadline that ends the work mid-sample does not
favour the candidates searched first.

:func:`decide` makes the first player's whole decision (the samples veto, the advice
chooses: docs/honest.md) with the same answer as :func:`evaluate` over every
candidate and sample followed by that rule, but searches only what can still
change it: the advice's favourite first, and no more once the choice is certain
whatever the searches left would say (docs/honest.md, "Budgets and speed").
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from ..game import Game
from ..notation import Move
from ..solver.search import Limits, Searcher, _core, compiled_supports, compiled_two_deck
from ..visible import VisiblePosition
from .sampler import iter_games

WON, LOST, UNKNOWN = "won", "lost", "unknown"


@dataclass(frozen=True)
class Budget:
    """How much thinking one honest decision may do: counted in samples and search nodes (not seconds),
    so that a seed fixes the answer.

    ``python_samples`` and ``python_nodes`` apply where the compiled search cannot take the position
    (the extension not built, or switched off for two decks), whose pure-Python search is about fifty
    times slower.
    """

    samples: int = 24
    nodes: int = 20_000
    python_samples: int = 6
    python_nodes: int = 400

    def __post_init__(self) -> None:
        for name in ("samples", "nodes", "python_samples", "python_nodes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"budget {name} must be a positive int, not {value!r}")

    def for_rules(self, view: VisiblePosition) -> tuple[int, int]:
        """``(samples, nodes)`` for this view's variant."""
        if compiled_supports(view.canonical):
            return self.samples, self.nodes
        return self.python_samples, self.python_nodes

    def describe(self) -> str:
        """``'12x10000'``: samples x nodes per search, as the study's player names write it."""
        return f"{self.samples}x{self.nodes}"


#: the web's default (an honest hint mid-game within about 2 s at the 90th percentile; bench/honest.py)
WEB_BUDGET = Budget(samples=24, nodes=20_000, python_samples=4, python_nodes=300)
#: the study's default (a whole game of Yukon in about 20 s median; bench/honest.py)
STUDY_BUDGET = Budget(samples=12, nodes=10_000)


@dataclass
class MoveValue:
    """How a candidate fared over the samples."""

    move: Move
    won: int = 0
    lost: int = 0
    unknown: int = 0
    #: per sample, in order, the search's verdict and the nodes it spent (:func:`evaluate` only; a sample whose
    #: current position was lost: ``(LOST, 0)``): what the ease rules of :class:`~.player.Method` read
    searches: list[tuple[str, int]] = field(default_factory=list, compare=False, repr=False)

    @property
    def samples(self) -> int:
        """Samples counted so far: won, lost and undecided."""
        return self.won + self.lost + self.unknown

    @property
    def share(self) -> float:
        """Share of samples won, undecided ones counted half (0.0 before any sample)."""
        n = self.samples
        return (self.won + 0.5 * self.unknown) / n if n else 0.0

    def merged(self, other: MoveValue) -> MoveValue:
        """The counts of both (of the same move, over other samples)."""
        return MoveValue(self.move, self.won + other.won, self.lost + other.lost, self.unknown + other.unknown,
                         self.searches + other.searches)

    def ease_nodes(self, limit: int) -> float:
        """The mean nodes the searches spent to find their wins, a sample not won counting as ``limit`` (the
        node limit): fewer is easier (``Method(ease="nodes")``)."""
        n = len(self.searches)
        return sum(spent if status == WON else limit for status, spent in self.searches) / n if n else float(limit)

    def shallow_share(self, nodes: int) -> float:
        """The share of samples won (undecided counted half) by a search limited to ``nodes`` nodes, read off the
        searches made: a search decided within ``nodes`` keeps its verdict, any other is undecided
        (``Method(ease="shallow")``). The search at a lower node limit is the same search cut short, node for
        node (only the limit's check differs: the compiled search checks it every 4,096 nodes, so a search
        given 500 would go on to 4,096)."""
        n = len(self.searches)
        if not n:
            return 0.0
        won = sum(1 for status, spent in self.searches if status == WON and spent <= nodes)
        lost = sum(1 for status, spent in self.searches if status == LOST and spent <= nodes)
        return (won + 0.5 * (n - won - lost)) / n

    def add(self, status: str, spent: int | None = None) -> None:
        """Count one sample's search: ``status`` won, lost or anything else (undecided), ``spent`` its nodes."""
        if spent is not None:
            self.searches.append((status, spent))
        if status == WON:
            self.won += 1
        elif status == LOST:
            self.lost += 1
        else:
            self.unknown += 1


@dataclass
class Evaluation:
    values: list[MoveValue]
    samples: int  # whole samples evaluated
    nodes: int


class _Clock:
    """Node-limited searches that also keep to an optional deadline and stop event."""

    def __init__(self, time_limit: float | None, stop: threading.Event | None) -> None:
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.stop = stop
        self.nodes = 0

    def expired(self) -> bool:
        if self.stop is not None and self.stop.is_set():
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def search(self, game: Game, nodes: int) -> str:
        remaining = None if self.deadline is None else max(self.deadline - time.perf_counter(), 1e-4)
        status, spent, reason = search_status(game, Limits(remaining, nodes, None, self.stop))
        self.nodes += spent
        if status == UNKNOWN and reason in ("time limit", "stopped"):
            raise _OutOfTime
        return status


#: two-deck verdicts straight from the compiled search (:func:`search_status`); off, through ``Searcher.run``
#: (the same verdicts, slower: bench/honest.py's reference player)
DIRECT_TWO_DECK = True


#: The search the samples are judged by: solver 14's, without the cuts solver 15 added (rule 4 and return
#: blocks). Those cuts change which searches end undecided within a budget's nodes, and so the player's
#: moves; the player (``honest-1``) is fixed by its name, so it keeps the search it was measured with (the
#: studies of docs/honest.md) however the solver improves. A new search is a new player version.
PLAYER_SEARCH: dict[str, bool] = {"compiled_relax": False, "return_blocks": False}


def search_status(game: Game, limits: Limits) -> tuple[str, int, str]:
    """``(status, nodes, reason)`` of ``Searcher(game, limits).run()`` with :data:`PLAYER_SEARCH`: the same
    search, node for node.

    Two decks (Milligan Yukon) go straight to the compiled two-deck search, without its winning line:
    the solver replays that line through the engine to check it and first shortens it, which cost about
    a sixth of the time of an honest game of Milligan Yukon, and a share of samples needs the verdict only.
    """
    if not (DIRECT_TWO_DECK and compiled_two_deck(game)):
        searcher = Searcher(game, limits)
        for setting, value in PLAYER_SEARCH.items():
            setattr(searcher, setting, value)
        outcome = searcher.run()
        return outcome.status, outcome.stats.nodes, outcome.reason
    why = limits.expired()
    if why:
        return UNKNOWN, 0, why
    time_left = 0.0 if limits.deadline is None else max(limits.deadline - time.perf_counter(), 1e-6)
    rules = game.rules
    assert _core is not None  # (compiled_two_deck said it is there)
    status, _, spent, _, _, reason = _core.search_two_deck(
        [list(c) for c in game.column_cards], list(game.down_counts), [list(p) for p in game.foundation_piles],
        list(game.stock_cards), rules.build_rule.table, rules.build_rule.safe_table, int(rules.kings_only),
        int(rules.foundation_return), rules.card_count, min(limits.node_limit or 0, (1 << 63) - 1), time_left, 0,
        limits.stop.is_set if limits.stop is not None else None, 0, False,
    )
    if status not in (WON, LOST, UNKNOWN):
        raise RuntimeError(f"the compiled two-deck search failed ({status})")
    return status, spent, reason


class _OutOfTime(Exception):
    pass


def evaluate(
    view: VisiblePosition,
    candidates: list[Move],
    budget: Budget,
    seed: int,
    time_limit: float | None = None,
    stop: threading.Event | None = None,
    *,
    first: int = 0,
    count: int | None = None,
) -> Evaluation:
    """Value each of ``candidates`` (legal moves of ``view``) over sampled deals of its unseen cards:
    the budget's samples, or ``count`` samples from the ``first`` (0-based) of the seed's sequence."""
    samples, nodes = budget.for_rules(view)
    if count is None:
        count = samples
    values = [MoveValue(m) for m in candidates]
    clock = _Clock(time_limit, stop)
    done = 0
    for game in iter_games(view, count, seed, first):
        if done and clock.expired():
            break
        try:
            statuses = _one_sample(game, candidates, nodes, clock)
        except _OutOfTime:
            break
        for value, (status, spent) in zip(values, statuses, strict=True):
            value.add(status, spent)
        done += 1
    return Evaluation(values, done, clock.nodes)


@dataclass
class Decision:
    """What :func:`decide` chose. ``move`` None: out of time before a sample valued any candidate."""

    move: Move | None
    #: per candidate, the samples it was searched on (the chosen move: every sample, unless the time ran out)
    values: list[MoveValue]
    #: the samples of the choice: the budget's, or those of the chosen move when the time ran out first
    samples: int
    nodes: int
    #: the choice is certain: the same as that of a search of every candidate in every sample
    certain: bool


class _Bounds:
    """What the searches so far leave possible, per candidate: its final count of half-points (a sample won
    is 2, undecided 1) lies between ``half`` and ``half + 2 * left``; ``left`` samples are not searched yet."""

    def __init__(self, preferences: list[float], samples: int, margin: float) -> None:
        self.pref = preferences
        self.n = samples
        self.margin = max(margin, 1.0 / samples)  # as the rule's: within one sample's worth at least
        self.half = [0] * len(preferences)
        self.left = [samples] * len(preferences)
        #: the advice's order: favourite first, the candidates' order among equals (the rule's stable sort)
        self.order = sorted(range(len(preferences)), key=lambda c: (-preferences[c], c))

    def share(self, half: int) -> float:
        return half * 0.5 / self.n  # == MoveValue.share once every sample counts: the same float

    def classify(self) -> tuple[list[bool], list[bool]]:
        """Per candidate: certainly not within the margin of the best (out); certainly within it (in)."""
        lo = [self.share(h) for h in self.half]
        hi = [self.share(h + 2 * n) for h, n in zip(self.half, self.left, strict=True)]
        floor = max(lo) - self.margin
        ceiling = max(hi) - self.margin
        return [h < floor for h in hi], [x >= ceiling for x in lo]

    def below(self, c: int, w: int) -> bool:
        """Does ``c`` certainly rank after ``w`` among the close moves (the advice, then the share, then
        the candidates' order)?"""
        if self.pref[c] != self.pref[w]:
            return self.pref[c] < self.pref[w]
        most = self.half[c] + 2 * self.left[c]
        return most < self.half[w] or (most == self.half[w] and c > w)

    def winner(self, out: list[bool], sure: list[bool]) -> int | None:
        """The candidate the rule chooses whatever the searches left say, if there is one."""
        for w in self.order:
            if sure[w] and all(c == w or out[c] or self.below(c, w) for c in range(len(out))):
                return w
        return None

    def next_to_search(self, out: list[bool]) -> int:
        """The candidate whose next search may settle the choice soonest: the advice's favourite among the
        moves not vetoed, on every sample; then, of the moves that keep it from being certainly chosen
        (they may still beat its share by more than the margin, or rank before it with the same advice),
        the one that may reach the highest share."""
        live = [c for c in self.order if not out[c]]
        w = live[0]
        if self.left[w]:
            return w
        floor = self.share(self.half[w])
        blockers = [
            c for c in live[1:] if self.left[c] and (
                floor < self.share(self.half[c] + 2 * self.left[c]) - self.margin
                or (self.pref[c] == self.pref[w] and not self.below(c, w)))
        ]
        if blockers:
            return max(blockers, key=lambda c: self.half[c] + 2 * self.left[c])
        # (the first unsearched move still in the running, or any: the loop ends once the choice is certain)
        return next((c for c in live if self.left[c]), next(c for c in self.order if self.left[c]))


def decide(
    view: VisiblePosition,
    candidates: list[Move],
    preferences: list[float],
    margin: float,
    budget: Budget,
    seed: int,
    time_limit: float | None = None,
    stop: threading.Event | None = None,
) -> Decision:
    """The move that :func:`evaluate` over every candidate and then the rule choose: among the candidates
    whose share is within ``margin`` (or one sample's worth) of the best, the one with the highest
    ``preferences`` entry, then the highest share, then the first; found with the searches that can
    still change it only, the chosen move searched on every sample (its share is the one reported).

    The candidates are searched one at a time over the samples (each sample's current position first:
    a loss there settles every candidate), the advice's favourite first. With a deadline or ``stop``
    that comes first, the choice is the advice's favourite among the moves the searches so far have
    not vetoed, on the samples it was searched on (``certain`` False)."""
    samples, nodes = budget.for_rules(view)
    count = 1 if view.hidden_places <= 1 else samples  # (iter_games: one game when nothing is left to draw)
    draws = iter_games(view, count, seed)
    games: list[Game] = []  # drawn as the searches reach them: a budget may hold far more than a deadline
    bounds = _Bounds(preferences, count, margin)
    values = [MoveValue(m) for m in candidates]
    reached = [0] * len(candidates)  # per candidate, the samples before this one are settled
    roots: dict[int, str] = {}  # a sample's current position's verdict, once searched
    clock = _Clock(time_limit, stop)
    certain = False
    searched = False
    while True:
        out, sure = bounds.classify()
        chosen = bounds.winner(out, sure)
        if chosen is not None and not bounds.left[chosen]:
            certain = True
            break
        c = chosen if chosen is not None else bounds.next_to_search(out)
        if searched and clock.expired():
            break
        searched = True
        j = reached[c]
        while roots.get(j) == LOST:  # (settled for every candidate when that root was searched)
            j += 1
        try:
            if j == len(games):
                games.append(next(draws))
            if j not in roots:
                roots[j] = clock.search(games[j], nodes)
                if roots[j] == LOST:  # a loss after every candidate; none has searched this sample yet
                    for k in range(len(candidates)):
                        _settle(bounds, values, k, LOST)
                    continue
            game = games[j]
            game.push(candidates[c])
            try:
                status = clock.search(game, nodes)
            finally:
                game.pop()
        except _OutOfTime:
            break
        reached[c] = j + 1
        _settle(bounds, values, c, status)
    if not certain:
        out, sure = bounds.classify()
        chosen = bounds.winner(out, sure)
        if chosen is None:
            chosen = next(c for c in bounds.order if not out[c])
        if values[chosen].samples == 0:
            return Decision(None, values, 0, clock.nodes, False)
    assert chosen is not None  # (certain: the winner was found)
    return Decision(candidates[chosen], values, values[chosen].samples, clock.nodes, certain)


def _settle(bounds: _Bounds, values: list[MoveValue], c: int, status: str) -> None:
    values[c].add(status)
    bounds.left[c] -= 1
    bounds.half[c] += 2 if status == WON else 1 if status == UNKNOWN else 0


def _one_sample(game: Game, candidates: list[Move], nodes: int, clock: _Clock) -> list[tuple[str, int]]:
    """Per candidate, its verdict in this sample and the nodes its search spent."""
    root = clock.search(game, nodes)
    if root == LOST:
        return [(LOST, 0)] * len(candidates)
    statuses = []
    for m in candidates:
        game.push(m)
        before = clock.nodes
        status = clock.search(game, nodes)
        statuses.append((status, clock.nodes - before))
        game.pop()
    return statuses


__all__ = ["STUDY_BUDGET", "WEB_BUDGET", "Budget", "Decision", "Evaluation", "MoveValue", "decide", "evaluate"]
