"""The shipped verdicts at the web table: a deal of a kind for the New dialog.

The New dialog offers any deal, a winnable deal (of a difficulty: docs/difficulty.md) and a deal
proven lost; those of a difficulty and the lost ones come from the shipped verdicts alone
(:func:`yukon.winnable_deals.pick_deal`), at once. The deal's grade comes with the game's state
(``difficulty``), only where it tells the player nothing the table does not
(:func:`yukon.winnable_deals.shown_difficulty`): there is no way to ask the grade of any deal number,
as a grade says the deal can be won.
"""

from __future__ import annotations

from typing import Any

from .. import deal_data
from ..deal_data import VerdictDataError
from ..difficulty import GRADES, SCALES
from ..errors import YukonError
from ..rules import EMPTY_COLUMN, Rules, rules_for
from ..winnable_deals import KINDS, NoSuchDealError, pick_deal


class DealChoiceError(YukonError):
    """A New-game request whose kind of deal or difficulty cannot be honoured as given (400)."""


def check_choice(kind: str | None, difficulty: str | None, seed: int | None, numbering: str,
                 position: object) -> None:
    """Refuse, before anything changes, a kind or difficulty that is unknown or that contradicts the rest."""
    if kind is not None and kind not in KINDS:
        raise DealChoiceError(f"deal is one of {', '.join(KINDS)}, not {kind!r}")
    if difficulty is not None:
        if difficulty not in GRADES:
            raise DealChoiceError(f"difficulty is one of {', '.join(GRADES)}, not {difficulty!r}")
        if kind not in (None, "winnable"):
            raise DealChoiceError(f"a difficulty is for a winnable deal, not for deal {kind!r}")
    if (kind not in (None, "any") or difficulty is not None) and (
            seed is not None or position is not None or numbering != "yukon"):
        raise DealChoiceError("a deal of a kind is drawn from this program's deals: give no seed, position or "
                              "numbering with it")


def pick(rules: Rules, kind: str, difficulty: str | None) -> tuple[int, dict[str, Any]]:
    """A deal of ``kind`` (and ``difficulty``) from the shipped verdicts: its seed and the game's notes.
    :class:`NoSuchDealError` (a YukonError) when the data has none of that kind for these rules."""
    try:
        found = pick_deal(rules, kind, difficulty)
    except NoSuchDealError as exc:
        if kind != "lost" or difficulty is not None:
            raise
        # the engine's words name the variant by its id, in lower case: a player reads the refusal
        raise NoSuchDealError(lost_refusal(rules)) from exc
    extra: dict[str, Any] = {"deal_note": found.note, "deal_kind": kind}
    if found.status in ("won", "lost"):
        extra["deal_winnable"] = found.status
    return found.seed, extra


def grades_offered(variant: str) -> list[dict[str, Any]]:
    """The difficulty grades each option set of ``variant`` offers (docs/difficulty.md), for the New dialog:
    ``[{"empty_column", "foundation_return", "grades"}]``; options not listed offer none."""
    return [{"empty_column": empty, "foundation_return": ret, "grades": list(grades)}
            for (v, empty, ret), grades in SCALES.items() if v == variant]


def lost_refusal(rules: Rules) -> str:
    """Why no deal proven lost can be dealt for these rules, in a player's words (the variant's name)."""
    return f"No deal of {rules.title} with these options is proven lost in the shipped verdicts."


def lost_offered(variant: str) -> list[dict[str, Any]]:
    """The option sets of ``variant`` that have a deal proven lost, for the New dialog:
    ``[{"empty_column", "foundation_return"}]``. Asked of :func:`pick_deal`, the source whose refusal it spares."""
    offered = []
    for empty in EMPTY_COLUMN:
        for ret in (False, True):
            try:
                pick_deal(rules_for(variant, empty_column=empty, foundation_return=ret), "lost")
            except NoSuchDealError:
                continue
            offered.append({"empty_column": empty, "foundation_return": ret})
    return offered


def has_data(rules: Rules) -> bool:
    """Do the shipped verdicts have deals of these rules (a winnable one is then drawn from them)?"""
    try:
        return deal_data.has_verdicts(rules)
    except VerdictDataError:
        return False


__all__ = ["GRADES", "KINDS", "DealChoiceError", "NoSuchDealError", "check_choice", "grades_offered", "has_data",
           "lost_offered", "lost_refusal", "pick"]
