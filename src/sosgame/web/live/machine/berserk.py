"""Berserk, as lichess's Arenas have it: before their first move, a player of an Arena's
game halves the time on their clock (and plays without increment) for a point more if they
win (:mod:`sosgame.tournaments.arena_scoring`)."""

from __future__ import annotations

import copy

from sosgame.web.live.clock import BERSERK
from sosgame.web.live.machine.commands import Outcome
from sosgame.web.live.machine.state import LiveState, evolve
from sosgame.web.live.machine.writes import change, stored

__all__ = ["berserk"]


def berserk(state: LiveState, seat: int, now: int) -> Outcome:
    """``seat`` goes berserk (checked already: a clock that allows it, no move of its yet)."""
    assert state.clock is not None
    clock = copy.deepcopy(state.clock)
    # Its clock does not run before its first move: what it has is the whole initial time.
    clock["remaining"][seat] = int(clock["remaining"][seat]) // 2
    clock[BERSERK] = sorted({*clock[BERSERK], seat})
    new = evolve(state, game=state.game, clock=clock)
    return stored(new, change(new, clock, now, state.ply, version=state.version), now)
