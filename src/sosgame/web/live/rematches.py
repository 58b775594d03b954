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
from sosgame.web.live.machine import permissions
from sosgame.web.live.machine.permissions import RematchStep
from sosgame.web.live.room import Room
from sosgame.web.matchmaking import creation

__all__ = ["Links", "rematch"]

Links = Callable[[str, str], Awaitable[None]]
"""Seats the named players of the old game in the new one (old id, new id)."""


async def rematch(
    hub: Hub,
    room: Room,
    held: frozenset[int],
    what: RematchStep,
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
        if room.rematch_id is not None and what in ("offer", "accept"):
            existing = await hub.room(room.rematch_id)
            if existing is not None:
                return existing, None, False
        now = clocks.now_ms()
        permissions.check_rematch(room.live, held, what, now)
        required = permissions.people(room.live)
        mine = held & required
        standing = room.standing_offers(now)
        offer = next((item for item in standing if item["offer"] == "rematch"), None)
        others = [item for item in standing if item is not offer]
        if what in ("decline", "withdraw"):
            await room.store_offers(others)
            return None, None, False
        if offer is None:
            lapses = now + room.live.timings.rematch_ms
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
