"""The request bodies of the API: pydantic models, strict (no extra field, no string for a number)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from ..advisor import HONEST, HintKind
from ..deal import MAX_SEED
from ..pysolfc import NUMBERINGS
from ..rules import OPTIONS, VARIANTS
from . import deals


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


def _whole_number(value: Any) -> Any:
    """JSON has one number type: ``7.0`` is the integer 7 (as JSON Schema says); ``7.5`` stays refused."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


#: A count, in the JSON sense (an integral float such as ``7.0`` counts; a string or bool does not).
Count = Annotated[int, Field(ge=0), BeforeValidator(_whole_number)]
#: A deal number: the engine checks the upper bound (400), the schema says it too.
Seed = Annotated[int, Field(ge=0, json_schema_extra={"maximum": MAX_SEED}), BeforeValidator(_whole_number)]


class NewGameBody(_Body):
    variant: str = Field(default="yukon", json_schema_extra={"enum": list(VARIANTS)})
    options: dict[str, Any] = Field(
        default_factory=dict,
        json_schema_extra={"properties": {k: {"enum": list(v)} for k, v in OPTIONS.items()},
                           "additionalProperties": False},
    )
    seed: Seed | None = None
    #: what the deal number means: this program's deals, or PySolFC's game numbers (docs/records.md)
    numbering: str = Field(default="yukon", json_schema_extra={"enum": list(NUMBERINGS)})
    position: dict[str, Any] | None = None
    winnable_only: bool = False
    #: which deal (docs/difficulty.md): any, a winnable one (of a ``difficulty``), or one proven lost
    deal: str | None = Field(default=None, json_schema_extra={"enum": list(deals.KINDS)})
    difficulty: str | None = Field(default=None, json_schema_extra={"enum": list(deals.GRADES)})
    autoplay: bool = False
    autofinish: bool = False
    abandon: str | None = None


class ImportBody(_Body):
    record: dict[str, Any]
    abandon: str | None = None


class MoveBody(_Body):
    move: str
    autoplay: bool = False
    autofinish: bool = False
    #: the move count the client saw (its state's ``move_count``): the move is refused when the game has
    #: moved on since (a retry of a move that was played, a second tab), which a deal, naming no card, is not
    at: Count | None = None


class CheckBody(_Body):
    move: str


class AutoBody(_Body):
    autoplay: bool = True
    autofinish: bool = True


class UndoBody(_Body):
    to: Count | None = None


class ClockBody(_Body):
    running: bool


class HintBody(_Body):
    #: ``honest``: it sees what the player sees (the default); ``solver``: it sees the face-down cards
    kind: HintKind = HONEST


