"""The one entry point: :func:`apply` takes a live game's state, a command and the time, and
returns the :class:`~sosgame.web.live.machine.commands.Outcome`. It reads no clock, waits for
nothing and changes nothing: a refused command raises
:class:`~sosgame.web.live.protocol.ProtocolError` with its registered code."""

from __future__ import annotations

from sosgame.web.live.machine import arrival, endings, moves, offers, permissions
from sosgame.web.live.machine.berserk import berserk
from sosgame.web.live.machine.clocks import clock_view, deadline, first_move_deadline, next_timer
from sosgame.web.live.machine.commands import (
    Arrived,
    Command,
    Fire,
    Outcome,
    Play,
    Presence,
    Sent,
    Timer,
)
from sosgame.web.live.machine.presence import noted
from sosgame.web.live.machine.state import LiveState
from sosgame.web.live.protocol import (
    AbortMessage,
    AnswerMessage,
    BerserkMessage,
    ClaimMessage,
    MoveMessage,
    OfferMessage,
    ProtocolError,
    RedoMessage,
    ResignMessage,
    UndoMessage,
    WithdrawMessage,
)

__all__ = ["apply"]


def apply(state: LiveState, command: Command, now: int) -> Outcome:
    """What ``command`` does to ``state`` at ``now`` (ms)."""
    match command:
        case Sent():
            return _sent(state, command, now)
        case Play(text=text):
            if not state.playable:
                raise ProtocolError("game_over")
            return moves.play(state, (text,), now)
        case Fire(timer=timer):
            return _fired(state, timer, now)
        case Presence(connected=connected):
            return noted(state, connected, now)
        case Arrived(seats=seats):
            return arrival.arrived(state, seats, now)


def _sent(state: LiveState, sent: Sent, now: int) -> Outcome:
    held = sent.held
    match sent.message:
        case (
            OfferMessage(offer="rematch")
            | AnswerMessage(offer="rematch")
            | WithdrawMessage(offer="rematch")
        ):
            # Making a rematch is creating a game: the shell's rematches do it.
            raise ProtocolError("not_allowed", "a rematch is asked for on the game's socket")
        case MoveMessage(move=text, ply=ply):
            permissions.check_move(state, held, ply)
            return moves.play(state, (moves.parse_move(text),), now)
        case ResignMessage(seat=seat, ply=ply):
            resigner = permissions.check_resign(state, held, seat, ply)
            return moves.play(state, (f"resign:{resigner}",), now)
        case UndoMessage(ply=ply):
            permissions.check_steps(state, held, "undo", ply)
            return moves.undo(state, now)
        case RedoMessage(ply=ply):
            permissions.check_steps(state, held, "redo", ply)
            return moves.redo(state, now)
        case AbortMessage(ply=ply):
            permissions.check_abort(state, held, ply)
            return endings.finish(state, "aborted", [], now)
        case BerserkMessage(ply=ply):
            seat = permissions.check_berserk(state, held, ply)
            return berserk(state, seat, now)
        case ClaimMessage(claim=claim, ply=ply):
            absent = permissions.check_claim(state, held, ply, now)
            return endings.claim(state, claim, absent, now)
        case OfferMessage(offer=kind, ply=ply):
            permissions.check_offer(state, held, kind, ply, now)
            return offers.offer(state, held, kind, now)
        case AnswerMessage(offer=kind, accept=accept, ply=ply):
            permissions.check_answer(state, held, kind, ply, now)
            return offers.answer(state, held, kind, accept, now)
        case WithdrawMessage(offer=kind, ply=ply):
            permissions.check_withdraw(state, held, kind, ply, now)
            return offers.withdraw(state, kind, now)


def _fired(state: LiveState, timer: Timer, now: int) -> Outcome:
    """A timer went off: the seat to move loses on time, the game is aborted for a first
    move not made, or the state is only shown again; nothing if the game moved on."""
    if timer.kind == "flag":
        view = clock_view(state, now)
        if state.ply == timer.ply and view is not None and view["running"] is not None:
            seat = view["running"]
            if view["remaining"][seat] <= 0:
                return moves.play(state, (f"resign:{seat}",), now, flagged=seat)
    elif timer.kind == "overdue":
        first = first_move_deadline(state)
        due = deadline(state)
        if first is not None and first <= now:
            return endings.finish(state, "aborted", [], now)
        if first is None and due is not None and due <= now:
            turn = state.game.turn
            return moves.play(state, (f"resign:{turn}",), now, flagged=turn)
    else:
        return Outcome(state, publish=True, timer=next_timer(state, now))
    return Outcome(state, timer=next_timer(state, now))
