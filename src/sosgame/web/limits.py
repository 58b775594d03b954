"""What a game may be: board sides, seat counts and player names, for new games and uploads.

Every entry point that makes a game (``POST /api/games``, ``POST /api/records``) checks its
settings here, so the two can never drift apart.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from sosgame.game import MAX_PLAYERS, MIN_PLAYERS
from sosgame.limits import WEB_MAX_NAME, WEB_MAX_SIDE, WEB_MIN_LONG_SIDE, WEB_MIN_SIDE

__all__ = [
    "MAX_NAME",
    "MAX_PASSWORD",
    "MAX_PLAYERS",
    "MAX_SIDE",
    "MIN_LONG_SIDE",
    "MIN_PASSWORD",
    "MIN_PLAYERS",
    "MIN_SIDE",
    "SettingsError",
    "check_name",
    "check_password",
    "check_seat_count",
    "check_side",
    "check_size",
]

# The web's limits (sosgame.limits) under the names the server's modules know them by.
MIN_SIDE: Final = WEB_MIN_SIDE
MAX_SIDE: Final = WEB_MAX_SIDE
MIN_LONG_SIDE: Final = WEB_MIN_LONG_SIDE
MAX_NAME: Final = WEB_MAX_NAME
MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 128
"""A password's length, in characters."""


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


def check_size(rows: int, cols: int) -> None:
    """A board whose longer side holds a line of three (each side already checked)."""
    if max(rows, cols) < MIN_LONG_SIDE:
        raise SettingsError(
            f"fields 'rows' and 'cols': a {rows}x{cols} board is too small,"
            f" the longer side must be at least {MIN_LONG_SIDE}"
        )


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


def check_password(value: object, name: str) -> str:
    """A password for the name ``name``: ``MIN_PASSWORD`` to ``MAX_PASSWORD`` characters, not
    the name itself and not one character repeated."""
    if not isinstance(value, str):
        raise SettingsError("field 'password' must be text")
    if len(value) > MAX_PASSWORD:
        raise SettingsError(f"the password is too long: at most {MAX_PASSWORD} characters")
    if len(value) < MIN_PASSWORD:
        raise SettingsError(f"the password is too weak: use at least {MIN_PASSWORD} characters")
    if value.casefold() == name.casefold() or len(set(value)) == 1:
        raise SettingsError(
            "the password is too weak: it must not be the name or one character repeated"
        )
    return value
