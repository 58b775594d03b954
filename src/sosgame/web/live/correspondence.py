"""The sweep of correspondence games: the server keeps their deadlines itself.

A game of days per move may be followed by nobody for days, and no process need have it in
memory. Each sweep asks the store for the games whose seat to move ran out of days (the
``deadline_ms`` each change stores) and ends them as the room's own timer would. Every
process sweeps; the version check of the store lets only the first end a game.
"""

from __future__ import annotations

from sosgame.web.live import clock as clocks
from sosgame.web.live.hub import Hub

__all__ = ["sweep"]


async def sweep(hub: Hub) -> None:
    """End the overdue correspondence games: a loss on time, or an abort before every seat
    has made its first move."""
    for game_id in await hub.db(hub.store.overdue, clocks.now_ms()):
        room = await hub.room(game_id)
        if room is not None:
            async with room.lock:
                await room.end_overdue()
