"""Rebuild the package's verdicts file (docs/verdicts.md) from the repository's committed study rows.

    python tools/build_verdicts.py                 # from data/verdict-study.csv.gz and the honest games
                                                   # (data/honest-study.csv, data/honest-variants-study.csv.gz)
    python tools/build_verdicts.py --db FILE       # from your study file: its rows are exported to
                                                   # data/verdict-study.csv.gz first, then the verdicts written

Either way the last step is ``yukon study export --verdicts``, writing src/yukon/data/verdicts.csv.gz.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from yukon.cli import main as yukon  # noqa: E402 - after the path: this tree's yukon

ROWS = ROOT / "data" / "verdict-study.csv.gz"
HONEST = ROOT / "data" / "honest-study.csv"
#: the honest player's games of the other variants and options (docs/honest.md), for their grades' validation
HONEST_VARIANTS = ROOT / "data" / "honest-variants-study.csv.gz"
VERDICTS = ROOT / "src" / "yukon" / "data" / "verdicts.csv.gz"


def run(*args: str) -> None:
    code = yukon(["study", *args])
    if code:
        raise SystemExit(code)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path, default=None, help="a study file holding the studies (default: none, "
                    "the committed rows are read into a fresh one)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            db = Path(tmp) / "studies.sqlite3"
            run("import", str(ROWS), str(HONEST), str(HONEST_VARIANTS), "--db", str(db))
        else:
            run("export", "--db", str(db), "--output", str(ROWS))
        run("export", "--verdicts", "--db", str(db), "--output", str(VERDICTS))


if __name__ == "__main__":
    main()
