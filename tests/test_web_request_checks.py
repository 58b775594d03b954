"""The checks of a request's headers against what a hostile client sends: the same Host or
Origin twice, an origin of another scheme, X-Forwarded-For from anyone; and what the health
check says while Redis is away.

The checks run through the real ASGI app, as ``sosgame serve`` sets it up; X-Forwarded-For
and Redis going away through real ``sosgame serve`` processes.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

pytest.importorskip("starlette")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from starlette.websockets import WebSocketDisconnect

from sosgame.web import create_app
from sosgame.web.defaults import LOOPBACK_HOSTS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SITE = "http://127.0.0.1:8000"
EVIL = "http://evil.example"
GAME = {"rows": 3, "cols": 3, "seats": [{"name": "Ann"}, {"name": "Bao"}]}


@pytest.fixture
def site(tmp_path: Path) -> Iterator[TestClient]:
    """The app as ``sosgame serve`` sets it up, reached at 127.0.0.1:8000 over plain HTTP."""
    executor = ThreadPoolExecutor(max_workers=1)
    app = create_app(
        f"sqlite:///{tmp_path / 'games.sqlite3'}",
        computer=executor,
        computer_pause=0.01,
        allowed_hosts=LOOPBACK_HOSTS,
    )
    with TestClient(app, base_url=SITE) as client:
        yield client
    executor.shutdown()


def _refused(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code


# ------------------------------------------------------------------- headers given twice


@pytest.mark.parametrize("second", ["evil.example", "127.0.0.1:8000"])
def test_a_request_with_two_host_headers_is_refused(site: TestClient, second: str) -> None:
    """The allowed host first, then another: the check must not read only the first."""
    headers = [("host", "127.0.0.1:8000"), ("host", second)]
    _refused(site.get("/api/health", headers=headers), 400, "bad_host")
    _refused(site.post("/api/games", json=GAME, headers=headers), 400, "bad_host")


@pytest.mark.parametrize("second", [EVIL, SITE])
def test_a_request_with_two_origin_headers_is_refused(site: TestClient, second: str) -> None:
    headers = [("origin", SITE), ("origin", second)]
    _refused(site.post("/api/games", json=GAME, headers=headers), 403, "bad_origin")
    # Nothing was made.
    assert site.get("/api/games?list=open").json()["games"] == []


def test_a_websocket_with_two_origin_headers_is_refused(site: TestClient) -> None:
    game = site.post("/api/games", json=GAME).json()["id"]
    headers = httpx.Headers([("origin", SITE), ("origin", EVIL)])
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        site.websocket_connect(f"ws://127.0.0.1:8000/ws/games/{game}", headers=headers) as ws,
    ):
        ws.send_json({"v": 1, "type": "hello", "tokens": []})
        ws.receive_text()
    assert closed.value.code == 1008


# ---------------------------------------------------------------------- origin's scheme


def test_an_origin_of_another_scheme_is_another_site(site: TestClient) -> None:
    """The https page of the same host and port is not the app's own page over http."""
    own = site.post("/api/games", json=GAME, headers={"origin": SITE})
    assert own.status_code == 201, own.text
    other = site.post("/api/games", json=GAME, headers={"origin": "https://127.0.0.1:8000"})
    _refused(other, 403, "bad_origin")
    for scheme in ("ftp", "ws", "file"):
        forged = site.post(
            "/api/games", json=GAME, headers={"origin": f"{scheme}://127.0.0.1:8000"}
        )
        _refused(forged, 403, "bad_origin")


def test_a_websocket_from_a_page_of_another_scheme_is_refused(site: TestClient) -> None:
    game = site.post("/api/games", json=GAME).json()["id"]
    with site.websocket_connect(
        f"ws://127.0.0.1:8000/ws/games/{game}", headers={"origin": SITE}
    ) as ws:
        ws.send_json({"v": 1, "type": "hello", "tokens": []})
        assert ws.receive_json()["type"] == "welcome"
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        site.websocket_connect(
            f"ws://127.0.0.1:8000/ws/games/{game}", headers={"origin": "https://127.0.0.1:8000"}
        ) as ws,
    ):
        ws.send_json({"v": 1, "type": "hello", "tokens": []})
        ws.receive_text()
    assert closed.value.code == 1008


# ---------------------------------------------------------------------- X-Forwarded-For


def _wrong_logins(base: str, count: int) -> list[int]:
    """The statuses of ``count`` wrong logins, each claiming another address."""
    return [
        httpx.post(
            f"{base}/api/session",
            json={"name": "Nobody", "password": "not the password"},
            headers={"x-forwarded-for": f"203.0.113.{number}"},
            timeout=30,
        ).status_code
        for number in range(count)
    ]


def test_x_forwarded_for_is_believed_only_from_the_proxies_the_operator_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """By default every client is the address it connects from, loopback included: a local
    client cannot take another address to pass its per-address limits."""
    from test_web_shared import sosgame

    monkeypatch.setenv("SOSGAME_LOGIN_ATTEMPTS_PER_MINUTE", "3")
    database = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    with sosgame(tmp_path, "serve", "--database", database) as server:
        assert _wrong_logins(server.http, 4) == [401, 401, 401, 429]
    # A proxy on 127.0.0.1, named: the addresses it forwards are the clients'.
    proxied = ("--forwarded-allow-ips", "127.0.0.1")
    with sosgame(tmp_path, "serve", "--database", database, *proxied) as server:
        assert _wrong_logins(server.http, 4) == [401, 401, 401, 401]


# ------------------------------------------------------------------------------ health


def test_health_says_not_ok_while_redis_is_away(
    site: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without Redis the other processes hear of this one's moves seconds late: the server
    is not well, and a load balancer or monitor must be told."""
    bus = site.app.state.hub.bus  # type: ignore[attr-defined]

    async def away() -> bool:
        return False

    async def answers() -> bool:
        return True

    monkeypatch.setattr(bus, "reachable", away)
    down = site.get("/api/health")
    assert down.status_code == 503
    assert down.json()["ok"] is False
    assert down.json()["redis"] == "unavailable"
    assert down.json()["database"] == "ok"
    monkeypatch.setattr(bus, "reachable", answers)
    up = site.get("/api/health")
    assert up.status_code == 200
    assert up.json()["ok"] is True
    assert up.json()["redis"] == "ok"


def test_health_says_not_ok_while_a_real_redis_is_down_and_ok_once_it_is_back(
    tmp_path: Path,
) -> None:
    import contextlib
    import time

    from sos_services import free_port, running_redis
    from test_web_shared import sosgame

    port = free_port()
    with contextlib.ExitStack() as redis:
        url = redis.enter_context(running_redis(port))
        database = f"sqlite:///{tmp_path / 'g.sqlite3'}"
        with sosgame(tmp_path, "serve", "--database", database, "--redis", url) as server:
            health = f"{server.http}/api/health"
            assert httpx.get(health, timeout=30).json()["redis"] == "ok"
            redis.close()
            down = httpx.get(health, timeout=30)
            assert down.status_code == 503
            assert down.json()["ok"] is False
            assert down.json()["redis"] == "unavailable"
            with running_redis(port):
                deadline = time.monotonic() + 60
                while httpx.get(health, timeout=30).status_code != 200:
                    assert time.monotonic() < deadline, "Redis is back, the server says not"
                    time.sleep(0.1)  # polling for an event (Redis back)
