"""The exceptions of the public contract. All are ``ValueError`` subclasses."""

from __future__ import annotations


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
