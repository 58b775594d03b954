"""``GET /api/challenge``: the challenges waiting to and from the token's account, as lichess
lists them (``{"in": [...], "out": [...]}``), without those answered, accepted or another's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sos_web import TestClient, app_client
from test_web_accounts import claim, error
from test_web_bots import GAME, bot, token


@pytest.fixture(name="client")
def client_fixture(tmp_path: Path) -> Any:
    with app_client(tmp_path / "games.sqlite3") as client:
        yield client


def ids(client: TestClient, headers: dict[str, str]) -> tuple[list[str], list[str]]:
    listed = client.get("/api/challenge", headers=headers)
    assert listed.status_code == 200, listed.text
    body = listed.json()
    return [one["id"] for one in body["in"]], [one["id"] for one in body["out"]]


def test_the_challenges_waiting_in_and_out(client: TestClient) -> None:
    robo, ann = bot(client, "Robo"), token(client, claim(client, "Ann"))
    bao = token(client, claim(client, "Bao"))
    assert ids(client, robo) == ([], [])
    first = client.post("/api/challenge/Robo", json=GAME, headers=ann).json()["challenge"]
    second = client.post("/api/challenge/Robo", json=GAME, headers=bao).json()["challenge"]
    out = client.post("/api/challenge/Ann", json=GAME, headers=robo).json()["challenge"]
    assert ids(client, robo) == ([first["id"], second["id"]], [out["id"]])
    assert ids(client, ann) == ([out["id"]], [first["id"]])
    listed = client.get("/api/challenge", headers=robo).json()
    assert listed["in"][0] == first and listed["in"][0]["challenger"] == "Ann"
    # Answered or accepted, a challenge is no longer listed.
    declined = client.post(f"/api/challenge/{second['id']}/decline", headers=robo)
    assert declined.status_code == 200
    accepted = client.post(f"/api/challenge/{out['id']}/accept", headers=ann)
    assert accepted.status_code == 200
    assert ids(client, robo) == ([first["id"]], [])
    assert ids(client, bao) == ([], [])


def test_listing_needs_a_token_that_reads_challenges(client: TestClient) -> None:
    error(client.get("/api/challenge"), 401, "no_token")
    ann = claim(client, "Ann")
    error(
        client.get("/api/challenge", headers=token(client, ann, ["board:play"])),
        403,
        "missing_scope",
    )
    assert ids(client, token(client, ann, ["challenge:read"])) == ([], [])
