"""Study rows as CSV: ``yukon study export`` writes them, ``yukon study import`` reads them back.

A CSV of a study file is data to commit: the rows survive the machine and the session that made
them, and ``import`` on another machine (then ``run``, which resumes) carries a long study on.
One line per deal, with its study's parameters in the first columns (:data:`COLUMNS`). The
older layout of ``data/honest-study.csv`` (no memory limit, numbering, threads, peak table, host
or line columns) is read too: the missing parameters are left unknown (``memory_limit`` empty,
so such rows form studies of their own) or take their defaults (numbering ``yukon``, one thread).

A file is checked whole before anything is written, and its rows go in one transaction: a bad
file changes nothing, and the error names the file, the line and the column.
"""

from __future__ import annotations

import csv
import gzip
import io
import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from ..cli_common import CommandError, check_new_file
from ..deal import MAX_SEED
from ..pysolfc import MAX_GAME_NUMBER, NUMBERINGS
from ..rules import OPTIONS, VARIANTS
from .db import STATUSES, DealRow, StudyDB, StudyParams

#: the columns ``export`` writes, in order: the study's parameters, then the deal's row
PARAM_COLUMNS = ("variant", "empty_column", "foundation_return", "time_limit", "node_limit", "memory_limit",
                 "solver_version", "numbering", "threads")
ROW_COLUMNS = ("seed", "status", "seconds", "nodes", "line_length", "peak_table", "reason", "host", "code", "line")
COLUMNS = PARAM_COLUMNS + ROW_COLUMNS
#: columns a file must have (the rest take the defaults above)
REQUIRED = ("variant", "empty_column", "foundation_return", "time_limit", "node_limit", "solver_version", "seed",
            "status", "seconds", "nodes", "line_length")


class TransferError(CommandError):
    """A CSV file that cannot be read as study rows (one line, naming the file and line)."""


def _blank(value: float | int | None) -> str:
    return "" if value is None else repr(value) if isinstance(value, float) else str(value)


def export_rows(db: StudyDB, out: IO[str], solver: str | None = None) -> int:
    """Write every row of every study of ``db`` (of the ``solver`` versions, a comma list) as CSV to ``out``;
    the number of rows written."""
    wanted = None if solver is None else {v.strip() for v in solver.split(",")}
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    count = 0
    for study_id, p in db.studies():
        if wanted is not None and p.solver_version not in wanted:
            continue
        params = (p.variant, p.empty_column, int(p.foundation_return), _blank(p.time_limit), _blank(p.node_limit),
                  _blank(p.memory_limit), p.solver_version, p.numbering, p.threads)
        for r in db.rows(study_id):
            writer.writerow((*params, r.seed, r.status, repr(r.seconds), r.nodes, r.line_length, r.peak_table,
                             r.reason, r.host, r.code, r.line))
            count += 1
    return count


@contextmanager
def _text_out(path: str | None) -> Iterator[IO[str]]:
    if path is None or path == "-":
        yield sys.stdout
        return
    target = Path(path)
    if target.is_dir():
        raise CommandError(f"{target} is a folder: give a file name for --output")
    check_new_file(target, "--output")
    part = target.with_name(target.name + ".part")  # a run that fails leaves the old file as it was
    if target.suffix == ".gz":
        # mtime=0: the same rows give the same bytes (the file is committed; no diff without a change)
        with open(part, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz, \
                io.TextIOWrapper(gz, encoding="utf-8", newline="") as text:
            yield text
    else:
        with open(part, "w", encoding="utf-8", newline="") as text:
            yield text
    part.replace(target)


def export_command(db: StudyDB, output: str | None, *, solver: str | None, verdicts: bool) -> int:
    if verdicts:
        from .verdicts_build import write_verdicts

        if solver is not None:
            raise CommandError("--verdicts takes each variant's newest solver version: --solver is for the rows")
        with _text_out(output) as out:
            summary = write_verdicts(db, out)
        print(f"wrote {output or 'stdout'}: {summary}", file=sys.stderr)
        return 0
    with _text_out(output) as out:
        count = export_rows(db, out, solver)
    print(f"wrote {count:,} rows to {output or 'stdout'}", file=sys.stderr)
    return 0


# ---------------------------------------------------------------------------------------------- import

_SQLITE_MAGIC = b"SQLite format 3\x00"
_GZIP_MAGIC = b"\x1f\x8b"


def _opener(path: Path) -> IO[str]:
    """The file as text, gzip-compressed or not by its first bytes (not its name: an export written to
    ``rows.csv`` and renamed ``rows.csv.gz`` is read too). A study database or another SQLite file, the
    likeliest wrong file, is named as such (the CSV reader would say only "not UTF-8")."""
    with open(path, "rb") as f:
        head = f.read(len(_SQLITE_MAGIC))
    if head == _SQLITE_MAGIC:
        raise TransferError(f"{path} is an SQLite database, not a study export: 'yukon study import' reads the CSV "
                            f"that 'yukon study export' writes (yukon study export --db {path} --output rows.csv.gz, "
                            "then import rows.csv.gz)")
    if head.startswith(_GZIP_MAGIC):
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", newline="")
    return open(path, encoding="utf-8", newline="")


def _number(text: str, what: str, *, whole: bool, optional: bool) -> Any:
    text = text.strip()
    if not text:
        if optional:
            return None
        raise ValueError(f"{what} is empty")
    try:
        value: float | int = int(text) if whole else float(text)
    except ValueError:
        raise ValueError(f"{what} is not a {'whole ' if whole else ''}number: {text[:30]!r}") from None
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{what} must be a finite number, not negative: {text[:30]!r}")
    return value


def _flag(text: str) -> bool:
    value = text.strip().lower()
    if value in ("0", "false", "off"):
        return False
    if value in ("1", "true", "on"):
        return True
    raise ValueError(f"foundation_return is 0 or 1, not {text[:30]!r}")


def parse_row(fields: dict[str, str]) -> tuple[StudyParams, DealRow]:
    """One CSV line as its study's parameters and its row; ValueError naming the column otherwise."""
    get = lambda name: (fields.get(name) or "")  # noqa: E731 - a missing optional column reads as empty
    variant = get("variant").strip()
    if variant not in VARIANTS:
        raise ValueError(f"variant {variant[:30]!r} is not one of {', '.join(VARIANTS)}")
    empty = get("empty_column").strip()
    if empty not in OPTIONS["empty_column"]:
        raise ValueError(f"empty_column {empty[:30]!r} is not one of {', '.join(OPTIONS['empty_column'])}")
    numbering = get("numbering").strip() or "yukon"
    if numbering not in NUMBERINGS:
        raise ValueError(f"numbering {numbering[:30]!r} is not one of {', '.join(NUMBERINGS)}")
    time_limit = _number(get("time_limit"), "time_limit", whole=False, optional=True)
    node_limit = _number(get("node_limit"), "node_limit", whole=True, optional=True)
    memory_limit = _number(get("memory_limit"), "memory_limit", whole=True, optional=True)
    threads = _number(get("threads"), "threads", whole=True, optional=True) or 1
    version = get("solver_version").strip()
    if not version:
        raise ValueError("solver_version is empty")
    params = StudyParams(variant, empty, _flag(get("foundation_return")), time_limit, node_limit, memory_limit,
                         version, numbering, threads)
    seed = _number(get("seed"), "seed", whole=True, optional=False)
    largest = MAX_GAME_NUMBER if numbering == "pysolfc" else MAX_SEED  # (PySolFC's numbers run further)
    if seed > largest:
        raise ValueError(f"seed {seed} is larger than {largest} (numbering {numbering})")
    status = get("status").strip()
    if status not in STATUSES:
        raise ValueError(f"status {status[:30]!r} is not one of {', '.join(STATUSES)}")
    row = DealRow(seed, status, _number(get("seconds"), "seconds", whole=False, optional=False),
                  _number(get("nodes"), "nodes", whole=True, optional=False),
                  _number(get("line_length"), "line_length", whole=True, optional=False),
                  _number(get("peak_table"), "peak_table", whole=True, optional=True) or 0,
                  get("reason"), version, get("host"), get("code"), get("line").strip())
    return params, row


def read_rows(path: Path) -> list[tuple[StudyParams, DealRow]]:
    """Every row of one CSV file, checked; :class:`TransferError` naming the file and line otherwise."""
    try:
        with _opener(path) as f:
            reader = csv.DictReader(f)
            header = reader.fieldnames or []
            missing = [c for c in REQUIRED if c not in header]
            if missing:
                raise TransferError(f"{path}: not a study export (no column {', '.join(missing)})")
            out = []
            for fields in reader:
                try:
                    out.append(parse_row(fields))
                except ValueError as exc:
                    raise TransferError(f"{path}, line {reader.line_num}: {exc}") from None
            return out
    except UnicodeDecodeError as exc:
        raise TransferError(f"cannot read {path}: not UTF-8 text ({exc.reason}), so not a study export") from None
    except (OSError, EOFError, gzip.BadGzipFile, csv.Error) as exc:
        raise TransferError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None


def import_rows(db: StudyDB, rows: list[tuple[StudyParams, DealRow]]) -> tuple[int, int, int]:
    """Add ``rows`` in one transaction: (added, already there with the same status, already there with
    another status). A row never replaces one the study has."""
    added = same = other = 0
    ids: dict[StudyParams, int] = {}
    known: dict[int, dict[int, str]] = {}
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        for params, row in rows:
            sid = ids.get(params)
            if sid is None:
                got = db.study_id(params)
                assert got is not None
                sid = ids[params] = got
                known[sid] = {r.seed: r.status for r in db.rows(sid)}
            before = known[sid].get(row.seed)
            if before is None:
                db.add(sid, row)
                known[sid][row.seed] = row.status
                added += 1
            elif before == row.status:
                same += 1
            else:
                other += 1
        db.conn.execute("COMMIT")
    except BaseException:
        db.conn.execute("ROLLBACK")
        raise
    return added, same, other


def read_files(files: list[Path]) -> list[tuple[StudyParams, DealRow]]:
    """The rows of every file, each checked (:class:`TransferError` for the first bad one)."""
    rows: list[tuple[StudyParams, DealRow]] = []
    for path in files:
        rows += read_rows(path)
    return rows


def import_command(db: StudyDB, rows: list[tuple[StudyParams, DealRow]]) -> int:
    """Add ``rows`` (:func:`read_files`: every file checked before the first row is written)."""
    added, same, other = import_rows(db, rows)
    print(f"{added:,} rows added to {db.path}, {same:,} were there already"
          + (f", {other:,} were there with another status (kept as they were)" if other else ""), file=sys.stderr)
    return 0


__all__ = ["COLUMNS", "TransferError", "export_rows", "import_rows", "parse_row", "read_files", "read_rows"]
