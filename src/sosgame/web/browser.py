"""What the browser takes from the server rather than writing again: the computer levels, each
seat's colour and symbol, and the limits of a new game (``GET /api/config``)."""

from __future__ import annotations

from typing import Any

from sosgame.levels import LEVELS
from sosgame.seats import SEAT_COLOURS, SEAT_SYMBOLS, UNOWNED_COLOUR
from sosgame.web.limits import (
    MAX_NAME,
    MAX_PASSWORD,
    MAX_PLAYERS,
    MAX_SIDE,
    MIN_LONG_SIDE,
    MIN_PASSWORD,
    MIN_PLAYERS,
    MIN_SIDE,
)

__all__ = ["browser_config"]


def browser_config() -> dict[str, Any]:
    """The JSON object ``GET /api/config`` answers with."""
    return {
        "levels": list(LEVELS),
        "seats": {
            "colours": list(SEAT_COLOURS),
            "symbols": list(SEAT_SYMBOLS),
            "unowned_colour": UNOWNED_COLOUR,
        },
        "limits": {
            "min_side": MIN_SIDE,
            "max_side": MAX_SIDE,
            "min_long_side": MIN_LONG_SIDE,
            "min_players": MIN_PLAYERS,
            "max_players": MAX_PLAYERS,
            "max_name": MAX_NAME,
            "min_password": MIN_PASSWORD,
            "max_password": MAX_PASSWORD,
        },
    }
