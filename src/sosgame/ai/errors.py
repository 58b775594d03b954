"""The errors the computer players raise: precise subclasses of :class:`ValueError`."""

from __future__ import annotations

from sosgame.errors import InvalidSettingsError

__all__ = ["InvalidBudgetError", "InvalidLevelError"]


class InvalidLevelError(InvalidSettingsError):
    """A level name that is not one of :data:`sosgame.ai.LEVELS`."""


class InvalidBudgetError(InvalidSettingsError):
    """A ``seconds``, ``nodes`` or ``seed`` value a player cannot use."""
