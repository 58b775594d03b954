"""Bots through the public HTTP API of a real ``sosgame serve`` (issue 49): the time from a
move's ``POST`` to the opponent's ``gameState`` line with it, and games a minute.

The benchmark starts the server on loopback with a fresh database (SQLite; with ``--pg``,
two processes on a temporary PostgreSQL and Redis, each game's two bots on different
processes, so that every move crosses the bus). It claims ``2 x --games`` named players,
makes each an API token and a bot account, and opens every bot's event stream. Then each
pair plays ``--each`` games back to back, ``--games`` pairs at once: the challenger's
``POST /api/challenge/{name}``, the challenged bot's ``accept`` when its event stream shows
the challenge, both game streams, and a move ``POST``\\ ed as soon as a ``gameState`` says the
bot is to move (a random empty cell, ``S`` or ``O``: the bots think for no time).

Printed: p50, p95 and p99 of POST-to-opponent-``gameState`` over every move (the mover's
clock from just before its ``POST`` to the moment the opponent's stream yields the line of
that move), the same for a challenge's ``POST`` to its line on the challenged bot's event
stream, the games finished a minute with ``--games`` games at once, the server's CPU time a
move (a figure a busy machine changes less than the times), and the load average.
The client runs on the same machine (one asyncio process) and shares its cores.

Run: ``python benchmarks/bots.py [--games 20] [--each 3] [--size 5x5] [--clock 60+1]
[--pg] [--url URL [--pid PID]] [--json]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from web_load import _MANY, _tree_cpu_seconds, serve

PASSWORD = "a long benchmark password"
KEEP_IDLE_SECONDS = 2.0
"""How long a client keeps an idle connection: less than the server's 5 s (uvicorn's), so
that no request goes out on a connection the server is closing at that moment (it would
fail with ``RemoteProtocolError``; an event stream opened so never opens)."""
_ENVIRONMENT = {
    **_MANY,
    "SOSGAME_LOGIN_ATTEMPTS_PER_MINUTE": "100000",
    "SOSGAME_PREPARE_COMPUTERS": "0",
}


@dataclass
class Bot:
    """One bot account: its name, token header and the server it talks to."""

    name: str
    headers: dict[str, str]
    client: httpx.AsyncClient
    events: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    event_times: dict[str, float] = field(default_factory=dict)
    listening: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once its event stream has answered."""


@dataclass
class Timings:
    """What a run measured."""

    moves: list[float] = field(default_factory=list)
    challenges: list[float] = field(default_factory=list)
    games: int = 0
    errors: list[str] = field(default_factory=list)


async def lines(
    client: httpx.AsyncClient,
    path: str,
    headers: dict[str, str],
    answered: asyncio.Event | None = None,
) -> AsyncIterator[tuple[float, dict[str, Any]]]:
    """The objects of an NDJSON stream, each with the moment its line arrived
    (``answered`` set once the stream has answered)."""
    async with client.stream("GET", path, headers=headers) as response:
        if response.status_code != 200:
            raise RuntimeError(f"{path}: {response.status_code} {await response.aread()!r}")
        if answered is not None:
            answered.set()
        async for line in response.aiter_lines():
            if line.strip():
                yield time.perf_counter(), json.loads(line)


async def make_bot(url: str, name: str) -> Bot:
    """Claim ``name``, make a token with ``bot:play`` and ``challenge:write``, upgrade."""
    limits = httpx.Limits(
        max_connections=None, max_keepalive_connections=None, keepalive_expiry=KEEP_IDLE_SECONDS
    )
    client = httpx.AsyncClient(base_url=url, timeout=httpx.Timeout(30, read=120), limits=limits)
    claimed = await client.post("/api/players", json={"name": name, "password": PASSWORD})
    claimed.raise_for_status()
    made = await client.post(
        "/api/tokens", json={"description": name, "scopes": ["bot:play", "challenge:write"]}
    )
    made.raise_for_status()
    client.cookies.clear()
    headers = {"authorization": f"Bearer {made.json()['token']}"}
    (await client.post("/api/bot/account/upgrade", headers=headers)).raise_for_status()
    return Bot(name, headers, client)


async def follow_events(bot: Bot) -> None:
    """Hand the bot's event-stream objects to its queue, noting when challenges arrived; a
    stream that fails says why, in the queue, at once."""
    try:
        async for arrived, event in lines(
            bot.client, "/api/stream/event", bot.headers, bot.listening
        ):
            if event["type"] == "challenge":
                bot.event_times[event["challenge"]["id"]] = arrived
            await bot.events.put(event)
    except Exception as error:
        await bot.events.put({"type": "failed", "error": f"{bot.name}'s event stream: {error!r}"})
        raise


async def next_event(bot: Bot, kind: str, key: str, wanted: str | None = None) -> dict[str, Any]:
    while True:
        event = await asyncio.wait_for(bot.events.get(), 60)
        if event["type"] == "failed":
            raise RuntimeError(event["error"])
        if event["type"] == kind and (wanted is None or event[key]["id"] == wanted):
            return event


def free_cells(board: list[str]) -> list[str]:
    return [
        f"{chr(ord('a') + col)}{row + 1}"
        for row, text in enumerate(board)
        for col, cell in enumerate(text)
        if cell == "."
    ]


async def play(bot: Bot, game_id: str, sent: dict[int, float], heard: dict[int, float]) -> None:
    """Follow the game's stream and move at once whenever the bot's seat is to move;
    ``sent`` notes when the move of each ply was posted, ``heard`` when a ``gameState`` of
    each ply arrived."""
    chance = random.Random(f"{bot.name}{game_id}")
    path = f"/api/bot/game/stream/{game_id}"
    seat = -1
    async for arrived, message in lines(bot.client, path, bot.headers):
        if message["type"] == "gameFull":
            (seat,) = message["seats"]
            state = message["state"]
        elif message["type"] == "gameState":
            state = message
            heard.setdefault(state["ply"], arrived)
        else:
            continue
        if state["status"] == "finished":
            return
        if state["turn"] != seat or state["status"] != "playing":
            continue
        move = chance.choice("SO") + chance.choice(free_cells(state["board"]))
        ply = state["ply"]
        sent[ply] = time.perf_counter()
        answer = await bot.client.post(
            f"/api/bot/game/{game_id}/move/{move}?ply={ply}", headers=bot.headers
        )
        if answer.status_code != 200:
            raise RuntimeError(f"move {move} at ply {ply}: {answer.text}")


async def one_game(one: Bot, two: Bot, body: dict[str, Any], timings: Timings) -> None:
    """``one`` challenges ``two``, which accepts; both play it out."""
    posted = time.perf_counter()
    made = await one.client.post(f"/api/challenge/{two.name}", json=body, headers=one.headers)
    made.raise_for_status()
    challenge_id = made.json()["challenge"]["id"]
    await next_event(two, "challenge", "challenge", challenge_id)
    timings.challenges.append(two.event_times[challenge_id] - posted)
    accepted = await two.client.post(f"/api/challenge/{challenge_id}/accept", headers=two.headers)
    accepted.raise_for_status()
    game_id = accepted.json()["game"]["id"]
    sent: list[dict[int, float]] = [{}, {}]
    heard: list[dict[int, float]] = [{}, {}]
    await asyncio.gather(
        play(one, game_id, sent[0], heard[0]), play(two, game_id, sent[1], heard[1])
    )
    # A move posted at ply p is the opponent's gameState of ply p + 1.
    for mover, opponent in ((0, 1), (1, 0)):
        for ply, at in sent[mover].items():
            if ply + 1 in heard[opponent]:
                timings.moves.append(heard[opponent][ply + 1] - at)
    timings.games += 1


async def pair(one: Bot, two: Bot, body: dict[str, Any], each: int, timings: Timings) -> None:
    for _ in range(each):
        try:
            await one_game(one, two, body, timings)
        except Exception as error:
            timings.errors.append(f"{one.name}-{two.name}: {error!r}")
            return


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def summary(values: list[float]) -> dict[str, float]:
    return {
        "count": len(values),
        "p50_ms": round(1000 * statistics.median(values), 1) if values else float("nan"),
        "p95_ms": round(1000 * percentile(values, 0.95), 1),
        "p99_ms": round(1000 * percentile(values, 0.99), 1),
        "max_ms": round(1000 * max(values), 1) if values else float("nan"),
    }


def cpu_seconds(pids: list[int]) -> float:
    """CPU time of the server processes so far (0 without their ids)."""
    return sum(_tree_cpu_seconds(pid) for pid in pids)


async def run(urls: list[str], arguments: argparse.Namespace, pids: list[int]) -> dict[str, Any]:
    rows, _, cols = arguments.size.partition("x")
    initial, _, increment = arguments.clock.partition("+")
    body = {
        "rows": int(rows),
        "cols": int(cols),
        "mode": arguments.mode,
        "clock": {"initial": int(initial), "increment": int(increment)},
        "days": None,
        "rated": False,
    }
    tag = f"{os.getpid() % 10000}"
    bots = []
    for n in range(arguments.games):
        # Each pair's two bots on different processes (with --pg): every move crosses the bus.
        bots.append(await make_bot(urls[0], f"BenchA{tag}n{n}"))
        bots.append(await make_bot(urls[-1], f"BenchB{tag}n{n}"))
    followers = [asyncio.create_task(follow_events(bot)) for bot in bots]
    # Every event stream open (what was made before a stream followed its account, it reads
    # from the store).
    await asyncio.wait_for(asyncio.gather(*(bot.listening.wait() for bot in bots)), 60)
    timings = Timings()
    cpu_before = cpu_seconds(pids)
    client_before = time.process_time()
    began = time.perf_counter()
    await asyncio.gather(
        *(
            pair(bots[2 * n], bots[2 * n + 1], body, arguments.each, timings)
            for n in range(arguments.games)
        )
    )
    elapsed = time.perf_counter() - began
    server_cpu = cpu_seconds(pids) - cpu_before
    client_cpu = time.process_time() - client_before
    for task in followers:
        task.cancel()
    for bot in bots:
        await bot.client.aclose()
    return {
        "processes": len(urls),
        "store": "PostgreSQL + Redis" if len(urls) > 1 else "SQLite",
        "games_at_once": arguments.games,
        "board": f"{arguments.size} {arguments.mode}",
        "clock": arguments.clock,
        "games": timings.games,
        "seconds": round(elapsed, 1),
        "games_per_minute": round(60 * timings.games / elapsed, 1),
        "move_to_opponent_state": summary(timings.moves),
        "challenge_to_event": summary(timings.challenges),
        "client_cpu_ms_per_move": (
            round(1000 * client_cpu / len(timings.moves), 2) if timings.moves else None
        ),
        "server_cpu_ms_per_move": (
            round(1000 * server_cpu / len(timings.moves), 2) if pids and timings.moves else None
        ),
        "errors": timings.errors[:5],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games played at once")
    parser.add_argument("--each", type=int, default=3, help="games each pair plays in turn")
    parser.add_argument("--size", default="5x5", help="board, ROWSxCOLS")
    parser.add_argument("--mode", default="general", choices=("general", "simple"))
    parser.add_argument("--clock", default="60+1", help="INITIAL+INCREMENT seconds")
    parser.add_argument("--pg", action="store_true", help="two processes, PostgreSQL + Redis")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--url",
        action="append",
        help="a server already running (started with the login and connection caps lifted);"
        " twice: two processes of one database",
    )
    parser.add_argument(
        "--pid", type=int, action="append", default=[], help="with --url: a server process to time"
    )
    arguments = parser.parse_args()
    if arguments.url:
        result = asyncio.run(run(arguments.url, arguments, arguments.pid))
    else:
        with serve(_ENVIRONMENT, 2 if arguments.pg else 1, by_game=arguments.pg) as site:
            result = asyncio.run(run(site.game_urls or [site.url], arguments, site.pids))
    result["load_average"] = [round(value, 2) for value in os.getloadavg()]
    result["machine"] = f"{platform.machine()}, {os.cpu_count()} cores, Python {sys.version[:6]}"
    if arguments.json:
        print(json.dumps(result, indent=2))
        return
    moves, challenges = result["move_to_opponent_state"], result["challenge_to_event"]
    print(
        f"{result['games']} games ({result['board']}, clock {result['clock']}), "
        f"{result['games_at_once']} at once, {result['store']}, {result['processes']} process(es)"
    )
    print(
        f"  POST move -> opponent's gameState: p50 {moves['p50_ms']} ms, p95 {moves['p95_ms']}"
        f" ms, p99 {moves['p99_ms']} ms, max {moves['max_ms']} ms ({moves['count']} moves)"
    )
    print(
        f"  POST challenge -> its event line: p50 {challenges['p50_ms']} ms, p99"
        f" {challenges['p99_ms']} ms ({challenges['count']} challenges)"
    )
    print(f"  {result['games_per_minute']} games a minute ({result['seconds']} s)")
    if result["server_cpu_ms_per_move"] is not None:
        print(
            f"  server CPU {result['server_cpu_ms_per_move']} ms a move (everything the server"
            " did while the games were played, divided by the moves); the client's"
            f" {result['client_cpu_ms_per_move']} ms"
        )
    print(f"  load average {result['load_average']}; {result['machine']}")
    for error in result["errors"]:
        print(f"  error: {error}")


if __name__ == "__main__":
    main()
