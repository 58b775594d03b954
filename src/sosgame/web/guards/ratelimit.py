"""Token buckets: one per WebSocket connection for its messages, one per client address for
the requests that cost the server work (replays, records, move lists, analyses), those of
the chat (:class:`sosgame.web.live.chat.ChatRates`) and the one that paces new sessions
(:mod:`sosgame.web.guards.admission`)."""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Final, Protocol

__all__ = [
    "BURST",
    "RATE",
    "ClientRates",
    "RateLimit",
    "SharedRates",
    "TokenStore",
]

RATE: Final = 10.0
"""Messages per second a connection may send on average ..."""
BURST: Final = 30.0
"""... and at most this many in a burst."""
CLIENTS: Final = 10_000
"""Client addresses whose buckets are kept; the least recently seen go first (a bucket
left alone that long is full again anyway, unless the rate is very low)."""


class RateLimit:
    """A token bucket: ``allow()`` says whether one more message fits."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = burst
        self._last = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now

    def allow(self) -> bool:
        """Take one token if there is one."""
        if self.ready():
            self._tokens -= 1
            return True
        return False

    def ready(self) -> bool:
        """Whether a token is there (none is taken)."""
        self._refill()
        return self._tokens >= 1

    def wait(self) -> float:
        """Seconds until a token is there (0 if one is now)."""
        self._refill()
        return max(0.0, (1 - self._tokens) / self.rate)


class ClientRates:
    """A :class:`RateLimit` per client address, made on its first request."""

    def __init__(self, rate: float, burst: float, *, clients: int = CLIENTS) -> None:
        self.rate = rate
        self.burst = burst
        self._clients = clients
        self._buckets: OrderedDict[str, RateLimit] = OrderedDict()

    def allow(self, client: str) -> bool:
        """Take one of ``client``'s tokens if it has one."""
        return self.bucket(client).allow()

    def bucket(self, client: str) -> RateLimit:
        """``client``'s bucket."""
        bucket = self._buckets.get(client)
        if bucket is None:
            bucket = self._buckets[client] = RateLimit(self.rate, self.burst)
            while len(self._buckets) > self._clients:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(client)
        return bucket


class TokenStore(Protocol):
    """Where the buckets every server process shares are kept (Redis, or the exchange of
    the hubs of one process)."""

    async def take(self, key: str, rate: float, burst: int) -> bool | None:
        """Take a token of the shared bucket ``key`` (``rate`` a second, up to ``burst``) if
        it has one; ``None`` if the buckets cannot be reached now."""


class SharedRates:
    """A token bucket per client (an address, a seat of a game) that every server process
    shares through ``tokens`` once it is set (:meth:`share`), so that spreading one's
    requests or sockets over processes gains nothing; while the shared buckets cannot be
    reached, each process counts on its own."""

    def __init__(self, name: str, rate: float, burst: int) -> None:
        self.name = name
        self.rate = rate
        self.burst = burst
        self._own = ClientRates(rate, burst)
        self._tokens: TokenStore | None = None

    def share(self, tokens: TokenStore) -> None:
        """Count in ``tokens`` from now on."""
        self._tokens = tokens

    async def allow(self, client: str) -> bool:
        """Take one of ``client``'s tokens if it has one."""
        if self._tokens is not None:
            taken = await self._tokens.take(f"{self.name}:{client}", self.rate, self.burst)
            if taken is not None:
                return taken
        return self._own.allow(client)
