"""Schema versions of an SQLite file, kept in ``PRAGMA user_version``, and the steps between them.

Both stores (saved games, studies) describe their schema as a list of steps:
step ``n`` turns a file of version ``n - 1`` into version ``n`` (step 1 sets up
a new, empty file). :func:`migrate` runs the steps a file lacks, each in its
own transaction that also records the new version, so a file is always at
exactly one version, even after a crash in the middle of an upgrade. A file of
a version newer than the steps know is refused before anything is written.

>>> import sqlite3
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> steps = ["CREATE TABLE t (a INTEGER)", "ALTER TABLE t ADD COLUMN b TEXT"]
>>> migrate(db, steps)
(0, 2)
>>> migrate(db, steps)  # nothing left to do
(2, 2)
>>> [r[1] for r in db.execute("PRAGMA table_info(t)")]
['a', 'b']
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence

#: ``PRAGMA application_id`` of yukon's two kinds of SQLite file: "YUKN" the game store, "YUKS" a study file.
GAME_STORE_ID = 0x59554B4E
STUDY_ID = 0x59554B53
#: what each is, for the message when one is given where the other belongs (the same --db option names both)
KINDS = {GAME_STORE_ID: "yukon's game store (the games and statistics of 'yukon play' and 'yukon tui')",
         STUDY_ID: "a yukon study database (of 'yukon study run')"}

#: One schema step: SQL statements (``;``-separated), or a function of the connection.
Step = str | Callable[[sqlite3.Connection], None]


class SchemaTooNewError(Exception):
    """The file was written by a newer program: its version is above every step known here."""

    def __init__(self, version: int, known: int) -> None:
        super().__init__(f"schema {version}, this one knows {known}")
        self.version = version
        self.known = known


def user_version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite3.Connection, steps: Sequence[Step]) -> tuple[int, int]:
    """Bring ``db`` (opened with ``isolation_level=None``) up to version ``len(steps)``.

    Returns ``(version before, version after)``. Raises :class:`SchemaTooNewError`,
    changing nothing, for a file of a newer version.
    """
    before = user_version(db)
    target = len(steps)
    if before > target:
        raise SchemaTooNewError(before, target)
    for version in range(before + 1, target + 1):
        step = steps[version - 1]
        db.execute("BEGIN IMMEDIATE")
        try:
            if user_version(db) >= version:  # another connection upgraded the file meanwhile
                db.execute("ROLLBACK")
                continue
            if isinstance(step, str):
                for statement in step.split(";"):
                    if statement.strip():
                        db.execute(statement)
            else:
                step(db)
            db.execute(f"PRAGMA user_version={version}")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
    return before, max(before, target)


__all__ = ["SchemaTooNewError", "Step", "migrate", "user_version"]
