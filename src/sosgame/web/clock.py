"""Chess clocks as plain JSON-ready dictionaries: how they start, run, and are charged.

A clock is ``{"initial", "increment", "remaining": [ms per seat], "since": ms or None,
"flagged": [seats]}``; ``since`` is when the running clock last started.
"""

from __future__ import annotations

import copy
import time
from typing import Any

__all__ = ["charge", "new_clock", "now_ms", "view"]

Clock = dict[str, Any]


def now_ms() -> int:
    """Wall-clock time in milliseconds."""
    return time.time_ns() // 1_000_000


def new_clock(initial_ms: int, increment_ms: int, seats: int, *, running: bool) -> Clock:
    """A fresh clock for ``seats`` seats, started now if ``running``."""
    return {
        "initial": initial_ms,
        "increment": increment_ms,
        "remaining": [initial_ms] * seats,
        "since": now_ms() if running else None,
        "flagged": [],
    }


def view(clock: Clock | None, running: int | None) -> dict[str, Any] | None:
    """The clocks as of now, with ``running`` (the seat to move, if the game goes on)."""
    if clock is None:
        return None
    remaining = list(clock["remaining"])
    since = clock.get("since")
    if since is None:
        running = None
    if running is not None and since is not None:
        remaining[running] = max(0, remaining[running] - (now_ms() - since))
    return {
        "initial": clock["initial"],
        "increment": clock["increment"],
        "remaining": remaining,
        "running": running,
    }


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
        elif not text.startswith("resign"):
            charged["remaining"][mover] += charged["increment"]
    if flagged is not None:
        charged["remaining"][flagged] = 0
        charged["flagged"] = [*charged.get("flagged", []), flagged]
    return charged, text, flagged
