"""What the seats of a room may do now: one check per action, used both when the action
arrives and for the state's ``allowed`` flags, so that what the browser offers and what the
server accepts cannot disagree.

Each ``check_*`` raises :class:`~sosgame.web.live.protocol.ProtocolError` (its code and
message are the answer to the refused message) for ``held``, the seats a connection holds,
or returns quietly when the action would be carried out. ``ply`` is the message's; the
state's flags are for a message sent at the current ply.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Literal, Protocol

from sosgame.game import Game
from sosgame.table import Table
from sosgame.web.live import clock as clocks
from sosgame.web.live.host import RoomHost
from sosgame.web.live.protocol import CLAIMS, OFFERS, OfferKind, ProtocolError
from sosgame.web.storage.rows import HUMAN, SeatRow

__all__ = [
    "RematchStep",
    "RoomView",
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
    "standing",
    "waiting_for",
]

RematchStep = Literal["offer", "accept", "decline", "withdraw"]


class RoomView(Protocol):
    """What the checks read of a room (:class:`~sosgame.web.live.fairplay.FairPlay`)."""

    hub: RoomHost
    kind: str
    status: str
    seats: list[SeatRow]
    table: Table
    rematch_id: str | None
    away_since: dict[int, int]

    @property
    def game(self) -> Game: ...

    @property
    def started(self) -> bool: ...

    @property
    def abandonable(self) -> bool: ...

    def standing_offers(self, now: int | None = None) -> list[dict[str, Any]]: ...

    def takeback_point(self, asker: int) -> int: ...


_NOT_SEATED: Final = "only a player of this game may do that"


def check_ply(room: RoomView, ply: int | None) -> None:
    """A message for another ply than the game's is stale (``None``: any ply)."""
    if ply is None:
        return
    current = len(room.game.actions)
    if ply != current:
        raise ProtocolError(
            "stale",
            f"the message is for ply {ply} but the game is at ply {current}",
        )


def _seated(held: frozenset[int]) -> None:
    if not held:
        raise ProtocolError("not_your_seat", _NOT_SEATED)


def _going_on(room: RoomView) -> None:
    if room.game.is_over or room.status == "finished":
        raise ProtocolError("game_over")
    if room.status != "playing":
        raise ProtocolError("waiting")


def check_move(room: RoomView, held: frozenset[int], ply: int | None = None) -> None:
    """``move``: the seat to move, while the game goes on."""
    _going_on(room)
    check_ply(room, ply)
    seat = room.game.turn
    if seat not in held:
        raise ProtocolError(
            "not_your_turn",
            f"it is seat {seat}'s turn ({room.seats[seat].name}) and this connection"
            " does not hold that seat",
        )


def check_steps(
    room: RoomView, held: frozenset[int], step: Literal["undo", "redo"], ply: int | None = None
) -> None:
    """``undo`` or ``redo``: local games, for a player, while there is something to take
    back or to play again."""
    if room.kind != "local":
        raise ProtocolError("not_allowed", f"{step} is for local games only")
    _seated(held)
    check_ply(room, ply)
    if step == "undo" and not room.table.can_undo:
        raise ProtocolError("nothing_to_undo")
    if step == "redo" and not room.table.can_redo:
        raise ProtocolError("nothing_to_redo")


def check_hint(room: RoomView, held: frozenset[int]) -> None:
    """``hint``: local games, for the player to move."""
    if room.kind != "local":
        raise ProtocolError("not_allowed", "hints are for local games only")
    if room.game.turn not in held or room.status != "playing" or room.game.is_over:
        raise ProtocolError("not_your_turn", "a hint is for the player to move")


def check_resign(
    room: RoomView, held: frozenset[int], seat: int | None, ply: int | None = None
) -> int:
    """``resign``: a seat still in a game that goes on; returns the seat that resigns (by
    default the seat to move in a local game, the connection's first seat online)."""
    _going_on(room)
    check_ply(room, ply)
    resigner = seat
    if resigner is None:
        resigner = room.game.turn if room.kind == "local" else min(held, default=-1)
    if resigner not in held:
        raise ProtocolError("not_your_seat", f"this connection does not hold seat {resigner}")
    if resigner not in room.game.active_seats:
        raise ProtocolError("illegal_move", f"seat {resigner} has already resigned")
    return resigner


def check_abort(room: RoomView, held: frozenset[int], ply: int | None = None) -> None:
    """``abort``: a player, until every seat has made its first move."""
    _seated(held)
    check_ply(room, ply)
    if room.game.is_over or room.status == "finished":
        raise ProtocolError("game_over")
    if room.started:
        raise ProtocolError(
            "not_allowed", "every seat has made its first move: resign instead of aborting"
        )


def _between_people(room: RoomView, held: frozenset[int], ply: int | None) -> set[int]:
    """A draw or takeback: an online game going on, every active seat a person; returns
    those seats (every one must accept)."""
    _seated(held)
    check_ply(room, ply)
    _going_on(room)
    if room.kind != "online":
        raise ProtocolError("not_allowed", "offers are for online games (use undo here)")
    return set(room.game.active_seats)


def required_seats(room: RoomView) -> set[int]:
    """The seats a draw or takeback needs: every active one, each a person."""
    active = set(room.game.active_seats)
    if any(room.seats[seat].player != HUMAN for seat in active):
        raise ProtocolError("not_allowed", "a computer player takes no offers; resign or play on")
    return active


def people(room: RoomView) -> set[int]:
    """The seats a rematch needs: every person of the game (computers accept by themselves)."""
    return {row.seat for row in room.seats if row.player == HUMAN}


def waiting_for(room: RoomView, offer: dict[str, Any]) -> list[int]:
    """The seats a standing offer still waits for."""
    needed = people(room) if offer["offer"] == "rematch" else set(room.game.active_seats)
    return sorted(needed - set(offer["accepted"]))


def standing(room: RoomView, kind: str) -> dict[str, Any] | None:
    """The offer of ``kind`` that stands, if any."""
    return next((item for item in room.standing_offers() if item["offer"] == kind), None)


def check_offer(
    room: RoomView, held: frozenset[int], kind: OfferKind, ply: int | None = None
) -> None:
    """``offer``: a draw or takeback between people while an online game goes on (the same
    offer from another seat is accepted instead), a rematch once it is over."""
    if kind == "rematch":
        check_rematch(room, held, "offer")
        return
    _between_people(room, held, ply)
    mine = held & required_seats(room)
    if not mine:
        raise ProtocolError("not_your_seat", "only an active seat may make an offer")
    same = standing(room, kind)
    if same is not None:
        if mine <= set(same["accepted"]):
            raise ProtocolError("not_allowed", f"the {kind} offer stands already")
        return
    if kind == "takeback":
        room.takeback_point(min(mine))


def check_answer(
    room: RoomView, held: frozenset[int], kind: OfferKind, ply: int | None = None
) -> None:
    """``answer``: the standing offer, for seats that have not accepted it yet."""
    if kind == "rematch":
        check_rematch(room, held, "accept")
        return
    _between_people(room, held, ply)
    offer = standing(room, kind)
    if offer is None:
        raise ProtocolError("no_offer", f"the {kind} offer")
    if not (held & required_seats(room)) - set(offer["accepted"]):
        raise ProtocolError(
            "not_your_seat", f"this connection has no seat to answer the {kind} offer"
        )


def check_withdraw(
    room: RoomView, held: frozenset[int], kind: OfferKind, ply: int | None = None
) -> None:
    """``withdraw``: one's own standing offer."""
    if kind == "rematch":
        check_rematch(room, held, "withdraw")
        return
    _between_people(room, held, ply)
    offer = standing(room, kind)
    if offer is None:
        raise ProtocolError("no_offer", f"the {kind} offer")
    if offer["from"] not in held:
        raise ProtocolError("not_your_seat", f"only seat {offer['from']} may withdraw it")


def check_rematch(room: RoomView, held: frozenset[int], step: RematchStep) -> None:
    """A step of the rematch of a finished game, by a person who played it (a rematch made
    already is answered by :func:`sosgame.web.live.rematches.rematch` before this)."""
    if room.rematch_id is not None:
        raise ProtocolError("not_allowed", "the rematch has been made already")
    if room.status != "finished":
        raise ProtocolError("not_allowed", "a rematch is offered once the game is over")
    mine = held & people(room)
    if not mine:
        raise ProtocolError("not_your_seat", _NOT_SEATED)
    if step == "offer":
        return
    offer = standing(room, "rematch")
    if offer is None:
        raise ProtocolError("no_offer", "the rematch offer")
    if step == "withdraw" and offer["from"] not in held:
        raise ProtocolError("not_your_seat", f"only seat {offer['from']} may withdraw it")
    if step in ("accept", "decline") and not mine - set(offer["accepted"]):
        raise ProtocolError(
            "not_your_seat", "this connection has no seat to answer the rematch offer"
        )


def check_claim(
    room: RoomView, held: frozenset[int], ply: int | None = None, now: int | None = None
) -> list[int]:
    """``claim``: in an online game without a clock, by a seat still in it, against the
    seats away for ``ServerLimits.abandon_seconds``; returns those seats."""
    _seated(held)
    check_ply(room, ply)
    _going_on(room)
    if not room.abandonable:
        raise ProtocolError(
            "not_allowed", "a claim is for online games without a clock, while they go on"
        )
    active = list(room.game.active_seats)
    if not held & set(active):
        raise ProtocolError("not_your_seat", "only a seat still in the game may claim")
    limit = int(room.hub.limits.abandon_seconds * 1000)
    now = clocks.now_ms() if now is None else now
    absent = [
        seat
        for seat in active
        if seat not in held and now - room.away_since.get(seat, now) >= limit
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


def _seat_allowed(room: RoomView, seat: int, now: int) -> dict[str, Any]:
    held = frozenset((seat,)) if room.seats[seat].player == HUMAN else frozenset()
    return {
        "can_move": _passes(check_move, room, held),
        "can_undo": _passes(check_steps, room, held, "undo"),
        "can_redo": _passes(check_steps, room, held, "redo"),
        "can_hint": _passes(check_hint, room, held),
        "can_resign": _passes(check_resign, room, held, seat),
        "can_abort": _passes(check_abort, room, held),
        "can_offer": {kind: _passes(check_offer, room, held, kind) for kind in OFFERS},
        "can_answer": {kind: _passes(check_answer, room, held, kind) for kind in OFFERS},
        "can_withdraw": {kind: _passes(check_withdraw, room, held, kind) for kind in OFFERS},
        # Either claim is allowed when one is: they differ only in how the game ends.
        "can_claim": {kind: _passes(check_claim, room, held, None, now) for kind in CLAIMS},
    }


def allowed(room: RoomView) -> list[dict[str, Any]]:
    """Per seat, what a connection holding that seat alone may do now (a computer seat,
    which no connection holds, nothing)."""
    now = clocks.now_ms()
    return [_seat_allowed(room, seat, now) for seat in range(len(room.seats))]
