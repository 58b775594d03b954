"""Many simultaneous online games against a real ``sosgame serve``, on loopback only.

Starts the server in a child process with a temporary SQLite database, creates ``--games``
online games of two seats, takes both seats over HTTP, then connects two scripted WebSocket
players per game. Every game is played to the end: whoever the server says is to move sends
the game's next prepared move after a random think time (``--think`` seconds on average).
The latency of a move is the time from sending it until *both* players of the game have
received the state with that move. Reports games and moves per second and the latency's
percentiles; the run is bounded by ``--seconds``.

Run: ``make bench`` or ``python benchmarks/web_load.py [--games N] [--think S] [--json]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

TARGET_GAMES = 500
TARGET_P99_MS = 50.0


@dataclass
class Match:
    """One game: its prepared moves, when each was sent and when each player saw it."""

    id: str
    tokens: list[str]
    moves: list[str]
    sent: dict[int, float] = field(default_factory=dict)
    seen: dict[int, list[float]] = field(default_factory=dict)
    finished: asyncio.Event = field(default_factory=asyncio.Event)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def prepared_moves(size: int, rng: random.Random) -> list[str]:
    cells = [f"{chr(97 + col)}{row + 1}" for row in range(size) for col in range(size)]
    rng.shuffle(cells)
    return [rng.choice("SO") + cell for cell in cells]


async def create(client: httpx.AsyncClient, size: int, rng: random.Random) -> Match:
    body = {
        "rows": size,
        "cols": size,
        "kind": "online",
        "seats": [{"name": "Ann"}, {"name": "Bao"}],
    }
    created = (await client.post("/api/games", json=body)).json()
    second = (await client.post(f"/api/games/{created['id']}/seats/1", json={})).json()
    return Match(created["id"], [created["token"], second["token"]], prepared_moves(size, rng))


class Barrier:
    """Holds every player back until all of them are connected, so that connecting is not
    measured as part of playing."""

    def __init__(self, parties: int) -> None:
        self.waiting = parties
        self.go = asyncio.Event()
        self.began = 0.0

    async def arrive(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.began = time.perf_counter()
            self.go.set()
        await self.go.wait()


async def player(
    url: str,
    match: Match,
    seat: int,
    think: float,
    rng: random.Random,
    barrier: Barrier,
    deadline: float,
) -> None:
    async with websockets.connect(
        f"{url}/ws/games/{match.id}", max_size=2**20, compression=None
    ) as socket:
        await socket.send(json.dumps({"v": 1, "type": "hello", "token": match.tokens[seat]}))
        latest: dict[str, Any] | None = None
        while latest is None:
            message = json.loads(await socket.recv())
            if message["type"] == "state":
                latest = message["game"]
        await barrier.arrive()
        while True:
            assert latest is not None
            ply = latest["ply"]
            if latest["result"] is not None or time.monotonic() > deadline:
                match.finished.set()
                return
            if latest["turn"] == seat and ply not in match.sent and ply < len(match.moves):
                asyncio.get_running_loop().create_task(
                    move_later(socket, match, ply, think * rng.uniform(0.5, 1.5))
                )
            message = json.loads(await socket.recv())
            if message["type"] == "state":
                latest = message["game"]
                if latest["ply"]:
                    match.seen.setdefault(latest["ply"], []).append(time.perf_counter())


async def move_later(socket: Any, match: Match, ply: int, delay: float) -> None:
    match.sent[ply] = -1.0
    await asyncio.sleep(delay)
    message = json.dumps({"v": 1, "type": "move", "move": match.moves[ply], "ply": ply})
    match.sent[ply] = time.perf_counter()
    await socket.send(message)


async def run(arguments: argparse.Namespace, url: str) -> dict[str, Any]:
    rng = random.Random(arguments.seed)
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as client:
        matches: list[Match] = []
        for start in range(0, arguments.games, 50):
            batch = range(start, min(arguments.games, start + 50))
            matches += await asyncio.gather(*(create(client, arguments.size, rng) for _ in batch))
    ws_url = url.replace("http://", "ws://")
    deadline = time.monotonic() + arguments.seconds
    barrier = Barrier(2 * len(matches))
    tasks = [
        player(ws_url, match, seat, arguments.think, random.Random(rng.random()), barrier, deadline)
        for match in matches
        for seat in (0, 1)
    ]
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=arguments.seconds + 30)
    elapsed = time.perf_counter() - barrier.began
    latencies = []
    for match in matches:
        for ply, sent in match.sent.items():
            seen = match.seen.get(ply + 1, [])
            if sent > 0 and len(seen) >= 2:
                latencies.append((max(seen[:2]) - sent) * 1000)
    latencies.sort()
    finished = sum(1 for match in matches if len(match.seen) >= len(match.moves))

    def percentile(share: float) -> float:
        return latencies[min(len(latencies) - 1, int(share * len(latencies)))]

    return {
        "games": arguments.games,
        "connections": 2 * arguments.games,
        "board": f"{arguments.size}x{arguments.size}",
        "think_seconds": arguments.think,
        "elapsed_seconds": round(elapsed, 2),
        "games_finished": finished,
        "games_per_second": round(finished / elapsed, 2),
        "moves": len(latencies),
        "moves_per_second": round(len(latencies) / elapsed, 1),
        "latency_ms": {
            "median": round(statistics.median(latencies), 2),
            "p90": round(percentile(0.90), 2),
            "p99": round(percentile(0.99), 2),
            "max": round(latencies[-1], 2),
        },
    }


def _cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process (Linux), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=TARGET_GAMES, help="simultaneous games")
    parser.add_argument("--size", type=int, default=4, help="board side (default 4)")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between moves")
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit for the games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    arguments = parser.parse_args()
    if not 1 <= arguments.games <= 2000 or not 3 <= arguments.size <= 15:
        parser.error("--games must be 1 to 2000 and --size 3 to 15")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, max(soft, 4 * arguments.games + 256))
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{Path(folder) / 'load.sqlite3'}"
        command = [sys.executable, "-m", "sosgame", "serve", "--port", str(port)]
        server = subprocess.Popen(
            [*command, "--database", database],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    httpx.get(f"{url}/api/health", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            began = _cpu_seconds(server.pid)
            client_began = time.process_time()
            result = asyncio.run(run(arguments, url))
            result["server_cpu_seconds"] = round(_cpu_seconds(server.pid) - began, 2)
            result["client_cpu_seconds"] = round(time.process_time() - client_began, 2)
        finally:
            server.terminate()
            server.wait(10)
    result["machine"] = (
        f"{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}"
    )
    result["target"] = f"{TARGET_GAMES} games, p99 under {TARGET_P99_MS:g} ms"
    if arguments.json:
        print(json.dumps(result, indent=2))
    else:
        latency = result["latency_ms"]
        print(
            f"web load: {result['games']} games ({result['connections']} WebSockets),"
            f" {result['board']}, think {result['think_seconds']} s:"
            f" {result['games_per_second']} games/s, {result['moves_per_second']} moves/s;"
            f" send-to-everyone latency median {latency['median']} ms,"
            f" p99 {latency['p99']} ms, max {latency['max']} ms"
            f" ({result['games_finished']}/{result['games']} games finished"
            f" in {result['elapsed_seconds']} s; CPU seconds: server"
            f" {result['server_cpu_seconds']}, clients {result['client_cpu_seconds']})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
