"""The honest player's move preferences among the moves its samples cannot tell apart: the advice.

An :class:`Advice` is data: the weights of the strategy advice of docs/rules.md, scored from a view
only. The rules choose it (:func:`advice_for`, one table keyed by the build rule), so no per-variant
code path exists outside this table.

:data:`CLASSIC` is the greedy agent's advice of bench/agents.py (39.5% of Yukon deals 1-1000 on it alone),
the advice of the first honest player: a safe card up 1000; a move that turns a face-down card 300,
plus 10 per card still face down in that column; emptying a column 100 when a King lies on other
cards (it can move in), else 20; the waste to a column 50; another card up 5; minus 40 per King
carried inside a group onto another card (it buries that column); a card back from a foundation
-100; a deal from the stock 1. A rearrangement that turns nothing also scores half the best new
score it makes possible at once (its view after is known: it reveals nothing).

:data:`SAME_SUIT` (same-suit builds: Russian, Alaska, Australian Patience) adds what the losses there
showed (docs/honest.md, "Round three"): the player moved the same groups between columns, revealing
nothing, and in Alaska laid cards on the next lower card of their suit, which then could not go up
before them. It values the links of the build (a lead laid on a card it fits, minus the link it
leaves: 60 each), subtracts 60 from a rearrangement that turns nothing, empties no column and makes
no link, 30 per inversion made (a card laid above a lower card of its suit) minus those undone, and,
where any card may lead an empty column, 100 from a group led by another card than a King moved into
one without turning a card (it spends the column), while emptying a column is worth the waiting
King's 100 there.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..autoplay import is_safe_to_play_up
from ..cards import KING, RANK, SUIT
from ..game import Game
from ..notation import FOUNDATION, STOCK, WASTE, Move
from ..rules import Rules
from ..visible import VisiblePosition


@dataclass(frozen=True)
class Advice:
    """The weights of one advice (scores of one move; higher is better). ``name`` goes into the honest
    player's version (``yukon.study.players.player_version``): rows played with another advice never
    mix. The weights down to ``opens`` are the greedy agent's; those after it are round three's (0: off)."""

    name: str
    safe_up: float = 1000.0
    turn: float = 300.0
    turn_per_down: float = 10.0
    empty_for_a_king: float = 100.0
    empty: float = 20.0
    waste_to_column: float = 50.0
    other_up: float = 5.0
    unsafe_waste_up: float = 40.0
    king_buried: float = 40.0
    from_foundation: float = -100.0
    deal: float = 1.0
    #: where any card may go into an empty column, emptying one is worth as much as for a waiting King
    empty_serves_any_card: bool = False
    #: a rearrangement that turns nothing scores this share of the best new score it opens
    opens: float = 0.5
    #: how many moves deep a rearrangement's openings are looked for: 1, the moves it opens at once; 2, also
    #: those opened by a rearrangement it opens (worth ``opens`` once more), and so on. The views on the way
    #: are known (a rearrangement reveals nothing), so the plan is the player's own.
    plan_depth: int = 1
    #: once this many views passed differ from the one in play only in the arrangement of the face-up cards
    #: (the same cards up, face down and in the stock: rearrangements since a card last turned, went up or
    #: was dealt), only the moves that change more are candidates, when there are any (0: no limit)
    patience: int = 0
    #: per link of the build made (a lead laid on a card it fits) minus the link it leaves
    link: float = 0.0
    #: subtracted from a rearrangement that turns nothing, makes no link and empties no column
    shuffle: float = 0.0
    #: per same-suit inversion made (a card laid above a lower card of its suit, which must go up first) minus
    #: those undone
    inversion: float = 0.0
    #: subtracted from a group led by another card than a King moved into an empty column, turning nothing
    #: (it spends the column)
    fill_empty: float = 0.0
    #: per card laid onto a column, times the face-down cards under it (they lie one card deeper for each;
    #: docs/honest.md, "Round nine": off, it lost deals)
    bury: float = 0.0

    def preference(self, view: VisiblePosition, move: Move) -> float:
        """How much this advice likes ``move`` in ``view`` (reads only the view)."""
        game = view.canonical
        score = self._own_score(view, game, move, _kings_waiting(view))
        if move.src < FOUNDATION and move.dst < FOUNDATION and self.opens:
            after = view.after(move)
            if after is not None:
                score += self.opens * max(0.0, self._best_opened(view, after, self.plan_depth))
        return score

    def _best_opened(self, before: VisiblePosition, after: VisiblePosition, depth: int) -> float:
        """The best score of a move ``after`` allows and ``before`` did not; with ``depth`` above 1, a
        rearrangement among them is worth ``opens`` of the best it opens in turn."""
        known = set(before.legal_moves())
        kings = _kings_waiting(after)
        best = 0.0
        for m in after.legal_moves():
            if m in known or m.src in (STOCK, FOUNDATION):
                continue
            gain = self._own_score(after, after.canonical, m, kings)
            if depth > 1 and m.dst < FOUNDATION:
                further = after.after(m)
                if further is not None:
                    gain = max(gain, self.opens * self._best_opened(after, further, depth - 1))
            best = max(best, gain)
        return best

    def _own_score(self, view: VisiblePosition, game: Game, move: Move, kings_waiting: bool) -> float:
        s, d = move.src, move.dst
        if s == STOCK:
            return self.deal
        if s == FOUNDATION:
            return self.from_foundation
        if s == WASTE:
            if d == FOUNDATION:
                return self.safe_up if is_safe_to_play_up(game, move.card) else self.unsafe_waste_up
            return self.waste_to_column
        down, up = view.columns[s]
        score = 0.0
        if d == FOUNDATION:
            if is_safe_to_play_up(game, move.card):
                return self.safe_up + (self.turn if down and len(up) == 1 else 0.0)
            score += self.other_up
        whole = move.count == len(up)
        if whole:
            if down:
                score += self.turn + self.turn_per_down * down
            elif kings_waiting or (self.empty_serves_any_card and not view.rules.kings_only):
                score += self.empty_for_a_king
            else:
                score += self.empty
        if d == FOUNDATION:
            return score
        target = view.columns[d][1]
        if target:
            carried = up[len(up) - move.count + 1:]
            score -= self.king_buried * sum(1 for c in carried if RANK[c] == KING)
            score -= self.bury * move.count * view.columns[d][0]
        if self.link or self.shuffle or self.inversion or self.fill_empty:
            score += self._structure(view, move, up, down, target, whole)
        return score

    def _structure(self, view: VisiblePosition, move: Move, up: tuple[int, ...], down: int,
                   target: tuple[int, ...], whole: bool) -> float:
        """Round three's terms: the build's links, the shuffle, the empty column spent, the inversions."""
        fits = view.rules.build_rule.fits
        lead = up[len(up) - move.count]
        left = not whole and fits(lead, up[len(up) - move.count - 1])
        made = bool(target)  # a legal move onto a card always fits it
        links = int(made) - int(left)
        score = self.link * links
        if self.fill_empty and not target and RANK[lead] != KING and not (whole and down):
            score -= self.fill_empty
        if self.inversion:
            group, below = up[len(up) - move.count:], up[:len(up) - move.count]
            score -= self.inversion * (_inversions(group, target) - _inversions(group, below))
        if not whole and links <= 0:
            score -= self.shuffle
        return score


def _inversions(upper: tuple[int, ...], lower: tuple[int, ...]) -> int:
    """Pairs of a card of ``upper`` lying above a lower card of its suit in ``lower``."""
    return sum(1 for y in upper for x in lower if SUIT[y] == SUIT[x] and RANK[y] > RANK[x])


def _kings_waiting(view: VisiblePosition) -> bool:
    return any(RANK[c] == KING and (down or i > 0) for down, up in view.columns for i, c in enumerate(up))


#: the first honest player's advice: the greedy agent's weights, tuned on Yukon
CLASSIC = Advice("1")
#: same-suit builds (docs/honest.md, "Round three")
SAME_SUIT = Advice("2s", empty_serves_any_card=True, link=60.0, shuffle=60.0, inversion=30.0, fill_empty=100.0)

#: Milligan Yukon with any card into an empty column: the first player moved cards between columns until the
#: game's move limit, every view new while the stock deals by column (docs/honest.md, "Round five")
PATIENT = Advice("1p", patience=12)

#: the advice of each build rule (:attr:`yukon.rules.Rules.build`): the one place a variant chooses it
ADVICE_BY_BUILD: dict[str, Advice] = {"alternate": CLASSIC, "suit": SAME_SUIT, "suit-updown": SAME_SUIT}
#: the rules whose advice is not their build rule's, by (build rule, stock, empty column rule)
ADVICE_BY_RULES: dict[tuple[str, str, str], Advice] = {("alternate", "rows", "any"): PATIENT}


def advice_for(rules: Rules) -> Advice:
    """The advice the rules choose (by their build rule, unless :data:`ADVICE_BY_RULES` names them)."""
    return ADVICE_BY_RULES.get((rules.build, rules.stock, rules.empty_column), ADVICE_BY_BUILD[rules.build])


def preference(view: VisiblePosition, move: Move, advice: Advice | None = None) -> float:
    """How much the advice (the rules' own unless given) likes ``move`` here (higher is better); reads only
    the view."""
    return (advice_for(view.rules) if advice is None else advice).preference(view, move)


__all__ = ["ADVICE_BY_BUILD", "ADVICE_BY_RULES", "CLASSIC", "PATIENT", "SAME_SUIT", "Advice", "advice_for",
           "preference"]
