"""The live lobby: seeks and pool counts pushed to every lobby socket (through any hub, each
filtered for its receiver, bursts coalesced), and challenges to a named player: accepted,
declined, cancelled, lapsed, capped, and refused to guests."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from sos_web import TestClient, app_client, receive_type
from sosgame.web.live.protocol import ClockSettings
from sosgame.web.matchmaking.lobby import PUSH_MS, Lobby
from sosgame.web.matchmaking.seeks import (
    CHALLENGE_MS,
    CHALLENGES_PER_PLAYER,
    SeekSettings,
    member_of,
)
from sosgame.web.people.tokens import hash_token
from sosgame.web.storage.schema import players
from test_web_pools import CASUAL, FakeClock, Player, lobbies, run

Message = dict[str, Any]
CASUAL_SEEK = SeekSettings(
    5, 5, "general", 2, ClockSettings(180_000, 2_000), False, None, None, None
)


def connected(lobby: Lobby, name: str, *, account: int | None = None, shown: float = 0.0) -> Player:
    """A lobby connection as ``/ws/lobby`` makes one after ``hello``."""
    player = Player(lobby, name, account=account)
    player.client.shown = shown
    lobby.connect(player.client)
    return player


async def seek(lobby: Lobby, player: Player, given: SeekSettings = CASUAL_SEEK) -> str:
    """A seek made by ``player``, as ``POST /api/seeks`` makes it."""
    seek_id = secrets.token_urlsafe(9)
    client = player.client
    member = member_of(client.secret, seek_id, client.name, client.account)
    made = await lobby.hub.db(
        lobby.seeks.create, seek_id, given, member, client.address, lobby.now(), per_address=9
    )
    assert made
    lobby.hub.bus.wake()
    return seek_id


def add_players(lobby: Lobby, *numbers: int, mu: float = 25.0) -> None:
    with lobby.hub.store.engine.begin() as db:
        db.execute(
            players.insert(),
            [
                {"id": n, "key": f"p{n}", "name": f"P{n}", "password_hash": "-", "mu": mu,
                 "sigma": 5.0, "games": 0, "created_ms": 0, "opponents": 0}
                for n in numbers
            ],
        )  # fmt: skip


async def last(player: Player, kind: str) -> Message:
    found = await player.received(kind)
    assert found, f"no {kind!r} message"
    return found[-1]


def test_a_seek_made_through_one_hub_is_pushed_to_a_lobby_socket_of_the_other(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            ann, bao = connected(one, "Ann"), connected(two, "Bao")
            await two.sweep()
            assert (await last(bao, "seeks"))["seeks"] == []
            made = await seek(one, ann)
            clock.advance(1)
            await two.sweep()
            (shown,) = (await last(bao, "seeks"))["seeks"]
            assert shown["id"] == made and shown["name"] == "Ann" and shown["rated"] is False
            assert shown["clock"] == {"initial": 180, "increment": 2} and shown["rating"] is None
            assert shown["mine"] is False and shown["seeker"] is None  # a guest's
            await one.sweep()
            assert (await last(ann, "seeks"))["seeks"][0]["mine"] is True
            # Withdrawn: pushed again, empty.
            await one.hub.db(one.seeks.delete, made, hash_token(ann.client.secret))
            clock.advance(1)
            await two.sweep()
            assert (await last(bao, "seeks"))["seeks"] == []

    run(scenario)


def test_each_socket_is_pushed_only_the_seeks_it_may_take_with_the_seekers_rating(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            add_players(one, 7, 8, 9)
            ann = connected(one, "P7", account=7, shown=10.0)
            guest = connected(two, "Guest")
            bao = connected(two, "P8", account=8, shown=30.0)
            bao.client.address = "10.0.0.99"
            ranged = SeekSettings(5, 5, "general", 2, None, False, 20.0, 40.0, None, 3)
            rated = SeekSettings(5, 5, "simple", 2, None, True, None, None, None, 1)
            in_range = await seek(one, ann, ranged)
            is_rated = await seek(one, ann, rated)
            # A rated seek from the receiver's own address is left out (join_seek refuses it).
            same_address = connected(two, "P9", account=9, shown=30.0)
            same_address.client.address = ann.client.address
            clock.advance(1)
            await two.sweep()
            assert (await last(guest, "seeks"))["seeks"] == []  # out of range, and rated
            listed = {shown["id"]: shown for shown in (await last(bao, "seeks"))["seeks"]}
            assert set(listed) == {in_range, is_rated}
            assert listed[in_range]["rating"] == {"min": 20.0, "max": 40.0}
            assert listed[in_range]["days"] == 3 and listed[is_rated]["rated"] is True
            assert listed[in_range]["seeker"] == {"rating": 10.0, "provisional": True}
            assert [s["id"] for s in (await last(same_address, "seeks"))["seeks"]] == [in_range]
            # The creator sees its own seeks, even out of its range.
            await one.sweep()
            assert {s["id"] for s in (await last(ann, "seeks"))["seeks"]} == {in_range, is_rated}

    run(scenario)


def test_a_burst_of_seeks_is_pushed_as_one_message_per_socket(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            ann, bao = connected(one, "Ann"), connected(two, "Bao")
            await two.sweep()
            for n in range(6):
                ranged = SeekSettings(5, 5, "general", 2, None, False, None, float(n), None, 1)
                await seek(one, ann, ranged)
                clock.advance(PUSH_MS / 1000 / 10)
                await two.sweep()  # a sweep for each wake, as the bus brings them
            pushes = await bao.received("seeks")
            assert len(pushes) <= 2
            clock.advance(PUSH_MS / 1000)
            await two.sweep()
            pushes = await bao.received("seeks")
            assert len(pushes[-1]["seeks"]) == 6 and len(pushes) <= 3
            # Nothing changed: nothing sent.
            clock.advance(5)
            await two.sweep()
            assert len(await bao.received("seeks")) == len(pushes)

    run(scenario)


def test_the_pools_counts_are_pushed_through_every_hub(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            ann, bao = connected(one, "Ann"), connected(two, "Bao")
            await two.sweep()
            assert (await last(bao, "pool_counts"))["counts"][CASUAL] == 0
            await ann.enter(CASUAL)
            clock.advance(1)
            await two.sweep()
            counts = (await last(bao, "pool_counts"))["counts"]
            assert counts[CASUAL] == 1 and set(counts) == set(two.pools)
            await one.leave(ann.client)
            clock.advance(1)
            await two.sweep()
            assert (await last(bao, "pool_counts"))["counts"][CASUAL] == 0

    run(scenario)


def test_a_challenge_is_seen_only_by_the_challenged_and_accepted_starts_the_game(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            add_players(one, 7, 8, 9)
            ann = connected(one, "P7", account=7)
            bao, cay = connected(two, "P8", account=8), connected(two, "P9", account=9)
            await one.challenge(ann.client, CASUAL_SEEK, 8)
            sent = await last(ann, "challenge_sent")
            clock.advance(1)
            await two.sweep()
            (seen,) = (await last(bao, "challenges"))["challenges"]
            assert seen["id"] == sent["challenge"] and seen["from"] == "P7" and seen["to"] == "P8"
            assert seen["mine"] is False and seen["clock"] == {"initial": 180, "increment": 2}
            assert seen["lapses_ms"] == clock() - 1000 + CHALLENGE_MS
            assert (await last(cay, "challenges"))["challenges"] == []
            assert (await last(bao, "seeks"))["seeks"] == []  # not in the seeks
            await one.sweep()
            assert (await last(ann, "challenges"))["challenges"][0]["mine"] is True
            # Nobody else may accept it.
            errors = []
            try:
                await two.join_seek(cay.client, seen["id"], challenge=True)
            except Exception as error:
                errors.append(getattr(error, "code", ""))
            assert errors == ["not_for_you"]
            await two.join_seek(bao.client, seen["id"], challenge=True)
            await one.sweep()
            await two.sweep()
            (for_ann,) = await ann.received("paired")
            (for_bao,) = await bao.received("paired")
            assert for_ann["game"] == for_bao["game"] and {for_ann["seat"], for_bao["seat"]} == {
                0,
                1,
            }
            room = await two.hub.room(for_ann["game"])
            assert room is not None and room.controlled(for_bao["token"]) == {for_bao["seat"]}
            assert room.controlled(sent["token"]) == {for_ann["seat"]}
            clock.advance(1)
            await two.sweep()
            assert (await last(bao, "challenges"))["challenges"] == []

    run(scenario)


async def _code(call: Any) -> str:
    try:
        await call
    except Exception as error:
        return str(getattr(error, "code", error))
    return ""


def test_a_challenge_is_declined_cancelled_lapses_and_is_capped(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            add_players(one, 7, 8)
            ann, bao = connected(one, "P7", account=7), connected(two, "P8", account=8)
            guest = connected(two, "Guest")
            for _ in range(CHALLENGES_PER_PLAYER):
                await one.challenge(ann.client, CASUAL_SEEK, 8)
            assert await _code(one.challenge(ann.client, CASUAL_SEEK, 8)) == "too_many_challenges"
            assert await _code(one.challenge(ann.client, CASUAL_SEEK, 7)) == "no_player"
            assert await _code(two.challenge(guest.client, CASUAL_SEEK, 8)) == "account_needed"
            assert await _code(two.decline(guest.client, None)) == "account_needed"
            clock.advance(1)
            await two.sweep()
            ids = [c["id"] for c in (await last(bao, "challenges"))["challenges"]]
            assert len(ids) == CHALLENGES_PER_PLAYER
            # Declined (one, then all the rest): the challenger's list empties.
            await two.decline(bao.client, ids[0])
            assert await _code(two.decline(bao.client, ids[0])) == "no_challenge"
            await two.decline(bao.client, None)
            clock.advance(1)
            await one.sweep()
            assert (await last(ann, "challenges"))["challenges"] == []
            # Cancelled by the challenger; only by them.
            await one.challenge(ann.client, CASUAL_SEEK, 8)
            made = (await last(ann, "challenge_sent"))["challenge"]
            assert await _code(two.cancel(bao.client, made)) == "no_challenge"
            await one.cancel(ann.client, made)
            assert await _code(two.join_seek(bao.client, made, challenge=True)) == "no_challenge"
            # Lapsed: gone from the lists, and no longer to be accepted.
            await one.challenge(ann.client, CASUAL_SEEK, 8)
            made = (await last(ann, "challenge_sent"))["challenge"]
            clock.advance(CHALLENGE_MS / 1000 + 1)
            assert await _code(two.join_seek(bao.client, made, challenge=True)) == "no_challenge"
            await two.sweep()
            assert (await last(bao, "challenges"))["challenges"] == []

    run(scenario)


def _claim(client: TestClient, name: str) -> str:
    client.cookies.clear()
    claimed = client.post("/api/players", json={"name": name, "password": "a good password"})
    assert claimed.status_code in (200, 201), claimed.text
    secret = str(client.cookies.get("sos_session"))
    client.cookies.clear()
    return secret


def test_challenges_on_the_socket_refuse_guests_and_bad_messages_by_name(tmp_path: Path) -> None:
    with app_client(tmp_path / "games.sqlite3") as client:
        ann_cookie = _claim(client, "Ann")
        _claim(client, "Bao")
        with (
            client.websocket_connect(
                "/ws/lobby", headers={"cookie": f"sos_session={ann_cookie}"}
            ) as ann,
            client.websocket_connect("/ws/lobby") as guest,
        ):
            ann.send_json({"v": 1, "type": "hello"})
            receive_type(ann, "welcome")
            guest.send_json({"v": 1, "type": "hello", "name": "Cay"})
            receive_type(guest, "welcome")
            game = {
                "rows": 5,
                "cols": 5,
                "mode": "general",
                "clock": {"initial": 60, "increment": 1},
            }
            for socket, message, code in [
                (ann, {"type": "challenge", **game}, "bad_field"),
                (ann, {"type": "challenge", "name": "Bao", "rows": 99, "cols": 5}, "bad_field"),
                (
                    ann,
                    {"type": "challenge", "name": "Bao", "rows": 5, "cols": 5, "players": 3},
                    "unknown_field",
                ),
                (ann, {"type": "challenge", "name": "Nobody", **game}, "no_player"),
                (ann, {"type": "challenge", "name": "Cay", **game}, "no_player"),
                (ann, {"type": "accept"}, "bad_field"),
                (ann, {"type": "accept", "challenge": "nope"}, "no_challenge"),
                (ann, {"type": "cancel_challenge", "challenge": 3}, "bad_field"),
                (ann, {"type": "cancel_challenge", "challenge": "nope"}, "no_challenge"),
                (guest, {"type": "challenge", "name": "Bao", **game}, "account_needed"),
                (guest, {"type": "accept", "challenge": "nope"}, "account_needed"),
                (guest, {"type": "decline"}, "account_needed"),
            ]:
                socket.send_json({"v": 1, **message})
                assert receive_type(socket, "error")["code"] == code, message
            ann.send_json({"v": 1, "type": "challenge", "name": "bao", **game})
            sent = receive_type(ann, "challenge_sent")
            assert sent["challenge"] and sent["to"] == "Bao"
            pushed = receive_type(ann, "challenges", most=200)["challenges"]
            while not pushed:
                pushed = receive_type(ann, "challenges", most=200)["challenges"]
            assert pushed[0]["to"] == "Bao" and pushed[0]["from"] == "Ann"
            # A challenge is not a seek anyone may take.
            assert client.get("/api/seeks").json() == {"seeks": []}
