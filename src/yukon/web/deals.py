"""The shipped verdicts at the web table: a deal of a kind for the New dialog, and a deal's difficulty.

The New dialog offers any deal, a winnable deal (of a difficulty: docs/difficulty.md) and a deal
proven lost; those of a difficulty and the lost ones come from the shipped verdicts alone
(:func:`yukon.winnable_deals.pick_deal`), at once. ``GET /api/deals/difficulty`` says how hard a
deal is when the data knows it (the table shows it beside the deal number); like the grade
itself, it answers for deals proven winnable only (``null`` otherwise: no lost/undecided spoiler).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from .. import deal_data
from ..deal import MAX_SEED
from ..deal_data import VerdictDataError
from ..difficulty import GRADES
from ..errors import YukonError
from ..rules import OPTIONS, VARIANTS, Rules, rules_for
from ..winnable_deals import KINDS, NoSuchDealError, pick_deal

router = APIRouter()


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
    found = pick_deal(rules, kind, difficulty)
    extra: dict[str, Any] = {"deal_note": found.note, "deal_kind": kind}
    if found.status in ("won", "lost"):
        extra["deal_winnable"] = found.status
    return found.seed, extra


def has_data(rules: Rules) -> bool:
    """Do the shipped verdicts have deals of these rules (a winnable one is then drawn from them)?"""
    try:
        return deal_data.has_verdicts(rules)
    except VerdictDataError:
        return False


def difficulty_of(rules: Rules, seed: int) -> dict[str, Any]:
    try:
        verdict = deal_data.verdict_for(rules, seed)
    except VerdictDataError:
        verdict = None  # a damaged data file: the table shows no grade, as for an unknown deal
    if verdict is None or verdict.status != "won" or verdict.difficulty is None:
        return {"difficulty": None, "solver_version": None}
    return {"difficulty": verdict.difficulty, "solver_version": verdict.solver_version}


@router.get("/api/deals/difficulty")
def deal_difficulty(
    seed: Annotated[int, Query(ge=0, le=MAX_SEED)],
    variant: Annotated[str, Query(json_schema_extra={"enum": list(VARIANTS)})] = "yukon",
    empty_column: Annotated[str | None, Query(json_schema_extra={"enum": list(OPTIONS["empty_column"])})] = None,
    foundation_return: bool | None = None,
) -> dict[str, Any]:
    """How hard this deal of these rules is (easy, medium, hard, expert), when the shipped verdicts
    prove it winnable; ``null`` otherwise."""
    options: dict[str, Any] = {}
    if empty_column is not None:
        options["empty_column"] = empty_column
    if foundation_return is not None:
        options["foundation_return"] = foundation_return
    return difficulty_of(rules_for(variant, **options), seed)


__all__ = ["GRADES", "KINDS", "DealChoiceError", "NoSuchDealError", "check_choice", "difficulty_of", "has_data", "pick",
           "router"]
