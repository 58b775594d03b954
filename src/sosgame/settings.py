"""The checks of a game's settings: the player count, the mode and the starting scores.

Part of the rules core (:class:`sosgame.Game` calls them, and so can an interface that wants
to check a setting before it builds a game).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal, TypeAlias

from sosgame.errors import InvalidSettingsError

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MODES",
    "Mode",
    "check_mode",
    "check_players",
    "check_scores",
]

Mode: TypeAlias = Literal["general", "simple"]
MODES: Final[tuple[Mode, Mode]] = ("general", "simple")
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 8


def check_players(players: object) -> int:
    """Check a player count: a whole number from :data:`MIN_PLAYERS` to :data:`MAX_PLAYERS`.

    :raises InvalidSettingsError: whose ``field`` is ``players``.
    """
    if not isinstance(players, int) or isinstance(players, bool):
        raise InvalidSettingsError(
            f"players must be a whole number, not {players!r}",
            field="players",
            code="players_whole",
            values={"value": players},
        )
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidSettingsError(
            f"players must be from {MIN_PLAYERS} to {MAX_PLAYERS}, not {players}",
            field="players",
            code="players_range",
            values={"least": MIN_PLAYERS, "most": MAX_PLAYERS, "value": players},
        )
    return players


def check_mode(mode: object) -> None:
    """Check a mode: ``general`` or ``simple``.

    :raises InvalidSettingsError: whose ``field`` is ``mode``.
    """
    if mode not in MODES:
        raise InvalidSettingsError(
            f"mode must be 'general' or 'simple', not {mode!r}",
            field="mode",
            code="mode",
            values={"value": mode},
        )


def check_scores(scores: Iterable[int] | None, players: int, lines: int) -> tuple[int, ...]:
    """Check the starting scores of ``players`` seats on a board that holds ``lines`` SOS
    lines: one whole number of at least 0 per seat, adding up to ``lines`` (``None``: all 0).

    :raises InvalidSettingsError: naming what is wrong.
    """
    if scores is None:
        return (0,) * players
    try:
        values = tuple(scores)
    except TypeError:
        raise InvalidSettingsError(f"scores must be a list of numbers, not {scores!r}") from None
    if len(values) != players:
        raise InvalidSettingsError(
            f"scores must give one number per seat: {players} seats, {len(values)} scores",
            code="scores_count",
            values={"players": players, "count": len(values)},
        )
    for seat, value in enumerate(values):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InvalidSettingsError(
                f"scores[{seat}] must be a whole number of at least 0, not {value!r}",
                code="score_whole",
                values={"seat": seat, "value": value},
            )
    if sum(values) != lines:
        raise InvalidSettingsError(
            f"scores add up to {sum(values)} but the board holds {lines} SOS"
            f" line{'' if lines == 1 else 's'}",
            code="scores_sum",
            values={"total": sum(values), "count": lines},
        )
    return values
