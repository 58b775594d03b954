"""Rematches by consent: an offer every player of a finished game must accept, over the
WebSocket (``offer``, ``answer``, ``withdraw`` with ``"offer": "rematch"``) or with ``POST
/api/games/{id}/rematch``. The rematch is made (:func:`sosgame.web.matchmaking.creation.rematch`,
the seats rotated) only once every person who played has accepted; computer seats accept by
themselves. An offer lapses after ``ServerLimits.rematch_offer_seconds``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from sosgame.web.live import clock as clocks
from sosgame.web.live.hub import Hub
from sosgame.web.live.protocol import ProtocolError
from sosgame.web.live.room import Room
from sosgame.web.matchmaking import creation
from sosgame.web.storage.rows import HUMAN

__all__ = ["Links", "rematch"]

Links = Callable[[str, str], Awaitable[None]]
"""Seats the named players of the old game in the new one (old id, new id)."""


async def rematch(
    hub: Hub,
    room: Room,
    held: frozenset[int],
    what: str,
    *,
    links: Links,
    owner: str = "",
    player: int | None = None,
) -> tuple[Room | None, dict[str, Any] | None, bool]:
    """Offer (``what`` ``"offer"``), accept (``"accept"``), decline (``"decline"``) or
    withdraw (``"withdraw"``) the rematch of a finished game for the seats ``held``.

    Returns the rematch (once everyone has accepted: made now, or before), the offer as it
    stands otherwise, and whether the rematch is new."""
    async with room.lock:
        if room.rematch_id is not None:
            if what in ("offer", "accept"):
                existing = await hub.room(room.rematch_id)
                if existing is not None:
                    return existing, None, False
            raise ProtocolError("not_allowed", "the rematch has been made already")
        if room.status != "finished":
            raise ProtocolError("not_allowed", "a rematch is offered once the game is over")
        required = {row.seat for row in room.seats if row.player == HUMAN}
        mine = held & required
        if not mine:
            raise ProtocolError("not_your_seat")
        now = clocks.now_ms()
        standing = room.standing_offers(now)
        offer = next((item for item in standing if item["offer"] == "rematch"), None)
        others = [item for item in standing if item is not offer]
        if what in ("decline", "withdraw"):
            if offer is None:
                raise ProtocolError("no_offer", "the rematch offer")
            if what == "withdraw" and offer["from"] not in held:
                raise ProtocolError("not_your_seat", f"only seat {offer['from']} may withdraw it")
            await room.store_offers(others)
            return None, None, False
        if offer is None:
            if what == "accept":
                raise ProtocolError("no_offer", "the rematch offer")
            lapses = now + int(hub.limits.rematch_offer_seconds * 1000)
            offer = {"offer": "rematch", "from": min(mine), "accepted": [], "lapses": lapses}
        offer = {**offer, "accepted": sorted({*offer["accepted"], *mine})}
        if not required <= set(offer["accepted"]):
            await room.store_offers([*others, offer])
            return None, _shown(offer, now), False
        new, fresh = await creation.rematch(hub, room, owner=owner, player=player)
        if fresh:
            await links(room.id, new.id)
        # The offer is spent; the version this moves on tells the other processes to read
        # the game (and its rematch) again.
        await room.store_offers(others)
        return new, None, fresh


def _shown(offer: dict[str, Any], now: int) -> dict[str, Any]:
    return {
        "offer": offer["offer"],
        "from": offer["from"],
        "accepted": offer["accepted"],
        "lapses": max(0, int(offer["lapses"]) - now),
    }
