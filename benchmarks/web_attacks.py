"""The ``attack`` scenario of ``benchmarks/web_load.py``: what one hostile client costs the
other players of the same server.

A person's probe game (a local 26x26 game of people, in a process of its own) makes a move
every 0.5 s for the whole run and times each answer. Meanwhile the attacks run one after the
other, each for ``--attack-seconds``, with a quiet spell before the first:

* ``quadratic_json``: 4 clients in a loop send 256 KiB bodies (``--attack-json-kib``) of
  escaped quotes (``"\\"\\"...``) to ``POST /api/games``;
* ``huge_bodies``: 4 clients each stream 300 MiB, chunked, to ``POST /api/session`` and
  ``POST /api/players`` (the server's resident memory is sampled throughout);
* ``replay_loop``: 8 clients in a loop ask for the replay of a finished 26x26 game;
* ``analysis_flood``: 30 analyses of that game asked for at once, again and again;
* ``computer_cap``: games against ``hard`` until the per-address cap refuses one, then, once
  the server has dropped their rooms from memory, as many again.

For each, the probe's answer times while it ran (median, p99, max), the answers the attacker
got (by status) and what else it shows. The target: the probe's p99 under 250 ms during each.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import random
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import websockets

from sosgame import Game
from sosgame.record import Record

TARGET_PROBE_P99_MS = 250.0
PROBE_PAUSE = 0.5
"""Seconds between the probe's moves, as a person plays."""
QUIET_SECONDS = 3.0
HUGE_BODY_BYTES = 300 * 1024 * 1024
CHUNK = b"x" * 65536


def escaped_quotes(kib: int) -> bytes:
    """An unclosed string of escaped quotes, ``kib`` KiB long."""
    return ('"' + '\\"' * (kib * 512 - 1)).encode()


def rss_mb(pid: int) -> float:
    """Resident memory of a process (Linux), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def _percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {}
    return {
        "median": round(ordered[len(ordered) // 2], 1),
        "p99": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 1),
        "max": round(ordered[-1], 1),
        "moves": len(ordered),
    }


def _probe(url: str, token: str, ready: Any, stop: Any, answers: Any) -> None:
    """In a child process: a move every :data:`PROBE_PAUSE` s until ``stop``; puts a list of
    (when sent, answer ms) on ``answers``."""

    async def play() -> list[tuple[float, float]]:
        game = Game(26, 26)
        rng = random.Random(7)
        times: list[tuple[float, float]] = []
        async with websockets.connect(
            url, max_size=2**22, compression=None, ping_interval=None
        ) as socket:
            await socket.send(json.dumps({"v": 1, "type": "hello", "token": token}))
            await _until(socket, lambda m: m["type"] == "state")
            ready.set()
            while not stop.is_set() and not game.is_over:
                move = rng.choice(list(game.legal_moves))
                ply = game.ply
                began = time.time()
                message = {"v": 1, "type": "move", "move": str(move), "ply": ply}
                await socket.send(json.dumps(message))
                await _until(socket, _after(ply))
                times.append((began, (time.time() - began) * 1000))
                game.play(move)
                await asyncio.sleep(PROBE_PAUSE)
        return times

    answers.put(asyncio.run(play()))


def _after(ply: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "state" and m["game"]["ply"] > ply


async def _until(socket: Any, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(await socket.recv())
        if check(message):
            return message


@contextmanager
def _memory(pid: int) -> Iterator[dict[str, float]]:
    """The server's resident memory before and at its peak while the block runs."""
    figures = {"before_mb": rss_mb(pid), "peak_mb": 0.0}
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.05):
            figures["peak_mb"] = max(figures["peak_mb"], rss_mb(pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        yield figures
    finally:
        done.set()
        sampler.join()
        figures["peak_mb"] = max(figures["peak_mb"], rss_mb(pid))


async def _loop(
    seconds: float, clients: int, one: Callable[[], Coroutine[Any, Any, str]]
) -> Counter[str]:
    """``clients`` loops of ``one`` for ``seconds``; the answers counted."""
    answers: Counter[str] = Counter()
    end = time.monotonic() + seconds

    async def client() -> None:
        while time.monotonic() < end:
            answers[await one()] += 1

    await asyncio.gather(*(client() for _ in range(clients)))
    return answers


def _status(response: httpx.Response) -> str:
    if response.status_code < 400:
        return str(response.status_code)
    try:
        return f"{response.status_code} {response.json()['error']['code']}"
    except (ValueError, KeyError, TypeError):
        return str(response.status_code)


async def _quadratic_json(client: httpx.AsyncClient, seconds: float, kib: int) -> dict[str, Any]:
    took: list[float] = []
    body = escaped_quotes(kib)

    async def one() -> str:
        began = time.perf_counter()
        response = await client.post(
            "/api/games", content=body, headers={"content-type": "application/json"}
        )
        took.append((time.perf_counter() - began) * 1000)
        return _status(response)

    answers = await _loop(seconds, 4, one)
    return {"answers": dict(answers), "body_kib": kib, "answer_ms": _percentiles(took)}


async def _huge_bodies(client: httpx.AsyncClient, seconds: float, pid: int) -> dict[str, Any]:
    sent: list[int] = []

    async def one(path: str) -> str:
        count = [0]

        async def body() -> AsyncIterator[bytes]:
            while count[0] < HUGE_BODY_BYTES:
                count[0] += len(CHUNK)
                yield CHUNK

        try:
            response = await client.post(path, content=body())
            answer = _status(response)
        except httpx.HTTPError as error:  # the server stopped reading and closed
            answer = type(error).__name__
        sent.append(count[0])
        return answer

    paths = ["/api/session", "/api/players"]
    with _memory(pid) as memory:
        answers = await _loop(seconds, 4, lambda: one(random.choice(paths)))
    return {
        "answers": dict(answers),
        "mib_sent_before_the_answer": _percentiles([value / 2**20 for value in sent]),
        "server_memory": memory,
    }


async def _replay_loop(client: httpx.AsyncClient, seconds: float, game_id: str) -> dict[str, Any]:
    sizes: Counter[int] = Counter()

    async def one() -> str:
        response = await client.get(f"/api/games/{game_id}/replay")
        if response.status_code == 200:
            sizes[len(response.content)] += 1
        return _status(response)

    answers = await _loop(seconds, 8, one)
    return {"answers": dict(answers), "replay_kib": round(max(sizes, default=0) / 1024)}


async def _analysis_flood(
    client: httpx.AsyncClient, seconds: float, game_id: str
) -> dict[str, Any]:
    answers: Counter[str] = Counter()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        responses = await asyncio.gather(
            *(client.get(f"/api/games/{game_id}/analysis") for _ in range(30))
        )
        answers.update(_status(response) for response in responses)
        await asyncio.sleep(0.5)
    return {"answers": dict(answers)}


async def _computer_cap(client: httpx.AsyncClient, seconds: float) -> dict[str, Any]:
    body = {
        "rows": 15,
        "cols": 15,
        "seats": [{"name": "Hard", "player": "hard"}, {"name": "Ann"}],
    }

    async def until_refused(most: int) -> tuple[int, str | None]:
        accepted = 0
        for _ in range(most):
            response = await client.post("/api/games", json=body)
            if response.status_code != 201:
                return accepted, _status(response)
            accepted += 1
        return accepted, None

    first, refusal = await until_refused(40)
    # The rooms are dropped once idle (SOSGAME_IDLE_SECONDS is short in this scenario) and
    # their computer has moved: wait until only the probe's and the replayed game's are left.
    end = time.monotonic() + max(seconds, 120.0)
    while (await client.get("/api/health")).json()["rooms"] > 2 and time.monotonic() < end:
        await asyncio.sleep(0.5)
    second, again = await until_refused(40)
    return {
        "accepted_first": first,
        "refusal": refusal,
        "accepted_after_the_rooms_were_dropped": second,
        "refusal_after": again,
    }


def _finished_record(size: int) -> str:
    game = Game(size, size)
    rng = random.Random(3)
    while not game.is_over:
        game.play(rng.choice(list(game.legal_moves)))
    return Record.from_game(game, players=["Ann", "Bao"]).to_json()


async def attack(url: str, pid: int, attack_seconds: float, json_kib: int = 256) -> dict[str, Any]:
    """Run the attacks one after another beside the probe; the figures of each."""
    ws_url = url.replace("http://", "ws://")
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=120) as client:
        probe_game = (
            await client.post(
                "/api/games",
                json={"rows": 26, "cols": 26, "seats": [{"name": "P"}, {"name": "Q"}]},
            )
        ).json()
        record = json.loads(_finished_record(26))
        replayed = (await client.post("/api/records", json=record)).json()

        context = multiprocessing.get_context("spawn")
        ready, stop = context.Event(), context.Event()
        answers: Any = context.Queue()
        prober = context.Process(
            target=_probe,
            args=(
                f"{ws_url}/ws/games/{probe_game['id']}",
                probe_game["token"],
                ready,
                stop,
                answers,
            ),
        )
        prober.start()
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, ready.wait, 120)
        windows: dict[str, tuple[float, float]] = {}
        results: dict[str, Any] = {}

        async def window(name: str, work: Coroutine[Any, Any, dict[str, Any]]) -> None:
            began = time.time()
            results[name] = await work
            windows[name] = (began, time.time())

        try:
            began = time.time()
            await asyncio.sleep(QUIET_SECONDS)
            windows["quiet"] = (began, time.time())
            results["quiet"] = {}
            await window("quadratic_json", _quadratic_json(client, attack_seconds, json_kib))
            await window("huge_bodies", _huge_bodies(client, attack_seconds, pid))
            await window("replay_loop", _replay_loop(client, attack_seconds, replayed["id"]))
            await window("analysis_flood", _analysis_flood(client, attack_seconds, replayed["id"]))
            await window("computer_cap", _computer_cap(client, attack_seconds))
        finally:
            stop.set()
            times = await loop.run_in_executor(None, answers.get, True, 120)
            prober.join(30)
    for name, (start, end) in windows.items():
        during = [took for sent, took in times if start <= sent <= end]
        results[name]["probe_ms"] = _percentiles(during)
    return results


def report(result: dict[str, Any]) -> str:
    """One line per attack."""
    lines = []
    for name, figures in result.items():
        if not isinstance(figures, dict) or "probe_ms" not in figures:
            continue
        probe = figures["probe_ms"]
        others = {key: value for key, value in figures.items() if key != "probe_ms"}
        lines.append(
            f"attack {name}: probe median {probe.get('median')} ms, p99 {probe.get('p99')} ms,"
            f" max {probe.get('max')} ms ({probe.get('moves', 0)} moves); {json.dumps(others)}"
        )
    return "\n".join(lines)
