"""Positions shared by the terminal game's tests, a wait for the app, and the suite's fake clock
(tests/fake_clock.py)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

sys.path.insert(0, str(Path(__file__).parent.parent))  # tests/, for the clock every suite shares

from fake_clock import FakeClock

__all__ = ["CERTAIN_WIN", "NEARLY_WON", "ONE_FROM_LOST", "FakeClock", "wait_for"]

#: One move from a win: KH (on QC) goes up, then QC, KC and KD are safe and follow.
NEARLY_WON = "yukon,kings,noreturn QCKH/KD/KC/-/-/-/- KS/QH/QD/JC"
#: Every card face up and in order: auto-finish (``e``) wins it.
CERTAIN_WIN = "yukon,kings,noreturn KHQC/KD/KC/-/-/-/- KS/QH/QD/JC"
#: One move (10♣ up) from lost: then only the four Queens are face up, with nothing to go on.
ONE_FROM_LOST = "yukon,kings,noreturn JSKH.QS/JHKS.QH/JDKC.QD/JCKD.QC/TC/-/- TS/TH/TD/9C"




async def wait_for(pilot: Pilot[None], done: Callable[[], object], seconds: float = 60.0) -> None:
    """Let the app run until ``done()`` holds; fails after ``seconds`` (a loaded machine is slow, not stuck)."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"timed out after {seconds:g} s"
        await pilot.pause(0.02)
