"""Chess clocks as plain JSON-ready dictionaries: how they start, run, and are charged.

A clock is ``{"initial", "increment", "remaining": [ms per seat], "since": ms or None,
"flagged": [seats], "waiting": ms or None}``; ``since`` is when the running clock last
started (``None`` until every seat has made its first move), ``waiting`` when the seat to
move began to wait for its first move (the first-move timer counts from it). Both are moments
every server process shares: whichever loads the game charges the mover from them. A stored
clock may have ``"paused"`` too: when a clean shutdown stopped it (see
:mod:`sosgame.web.live.pauses`); a clock in a room's memory never has it.

An Arena tournament's game has ``"berserk"`` too, the seats that halved their time before
their first move (lichess's berserk): such a seat gets no increment. The key is there, empty,
from the game's creation in a game that allows berserk, and in no other.

A correspondence clock has ``"days"`` too: each seat has that many days per move, and every
move gives the mover its whole time back (the seat to move always starts from full).

Every timer of the server reads the time through :data:`TIME`, which tests replace with a
clock of their own.
"""

from __future__ import annotations

import asyncio
import copy
import time
from datetime import UTC, datetime
from typing import Any, Final

__all__ = [
    "BERSERK",
    "DAY_MS",
    "TIME",
    "Time",
    "charge",
    "deadline_ms",
    "iso",
    "new_clock",
    "new_correspondence",
    "now_ms",
    "pause",
    "paused_at",
    "resume",
    "sleep_until",
    "view",
]

Clock = dict[str, Any]
DAY_MS: Final = 24 * 3600 * 1000
BERSERK: Final = "berserk"
"""The key of the seats that went berserk, in a clock that allows it."""


class Time:
    """The server's time: the wall clock, and sleeping on it."""

    def now_ms(self) -> int:
        """Wall-clock time in milliseconds."""
        return time.time_ns() // 1_000_000

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (a timer checks the time again when it wakes)."""
        await asyncio.sleep(seconds)


TIME = Time()
"""The time every clock and timer of the server reads."""


def now_ms() -> int:
    """The time in milliseconds, as :data:`TIME` tells it."""
    return TIME.now_ms()


async def sleep_until(when_ms: int) -> None:
    """Wait until :func:`now_ms` reaches ``when_ms``."""
    while (left := when_ms - now_ms()) > 0:
        await TIME.sleep(left / 1000)


def new_clock(initial_ms: int, increment_ms: int, seats: int) -> Clock:
    """A fresh clock for ``seats`` seats, standing still (it starts once every seat has made
    its first move)."""
    return {
        "initial": initial_ms,
        "increment": increment_ms,
        "remaining": [initial_ms] * seats,
        "since": None,
        "flagged": [],
        "waiting": None,
    }


def new_correspondence(days: int, seats: int) -> Clock:
    """A fresh correspondence clock: ``days`` days per move, standing still as a clock does."""
    return {**new_clock(days * DAY_MS, 0, seats), "days": days}


def deadline_ms(clock: Clock | None) -> int | None:
    """When the seat to move of a correspondence game runs out of days (its first move
    included), or ``None`` (no correspondence clock, or none running)."""
    if clock is None or clock.get("days") is None:
        return None
    started = clock.get("since")
    if started is None:
        started = clock.get("waiting")
    return None if started is None else int(started) + int(clock["initial"])


def pause(clock: Clock, now: int) -> Clock:
    """A copy of ``clock`` that stands still from ``now`` until it is resumed."""
    return {**clock, "paused": now}


def paused_at(clock: Clock | None) -> int | None:
    """When ``clock`` was paused, or ``None`` if it was not."""
    paused = None if clock is None else clock.get("paused")
    return None if paused is None else int(paused)


def resume(clock: Clock, now: int | None) -> Clock:
    """A copy of ``clock`` without its pause, running again from ``now``: ``since`` moves
    on by the time it stood still, so the mover keeps the time it had left when it was
    paused, and a first-move ``waiting`` starts again from ``now`` (the seat to move has its
    whole first move again, as the pause closed every connection). With ``now`` ``None``,
    only the pause is forgotten (the game was served meanwhile: it gives no time back)."""
    resumed = {key: value for key, value in clock.items() if key != "paused"}
    paused = paused_at(clock)
    if paused is None or now is None:
        return resumed
    if resumed.get("since") is not None:
        resumed["since"] = int(resumed["since"]) + max(0, now - paused)
    if resumed.get("waiting") is not None:
        resumed["waiting"] = now
    return resumed


def iso(when_ms: int | None) -> str | None:
    """``when_ms`` as an ISO 8601 UTC time, or ``None``."""
    if when_ms is None:
        return None
    return datetime.fromtimestamp(when_ms / 1000, UTC).isoformat(timespec="seconds")


def view(clock: Clock | None, running: int | None, now: int | None = None) -> dict[str, Any] | None:
    """The clocks as of ``now`` (by default the time now), with ``running`` (the seat to
    move, if the game goes on)."""
    if clock is None:
        return None
    remaining = list(clock["remaining"])
    since = clock.get("since")
    if since is None:
        running = None
    if running is not None and since is not None:
        at = now_ms() if now is None else now
        remaining[running] = max(0, remaining[running] - (at - since))
    shown = {
        "initial": clock["initial"],
        "increment": clock["increment"],
        "remaining": remaining,
        "running": running,
    }
    if BERSERK in clock:
        shown[BERSERK] = list(clock[BERSERK])
    return shown


def charge(
    clock: Clock | None, mover: int, text: str, now: int, flagged: int | None
) -> tuple[Clock | None, str, int | None]:
    """A copy of ``clock`` after ``mover`` plays ``text`` at ``now``.

    Returns the new clock, the action that actually stands (a resignation if the mover's
    flag fell first) and the seat that ran out of time, if any.
    """
    if clock is None:
        return None, text, flagged
    charged = copy.deepcopy(clock)
    if charged.get("since") is not None and flagged is None:
        charged["remaining"][mover] -= now - charged["since"]
        if charged["remaining"][mover] <= 0:
            # The flag fell before the move arrived: the timer's resignation stands.
            text, flagged = f"resign:{mover}", mover
        elif charged.get("days") is not None:
            charged["remaining"][mover] = charged["initial"]  # a fresh move's days
        elif not text.startswith("resign") and mover not in charged.get(BERSERK, ()):
            charged["remaining"][mover] += charged["increment"]
    if flagged is not None:
        charged["remaining"][flagged] = 0
        charged["flagged"] = [*charged.get("flagged", []), flagged]
    return charged, text, flagged
