"""Deal numbers in SQLite without loss.

A deal number runs from 0 to 2**64 - 1 (``yukon.deal.MAX_SEED``), but an SQLite
INTEGER holds 64 signed bits. Both stores (saved games and studies) keep a deal
number as the signed integer with the same 64 bits, so every deal number is
stored exactly and reads back as itself.

>>> to_sql(2**64 - 1), from_sql(to_sql(2**64 - 1)) == 2**64 - 1
(-1, True)
>>> to_sql(7), from_sql(None)
(7, None)

PySolFC's game numbers run further, to 10**20 - 1 (:mod:`yukon.pysolfc`), past any SQLite integer: the
study file keeps a number from 2**64 up as a BLOB of 16 bytes, big-endian (:func:`wide_to_sql`). SQLite
sorts every BLOB after every number and BLOBs of one length as their numbers, so a study still lists its
rows in order.

>>> wide_to_sql(7), wide_to_sql(2**64 - 1), wide_from_sql(wide_to_sql(10**20 - 1)) == 10**20 - 1
(7, -1, True)
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


#: The width of a number stored as a BLOB (every one as wide: SQLite compares BLOBs byte by byte).
_WIDE_BYTES = 16
#: The largest number :func:`wide_to_sql` stores.
WIDEST = (1 << (8 * _WIDE_BYTES)) - 1


def wide_to_sql(number: int) -> int | bytes:
    """What SQLite stores for ``number`` (0 to 2**128 - 1): :func:`to_sql`'s integer below 2**64, a BLOB
    from there on."""
    if 0 <= number < _FULL:
        return to_sql(number)
    if not _FULL <= number <= WIDEST:
        raise ValueError(f"a deal number is an int from 0 to {WIDEST}, not {number!r}")
    return number.to_bytes(_WIDE_BYTES, "big")


def wide_from_sql(value: int | bytes) -> int:
    """The number that :func:`wide_to_sql` stored as ``value``."""
    if isinstance(value, bytes):
        return int.from_bytes(value, "big")
    return from_sql(value)
