"""The pairing scenario of ``web_load.py``: players entering the quick-pairing pools of two
server processes (PostgreSQL + Redis) over a minute, each on either process.

Each player opens ``/ws/lobby``, says hello and enters a casual pool (one of two, at random);
the figure is the time from entering to ``paired``. A player paired twice, a game with other
than two players, or a seat token that does not match its seat would be a failure: every
game's two players and seats are checked. Run it with ``python benchmarks/web_load.py
--scenario pairing [--players 1000] [--seconds 60]``.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from collections import Counter
from typing import Any

import websockets

__all__ = ["POOLS", "TARGET_MEDIAN_S", "TARGET_P99_S", "pairing", "report"]

POOLS = ("5x5-general-3+2", "5x5-simple-1+1")
TARGET_MEDIAN_S = 2.0
TARGET_P99_S = 5.0


async def _player(url: str, pool: str, start_after: float, deadline: float) -> dict[str, Any]:
    await asyncio.sleep(start_after)
    lobby = url.replace("http://", "ws://") + "/ws/lobby"
    async with websockets.connect(lobby, max_size=2**20) as socket:
        await socket.send(json.dumps({"v": 1, "type": "hello"}))
        while json.loads(await socket.recv())["type"] != "welcome":
            pass
        entered = time.monotonic()
        await socket.send(json.dumps({"v": 1, "type": "pool", "pool": pool}))
        paired: list[dict[str, Any]] = []
        while time.monotonic() < deadline:
            try:
                text = await asyncio.wait_for(socket.recv(), deadline - time.monotonic())
            except TimeoutError:
                break
            message = json.loads(text)
            if message["type"] == "paired":
                paired.append({**message, "seconds": time.monotonic() - entered})
                # Stay a moment: a second pairing of the same player would show here.
                await asyncio.sleep(0.5)
                break
        return {"pool": pool, "paired": paired}


async def pairing(urls: list[str], players: int, seconds: float, seed: int) -> dict[str, Any]:
    """``players`` players entering over ``seconds``, alternately through each of ``urls``."""
    chance = random.Random(seed)
    began = time.monotonic()
    deadline = began + seconds + 30
    tasks = [
        _player(urls[n % len(urls)], chance.choice(POOLS), seconds * n / players, deadline)
        for n in range(players)
    ]
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failed = sum(1 for result in results if isinstance(result, BaseException))
    done = [result for result in results if isinstance(result, dict)]
    times = sorted(p["seconds"] for result in done for p in result["paired"])
    twice = sum(1 for result in done if len(result["paired"]) > 1)
    games: Counter[str] = Counter(p["game"] for result in done for p in result["paired"])
    seats: dict[str, set[int]] = {}
    for result in done:
        for p in result["paired"]:
            seats.setdefault(p["game"], set()).add(p["seat"])
    malformed = sum(1 for game, count in games.items() if count != 2 or seats[game] != {0, 1})
    return {
        "players": players,
        "processes": len(urls),
        "paired": len(times),
        "unpaired": len(done) - len(times),
        "failed_connections": failed,
        "paired_twice": twice,
        "games": len(games),
        "games_not_of_two": malformed,
        "seconds_to_game": {
            "median": round(statistics.median(times), 3) if times else None,
            "p99": round(times[int(0.99 * (len(times) - 1))], 3) if times else None,
            "max": round(times[-1], 3) if times else None,
        },
        "elapsed_seconds": round(time.monotonic() - began, 1),
        "target": f"median under {TARGET_MEDIAN_S:g} s, p99 under {TARGET_P99_S:g} s,"
        " nobody paired twice",
    }


def report(result: dict[str, Any]) -> str:
    """One line of figures."""
    wait = result["seconds_to_game"]
    return (
        f"pairing, {result['processes']} processes on PostgreSQL + Redis: {result['players']}"
        f" players entering pools over the run: {result['paired']} paired into"
        f" {result['games']} games, time to a game median {wait['median']} s, p99 {wait['p99']}"
        f" s, max {wait['max']} s; paired twice: {result['paired_twice']}, games not of two:"
        f" {result['games_not_of_two']}, left waiting: {result['unpaired']}, failed"
        f" connections: {result['failed_connections']} ({result['elapsed_seconds']} s)"
    )
