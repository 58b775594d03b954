"""A tournament's results outside its own page: the tournaments a player entered on their
profile (rank and score as the standings have them, the latest 20), the tournament named in
the profile's list of games, and in a tournament game's record, which still loads."""

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

from sqlalchemy import create_engine

from sos_web import app_client
from sosgame.record import Record, load
from sosgame.tournaments.settings import parse_settings
from sosgame.web.live import clock as clocks
from sosgame.web.storage.store import Store
from sosgame.web.tournaments.store import ENTERED_SHOWN, TournamentStore
from sosgame.web.tournaments.views import result_of
from test_web_accounts import browser
from test_web_bots import bot
from test_web_tournaments import _player, arena

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

Headers = dict[str, str]


@pytest.fixture(name="client")
def client_fixture(tmp_path: Path) -> Iterator[TestClient]:
    limits = {"tournament_tick_seconds": 0.05, "cold_loads_per_second": 1000.0}
    with app_client(tmp_path / "games.sqlite3", **limits) as client:
        yield client


def _until(check: Any, what: str) -> Any:
    for _ in range(400):
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


def _won_with_berserk(client: TestClient) -> tuple[str, dict[str, Any], Headers]:
    """Two bots in an Arena; the first mover goes berserk and wins after four moves: the
    tournament's id, its game and the winner's headers."""
    ann, bao = bot(client, "Ann"), bot(client, "Bao")
    made = client.post("/api/tournaments", json=arena(clocks.now_ms(), bots=True), headers=ann)
    assert made.status_code == 201, made.text
    tournament_id = made.json()["id"]
    for headers in (ann, bao):
        assert client.post(f"/api/tournaments/{tournament_id}/join", headers=headers).is_success
    shown = f"/api/tournaments/{tournament_id}"
    game = _until(lambda: client.get(shown).json()["games"], "paired")[0]
    first, second = (ann, bao) if game["first"] == "Ann" else (bao, ann)
    berserk = client.post(f"/api/bot/game/{game['id']}/berserk", headers=first)
    assert berserk.status_code == 200, berserk.text
    for move, mover in (("Sa1", first), ("Sc3", second), ("Sc1", first), ("Sa3", second)):
        played = client.post(f"/api/bot/game/{game['id']}/move/{move}", headers=mover)
        assert played.status_code == 200, played.text
    assert client.post(f"/api/bot/game/{game['id']}/resign", headers=second).is_success
    _until(lambda: any(line["games"] for line in client.get(shown).json()["standings"]), "counted")
    return tournament_id, game, first


def test_a_profile_lists_the_tournaments_entered_with_rank_and_score(client: TestClient) -> None:
    tournament_id, game, _ = _won_with_berserk(client)
    winner, loser = game["first"], game["second"]
    starts_at = client.get(f"/api/tournaments/{tournament_id}").json()["starts_at"]
    common = {"id": tournament_id, "name": "Test Arena", "kind": "arena", "status": "started"}
    common |= {"players": 2, "starts_at": starts_at}
    won = client.get(f"/api/players/{winner}").json()
    # A win is 2, and the berserk a point more (the game lasted long enough).
    assert won["tournaments"] == [{**common, "rank": 1, "score": 3}]
    lost = client.get(f"/api/players/{loser}").json()
    assert lost["tournaments"] == [{**common, "rank": 2, "score": 0}]
    # Its games (the next one may be paired already) in the player's list name it.
    assert won["games"] and all(
        one["tournament"] == {"id": tournament_id, "name": "Test Arena"} for one in won["games"]
    )
    nobody = client.post("/api/players", json={"name": "Cal", "password": "a good password"})
    assert nobody.status_code == 201
    cal = client.get("/api/players/Cal").json()
    assert cal["tournaments"] == []


def test_my_games_name_the_tournament_of_each_of_its_games(client: TestClient) -> None:
    tournament_id, game, _ = _won_with_berserk(client)
    mine = client.get("/api/my-games", headers=browser(client, game["first"])).json()
    listed = {one["id"]: one["tournament"] for one in mine["games"]}
    assert listed[game["id"]] == {"id": tournament_id, "name": "Test Arena"}
    seats = [{"name": "Ann"}, {"name": "Bao"}]
    casual = client.post("/api/games", json={"rows": 3, "cols": 3, "seats": seats}).json()
    header = {"authorization": f"Bearer {casual['token']}"}
    (other,) = client.get("/api/my-games", headers=header).json()["games"]
    assert other["id"] == casual["id"] and other["tournament"] is None


def test_a_profile_shows_the_latest_tournaments_only(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    Store(url).close()  # the migrations
    ann, bao = _player(url, "Ann"), _player(url, "Bao")
    engine = create_engine(url)
    store = TournamentStore(engine)
    made = []
    for number in range(ENTERED_SHOWN + 2):
        settings = parse_settings(arena(1_000_000 + number * 1_000, name=f"Arena {number}"))
        tournament_id = store.create(settings, None, 500)
        assert tournament_id is not None
        assert store.join(tournament_id, ann, 1500, bot=False, now_ms=600) is None
        made.append(tournament_id)
    # Bao is in one of them only, and it counts nowhere else.
    assert store.join(made[3], bao, 1400, bot=False, now_ms=600) is None
    entered = store.entered(ann)
    assert [one.tournament.id for one in entered] == made[::-1][:ENTERED_SHOWN]
    (only,) = store.entered(bao)
    assert result_of(only, bao, 1.0) == {
        "id": made[3],
        "name": "Arena 3",
        "kind": "arena",
        "status": "created",
        "rank": 2,  # below Ann's higher rating until a game is played
        "score": 0,
        "players": 2,
        "starts_at": 1_003_000,
    }
    engine.dispose()


def test_a_tournament_games_record_names_its_tournament_and_loads(
    client: TestClient, tmp_path: Path
) -> None:
    tournament_id, game, _ = _won_with_berserk(client)
    answer = client.get(f"/api/games/{game['id']}/record")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    tag = data["meta"]["tags"]["sosgame.tournament"]
    assert json.loads(tag) == {"id": tournament_id, "name": "Test Arena"}
    assert data["meta"]["event"] == "Test Arena"
    # The reader takes the tag as any other (a record's tags are free text) ...
    record = Record.from_json(answer.content)
    assert Record.from_json(record.to_json()) == record
    path = tmp_path / "game.json"
    path.write_bytes(answer.content)
    assert load(path).meta["tags"]["sosgame.tournament"] == tag
    # ... and so does the server, which replays it as a game of its own.
    uploaded = client.post("/api/records", content=answer.content)
    assert uploaded.status_code == 201, uploaded.text
    replayed = client.get(f"/api/games/{uploaded.json()['id']}").json()
    assert replayed["result"] is not None and "tournament" not in replayed
    # A game outside any tournament has neither.
    seats = [{"name": "Ann"}, {"name": "Bao"}]
    casual = client.post("/api/games", json={"rows": 3, "cols": 3, "seats": seats}).json()
    plain = client.get(f"/api/games/{casual['id']}/record").json()
    assert "event" not in plain["meta"] and "sosgame.tournament" not in plain["meta"]["tags"]
