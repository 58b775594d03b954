"""The server's own tournaments, set in its configuration: each scheduled one (an hourly 5x5
Arena, a daily correspondence Swiss by default; ``SOSGAME_TOURNAMENT_SCHEDULE`` to change
them) is created ahead of its start, once however many processes run: its id is made from
its key and its start, so the table's key lets the first insert in and no other.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from sosgame.tournaments.settings import (
    TournamentSettings,
    TournamentSettingsError,
    parse_settings,
)

__all__ = [
    "DEFAULT_SCHEDULE",
    "MAX_SCHEDULED",
    "ScheduleError",
    "Scheduled",
    "next_start",
    "parse_schedule",
    "schedule_from_environment",
    "scheduled_id",
    "upcoming",
]

Every = Literal["hour", "day"]
_PERIOD_MS: Final[dict[str, int]] = {"hour": 3_600_000, "day": 86_400_000}
MAX_SCHEDULED: Final = 20
"""The most scheduled tournaments a configuration may set."""
_KEY: Final = re.compile(r"[a-z0-9-]{1,32}")


class ScheduleError(ValueError):
    """``SOSGAME_TOURNAMENT_SCHEDULE`` is wrong; the message says where."""


@dataclass(frozen=True)
class Scheduled:
    """A tournament the server creates every hour or every day (UTC, on the hour or at
    midnight, plus ``offset_minutes``), with these settings but for its start."""

    key: str
    every: Every
    settings: dict[str, Any]
    """The body of ``POST /api/tournaments`` without ``starts_at``."""
    offset_minutes: int = 0

    def at(self, starts_at: int) -> TournamentSettings:
        """Its settings for the one that starts at ``starts_at`` (ms)."""
        return parse_settings({**self.settings, "starts_at": starts_at})


DEFAULT_SCHEDULE: Final = (
    Scheduled(
        "hourly-arena",
        "hour",
        {
            "kind": "arena",
            "name": "Hourly 5x5 Arena",
            "rows": 5,
            "cols": 5,
            "mode": "general",
            "clock": {"initial": 60, "increment": 1},
            "rated": True,
            "minutes": 55,
            "bots": False,
        },
    ),
    Scheduled(
        "daily-swiss",
        "day",
        {
            "kind": "swiss",
            "name": "Daily correspondence Swiss",
            "rows": 5,
            "cols": 5,
            "mode": "general",
            "days": 1,
            "rated": True,
            "rounds": 5,
            "bots": False,
        },
    ),
)
"""The scheduled tournaments of a server whose configuration sets none."""


def next_start(scheduled: Scheduled, now_ms: int) -> int:
    """The first start of ``scheduled`` after ``now_ms``."""
    period = _PERIOD_MS[scheduled.every]
    offset = scheduled.offset_minutes * 60_000
    return ((now_ms - offset) // period + 1) * period + offset


def scheduled_id(scheduled: Scheduled, starts_at: int) -> str:
    """The id of the one that starts at ``starts_at``: the same in every process."""
    digest = hashlib.sha256(f"{scheduled.key}:{starts_at}".encode()).hexdigest()
    return f"s{digest[:15]}"


def upcoming(schedule: tuple[Scheduled, ...], now_ms: int) -> list[tuple[str, TournamentSettings]]:
    """The next one of each scheduled tournament: its id and settings."""
    found = []
    for scheduled in schedule:
        starts_at = next_start(scheduled, now_ms)
        found.append((scheduled_id(scheduled, starts_at), scheduled.at(starts_at)))
    return found


def _scheduled(raw: object, where: str) -> Scheduled:
    if not isinstance(raw, dict):
        raise ScheduleError(f"{where} must be an object")
    settings = dict(raw)
    key = settings.pop("key", None)
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        raise ScheduleError(f"{where}.key must be 1 to 32 of a-z, 0-9 and -")
    every = settings.pop("every", None)
    if every not in _PERIOD_MS:
        raise ScheduleError(f"{where}.every must be 'hour' or 'day'")
    offset = settings.pop("offset_minutes", 0)
    most = _PERIOD_MS[every] // 60_000 - 1
    if not isinstance(offset, int) or isinstance(offset, bool) or not 0 <= offset <= most:
        raise ScheduleError(f"{where}.offset_minutes must be a whole number from 0 to {most}")
    if "starts_at" in settings:
        raise ScheduleError(f"{where}: the schedule sets the start, not 'starts_at'")
    found = Scheduled(key, every, settings, offset)
    try:
        found.at(0)
    except TournamentSettingsError as error:
        raise ScheduleError(f"{where}: {error}") from None
    return found


def parse_schedule(text: str) -> tuple[Scheduled, ...]:
    """The scheduled tournaments of a JSON list (``SOSGAME_TOURNAMENT_SCHEDULE``: each the
    body of ``POST /api/tournaments`` without ``starts_at``, with ``key`` and ``every``, and
    ``offset_minutes`` optionally), checked; :class:`ScheduleError` if wrong."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise ScheduleError(f"SOSGAME_TOURNAMENT_SCHEDULE is not valid JSON: {error}") from None
    if not isinstance(data, list) or len(data) > MAX_SCHEDULED:
        raise ScheduleError(
            f"SOSGAME_TOURNAMENT_SCHEDULE must be a JSON list of at most {MAX_SCHEDULED}"
        )
    found = tuple(
        _scheduled(raw, f"SOSGAME_TOURNAMENT_SCHEDULE[{number}]") for number, raw in enumerate(data)
    )
    keys = [one.key for one in found]
    if len(set(keys)) != len(keys):
        raise ScheduleError("SOSGAME_TOURNAMENT_SCHEDULE names a key twice")
    return found


def schedule_from_environment(environ: Mapping[str, str] | None = None) -> tuple[Scheduled, ...]:
    """``SOSGAME_TOURNAMENT_SCHEDULE`` if it is set (``[]``: none), else
    :data:`DEFAULT_SCHEDULE`."""
    text = (os.environ if environ is None else environ).get("SOSGAME_TOURNAMENT_SCHEDULE")
    return DEFAULT_SCHEDULE if text is None or not text.strip() else parse_schedule(text)
