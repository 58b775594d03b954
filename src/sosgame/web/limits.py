"""What a game may be: board sides, seat counts and player names, for new games and uploads.

Every entry point that makes a game (``POST /api/games``, ``POST /api/records``) checks its
settings here, so the two can never drift apart.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from sosgame.game import MAX_PLAYERS, MIN_PLAYERS
from sosgame.limits import WEB_MAX_NAME, WEB_MAX_SIDE, WEB_MIN_SIDE

__all__ = [
    "MAX_NAME",
    "MAX_PLAYERS",
    "MAX_SIDE",
    "MIN_PLAYERS",
    "MIN_SIDE",
    "SettingsError",
    "check_name",
    "check_seat_count",
    "check_side",
]

# The web's limits under the names the server's modules know them by (sosgame.limits).
MIN_SIDE: Final = WEB_MIN_SIDE
MAX_SIDE: Final = WEB_MAX_SIDE
MAX_NAME: Final = WEB_MAX_NAME


class SettingsError(ValueError):
    """A setting outside the limits; the message names the field."""


def check_side(value: object, where: str) -> int:
    """A board side: a whole number from ``WEB_MIN_SIDE`` to ``WEB_MAX_SIDE``."""
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or not WEB_MIN_SIDE <= value <= WEB_MAX_SIDE
    ):
        raise SettingsError(
            f"field {where!r} must be a whole number from {WEB_MIN_SIDE} to {WEB_MAX_SIDE}"
        )
    return value


def check_seat_count(count: int, where: str) -> int:
    """How many seats a game has: ``MIN_PLAYERS`` to ``MAX_PLAYERS``."""
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise SettingsError(f"field {where!r} must list {MIN_PLAYERS} to {MAX_PLAYERS} seats")
    return count


def check_name(value: object, where: str) -> str:
    """A player's name: 1 to ``WEB_MAX_NAME`` characters after trimming spaces, none of them a
    control, format (such as a bidirectional override) or unassigned character."""
    if not isinstance(value, str):
        raise SettingsError(f"field {where!r} must be text")
    name = " ".join(value.split())
    if not name or len(name) > WEB_MAX_NAME:
        raise SettingsError(f"field {where!r} must be a name of 1 to {WEB_MAX_NAME} characters")
    if any(unicodedata.category(char).startswith("C") for char in name):
        raise SettingsError(
            f"field {where!r} must not hold control characters or bidirectional overrides"
        )
    return name
