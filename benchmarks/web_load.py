"""A real ``sosgame serve`` under load, on loopback (127.0.0.1) only, in three scenarios.

Each scenario starts the server in a child process with a temporary SQLite database.

* ``games``: ``--games`` online games of two seats; both seats are taken over HTTP, then two
  scripted WebSocket players per game play it to the end, each move after a random think
  time (``--think`` seconds on average). A move's latency is the time from sending it until
  *both* players of the game have received the state with that move.
* ``crowd``: ``--spectators`` WebSockets join one 15x15 game at once while a player of
  another game keeps moving (its move-to-answer time while they join is measured); then a
  move in the crowded game is timed until every spectator has it; then the crowd leaves and
  the server's memory is compared with before.
* ``flood``: one client asks for ``--flood`` games with only computer seats (``hard``
  against ``perfect``, 15x15) and watches every one it gets, while a person plays against
  ``easy`` in a game of their own: the time until the computer's answer arrives is measured
  before and during the flood.

With ``--processes N`` (N > 1) the server is ``sosgame serve --workers N`` on one port, with
a temporary PostgreSQL database and a temporary Redis server (Debian's packages, started and
stopped by the benchmark, as the tests do) instead of SQLite. With ``--by-game`` as well, it
is N ``sosgame serve`` processes on N ports, and each game's players connect to the process
the game's id hashes to, as behind a proxy that routes by game. ``--cpu-per-process SHARE``
caps each server process at SHARE of one core (a CPU cgroup; Linux, as root), so that a
small machine shows how the server scales when the server is what runs out of CPU, not the
load generator, PostgreSQL or Redis, which share its cores.

* ``attack``: hostile clients against a person's game (see ``benchmarks/web_attacks.py``):
  the attacks of the hostile-client tests at the sizes of issue #44 (quadratic JSON, huge
  bodies and headers, slow bodies, chat floods, minting games, uploads, cold loads, logins,
  ratings farming, ...), while a probe game times its moves; with ``--processes N``, on N
  processes sharing PostgreSQL + Redis.

* ``pairing``: ``--players`` players (1,000) entering the quick-pairing pools over
  ``--seconds``, through two processes on PostgreSQL + Redis (see
  ``benchmarks/web_pairing.py``): the time to a game, and that nobody is paired twice. Not
  part of ``all``.

Every run is bounded in connections and by ``--seconds`` per scenario.

Run: ``make bench`` or ``python benchmarks/web_load.py
[--scenario games|crowd|flood|attack|pairing|all] [--players N]
[--games N] [--think S] [--spectators N] [--flood N] [--processes N] [--by-game]
[--cpu-per-process SHARE] [--json]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
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
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

import web_attacks
import web_pairing

TARGET_GAMES = 500
TARGET_P99_MS = 50.0
TARGET_CROWD_MOVE_S = 2.0
TARGET_OTHER_GAME_MS = 250.0
TARGET_CROWD_MEMORY_MB = 60.0
TARGET_FLOOD_ANSWER_S = 3.0


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
    invite = created["links"]["seats"][1].rsplit("/", 1)[1]
    second = (
        await client.post(f"/api/games/{created['id']}/seats/1", json={"invite": invite})
    ).json()
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


async def run(
    arguments: argparse.Namespace, url: str, game_urls: list[str] | None = None
) -> dict[str, Any]:
    """Play the games; with ``game_urls``, each game's players connect to the process its
    id hashes to, as a proxy routing by game would send them."""
    rng = random.Random(arguments.seed)
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as client:
        matches: list[Match] = []
        for start in range(0, arguments.games, 50):
            batch = range(start, min(arguments.games, start + 50))
            matches += await asyncio.gather(*(create(client, arguments.size, rng) for _ in batch))
    ws_urls = [address.replace("http://", "ws://") for address in game_urls or [url]]
    deadline = time.monotonic() + arguments.seconds
    barrier = Barrier(2 * len(matches))

    def ws_url(match: Match) -> str:
        return ws_urls[zlib.crc32(match.id.encode()) % len(ws_urls)]

    tasks = [
        player(
            ws_url(match),
            match,
            seat,
            arguments.think,
            random.Random(rng.random()),
            barrier,
            deadline,
        )
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


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {}

    def at(share: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 2)

    return {
        "median": round(statistics.median(ordered), 2),
        "p90": at(0.9),
        "p99": at(0.99),
        "max": round(ordered[-1], 2),
    }


async def _until(socket: Any, check: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(await socket.recv())
        if check(message):
            return message


def _is_state(ply: int) -> Any:
    return lambda m: m["type"] == "state" and m["game"]["ply"] >= ply


async def _hello(socket: Any, token: str | None) -> dict[str, Any]:
    await socket.send(json.dumps({"v": 1, "type": "hello", "token": token}))
    state = await _until(socket, lambda m: m["type"] == "state")
    return dict(state["game"])


def _connect(url: str) -> Any:
    return websockets.connect(url, max_size=2**22, compression=None, open_timeout=60)


async def crowd(arguments: argparse.Namespace, url: str, pid: int) -> dict[str, Any]:
    """1000 spectators join one 15x15 game; a move reaches them all; they leave."""
    ws_url = url.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        body = {"rows": 15, "cols": 15, "kind": "online", "seats": [{"name": "A"}, {"name": "B"}]}
        big = (await client.post("/api/games", json=body)).json()
        invite = big["links"]["seats"][1].rsplit("/", 1)[1]
        await client.post(f"/api/games/{big['id']}/seats/1", json={"invite": invite})
        other = (
            await client.post(
                "/api/games", json={"rows": 15, "cols": 15, "seats": [{"name": "C"}, {"name": "D"}]}
            )
        ).json()
    moves = prepared_moves(15, random.Random(arguments.seed))
    before = web_attacks.rss_mb(pid)
    joined: list[float] = []
    got_move: list[float] = []
    all_joined = asyncio.Event()
    move_sent = [0.0]
    release = asyncio.Event()
    deadline = time.monotonic() + arguments.seconds

    async def spectator() -> None:
        async with _connect(f"{ws_url}/ws/games/{big['id']}") as socket:
            await _hello(socket, None)
            joined.append(time.perf_counter())
            if len(joined) == arguments.spectators:
                all_joined.set()
            await _until(socket, _is_state(1))
            got_move.append(time.perf_counter())
            await release.wait()

    # The other game's player runs in a process of its own, so that what it measures is the
    # server's answer, not this process's queue of a thousand handshakes.
    context = multiprocessing.get_context("spawn")
    ready, stop = context.Event(), context.Event()
    answers: Any = context.Queue()
    prober = context.Process(
        target=probe,
        args=(f"{ws_url}/ws/games/{other['id']}", other["token"], moves, ready, stop, answers),
    )
    prober.start()

    async with _connect(f"{ws_url}/ws/games/{big['id']}") as mover:
        await _hello(mover, big["token"])
        await asyncio.get_running_loop().run_in_executor(None, ready.wait, 60)
        await asyncio.sleep(0.2)
        began = time.perf_counter()
        tasks = [asyncio.ensure_future(spectator()) for _ in range(arguments.spectators)]
        await asyncio.wait_for(all_joined.wait(), timeout=arguments.seconds)
        join_seconds = time.perf_counter() - began
        stop.set()
        other_latency = await asyncio.get_running_loop().run_in_executor(
            None, answers.get, True, 60
        )
        prober.join(30)
        peak = web_attacks.rss_mb(pid)
        move_sent[0] = time.perf_counter()
        await mover.send(json.dumps({"v": 1, "type": "move", "move": "Sh8", "ply": 0}))
        while len(got_move) < arguments.spectators and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        move_seconds = max(got_move) - move_sent[0]
        release.set()
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=arguments.seconds)
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        while (await client.get("/api/health")).json()["connections"] > 0:
            await asyncio.sleep(0.1)
            if time.monotonic() > deadline + 30:
                break
    await asyncio.sleep(1.0)  # let the server finish closing the sockets it has let go
    after = web_attacks.rss_mb(pid)
    return {
        "spectators": arguments.spectators,
        "received_the_move": len(got_move),
        "join_seconds": round(join_seconds, 2),
        "move_to_everyone_seconds": round(move_seconds, 3),
        "other_game_while_joining_ms": percentiles(other_latency),
        "other_game_moves": len(other_latency),
        "rss_mb": {"before": before, "crowd": peak, "after": after},
    }


PROBE_PAUSE = 0.11
"""Seconds between the probe's moves: under the server's rate limit of 10 messages a second
(a faster probe runs out of its burst allowance and is refused, not answered)."""


def probe(url: str, token: str, moves: list[str], ready: Any, stop: Any, answers: Any) -> None:
    """In a child process: move in a game until ``stop``; put the answer times (ms) on
    ``answers``. The first move is made before ``ready`` is set; the times start after."""

    async def play() -> list[float]:
        times = []
        async with _connect(url) as socket:
            await _hello(socket, token)
            for ply, move in enumerate(moves):
                if ply and stop.is_set():
                    break
                began = time.perf_counter()
                message = json.dumps({"v": 1, "type": "move", "move": move, "ply": ply})
                await socket.send(message)
                await _until(socket, _is_state(ply + 1))
                if ply:
                    times.append((time.perf_counter() - began) * 1000)
                else:
                    ready.set()
                await asyncio.sleep(PROBE_PAUSE)
        return times

    answers.put(asyncio.run(play()))


async def flood(arguments: argparse.Namespace, url: str) -> dict[str, Any]:
    """One client asks for many computer-only games; a person plays easy elsewhere."""
    ws_url = url.replace("http://", "ws://")
    deadline = time.monotonic() + arguments.seconds
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        person = (
            await client.post(
                "/api/games",
                json={
                    "rows": 7,
                    "cols": 7,
                    "seats": [{"name": "Ann"}, {"name": "Bot", "player": "easy"}],
                },
            )
        ).json()
        answers = []
        for _ in range(arguments.flood):
            answers.append(
                await client.post(
                    "/api/games",
                    json={
                        "rows": 15,
                        "cols": 15,
                        "seats": [
                            {"name": "Hard", "player": "hard"},
                            {"name": "Perfect", "player": "perfect"},
                        ],
                    },
                )
            )
    accepted = [answer.json()["id"] for answer in answers if answer.status_code == 201]
    refused = [answer for answer in answers if answer.status_code == 429]
    moves = prepared_moves(7, random.Random(arguments.seed))
    stop = asyncio.Event()

    async def watch(game_id: str) -> None:
        async with _connect(f"{ws_url}/ws/games/{game_id}") as socket:
            await _hello(socket, None)
            receiver = asyncio.ensure_future(_drain(socket))
            await stop.wait()
            receiver.cancel()

    def answered(ply: int) -> Any:
        # The computer's first move after the person's (or the person's own extra turn).
        return lambda m: (
            m["type"] == "state"
            and (
                m["game"]["ply"] >= ply + 2
                or m["game"]["result"] is not None
                or (m["game"]["ply"] > ply and m["game"]["turn"] == 0)
            )
        )

    def persons_turn(m: dict[str, Any]) -> bool:
        game = m["game"] if m["type"] == "state" else {}
        return bool(game) and (
            game["result"] is not None or (game["turn"] == 0 and game["thinking"] is None)
        )

    async def play(socket: Any, count: int, state: dict[str, Any]) -> list[float]:
        times = []
        while len(times) < count:
            if time.monotonic() > deadline or state["result"] is not None:
                break
            ply = state["ply"]
            board = "".join(state["board"])
            move = next(m for m in moves if board[_cell_index(m, 7)] == ".")
            began = time.perf_counter()
            await socket.send(json.dumps({"v": 1, "type": "move", "move": move, "ply": ply}))
            state = (await _until(socket, answered(ply)))["game"]
            if state["ply"] >= ply + 2:  # the computer answered: count it
                times.append(time.perf_counter() - began)
            if not persons_turn({"type": "state", "game": state}):
                state = (await _until(socket, persons_turn))["game"]
        state_box[0] = state
        return times

    state_box: list[dict[str, Any]] = [{}]
    async with _connect(f"{ws_url}/ws/games/{person['id']}") as socket:
        state = await _hello(socket, person["token"])
        quiet = await play(socket, 3, state)
        watchers = [asyncio.ensure_future(watch(game_id)) for game_id in accepted]
        await asyncio.sleep(2.0)  # the computer games get going
        busy = await play(socket, arguments.flood_moves, state_box[0])
        stop.set()
        await asyncio.gather(*watchers)
    return {
        "requested": arguments.flood,
        "accepted": len(accepted),
        "refused_429": len(refused),
        "refusal": refused[0].json()["error"]["message"] if refused else None,
        "answer_seconds_quiet": [round(value, 2) for value in quiet],
        "answer_seconds_during_flood": percentiles(busy),
        "answers_during_flood": len(busy),
    }


async def _drain(socket: Any) -> None:
    async for _ in socket:
        pass


def _cell_index(move: str, cols: int) -> int:
    return (int(move[2:]) - 1) * cols + (ord(move[1]) - 97)


@contextmanager
def _store(processes: int) -> Iterator[list[str]]:
    """The ``serve`` options for where games are kept: SQLite for one process; for several,
    a temporary PostgreSQL and Redis."""
    if processes == 1:
        with tempfile.TemporaryDirectory() as folder:
            yield ["--database", f"sqlite:///{Path(folder) / 'load.sqlite3'}"]
        return
    sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
    from sos_services import new_postgres_database, running_postgres, running_redis

    with running_postgres() as postgres, running_redis() as redis:
        database = new_postgres_database(postgres, "sosgame_load")
        yield ["--database", database, "--redis", f"{redis}/0"]


@dataclass
class Site:
    """The server processes of a run: ``url`` takes HTTP; ``game_urls`` (with
    ``--by-game``) is one URL per process, each serving the games whose id hashes to it."""

    url: str
    pids: list[int]
    game_urls: list[str] | None = None


@contextmanager
def serve(environment: dict[str, str], processes: int = 1, by_game: bool = False) -> Iterator[Site]:
    """``sosgame serve`` on free loopback ports with a fresh database: one process, or
    ``--workers N`` on one port, or (``by_game``) N processes on N ports."""
    with _store(processes) as options:
        command = [sys.executable, "-m", "sosgame", "serve", "--host", "127.0.0.1", *options]
        if by_game:
            launches = [[*command, "--port", str(free_port())] for _ in range(processes)]
        elif processes > 1:
            launches = [[*command, "--port", str(free_port()), "--workers", str(processes)]]
        else:
            launches = [[*command, "--port", str(free_port())]]
        servers: list[subprocess.Popen[bytes]] = []
        try:
            urls = []
            # One after the other: the first process migrates the new database alone.
            for launch in launches:
                servers.append(
                    subprocess.Popen(
                        launch,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                        env={**os.environ, **environment},
                    )
                )
                urls.append(f"http://127.0.0.1:{launch[launch.index('--port') + 1]}")
                for _ in range(600):
                    try:
                        httpx.get(f"{urls[-1]}/api/health", timeout=1)
                        break
                    except httpx.HTTPError:
                        time.sleep(0.1)
            if by_game or processes == 1:
                pids = [server.pid for server in servers]
            else:
                while len(_descendants(servers[0].pid)) < processes:
                    time.sleep(0.1)
                pids = _server_processes(servers[0].pid)
            yield Site(urls[0], pids, urls if by_game else None)
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait(30)


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (Linux)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, of in parents.items() if of == parent]
        found += children
        frontier += children
    return found


def _tree_cpu_seconds(pid: int) -> float:
    """CPU time of a process and every process below it that is still running."""
    total = 0.0
    for member in [pid, *_descendants(pid)]:
        try:
            total += _cpu_seconds(member)
        except OSError:
            continue
    return total


def _machine_busy_seconds() -> float:
    """CPU seconds every core of the machine has spent busy since boot (Linux)."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split()[1:9]]
    idle = fields[3] + fields[4]
    return (sum(fields) - idle) / os.sysconf("SC_CLK_TCK")


# Every connection of a scenario comes from 127.0.0.1, so its per-address caps are lifted.
_MANY = {
    "SOSGAME_MAX_CONNECTIONS_PER_ADDRESS": "5000",
    "SOSGAME_GAMES_PER_ADDRESS": "100000",
    "SOSGAME_NEW_GAMES_PER_ADDRESS": "100000",
    "SOSGAME_COLD_LOADS_PER_SECOND": "100000",
    "SOSGAME_COLD_LOAD_BURST": "100000",
}


CGROUP_ROOTS = (Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup"))
"""Where a CPU cgroup may be made: cgroup v1's cpu controller, or the v2 unified tree."""


def _server_processes(supervisor: int) -> list[int]:
    """uvicorn's worker processes under ``supervisor`` (not multiprocessing's helpers)."""
    workers = []
    for child in _descendants(supervisor):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b"resource_tracker" not in command:
            workers.append(child)
    return workers


@contextmanager
def cpu_capped(pids: list[int], share: float | None) -> Iterator[dict[str, float]]:
    """Each of ``pids`` in a CPU cgroup of its own, allowed ``share`` of one core (Linux,
    as root): so that a 2-core machine can show how the server scales when the server, not
    the load generator, PostgreSQL or Redis, is what runs out of CPU."""
    throttling: dict[str, float] = {}
    if share is None:
        yield throttling
        return
    root = next((path for path in CGROUP_ROOTS if (path / "cgroup.procs").exists()), None)
    if root is None or not os.access(root, os.W_OK):
        raise SystemExit("--cpu-per-process needs a writable CPU cgroup (Linux, as root)")
    period = 100_000
    made = []
    try:
        for pid in pids:
            group = root / f"sosgame-load-{os.getpid()}-{pid}"
            group.mkdir()
            made.append(group)
            if (group / "cpu.max").exists():
                (group / "cpu.max").write_text(f"{int(share * period)} {period}")
            else:
                (group / "cpu.cfs_period_us").write_text(str(period))
                (group / "cpu.cfs_quota_us").write_text(str(int(share * period)))
            (group / "cgroup.procs").write_text(str(pid))
        yield throttling
    finally:
        # The share of scheduling periods in which the processes used up their CPU: near
        # 1 means the cap, not the rest of the machine, held them back.
        periods = throttled = 0
        for group in made:
            stat = dict(line.split() for line in (group / "cpu.stat").read_text().splitlines())
            periods += int(stat.get("nr_periods", 0))
            throttled += int(stat.get("nr_throttled", 0))
        throttling["throttled_share"] = round(throttled / periods, 3) if periods else 0.0
        for group in made:
            for member in (group / "cgroup.procs").read_text().split():
                with contextlib.suppress(OSError):  # it has ended
                    (root / "cgroup.procs").write_text(member)
            group.rmdir()


def run_games(arguments: argparse.Namespace) -> dict[str, Any]:
    with (
        serve(_MANY, arguments.processes, arguments.by_game) as site,
        cpu_capped(site.pids, arguments.cpu_per_process) as throttling,
    ):
        began = sum(_tree_cpu_seconds(pid) for pid in site.pids)
        machine_began = _machine_busy_seconds()
        client_began = time.process_time()
        result = asyncio.run(run(arguments, site.url, site.game_urls))
        spent = sum(_tree_cpu_seconds(pid) for pid in site.pids) - began
        result["server_cpu_seconds"] = round(spent, 2)
        result["server_cpu_ms_per_move"] = round(1000 * spent / max(1, result["moves"]), 3)
        result["client_cpu_seconds"] = round(time.process_time() - client_began, 2)
        result["machine_busy_cpu_seconds"] = round(_machine_busy_seconds() - machine_began, 2)
        result["processes"] = arguments.processes
        result["by_game"] = arguments.by_game
        result["store"] = "SQLite" if arguments.processes == 1 else "PostgreSQL + Redis"
        result["cpu_per_process"] = arguments.cpu_per_process
    result["cpu_cap_throttled_share"] = throttling.get("throttled_share")
    result["target"] = f"{TARGET_GAMES} games, p99 under {TARGET_P99_MS:g} ms"
    return result


def run_pairing(arguments: argparse.Namespace) -> dict[str, Any]:
    processes = max(2, arguments.processes)
    environment = {**_MANY, "SOSGAME_POOL_ENTRIES_PER_ADDRESS": "100000"}
    with serve(environment, processes, by_game=True) as site:
        assert site.game_urls is not None
        return asyncio.run(
            web_pairing.pairing(
                site.game_urls, arguments.players, arguments.seconds, arguments.seed
            )
        )


def run_crowd(arguments: argparse.Namespace) -> dict[str, Any]:
    with serve(_MANY, arguments.processes) as site:
        result = asyncio.run(crowd(arguments, site.url, site.pids[0]))
    result["target"] = (
        f"move to every spectator under {TARGET_CROWD_MOVE_S:g} s, another game's move"
        f" answered under {TARGET_OTHER_GAME_MS:g} ms while they join, memory back within"
        f" {TARGET_CROWD_MEMORY_MB:g} MB"
    )
    return result


def run_flood(arguments: argparse.Namespace) -> dict[str, Any]:
    with serve({}, arguments.processes) as site:
        result = asyncio.run(flood(arguments, site.url))
    result["target"] = f"the person's move answered within {TARGET_FLOOD_ANSWER_S:g} s"
    return result


def run_attack(arguments: argparse.Namespace) -> dict[str, Any]:
    # The hostile-client tests' servers and probe: one process on SQLite, or N separate
    # processes on PostgreSQL + Redis (the attacks spread their clients over them).
    from sos_hostile import LOWERED_LIMITS, probing, serving

    with (
        _store(arguments.processes) as options,
        tempfile.TemporaryDirectory() as folder,
        serving(Path(folder), options, options[1], arguments.processes, LOWERED_LIMITS) as site,
        probing(site) as probe,
    ):
        result = asyncio.run(
            web_attacks.attack(site, probe, arguments.attack_seconds, arguments.attack_json_kib)
        )
    result["target"] = web_attacks.TARGET
    result["processes"] = arguments.processes
    return result


def report(name: str, result: dict[str, Any]) -> str:
    if name == "attack":
        return web_attacks.report(result)
    if name == "pairing":
        return web_pairing.report(result)
    if name == "games":
        latency = result["latency_ms"]
        return (
            f"web load, {result['processes']} process(es) on {result['store']}"
            + (
                f" (each capped at {result['cpu_per_process']:g} of a core, throttled in"
                f" {result['cpu_cap_throttled_share']:.0%} of periods)"
                if result["cpu_per_process"]
                else ""
            )
            + (", games routed to their process" if result["by_game"] else "")
            + ":"
            f" {result['games']} games ({result['connections']} WebSockets),"
            f" {result['board']}, think {result['think_seconds']} s:"
            f" {result['games_per_second']} games/s, {result['moves_per_second']} moves/s;"
            f" send-to-everyone latency median {latency['median']} ms,"
            f" p99 {latency['p99']} ms, max {latency['max']} ms"
            f" ({result['games_finished']}/{result['games']} games finished"
            f" in {result['elapsed_seconds']} s; CPU seconds: server"
            f" {result['server_cpu_seconds']} ({result['server_cpu_ms_per_move']} ms a move),"
            f" clients {result['client_cpu_seconds']},"
            f" whole machine {result['machine_busy_cpu_seconds']})"
        )
    if name == "crowd":
        other = result["other_game_while_joining_ms"]
        memory = result["rss_mb"]
        return (
            f"crowd: {result['spectators']} spectators joined one 15x15 game in"
            f" {result['join_seconds']} s; a move reached all"
            f" ({result['received_the_move']}) in {result['move_to_everyone_seconds']} s;"
            f" another game's moves while they joined: median {other.get('median')} ms,"
            f" max {other.get('max')} ms ({result['other_game_moves']} moves); server memory"
            f" {memory['before']} MB before, {memory['crowd']} MB with the crowd,"
            f" {memory['after']} MB after it left"
        )
    during = result["answer_seconds_during_flood"]
    return (
        f"computer flood: {result['requested']} computer-only games asked for,"
        f" {result['accepted']} accepted, {result['refused_429']} refused (429);"
        f" a person's move against easy answered in {result['answer_seconds_quiet']} s"
        f" before, median {during.get('median')} s and max {during.get('max')} s during"
        f" ({result['answers_during_flood']} moves)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--scenario",
        choices=["games", "crowd", "flood", "attack", "pairing", "all"],
        default="all",
        help="all: every scenario but pairing (which needs PostgreSQL and Redis)",
    )
    parser.add_argument("--games", type=int, default=TARGET_GAMES, help="simultaneous games")
    parser.add_argument("--size", type=int, default=4, help="board side (default 4)")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between moves")
    parser.add_argument("--spectators", type=int, default=1000, help="the crowd's size")
    parser.add_argument("--flood", type=int, default=40, help="computer-only games asked for")
    parser.add_argument("--flood-moves", type=int, default=8, help="the person's moves")
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit per scenario")
    parser.add_argument("--players", type=int, default=1000, help="pairing: players entering")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--attack-seconds", type=float, default=8.0, help="how long each attack runs"
    )
    parser.add_argument(
        "--attack-json-kib",
        type=int,
        default=256,
        help="the size of the quadratic-JSON attack's bodies (the server takes up to 256)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes: 1 on SQLite (default), more on PostgreSQL + Redis",
    )
    parser.add_argument(
        "--by-game",
        action="store_true",
        help="games scenario: N processes on N ports, each game's players sent to the process"
        " its id hashes to (as a proxy routing by game, such as nginx's hash, would)",
    )
    parser.add_argument(
        "--cpu-per-process",
        type=float,
        default=None,
        metavar="SHARE",
        help="cap each server process at SHARE of one core (a CPU cgroup; Linux, as root)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    arguments = parser.parse_args()
    if arguments.cpu_per_process is not None and not 0.05 <= arguments.cpu_per_process <= 64:
        parser.error("--cpu-per-process must be 0.05 to 64 (a share of one core)")
    if not 1 <= arguments.games <= 2000 or not 3 <= arguments.size <= 15:
        parser.error("--games must be 1 to 2000 and --size 3 to 15")
    if not 1 <= arguments.spectators <= 2000 or not 1 <= arguments.flood <= 100:
        parser.error("--spectators must be 1 to 2000 and --flood 1 to 100")
    if not 1 <= arguments.processes <= 16:
        parser.error("--processes must be 1 to 16")
    if arguments.by_game and arguments.processes < 2:
        parser.error("--by-game needs --processes 2 or more")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    most = max(arguments.games, arguments.spectators, arguments.players)
    wanted = min(hard, max(soft, 4 * most + 256))
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    runners = {"games": run_games, "crowd": run_crowd, "flood": run_flood, "attack": run_attack}
    names = list(runners) if arguments.scenario == "all" else [arguments.scenario]
    runners["pairing"] = run_pairing
    machine = f"{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}"
    results = {}
    for name in names:
        results[name] = runners[name](arguments)
        results[name]["machine"] = machine
        if not arguments.json:
            print(report(name, results[name]), flush=True)
    if arguments.json:
        print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
