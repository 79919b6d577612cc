"""The shipped verdicts: every studied deal's verdict, difficulty and winning line, as package data.

``yukon.verdicts(...)`` reads ``yukon/data/verdicts.csv.gz`` (docs/verdicts.md: the format and
the command that makes it) once, and answers each query from memory. It is data: nothing here
imports the solver, and a winning line is replayed by the engine only when asked for
(:meth:`Verdict.moves`).

>>> import yukon
>>> won = yukon.verdicts(variant="yukon", empty_column="kings", foundation_return=False, status="won")
>>> v = next(v for v in won if v.line)   # (won rows imported from the older CSV layout keep no line)
>>> v.status, v.difficulty in ("easy", "medium", "hard", "expert")
('won', True)
>>> game = v.game()
>>> for move in v.moves():
...     game.push(move)
>>> game.is_won()
True
"""

from __future__ import annotations

import csv
import functools
import gzip
import io
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from .deal import MAX_SEED
from .difficulty import GRADES
from .errors import YukonError, shown
from .pysolfc import MAX_GAME_NUMBER, MIN_GAME_NUMBER, NUMBERINGS
from .rules import OPTIONS, VARIANTS, Rules, rules_for

if TYPE_CHECKING:
    from .game import Game
    from .notation import Move

#: the columns of the file, in order (docs/verdicts.md)
COLUMNS = ("variant", "empty_column", "foundation_return", "numbering", "seed", "status", "solver_version",
           "time_limit", "node_limit", "threads", "seconds", "nodes", "line_length", "probe", "honest",
           "difficulty", "line")
STATUSES = ("won", "lost", "unknown")
DATA_FILE = "verdicts.csv.gz"


class VerdictDataError(YukonError):
    """The verdicts file is missing, damaged or of another format."""


class VerdictQueryError(YukonError):
    """A query of :func:`verdicts` with a value that no verdict can have."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """One deal's verdict, as the studies left it (docs/verdicts.md)."""

    variant: str
    empty_column: str
    foundation_return: bool
    numbering: str
    seed: int
    #: won (a winning line was found), lost (proven: no line wins), unknown (the study's limit came first)
    status: str
    solver_version: str
    #: the study's limits per deal (None: none) and the search threads it gave each deal
    time_limit: float | None
    node_limit: int | None
    threads: int
    #: the solver's effort: seconds (on the study's machine) and positions examined
    seconds: float
    nodes: int
    #: moves of the winning line (0 unless won)
    line_length: int
    #: did the solver's greedy probe find the win (the easy deals)?
    probe: bool
    #: how the honest player's game of this deal ended (docs/honest.md): won, lost or None (not played)
    honest: str | None
    #: easy, medium, hard or expert for a won deal (yukon.difficulty); None otherwise
    difficulty: str | None
    #: the winning line in the code of yukon.line_code ('' if none was kept)
    line: str

    @property
    def rules(self) -> Rules:
        """The rules the verdict was found under (its variant and options)."""
        return rules_for(self.variant, empty_column=self.empty_column, foundation_return=self.foundation_return)

    def game(self) -> Game:
        """The deal, at its start."""
        from .game import Game

        return Game.deal(self.rules, seed=self.seed, numbering=self.numbering)

    def moves(self) -> list[Move]:
        """The winning line, replayed from the deal (empty if the file keeps none)."""
        from .line_code import decode

        return decode(self.game(), self.line) if self.line else []


def _data_path() -> Path:
    return Path(str(resources.files("yukon") / "data" / DATA_FILE))


def _number(text: str, kind: type, optional: bool = False) -> float | int | None:
    if optional and not text:
        return None
    return kind(text)


@functools.lru_cache(maxsize=4)
def load(path: Path | None = None) -> tuple[Verdict, ...]:
    """Every verdict of the file (the package's by default), checked, in file order; read once."""
    path = path or _data_path()
    try:
        with gzip.open(path, "rb") as raw, io.TextIOWrapper(raw, encoding="utf-8", newline="") as text:
            reader = csv.reader(text)
            header = next(reader, None)
            if header is None or tuple(header) != COLUMNS:
                raise VerdictDataError(f"{path} is not a verdicts file of this format (columns "
                                       f"{', '.join(COLUMNS[:3])}, ...)")
            out = []
            for fields in reader:
                try:
                    out.append(_verdict(fields))
                except (ValueError, TypeError) as exc:
                    raise VerdictDataError(f"{path}, line {reader.line_num}: {exc}") from None
            return tuple(out)
    except FileNotFoundError:
        raise VerdictDataError(f"the verdicts file {path} is missing (docs/verdicts.md says how to make it)") from None
    except (OSError, EOFError, UnicodeDecodeError, csv.Error) as exc:
        raise VerdictDataError(f"cannot read the verdicts file {path}: {exc}") from None


def _verdict(f: list[str]) -> Verdict:
    if len(f) != len(COLUMNS):
        raise ValueError(f"{len(f)} fields, not {len(COLUMNS)}")
    (variant, empty, ret, numbering, seed, status, version, time_limit, node_limit, threads, seconds, nodes,
     line_length, probe, honest, difficulty, line) = f
    if variant not in VARIANTS or empty not in OPTIONS["empty_column"] or status not in STATUSES:
        raise ValueError(f"unknown variant, option or status: {variant!r}, {empty!r}, {status!r}")
    if difficulty and difficulty not in GRADES:
        raise ValueError(f"unknown difficulty {difficulty!r}")
    return Verdict(variant, empty, ret == "1", numbering, int(seed), status, version,
                   _number(time_limit, float, True), _number(node_limit, int, True),  # type: ignore[arg-type]
                   int(threads), float(seconds), int(nodes), int(line_length), probe == "1", honest or None,
                   difficulty or None, line)


#: (variant, empty_column, foundation_return, numbering) -> that rules set's verdicts, by seed
Index = dict[tuple[str, str, bool, str], dict[int, Verdict]]


@functools.lru_cache(maxsize=4)
def _index(path: Path | None = None) -> Index:
    index: Index = {}
    for v in load(path):
        index.setdefault((v.variant, v.empty_column, v.foundation_return, v.numbering), {})[v.seed] = v
    return index


def _rules_key(rules: Rules, numbering: str) -> tuple[str, str, bool, str]:
    return rules.variant, rules.empty_column, rules.foundation_return, numbering


def verdict_for(rules: Rules | str, seed: int, numbering: str = "yukon", *, path: Path | None = None
                ) -> Verdict | None:
    """The verdict of one deal of these rules (a :class:`Rules`, or a variant name or alias at its default
    options, as :func:`verdicts` takes), or None if no study has it. A seed that is no deal number of
    ``numbering``, or a numbering that does not exist, raises :class:`VerdictQueryError`."""
    rules = _rules_of(rules)
    _check_numbering(numbering)
    low, high = (MIN_GAME_NUMBER, MAX_GAME_NUMBER) if numbering == "pysolfc" else (0, MAX_SEED)
    if isinstance(seed, bool) or not isinstance(seed, int) or not low <= seed <= high:
        raise VerdictQueryError(f"seed is a deal number, an int from {low} to {high} (numbering {numbering}), "
                                f"not {shown(seed)}")
    return _index(path).get(_rules_key(rules, numbering), {}).get(seed)


def has_verdicts(rules: Rules | str, numbering: str = "yukon", *, path: Path | None = None) -> bool:
    """Has the data any verdict of these rules (a :class:`Rules`, or a variant name or alias)?"""
    rules = _rules_of(rules)
    _check_numbering(numbering)
    return bool(_index(path).get(_rules_key(rules, numbering)))


def _rules_of(rules: Rules | str) -> Rules:
    """``rules``, or a variant name's rules; else the rules' own YukonError (an unknown name names the known ones)."""
    return rules if isinstance(rules, Rules) else rules_for(rules)


def _check_numbering(numbering: object) -> None:
    if numbering not in NUMBERINGS:  # (a typo matched no row: an empty answer, as if none were shipped)
        raise VerdictQueryError(f"numbering is one of {', '.join(NUMBERINGS)}, not {shown(numbering)}")


def verdicts(
    variant: str | None = None,
    empty_column: str | None = None,
    foundation_return: bool | None = None,
    status: str | None = None,
    difficulty: str | None = None,
    numbering: str = "yukon",
    *,
    path: Path | None = None,
) -> tuple[Verdict, ...]:
    """The shipped verdicts that match every filter given (None: any), by rules and seed.

    ``variant`` may be an alias (``classic`` is ``yukon``); ``status`` is won, lost or unknown;
    ``difficulty`` easy, medium, hard or expert (only won deals have one). A value no verdict can
    have raises :class:`VerdictQueryError` or the rules' own YukonError; a damaged file
    :class:`VerdictDataError`. The answer is cached: the same query costs a dictionary lookup."""
    if variant is not None:
        variant = rules_for(variant).variant  # an unknown name: UnknownVariantError, naming the variants
    if empty_column is not None and empty_column not in OPTIONS["empty_column"]:
        raise VerdictQueryError(f"empty_column is one of {', '.join(OPTIONS['empty_column'])}, "
                                f"not {shown(empty_column)}")
    if foundation_return is not None and not isinstance(foundation_return, bool):
        raise VerdictQueryError(f"foundation_return is True, False or None, not {shown(foundation_return)}")
    if status is not None and status not in STATUSES:
        raise VerdictQueryError(f"status is one of {', '.join(STATUSES)}, not {shown(status)}")
    if difficulty is not None and difficulty not in GRADES:
        raise VerdictQueryError(f"difficulty is one of {', '.join(GRADES)}, not {shown(difficulty)}")
    _check_numbering(numbering)
    return _query(variant, empty_column, foundation_return, status, difficulty, numbering, path)


@functools.lru_cache(maxsize=256)
def _query(variant: str | None, empty_column: str | None, foundation_return: bool | None, status: str | None,
           difficulty: str | None, numbering: str, path: Path | None) -> tuple[Verdict, ...]:
    out: list[Verdict] = []
    for (v, e, r, n), by_seed in _index(path).items():
        if ((variant is None or v == variant) and (empty_column is None or e == empty_column)
                and (foundation_return is None or r == foundation_return) and n == numbering):
            out += [x for x in by_seed.values() if (status is None or x.status == status)
                    and (difficulty is None or x.difficulty == difficulty)]
    return tuple(out)


__all__ = ["COLUMNS", "Verdict", "VerdictDataError", "VerdictQueryError", "has_verdicts", "load", "verdict_for",
           "verdicts"]
