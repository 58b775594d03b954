"""What server processes tell each other: a game's changes, and that computer moves wait.

Every server runs the same code whether it is alone or one of many: its hub publishes each
change it stores on the game's channel, hears the changes others made to the games it has in
memory, and wakes whoever makes computer moves when one waits. Only the bus differs.
:class:`LocalBus` fans out inside one process, among the hubs that share its
:class:`Exchange` (a server alone has one hub, which then hears nothing from anyone).
Several processes serving the same games share a Redis server (:class:`RedisBus`): each
change is published on the game's channel (``sosgame:<db>:game:<id>``, with the database
number of the Redis URL, since all of a server's databases share its channels), and every
process that has the game in memory brings its copy up to date and tells its own
connections. Publishing never waits: messages go out in order. The bus also tells which
games another process has in memory (Redis counts each channel's subscribers), which a
process shutting down asks before it pauses their clocks (:mod:`sosgame.web.live.pauses`).

The database, not the bus, decides what happened: every event carries the game's version
after the change, so a hub that missed one (or hears one twice) notices and reads the game
again from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import deque
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Final, Protocol

from sosgame.web.guards.ratelimit import ClientRates

__all__ = [
    "Bus",
    "BusError",
    "Exchange",
    "LocalBus",
    "RedisBus",
    "account_channel",
    "game_channel",
    "wake_channel",
]

_log = logging.getLogger(__name__)

PREFIX: Final = "sosgame"
RETRY_SECONDS: Final = 0.5
"""The first wait before trying Redis again; it doubles after each failure ..."""
MAX_RETRY_SECONDS: Final = 15.0
"""... up to this."""
PING_SECONDS: Final = 2.0
"""How long a health check waits for Redis to answer."""
NUMSUB_BATCH: Final = 500
"""Channels whose subscribers one command counts."""
TAKE_SECONDS: Final = 0.5
"""How long a shared rate's token is waited for before the process counts on its own."""
TAKE_CONNECTIONS: Final = 4
"""Connections to Redis that take the shared rates' tokens, in each process."""
# A token bucket kept as the moment it is next full ("generic cell rate algorithm"): one
# key, read and written in one step, on Redis's own clock so that every process agrees.
_TAKE: Final = """
local now_parts = redis.call('TIME')
local now = tonumber(now_parts[1]) * 1000 + tonumber(now_parts[2]) / 1000
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local due = tonumber(redis.call('GET', KEYS[1]) or now)
if due < now then due = now end
if due - now > interval * (burst - 1) then return 0 end
due = due + interval
redis.call('SET', KEYS[1], string.format('%.3f', due), 'PX', math.ceil(due - now) + 1000)
return 1
"""

EventHandler = Callable[[str, dict[str, Any]], None]
NoticeHandler = Callable[[int, dict[str, Any]], None]


def game_channel(game_id: str, database: int = 0) -> str:
    """The channel a game's changes are published on."""
    return f"{PREFIX}:{database}:game:{game_id}"


def account_channel(account: int, database: int = 0) -> str:
    """The channel an account's notices (its event stream's lines) are published on."""
    return f"{PREFIX}:{database}:account:{account}"


def wake_channel(database: int = 0) -> str:
    """The channel that tells processes a computer move waits (the payload is unused)."""
    return f"{PREFIX}:{database}:jobs"


class BusError(RuntimeError):
    """The bus could not be reached (a clear message names the server)."""


class Bus(Protocol):
    """How one server process hears about the others' changes."""

    origin: str
    """This hub's name on the bus (events it sent itself are not handed back)."""

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

    def on_notice(self, handler: NoticeHandler) -> None:
        """Have ``handler(account, notice)`` called for other processes' notices to the
        accounts this process follows."""

    async def follow_account(self, account: int) -> None:
        """Hear an account's notices from now on (returns once subscribed; called again
        while the subscription is under way, returns once it is made)."""

    async def unfollow_account(self, account: int) -> None:
        """Stop hearing an account's notices."""

    def notify(self, account: int, notice: dict[str, Any]) -> None:
        """Send a notice to an account's event streams on the other processes (in order,
        without waiting)."""

    async def shared(self, game_ids: Sequence[str]) -> set[str] | None:
        """Of these games, those another hub follows too (has in memory); ``None`` if that
        cannot be told now."""

    async def reachable(self) -> bool | None:
        """Whether the bus's server answers now (``None``: there is none)."""

    async def take(self, key: str, rate: float, burst: int) -> bool | None:
        """Take a token of the bucket ``key`` that every process shares (``rate`` a second,
        up to ``burst``), if it has one; ``None`` if the buckets cannot be reached now."""

    async def close(self) -> None:
        """Send what is queued and disconnect."""


class Exchange:
    """The games' channels inside one process: which :class:`LocalBus` follows which game.

    Hubs that share an exchange serve the same games as processes sharing a Redis server
    would (each over its own store connection); a hub alone has an exchange of its own.
    """

    def __init__(self) -> None:
        self.buses: list[LocalBus] = []
        self.followers: dict[str, set[LocalBus]] = {}
        self.account_followers: dict[int, set[LocalBus]] = {}
        self.buckets: dict[tuple[float, int], ClientRates] = {}

    def take(self, key: str, rate: float, burst: int) -> bool:
        """Take a token of the bucket ``key`` the hubs of this exchange share."""
        rates = self.buckets.get((rate, burst))
        if rates is None:
            rates = self.buckets[(rate, burst)] = ClientRates(rate, burst)
        return rates.allow(key)

    def send(self, sender: LocalBus, game_id: str, event: dict[str, Any]) -> None:
        """Hand an event to every other bus that follows the game, later in its loop."""
        others = [bus for bus in self.followers.get(game_id, ()) if bus is not sender]
        if not others:
            return
        # Through JSON, as over Redis: no hub ever holds another's objects (a clock, say).
        text = json.dumps({**event, "origin": sender.origin}, separators=(",", ":"))
        for bus in others:
            bus.deliver(game_id, text)

    def wake(self) -> None:
        """Wake every bus's hub (the sender's too, as Redis does)."""
        for bus in self.buses:
            bus.deliver(None, "")

    def notify(self, sender: LocalBus, account: int, notice: dict[str, Any]) -> None:
        """Hand a notice to every other bus that follows the account."""
        others = [bus for bus in self.account_followers.get(account, ()) if bus is not sender]
        if others:
            text = json.dumps(notice, separators=(",", ":"))
            for bus in others:
                bus.deliver_notice(account, text)


class LocalBus:
    """The bus of the hubs of one process: events fan out through their :class:`Exchange`
    (one of its own unless given), in order, each in its hub's event loop."""

    def __init__(self, exchange: Exchange | None = None) -> None:
        self.origin = secrets.token_hex(6)
        self.exchange = exchange or Exchange()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._on_event: EventHandler = lambda _game, _event: None
        self._on_wake: Callable[[], None] = lambda: None
        self._on_notice: NoticeHandler = lambda _account, _notice: None

    async def start(
        self, on_event: EventHandler, on_wake: Callable[[], None], on_lost: Callable[[], None]
    ) -> None:
        self._on_event, self._on_wake = on_event, on_wake
        self._loop = asyncio.get_running_loop()
        self.exchange.buses.append(self)

    def on_notice(self, handler: NoticeHandler) -> None:
        self._on_notice = handler

    async def follow_account(self, account: int) -> None:
        self.exchange.account_followers.setdefault(account, set()).add(self)

    async def unfollow_account(self, account: int) -> None:
        followers = self.exchange.account_followers.get(account)
        if followers is not None:
            followers.discard(self)
            if not followers:
                del self.exchange.account_followers[account]

    def notify(self, account: int, notice: dict[str, Any]) -> None:
        self.exchange.notify(self, account, notice)

    def deliver_notice(self, account: int, text: str) -> None:
        """Hand this hub a notice to ``account`` in its own loop."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._notice, account, text)

    def _notice(self, account: int, text: str) -> None:
        if self._loop is not None:
            self._on_notice(account, json.loads(text))

    async def follow(self, game_id: str) -> None:
        self.exchange.followers.setdefault(game_id, set()).add(self)

    async def unfollow(self, game_id: str) -> None:
        followers = self.exchange.followers.get(game_id)
        if followers is not None:
            followers.discard(self)
            if not followers:
                del self.exchange.followers[game_id]

    def publish(self, game_id: str, event: dict[str, Any]) -> None:
        self.exchange.send(self, game_id, event)

    def wake(self) -> None:
        self.exchange.wake()

    def deliver(self, game_id: str | None, text: str) -> None:
        """Hand this hub an event about ``game_id`` (``None``: a wake) in its own loop."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._dispatch, game_id, text)

    def _dispatch(self, game_id: str | None, text: str) -> None:
        if self._loop is None:
            return  # closed meanwhile
        if game_id is None:
            self._on_wake()
        else:
            self._on_event(game_id, json.loads(text))

    async def shared(self, game_ids: Sequence[str]) -> set[str] | None:
        followers = self.exchange.followers
        return {game_id for game_id in game_ids if followers.get(game_id, set()) - {self}}

    async def reachable(self) -> bool | None:
        return None

    async def take(self, key: str, rate: float, burst: int) -> bool | None:
        return self.exchange.take(key, rate, burst)

    async def close(self) -> None:
        if self._loop is None:
            return
        self._loop = None
        self.exchange.buses.remove(self)
        for game_id, followers in list(self.exchange.followers.items()):
            if self in followers:
                await self.unfollow(game_id)
        for account, followers in list(self.exchange.account_followers.items()):
            if self in followers:
                await self.unfollow_account(account)


class RedisBus:
    """Events between server processes over Redis publish/subscribe at ``url``
    (``redis://host:port/db`` or ``unix:///path/to/socket``)."""

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
        self._on_notice: NoticeHandler = lambda _account, _notice: None
        self._channel: Callable[[str], str] = game_channel
        self._account_channel: Callable[[int], str] = account_channel
        self._wake = wake_channel()
        self._take: Any = None
        self._rates: Any = None

    async def start(
        self, on_event: EventHandler, on_wake: Callable[[], None], on_lost: Callable[[], None]
    ) -> None:
        from redis import asyncio as redis

        self._on_event, self._on_wake, self._on_lost = on_event, on_wake, on_lost
        self._client = redis.from_url(self.url)
        database = int(self._client.connection_pool.connection_kwargs.get("db", 0) or 0)
        self._channel = partial(game_channel, database=database)
        self._account_channel = partial(account_channel, database=database)
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

    def on_notice(self, handler: NoticeHandler) -> None:
        self._on_notice = handler

    async def follow_account(self, account: int) -> None:
        await self._subscribe(self._account_channel(account))

    async def unfollow_account(self, account: int) -> None:
        await self._unsubscribe(self._account_channel(account))

    def notify(self, account: int, notice: dict[str, Any]) -> None:
        text = f"{self.origin} " + json.dumps(notice, separators=(",", ":"))
        self._outbox.append((self._account_channel(account), text))
        self._ready.set()

    async def follow(self, game_id: str) -> None:
        await self._subscribe(self._channel(game_id))

    async def _subscribe(self, channel: str) -> None:
        if channel in self._subscribed:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(5):
                    await self._subscribed[channel].wait()
            return
        acknowledged = self._subscribed[channel] = asyncio.Event()
        await self._pubsub.subscribe(channel)
        # The reader sets the event on Redis's confirmation; past that, no event is missed.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(5):
                await acknowledged.wait()

    async def unfollow(self, game_id: str) -> None:
        await self._unsubscribe(self._channel(game_id))

    async def _unsubscribe(self, channel: str) -> None:
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

    async def shared(self, game_ids: Sequence[str]) -> set[str] | None:
        if self._client is None:
            return None
        channels = {self._channel(game_id): game_id for game_id in game_ids}
        found: set[str] = set()
        names = list(channels)
        try:
            for first in range(0, len(names), NUMSUB_BATCH):
                async with asyncio.timeout(PING_SECONDS):
                    counts = await self._client.pubsub_numsub(*names[first : first + NUMSUB_BATCH])
                for channel, count in counts:
                    name = _text(channel)
                    # Redis counts this process's own subscription too.
                    if int(count) > (name in self._subscribed):
                        found.add(channels[name])
        except Exception:
            return None
        return found

    async def reachable(self) -> bool | None:
        try:
            async with asyncio.timeout(PING_SECONDS):
                await self._client.ping()
        except Exception:
            return False
        return True

    async def take(self, key: str, rate: float, burst: int) -> bool | None:
        if self._client is None:
            return None
        if self._take is None:
            from redis import asyncio as redis

            # A few connections of their own, which a crowd of requests waits for in turn:
            # a connection each would open hundreds at once, slower than the tokens' answers.
            pool = redis.BlockingConnectionPool.from_url(
                self.url, max_connections=TAKE_CONNECTIONS, timeout=TAKE_SECONDS
            )
            self._rates = redis.Redis.from_pool(pool)
            self._take = self._rates.register_script(_TAKE)
        try:
            async with asyncio.timeout(TAKE_SECONDS):
                taken = await self._take(keys=[f"sosgame:rate:{key}"], args=[1000.0 / rate, burst])
        except Exception:
            return None  # Redis is away: the caller counts in this process meanwhile
        return bool(taken)

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
        place, _, key = channel.rpartition(":")
        if place.endswith(":account"):
            if key.isdigit():
                self._on_notice(int(key), event)
            return
        self._on_event(key, event)

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
        if self._rates is not None:
            with contextlib.suppress(Exception):
                await self._rates.aclose()
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
