"""The caps on new games hold over server processes when the requests come at once: three
times a cap's worth of new games, spread over two processes, makes exactly the cap's worth.

Two hubs on one SQLite file in one process (as ``tests/test_web_hubs.py`` does), then two
real ``sosgame serve`` processes on one PostgreSQL and Redis, where the requests race over
HTTP from one client address.
"""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from sos_hostile import address, serving
from sos_services import new_postgres_database, new_redis_database
from sosgame.web.live.hub import Hub, TooManyError
from sosgame.web.live.protocol import parse_new_game
from sosgame.web.matchmaking.creation import create
from test_web_hubs import run, two_hubs

CAP = 4
PEOPLE = [{"name": "Ann"}, {"name": "Bao"}]
BOTS = [{"name": "Ann"}, {"name": "Bot", "player": "random"}]


async def _outcomes(hubs: tuple[Hub, Hub], seats: list[dict[str, str]], owner: Any) -> Counter[str]:
    """``3 * CAP`` new games at once, alternating between the hubs; ``owner(n)`` is the
    address of request ``n``. How many were made, and the codes of those refused."""

    async def one(number: int) -> str:
        settings = parse_new_game({"rows": 3, "cols": 3, "seats": seats})
        try:
            await create(hubs[number % 2], settings, owner=owner(number))
        except TooManyError as refused:
            return refused.code
        return "made"

    return Counter(await asyncio.gather(*(one(number) for number in range(3 * CAP))))


def test_an_address_makes_its_cap_of_games_at_once_over_two_hubs(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with two_hubs(tmp_path) as hubs:
            for hub in hubs:
                hub.limits = replace(hub.limits, new_games_per_address=CAP)
            outcomes = await _outcomes(hubs, PEOPLE, lambda _number: "198.51.100.7")
            assert outcomes == {"made": CAP, "too_many_games": 2 * CAP}

    run(scenario)


def test_the_servers_cap_of_computer_games_holds_at_once_over_two_hubs(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with two_hubs(tmp_path) as hubs:
            for hub in hubs:
                hub.limits = replace(hub.limits, computer_games_total=CAP)
            # Every request from an address of its own: only the server's cap can refuse.
            outcomes = await _outcomes(hubs, BOTS, lambda number: f"198.51.100.{number + 1}")
            assert outcomes == {"made": CAP, "too_many_games": 2 * CAP}

    run(scenario)


@pytest.mark.parametrize(
    ("seats", "cap", "addresses"),
    [(PEOPLE, "SOSGAME_NEW_GAMES_PER_ADDRESS", 1), (BOTS, "SOSGAME_COMPUTER_GAMES_TOTAL", 3 * CAP)],
    ids=["per-address", "computer-games"],
)
def test_caps_hold_at_once_over_two_processes_on_postgresql_and_redis(
    postgres_server: str,
    redis_server: str,
    tmp_path: Path,
    seats: list[dict[str, str]],
    cap: str,
    addresses: int,
) -> None:
    name = f"sosgame_caps_{os.getpid()}_{addresses}"
    database = new_postgres_database(postgres_server, name)
    redis = new_redis_database(redis_server)
    options = ["--database", database, "--redis", redis]
    with serving(tmp_path, options, database, 2, {cap: str(CAP)}) as site:

        async def one(number: int) -> str:
            # Request n from address n mod ``addresses``, to process n mod 2.
            source = address(10 + number % addresses)
            transport = httpx.AsyncHTTPTransport(local_address=source)
            async with httpx.AsyncClient(transport=transport, timeout=60) as client:
                answer = await client.post(
                    f"{site.url(number)}/api/games", json={"rows": 3, "cols": 3, "seats": seats}
                )
            if answer.status_code == 201:
                return "made"
            assert answer.status_code == 429, answer.text
            code: str = answer.json()["error"]["code"]
            return code

        async def at_once() -> Counter[str]:
            return Counter(await asyncio.gather(*(one(number) for number in range(3 * CAP))))

        assert asyncio.run(at_once()) == {"made": CAP, "too_many_games": 2 * CAP}
