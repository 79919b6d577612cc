"""A clock the test moves by hand (the ``clock`` fixture of conftest.py), so that times are exact."""

from __future__ import annotations


class FakeClock:
    """A clock the test moves by hand, so that times are exact."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now
