"""Offers by consent while an online game goes on: a draw or a takeback stands while the game
does not change (stamped with its version, it lapses with it); every other active seat must
accept, one that declines ends it, and whoever made it may withdraw it. (A rematch, once the
game is over, is :mod:`sosgame.web.live.rematches`' work.)"""

from __future__ import annotations

from typing import Any

from sosgame.web.live.machine import permissions
from sosgame.web.live.machine.commands import Outcome
from sosgame.web.live.machine.endings import finish
from sosgame.web.live.machine.moves import takeback
from sosgame.web.live.machine.state import LiveState
from sosgame.web.live.machine.writes import offers_written
from sosgame.web.live.protocol import OfferKind

__all__ = ["answer", "offer", "withdraw"]


def offer(state: LiveState, held: frozenset[int], kind: OfferKind, now: int) -> Outcome:
    """Make an offer (the same offer from another seat is an acceptance)."""
    required = permissions.required_seats(state)
    mine = held & required
    if state.standing(kind, now) is not None:
        return answer(state, held, kind, True, now)
    made: dict[str, Any] = {"offer": kind, "from": min(mine), "accepted": sorted(mine)}
    if mine >= required:
        return _carry_out(state, made, now)
    return offers_written(state, [*state.standing_offers(now), made], now)


def answer(
    state: LiveState, held: frozenset[int], kind: OfferKind, accept: bool, now: int
) -> Outcome:
    """Accept the standing offer (carried out once every seat has), or decline it."""
    standing = state.standing_offers(now)
    made = next(item for item in standing if item["offer"] == kind)
    others = [item for item in standing if item is not made]
    if not accept:
        return offers_written(state, others, now)
    mine = held & permissions.required_seats(state)
    made = {**made, "accepted": sorted({*made["accepted"], *mine})}
    if set(made["accepted"]) >= permissions.required_seats(state):
        return _carry_out(state, made, now)
    return offers_written(state, [*others, made], now)


def withdraw(state: LiveState, kind: OfferKind, now: int) -> Outcome:
    """Withdraw one's standing offer."""
    standing = state.standing_offers(now)
    return offers_written(state, [item for item in standing if item["offer"] != kind], now)


def _carry_out(state: LiveState, made: dict[str, Any], now: int) -> Outcome:
    if made["offer"] == "draw":
        return finish(state, "agreement", list(state.game.active_seats), now)
    return takeback(state, state.takeback_point(int(made["from"])), now)
