"""The clocks of a live game: when they run, what they show, and what the game waits for.

No clock runs until every seat has made its first move (or resigned); until then the clock's
``waiting`` is when the seat to move began to wait for its first move, and in an online game
with a clock a seat that does not make it in time aborts the game (a correspondence game
gives its first move the days of any other).
"""

from __future__ import annotations

from typing import Any

from sosgame.web.live import clock as clocks
from sosgame.web.live.machine.commands import Timer
from sosgame.web.live.machine.state import Clock, LiveState
from sosgame.web.storage.rows import HUMAN

__all__ = [
    "claimable_at",
    "clock_view",
    "deadline",
    "first_move_deadline",
    "first_move_left",
    "next_timer",
    "settled",
]


def settled(state: LiveState, clock: Clock, now: int) -> Clock:
    """``clock`` after a change that led to ``state``: the seat to move's clock runs from
    ``now`` once every seat has made its first move; until then none runs and the seat to
    move waits from ``now``."""
    if not state.playable:
        return {**clock, "since": None}
    if state.started:
        return {**clock, "since": now, "waiting": None}
    return {**clock, "since": None, "waiting": now}


def clock_view(state: LiveState, now: int) -> dict[str, Any] | None:
    """The clocks at ``now``: each seat's time left and whose clock is running."""
    return clocks.view(state.clock, state.game.turn if state.playable else None, now)


def deadline(state: LiveState) -> int | None:
    """When the seat to move of a correspondence game that has started runs out of days."""
    if state.clock is None or state.clock.get("since") is None or not state.playable:
        return None
    return clocks.deadline_ms(state.clock)


def first_move_deadline(state: LiveState) -> int | None:
    """When the seat to move aborts the game by not making its first move (online games
    with a clock), or ``None``."""
    clock = state.clock
    if clock is None or state.kind != "online" or not state.playable:
        return None
    if clock.get("waiting") is None or state.started:
        return None
    seat = state.game.turn
    if state.seats[seat].player != HUMAN or seat in state.moved_seats:
        return None
    if state.days:
        return int(clock["waiting"]) + int(clock["initial"])
    return int(clock["waiting"]) + state.timings.first_move_ms


def first_move_left(state: LiveState, now: int) -> dict[str, int] | None:
    """The seat that owes its first move and the time it has left, or ``None``."""
    due = first_move_deadline(state)
    if due is None:
        return None
    return {"seat": state.game.turn, "left": max(0, due - now)}


def claimable_at(state: LiveState, now: int) -> list[int]:
    """When seats away now may be claimed against, those still to come."""
    if not state.abandonable:
        return []
    active = set(state.game.active_seats)
    moments = (
        since + state.timings.abandon_ms
        for seat, since in state.away_since.items()
        if seat in active
    )
    return [moment for moment in moments if moment >= now]


def next_timer(state: LiveState, now: int) -> Timer | None:
    """The next moment the game waits for: the running clock's end, a first move due, or
    a change of what the state shows (a lapsing offer, a claim that opens)."""
    view = clock_view(state, now)
    if view is not None and view["running"] is not None:
        return Timer("flag", now + view["remaining"][view["running"]], state.ply)
    due = first_move_deadline(state)
    if due is not None:
        return Timer("overdue", due, state.ply)
    moments = [int(item["lapses"]) + 1 for item in state.standing_offers(now) if "lapses" in item]
    moments += [moment + 1 for moment in claimable_at(state, now)]
    if moments:
        return Timer("refresh", min(moments), state.ply)
    return None
