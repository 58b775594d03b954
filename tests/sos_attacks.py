"""The attacks of a hostile client on the HTTP side of a server (``sos_hostile.Site``): each
an ``async`` function that runs one attack, bounded in connections and time, and returns
its figures (what the attacker and the honest clients got). ``sos_attacks_play`` has the
attacks on games, chat, the lobby and ratings.

The tests (``tests/test_web_hostile.py``) check the figures against the issue's targets;
``benchmarks/web_attacks.py`` reports them, with bigger sizes.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from typing import Any
from urllib.parse import urlsplit

import httpx

from sos_hostile import HONEST_ADDRESS, WAIT_SECONDS, Site, address, finished_record, http_client
from sos_hostile import memory as server_memory

READS_PER_SECOND = 4.0
READ_BURST = 20
"""The documented rate of replays per address (``SOSGAME_READS_PER_SECOND``, ``_BURST``),
which uploads and cold loads of stored games share (issue #44)."""
STORED_PER_ADDRESS = 10
"""Records one address uploads to set up the cold loads: under every cap of uploads and of
games made (the tests lower the latter to 15)."""
LOGIN_ANSWER_SECONDS = 10.0
"""How long an honest name claim may wait while 20 addresses' wrong logins are hashed: about
one hash per flooding address (they take turns) on one hashing thread, which gives way to
everything else (2.7 s on a quiet machine, 6.3 s with both cores busy with other work)."""
REPLAY_ANSWER_SECONDS = 3.0
"""How long an uncached replay may wait meanwhile."""
BODY_SECONDS = 15.0
"""Slow bodies are cut off by then: a read timeout like the headers' (10 s) and a margin."""
PASSWORD = "a long pass phrase"


def answer(response: httpx.Response) -> str:
    """A response as ``"status code"`` (``"201"``, ``"429 rate_limited"``)."""
    if response.status_code < 400:
        return str(response.status_code)
    try:
        return f"{response.status_code} {response.json()['error']['code']}"
    except (ValueError, KeyError, TypeError):
        return str(response.status_code)


def escaped_quotes(kib: int) -> bytes:
    """An unclosed JSON string of escaped quotes, ``kib`` KiB long: costly to parse."""
    return ('"' + '\\"' * (kib * 512 - 1)).encode()


def _host_port(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    return parts.hostname, parts.port


async def _open(site: Site, number: int, source: str) -> tuple[Any, Any, int]:
    host, port = _host_port(site.url(number))
    reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
    return reader, writer, port


async def _status_line(reader: asyncio.StreamReader) -> str:
    """The status of the answer on ``reader`` (``"431"``), ``"closed"`` or ``"reset"``."""
    try:
        line = await reader.readline()
    except ConnectionError:
        return "reset"
    parts = line.split()
    return parts[1].decode() if len(parts) > 1 else "closed"


async def raw_request(site: Site, number: int, source: str, head: list[str], body: bytes) -> str:
    """One request written as is (``head``: its request line and header lines); the answer's
    status."""
    reader, writer, _ = await _open(site, number, source)
    try:
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        await writer.drain()
        return await asyncio.wait_for(_status_line(reader), WAIT_SECONDS)
    finally:
        writer.close()


# ------------------------------------------------------------------ the attacks


async def huge_headers(site: Site, *, requests: int = 3, mib: int = 8) -> dict[str, Any]:
    """``requests`` requests at once, each with a header of ``mib`` MiB (the issue: 3 x 64
    MiB stalled every game 10.8 s)."""
    source = address(10)
    chunk = b"a" * 65536
    took: list[float] = []

    async def one(number: int) -> str:
        reader, writer, port = await _open(site, number, source)
        began = time.perf_counter()
        status = asyncio.ensure_future(_status_line(reader))
        try:
            head = f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Padding: "
            writer.write(head.encode())
            for _ in range(mib * 16):
                if status.done():
                    break  # answered (and refused) before the header was all sent
                writer.write(chunk)
                await writer.drain()
            writer.write(b"\r\n\r\n")
            await writer.drain()
        except ConnectionError:
            pass  # the server closed: its answer, if any, is on the reader
        try:
            return await asyncio.wait_for(status, WAIT_SECONDS)
        except TimeoutError:
            return "no answer"
        finally:
            took.append(time.perf_counter() - began)
            writer.close()

    with server_memory(site.pids) as memory:
        answers = Counter(await asyncio.gather(*(one(n) for n in range(requests))))
    return {
        "answers": dict(answers),
        "header_mib": mib,
        "answer_seconds_max": round(max(took), 2),
        "server_memory": memory,
    }


async def many_bodies(
    site: Site, *, bodies: int = 200, kib: int = 256, addresses: int = 10
) -> dict[str, Any]:
    """``bodies`` JSON bodies of ``kib`` KiB (escaped quotes) posted at once to the one
    endpoint that takes bodies this long (an upload), spread over ``addresses`` addresses so
    that the uploads' pace per address lets most of them be read and parsed (the issue: 200
    x 256 KiB from one address stalled the probe 6.8 s)."""
    body = escaped_quotes(kib)
    clients = [
        http_client(site.url(n), address(60 + n), connections=bodies) for n in range(addresses)
    ]

    async def one(number: int) -> str:
        try:
            response = await clients[number % addresses].post(
                "/api/records", content=body, headers={"content-type": "application/json"}
            )
        except httpx.HTTPError as error:
            return type(error).__name__
        return answer(response)

    try:
        answers = Counter(await asyncio.gather(*(one(n) for n in range(bodies))))
    finally:
        for client in clients:
            await client.aclose()
    return {"answers": dict(answers), "body_kib": kib, "addresses": addresses}


async def slow_bodies(
    site: Site, *, connections: int = 100, seconds: float = BODY_SECONDS
) -> dict[str, Any]:
    """``connections`` requests whose headers come at once and whose body then trickles in,
    a byte a second, until the server closes them or ``seconds`` pass (the issue: 1,000
    still open after 42 s)."""
    source = address(20)
    began = time.monotonic()
    closed: list[float] = []

    async def one(number: int) -> None:
        reader, writer, port = await _open(site, number, source)
        head = (
            f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/json\r\nContent-Length: 10000\r\n\r\n{"
        )
        try:
            writer.write(head.encode())
            while time.monotonic() - began < seconds:
                await writer.drain()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(reader.read(4096), 1.0)
                    closed.append(time.monotonic() - began)  # answered or closed
                    return
                writer.write(b" ")
        except ConnectionError:
            closed.append(time.monotonic() - began)
        finally:
            writer.close()

    await asyncio.gather(*(one(n) for n in range(connections)))
    return {
        "connections": connections,
        "closed_by_the_server": len(closed),
        "still_open_after_seconds": round(seconds, 1) if len(closed) < connections else None,
        "closed_after_seconds": [round(min(closed), 1), round(max(closed), 1)] if closed else None,
    }


async def hang_ups(site: Site, *, count: int = 200) -> dict[str, Any]:
    """``count`` clients that send half a body and hang up (half closing, half resetting
    their connection); what the server logged meanwhile (the issue: a 3.7 KB traceback
    each)."""
    source = address(21)
    sizes = [log.stat().st_size for log in site.logs]

    async def one(number: int) -> None:
        _, writer, port = await _open(site, number, source)
        head = (
            f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/json\r\nContent-Length: 10000\r\n\r\n"
        )
        writer.write(head.encode() + b'{"rows": ' + b" " * 5000)
        await writer.drain()
        if number % 2:
            writer.transport.abort()
        else:
            writer.close()

    for start in range(0, count, 20):
        await asyncio.gather(*(one(n) for n in range(start, min(count, start + 20))))
    # Requests after them on every process: by their answers the hang-ups were handled.
    for number in range(2 * len(site.urls)):
        async with http_client(site.url(number), source) as client:
            await client.get("/api/health")
    logged = site.log_since(sizes)
    return {
        "hang_ups": count,
        "log_growth_bytes": len(logged.encode()),
        "tracebacks": logged.count("Traceback"),
    }


async def duplicate_headers(site: Site) -> dict[str, Any]:
    """Requests with a second ``Host`` or ``Origin`` after the allowed one, and an ``Origin``
    of another scheme: each answer's status (the issue: all three passed)."""
    source = address(23)
    _, port = _host_port(site.url(0))
    body = b'{"rows": 3, "cols": 3, "seats": [{"name": "A"}, {"name": "B"}]}'
    post = [
        "POST /api/games HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Content-Type: application/json",
        f"Content-Length: {len(body)}",
        "Connection: close",
    ]
    return {
        "second_host": await raw_request(
            site,
            0,
            source,
            [
                "GET /api/health HTTP/1.1",
                f"Host: 127.0.0.1:{port}",
                "Host: attacker.example",
                "Connection: close",
            ],
            b"",
        ),
        "second_origin": await raw_request(
            site,
            0,
            source,
            [*post, f"Origin: http://127.0.0.1:{port}", "Origin: http://attacker.example"],
            body,
        ),
        "other_scheme": await raw_request(
            site, 0, source, [*post, f"Origin: https://127.0.0.1:{port}"], body
        ),
    }


async def forwarded_for(site: Site, *, attempts: int = 11) -> dict[str, Any]:
    """Wrong logins from 127.0.0.1, each naming another address in ``X-Forwarded-For``
    (no proxy is configured): the answers in order (the issue: each counted for the
    address it named, so none was refused)."""
    answers = []
    async with http_client(site.url(0), "127.0.0.1") as client:
        for number in range(attempts):
            response = await client.post(
                "/api/session",
                json={"name": "Nobody", "password": PASSWORD},
                headers={"X-Forwarded-For": f"10.44.0.{number + 1}"},
            )
            answers.append(answer(response))
    return {"answers": answers}


async def _upload(client: Any, record: dict[str, Any]) -> str:
    """Upload ``record``: the new game's id."""
    response = await client.post("/api/records", json=record)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


async def uploads(
    site: Site, *, seconds: float = 3.0, clients: int = 4, size: int = 26
) -> dict[str, Any]:
    """Finished ``size`` x ``size`` records uploaded in a loop by ``clients`` clients of one
    address for ``seconds`` (the issue: 379 in 8 s, 37.7 KB stored each)."""
    source = address(17)
    record = finished_record(size)
    answers: Counter[str] = Counter()
    began = time.monotonic()

    async def loop(number: int) -> None:
        async with http_client(site.url(number), source) as client:
            while time.monotonic() - began < seconds:
                answers[answer(await client.post("/api/records", json=record))] += 1

    await asyncio.gather(*(loop(n) for n in range(clients)))
    elapsed = time.monotonic() - began
    return {
        "answers": dict(answers),
        "accepted": answers["201"],
        "seconds": round(elapsed, 2),
        "allowed": int(READ_BURST + READS_PER_SECOND * elapsed),
    }


async def _rooms(site: Site) -> int:
    total = 0
    for url in site.urls:
        async with httpx.AsyncClient(base_url=url, timeout=WAIT_SECONDS) as client:
            total += int((await client.get("/api/health")).json()["rooms"])
    return total


async def stored_games(site: Site, count: int, size: int = 26) -> list[str]:
    """``count`` finished records uploaded (at most :data:`STORED_PER_ADDRESS` from each of
    several addresses, so no upload limit refuses them), and their rooms dropped from the
    servers' memory."""
    record = finished_record(size)
    ids: list[str] = []
    for start in range(0, count, STORED_PER_ADDRESS):
        source = address(130 + start // STORED_PER_ADDRESS)
        async with http_client(site.url(start), source) as client:
            made = await asyncio.gather(
                *(_upload(client, record) for _ in range(min(STORED_PER_ADDRESS, count - start)))
            )
        ids += made
    # Nobody follows them: they are dropped after SOSGAME_IDLE_SECONDS, until only the
    # probe's game is left (a count that only fell below the one before the uploads might
    # be other attacks' rooms going while these are still there).
    deadline = time.monotonic() + WAIT_SECONDS
    while await _rooms(site) > 1 and time.monotonic() < deadline:
        await asyncio.sleep(0.25)  # polling for an event (rooms dropped), not waiting out time
    return ids


async def cold_loads(site: Site, game_ids: list[str]) -> dict[str, Any]:
    """Each of ``game_ids`` (stored, not in memory) asked for at once by one address (the
    issue: 400 concurrent loads of 26x26 records held the probe 1.8 s)."""
    source = address(18)
    clients = [http_client(url, source, connections=len(game_ids)) for url in site.urls]
    began = time.monotonic()

    async def one(number: int, game_id: str) -> str:
        try:
            response = await clients[number % len(clients)].get(f"/api/games/{game_id}")
        except httpx.HTTPError as error:
            return type(error).__name__
        return answer(response)

    try:
        answers = Counter(
            await asyncio.gather(*(one(n, game_id) for n, game_id in enumerate(game_ids)))
        )
    finally:
        for client in clients:
            await client.aclose()
    elapsed = time.monotonic() - began
    return {
        "answers": dict(answers),
        "loaded": answers["200"],
        "seconds": round(elapsed, 2),
        "allowed": int(READ_BURST + READS_PER_SECOND * elapsed),
    }


async def claim(site: Site, number: int, source: str, name: str) -> tuple[str, str | None]:
    """Claim ``name`` from ``source``: the answer and the session cookie."""
    async with http_client(site.url(number), source) as client:
        response = await client.post("/api/players", json={"name": name, "password": PASSWORD})
        return answer(response), response.cookies.get("sos_session")


async def logins(site: Site, *, addresses: int = 20, each: int = 10) -> dict[str, Any]:
    """Wrong logins, ``each`` (within the limit) from each of ``addresses`` addresses, all at
    once, while an honest person claims a name and another asks for a replay nobody has
    asked for yet (the issue: 200 from 20 addresses held them 29.7 s and 29.0 s)."""
    victim, _ = await claim(site, 0, address(99), "Victim")
    assert victim == "201", victim
    async with http_client(site.url(0), address(98)) as client:
        replayed = await _upload(client, finished_record(26, seed=11))
    clients = [
        http_client(site.url(n), address(100 + n), connections=each) for n in range(addresses)
    ]

    async def wrong(number: int) -> str:
        client = clients[number % addresses]
        body = {"name": "Victim", "password": f"not the password {number}"}
        try:
            return answer(await client.post("/api/session", json=body))
        except httpx.HTTPError as error:
            return type(error).__name__

    async def timed(work: Any) -> tuple[str, float]:
        await asyncio.sleep(0.3)  # the flood is under way
        began = time.perf_counter()
        try:
            result = await asyncio.wait_for(work, WAIT_SECONDS)
        except (TimeoutError, httpx.HTTPError) as error:
            result = type(error).__name__
        return result, round(time.perf_counter() - began, 2)

    async def honest_claim() -> str:
        return (await claim(site, 0, address(253), "Honest"))[0]

    async def honest_replay() -> str:
        async with http_client(site.url(0), HONEST_ADDRESS) as client:
            return answer(await client.get(f"/api/games/{replayed}/replay"))

    try:
        with server_memory(site.pids) as memory:
            floods, claimed, replay = await asyncio.gather(
                asyncio.gather(*(wrong(n) for n in range(addresses * each))),
                timed(honest_claim()),
                timed(honest_replay()),
            )
    finally:
        for client in clients:
            await client.aclose()
    return {
        "answers": dict(Counter(floods)),
        "honest_claim": {"answer": claimed[0], "seconds": claimed[1]},
        "honest_replay": {"answer": replay[0], "seconds": replay[1]},
        "server_memory": memory,
    }
