"""What server processes tell each other: a game's changes, and that computer moves wait.

A single process needs nobody: :class:`LocalBus` does nothing. Several processes serving the
same games share a Redis server (:class:`RedisBus`): each change a process stores is
published on the game's channel (``sosgame:<db>:game:<id>``, with the database number of
the Redis URL, since all of a server's databases share its channels), and every process that
has the game in memory brings its copy up to date and tells its own connections. Publishing
never waits for the network: messages go out in order from one task.

The database, not the bus, decides what happened: every event carries the game's version
after the change, so a process that missed one (or hears one twice) notices and reads the
game again from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Any, Final, Protocol

__all__ = ["Bus", "BusError", "LocalBus", "RedisBus", "game_channel", "wake_channel"]

_log = logging.getLogger(__name__)

PREFIX: Final = "sosgame"
RETRY_SECONDS: Final = 0.5
"""The first wait before trying Redis again; it doubles after each failure ..."""
MAX_RETRY_SECONDS: Final = 15.0
"""... up to this."""
PING_SECONDS: Final = 2.0
"""How long a health check waits for Redis to answer."""

EventHandler = Callable[[str, dict[str, Any]], None]


def game_channel(game_id: str, database: int = 0) -> str:
    """The channel a game's changes are published on."""
    return f"{PREFIX}:{database}:game:{game_id}"


def wake_channel(database: int = 0) -> str:
    """The channel that tells processes a computer move waits (the payload is unused)."""
    return f"{PREFIX}:{database}:jobs"


class BusError(RuntimeError):
    """The bus could not be reached (a clear message names the server)."""


class Bus(Protocol):
    """How one server process hears about the others' changes."""

    origin: str
    """This process's name on the bus (events it sent itself are not handed back)."""
    shared: bool
    """Whether other processes may change the same games."""

    async def start(
        self, on_event: EventHandler, on_wake: Callable[[], None], on_lost: Callable[[], None]
    ) -> None:
        """Connect; then ``on_event(game_id, event)`` for other processes' events,
        ``on_wake()`` when a computer move waits, ``on_lost()`` after events may have been
        missed (the connection dropped and came back)."""

    async def follow(self, game_id: str) -> None:
        """Hear a game's events from now on (returns once subscribed)."""

    async def unfollow(self, game_id: str) -> None:
        """Stop hearing a game's events."""

    def publish(self, game_id: str, event: dict[str, Any]) -> None:
        """Send an event about a game to the other processes (in order, without waiting)."""

    def wake(self) -> None:
        """Tell processes that make computer moves that one waits."""

    async def reachable(self) -> bool | None:
        """Whether the bus's server answers now (``None``: there is none)."""

    async def close(self) -> None:
        """Send what is queued and disconnect."""


class LocalBus:
    """The bus of a server that is the only process: nothing to tell anyone."""

    shared = False

    def __init__(self) -> None:
        self.origin = secrets.token_hex(6)

    async def start(
        self, on_event: EventHandler, on_wake: Callable[[], None], on_lost: Callable[[], None]
    ) -> None:
        return None

    async def follow(self, game_id: str) -> None:
        return None

    async def unfollow(self, game_id: str) -> None:
        return None

    def publish(self, game_id: str, event: dict[str, Any]) -> None:
        return None

    def wake(self) -> None:
        return None

    async def reachable(self) -> bool | None:
        return None

    async def close(self) -> None:
        return None


class RedisBus:
    """Events between server processes over Redis publish/subscribe at ``url``
    (``redis://host:port/db`` or ``unix:///path/to/socket``)."""

    shared = True

    def __init__(self, url: str) -> None:
        self.url = url
        self.origin = secrets.token_hex(6)
        self._client: Any = None
        self._pubsub: Any = None
        self._subscribed: dict[str, asyncio.Event] = {}
        self._outbox: deque[tuple[str, str]] = deque()
        self._ready = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._on_event: EventHandler = lambda _game, _event: None
        self._on_wake: Callable[[], None] = lambda: None
        self._on_lost: Callable[[], None] = lambda: None
        self._channel: Callable[[str], str] = game_channel
        self._wake = wake_channel()

    async def start(
        self, on_event: EventHandler, on_wake: Callable[[], None], on_lost: Callable[[], None]
    ) -> None:
        from redis import asyncio as redis

        self._on_event, self._on_wake, self._on_lost = on_event, on_wake, on_lost
        self._client = redis.from_url(self.url)
        database = int(self._client.connection_pool.connection_kwargs.get("db", 0) or 0)
        self._channel = partial(game_channel, database=database)
        self._wake = wake_channel(database)
        try:
            await self._client.ping()
        except Exception as error:
            await self._client.aclose()
            raise BusError(f"cannot reach Redis at {self.url}: {error}") from None
        self._pubsub = self._client.pubsub()
        loop = asyncio.get_running_loop()
        await self._pubsub.subscribe(self._wake)
        self._tasks = [loop.create_task(self._read()), loop.create_task(self._send())]

    async def follow(self, game_id: str) -> None:
        channel = self._channel(game_id)
        if channel in self._subscribed:
            await self._subscribed[channel].wait()
            return
        acknowledged = self._subscribed[channel] = asyncio.Event()
        await self._pubsub.subscribe(channel)
        # The reader sets the event on Redis's confirmation; past that, no event is missed.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(acknowledged.wait(), 5)

    async def unfollow(self, game_id: str) -> None:
        channel = self._channel(game_id)
        if self._subscribed.pop(channel, None) is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.unsubscribe(channel)

    def publish(self, game_id: str, event: dict[str, Any]) -> None:
        # The origin goes first, outside the JSON: Redis sends every event back to the
        # process that published it, which then drops it without parsing it.
        text = f"{self.origin} " + json.dumps(
            {**event, "origin": self.origin}, separators=(",", ":")
        )
        self._outbox.append((self._channel(game_id), text))
        self._ready.set()

    def wake(self) -> None:
        self._outbox.append((self._wake, self.origin))
        self._ready.set()

    async def reachable(self) -> bool | None:
        try:
            await asyncio.wait_for(self._client.ping(), PING_SECONDS)
        except Exception:
            return False
        return True

    async def _send(self) -> None:
        retry = Backoff("could not publish to Redis")
        while True:
            await self._ready.wait()
            self._ready.clear()
            while self._outbox:
                # Everything queued goes in one round trip (a pipeline), still in order.
                batch = list(self._outbox)
                try:
                    async with self._client.pipeline(transaction=False) as pipe:
                        for channel, text in batch:
                            pipe.publish(channel, text)
                        await pipe.execute()
                except Exception as error:
                    await retry.failed(error)
                    continue
                retry.succeeded()
                for _ in batch:
                    self._outbox.popleft()

    async def _read(self) -> None:
        retry = Backoff("lost the connection to Redis")
        while True:
            try:
                async for message in self._pubsub.listen():
                    retry.succeeded()
                    self._dispatch(message)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                await retry.failed(error)
                # The subscriptions are renewed on reconnection, but events sent meanwhile
                # are gone: once they are, the hub reads its games again (once, not at
                # every try while Redis is away).
                try:
                    await self._pubsub.subscribe(self._wake, *self._subscribed)
                except Exception as again:
                    await retry.failed(again)
                    continue
                self._on_lost()

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        channel = _text(message.get("channel"))
        if kind == "subscribe":
            acknowledged = self._subscribed.get(channel)
            if acknowledged is not None:
                acknowledged.set()
            return
        if kind != "message":
            return
        if channel == self._wake:
            self._on_wake()
            return
        origin, _, body = _text(message.get("data")).partition(" ")
        if origin == self.origin:
            return
        try:
            event = json.loads(body)
        except ValueError:
            _log.warning("ignored a message on %s that is not an origin and JSON", channel)
            return
        if not isinstance(event, dict):
            return
        self._on_event(channel.rpartition(":")[2], event)

    async def close(self) -> None:
        if self._client is None:
            return
        # Give queued events a moment to leave: other processes rely on them.
        for _ in range(50):
            if not self._outbox:
                break
            await asyncio.sleep(0.02)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self._client.aclose()
        self._client = None


class Backoff:
    """Waits between tries at something that fails: :data:`RETRY_SECONDS`, then twice as
    long after each failure, up to :data:`MAX_RETRY_SECONDS`; logs the first failure of
    a series (one line), not every one."""

    sleep = staticmethod(asyncio.sleep)

    def __init__(self, what: str) -> None:
        self.what = what
        self.failures = 0

    async def failed(self, error: Exception) -> None:
        """Note a failure and wait before the next try."""
        if not self.failures:
            _log.warning("%s (%s); trying again, less often while it fails", self.what, error)
        wait = min(MAX_RETRY_SECONDS, RETRY_SECONDS * 2.0 ** min(self.failures, 16))
        self.failures += 1
        await self.sleep(wait)

    def succeeded(self) -> None:
        """It worked: the next failure starts a new series."""
        if self.failures:
            _log.warning("%s: back after %d tries", self.what, self.failures)
            self.failures = 0


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value or "")
