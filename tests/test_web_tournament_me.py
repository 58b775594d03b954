"""``GET /api/tournaments/{id}`` tells a logged-in reader where they stand (``me``): in it,
paused, withdrawn, its creator; a guest's answer has no ``me``. It names its players who
are bots, whose names the pages mark."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from sos_web import app_client
from sosgame.web.live import clock as clocks
from test_web_accounts import claim
from test_web_bots import bot
from test_web_tournaments import arena

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(name="client")
def client_fixture(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path / "games.sqlite3", tournament_tick_seconds=0.05) as client:
        yield client


def me(client: TestClient, tournament_id: str, headers: dict[str, str]) -> Any:
    return client.get(f"/api/tournaments/{tournament_id}", headers=headers).json().get("me")


def test_a_reader_learns_where_they_stand_and_a_guest_nothing(client: TestClient) -> None:
    ann, bao = claim(client, "Ann"), claim(client, "Bao")
    made = client.post("/api/tournaments", json=arena(clocks.now_ms() + 600), headers=ann)
    tournament_id = made.json()["id"]
    nothing = {"joined": False, "paused": False, "withdrawn": False}
    assert me(client, tournament_id, {}) is None
    assert me(client, tournament_id, ann) == {**nothing, "creator": True}
    assert me(client, tournament_id, bao) == {**nothing, "creator": False}
    for session in (ann, bao):
        assert client.post(f"/api/tournaments/{tournament_id}/join", headers=session).is_success
    assert me(client, tournament_id, bao) == {**nothing, "joined": True, "creator": False}
    deadline = time.monotonic() + 10
    while client.get(f"/api/tournaments/{tournament_id}").json()["status"] == "created":
        assert time.monotonic() < deadline, "the tournament did not start"
        time.sleep(0.05)
    client.post(f"/api/tournaments/{tournament_id}/pause", headers=ann)
    client.post(f"/api/tournaments/{tournament_id}/withdraw", headers=bao)
    assert me(client, tournament_id, ann) == {
        **nothing,
        "joined": True,
        "paused": True,
        "creator": True,
    }
    assert me(client, tournament_id, bao) == {
        **nothing,
        "joined": True,
        "withdrawn": True,
        "creator": False,
    }
    assert client.post(f"/api/tournaments/{tournament_id}/join", headers=ann).is_success
    assert me(client, tournament_id, ann) == {**nothing, "joined": True, "creator": True}
    assert me(client, tournament_id, {}) is None


def test_the_players_who_are_bots_are_named(client: TestClient) -> None:
    ann, robot = claim(client, "Ann"), bot(client, "Robot")
    later = clocks.now_ms() + 3_600_000
    made = client.post("/api/tournaments", json=arena(later, bots=True), headers=ann)
    tournament_id = made.json()["id"]
    for headers in (ann, robot):
        assert client.post(f"/api/tournaments/{tournament_id}/join", headers=headers).is_success
    shown = client.get(f"/api/tournaments/{tournament_id}").json()
    assert shown["bot_players"] == ["Robot"]
