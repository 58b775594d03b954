"""Quick pairing: the pools a player can enter, and who is paired with whom.

A pool is a kind of game (board, mode, clock, rated or casual) that pairs whoever waits in
it. The list is configuration: :data:`DEFAULT_POOLS` unless ``SOSGAME_POOLS`` holds another
one, as JSON in the shape ``GET /api/pools`` answers (see docs/protocol.md, "Pools").

Pairing is a pure function of the waiting entries and the time (:func:`pairings`): each
entry is paired with the waiting entry nearest in rating that both accept, and an entry
accepts a rating difference up to :func:`search_range` of its wait, which widens the longer
it waits. The store's transaction then makes each pairing happen at most once
(:mod:`sosgame.web.matchmaking.poolstore`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sosgame.game import MODES
from sosgame.web.guards import limits
from sosgame.web.live.protocol import ProtocolError, check_days
from sosgame.web.people.ratings import COMPUTER_RATINGS

__all__ = [
    "DEFAULT_POOLS",
    "RANGE_BASE",
    "RANGE_PER_SECOND",
    "Pool",
    "PoolError",
    "Waiting",
    "compatible",
    "computer_level",
    "pairings",
    "parse_pools",
    "pools_from_environment",
    "search_range",
]

RANGE_BASE: Final = 3.0
"""The rating difference (in OpenSkill ``mu`` points) an entry accepts at once ..."""
RANGE_PER_SECOND: Final = 1.0
"""... and how much more it accepts for each second it has waited."""
MAX_POOLS: Final = 20
_ID: Final = re.compile(r"[a-z0-9][a-z0-9+._-]{0,31}")


class PoolError(ValueError):
    """A pools' configuration that cannot be used (the message names what is wrong)."""


@dataclass(frozen=True)
class Pool:
    """A pool: the game it makes, and whether it is rated (rated pools need an account)."""

    id: str
    rows: int
    cols: int
    mode: str
    clock: tuple[int, int] | None
    """Seconds per player and seconds added after each move, or ``None``: no clock."""
    rated: bool
    days: int | None = None
    """Days per move of a correspondence pool (then no clock)."""

    def to_json(self) -> dict[str, Any]:
        """The pool as ``GET /api/pools`` lists it."""
        clock = None
        if self.clock is not None:
            clock = {"initial": self.clock[0], "increment": self.clock[1]}
        return {
            "id": self.id,
            "rows": self.rows,
            "cols": self.cols,
            "mode": self.mode,
            "clock": clock,
            "days": self.days,
            "rated": self.rated,
        }


DEFAULT_POOLS: Final = (
    Pool("5x5-general-3+2", 5, 5, "general", (180, 2), False),
    Pool("5x5-general-3+2-rated", 5, 5, "general", (180, 2), True),
    Pool("8x8-general-5+3-rated", 8, 8, "general", (300, 3), True),
    Pool("5x5-simple-1+1", 5, 5, "simple", (60, 1), False),
    Pool("8x8-general-3d", 8, 8, "general", None, False, days=3),
)
"""The pools a server offers unless configured otherwise."""


def _whole(value: object, where: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PoolError(f"{where} must be a whole number from {low} to {high}")
    return value


def _pool(raw: object, where: str) -> Pool:
    if not isinstance(raw, dict):
        raise PoolError(f"{where} must be a JSON object")
    known = ("id", "rows", "cols", "mode", "clock", "days", "rated")
    for key in raw:
        if key not in known:
            raise PoolError(f"unknown field {key!r} in {where} (known: {', '.join(known)})")
    pool_id = raw.get("id")
    if not isinstance(pool_id, str) or not _ID.fullmatch(pool_id):
        raise PoolError(
            f"{where}.id must be 1 to 32 small letters, digits and + . _ - (starting with"
            " a letter or digit)"
        )
    try:
        rows, cols = limits.check_board(raw.get("rows"), raw.get("cols"))
    except limits.SettingsError as error:
        raise PoolError(f"{where}: {error}") from None
    mode = raw.get("mode", "general")
    if mode not in MODES:
        raise PoolError(f"{where}.mode must be 'general' or 'simple'")
    try:
        days = check_days(raw.get("days"), f"{where}.days")
    except ProtocolError as error:
        raise PoolError(error.detail or error.message) from None
    if days is not None and raw.get("clock") is not None:
        raise PoolError(f"{where}: give 'clock' or 'days', not both")
    clock = None
    if raw.get("clock") is not None:
        raw_clock = raw["clock"]
        if not isinstance(raw_clock, dict) or set(raw_clock) - {"initial", "increment"}:
            raise PoolError(f"{where}.clock must be an object with 'initial' and 'increment'")
        clock = (
            _whole(raw_clock.get("initial"), f"{where}.clock.initial", 1, 3 * 3600),
            _whole(raw_clock.get("increment", 0), f"{where}.clock.increment", 0, 180),
        )
    rated = raw.get("rated", False)
    if not isinstance(rated, bool):
        raise PoolError(f"{where}.rated must be true or false")
    return Pool(pool_id, rows, cols, str(mode), clock, rated, days)


def parse_pools(text: str) -> tuple[Pool, ...]:
    """The pools of a JSON list (``SOSGAME_POOLS``), checked; :class:`PoolError` if wrong."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise PoolError(f"SOSGAME_POOLS is not valid JSON: {error}") from None
    if not isinstance(data, list) or not 1 <= len(data) <= MAX_POOLS:
        raise PoolError(f"SOSGAME_POOLS must be a JSON list of 1 to {MAX_POOLS} pools")
    pools = tuple(_pool(raw, f"SOSGAME_POOLS[{n}]") for n, raw in enumerate(data))
    ids = [pool.id for pool in pools]
    if len(set(ids)) != len(ids):
        raise PoolError("SOSGAME_POOLS names a pool id twice")
    return pools


def pools_from_environment(environ: Mapping[str, str] | None = None) -> tuple[Pool, ...]:
    """``SOSGAME_POOLS`` if it is set, else :data:`DEFAULT_POOLS`."""
    text = (os.environ if environ is None else environ).get("SOSGAME_POOLS")
    return DEFAULT_POOLS if text is None or not text.strip() else parse_pools(text)


# ------------------------------------------------------------------------------ pairing


@dataclass(frozen=True)
class Waiting:
    """An entry waiting in a pool: its id, the player's rating (``mu``) and since when."""

    id: str
    rating: float
    entered_ms: int
    apart: str = ""
    """Entries with the same ``apart`` (not empty) are never paired: in a rated pool, their
    client address, so that one client cannot play itself for a rating."""


def search_range(waited_ms: int) -> float:
    """The rating difference an entry that has waited ``waited_ms`` accepts."""
    return RANGE_BASE + RANGE_PER_SECOND * max(0, waited_ms) / 1000


def compatible(a: Waiting, b: Waiting, now_ms: int) -> bool:
    """Whether both entries accept each other's rating now (and may meet at all)."""
    if a.apart and a.apart == b.apart:
        return False
    gap = abs(a.rating - b.rating)
    return gap <= search_range(now_ms - a.entered_ms) and gap <= search_range(now_ms - b.entered_ms)


def pairings(waiting: Sequence[Waiting], now_ms: int) -> list[tuple[Waiting, Waiting]]:
    """Who is paired with whom: the longest waiting first, each with the entry nearest in
    rating that both accept (the longer waiting of two as near); no entry twice."""
    order = sorted(waiting, key=lambda entry: (entry.entered_ms, entry.id))
    taken: set[str] = set()
    pairs = []
    for first in order:
        if first.id in taken:
            continue
        candidates = [
            other
            for other in order
            if other.id != first.id and other.id not in taken and compatible(first, other, now_ms)
        ]
        if not candidates:
            continue
        second = min(candidates, key=lambda other: abs(other.rating - first.rating))
        taken |= {first.id, second.id}
        pairs.append((first, second))
    return pairs


def computer_level(rating: float) -> str:
    """The computer level whose rating (``mu``) is nearest ``rating``."""
    return min(COMPUTER_RATINGS, key=lambda level: abs(COMPUTER_RATINGS[level].mu - rating))
