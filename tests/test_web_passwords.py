"""Password hashing in its own lane, through the real app: argon2 runs only on the password
threads (never on the default executor that replays use), and past the lane's bound a login
or claim is refused at once with 429 ``login_busy``."""

from __future__ import annotations

import asyncio
import os
import threading
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from argon2 import PasswordHasher

from sos_web import app_client
from sosgame.web.config import MIN_PASSWORD_MEMORY_KIB, ServerLimits
from sosgame.web.live.protocol import ProtocolError
from sosgame.web.people.passwords import LOWEST_PRIORITY, NICENESS, PasswordLane

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GOOD = "a good password"


def _spy(monkeypatch: pytest.MonkeyPatch, name: str, before: Callable[[], None]) -> None:
    """Run ``before`` in the thread of each argon2 ``name`` call (hash or verify)."""
    real = getattr(PasswordHasher, name)

    def spied(self: PasswordHasher, *args: Any, **kwargs: Any) -> Any:
        before()
        return real(self, *args, **kwargs)

    monkeypatch.setattr(PasswordHasher, name, spied)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path / "games.sqlite3", password_threads=1, password_queue=1) as opened:
        yield opened


def test_passwords_are_hashed_and_checked_on_their_own_threads_only(
    monkeypatch: pytest.MonkeyPatch, client: TestClient
) -> None:
    threads: list[str] = []
    for name in ("hash", "verify"):
        _spy(monkeypatch, name, lambda: threads.append(threading.current_thread().name))
    assert client.post("/api/players", json={"name": "Ann", "password": GOOD}).status_code == 201
    assert client.post("/api/session", json={"name": "Ann", "password": GOOD}).status_code == 200
    wrong = client.post("/api/session", json={"name": "Nobody", "password": GOOD})
    assert wrong.status_code == 401
    # A claim's hash, a login's check and an unknown name's check (and, the first time, the
    # hash that unknown names are checked against).
    assert len(threads) in (3, 4)
    assert all(thread.startswith("sosgame-passwords") for thread in threads), threads


def _attempts(client: TestClient) -> int:
    """Logins and claims counted so far (each is counted before its password is hashed)."""
    from sqlalchemy import func, select

    from sosgame.web.storage.schema import login_attempts

    store = client.app.state.hub.store  # type: ignore[attr-defined]
    with store.engine.begin() as db:
        return int(db.execute(select(func.count()).select_from(login_attempts)).scalar_one())


def test_past_the_lanes_bound_a_claim_is_refused_at_once_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, client: TestClient
) -> None:
    release, entered = threading.Event(), threading.Event()

    def held() -> None:
        entered.set()
        release.wait(30)

    _spy(monkeypatch, "hash", held)
    requests = ThreadPoolExecutor(max_workers=3)

    def claim(name: str) -> Future[Any]:
        return requests.submit(client.post, "/api/players", json={"name": name, "password": GOOD})

    try:
        first = claim("Ann")  # hashing on the lane's one thread
        assert entered.wait(30)
        second = claim("Bao")  # then waiting, in the queue's one place
        for _ in range(600):
            if _attempts(client) == 2:
                break
            release.wait(0.05)  # polling for the second claim to reach the lane
        third = claim("Chi")
        # Answered while the lane is still held (before, it waited for a thread).
        done = third.exception(10) is None and third.done()
    finally:
        release.set()
        requests.shutdown(wait=True)
    assert done
    refused = third.result()
    assert refused.status_code == 429, refused.text
    assert refused.json()["error"]["code"] == "login_busy"
    assert first.result().status_code == 201
    assert second.result().status_code == 201
    players = client.app.state.server.accounts.players  # type: ignore[attr-defined]
    assert players.find("Chi") is None  # the refused claim took no name
    assert client.post("/api/players", json={"name": "Chi", "password": GOOD}).status_code == 201


def test_a_flood_from_many_addresses_delays_a_newcomer_by_one_turn_and_never_shuts_it_out() -> None:
    """With the lane's one thread held and its queue full of four flooding addresses'
    hashes, a newcomer's hash is still taken (the newest of the address with the most waiting
    is refused instead), and it runs right after the first address's turn, not after the
    whole flood; past its share an address is refused."""
    release = threading.Event()
    order: list[str] = []

    def work(name: str) -> str:
        release.wait(30)
        order.append(name)
        return name

    async def scenario() -> tuple[list[object], list[str]]:
        lane = PasswordLane(threads=1, queue=4, per_address=3)
        try:
            calls = [("a", "a1"), ("a", "a2"), ("a", "a3"), ("b", "b1"), ("b", "b2")]
            flood = [asyncio.ensure_future(lane._run(who, partial(work, n))) for who, n in calls]
            await asyncio.sleep(0.05)
            # "a" has its share (3) running or waiting: a fourth is refused at once.
            with pytest.raises(ProtocolError) as over:
                await lane._run("a", partial(work, "a4"))
            assert over.value.code == "login_busy"
            newcomer = asyncio.ensure_future(lane._run("new", partial(work, "new")))
            await asyncio.sleep(0.05)
            release.set()
            results = await asyncio.gather(*flood, newcomer, return_exceptions=True)
            return [r.code if isinstance(r, ProtocolError) else r for r in results], order
        finally:
            lane.close()

    results, ran = asyncio.run(scenario())
    # The queue (4) was full: a2, a3, b1, b2 waited behind a1; the newcomer took the place of
    # the newest of the address with the most waiting ("a": a3).
    assert results == ["a1", "a2", "login_busy", "b1", "b2", "new"]
    # Round robin by address: after a's two, b's first, then the newcomer's, before b's second.
    assert ran == ["a1", "a2", "b1", "new", "b2"]


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="thread priorities are Linux's")
def test_the_hashing_threads_give_way_to_the_event_loop() -> None:
    """A hashing thread runs at a lower priority than the thread that started the lane."""

    async def scenario() -> tuple[int, int]:
        lane = PasswordLane(threads=1, queue=1)
        try:

            def niceness() -> int:
                return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

            return niceness(), await lane._run("a", niceness)
        finally:
            lane.close()

    loop_niceness, hashing_niceness = asyncio.run(scenario())
    # Counted from the server's own niceness: it may run under `nice` already.
    assert hashing_niceness == min(LOWEST_PRIORITY, loop_niceness + NICENESS)
    assert hashing_niceness > loop_niceness or loop_niceness == LOWEST_PRIORITY


def test_an_address_the_lane_has_served_cannot_push_out_one_it_has_not() -> None:
    """With the queue full of one hash each from addresses served before, a first-time
    address takes a place (a served one's is refused), and a served address coming back
    cannot take the first-timer's."""
    release = threading.Event()

    def work(name: str) -> str:
        release.wait(30)
        return name

    async def scenario() -> list[object]:
        lane = PasswordLane(threads=1, queue=2, per_address=2)
        try:
            # x and y each get one hash started (served), then one waiting each.
            calls = [asyncio.ensure_future(lane._run("x", partial(work, "x1")))]
            await asyncio.sleep(0.01)
            calls.append(asyncio.ensure_future(lane._run("y", partial(work, "y1"))))
            calls.append(asyncio.ensure_future(lane._run("x", partial(work, "x2"))))
            await asyncio.sleep(0.01)
            lane._served["y"] += 1  # as if y had been served before this flood too
            honest = asyncio.ensure_future(lane._run("honest", partial(work, "honest")))
            await asyncio.sleep(0.01)
            # z, served before and with nothing waiting, may not push the first-timer out.
            lane._served["z"] += 3
            with pytest.raises(ProtocolError):
                await lane._run("z", partial(work, "z1"))
            release.set()
            results = await asyncio.gather(*calls, honest, return_exceptions=True)
            return [r.code if isinstance(r, ProtocolError) else r for r in results]
        finally:
            lane.close()

    # y1 and x2 waited, as served as each other; the first-timer took the place of the
    # newest hash of the one that has waited longest (y's: x's first hash left the queue).
    assert asyncio.run(scenario()) == ["x1", "login_busy", "x2", "honest"]


def _stored_hash(client: TestClient, name: str) -> str:
    from sqlalchemy import select

    from sosgame.web.storage.schema import players

    store = client.app.state.hub.store  # type: ignore[attr-defined]
    with store.engine.begin() as db:
        found = db.execute(select(players.c.password_hash).where(players.c.name == name))
        return str(found.scalar_one())


def test_new_hashes_take_the_configured_cost_and_old_ones_still_log_in(tmp_path: Path) -> None:
    """The cost is the operator's to change at any time: a password stored at another cost
    is checked at its own, and new ones take the new cost."""
    database = tmp_path / "games.sqlite3"
    with app_client(database, password_time_cost=1, password_memory_kib=32) as client:
        assert (
            client.post("/api/players", json={"name": "Ann", "password": GOOD}).status_code == 201
        )
        assert "$m=32,t=1,p=4$" in _stored_hash(client, "Ann")
    with app_client(database, password_time_cost=2, password_memory_kib=1024) as client:
        assert (
            client.post("/api/session", json={"name": "Ann", "password": GOOD}).status_code == 200
        )
        wrong = client.post("/api/session", json={"name": "Ann", "password": "not " + GOOD})
        assert wrong.status_code == 401
        assert (
            client.post("/api/players", json={"name": "Bao", "password": GOOD}).status_code == 201
        )
        assert "$m=1024,t=2,p=4$" in _stored_hash(client, "Bao")


def test_the_default_cost_is_argon2s_and_too_little_memory_is_refused() -> None:
    limits = ServerLimits()
    assert (limits.password_time_cost, limits.password_memory_kib) == (3, 65536)
    assert PasswordHasher().time_cost == limits.password_time_cost
    assert PasswordHasher().memory_cost == limits.password_memory_kib
    assert 8 * PasswordHasher().parallelism == MIN_PASSWORD_MEMORY_KIB  # argon2's least
    with pytest.raises(ValueError, match="SOSGAME_PASSWORD_MEMORY_KIB must be at least 32"):
        ServerLimits.from_environment({"SOSGAME_PASSWORD_MEMORY_KIB": "16"})
    with pytest.raises(ValueError, match="not 8"):
        ServerLimits(password_memory_kib=8)
