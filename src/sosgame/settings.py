"""The checks of a game's settings: the player count, the mode, the starting scores and the
players' names.

Part of the rules core (:class:`sosgame.Game` calls them, and so can an interface that wants
to check a setting before it builds a game).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from typing import Final, Literal, TypeAlias

from sosgame.errors import InvalidSettingsError
from sosgame.limits import NAME_MAX

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MODES",
    "Mode",
    "check_mode",
    "check_name",
    "check_names",
    "check_players",
    "check_scores",
    "name_key",
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


def check_name(name: object, seat: int) -> str:
    """Check the name of seat ``seat`` (from 0): text of 1 to :data:`~sosgame.limits.NAME_MAX`
    characters, not only spaces, none of them a control, format, private-use or unassigned
    character or a lone surrogate (Unicode's categories C*), which could move a terminal's
    cursor, retitle its window, hide text or not be written to a file at all.

    :raises InvalidSettingsError: whose ``field`` is ``names``, quoting at most
        :data:`~sosgame.limits.NAME_MAX` characters of the name.
    """
    number = seat + 1
    if not isinstance(name, str):
        raise InvalidSettingsError(
            f"the name of seat {number} must be text",
            field="names",
            code="name_text",
            values={"seat": number},
        )
    if not name.strip():
        raise InvalidSettingsError(
            f"the name of seat {number} is empty",
            field="names",
            code="name_empty",
            values={"seat": number},
        )
    if len(name) > NAME_MAX:
        raise InvalidSettingsError(
            f"the name of seat {number} is longer than {NAME_MAX} characters: {_quoted(name)}",
            field="names",
            code="name_long",
            values={"seat": number, "most": NAME_MAX, "name": _quoted(name)},
        )
    if any(unicodedata.category(char).startswith("C") for char in name):
        raise InvalidSettingsError(
            f"the name of seat {number} holds a control or invisible character: {_quoted(name)}",
            field="names",
            code="name_control",
            values={"seat": number, "name": _quoted(name)},
        )
    return name


def name_key(name: str) -> str:
    """What two names are compared by: case-folded and NFKC-normalized, outer spaces dropped
    (so "ANN", "ann " and the full-width letters of "Ann" are one name)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).strip()


def check_names(names: Sequence[object]) -> list[str]:
    """Check every seat's name (:func:`check_name`) and that no two seats share one (as
    :func:`name_key` compares them).

    :raises InvalidSettingsError: whose ``field`` is ``names``.
    """
    seen: dict[str, int] = {}
    for seat, name in enumerate(names):
        checked = check_name(name, seat)
        other = seen.setdefault(name_key(checked), seat)
        if other != seat:
            raise InvalidSettingsError(
                f"seats {other + 1} and {seat + 1} have the same name: {_quoted(checked)}",
                field="names",
                code="name_same",
                values={"first": other + 1, "second": seat + 1, "name": _quoted(checked)},
            )
    return [str(name) for name in names]


def _quoted(name: str) -> str:
    """``name`` quoted (control characters escaped) and cut to its first
    :data:`~sosgame.limits.NAME_MAX` characters."""
    if len(name) <= NAME_MAX:
        return repr(name)
    return f"{name[:NAME_MAX]!r}..."
