"""What the seats of a live game may do: one check per action on the machine's
:class:`~sosgame.web.live.machine.state.LiveState`, used both when the action arrives and for
the state's ``allowed`` flags, so that what the browser offers and what the server accepts
cannot disagree.

Each ``check_*`` raises :class:`~sosgame.web.live.protocol.ProtocolError` (its code and
message are the answer to the refused message) for ``held``, the seats a connection holds,
or returns quietly when the action would be carried out. ``ply`` is the message's; the
state's flags are for a message sent at the current ply.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Literal

from sosgame.web.live.clock import BERSERK
from sosgame.web.live.machine.state import LiveState
from sosgame.web.live.protocol import CLAIMS, OFFERS, OfferKind, ProtocolError
from sosgame.web.storage.rows import HUMAN

__all__ = [
    "RematchStep",
    "allowed",
    "check_abort",
    "check_answer",
    "check_claim",
    "check_hint",
    "check_move",
    "check_offer",
    "check_ply",
    "check_rematch",
    "check_resign",
    "check_steps",
    "check_withdraw",
    "people",
    "required_seats",
    "waiting_for",
]

RematchStep = Literal["offer", "accept", "decline", "withdraw"]


_NOT_SEATED: Final = "only a player of this game may do that"


def check_ply(state: LiveState, ply: int | None) -> None:
    """A message for another ply than the game's is stale (``None``: any ply)."""
    if ply is None:
        return
    current = len(state.game.actions)
    if ply != current:
        raise ProtocolError(
            "stale",
            f"the message is for ply {ply} but the game is at ply {current}",
        )


def _seated(held: frozenset[int]) -> None:
    if not held:
        raise ProtocolError("not_your_seat", _NOT_SEATED)


def _going_on(state: LiveState) -> None:
    if state.game.is_over or state.status == "finished":
        raise ProtocolError("game_over")
    if state.status != "playing":
        raise ProtocolError("waiting")


def check_move(state: LiveState, held: frozenset[int], ply: int | None = None) -> None:
    """``move``: the seat to move, while the game goes on."""
    _going_on(state)
    check_ply(state, ply)
    seat = state.game.turn
    if seat not in held:
        raise ProtocolError(
            "not_your_turn",
            f"it is seat {seat}'s turn ({state.seats[seat].name}) and this connection"
            " does not hold that seat",
        )


def check_steps(
    state: LiveState, held: frozenset[int], step: Literal["undo", "redo"], ply: int | None = None
) -> None:
    """``undo`` or ``redo``: local games, for a player, while there is something to take
    back or to play again."""
    if state.kind != "local":
        raise ProtocolError("not_allowed", f"{step} is for local games only")
    _seated(held)
    check_ply(state, ply)
    if step == "undo" and not state.can_undo:
        raise ProtocolError("nothing_to_undo")
    if step == "redo" and not state.can_redo:
        raise ProtocolError("nothing_to_redo")
    if step == "redo" and state.ending is not None:
        # Aborted or agreed: no move is played on after it (an undo opens the game again).
        raise ProtocolError("game_over")


def check_hint(state: LiveState, held: frozenset[int]) -> None:
    """``hint``: local games, for the player to move."""
    if state.kind != "local":
        raise ProtocolError("not_allowed", "hints are for local games only")
    if state.game.turn not in held or state.status != "playing" or state.game.is_over:
        raise ProtocolError("not_your_turn", "a hint is for the player to move")


def check_resign(
    state: LiveState, held: frozenset[int], seat: int | None, ply: int | None = None
) -> int:
    """``resign``: a seat still in a game that goes on; returns the seat that resigns (by
    default the seat to move in a local game, the connection's first seat online)."""
    _going_on(state)
    check_ply(state, ply)
    resigner = seat
    if resigner is None:
        resigner = state.game.turn if state.kind == "local" else min(held, default=-1)
    if resigner not in held:
        raise ProtocolError("not_your_seat", f"this connection does not hold seat {resigner}")
    if resigner not in state.game.active_seats:
        raise ProtocolError("illegal_move", f"seat {resigner} has already resigned")
    return resigner


def check_abort(state: LiveState, held: frozenset[int], ply: int | None = None) -> None:
    """``abort``: a player, until every seat has made its first move."""
    _seated(held)
    check_ply(state, ply)
    if state.game.is_over or state.status == "finished":
        raise ProtocolError("game_over")
    if state.started:
        raise ProtocolError(
            "not_allowed", "every seat has made its first move: resign instead of aborting"
        )


def check_berserk(state: LiveState, held: frozenset[int], ply: int | None = None) -> int:
    """``berserk``: a player of a game that allows it (an Arena tournament's, with a clock),
    before their first move, once; returns their seat."""
    _seated(held)
    check_ply(state, ply)
    _going_on(state)
    clock = state.clock
    if clock is None or clock.get("days") is not None or BERSERK not in clock:
        raise ProtocolError("not_allowed", "berserk is for the games of an Arena with a clock")
    seat = min(held)
    if seat in state.moved_seats:
        raise ProtocolError("not_allowed", "berserk is only before one's first move")
    if seat in clock[BERSERK]:
        raise ProtocolError("not_allowed", "this seat went berserk already")
    return seat


def _between_people(state: LiveState, held: frozenset[int], ply: int | None) -> set[int]:
    """A draw or takeback: an online game going on, every active seat a person; returns
    those seats (every one must accept)."""
    _seated(held)
    check_ply(state, ply)
    _going_on(state)
    if state.kind != "online":
        raise ProtocolError("not_allowed", "offers are for online games (use undo here)")
    return set(state.game.active_seats)


def required_seats(state: LiveState) -> set[int]:
    """The seats a draw or takeback needs: every active one, each a person."""
    active = set(state.game.active_seats)
    if any(state.seats[seat].player != HUMAN for seat in active):
        raise ProtocolError("not_allowed", "a computer player takes no offers; resign or play on")
    return active


def people(state: LiveState) -> set[int]:
    """The seats a rematch needs: every person of the game (computers accept by themselves)."""
    return {row.seat for row in state.seats if row.player == HUMAN}


def waiting_for(state: LiveState, offer: dict[str, Any]) -> list[int]:
    """The seats a standing offer still waits for."""
    needed = people(state) if offer["offer"] == "rematch" else set(state.game.active_seats)
    return sorted(needed - set(offer["accepted"]))


def check_offer(
    state: LiveState, held: frozenset[int], kind: OfferKind, ply: int | None, now: int
) -> None:
    """``offer``: a draw or takeback between people while an online game goes on (the same
    offer from another seat is accepted instead), a rematch once it is over."""
    if kind == "rematch":
        check_rematch(state, held, "offer", now)
        return
    _between_people(state, held, ply)
    mine = held & required_seats(state)
    if not mine:
        raise ProtocolError("not_your_seat", "only an active seat may make an offer")
    same = state.standing(kind, now)
    if same is not None:
        if mine <= set(same["accepted"]):
            raise ProtocolError("not_allowed", f"the {kind} offer stands already")
        return
    if kind == "takeback":
        state.takeback_point(min(mine))


def check_answer(
    state: LiveState, held: frozenset[int], kind: OfferKind, ply: int | None, now: int
) -> None:
    """``answer``: the standing offer, for seats that have not accepted it yet."""
    if kind == "rematch":
        check_rematch(state, held, "accept", now)
        return
    _between_people(state, held, ply)
    offer = state.standing(kind, now)
    if offer is None:
        raise ProtocolError("no_offer", f"the {kind} offer")
    if not (held & required_seats(state)) - set(offer["accepted"]):
        raise ProtocolError(
            "not_your_seat", f"this connection has no seat to answer the {kind} offer"
        )


def check_withdraw(
    state: LiveState, held: frozenset[int], kind: OfferKind, ply: int | None, now: int
) -> None:
    """``withdraw``: one's own standing offer."""
    if kind == "rematch":
        check_rematch(state, held, "withdraw", now)
        return
    _between_people(state, held, ply)
    offer = state.standing(kind, now)
    if offer is None:
        raise ProtocolError("no_offer", f"the {kind} offer")
    if offer["from"] not in held:
        raise ProtocolError("not_your_seat", f"only seat {offer['from']} may withdraw it")


def check_rematch(state: LiveState, held: frozenset[int], step: RematchStep, now: int) -> None:
    """A step of the rematch of a finished game, by a person who played it (a rematch made
    already is answered by :func:`sosgame.web.live.rematches.rematch` before this)."""
    if state.rematch is not None:
        raise ProtocolError("not_allowed", "the rematch has been made already")
    if state.status != "finished":
        raise ProtocolError("not_allowed", "a rematch is offered once the game is over")
    mine = held & people(state)
    if not mine:
        raise ProtocolError("not_your_seat", _NOT_SEATED)
    if step == "offer":
        return
    offer = state.standing("rematch", now)
    if offer is None:
        raise ProtocolError("no_offer", "the rematch offer")
    if step == "withdraw" and offer["from"] not in held:
        raise ProtocolError("not_your_seat", f"only seat {offer['from']} may withdraw it")
    if step in ("accept", "decline") and not mine - set(offer["accepted"]):
        raise ProtocolError(
            "not_your_seat", "this connection has no seat to answer the rematch offer"
        )


def check_claim(state: LiveState, held: frozenset[int], ply: int | None, now: int) -> list[int]:
    """``claim``: in an online game without a clock, by a seat still in it, against the
    seats away for ``ServerLimits.abandon_seconds``; returns those seats."""
    _seated(held)
    check_ply(state, ply)
    _going_on(state)
    if not state.abandonable:
        raise ProtocolError(
            "not_allowed", "a claim is for online games without a clock, while they go on"
        )
    active = list(state.game.active_seats)
    if not held & set(active):
        raise ProtocolError("not_your_seat", "only a seat still in the game may claim")
    limit = state.timings.abandon_ms
    absent = [
        seat
        for seat in active
        if seat not in held and now - state.away_since.get(seat, now) >= limit
    ]
    if not absent:
        raise ProtocolError(
            "not_abandoned",
            f"no seat has been away for {limit // 1000} s; a claim waits for that",
        )
    return absent


def _passes(check: Callable[..., object], *args: Any) -> bool:
    try:
        check(*args)
    except ProtocolError:
        return False
    return True


def _seat_allowed(state: LiveState, seat: int, now: int) -> dict[str, Any]:
    held = frozenset((seat,)) if state.seats[seat].player == HUMAN else frozenset()
    return {
        "can_move": _passes(check_move, state, held),
        "can_undo": _passes(check_steps, state, held, "undo"),
        "can_redo": _passes(check_steps, state, held, "redo"),
        "can_hint": _passes(check_hint, state, held),
        "can_resign": _passes(check_resign, state, held, seat),
        "can_abort": _passes(check_abort, state, held),
        "can_berserk": _passes(check_berserk, state, held),
        "can_offer": {kind: _passes(check_offer, state, held, kind, None, now) for kind in OFFERS},
        "can_answer": {
            kind: _passes(check_answer, state, held, kind, None, now) for kind in OFFERS
        },
        "can_withdraw": {
            kind: _passes(check_withdraw, state, held, kind, None, now) for kind in OFFERS
        },
        # Either claim is allowed when one is: they differ only in how the game ends.
        "can_claim": {kind: _passes(check_claim, state, held, None, now) for kind in CLAIMS},
    }


def allowed(state: LiveState, now: int) -> list[dict[str, Any]]:
    """Per seat, what a connection holding that seat alone may do at ``now`` (a computer
    seat, which no connection holds, nothing)."""
    return [_seat_allowed(state, seat, now) for seat in range(len(state.seats))]
