"""Endings the engine does not know: an abort before every seat has moved, a draw agreed,
a game abandoned by a seat away too long (claimed by the players left)."""

from __future__ import annotations

from typing import Any

from sosgame.web.live import clock as clocks
from sosgame.web.live.machine.commands import Outcome
from sosgame.web.live.machine.moves import play
from sosgame.web.live.machine.state import LiveState, evolve
from sosgame.web.live.machine.writes import change, stored

__all__ = ["claim", "finish"]


def finish(state: LiveState, termination: str, winners: list[int], now: int) -> Outcome:
    """End the game as ``termination`` with ``winners``; the clocks stop as they stand."""
    clock = None
    if state.clock is not None:
        clock = {**state.clock, "since": None, "waiting": None}
        view = clocks.view(state.clock, state.game.turn, now)
        if view is not None:
            clock["remaining"] = view["remaining"]
    ending: dict[str, Any] = {
        "termination": termination,
        "winners": winners,
        "scores": list(state.game.scores),
        "flagged": [] if clock is None else list(clock.get("flagged", [])),
    }
    new = evolve(state, game=state.game, ending=ending, clock=clock, status="finished")
    made = change(new, clock, now, state.ply + 1, version=state.version)
    return stored(new, made, now)


def claim(state: LiveState, kind: str, absent: list[int], now: int) -> Outcome:
    """A claim against the ``absent`` seats: a draw ends the game; a win makes them resign
    (with one seat left, it wins the abandoned game; with more, the game goes on)."""
    active = list(state.game.active_seats)
    if kind == "draw":
        return finish(state, "abandoned", active, now)
    left = [seat for seat in active if seat not in absent]
    ending: dict[str, Any] = {
        "termination": "abandoned",
        "winners": left,
        "scores": list(state.game.scores),
        "flagged": [],
    }
    texts = tuple(f"resign:{seat}" for seat in absent)
    return play(state, texts, now, ending=ending if len(left) == 1 else None)
