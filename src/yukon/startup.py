"""A Ctrl-C while ``python -m yukon`` loads ends it quietly with 130 (128 + SIGINT), as once it runs.

Python imports the package before it looks for its ``__main__``, so nothing of the command can catch an
interrupt in that first tenth of a second: while it does, this module (the package's first import) has
SIGINT exit at once, and :mod:`yukon.__main__` gives Ctrl-C back to Python's handler before the command
line runs (the command line answers it from there). A program that imports yukon keeps its own handler.
"""

from __future__ import annotations

import itertools
import signal
import sys


def interrupted(signum: int, frame: object) -> None:
    """The SIGINT handler while the command loads: exit, quietly (no KeyboardInterrupt to print), with the
    command line's :data:`yukon.cli_common.EXIT_INTERRUPTED` (not imported: this module is the first to load)."""
    raise SystemExit(130)


def running_as_command() -> bool:
    """True while ``python -m yukon ...`` looks for the package's ``__main__`` (``sys.argv[0]`` is ``-m`` until
    then; ``python -m yukon.something`` is not the command)."""
    if getattr(sys, "argv", [None])[:1] != ["-m"]:
        return False
    argv = list(getattr(sys, "orig_argv", []))
    return "-myukon" in argv or any(a == "-m" and b == "yukon" for a, b in itertools.pairwise(argv))


def command_runs() -> None:
    """The command line's own handling of Ctrl-C answers it from here on (main's, and the terminal game's)."""
    if signal.getsignal(signal.SIGINT) is interrupted:
        signal.signal(signal.SIGINT, signal.default_int_handler)


if running_as_command() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, interrupted)


__all__ = ["command_runs", "interrupted", "running_as_command"]
