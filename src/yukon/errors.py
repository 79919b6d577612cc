"""The exceptions of the public contract. All are ``ValueError`` subclasses."""

from __future__ import annotations

import reprlib


class YukonError(ValueError):
    """Base class of every error this package raises for bad input."""


class InvalidPositionError(YukonError):
    """A position (JSON or one-line form) that breaks the rules of its variant."""


class InvalidMoveError(YukonError):
    """Text that is not a move in the notation."""


class IllegalMoveError(YukonError):
    """A well-formed move that is not legal in the current position."""


class InvalidCardError(InvalidPositionError):
    """Text that is not a card."""


class UnknownVariantError(InvalidPositionError):
    """A variant name that the registry does not know."""


class InvalidRulesError(InvalidPositionError):
    """An unknown rule option, or a value the option does not take."""


class InvalidLimitError(YukonError):
    """A solver limit that is not a positive number (or None), or a stop that is not an event."""


class InvalidSeedError(YukonError):
    """A deal number that is not an int from 0 to ``yukon.deal.MAX_SEED`` (or text that is not one)."""


_SHORT = reprlib.Repr()
_SHORT.maxlevel = 3
_SHORT.maxstring = _SHORT.maxother = 60
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 6
_LONGEST = 100


def shown(value: object) -> str:
    """``repr(value)`` cut short for an error message: a 10 MB string or a list nested a million deep
    is quoted in a line (``repr`` itself would echo the megabytes, or raise RecursionError)."""
    try:
        text = _SHORT.repr(value)
        return text if len(text) <= _LONGEST else text[:_LONGEST - 3] + "..."
    except Exception:  # an int of over 4,300 digits has no repr; an object's own __repr__ may fail
        if isinstance(value, int):
            return f"<an int of {value.bit_length()} bits>"
        return f"<a {type(value).__name__}>"
