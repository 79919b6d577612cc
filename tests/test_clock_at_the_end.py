"""The play session's clock stops when the game ends, won or lost, and runs again out of a dead end."""

from __future__ import annotations

from yukon import Game
from yukon.session import PlaySession

#: One move (10♣ up) from lost: then only the four Queens are face up, with nothing to go on.
ONE_FROM_LOST = "yukon,kings,noreturn JSKH.QS/JHKS.QH/JDKC.QD/JCKD.QC/TC/-/- TS/TH/TD/9C"


class FakeClock:
    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


def test_the_clock_stops_at_a_dead_end_and_runs_again_after_undo() -> None:
    clock = FakeClock()
    s = PlaySession(Game.from_text(ONE_FROM_LOST), None, client="test", clock=clock)
    s.play("5:TC>F")
    assert s.status == "lost" and not s.clock_running
    clock.now += 40  # the lost box stays up a while: not played time
    assert s.elapsed == 0
    s.undo()
    assert s.clock_running
    clock.now += 70
    s.redo()  # the dead end again, 70 s later
    assert s.status == "lost" and not s.clock_running and s.elapsed == 70
    clock.now += 22
    assert s.elapsed == 70
    s.start_clock()  # a caller asking (the web page shown again) does not restart it at a dead end
    clock.now += 5
    assert s.elapsed == 70 and not s.clock_running
