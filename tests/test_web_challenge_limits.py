"""Who may challenge a player and to what games (``/api/account/challenge-limits``), enforced
when a challenge is made over the API and on the lobby's socket; declines with a reason and
withdrawals told to the other side through any process; the bots' leaderboard."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sos_web import TestClient, app_client, receive_type
from sosgame.web.live.protocol import ClockSettings
from sosgame.web.matchmaking.seeks import SeekSettings
from sosgame.web.storage.schema import players
from test_web_accounts import claim, error
from test_web_bots import bot, client_fixture, token  # noqa: F401 (fixture)
from test_web_live_lobby import CASUAL_SEEK, _code, add_players, connected, last
from test_web_pools import FakeClock, lobbies, run

LIMITS = "/api/account/challenge-limits"
GAME = {"rows": 5, "cols": 5, "mode": "general", "clock": None, "days": None, "rated": False}


def test_the_limits_are_read_and_set_by_session_or_token(client: TestClient) -> None:
    ann = claim(client, "Ann")
    got = client.get(LIMITS, headers=ann)
    assert got.status_code == 200
    assert got.json() == {
        "accept": "everyone", "min_side": None, "max_side": None, "modes": ["general", "simple"],
        "min_initial": None, "max_initial": None, "untimed": True, "days": True, "rated": True,
        "casual": True, "bots": True,
    }  # fmt: skip
    put = client.put(
        LIMITS, json={"accept": "rated", "modes": ["simple"], "bots": False}, headers=ann
    )
    assert put.status_code == 200, put.text
    writer = token(client, ann, ["challenge:write"])
    assert client.get(LIMITS, headers=writer).json() == put.json()
    assert put.json()["accept"] == "rated" and put.json()["modes"] == ["simple"]
    # Fields left out take their defaults.
    again = client.put(LIMITS, json={"max_side": 8}, headers=writer).json()
    assert again["accept"] == "everyone" and again["max_side"] == 8 and again["bots"] is True
    reader = token(client, ann, ["board:play"])
    error(client.put(LIMITS, json={}, headers=reader), 403, "missing_scope")
    error(client.get(LIMITS), 401, "not_logged_in")
    for body in (
        {"accept": "friends"},
        {"modes": []},
        {"min_side": 0},
        {"min_side": 9, "max_side": 5},
        {"min_initial": -1},
        {"rated": "yes"},
        [],
    ):
        error(client.put(LIMITS, json=body, headers=ann), 400, "bad_field")
    error(client.put(LIMITS, json={"colour": 1}, headers=ann), 400, "unknown_field")


def test_a_challenge_outside_the_limits_is_refused_with_the_decline_reason(
    client: TestClient,
) -> None:
    robo = bot(client, "Robo")
    other = bot(client, "Other")
    ann = token(client, claim(client, "Ann"))
    limits = {"min_initial": 60, "max_initial": 600, "max_side": 8, "modes": ["general"],
              "untimed": False, "days": False, "rated": False, "bots": False}  # fmt: skip
    assert client.put(LIMITS, json=limits, headers=robo).status_code == 200
    clock = {"initial": 180, "increment": 2}
    for change, reason in [
        ({}, "timeControl"),
        ({"days": 3}, "timeControl"),
        ({"clock": {"initial": 30, "increment": 0}}, "tooFast"),
        ({"clock": {"initial": 1200, "increment": 0}}, "tooSlow"),
        ({"clock": clock, "rows": 9, "cols": 9}, "board"),
        ({"clock": clock, "mode": "simple"}, "board"),
        ({"clock": clock, "rated": True}, "casual"),
    ]:
        refused = client.post("/api/challenge/Robo", json={**GAME, **change}, headers=ann)
        assert error(refused, 403, "challenge_refused").endswith(f"({reason})")
        assert refused.json()["error"]["detail"] == reason
    from_bot = client.post("/api/challenge/Robo", json={**GAME, "clock": clock}, headers=other)
    assert from_bot.json()["error"]["detail"] == "noBot"
    made = client.post("/api/challenge/Robo", json={**GAME, "clock": clock}, headers=ann)
    assert made.status_code == 200, made.text
    # Casual only, and then nobody at all.
    client.put(LIMITS, json={"rated": False, "casual": True, "accept": "nobody"}, headers=robo)
    refused = client.post("/api/challenge/Robo", json=GAME, headers=ann)
    assert refused.json()["error"]["detail"] == "generic"
    client.put(LIMITS, json={"casual": False}, headers=robo)
    refused = client.post("/api/challenge/Robo", json=GAME, headers=ann)
    assert refused.json()["error"]["detail"] == "rated"


def test_rated_players_only_refuses_a_provisional_challenger_on_the_socket(
    tmp_path: Path,
) -> None:
    with app_client(tmp_path / "games.sqlite3") as client:
        ann, bao = claim(client, "Ann"), claim(client, "Bao")
        client.put(LIMITS, json={"accept": "rated"}, headers=bao)
        with client.websocket_connect("/ws/lobby", headers=ann) as socket:
            socket.send_json({"v": 1, "type": "hello"})
            receive_type(socket, "welcome")
            socket.send_json({"v": 1, "type": "challenge", "name": "Bao", **GAME})
            refused = receive_type(socket, "error")
            assert refused["code"] == "challenge_refused" and refused["detail"] == "generic"
            client.put(LIMITS, json={"accept": "registered"}, headers=bao)
            socket.send_json({"v": 1, "type": "challenge", "name": "Bao", **GAME})
            assert receive_type(socket, "challenge_sent")["to"] == "Bao"
            socket.send_json({"v": 1, "type": "decline", "reason": "because"})
            assert receive_type(socket, "error")["code"] == "bad_field"


def test_a_decline_s_reason_and_a_withdrawal_reach_the_other_side_through_any_process(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            add_players(one, 7, 8)
            ann, bao = connected(one, "P7", account=7), connected(two, "P8", account=8)
            await one.challenge(ann.client, CASUAL_SEEK, 8)
            made = (await last(ann, "challenge_sent"))["challenge"]
            await two.decline(bao.client, made, "tooFast")
            clock.advance(1)
            await one.sweep()
            (told,) = await ann.received("challengeDeclined")
            assert told["challenge"]["id"] == made and told["challenge"]["to"] == "P8"
            assert told["challenge"]["declineReason"] == "tooFast"
            assert (await last(ann, "challenges"))["challenges"] == []
            # Declined, it counts no more against the challenger's three.
            assert await _code(two.join_seek(bao.client, made, challenge=True)) == "no_challenge"
            clock.advance(1)
            await one.sweep()
            assert len(await ann.received("challengeDeclined")) == 1  # told once
            await one.challenge(ann.client, CASUAL_SEEK, 8)
            made = (await last(ann, "challenge_sent"))["challenge"]
            clock.advance(1)
            await two.sweep()
            assert [c["id"] for c in (await last(bao, "challenges"))["challenges"]] == [made]
            # A bot's challenge says so on both sides' messages.
            with one.hub.store.engine.begin() as db:
                db.execute(players.update().where(players.c.id == 7).values(bot=True))
            await one.cancel(ann.client, made)
            clock.advance(1)
            await two.sweep()
            (withdrawn,) = await bao.received("challengeCanceled")
            assert withdrawn["challenge"]["id"] == made and withdrawn["challenge"]["from"] == "P7"
            assert withdrawn["challenge"]["from_bot"] is True
            assert (await last(bao, "challenges"))["challenges"] == []
            assert await ann.received("challengeCanceled") == []

    run(scenario)


def test_a_bot_declining_through_the_api_tells_the_person_why(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            add_players(one, 7, 8)
            with one.hub.store.engine.begin() as db:
                db.execute(players.update().where(players.c.id == 8).values(bot=True))
            ann = connected(one, "P7", account=7)
            given = SeekSettings(
                5, 5, "general", 2, ClockSettings(60_000, 0), False, None, None, None
            )
            await one.challenge(ann.client, given, 8)
            made = (await last(ann, "challenge_sent"))["challenge"]
            clock.advance(1)
            await one.sweep()
            (listed,) = (await last(ann, "challenges"))["challenges"]
            assert listed["to_bot"] is True and listed["from_bot"] is False
            # As POST /api/challenge/{id}/decline stores it.
            store: Any = two.seeks
            assert await two.hub.db(store.decline, 8, made, "later") == 1
            clock.advance(1)
            await one.sweep()
            (told,) = await ann.received("challengeDeclined")
            assert told["challenge"]["declineReason"] == "later"

    run(scenario)


def test_an_unknown_decline_reason_over_the_api_is_the_generic_one(client: TestClient) -> None:
    robo = bot(client, "Robo")
    ann = token(client, claim(client, "Ann"))
    made = client.post("/api/challenge/Robo", json=GAME, headers=ann).json()["challenge"]["id"]
    declined = client.post(f"/api/challenge/{made}/decline", json={"reason": "meh"}, headers=robo)
    assert declined.status_code == 200
    engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
    from sosgame.web.storage.schema import seeks

    with engine.connect() as db:
        assert db.execute(seeks.select()).mappings().one()["answer"] == "declined:generic"


def test_the_leaderboard_has_a_tab_for_bots_on_the_same_scale(client: TestClient) -> None:
    engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
    rows = [("Ann", 30.0, None), ("Robo", 28.0, True), ("Bao", 26.0, False), ("Bolt", 31.0, True)]
    with engine.begin() as db:
        db.execute(
            players.insert(),
            [
                {"key": name.casefold(), "name": name, "password_hash": "-", "mu": mu,
                 "sigma": 2.0, "games": 30, "created_ms": 0, "opponents": 30, "bot": is_bot}
                for name, mu, is_bot in rows
            ],
        )  # fmt: skip

    def names(query: str) -> list[str]:
        answer = client.get(f"/api/players{query}")
        assert answer.status_code == 200, answer.text
        return [player["name"] for player in answer.json()["players"]]

    assert names("") == ["Bolt", "Ann", "Robo", "Bao"]
    assert names("?kind=bot") == ["Bolt", "Robo"]
    assert names("?kind=person") == ["Ann", "Bao"]
    bots = client.get("/api/players?kind=bot").json()["players"]
    assert all(player["bot"] for player in bots)
    error(client.get("/api/players?kind=robot"), 400, "bad_field")
