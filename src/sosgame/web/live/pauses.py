"""Clocks that stand still across a restart of the only process serving a game, and only then.

A clock's running ``since`` and a first-move ``waiting`` are moments every server process
shares (:mod:`sosgame.web.live.clock`): a process that loads a game another one serves
mid-turn charges the mover from the turn's real start, and a process that stops without
shutting down (a crash) leaves the clocks running. Only a clean shutdown stops them: a hub
that closes pauses the running clocks and first-move timers of the games that no other hub
has in memory, storing when (the clock's ``paused``). The bus tells it which games others
have, once it has stopped following them itself, so that of hubs shutting down together the
last one pauses; when the bus cannot tell, it pauses none. The first load that finds a pause
resumes the clock (:func:`~sosgame.web.live.clock.resume`: the mover keeps the time it had
left, a first-move timer starts again whole) and stores it so before taking it, so that
every process resumes it alike. Days per move are never paused: they run on, as the store's
sweep has it.

A pause may still reach a game that another hub began to serve as this one shut down: that
hub finds the pause with the game in memory, where the clock ran all along, so it forgets
the pause (in the store too) and gives no time back.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Iterable
from typing import Any, Final, Protocol

from sosgame.web.live import clock as clocks
from sosgame.web.live.host import RoomHost
from sosgame.web.storage.rows import StoredGame

__all__ = ["Clocked", "pause_alone", "resume", "taken"]

_log = logging.getLogger(__name__)

ATTEMPTS: Final = 3
"""Tries at storing a resumed clock before a load takes it resumed in memory only (each
failure is another change, which stored the clock without its pause)."""

Clock = dict[str, Any]


class Clocked(Protocol):
    """What a pause needs of a room (:class:`~sosgame.web.live.room.Room` is one)."""

    hub: RoomHost
    id: str
    version: int
    clock: Clock | None
    lock: asyncio.Lock

    @property
    def playable(self) -> bool: ...

    @property
    def days(self) -> int | None: ...

    def later(self, work: Coroutine[Any, Any, None]) -> None: ...


def _running(room: Clocked) -> Clock | None:
    """The room's clock if it or the first-move timer runs (days per move aside)."""
    clock = room.clock
    if clock is None or room.days is not None or not room.playable:
        return None
    if clock.get("since") is None and clock.get("waiting") is None:
        return None
    return clock


async def pause_alone(host: RoomHost, rooms: Iterable[Clocked]) -> list[str]:
    """Pause the running clocks of those of ``rooms`` that no other hub has in memory (at a
    clean shutdown, once the rooms are closed); the games paused."""
    live = [(room, clock) for room in rooms if (clock := _running(room)) is not None]
    if not live:
        return []
    # Unfollowed first: of hubs that shut down together, the last to ask is then alone.
    for room, _clock in live:
        await host.bus.unfollow(room.id)
    shared = await host.bus.shared([room.id for room, _clock in live])
    if shared is None:
        _log.warning("no clock was paused: which games other processes serve is unknown")
        return []
    alone = [(room, clock) for room, clock in live if room.id not in shared]
    now = clocks.now_ms()
    entries = [(room.id, room.version, clocks.pause(clock, now)) for room, clock in alone]
    versions = await host.db(host.store.set_clocks, entries)
    paused = []
    for (room, _clock), version in zip(alone, versions, strict=True):
        if version is not None:  # else changed meanwhile: its clock runs on, as after a crash
            room.version = version
            # Heard by a hub that began to follow the game meanwhile, which forgets the pause.
            host.bus.publish(room.id, {"reload": True, "version": version})
            paused.append(room.id)
    return paused


async def resume(host: RoomHost, stored: StoredGame) -> StoredGame:
    """The game as a load takes it: a paused clock running again from now, stored so first
    (version-checked), so that every process takes the same clock."""
    for _ in range(ATTEMPTS):
        if stored.clock is None or clocks.paused_at(stored.clock) is None:
            return stored
        clock = clocks.resume(stored.clock, clocks.now_ms())
        [version] = await host.db(host.store.set_clocks, [(stored.id, stored.version, clock)])
        if version is not None:
            stored.clock, stored.version = clock, version
            host.bus.publish(stored.id, {"reload": True, "version": version})
            return stored
        again = await host.db(host.store.load, stored.id)
        if again is None:
            break
        stored = again
    if stored.clock is not None:
        stored.clock = clocks.resume(stored.clock, clocks.now_ms())
    return stored


def taken(room: Clocked, clock: Clock | None) -> Clock | None:
    """The stored ``clock`` as a room that has the game in memory takes it on reading the
    game again: a pause found there is forgotten without giving time back (the clock ran
    here meanwhile), and in the store too."""
    if clock is None or clocks.paused_at(clock) is None:
        return clock
    room.later(_forget(room, room.version))
    return clocks.resume(clock, None)


async def _forget(room: Clocked, version: int) -> None:
    async with room.lock:
        if room.version != version or room.clock is None:
            return  # changed since: that change stored the clock without the pause
        host = room.hub
        [moved] = await host.db(host.store.set_clocks, [(room.id, version, room.clock)])
        if moved is not None:
            room.version = moved
            host.bus.publish(room.id, {"reload": True, "version": moved})
