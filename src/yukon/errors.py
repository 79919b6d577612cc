"""The exceptions of the public contract. All are ``ValueError`` subclasses."""

from __future__ import annotations

import operator
import reprlib


class YukonError(ValueError):
    """Base class of every error this package raises for bad input."""


class InvalidPositionError(YukonError):
    """A position (JSON or one-line form) that breaks the rules of its variant."""


class InvalidMoveError(YukonError):
    """Text that is not a move in the notation."""


class IllegalMoveError(YukonError):
    """A well-formed move that is not legal in the current position.

    Besides the message, ``reason`` names the rule the move breaks (one of
    :data:`ILLEGAL_REASONS`), and ``card`` / ``target`` name the card moved and
    the free card it was put on, when there are, so a user interface can say why
    in its own words without knowing the rules.
    """

    def __init__(self, message: str, reason: str = "illegal", card: str | None = None,
                 target: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.card = card
        self.target = target

    def __reduce__(self) -> tuple[object, ...]:  # keep the details through pickling (worker processes)
        return (type(self), (str(self), self.reason, self.card, self.target))


#: The values of :attr:`IllegalMoveError.reason`.
ILLEGAL_REASONS = (
    "stock-empty", "no-stock", "no-such-column", "no-waste", "no-return", "not-face-up", "covered",
    "group-size", "not-waste-top", "not-foundation-top", "not-next-on-foundation", "same-pile",
    "does-not-fit", "whole-column", "kings-only", "no-match", "illegal",
)


class InvalidCardError(InvalidPositionError):
    """Text that is not a card."""


class UnknownVariantError(InvalidPositionError):
    """A variant name that the registry does not know."""


class InvalidRulesError(InvalidPositionError):
    """An unknown rule option, or a value the option does not take."""


class InvalidPlaceError(YukonError, IndexError):
    """A column, or a card's place in a column, that the position does not have (also an ``IndexError``,
    which is what a caller of ``card_at`` caught before it said which place)."""


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


def whole(value: object) -> int | None:
    """``value`` as an int if it is a whole number that indexes (an int, or numpy's: the environment's arrays
    hold them), else None; a bool is None too (``True`` is 1 to Python, and no column or card to a caller)."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None
