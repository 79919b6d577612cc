"""The honest hint and the honest computer player: they read a game only through its visible view.

:func:`honest_hint` is the entry point (``yukon.hint(game, peek=False)``); it
turns the game into a :class:`~yukon.visible.VisiblePosition` (and the views
of the positions before it, to avoid going round in circles) and hands
nothing else to :func:`choose`, which decides from views alone.

>>> from yukon import Game
>>> game = Game.from_text("yukon,kings,noreturn KS/QS/-/-/-/-/- JS/KH/KD/KC")
>>> result = honest_hint(game, time_limit=None, seed=1)
>>> str(result.move), result.kind, result.source
('2:QS>F', 'honest', 'safe')
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..autoplay import safe_moves
from ..deal import MAX_SEED, check_seed
from ..errors import InvalidSeedError, shown
from ..game import Game
from ..notation import Move
from ..solver import HintResult, check_limits
from ..visible import VisiblePosition, hidden_words, visible_history
from .evaluator import WEB_BUDGET, Budget, MoveValue, decide, evaluate
from .heuristic import CLASSIC, Advice, advice_for
from .rollout import honest_rollouts, playout_shares
from .tree import tree_choice, tree_search

#: the seed when none is given: the same view then always gets the same hint
DEFAULT_SEED = 0
#: moves whose share of samples won is this close to the best (or one sample's worth) count as equally good;
#: among them the advice of :mod:`.heuristic` chooses (the samples veto, the advice proposes)
SHARE_MARGIN = 0.1
#: the first player's decision searches only what can still change it (:func:`.evaluator.decide`: the same
#: moves, far fewer searches); off, every candidate in every sample, then the rule (the reference the tests
#: and bench/honest.py compare it with)
PRUNED = True
#: the rollout player's budget: the honest player at a sixth of the samples and a twentieth of the nodes of the
#: study's (about 0.1 s of CPU for a whole game of Yukon, which it wins 42.5% of: docs/honest.md, "Round four")
ROLLOUT_BUDGET = Budget(2, 500, 1, 10)


@dataclass(frozen=True)
class Method:
    """How one decision uses its budget (docs/honest.md).

    ``margin``: the moves whose share is within this of the best (or one sample's worth) are close: the
    samples cannot tell them apart, and the advice (:mod:`.heuristic`) chooses among them.
    ``second_look``: when more than one move is close, those moves get this many times as many samples
    again (0: no second look), and then count as close only within ``second_margin`` (or one sample's
    worth). ``playouts``: the close moves are ranked by the share of that many samples (the first
    look's first) in which a greedy playout by what a player sees wins after them (:mod:`.rollout`), the
    advice breaking ties. ``advice``: the advice among the close moves (:mod:`.heuristic`); None: the one
    the rules choose (:func:`~.heuristic.advice_for`). ``rollouts``: in the first ``rollout_opening``
    moves of a game, the advice's ``rollout_moves`` favourites among the close moves are played out in
    that many sampled deals by the honest player itself at ``rollout_budget`` (:func:`.rollout.honest_rollouts`),
    and the one that wins most of them is chosen, the advice's order breaking ties (0: off); a rollout
    longer than ``rollout_length`` moves counts as lost. ``untried_first``: among close moves the advice
    likes alike, a move that lays its card where none of the views passed had it goes first (the player
    tries a new arrangement before going back to an old one). ``playout_veto`` (0: off): with ``playouts``, the
    playouts veto instead of ranking, in the first ``rollout_opening`` moves: the advice's order stands, less
    the close moves whose playouts won a share more than this below the best move's. ``ease``: how easily the
    searches won ranks the close moves before the advice (round six of docs/honest.md; "": off): ``"nodes"``,
    by the mean nodes the searches spent to find their wins, a sample not won counting as the node limit, fewest first
    (:meth:`.evaluator.MoveValue.ease_nodes`: the searches made, nothing more); ``"shallow"``, by the share
    of samples a search limited to ``shallow_nodes`` nodes decides won (:meth:`.evaluator.MoveValue.shallow_share`,
    read off the same searches), highest first; then the advice, then the share. Either searches every
    candidate in every sample (not :func:`.evaluator.decide`'s pruning, whose close moves may lack samples).
    The other defaults are the first player's.
    """

    second_look: int = 0
    second_margin: float = 0.05
    margin: float = SHARE_MARGIN
    playouts: int = 0
    advice: Advice | None = None
    rollouts: int = 0
    rollout_moves: int = 3
    rollout_budget: Budget = ROLLOUT_BUDGET
    rollout_opening: int = 40
    rollout_length: int = 400
    untried_first: bool = False
    playout_veto: float = 0.0
    ease: str = ""
    shallow_nodes: int = 500
    tree: int = 0
    tree_nodes: int = 2000
    tree_exploration: float = 0.4
    tree_margin: float = 0.0

    def advice_for(self, view: VisiblePosition) -> Advice:
        """The advice this method uses on ``view``'s rules."""
        return advice_for(view.rules) if self.advice is None else self.advice

    def __post_init__(self) -> None:
        if not 0.0 <= self.second_margin <= 1.0:
            raise ValueError(f"second_margin must be a share between 0 and 1, not {self.second_margin!r}")
        if not 0.0 <= self.playout_veto <= 1.0:
            raise ValueError(f"playout_veto must be a share between 0 and 1, not {self.playout_veto!r}")
        for share in ("margin", "tree_margin"):
            if not 0.0 <= getattr(self, share) <= 1.0:
                raise ValueError(f"{share} must be a share between 0 and 1, not {getattr(self, share)!r}")
        if not (isinstance(self.tree_exploration, (int, float)) and 0.0 <= self.tree_exploration <= 10.0):
            raise ValueError(f"tree_exploration must be a number from 0 to 10, not {self.tree_exploration!r}")
        if self.ease not in EASE_RULES:
            raise ValueError(f"ease must be one of {', '.join(map(repr, EASE_RULES))}, not {self.ease!r}")
        counts = {"second_look": 0, "playouts": 0, "rollouts": 0, "rollout_moves": 1, "rollout_opening": 0,
                  "rollout_length": 0, "shallow_nodes": 1, "tree": 0, "tree_nodes": 1}
        for name, least in counts.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"{name} must be an int of at least {least}, not {value!r}")
        if not isinstance(self.rollout_budget, Budget):
            raise ValueError(f"rollout_budget must be a yukon.honest.Budget, not {self.rollout_budget!r}")
        if self.advice is not None and not isinstance(self.advice, Advice):
            raise ValueError(f"advice must be a yukon.honest.heuristic.Advice or None, not {self.advice!r}")


#: the rules of ``Method.ease``: off, the mean nodes to a win, the share won within ``shallow_nodes``
EASE_RULES = ("", "nodes", "shallow")


#: the first honest player (``honest-1``): the budget's samples only, the greedy agent's advice among the close
#: moves on every variant
HONEST_1 = Method(advice=CLASSIC)
#: the method of the hints, the demo and the study: the first player's, with the advice the rules choose
#: (round three: docs/honest.md; on Yukon and Milligan Yukon it is ``HONEST_1``)
DEFAULT_METHOD = Method()


@dataclass
class HonestHint(HintResult):
    """A hint from what the player sees. ``source``: ``safe`` (a card up that cannot hurt, played without
    thinking), ``only move``, ``samples`` (the best share of sampled deals won), ``heuristic`` (the time
    ran out before one sample) or ``none`` (no legal move). ``status`` is ``won``/``lost`` only when
    the game is over: an honest player cannot know more."""

    kind: str = "honest"
    #: the chosen move's share of samples won (undecided counted half); None without sampling
    win_share: float | None = None
    samples: int = 0
    nodes: int = 0
    #: per candidate, its counts over the samples it was searched on: every sample for the chosen move; the
    #: others only as far as the choice needed them (:func:`.evaluator.decide`), unless :data:`PRUNED` is off
    values: list[MoveValue] = field(default_factory=list)
    #: what the samples guessed at, in words (:func:`unseen_words`): Australian Patience has no face-down cards;
    #: "" where nothing was left to guess (:attr:`~yukon.visible.VisiblePosition.is_determined`)
    unseen: str = "the face-down cards"

    @property
    def odds(self) -> str:
        """The chosen move's samples in words, as every hint and the demo say them ("" without sampling):
        counts, not a share, since an undecided search counts half in the share."""
        value = next((v for v in self.values if v.move == self.move), None)
        return "" if value is None or not value.samples else odds_words(value, self.unseen)

    def to_dict(self) -> dict[str, object]:
        """The hint as JSON data: :meth:`HintResult.to_dict` with the samples' figures and odds."""
        data = super().to_dict()
        data.update(win_share=self.win_share, samples=self.samples, nodes=self.nodes, odds=self.odds)
        return data


def unseen_words(view: VisiblePosition) -> str:
    """What a player cannot see in ``view``, so what the samples guess at: "the face-down cards", "the
    stock's order" (Australian Patience deals every card face up), or both; "" when the view leaves one
    arrangement of the unseen cards (nothing is left to guess)."""
    return "" if view.is_determined else hidden_words(sum(view.down_counts), view.stock_count)


def odds_words(value: MoveValue, unseen: str = "the face-down cards") -> str:
    """``value``'s counts in a player's words: "wins in 17 of 24 guesses at the face-down cards, loses in 4,
    3 undecided" (every guess is counted: "17 of 24, 3 undecided" left a player to wonder about the other
    4); with ``unseen`` "" (nothing was left to guess: its one sample is the position itself) the verdict
    alone.

    >>> odds_words(MoveValue(Move(0, 1, 1), won=17, lost=4, unknown=3))
    'wins in 17 of 24 guesses at the face-down cards, loses in 4, 3 undecided'
    >>> odds_words(MoveValue(Move(0, 1, 1), won=20, unknown=4))
    'wins in 20 of 24 guesses at the face-down cards, 4 undecided'
    >>> odds_words(MoveValue(Move(0, 1, 1), won=1))
    'wins in 1 of 1 guess at the face-down cards'
    >>> odds_words(MoveValue(Move(0, 1, 1), won=1), unseen="")
    'wins for certain: no card is left to guess'
    """
    if not unseen:
        verdict = "wins for certain" if value.won else "undecided" if value.unknown else "cannot win"
        return f"{verdict}: no card is left to guess"
    guesses = "guess" if value.samples == 1 else "guesses"
    text = f"wins in {value.won} of {value.samples} {guesses} at {unseen}"
    if value.lost and value.won + value.lost < value.samples:  # (with none undecided, "of 24" says the rest)
        text += f", loses in {value.lost}"
    return text + (f", {value.unknown} undecided" if value.unknown else "")


def honest_hint(
    game: Game,
    time_limit: float | None = None,
    stop: threading.Event | None = None,
    *,
    seed: int | None = None,
    budget: Budget = WEB_BUDGET,
    method: Method | None = None,
) -> HonestHint:
    """The honest next move for ``game``: depends only on what a player sees (and ``seed``).

    With ``time_limit=None`` it is deterministic: the budget counts samples and nodes. A time limit
    (seconds) or a set ``stop`` event ends the sampling early (at least one whole sample counts when
    there is time for one).
    """
    if not isinstance(game, Game):
        raise TypeError(f"honest_hint() needs a yukon.Game, not {type(game).__name__}")
    if not isinstance(budget, Budget):
        raise TypeError(f"budget must be a yukon.honest.Budget, not {type(budget).__name__}")
    # the same InvalidLimitError as yukon.solve's, before any work; an int too large for a float is no limit
    time_limit = check_limits(time_limit, None, None, stop)
    if seed is not None:  # checked here, not only where the samples are drawn: a safe or only move draws none
        try:
            check_seed(seed)
        except InvalidSeedError:
            raise InvalidSeedError(f"an honest hint's seed is an int from 0 to {MAX_SEED} (or None), "
                                   f"not {shown(seed)}") from None
    view = VisiblePosition.of(game)
    seen = frozenset(visible_history(game))
    if method is not None and not isinstance(method, Method):
        raise TypeError(f"method must be a yukon.honest.Method, not {type(method).__name__}")
    return choose(view, seen, budget, DEFAULT_SEED if seed is None else seed, time_limit, stop,
                  DEFAULT_METHOD if method is None else method)


def choose(
    view: VisiblePosition,
    seen: frozenset[VisiblePosition],
    budget: Budget,
    seed: int,
    time_limit: float | None = None,
    stop: threading.Event | None = None,
    method: Method = DEFAULT_METHOD,
) -> HonestHint:
    """The decision, from views only: ``seen`` are the views passed on the way here."""
    moves = view.legal_moves()
    if not moves:
        return HonestHint(None, "none", "won" if view.is_won() else "lost")
    safe = safe_moves(view.canonical)
    if safe:
        return HonestHint(safe[0], "safe", "unknown", [safe[0]])
    candidates = _candidates(view, moves, seen)
    patience = method.advice_for(view).patience
    if patience and _rearrangements(view, seen) >= patience:
        candidates = [m for m in candidates if view.after(m) is None or m.dst >= len(view.columns)
                      or m.src >= len(view.columns)] or candidates
    if len(candidates) == 1:
        return HonestHint(candidates[0], "only move", "unknown", [candidates[0]])
    if method.tree:
        return _tree_decided(view, candidates, seen, seed, time_limit, stop, method)
    if PRUNED and not method.second_look and not method.playouts and not method.rollouts and not method.ease:
        return _decided(view, candidates, seen, budget, seed, time_limit, stop, method)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    evaluation = evaluate(view, candidates, budget, seed, time_limit, stop)
    advice = method.advice_for(view)
    if not evaluation.samples:  # out of time before one whole sample: the advice alone
        move = max(candidates, key=lambda m: advice.preference(view, m))
        return HonestHint(move, "heuristic", "unknown", [move], nodes=evaluation.nodes)
    values, samples, nodes = evaluation.values, evaluation.samples, evaluation.nodes
    close = _close(values, samples, method.margin)
    base, _ = budget.for_rules(view)
    if method.second_look and len(close) > 1 and samples == base and view.hidden_places > 1:
        left = None if deadline is None else deadline - time.perf_counter()
        if left is None or left > 0:
            second = evaluate(view, [v.move for v in close], budget, seed, left, stop,
                              first=base, count=method.second_look * base)
            if second.samples:
                merged = {v.move: v for v in close}
                for v in second.values:
                    merged[v.move] = merged[v.move].merged(v)
                values = [merged.get(v.move, v) for v in values]
                samples += second.samples
                close = _close(list(merged.values()), samples, method.second_margin)
            nodes += second.nodes
    untried = dict(zip(candidates, (not t for t in _tried(view, candidates, seen)), strict=True)) if (
        method.untried_first) else {}
    ranked = sorted(close, key=lambda v: (advice.preference(view, v.move) + UNTRIED_BONUS * untried.get(v.move, False),
                                          v.share), reverse=True)
    if method.ease:  # (a stable sort: the advice's order among equals)
        _, limit = budget.for_rules(view)
        ranked.sort(key=lambda v: -v.ease_nodes(limit) if method.ease == "nodes" else v.shallow_share(
            method.shallow_nodes), reverse=True)
    if method.playouts and len(ranked) > 1 and view.hidden_places > 1 and (
            not method.playout_veto or len(seen) <= method.rollout_opening):
        left = None if deadline is None else deadline - time.perf_counter()
        shares = None if left is not None and left <= 0 else playout_shares(
            view, [v.move for v in ranked], min(method.playouts, samples), seed, left, stop)
        if shares is not None and method.playout_veto:  # the advice's order, less the clearly worse
            floor = max(shares) - method.playout_veto
            ranked = [v for v, share in zip(ranked, shares, strict=True) if share >= floor]
        elif shares is not None:  # the playouts' best first, the advice's order among equals
            order = sorted(range(len(ranked)), key=lambda i: -shares[i])
            ranked = [ranked[i] for i in order]
    if method.rollouts and len(ranked) > 1 and view.hidden_places > 1 and len(seen) <= method.rollout_opening:
        top = ranked[:method.rollout_moves]
        wins = honest_rollouts(view, [v.move for v in top], method.rollouts, seed, method.rollout_budget,
                               Method(advice=method.advice), deadline, stop, method.rollout_length)
        if wins is not None:  # the most rollouts won; among equals the advice's order
            first = max(range(len(top)), key=lambda i: (wins[i], -i))
            ranked = [top[first]] + [v for v in ranked if v is not top[first]]
    best = ranked[0]
    return HonestHint(
        best.move, "samples", "unknown", [best.move], win_share=best.share,
        samples=samples, nodes=nodes, values=values, unseen=unseen_words(view),
    )


def _decided(
    view: VisiblePosition, candidates: list[Move], seen: frozenset[VisiblePosition], budget: Budget, seed: int,
    time_limit: float | None, stop: threading.Event | None, method: Method,
) -> HonestHint:
    """The first player's decision (the samples veto, the advice chooses) by :func:`.evaluator.decide`."""
    advice = method.advice_for(view)
    preferences = [advice.preference(view, m) for m in candidates]
    if method.untried_first:
        tried = _tried(view, candidates, seen)
        preferences = [p + UNTRIED_BONUS * (not t) for p, t in zip(preferences, tried, strict=True)]
    decision = decide(view, candidates, preferences, method.margin, budget, seed, time_limit, stop)
    if decision.move is None:  # out of time before one sample: the advice alone
        move = candidates[max(range(len(candidates)), key=preferences.__getitem__)]
        return HonestHint(move, "heuristic", "unknown", [move], nodes=decision.nodes)
    share = decision.values[candidates.index(decision.move)].share
    return HonestHint(
        decision.move, "samples", "unknown", [decision.move], win_share=share,
        samples=decision.samples, nodes=decision.nodes, values=decision.values, unseen=unseen_words(view),
    )


def tree_moves(advice: Advice) -> tuple[
        Callable[[VisiblePosition, list[Move]], list[Move]],
        Callable[[VisiblePosition, frozenset[VisiblePosition]], list[Move]]]:
    """What the tree search (:mod:`.tree`) asks of the player at a view: its moves in the advice's order (the
    favourite first), and the moves worth trying there (a safe card up, else :func:`_candidates`)."""

    def ordered(at: VisiblePosition, moves: list[Move]) -> list[Move]:
        return sorted(moves, key=lambda m: advice.preference(at, m), reverse=True)

    def candidates_of(at: VisiblePosition, passed: frozenset[VisiblePosition]) -> list[Move]:
        safe = safe_moves(at.canonical)
        return safe[:1] if safe else _candidates(at, at.legal_moves(), passed)

    return ordered, candidates_of


def _tree_decided(
    view: VisiblePosition, candidates: list[Move], seen: frozenset[VisiblePosition], seed: int,
    time_limit: float | None, stop: threading.Event | None, method: Method,
) -> HonestHint:
    """The decision of the information-set tree search (:mod:`.tree`; round ten of docs/honest.md)."""
    advice = method.advice_for(view)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    ordered, candidates_of = tree_moves(advice)
    result = tree_search(view, seen, candidates, ordered, candidates_of, method.tree, method.tree_nodes, seed,
                         method.tree_exploration, deadline, stop)
    if not result.iterations:  # out of time before one whole iteration: the advice alone
        return HonestHint(result.moves[0], "heuristic", "unknown", [result.moves[0]], nodes=result.nodes)
    move = tree_choice(result, method.tree_margin, lambda m: advice.preference(view, m))
    i = result.moves.index(move)
    return HonestHint(move, "samples", "unknown", [move], win_share=result.means[i], samples=result.iterations,
                      nodes=result.nodes, unseen=unseen_words(view))


#: what a new placement adds to a move's preference under ``untried_first``: far below any difference of the advice's
#: scores, so it only breaks their ties
UNTRIED_BONUS = 1e-6


def _progress(view: VisiblePosition) -> tuple[object, ...]:
    """What only a card turned, played up or back, or dealt changes: not the arrangement of the face-up cards."""
    return view.foundations, view.waste, view.stock_count, tuple(sorted(view.down_counts))


def _rearrangements(view: VisiblePosition, seen: frozenset[VisiblePosition]) -> int:
    """How many views passed differ from ``view`` only in the arrangement of the face-up cards."""
    mark = _progress(view)
    return sum(1 for passed in seen if passed != view and _progress(passed) == mark)


def _tried(view: VisiblePosition, moves: list[Move], seen: frozenset[VisiblePosition]) -> list[bool]:
    """Per move, whether some view passed had the card it moves lying where the move lays it (on the same card,
    or leading an empty column)."""
    placements: set[tuple[int, int]] = set()
    for passed in seen:
        for down, up in passed.columns:
            if up and not down:
                placements.add((up[0], -1))
            placements.update(zip(up[1:], up[:-1], strict=True))
    tried = []
    for m in moves:
        if m.src >= len(view.columns) or m.dst >= len(view.columns):
            tried.append(False)
            continue
        target = view.columns[m.dst][1]
        tried.append((m.card, target[-1] if target else -1) in placements)
    return tried


def _close(values: list[MoveValue], samples: int, margin: float = 0.0) -> list[MoveValue]:
    """The values whose share is within the margin (at least one sample's worth) of the best."""
    top = max(v.share for v in values)
    margin = max(margin, 1.0 / samples)
    return [v for v in values if v.share >= top - margin]


def _candidates(view: VisiblePosition, moves: list[Move], seen: frozenset[VisiblePosition]) -> list[Move]:
    """The moves worth valuing: one per empty column target (the others give the same position up to
    column order, except while a Milligan stock still deals by column), none that goes back to a view
    already passed (unless every move does)."""
    column_order_matters = view.rules.stock == "rows" and view.stock_count > 0
    first_empty = next((i for i, (n, up) in enumerate(view.columns) if not n and not up), None)
    kept = []
    for m in moves:
        to_another_empty = m.dst < len(view.columns) and m.dst != first_empty and not view.columns[m.dst][1]
        if to_another_empty and not column_order_matters:
            continue
        kept.append(m)
    fresh = [m for m in kept if not view.goes_back(m, seen)]
    return fresh or kept


@dataclass
class PlayedGame:
    """One game played out by the honest player."""

    won: bool
    moves: int
    seconds: float
    cards_on_foundations: int
    reason: str  # "won" | "no move" | "repeats" | "move limit" | "stopped"
    nodes: int = 0  # search nodes spent over the game


def play_honest(
    game: Game,
    budget: Budget,
    seed: int = DEFAULT_SEED,
    max_moves: int = 1000,
    stop: threading.Event | None = None,
    method: Method = DEFAULT_METHOD,
    time_limit: float | None = None,
    observe: Callable[[VisiblePosition, frozenset[VisiblePosition]], None] | None = None,
) -> PlayedGame:
    """Play ``game`` (changed in place) by honest hints until it is won, stuck or would only repeat
    a position already seen (then it resigns). Decision ``i`` uses seed ``seed * 1009 + i``. ``stop`` set,
    or ``time_limit`` seconds for the whole game passed, ends it as ``stopped``. ``observe``, if given, is
    called before each decision with what the decision reads (the view, the views passed): a study of the
    games (bench/honest_idle.py) watches them without playing them again some other way."""
    if not isinstance(game, Game):
        raise TypeError(f"play_honest() needs a yukon.Game, not {type(game).__name__}")
    time_limit = check_limits(time_limit, None, None, stop)
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    seen: set[VisiblePosition] = set(visible_history(game))
    reason = "move limit"
    nodes = 0
    for ply in range(max_moves):
        if game.is_won():
            reason = "won"
            break
        view = VisiblePosition.of(game)
        seen.add(view)
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            reason = "stopped"
            break
        passed = frozenset(seen)
        if observe is not None:
            observe(view, passed)
        hint = choose(view, passed, budget, seed * 1009 + ply, left, stop, method)
        nodes += hint.nodes
        if hint.move is None:
            reason = "no move"
            break
        if view.goes_back(hint.move, seen):
            reason = "repeats"
            break
        game.push(hint.move)
        if stop is not None and stop.is_set():
            reason = "stopped"
            break
    else:
        if game.is_won():
            reason = "won"
    return PlayedGame(
        game.is_won(), len(game.move_stack), time.perf_counter() - started, game.cards_on_foundations, reason,
        nodes,
    )


__all__ = ["DEFAULT_METHOD", "DEFAULT_SEED", "HONEST_1", "HonestHint", "Method", "PlayedGame", "choose", "honest_hint",
           "odds_words", "play_honest", "tree_moves", "unseen_words"]
