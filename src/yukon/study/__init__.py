"""Winnability studies: solve ranges of deals, one SQLite row per deal, on one machine or a Dask cluster.

See docs/winnability.md. The command is ``yukon study``; the pieces:

- :mod:`yukon.study.db`: the study file (one study per parameter set; rows never mix).
- :mod:`yukon.study.runner`: what is missing, solved on a process pool or a Dask cluster.
- :mod:`yukon.study.stats`: Wilson intervals and the range unknowns leave open.
- :mod:`yukon.study.report`: Markdown table and PNG plots.
"""

from __future__ import annotations

from .db import DealRow, StudyDB, StudyDBError, StudyParams, default_path
from .runner import RunResult, StudyError, connect, parse_seeds, run_study
from .stats import Summary, wilson

__all__ = [
    "DealRow",
    "RunResult",
    "StudyDB",
    "StudyDBError",
    "StudyError",
    "StudyParams",
    "Summary",
    "connect",
    "default_path",
    "parse_seeds",
    "run_study",
    "wilson",
]
