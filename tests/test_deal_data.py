"""yukon.verdicts(): the shipped verdicts file, its loader, its winning lines and its difficulty grades."""

from __future__ import annotations

import csv
import gzip
import io
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import yukon
from yukon import deal_data
from yukon.deal_data import COLUMNS, Verdict, VerdictDataError, VerdictQueryError, load, verdict_for, verdicts
from yukon.difficulty import CANDIDATES, GRADES, SCALES, Deal, discriminates, grade, held_out, scale, thresholds
from yukon.rules import rules_for
from yukon.solver import solver_version
from yukon.study import DealRow, StudyDB, StudyParams
from yukon.study.verdicts_build import write_verdicts
from yukon.study.worker import DealTask, solve_deal

REPO = Path(__file__).resolve().parents[1]
SHIPPED = REPO / "src" / "yukon" / "data" / "verdicts.csv.gz"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A verdicts file made by the export from real rows: Russian deals 1-4 and 22, Yukon deal 1 (solver),
    an older solver version's rows (not exported) and an honest game of Yukon deal 1."""
    folder = tmp_path_factory.mktemp("verdicts")
    with StudyDB(folder / "s.sqlite3") as db:
        for variant, seeds in (("russian", [1, 2, 3, 4, 22]), ("yukon", [1])):
            params = StudyParams(variant, "kings", False, 5.0, None, 10**8, solver_version(rules_for(variant)))
            sid = db.study_id(params)
            assert sid is not None
            for seed in seeds:
                assert db.add(sid, solve_deal(DealTask(variant, "kings", False, seed, 5.0, None, 10**8)))
        old = db.study_id(StudyParams("russian", "kings", False, 5.0, None, 10**8, "1"))
        assert old is not None
        db.add(old, DealRow(9, "won", 1.0, 10, 5, 0, "", "1", "h"))
        honest = db.study_id(StudyParams("yukon", "kings", False, None, None, 10**8, "honest-1 2x100"))
        assert honest is not None
        db.add(honest, DealRow(1, "lost", 1.0, 10, 5, 0, "repeats", "honest-1 2x100", "h"))
        path = folder / "verdicts.csv.gz"
        with gzip.open(path, "wt", encoding="utf-8", newline="") as out:
            write_verdicts(db, out)
    return path


def test_the_loader_reads_what_the_export_wrote(built: Path) -> None:
    got = load(built)
    assert [(v.variant, v.seed) for v in got] == [("yukon", 1), *[("russian", s) for s in (1, 2, 3, 4, 22)]]
    assert all(isinstance(v, Verdict) and v.solver_version == solver_version(rules_for(v.variant)) for v in got)
    one = verdict_for(rules_for("yukon"), 1, path=built)
    assert one is not None and one.status == "won" and one.honest == "lost" and one.line_length > 0
    assert one.difficulty in GRADES and one.time_limit == 5.0 and one.node_limit is None and one.threads == 1
    assert verdict_for(rules_for("russian"), 9, path=built) is None  # the older version's row is history
    lost = verdicts("russian", status="lost", path=built)
    assert lost and all(v.status == "lost" and v.difficulty is None and v.line == "" for v in lost)
    won = verdicts("russian", "kings", False, status="won", path=built)
    assert [v.seed for v in won] == [22]
    for v in (one, *won):
        game = v.game()
        for move in v.moves():
            game.push(move)
        assert game.is_won()


def test_queries_are_cached_and_filters_combine(built: Path) -> None:
    a = verdicts("russian-solitaire", status="lost", path=built)  # an alias is its variant
    assert a is verdicts("russian", status="lost", path=built)  # the same tuple: a lookup
    assert verdicts(status="won", difficulty="easy", path=built) == tuple(
        v for v in load(built) if v.status == "won" and v.difficulty == "easy")
    assert verdicts("alaska", path=built) == ()
    assert verdicts("russian", empty_column="any", path=built) == ()
    assert verdicts("russian", numbering="pysolfc", path=built) == ()


@pytest.mark.parametrize("kwargs, error", [
    ({"variant": "klondike"}, yukon.UnknownVariantError),
    ({"empty_column": "queens"}, VerdictQueryError),
    ({"status": "winnable"}, VerdictQueryError),
    ({"difficulty": "impossible"}, VerdictQueryError),
    ({"foundation_return": "yes"}, VerdictQueryError),
    ({"numbering": "PySol"}, VerdictQueryError),  # (it matched no row: an empty answer, no error)
])
def test_a_bad_query_is_a_yukon_error(built: Path, kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error) as info:
        verdicts(path=built, **kwargs)  # type: ignore[arg-type]
    assert isinstance(info.value, yukon.YukonError)


def test_one_deal_by_a_variant_name_as_verdicts_takes_it(built: Path) -> None:
    """verdict_for('yukon', 1) raised AttributeError ('str' object has no attribute 'variant')."""
    one = verdict_for(rules_for("yukon"), 1, path=built)
    assert one is not None
    assert verdict_for("yukon", 1, path=built) == one == verdict_for("Classic", 1, path=built)
    assert deal_data.has_verdicts("russian", path=built) and not deal_data.has_verdicts("alaska", path=built)


@pytest.mark.parametrize("call, error, words", [
    (lambda p: verdict_for("klondike", 1, path=p), yukon.UnknownVariantError, "unknown variant 'klondike'"),
    (lambda p: verdict_for(7, 1, path=p), yukon.UnknownVariantError, "variant must be a name, not 7"),
    (lambda p: verdict_for("yukon", "1", path=p), VerdictQueryError, "not '1'"),
    (lambda p: verdict_for("yukon", -1, path=p), VerdictQueryError, "an int from 0 to 18446744073709551615"),
    (lambda p: verdict_for("yukon", 2**64, path=p), VerdictQueryError, "not 18446744073709551616"),
    (lambda p: verdict_for("yukon", True, path=p), VerdictQueryError, "not True"),
    (lambda p: verdict_for("yukon", 0, "pysolfc", path=p), VerdictQueryError, "from 1 to 99999999999999999999"),
    (lambda p: verdict_for("yukon", 1, "PySol", path=p), VerdictQueryError, "numbering is one of yukon, pysolfc"),
    (lambda p: deal_data.has_verdicts("yukon", "PySol", path=p), VerdictQueryError, "not 'PySol'"),
    (lambda p: deal_data.has_verdicts(None, path=p), yukon.UnknownVariantError, "not None"),
    (lambda p: verdicts(status="x" * 10**6, path=p), VerdictQueryError, "status is one of"),
])
def test_a_bad_deal_query_names_its_value(built: Path, call, error: type[Exception], words: str) -> None:
    """A seed that is no deal number found nothing (None), as if no study had it; a str seed too."""
    with pytest.raises(error) as info:
        call(built)
    assert isinstance(info.value, yukon.YukonError) and words in str(info.value) and len(str(info.value)) < 200


def _rewrite(source: Path, target: Path, change) -> Path:
    text = gzip.decompress(source.read_bytes()).decode()
    target.write_bytes(gzip.compress(change(text).encode()))
    return target


@pytest.mark.parametrize("change, words", [
    (lambda t: t.replace("variant,", "game,", 1), "not a verdicts file"),
    (lambda t: t.replace(",won,", ",maybe,", 1), "line 2"),
    (lambda t: t.replace("russian,kings", "russian,kings,extra", 1), "fields"),
])
def test_a_damaged_file_is_one_clear_error(built: Path, tmp_path: Path, change, words: str) -> None:
    bad = _rewrite(built, tmp_path / "bad.csv.gz", change)
    with pytest.raises(VerdictDataError, match=words):
        load(bad)
    (tmp_path / "junk.csv.gz").write_bytes(b"not gzip at all")
    with pytest.raises(VerdictDataError, match="cannot read"):
        load(tmp_path / "junk.csv.gz")
    with pytest.raises(VerdictDataError, match="missing"):
        load(tmp_path / "none.csv.gz")


def test_the_loader_does_not_import_the_solver() -> None:
    code = ("import sys, yukon; v = yukon.verdicts(status='won'); assert v; "
            "print(sorted(m for m in sys.modules if m.startswith('yukon.solver')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(REPO / "src")})
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_the_verdicts_file_is_in_the_wheel() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert "data/*.csv.gz" in config["tool"]["setuptools"]["package-data"]["yukon"]
    assert SHIPPED.exists() and SHIPPED.stat().st_size < 5_000_000


# ---------------------------------------------------------------------------------------- the shipped file

def test_the_shipped_file_covers_every_variant_at_its_default_options() -> None:
    for name, rules in yukon.VARIANTS.items():
        got = verdicts(name, rules.empty_column, rules.foundation_return)
        assert len(got) >= 100, name
        assert {v.status for v in got} <= {"won", "lost", "unknown"}
        assert all(bool(v.line) == (v.status == "won") for v in got if v.status != "won" or v.line)


def test_a_sample_of_shipped_winning_lines_wins() -> None:
    """About 60 won deals of each variant whose line the file keeps, evenly spread over the file: replayed by
    the engine, each wins. (Every 25th was 1115 lines, 5 s of decoding, most of them Yukon's and only 37 of
    Russian; the same count for every variant checks each as well, in a quarter of the time.)"""
    checked = 0
    for name in yukon.VARIANTS:
        won = [v for v in verdicts(name, status="won") if v.line]
        assert won, name
        for v in won[::max(1, len(won) // 60)]:
            game = v.game()
            moves = v.moves()
            assert len(moves) == v.line_length
            for move in moves:
                game.push(move)
            assert game.is_won(), (name, v.seed)
            checked += 1
    assert checked >= 60 * len(yukon.VARIANTS)


def _by_rules() -> dict[tuple[str, str, bool, str], list[Verdict]]:
    by_rules: dict[tuple[str, str, bool, str], list[Verdict]] = {}
    for v in load():
        by_rules.setdefault((v.variant, v.empty_column, v.foundation_return, v.numbering), []).append(v)
    return by_rules


def test_the_shipped_grades_are_reproducible_from_the_shipped_rows() -> None:
    """Recompute each rules set's thresholds from its won rows, on the scale its rules offer, then every grade:
    the file's own; the rules that offer none have no grade at all."""
    for (variant, empty, ret, _), rows in _by_rules().items():
        grades = scale(variant, empty, ret)
        bounds = thresholds((v.nodes for v in rows if v.status == "won" and not v.probe), grades)
        for v in rows:
            assert v.difficulty == grade(v.status, v.probe, v.nodes, bounds, grades), (variant, empty, ret, v.seed)
        won = [v for v in rows if v.status == "won"]
        assert {v.difficulty for v in won} == (set(grades) if won and grades else {None}), (variant, empty, ret)


def test_every_offered_scale_is_validated_by_held_out_honest_games() -> None:
    """docs/difficulty.md's validation, for every rules set: thresholds from the odd deals grade the even ones and
    the other way round; on those held-out grades the honest player's win rate falls from grade to grade and the
    first grade's 95% interval lies above the last's (yukon.difficulty.discriminates). A rules set with honest
    games offers a grade only where some scale passes; one without offers none."""
    seen = set()
    for (variant, empty, ret, numbering), rows in _by_rules().items():
        if numbering != "yukon":
            continue
        seen.add((variant, empty, ret))
        deals = [Deal(v.seed, v.probe, v.nodes, None if v.honest is None else v.honest == "won")
                 for v in rows if v.status == "won"]
        offered = scale(variant, empty, ret)
        where = f"{variant}/{empty}/{'return' if ret else 'no return'}: run bench/difficulty.py, mend SCALES"
        if offered:
            assert any(x.honest_won is not None for x in deals), (
                f"{where}: the file has no honest games of these rules (built without "
                f"data/honest-variants-study.csv.gz? tools/build_verdicts.py imports it)")
            why = discriminates(held_out(deals, offered))
            assert not why, f"{where}: {' / '.join(offered)} is not validated: {why}"
        else:
            passing = [c for c in CANDIDATES if not discriminates(held_out(deals, c))]
            assert not passing, f"{where}: {' / '.join(passing[0])} is validated but not offered"
    assert set(SCALES) <= seen, "a scale for rules the shipped file does not hold"


def test_the_file_is_sorted_and_its_header_is_the_documented_one() -> None:
    text = gzip.decompress(SHIPPED.read_bytes()).decode()
    header = next(csv.reader(io.StringIO(text)))
    assert tuple(header) == COLUMNS
    assert ",".join(COLUMNS) in (REPO / "docs" / "verdicts.md").read_text()
    keys = [(v.variant, v.empty_column, v.foundation_return, v.numbering) for v in deal_data.load()]
    seen: list[tuple] = []
    for k in keys:
        if not seen or seen[-1] != k:
            assert k not in seen, "the rows of one rules set are together"
            seen.append(k)
