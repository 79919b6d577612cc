"""A Ctrl-C while the ``yukon`` command loads ends it quietly with 130 (128 + SIGINT), as once it runs.

The command starts two ways: ``python -m yukon`` (Python imports the package before it looks for its
``__main__``) and the ``yukon`` console script (its few lines import :func:`yukon.cli.main`, and the package
with it). Either way nothing of the command can catch an interrupt in that first tenth of a second: while it
loads, this module (the package's first import) has SIGINT exit at once, and the command gives Ctrl-C back to
Python's handler as it starts (:func:`command_runs`: :mod:`yukon.__main__` and :func:`yukon.cli.main` call it),
and answers it from there. A program that imports yukon keeps its own handler.
"""

from __future__ import annotations

import itertools
import re
import signal
import sys
from pathlib import PurePath

#: The console script's file names: ``yukon`` (``yukon.exe``, ``yukon-script.py`` where launchers make them).
_SCRIPT_NAME = re.compile(r"yukon(-script\.pyw?|\.exe)?", re.IGNORECASE)


def interrupted(signum: int, frame: object) -> None:
    """The SIGINT handler while the command loads: exit, quietly (no KeyboardInterrupt to print), with the
    command line's :data:`yukon.cli_common.EXIT_INTERRUPTED` (not imported: this module is the first to load)."""
    raise SystemExit(130)


def running_as_command() -> bool:
    """True while ``python -m yukon ...`` looks for the package's ``__main__`` (``sys.argv[0]`` is ``-m`` until
    then; ``python -m yukon.something`` is not the command), or while the ``yukon`` console script imports the
    package (the script is the main module, and named so)."""
    argv0 = getattr(sys, "argv", [None])[:1]
    if argv0 == ["-m"]:
        argv = list(getattr(sys, "orig_argv", []))
        return "-myukon" in argv or any(a == "-m" and b == "yukon" for a, b in itertools.pairwise(argv))
    return bool(argv0) and isinstance(argv0[0], str) and running_as_console_script(argv0[0])


def running_as_console_script(argv0: str) -> bool:
    """Is ``argv0`` (``sys.argv[0]``) the ``yukon`` console script, run as the main module? (A program of
    another name, or one that only takes the name, ``python -c`` with ``sys.argv[0] = 'yukon'``, is not.)"""
    if not _SCRIPT_NAME.fullmatch(PurePath(argv0).name):
        return False
    main_file = getattr(sys.modules.get("__main__"), "__file__", None)
    if not isinstance(main_file, str):
        return False
    # (the script itself; or, from a Windows launcher, yukon.exe run as the zip it carries: yukon.exe/__main__.py)
    return PurePath(argv0).name in (PurePath(main_file).name, PurePath(main_file).parent.name)


def command_runs() -> None:
    """The command line's own handling of Ctrl-C answers it from here on (main's, and the terminal game's)."""
    if signal.getsignal(signal.SIGINT) is interrupted:
        signal.signal(signal.SIGINT, signal.default_int_handler)


if running_as_command() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, interrupted)


__all__ = ["command_runs", "interrupted", "running_as_command", "running_as_console_script"]
