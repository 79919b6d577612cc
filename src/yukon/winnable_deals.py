"""Winnable deals only: a random deal number whose deal the solver proves winnable.

Shared by the web table's "winnable deals only" (:mod:`yukon.web.solving`) and the terminal
game's new-game screen, so that both look for a deal the same way. First the shipped verdicts
(:mod:`yukon.deal_data`): when they have won deals of these rules, one of them is drawn at once,
no solving at deal time. Otherwise random deal numbers, each given ``per_deal`` seconds, at most
``budget`` seconds in all; when none is proved winnable in time, the last one tried is offered and
honestly marked as not proved. :func:`pick_deal` draws a deal of a kind (winnable, of a
difficulty; proven lost) from the shipped verdicts alone.

>>> import threading
>>> from yukon import Game
>>> found = find_winnable_deal(lambda seed: Game.deal("yukon", seed=seed), threading.Event(), seeds=iter([1]))
>>> found.seed, found.status, found.note
(1, 'won', 'the solver proved this deal winnable')
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from . import deal_data
from .difficulty import GRADES, scale
from .errors import YukonError
from .game import Game
from .rules import Rules

#: Seconds the solver gets per deal, and in all.
DEAL_TIME = 2.0
DEAL_BUDGET = 8.0

PROVED = "the solver proved this deal winnable"
PROVED_LOST = "the solver proved that this deal cannot be won"
#: what the New dialogs offer: kind of deal, and for a winnable one, a difficulty (docs/difficulty.md)
KINDS = ("any", "winnable", "lost")


@dataclass(frozen=True)
class FoundDeal:
    """The deal offered: ``status`` is ``won`` when proved winnable, else ``unknown``."""

    seed: int
    status: str
    note: str
    tried: int = 0
    seconds: float = 0.0


def _random_seeds() -> Iterator[int]:
    while True:
        yield secrets.randbelow(1 << 32)


class NoSuchDealError(YukonError):
    """The shipped verdicts hold no deal of the kind asked for, under these rules."""


def _known(rules: Rules, seed: int) -> deal_data.Verdict | None:
    try:
        return deal_data.verdict_for(rules, seed)
    except deal_data.VerdictDataError:
        return None  # a damaged data file: the solver decides, as without data


def _shipped(rules: Rules, status: str, difficulty: str | None = None) -> tuple[deal_data.Verdict, ...]:
    try:
        if not deal_data.has_verdicts(rules):
            return ()
        return deal_data.verdicts(rules.variant, rules.empty_column, rules.foundation_return, status=status,
                                  difficulty=difficulty)
    except deal_data.VerdictDataError:
        return ()


def described(verdict: deal_data.Verdict) -> str:
    """What the data says of a deal, for a player: ``'the solver proved this deal winnable (hard)'``."""
    if verdict.status == "won":
        return PROVED + (f" ({verdict.difficulty})" if verdict.difficulty else "")
    if verdict.status == "lost":
        return PROVED_LOST
    return "the solver could not decide this deal within its study's limit"


def pick_deal(rules: Rules, kind: str = "winnable", difficulty: str | None = None) -> FoundDeal:
    """A random deal of ``kind`` (``winnable``, optionally of a ``difficulty``; ``lost``) from the shipped
    verdicts, drawn at once; :class:`NoSuchDealError` when the data has none of that kind for these rules.
    ``any`` is a random deal number (the data's word on it, if any, in the note)."""
    if kind not in KINDS:
        raise NoSuchDealError(f"a deal is one of {', '.join(KINDS)}, not {kind!r}")
    if difficulty is not None and (difficulty not in GRADES or kind != "winnable"):
        raise NoSuchDealError(f"a difficulty ({', '.join(GRADES)}) is for a winnable deal, not {difficulty!r} "
                              f"for {kind!r}")
    offered = scale(rules.variant, rules.empty_column, rules.foundation_return)
    if difficulty is not None and difficulty not in offered:
        what = f"is graded {', '.join(offered)} only" if offered else "has no difficulty grade"
        raise NoSuchDealError(f"{rules.title} with these options {what}: the grades its honest games validate "
                              f"(docs/difficulty.md)")
    if kind == "any":  # a random number: nothing said of it (a verdict or a grade would be a spoiler)
        return FoundDeal(next(_random_seeds()), "unknown", "")
    pool = _shipped(rules, "won" if kind == "winnable" else "lost", difficulty)
    if not pool:
        what = f"{difficulty} winnable" if difficulty else "winnable" if kind == "winnable" else "proven lost"
        raise NoSuchDealError(f"the shipped verdicts have no {what} deal of {rules.variant} with these options")
    verdict = pool[secrets.randbelow(len(pool))]
    return FoundDeal(verdict.seed, verdict.status, described(verdict))


def deal_from_data(rules: Rules, kind: str, difficulty: str | None = None) -> FoundDeal | None:
    """The New dialogs' choice answered from the shipped verdicts, or None where the caller deals as before
    (any deal: a random number; a winnable one of rules the data lacks: the solver searches). A lost deal
    or a difficulty the data lacks: :class:`NoSuchDealError`."""
    if kind == "any" and difficulty is None:
        return None
    if kind == "winnable" and difficulty is None and not _shipped(rules, "won"):
        return None
    return pick_deal(rules, kind, difficulty)


def deal_difficulty(rules: Rules, seed: int | None, numbering: str = "yukon") -> str | None:
    """This deal's grade (docs/difficulty.md) when the shipped verdicts prove it winnable and its rules offer
    grades; None otherwise. A grade says the deal can be won: a table shows it through :func:`shown_difficulty`."""
    known = _known(rules, seed) if seed is not None and numbering == "yukon" else None
    return known.difficulty if known is not None and known.status == "won" else None


def shown_difficulty(rules: Rules, seed: int | None, numbering: str, *, told_winnable: bool, over: bool) -> str | None:
    """The grade a table may show beside the deal: only when the player already knows the deal can be won
    (``told_winnable``: they asked for a winnable deal and were dealt one proven so) or once the game is over.
    On a deal dealt by number or as "any deal" it would tell them what the table does not: that it is winnable."""
    return deal_difficulty(rules, seed, numbering) if told_winnable or over else None


def find_winnable_deal(
    make: Callable[[int], Game],
    stop: threading.Event,
    *,
    per_deal: float = DEAL_TIME,
    budget: float = DEAL_BUDGET,
    seeds: Iterator[int] | None = None,
) -> FoundDeal:
    """Deal ``make(seed)`` for random seeds (or ``seeds``) until the solver proves one winnable.

    Without ``seeds``, a won deal of the shipped verdicts of the same rules comes first (no solving); with
    ``seeds``, the verdicts still answer for each seed they know. Honours ``stop`` (set from another
    thread) and ``budget`` within the solver's reaction time.
    """
    started = time.monotonic()
    deadline = started + budget
    if seeds is None:
        rules = make(0).rules
        pool = _shipped(rules, "won")
        if pool:
            verdict = pool[secrets.randbelow(len(pool))]
            return FoundDeal(verdict.seed, "won", PROVED, 0, time.monotonic() - started)
    seeds = seeds or _random_seeds()
    seed = next(seeds)
    tried = 0
    while True:
        tried += 1
        game = make(seed)
        left = deadline - time.monotonic()
        known = _known(game.rules, seed)
        if known is not None and known.status != "unknown":
            status = known.status
        elif game.is_won():
            status = "won"
        elif not game.has_legal_move():
            status = "lost"
        else:
            from . import solve

            status = solve(game, time_limit=max(0.2, min(per_deal, left)), stop=stop).status
        if status == "won":
            return FoundDeal(seed, "won", PROVED, tried, time.monotonic() - started)
        out_of_time = stop.is_set() or time.monotonic() >= deadline
        following = None if out_of_time else next(seeds, None)  # (no deal number drawn that is not tried)
        if following is None:
            within = f" within {budget:g} s" if out_of_time else ""
            note = f"no deal proven winnable{within} ({tried} tried): this one is not proven winnable"
            return FoundDeal(seed, "unknown", note, tried, time.monotonic() - started)
        seed = following


__all__ = ["DEAL_BUDGET", "DEAL_TIME", "KINDS", "FoundDeal", "NoSuchDealError", "deal_difficulty", "deal_from_data",
           "described", "find_winnable_deal", "pick_deal", "shown_difficulty"]
