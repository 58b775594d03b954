"""Rates per address and per seat count over every server process: spreading one's requests
or sockets over processes gains nothing (the hubs of one process share their exchange's
buckets, processes share Redis's), and while Redis cannot be reached each process counts on
its own."""

from __future__ import annotations

import asyncio

import pytest

from sosgame.web.guards.ratelimit import SharedRates
from sosgame.web.network.bus import Exchange, LocalBus, RedisBus

BURST = 5


def _two_processes(one: object, two: object) -> tuple[SharedRates, SharedRates]:
    first, second = SharedRates("reads", 0.001, BURST), SharedRates("reads", 0.001, BURST)
    first.share(one)  # type: ignore[arg-type]
    second.share(two)  # type: ignore[arg-type]
    return first, second


async def _taken(first: SharedRates, second: SharedRates, client: str, tries: int) -> int:
    """Tokens ``client`` gets asking the two processes in turn, ``tries`` times."""
    answers = [await (first, second)[n % 2].allow(client) for n in range(tries)]
    return sum(answers)


def test_the_hubs_of_one_exchange_share_each_clients_bucket() -> None:
    exchange = Exchange()
    first, second = _two_processes(LocalBus(exchange), LocalBus(exchange))
    assert asyncio.run(_taken(first, second, "127.0.0.9", 20)) == BURST
    # Another client has a bucket of its own.
    assert asyncio.run(_taken(first, second, "127.0.0.10", 20)) == BURST


def test_unshared_rates_count_in_each_process_alone() -> None:
    first, second = SharedRates("reads", 0.001, BURST), SharedRates("reads", 0.001, BURST)
    assert asyncio.run(_taken(first, second, "127.0.0.9", 20)) == 2 * BURST


@pytest.mark.redis
def test_processes_on_one_redis_share_each_clients_bucket(redis_url: str) -> None:
    async def scenario() -> tuple[int, int]:
        one, two = RedisBus(redis_url), RedisBus(redis_url)
        for bus in (one, two):
            await bus.start(lambda _game, _event: None, lambda: None, lambda: None)
        try:
            first, second = _two_processes(one, two)
            shared = await _taken(first, second, "127.0.0.9", 20)
            other = await _taken(first, second, "127.0.0.10", 20)
            return shared, other
        finally:
            await one.close()
            await two.close()

    assert asyncio.run(scenario()) == (BURST, BURST)


def test_while_redis_cannot_be_reached_each_process_counts_alone() -> None:
    async def scenario() -> int:
        # Nothing listens there: every take fails, and each process falls back to its own.
        one, two = RedisBus("redis://127.0.0.1:9/0"), RedisBus("redis://127.0.0.1:9/0")
        from redis import asyncio as redis

        for bus in (one, two):
            bus._client = redis.from_url(bus.url, socket_connect_timeout=0.2)
        try:
            first, second = _two_processes(one, two)
            return await _taken(first, second, "127.0.0.9", 20)
        finally:
            for bus in (one, two):
                await bus._client.aclose()

    assert asyncio.run(scenario()) == 2 * BURST
