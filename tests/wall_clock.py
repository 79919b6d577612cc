"""Wall-clock checks that hold on a loaded machine and can still fail.

A time limit or a stop is honoured within milliseconds of CPU, but on a shared machine CPU comes late: at
a load average of 15 on 2 cores a runnable thread gets about an eighth of a core, and the milliseconds
after a deadline or a stop become a fraction of a second. So a check here

- times only what the code under test controls: from the moment the stop is set (:class:`TimedStop`), or
  from the call that keeps the limit, never a key's delivery or a process's start;
- allows :data:`LOADED` seconds for it;
- runs work that would last far longer than that unstopped (an endless budget, a 30 s limit on a deal
  undecided after it, a stand-in that waits until released), so that an ignored stop or limit still fails.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: Seconds a call may take past a time limit it keeps or a stop it honours, or for work of milliseconds
#: of CPU, at a load average of 15 (about 0.3 s of CPU at an eighth of a core, and the waits for a core).
LOADED = 3.0


class TimedStop(threading.Event):
    """A stop event that remembers when it was set (``time.perf_counter()``)."""

    def __init__(self) -> None:
        super().__init__()
        self.set_at: float | None = None

    def set(self) -> None:
        self.set_at = time.perf_counter()
        super().set()

    def since(self) -> float:
        """Seconds since the stop was set; fails the test if it never was (the call ended by itself)."""
        assert self.set_at is not None, "the call ended before the stop was set: its work was too short"
        return time.perf_counter() - self.set_at


def stop_after(seconds: float) -> TimedStop:
    """A :class:`TimedStop` that a timer sets in ``seconds``."""
    event = TimedStop()
    timer = threading.Timer(seconds, event.set)
    timer.daemon = True
    timer.start()
    return event


def timed(call: Callable[..., T], *args: object, **kwargs: object) -> tuple[T, float]:
    """``call(*args, **kwargs)`` and the seconds it took."""
    start = time.perf_counter()
    result = call(*args, **kwargs)
    return result, time.perf_counter() - start
