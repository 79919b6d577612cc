"""Deal numbers in SQLite without loss.

A deal number runs from 0 to 2**64 - 1 (``yukon.deal.MAX_SEED``), but an SQLite
INTEGER holds 64 signed bits. Both stores (saved games and studies) keep a deal
number as the signed integer with the same 64 bits, so every deal number is
stored exactly and reads back as itself.

>>> to_sql(2**64 - 1), from_sql(to_sql(2**64 - 1)) == 2**64 - 1
(-1, True)
>>> to_sql(7), from_sql(None)
(7, None)
"""

from __future__ import annotations

from typing import overload

_HALF = 1 << 63
_FULL = 1 << 64


@overload
def to_sql(seed: int) -> int: ...
@overload
def to_sql(seed: None) -> None: ...
def to_sql(seed: int | None) -> int | None:
    """The signed 64-bit integer SQLite stores for deal number ``seed`` (``None`` stays ``None``)."""
    if seed is None:
        return None
    if not 0 <= seed < _FULL:
        raise ValueError(f"a deal number is an int from 0 to {_FULL - 1}, not {seed!r}")
    return seed - _FULL if seed >= _HALF else seed


@overload
def from_sql(value: int) -> int: ...
@overload
def from_sql(value: None) -> None: ...
def from_sql(value: int | None) -> int | None:
    """The deal number that :func:`to_sql` stored as ``value``."""
    if value is None:
        return None
    return value + _FULL if value < 0 else value
