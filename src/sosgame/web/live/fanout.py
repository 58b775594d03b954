"""Sending to everyone watching a game: connections, their send queues and per-game channels.

A message is serialised once and the same text is queued for every connection; each
connection has its own sender task, so one slow client never holds up the others (it is
closed once too far behind on the messages it must have). Chat is not among those: past a
few chat messages waiting for a connection, more are dropped for it, so that a burst of
chat never closes a follower who reads promptly. Joins and leaves change only a small
``presence`` message, which is coalesced: a crowd arriving at once costs one presence
message per short interval, never the full state per arrival.

A room publishes to its :class:`LocalChannel` and never touches connections itself. Other
server processes serving the same game are reached through the bus (:mod:`sosgame.web.network.bus`),
not through the channel: each process sends to its own connections, and the channel only
adds up the presence the others announce.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, Final

from sosgame.web.live.protocol import PROTOCOL_VERSION

__all__ = ["PRESENCE_DELAY", "PRESENCE_TTL", "Connection", "LocalChannel", "dumps"]

PRESENCE_DELAY: Final = 0.1
"""Seconds a presence change waits for others to share its message."""
CHUNK: Final = 64
"""Connections handed a message per turn of the event loop: a message to a crowd is
delivered in chunks, so other games' moves are served in between."""

SLOW_CLOSE_CODE: Final = 1008
PRESENCE_DELAY_PER_FOLLOWER: Final = 0.001
"""Seconds added to a presence change's wait per connection that will be sent it: a crowd
gets its spectator count about once a second, so its presence messages cost a bounded share
of the server however many arrive."""


def presence_delay(followers: int) -> float:
    """Seconds a presence change waits, in a game followed by ``followers`` connections."""
    return PRESENCE_DELAY + followers * PRESENCE_DELAY_PER_FOLLOWER


def dumps(message: dict[str, Any]) -> str:
    """A message as the compact JSON text sent on the wire."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


class Connection:
    """One WebSocket: a queue of texts to send, drained by its own task, and the seats it
    holds (empty for a spectator)."""

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        close: Callable[[int, str], Awaitable[None]] | None = None,
        *,
        address: str = "",
        backlog: int = 64,
        chat_backlog: int = 16,
    ) -> None:
        self._send = send
        self._close = close
        self.address = address
        self.seats: frozenset[int] = frozenset()
        self.alias: str | None = None
        """The name a spectator without an account goes by in the chat (chosen there)."""
        self.greeted = False
        self._backlog = backlog
        self._chat_backlog = chat_backlog
        self._queue: deque[tuple[str, bool]] = deque()
        self._chats = 0
        """Chat messages in the queue: they count for neither backlog of the other."""
        self._ready = asyncio.Event()
        self._drained = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.closed = False

    def deliver(self, text: str, *, chat: bool = False) -> None:
        """Queue already encoded JSON; a connection too far behind is closed instead, but
        ``chat`` past the chat backlog is only dropped (it may be missed, and a burst of it
        is no sign of a slow reader)."""
        if self.closed:
            return
        if chat:
            if self._chats >= self._chat_backlog:
                return
            self._chats += 1
        elif len(self._queue) - self._chats >= self._backlog:
            self.abort(SLOW_CLOSE_CODE, "too slow: the connection fell too far behind")
            return
        self._queue.append((text, chat))
        self._ready.set()
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._pump())

    async def send(self, message: dict[str, Any]) -> None:
        """Queue one message (kept a coroutine so callers may await it)."""
        self.deliver(dumps(message))

    async def _pump(self) -> None:
        while not self.closed:
            await self._ready.wait()
            while self._queue:
                text, chat = self._queue.popleft()
                self._chats -= chat
                try:
                    await self._send(text)
                except Exception:
                    self.closed = True
                    self._drained.set()
                    return
            self._ready.clear()
            self._drained.set()

    async def flush(self) -> None:
        """Wait until every queued message has been handed to the socket."""
        if self._task is not None and self._queue and not self.closed:
            self._drained.clear()
            await self._drained.wait()

    def abort(self, code: int, reason: str) -> None:
        """Close the socket with ``code`` and ``reason`` and stop sending."""
        if self.closed:
            return
        self.closed = True
        self._queue.clear()
        self._chats = 0
        self._ready.set()
        self._drained.set()
        if self._close is not None:
            close = self._close
            task = asyncio.get_running_loop().create_task(_quietly(close(code, reason)))
            _BACKGROUND.add(task)
            task.add_done_callback(_BACKGROUND.discard)

    def stop(self) -> None:
        """Stop the sender task (the socket has gone)."""
        self.closed = True
        self._ready.set()
        self._drained.set()
        if self._task is not None:
            self._task.cancel()


_BACKGROUND: set[asyncio.Task[None]] = set()


async def _quietly(awaitable: Awaitable[None]) -> None:
    with contextlib.suppress(Exception):
        await awaitable


PRESENCE_TTL: Final = 30.0
"""Seconds another process's presence counts stand without being announced again."""


class LocalChannel:
    """A channel whose followers are connected to this process; with ``announce``, other
    processes serve the same game, and the presence shown adds up what they announce."""

    def __init__(
        self,
        game_id: str,
        seat_count: int,
        announce: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.game_id = game_id
        self._seat_count = seat_count
        self._announce = announce
        self._announced: tuple[int, list[int]] | None = None
        self._elsewhere: dict[str, tuple[int, frozenset[int], float]] = {}
        self._members: set[Connection] = set()
        self._holders: Counter[int] = Counter()
        self._watchers = 0
        self._presence: asyncio.TimerHandle | None = None
        self._outbox: deque[tuple[str, list[Connection]]] = deque()
        self._sender: asyncio.Task[None] | None = None

    def __len__(self) -> int:
        return len(self._members)

    def __iter__(self) -> Iterator[Connection]:
        return iter(list(self._members))

    def add(self, connection: Connection) -> None:
        if connection in self._members:
            return
        self._members.add(connection)
        self._holders.update(connection.seats)
        self._watchers += not connection.seats
        self._presence_changed()

    def remove(self, connection: Connection) -> None:
        if connection not in self._members:
            return
        self._members.discard(connection)
        self._holders.subtract(connection.seats)
        self._watchers -= not connection.seats
        self._presence_changed()

    def connected_seats(self) -> frozenset[int]:
        here = frozenset(seat for seat, count in self._holders.items() if count > 0)
        return here.union(*(seats for _, seats, _ in self._current_elsewhere()))

    def spectators(self) -> int:
        return self._watchers + sum(count for count, _, _ in self._current_elsewhere())

    def _current_elsewhere(self) -> list[tuple[int, frozenset[int], float]]:
        now = time.monotonic()
        for origin, (_, _, heard) in list(self._elsewhere.items()):
            if now - heard > PRESENCE_TTL:
                del self._elsewhere[origin]
        return list(self._elsewhere.values())

    def heard(self, origin: str, presence: Any) -> None:
        """Another process's followers of this game, as it announced them."""
        if not isinstance(presence, dict):
            return
        spectators, seats = presence.get("spectators"), presence.get("seats")
        if not isinstance(spectators, int) or not isinstance(seats, list):
            return
        counted = frozenset(seat for seat in seats if isinstance(seat, int))
        before = self._elsewhere.get(origin)
        self._elsewhere[origin] = (max(0, spectators), counted, time.monotonic())
        if before is None or before[:2] != (spectators, counted):
            self._presence_changed(local=False)

    def announce(self, *, again: bool = False) -> None:
        """Tell the other processes this one's followers (``again``: even if unchanged,
        so that they do not expire)."""
        if self._announce is None:
            return
        here = (
            self._watchers,
            sorted(seat for seat, count in self._holders.items() if count > 0),
        )
        if here != self._announced or again:
            self._announced = here
            self._announce({"spectators": here[0], "seats": here[1]})

    def publish(self, message: dict[str, Any]) -> None:
        self.publish_text(dumps(message))

    def publish_text(self, text: str) -> None:
        """Send already encoded JSON to every follower, in order."""
        members = list(self._members)
        if len(members) <= CHUNK and not self._outbox:
            for connection in members:
                connection.deliver(text)
            return
        # A crowd: one task hands out the messages in order, a chunk per loop turn.
        self._outbox.append((text, members))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(self._send_out())

    async def _send_out(self) -> None:
        while self._outbox:
            text, members = self._outbox[0]
            for start in range(0, len(members), CHUNK):
                for connection in members[start : start + CHUNK]:
                    connection.deliver(text)
                await asyncio.sleep(0)
            self._outbox.popleft()

    def presence(self) -> dict[str, Any]:
        """The small message sent when someone comes or goes."""
        seats = self.connected_seats()
        return {
            "v": PROTOCOL_VERSION,
            "type": "presence",
            "game": self.game_id,
            "spectators": self.spectators(),
            "connected": [seat in seats for seat in range(self._seat_count)],
        }

    def _presence_changed(self, *, local: bool = True) -> None:
        if self._presence is not None or not (self._members or local):
            return
        loop = asyncio.get_running_loop()
        self._presence = loop.call_later(presence_delay(len(self._members)), self._send_presence)

    def _send_presence(self) -> None:
        self._presence = None
        self.announce()
        if self._members:
            self.publish(self.presence())

    def close(self) -> None:
        if self._presence is not None:
            self._presence.cancel()
            self._presence = None
        if self._sender is not None:
            self._sender.cancel()
