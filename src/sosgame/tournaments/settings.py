"""A tournament's settings, as ``POST /api/tournaments`` names them, each checked once.

:func:`parse_settings` turns the JSON body into a frozen :class:`TournamentSettings` or raises
:class:`TournamentSettingsError` naming the first wrong field, so that an endpoint answers
``bad_field`` with it and a page points at that field; its text is the catalogs'
``error.tournament_*`` (:func:`sosgame.i18n.error_text` shows it in the player's language).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

from sosgame.errors import InvalidSettingsError
from sosgame.i18n import translator
from sosgame.limits import BOARD_MAX_SIDE, BOARD_MIN_LONG_SIDE, BOARD_MIN_SIDE
from sosgame.settings import MODES, Mode

__all__ = [
    "ARENA_MINUTES",
    "DAYS_PER_MOVE",
    "KINDS",
    "MAX_CLOCK_SECONDS",
    "MAX_INCREMENT_SECONDS",
    "NAME_LENGTH",
    "SWISS_MAX_PLAYERS",
    "SWISS_ROUNDS",
    "Clock",
    "Kind",
    "TournamentSettings",
    "TournamentSettingsError",
    "parse_settings",
]

Kind: TypeAlias = Literal["arena", "swiss"]
KINDS: Final[tuple[Kind, Kind]] = ("arena", "swiss")
NAME_LENGTH: Final = (2, 60)
"""The shortest and longest name of a tournament."""
ARENA_MINUTES: Final = (5, 720)
"""An Arena lasts 5 minutes to 12 hours."""
SWISS_ROUNDS: Final = (3, 15)
"""A Swiss has 3 to 15 rounds (the pairing engine's time grows with the rounds and players)."""
SWISS_MAX_PLAYERS: Final = 64
"""The most players a Swiss takes: the engine pairs a round of 60 in about 1.5 s, while
rounds of 180 take it nearly a minute (docs/tournaments.md)."""
MAX_CLOCK_SECONDS: Final = 3 * 3600
MAX_INCREMENT_SECONDS: Final = 180
DAYS_PER_MOVE: Final = (1, 2, 3, 5, 7, 14)
"""The same limits as a game's own (``web/live/protocol.py``), which this room cannot import."""
_FIELDS: Final = frozenset(
    {
        "kind",
        "name",
        "rows",
        "cols",
        "mode",
        "clock",
        "days",
        "rated",
        "starts_at",
        "minutes",
        "rounds",
        "bots",
        "open",
    }
)


class TournamentSettingsError(InvalidSettingsError):
    """A tournament's setting that is missing or not allowed; ``field`` names it."""


@dataclass(frozen=True)
class Clock:
    """A game's clock: ``initial`` seconds each, ``increment`` seconds more a move."""

    initial: int
    increment: int

    def estimate_seconds(self, cells: int) -> int:
        """A player's expected time for a game on ``cells`` cells (half the moves each).

        Chess counts 40 moves a player; an SOS game has at most a move a cell, half each.
        """
        return self.initial + self.increment * ((cells + 1) // 2)


@dataclass(frozen=True)
class TournamentSettings:
    """What a tournament's creator chose; exactly one of ``minutes`` and ``rounds`` is set
    (Arena, Swiss), and exactly one of ``clock`` and ``days`` (an Arena always has a clock)."""

    kind: Kind
    name: str
    rows: int
    cols: int
    mode: Mode
    clock: Clock | None
    days: int | None
    rated: bool
    starts_at: int
    """Milliseconds since 1970."""
    minutes: int | None
    rounds: int | None
    bots: bool
    open: bool
    """Anyone may join; otherwise only those invited."""

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def ends_at(self) -> int | None:
        """When an Arena ends (ms); a Swiss ends with its last round."""
        return None if self.minutes is None else self.starts_at + self.minutes * 60_000


_ENGLISH: Final = translator("en")
"""An error's text in English, from the catalogs, which show it in every language."""


def _fail(field: str, code: str, **values: object) -> TournamentSettingsError:
    values = {"field": field, **values}
    return TournamentSettingsError(
        _ENGLISH(f"error.{code}", **values), field=field, code=code, values=values
    )


def _whole(body: Mapping[str, object], field: str, low: int, high: int, where: str = "") -> int:
    value = body.get(field)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(where + field, "tournament_whole", least=low, most=high)
    return value


def _flag(body: Mapping[str, object], field: str, default: bool) -> bool:
    value = body.get(field, default)
    if not isinstance(value, bool):
        raise _fail(field, "tournament_flag")
    return value


def _clock(value: object) -> Clock:
    if not isinstance(value, Mapping) or set(value) - {"initial", "increment"}:
        raise _fail("clock", "tournament_clock")
    initial = _whole(value, "initial", 1, MAX_CLOCK_SECONDS, "clock.")
    increment = _whole(
        {"increment": value.get("increment", 0)}, "increment", 0, MAX_INCREMENT_SECONDS, "clock."
    )
    return Clock(initial, increment)


def _name(value: object) -> str:
    low, high = NAME_LENGTH
    name = " ".join(value.split()) if isinstance(value, str) else ""
    if not low <= len(name) <= high or not name.isprintable():
        raise _fail("name", "tournament_name", least=low, most=high)
    return name


def parse_settings(body: Mapping[str, object]) -> TournamentSettings:
    """The settings a JSON body gives, checked field by field.

    :raises TournamentSettingsError: naming the first field that is missing, unknown or not
        allowed.
    """
    unknown = sorted(set(body) - _FIELDS)
    if unknown:
        raise _fail(unknown[0], "tournament_unknown")
    kind = body.get("kind")
    if kind not in KINDS:
        raise _fail("kind", "tournament_kind")
    name = _name(body.get("name"))
    rows = _whole(body, "rows", BOARD_MIN_SIDE, BOARD_MAX_SIDE)
    cols = _whole(body, "cols", BOARD_MIN_SIDE, BOARD_MAX_SIDE)
    if max(rows, cols) < BOARD_MIN_LONG_SIDE:
        raise _fail("cols", "tournament_board", least=BOARD_MIN_LONG_SIDE)
    mode = body.get("mode")
    if mode not in MODES:
        raise _fail("mode", "tournament_mode")
    clock = None if body.get("clock") is None else _clock(body["clock"])
    days = body.get("days")
    if days is not None and (isinstance(days, bool) or days not in DAYS_PER_MOVE):
        raise _fail("days", "tournament_days", allowed=", ".join(map(str, DAYS_PER_MOVE)))
    if (clock is None) == (days is None):
        raise _fail("clock", "tournament_clock_or_days")
    starts_at = _whole(body, "starts_at", 0, 2**53)
    minutes = rounds = None
    if kind == "arena":
        if days is not None:
            raise _fail("days", "tournament_arena_days")
        if body.get("rounds") is not None:
            raise _fail("rounds", "tournament_other_kind")
        minutes = _whole(body, "minutes", *ARENA_MINUTES)
    else:
        if body.get("minutes") is not None:
            raise _fail("minutes", "tournament_other_kind")
        rounds = _whole(body, "rounds", *SWISS_ROUNDS)
    return TournamentSettings(
        kind=kind,
        name=name,
        rows=rows,
        cols=cols,
        mode=mode,
        clock=clock,
        days=None if days is None else int(days),
        rated=_flag(body, "rated", True),
        starts_at=starts_at,
        minutes=minutes,
        rounds=rounds,
        bots=_flag(body, "bots", False),
        open=_flag(body, "open", True),
    )
