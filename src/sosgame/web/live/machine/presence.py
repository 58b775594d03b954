"""Who is here: which seats are away, since when, and who came back in time. In an online
game without a clock, a seat away for ``ServerLimits.abandon_seconds`` may be claimed
against (:mod:`sosgame.web.live.machine.endings`)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from sosgame.web.live.machine.clocks import next_timer
from sosgame.web.live.machine.commands import Outcome
from sosgame.web.live.machine.state import LiveState, evolve
from sosgame.web.storage.rows import HUMAN

__all__ = ["abandonment", "noted"]


def noted(state: LiveState, connected: frozenset[int], now: int) -> Outcome:
    """Note which seats are away since when; the state is sent again when that changed a
    game in which it matters."""
    away = dict(state.away_since)
    back = dict(state.came_back)
    seen = set(state.seen)
    for row in state.seats:
        if row.player != HUMAN or row.seat in connected:
            since = away.pop(row.seat, None)
            if since is not None and row.seat in seen:
                back[row.seat] = (state.ply, now - since)
            if row.player == HUMAN:
                seen.add(row.seat)
        else:
            away.setdefault(row.seat, now)
    new = evolve(
        state,
        game=state.game,
        away_since=MappingProxyType(away),
        came_back=MappingProxyType(back),
        seen=frozenset(seen),
    )
    shown = set(away) != set(state.away_since) and state.abandonable
    return Outcome(new, publish=shown, timer=next_timer(new, now) if shown else None)


def abandonment(state: LiveState, now: int) -> dict[str, Any] | None:
    """In a game that can be abandoned: ``after`` (ms away before a claim), per seat how
    long it has been away (``null``: here, or out of the game), and ``back``: per seat that
    came back in time since the last move, how long it was away."""
    if not state.abandonable:
        return None
    active = set(state.game.active_seats)
    away = [
        now - state.away_since[seat] if seat in state.away_since and seat in active else None
        for seat in state.seat_numbers
    ]
    back = [
        state.came_back[seat][1]
        if seat in state.came_back and state.came_back[seat][0] == state.ply
        else None
        for seat in state.seat_numbers
    ]
    return {"after": state.timings.abandon_ms, "away": away, "back": back}
