"""A value that the xdist workers of one pytest run compute once between them, not once each."""

from __future__ import annotations

import fcntl
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def once_per_run(path: Path, build: Callable[[], T]) -> T:
    """``build()``, kept in ``path`` (a file in the run's own temporary folder, new each run): under a lock
    beside it, the first worker to come builds the value and pickles it there; the others wait and load it."""
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # (released when the file closes)
        if path.exists():
            value: T = pickle.loads(path.read_bytes())
            return value
        value = build()
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(pickle.dumps(value))
        tmp.replace(path)
        return value
