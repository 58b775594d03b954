"""What the browser takes from the server rather than writing again: the computer levels, each
seat's colour and symbol, the days per move a game may have, and the limits of a new game
(``GET /api/config``)."""

from __future__ import annotations

from typing import Any

from sosgame.game import MAX_PLAYERS, MIN_PLAYERS
from sosgame.levels import LEVELS
from sosgame.limits import BOARD_MAX_SIDE, BOARD_MIN_LONG_SIDE, BOARD_MIN_SIDE, WEB_MAX_NAME
from sosgame.seats import SEAT_COLOURS, SEAT_SYMBOLS, UNOWNED_COLOUR
from sosgame.web.guards.limits import MAX_PASSWORD, MIN_PASSWORD
from sosgame.web.live.protocol import DAYS_PER_MOVE
from sosgame.web.offline.config import offline_config

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
        "days_per_move": list(DAYS_PER_MOVE),
        "limits": {
            "min_side": BOARD_MIN_SIDE,
            "max_side": BOARD_MAX_SIDE,
            "min_long_side": BOARD_MIN_LONG_SIDE,
            "min_players": MIN_PLAYERS,
            "max_players": MAX_PLAYERS,
            "max_name": WEB_MAX_NAME,
            "min_password": MIN_PASSWORD,
            "max_password": MAX_PASSWORD,
        },
        "offline": offline_config(),
    }
