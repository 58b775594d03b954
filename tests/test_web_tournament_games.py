"""A tournament's games on the server: berserk in an Arena (the clock halved before one's
first move, a win worth a point more), which tournament a game belongs to, invitations
through the API, and the server's own scheduled tournaments."""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("networkx")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from sqlalchemy import create_engine, func, select

from sos_web import app_client, receive_type
from sosgame.web.live import clock as clocks
from sosgame.web.storage.schema import tournament_games, tournaments
from sosgame.web.tournaments.schedule import (
    DEFAULT_SCHEDULE,
    ScheduleError,
    next_start,
    parse_schedule,
    schedule_from_environment,
    scheduled_id,
)
from test_web_accounts import claim, error
from test_web_bots import GAME, bot, game_between
from test_web_tournaments import arena

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

Headers = dict[str, str]


@pytest.fixture(name="client")
def client_fixture(tmp_path: Path) -> Iterator[TestClient]:
    limits = {"tournament_tick_seconds": 0.05, "cold_loads_per_second": 1000.0}
    with app_client(tmp_path / "games.sqlite3", **limits) as client:
        yield client


def _paired(client: TestClient, tournament_id: str) -> dict[str, Any]:
    """The tournament's first game, once the server made it."""
    for _ in range(400):
        shown = client.get(f"/api/tournaments/{tournament_id}").json()
        if shown["games"]:
            found: dict[str, Any] = shown["games"][0]
            return found
        time.sleep(0.05)
    raise AssertionError("no game was paired")


def _bots_in_an_arena(
    client: TestClient, **more: Any
) -> tuple[str, dict[str, Any], Headers, Headers]:
    """Two bots paired in an Arena: its id, its game, the first mover's and the other's
    headers."""
    ann, bao = bot(client, "Ann"), bot(client, "Bao")
    body = arena(clocks.now_ms(), bots=True, **more)
    made = client.post("/api/tournaments", json=body, headers=ann)
    assert made.status_code == 201, made.text
    tournament_id = made.json()["id"]
    for headers in (ann, bao):
        assert client.post(f"/api/tournaments/{tournament_id}/join", headers=headers).is_success
    game = _paired(client, tournament_id)
    first, second = (ann, bao) if game["first"] == "Ann" else (bao, ann)
    return tournament_id, game, first, second


def _berserk(client: TestClient, game_id: str, headers: Headers) -> Any:
    return client.post(f"/api/bot/game/{game_id}/berserk", headers=headers)


def _clock(client: TestClient, game_id: str) -> tuple[list[int], list[int] | None]:
    """The game's seats' time left and the seats that went berserk (if it allows it)."""
    clock = client.get(f"/api/games/{game_id}").json()["clock"]
    return clock["remaining"], clock.get("berserk")


def test_berserk_halves_the_clock_once_before_the_first_move_and_wins_a_point_more(
    client: TestClient, tmp_path: Path
) -> None:
    tournament_id, game, first, second = _bots_in_an_arena(client)
    game_id = game["id"]
    assert _clock(client, game_id) == ([60_000, 60_000], [])
    assert _berserk(client, game_id, first).json() == {"ok": True}
    assert _clock(client, game_id) == ([30_000, 60_000], [0])
    error(_berserk(client, game_id, first), 403, "not_allowed")  # once
    for move, mover in (("Sa1", first), ("Sc3", second), ("Sc1", first), ("Sa3", second)):
        played = client.post(f"/api/bot/game/{game_id}/move/{move}", headers=mover)
        assert played.status_code == 200, played.text
    error(_berserk(client, game_id, second), 403, "not_allowed")  # after its first move
    assert client.post(f"/api/bot/game/{game_id}/resign", headers=second).is_success
    engine = create_engine(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    with engine.begin() as db:
        row = db.execute(
            select(tournament_games).where(tournament_games.c.game_id == game_id)
        ).one()
    engine.dispose()
    assert (row.berserk_first, row.berserk_second) == (True, False)
    for _ in range(200):
        shown = client.get(f"/api/tournaments/{tournament_id}").json()
        if any(line["games"] for line in shown["standings"]):
            break
        time.sleep(0.05)
    scores = {line["name"]: line["games"] for line in shown["standings"]}
    assert scores == {game["first"]: [3], game["second"]: [0]}  # a win, 2, and the berserk


def test_berserk_is_refused_outside_an_arena(client: TestClient) -> None:
    ann, bao = bot(client, "Ann"), bot(client, "Bao")
    clocked = {**GAME, "clock": {"initial": 60, "increment": 0}}
    made = client.post("/api/challenge/Bao", json=clocked, headers=ann)
    assert made.status_code == 200, made.text
    challenge = made.json()["challenge"]["id"]
    accepted = client.post(f"/api/challenge/{challenge}/accept", headers=bao)
    game_id = accepted.json()["game"]["id"]
    error(_berserk(client, game_id, ann), 403, "not_allowed")
    untimed = game_between(client, ann, bao, "Bao")
    error(_berserk(client, untimed, ann), 403, "not_allowed")
    assert _clock(client, game_id) == ([60_000, 60_000], None)


def test_a_berserk_seat_gets_no_increment() -> None:
    clock = {**clocks.new_clock(30_000, 2_000, 2), "since": 1_000, clocks.BERSERK: [0]}
    berserk, _, _ = clocks.charge(clock, 0, "Sa1", 2_000, None)
    assert berserk is not None and berserk["remaining"] == [29_000, 30_000]
    other, _, _ = clocks.charge(clock, 1, "Sa1", 2_000, None)
    assert other is not None and other["remaining"] == [30_000, 31_000]


def test_a_game_says_which_tournament_it_belongs_to(client: TestClient) -> None:
    tournament_id, game, first, second = _bots_in_an_arena(client)
    shown = client.get(f"/api/games/{game['id']}").json()
    assert shown["tournament"] == {"id": tournament_id, "name": "Test Arena"}
    with client.websocket_connect(f"/ws/games/{game['id']}") as socket:
        socket.send_text(json.dumps({"v": 1, "type": "hello", "token": None}))
        state = receive_type(socket, "state")
    assert state["game"]["tournament"] == {"id": tournament_id, "name": "Test Arena"}
    casual = game_between(client, first, second, "Bao" if game["first"] == "Ann" else "Ann")
    assert "tournament" not in client.get(f"/api/games/{casual}").json()


@pytest.mark.slow
def test_a_bots_event_stream_names_the_tournament_of_its_game(tmp_path: Path) -> None:
    from test_web_bots_streams import Server, Stream

    ticks = {"SOSGAME_TOURNAMENT_TICK_SECONDS": "0.05"}
    server = Server(tmp_path / "games.sqlite3", env=ticks)
    try:
        ann, bao = server.bot("Ann"), server.bot("Bao")
        told = Stream(server, "/api/stream/event", ann)
        body = arena(clocks.now_ms(), bots=True)
        made = server.http.post("/api/tournaments", json=body, headers=ann)
        assert made.status_code == 201, made.text
        tournament_id = made.json()["id"]
        for headers in (ann, bao):
            server.post(f"/api/tournaments/{tournament_id}/join", headers)
        pushed = told.next("gameStart")["game"]
        told.close()
        assert pushed["tournament"] == tournament_id
        read = Stream(server, "/api/stream/event", bao)  # from the store, as it opens
        assert read.next("gameStart")["game"] == {**pushed, "seat": 1 - pushed["seat"]}
        read.close()
    finally:
        server.stop()


def test_the_creator_invites_players_to_a_tournament_that_is_not_open(client: TestClient) -> None:
    ann, bao, cam = claim(client, "Ann"), claim(client, "Bao"), claim(client, "Cam")
    later = clocks.now_ms() + 3_600_000
    closed = client.post("/api/tournaments", json=arena(later, open=False), headers=ann).json()
    opened = client.post("/api/tournaments", json=arena(later), headers=ann).json()
    path = f"/api/tournaments/{closed['id']}"
    error(client.post(f"{path}/join", headers=bao), 403, "not_invited")
    error(
        client.post(f"{path}/invite", json={"name": "Bao"}, headers=cam), 403, "not_your_tournament"
    )
    error(client.post(f"{path}/invite", json={"name": "Nobody"}, headers=ann), 404, "no_player")
    error(client.post(f"{path}/invite", json={}, headers=ann), 400, "bad_field")
    error(client.post(f"{path}/invite", json={"name": "Bao"}), 401, "not_logged_in")
    error(
        client.post(f"/api/tournaments/{opened['id']}/invite", json={"name": "Bao"}, headers=ann),
        409,
        "tournament_open",
    )
    error(client.post(f"{path}/join", headers=bao), 403, "not_invited")  # none of these did
    invited = client.post(f"{path}/invite", json={"name": "bao"}, headers=ann)
    assert invited.json() == {"id": closed["id"], "name": "Bao"}
    assert client.post(f"{path}/invite", json={"name": "Bao"}, headers=ann).is_success  # again
    assert client.post(f"{path}/join", headers=bao).is_success
    error(client.post(f"{path}/join", headers=cam), 403, "not_invited")
    assert [line["name"] for line in client.get(path).json()["standings"]] == ["Bao"]


# ------------------------------------------------------------- the server's own tournaments

HOUR_MS = 3_600_000


def test_the_schedule_comes_from_the_configuration_checked() -> None:
    assert schedule_from_environment({}) == DEFAULT_SCHEDULE
    assert schedule_from_environment({"SOSGAME_TOURNAMENT_SCHEDULE": "[]"}) == ()
    hourly, daily = DEFAULT_SCHEDULE
    assert (hourly.every, hourly.settings["kind"], hourly.settings["rows"]) == ("hour", "arena", 5)
    assert (daily.every, daily.settings["kind"], daily.settings["days"]) == ("day", "swiss", 1)
    one = {**hourly.settings, "key": "blitz", "every": "hour", "offset_minutes": 30}
    (found,) = parse_schedule(json.dumps([one]))
    now = 10 * 24 * HOUR_MS + 20 * 60_000  # 00:20 UTC
    assert next_start(found, now) == 10 * 24 * HOUR_MS + 30 * 60_000
    assert next_start(daily, now) == 11 * 24 * HOUR_MS
    assert scheduled_id(found, 5) == scheduled_id(found, 5) != scheduled_id(found, 6)
    for wrong, field in (
        ({**one, "every": "week"}, "every"),
        ({**one, "key": "No Spaces"}, "key"),
        ({**one, "offset_minutes": 60}, "offset_minutes"),
        ({**one, "starts_at": 1}, "starts_at"),
        ({**one, "minutes": 1}, "minutes"),
    ):
        with pytest.raises(ScheduleError, match=field):
            parse_schedule(json.dumps([wrong]))
    with pytest.raises(ScheduleError, match="twice"):
        parse_schedule(json.dumps([one, one]))


def test_the_scheduled_tournaments_are_made_ahead_once_across_processes(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    limits = {"tournament_tick_seconds": 0.05, "schedule": DEFAULT_SCHEDULE}
    # Two servers on one database, as two processes would be.
    with app_client(database, **limits) as one, app_client(database, **limits) as two:
        now = clocks.now_ms()
        for _ in range(200):
            shown = [client.get("/api/tournaments").json()["upcoming"] for client in (one, two)]
            if all(len(listed) == 2 for listed in shown):
                break
            time.sleep(0.05)
        runner = one.app.state.tournaments  # type: ignore[attr-defined]
        made = one.portal.call(runner.store.listed)  # type: ignore[union-attr]
    assert shown[0] == shown[1]
    starts = {scheduled.key: next_start(scheduled, now) for scheduled in DEFAULT_SCHEDULE}
    assert {(one["name"], one["kind"], one["starts_at"]) for one in shown[0]} == {
        ("Hourly 5x5 Arena", "arena", starts["hourly-arena"]),
        ("Daily correspondence Swiss", "swiss", starts["daily-swiss"]),
    }
    assert {one["id"] for one in shown[0]} == {
        scheduled_id(scheduled, starts[scheduled.key]) for scheduled in DEFAULT_SCHEDULE
    }
    assert [row.creator_id for row, _ in made["upcoming"]] == [None, None]
    engine = create_engine(f"sqlite:///{database}")
    with engine.begin() as db:
        assert db.execute(select(func.count()).select_from(tournaments)).scalar_one() == 2
    engine.dispose()
