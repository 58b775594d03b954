"""A rematch waits for its players: it is made the moment the last player accepts, perhaps
on a page they are leaving, so its clock carries ``"arrive": true`` and no first-move
``waiting``. The first-move timer starts when the seat to move opens the game, and that
moment is stored (time is the store's: every process then counts from it). A rematch
nobody opens is aborted by the sweep of unopened games (:mod:`sosgame.web.live.unopened`)."""

from __future__ import annotations

from sosgame.web.live.machine.commands import Outcome
from sosgame.web.live.machine.state import LiveState, evolve
from sosgame.web.live.machine.writes import change, stored

__all__ = ["ARRIVE", "arrived", "awaits_arrival"]

ARRIVE = "arrive"
"""The clock's key of a game whose first-move timer waits for the seat to move to open it."""


def awaits_arrival(state: LiveState) -> bool:
    """Whether the first-move timer waits for the seat to move to open the game."""
    clock = state.clock
    return (
        clock is not None
        and bool(clock.get(ARRIVE))
        and clock.get("waiting") is None
        and state.playable
        and not state.started
    )


def arrived(state: LiveState, seats: frozenset[int], now: int) -> Outcome:
    """Players holding ``seats`` opened the game at ``now``: if the seat to move is among
    them and the game waited for it, its first-move timer starts now."""
    if not awaits_arrival(state) or state.game.turn not in seats or state.clock is None:
        return Outcome(state)
    clock = {key: value for key, value in state.clock.items() if key != ARRIVE}
    clock["waiting"] = now
    new = evolve(state, game=state.game, clock=clock)
    return stored(new, change(new, clock, now, state.ply, version=state.version), now)
