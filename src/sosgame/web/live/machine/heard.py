"""A change another server process made and announced on the bus, taken into the state
when it follows the state's version (else the shell reads the game again)."""

from __future__ import annotations

from typing import Any

from sosgame.errors import IllegalMoveError, InvalidMoveError
from sosgame.web.live.machine.state import LiveState, ending_of, evolve

__all__ = ["heard"]


def heard(state: LiveState, event: dict[str, Any]) -> LiveState | None:
    """``state`` after the announced change, or ``None`` if it does not fit."""
    texts = event.get("texts")
    keep = event.get("keep")
    first = state.ply + 1 if keep is None else keep + 1
    if not isinstance(texts, list) or event.get("first") != first:
        return None
    if keep is not None and not (isinstance(keep, int) and 0 <= keep <= state.ply):
        return None
    undone = state.undone
    begun = state.begun
    if keep is not None:  # an undo there: what it took back, redo here gives back
        begun = state.started and state.kind == "online"
        undone = (*undone, *reversed(state.actions[keep:]))
    kept = state.actions if keep is None else state.actions[:keep]
    game = state.fresh_game() if keep is not None else state.game.copy()
    try:
        if keep is not None:
            game.play_all(kept)
        for text in texts:
            game.apply(str(text))
    except (IllegalMoveError, InvalidMoveError):
        return None
    clock = event.get("clock")
    return evolve(
        state,
        game=game,
        actions=(*kept, *(str(text) for text in texts)),
        undone=undone if not texts else (),
        begun=begun,
        version=int(event["version"]),
        status=str(event.get("status", state.status)),
        clock=clock if isinstance(clock, dict) else None,
        ending=ending_of(event.get("result")),
    )
