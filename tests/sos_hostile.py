"""A real ``sosgame serve`` under hostile clients, and an honest person's game beside them.

Shared by ``tests/test_web_hostile.py`` and ``benchmarks/web_attacks.py``: the server
processes (:func:`serving`), the client addresses each part plays from (every address of
127.0.0.0/8 is loopback, so a client binds one to be another address to the server), the
probe (:class:`Probe`, a person moving every :data:`PROBE_PAUSE` seconds in a process of
its own, so that the attackers' work in this process does not skew its timings) and the
figures of its answer times. The attacks themselves are in ``sos_attacks``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import queue
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from sosgame import Game
from sosgame.record import Record
from sosgame.web.config import ServerLimits

PROBE_P99_MS = 250.0
PROBE_MAX_MS = 500.0
"""What an honest player may wait for a move's answer while any attack runs."""
PROBE_PAUSE = 0.2
"""Seconds between the probe's moves, as a quick person plays."""
START_SECONDS = 120.0
WAIT_SECONDS = 60.0
"""A generous bound for what should come at once: the machine may be busy."""

Message = dict[str, Any]

LOWERED_LIMITS = {
    "SOSGAME_IDLE_SECONDS": "2",
    "SOSGAME_FIRST_MOVE_SECONDS": "2",
    "SOSGAME_GAMES_PER_ADDRESS": "10",
    "SOSGAME_NEW_GAMES_PER_ADDRESS": "15",
    "SOSGAME_CHAT_PER_GAME": "4",
    "SOSGAME_FIRST_MOVE_GRACE_SECONDS": "1",
    "SOSGAME_BODY_TIMEOUT": "3",
}
"""Limits lowered so that the attacks show in seconds: rooms idle for 2 s are dropped (so a
stored game is loaded cold), a paired game whose first move does not come in 2 s is aborted
(and one nobody opened, 1 s later, by the store's sweep), an address may have 10 unfinished
games and make 15 in ten minutes, a game keeps 4 messages of its players' chat, a body must
arrive within 3 s."""

REAL_PASSWORDS = {
    "SOSGAME_PASSWORD_TIME_COST": str(ServerLimits().password_time_cost),
    "SOSGAME_PASSWORD_MEMORY_KIB": str(ServerLimits().password_memory_kib),
}
"""Passwords hashed at the real cost (the other tests' servers hash at the least): a flood of
logins must cost the server what it would."""


def address(number: int) -> str:
    """The loopback address ``127.0.0.{number}``: a client address of its own."""
    return f"127.0.0.{number}"


PROBE_ADDRESS = address(250)
HONEST_ADDRESS = address(251)
"""The honest people's addresses; each attack plays from addresses of its own (below 250)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def http_client(base: str, source: str, *, connections: int = 32, timeout: float = 60.0) -> Any:
    """An ``httpx.AsyncClient`` of ``base`` whose connections come from ``source``."""
    transport = httpx.AsyncHTTPTransport(
        local_address=source,
        limits=httpx.Limits(max_connections=connections, max_keepalive_connections=connections),
    )
    return httpx.AsyncClient(base_url=base, transport=transport, timeout=timeout)


def ws_connect(url: str, source: str, cookie: str | None = None) -> Any:
    """A WebSocket to ``url`` from ``source`` (with the session cookie ``cookie``)."""
    headers = {"Cookie": f"sos_session={cookie}"} if cookie else None
    return websockets.connect(
        url,
        local_addr=(source, 0),
        additional_headers=headers,
        compression=None,
        max_size=2**22,
        max_queue=None,
        ping_interval=None,
        open_timeout=WAIT_SECONDS,
        proxy=None,
    )


async def until(
    socket: Any, check: Callable[[Message], bool], seconds: float = WAIT_SECONDS
) -> Message:
    """The first message on ``socket`` that passes ``check``, within ``seconds``."""
    async with asyncio.timeout(seconds):
        while True:
            message: Message = json.loads(await socket.recv())
            if check(message):
                return message


def kind(name: str) -> Callable[[Message], bool]:
    return lambda message: message.get("type") == name


def rss_mb(pid: int) -> float:
    """Resident memory of a process (Linux), in MB; 0 once it has gone."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0.0
    for line in lines:
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


@contextmanager
def memory(pids: list[int]) -> Iterator[dict[str, float]]:
    """The server processes' resident memory (summed) before the block and at its peak."""
    figures = {"before_mb": sum(rss_mb(pid) for pid in pids), "peak_mb": 0.0}
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.05):
            figures["peak_mb"] = max(figures["peak_mb"], sum(rss_mb(pid) for pid in pids))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        yield figures
    finally:
        done.set()
        sampler.join()
        figures["peak_mb"] = max(figures["peak_mb"], sum(rss_mb(pid) for pid in pids))
        figures["rise_mb"] = round(figures["peak_mb"] - figures["before_mb"], 1)


def percentiles(values: list[float]) -> dict[str, float]:
    """Median, p99 (nearest rank: the largest below 100 values) and max, in ms."""
    ordered = sorted(values)
    if not ordered:
        return {"moves": 0}
    return {
        "median": round(ordered[len(ordered) // 2], 1),
        "p99": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 1),
        "max": round(ordered[-1], 1),
        "moves": len(ordered),
    }


def finished_record(size: int, seed: int = 3) -> dict[str, Any]:
    """A finished game of ``size`` x ``size`` as an uploaded record's JSON."""
    game = Game(size, size)
    rng = random.Random(seed)
    while not game.is_over:
        game.play(rng.choice(list(game.legal_moves)))
    loaded: dict[str, Any] = json.loads(Record.from_game(game, players=["Ann", "Bao"]).to_json())
    return loaded


# ------------------------------------------------------------------------ the servers


@dataclass
class Site:
    """The server processes under attack: ``urls[0]`` serves the probe; attacks spread
    their clients over every URL. ``database`` is the store's URL (the tests read it to
    see what happened without loading a game into a server's memory)."""

    urls: list[str]
    pids: list[int]
    logs: list[Path]
    database: str

    def url(self, number: int) -> str:
        """The URL client ``number`` uses: the processes in turn."""
        return self.urls[number % len(self.urls)]

    def ws(self, number: int, path: str) -> str:
        return self.url(number).replace("http://", "ws://") + path

    def log_bytes(self) -> int:
        return sum(log.stat().st_size for log in self.logs)

    def log_since(self, sizes: list[int]) -> str:
        """What the processes have logged since their logs had ``sizes`` bytes."""
        texts = []
        for log, size in zip(self.logs, sizes, strict=True):
            with log.open("rb") as text:
                text.seek(size)
                texts.append(text.read().decode(errors="replace"))
        return "".join(texts)


def _wait_for_health(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped: {log.read_text()[-2000:]}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/health", timeout=5).status_code == 200:
                return
        time.sleep(0.1)  # polling for an event (the server up), not waiting out time
    raise RuntimeError(f"the server did not start: {log.read_text()[-2000:]}")


@contextmanager
def serving(
    folder: Path, options: list[str], database: str, processes: int, environment: dict[str, str]
) -> Iterator[Site]:
    """``processes`` ``sosgame serve`` processes on free ports of 127.0.0.1 with the store
    ``options``, each logging to a file of ``folder``; stopped afterwards."""
    started: list[subprocess.Popen[bytes]] = []
    urls: list[str] = []
    logs: list[Path] = []
    try:
        # One after the other: the first process migrates a new database alone.
        for _ in range(processes):
            port = free_port()
            log = folder / f"serve-{port}.log"
            with log.open("wb") as output:
                command = [sys.executable, "-m", "sosgame", "serve", "--port", str(port)]
                started.append(
                    subprocess.Popen(
                        [*command, *options],
                        stdout=output,
                        stderr=subprocess.STDOUT,
                        env={**os.environ, **REAL_PASSWORDS, **environment},
                    )
                )
            urls.append(f"http://127.0.0.1:{port}")
            logs.append(log)
            _wait_for_health(urls[-1], started[-1], log)
        yield Site(urls, [process.pid for process in started], logs, database)
    finally:
        for process in started:
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


# ------------------------------------------------------------------------ the probe


def _probe(base: str, source: str, ready: Any, stop: Any, answers: Any) -> None:
    """In a child process: a person's local 26x26 game, a move every :data:`PROBE_PAUSE`
    seconds until ``stop``, a new game when one is over. Each answer's ``(sent, ms)`` goes
    on ``answers`` as soon as it comes (``ms`` infinite if the connection was lost)."""

    async def one_game(client: Any, rng: random.Random) -> None:
        body = {"rows": 26, "cols": 26, "seats": [{"name": "Pat"}, {"name": "Quy"}]}
        created = (await client.post("/api/games", json=body)).json()
        answers.put(("game", created["id"]))
        url = base.replace("http://", "ws://") + f"/ws/games/{created['id']}"
        game = Game(26, 26)
        async with ws_connect(url, source) as socket:
            await socket.send(json.dumps({"v": 1, "type": "hello", "token": created["token"]}))
            await until(socket, kind("state"))
            ready.set()
            while not stop.is_set() and not game.is_over:
                move = rng.choice(list(game.legal_moves))
                ply = game.ply
                sent = time.time()
                message = {"v": 1, "type": "move", "move": str(move), "ply": ply}
                try:
                    await socket.send(json.dumps(message))
                    await until(
                        socket, lambda m, p=ply: m["type"] == "state" and m["game"]["ply"] > p
                    )
                except (websockets.ConnectionClosed, TimeoutError):
                    answers.put((sent, float("inf")))
                    return
                answers.put((sent, (time.time() - sent) * 1000))
                game.play(move)
                await asyncio.sleep(PROBE_PAUSE)

    async def play() -> None:
        rng = random.Random(7)
        async with http_client(base, source) as client:
            while not stop.is_set():
                try:
                    await one_game(client, rng)
                except (OSError, KeyError, httpx.HTTPError, websockets.WebSocketException):
                    # Refused or cut off: an answer that never came, then a new game.
                    answers.put((time.time(), float("inf")))
                    ready.set()
                    await asyncio.sleep(PROBE_PAUSE)

    asyncio.run(play())


@dataclass
class Probe:
    """The honest game, played in a child process; :meth:`times` reads its answers."""

    process: Any
    stop: Any
    answers: Any
    seen: list[tuple[float, float]] = field(default_factory=list)
    games: list[str] = field(default_factory=list)

    def _drain(self, block_until: float | None) -> None:
        while True:
            try:
                if block_until is None:
                    item = self.answers.get_nowait()
                else:
                    item = self.answers.get(timeout=max(0.01, block_until - time.time()))
            except queue.Empty:
                return
            if item[0] == "game":
                self.games.append(item[1])
            else:
                self.seen.append(item)
            if block_until is not None:
                return

    def game(self) -> str:
        """The id of the game the probe plays now."""
        self._drain(block_until=None)
        return self.games[-1]

    def times(self, start: float, end: float) -> list[float]:
        """The answer times (ms) of the moves waited for between ``start`` and ``end``
        (``time.time()``) and of the first move sent after ``end`` (waited for): a move still
        waiting when the attack ended counts with its whole wait, and the server's answer
        just after the attack counts too (work it queued may still hold it up)."""
        deadline = time.time() + WAIT_SECONDS
        while time.time() < deadline and not any(sent > end for sent, _ in self.seen):
            if not self.process.is_alive():
                break
            self._drain(block_until=min(deadline, time.time() + 1))
        self._drain(block_until=None)
        during = [ms for sent, ms in self.seen if sent <= end and sent + ms / 1000 >= start]
        after = [ms for sent, ms in self.seen if sent > end][:1]
        return during + after


@contextmanager
def probing(site: Site) -> Iterator[Probe]:
    """The probe game on ``site.urls[0]``, from :data:`PROBE_ADDRESS`, for the block."""
    context = multiprocessing.get_context("spawn")
    ready, stop = context.Event(), context.Event()
    answers: Any = context.Queue()
    process = context.Process(
        target=_probe, args=(site.urls[0], PROBE_ADDRESS, ready, stop, answers), daemon=True
    )
    process.start()
    try:
        if not ready.wait(START_SECONDS):
            raise RuntimeError("the probe did not start")
        yield Probe(process, stop, answers)
    finally:
        stop.set()
        process.join(WAIT_SECONDS)
        if process.is_alive():
            process.kill()
            process.join()


def probe_failures(times: list[float]) -> list[str]:
    """What the probe's answer times break of the targets (empty if nothing)."""
    figures = percentiles(times)
    failures = []
    if not times:
        failures.append("the probe made no move")
    elif figures["p99"] >= PROBE_P99_MS or figures["max"] >= PROBE_MAX_MS:
        failures.append(
            f"the probe's p99 {figures['p99']} ms (under {PROBE_P99_MS:g}), max"
            f" {figures['max']} ms (under {PROBE_MAX_MS:g}) over {figures['moves']} moves"
        )
    return failures
