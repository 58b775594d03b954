"""Actions on the board: moves and resignations (charged to the clock), a local game's undo
and redo, and the takeback of an online game."""

from __future__ import annotations

import dataclasses
from typing import Any

from sosgame.errors import GameOverError, IllegalMoveError, InvalidMoveError
from sosgame.notation import Move
from sosgame.table import PERSON
from sosgame.web.live import clock as clocks
from sosgame.web.live.machine.clocks import settled
from sosgame.web.live.machine.commands import Outcome
from sosgame.web.live.machine.state import LiveState, evolve
from sosgame.web.live.machine.writes import change, stored
from sosgame.web.live.protocol import ProtocolError

__all__ = ["parse_move", "play", "redo", "takeback", "undo"]


def parse_move(text: str) -> str:
    """A move's text, checked."""
    try:
        return str(Move.parse(text))
    except InvalidMoveError as error:
        raise ProtocolError("bad_move", str(error)) from None


def play(
    state: LiveState,
    texts: tuple[str, ...],
    now: int,
    *,
    flagged: int | None = None,
    ending: dict[str, Any] | None = None,
) -> Outcome:
    """Play ``texts`` (moves or resignations) with the engine, each charged to the clock of
    the seat to move; ``flagged``, the seat whose time ran out (its resignation);
    ``ending``, how the game ends if these actions end it (an abandoned game)."""
    game = state.game.copy()
    clock = state.clock
    played: list[str] = []
    for text in texts:
        clock, action, flagged = clocks.charge(clock, game.turn, text, now, flagged)
        try:
            game.apply(action)
        except IllegalMoveError as error:
            code = "game_over" if isinstance(error, GameOverError) else "illegal_move"
            raise ProtocolError(code, str(error)) from None
        except InvalidMoveError as error:
            raise ProtocolError("bad_move", str(error)) from None
        played.append(action)
    actions = (*state.actions, *played)
    new = evolve(
        state,
        game=game,
        actions=actions,
        undone=(),
        ending=ending if ending is not None and game.is_over else None,
        status="finished" if game.is_over else state.status,
    )
    if clock is not None:
        clock = settled(new, clock, now)
        new = evolve(new, game=game, clock=clock)
    made = change(new, clock, now, state.ply + 1, texts=tuple(played), version=state.version)
    return stored(new, made, now)


def _undone(
    state: LiveState, kept: tuple[str, ...], taken: tuple[str, ...], now: int, *, begun: bool
) -> Outcome:
    """The game back at its first ``len(kept)`` actions, what was ``taken`` (in the order it
    was taken back) kept for redo: it goes on, whatever had ended it."""
    back = evolve(
        state,
        actions=kept,
        undone=(*state.undone, *taken),
        ending=None,
        status="playing",
        begun=begun,
    )
    clock = state.clock
    if clock is not None:
        active = back.game.active_seats
        flagged = [seat for seat in clock.get("flagged", []) if seat not in active]
        clock = settled(back, {**clock, "flagged": flagged}, now)
        back = evolve(back, game=back.game, clock=clock)
    made = change(back, clock, now, len(kept) + 1, keep=len(kept), version=state.version)
    return stored(back, made, now)


def undo(state: LiveState, now: int) -> Outcome:
    """A local game's undo: back to a person's turn."""
    table = state.table()
    taken = tuple(str(action) for action in table.undo())
    kept = state.actions[: state.ply - len(taken)]
    return _undone(state, kept, taken, now, begun=state.begun)


def takeback(state: LiveState, keep: int, now: int) -> Outcome:
    """Take back every action after the first ``keep`` (an accepted takeback). An online
    game that had begun stays begun: the abort and the first-move timer do not come back."""
    if not 0 <= keep < state.ply:
        raise ProtocolError("nothing_to_undo")
    taken = tuple(reversed(state.actions[keep:]))
    begun = state.started and state.kind == "online"
    outcome = _undone(state, state.actions[:keep], taken, now, begun=begun)
    # Stored first: the moves kept after the takeback may no longer show it.
    return dataclasses.replace(outcome, begun=begun and not state.begun)


def redo(state: LiveState, now: int) -> Outcome:
    """A local game's redo: play again what undo took back, up to a person's turn."""
    game = state.game.copy()
    stack = list(state.undone)
    redone: list[str] = []
    person = bool(state.people)
    while stack:
        text = stack.pop()
        game.apply(text)
        redone.append(text)
        if not person or game.is_over or state.seats[game.turn].kind == PERSON:
            break
    new = evolve(state, game=game, actions=(*state.actions, *redone), undone=tuple(stack))
    new = evolve(new, game=game, status="finished" if game.is_over else state.status)
    clock = None if state.clock is None else settled(new, state.clock, now)
    new = evolve(new, game=game, clock=clock)
    made = change(new, clock, now, state.ply + 1, texts=tuple(redone), version=state.version)
    return stored(new, made, now)
