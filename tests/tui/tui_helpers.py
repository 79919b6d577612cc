"""Positions and a fake clock shared by the terminal game's tests."""

from __future__ import annotations

#: One move from a win: KH (on QC) goes up, then QC, KC and KD are safe and follow.
NEARLY_WON = "yukon,kings,noreturn QCKH/KD/KC/-/-/-/- KS/QH/QD/JC"
#: Every card face up and in order: auto-finish (``e``) wins it.
CERTAIN_WIN = "yukon,kings,noreturn KHQC/KD/KC/-/-/-/- KS/QH/QD/JC"
#: One move (10♣ up) from lost: then only the four Queens are face up, with nothing to go on.
ONE_FROM_LOST = "yukon,kings,noreturn JSKH.QS/JHKS.QH/JDKC.QD/JCKD.QC/TC/-/- TS/TH/TD/9C"


class FakeClock:
    """A clock the test moves by hand, so that times are exact."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now
