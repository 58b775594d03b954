"""``GET /api/games/{id}/analysis`` and ``/moves``: the engine's analysis, in a worker process,
one per game at a time, cached; and every action with its mover and points."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("sosgame.ai")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from sosgame import Game
from sosgame.ai.analysis import BLUNDER, MISTAKE, analyze, summarize
from sosgame.position import Position
from sosgame.record import Record
from sosgame.web import create_app
from sosgame.web.analysis import BUDGET_SECONDS, analysis_json, seconds_per_position

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GAME = ["Sa1", "Ob1", "Sc1", "Sa2", "Ob2", "Sc2", "Oa3", "Ob3", "Oc3"]


@pytest.fixture(name="client")
def client_fixture(tmp_path: Path) -> Iterator[TestClient]:
    executor = ThreadPoolExecutor(max_workers=1)
    app = create_app(
        f"sqlite:///{tmp_path / 'games.sqlite3'}", computer=executor, computer_pause=0.01
    )
    with TestClient(app) as test_client:
        yield test_client
    executor.shutdown()


def _upload(client: TestClient, game: Game, players: list[str]) -> str:
    record = Record.from_game(game, players=players)
    created = client.post("/api/records", json=record.to_dict())
    assert created.status_code == 201, created.json()
    game_id: str = created.json()["id"]
    return game_id


def _finished(client: TestClient, game_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    seen = []
    while time.monotonic() < deadline:
        answer: dict[str, Any] = client.get(f"/api/games/{game_id}/analysis").json()
        seen.append(answer["status"])
        if answer["status"] in ("done", "failed"):
            answer["seen"] = seen
            return answer
        assert 0 <= answer["done"] <= answer["total"]
        time.sleep(0.1)
    raise AssertionError(f"no analysis within 120 s: {seen[-5:]}")


def test_the_moves_give_each_action_its_seat_and_points(client: TestClient) -> None:
    game = Game(3, 3, players=3, moves=["Sa1", "resign:1", "Ob1", "Sc1", "Sb2"])
    game_id = _upload(client, game, ["Ann", "Bao", "Chi"])
    moves = client.get(f"/api/games/{game_id}/moves").json()["moves"]
    assert [entry["action"] for entry in moves] == [str(action) for action in game.actions]
    replaying = Game(3, 3, players=3)
    for entry in moves:
        seat = entry["seat"] if entry["action"].startswith("resign") else replaying.turn
        assert entry["seat"] == seat
        assert entry["points"] == len(replaying.apply(entry["action"]))
    replay = client.get(f"/api/games/{game_id}/replay").json()
    assert replay["moves"] == moves
    assert client.get("/api/games/nope/moves").status_code == 404


def test_the_analysis_is_the_engines_and_is_kept(client: TestClient) -> None:
    game = Game(3, 3, moves=GAME)
    game_id = _upload(client, game, ["Ann", "Bao"])
    first = client.get(f"/api/games/{game_id}/analysis").json()
    assert first["status"] in ("queued", "running")
    assert first["total"] == len(GAME)
    # A second request while it runs joins the same analysis rather than starting another.
    again = client.get(f"/api/games/{game_id}/analysis").json()
    assert again["status"] in ("queued", "running")
    answer = _finished(client, game_id)
    assert answer["status"] == "done", answer
    reports = analyze(game, seconds=seconds_per_position(len(GAME)))
    assert [move["played"] for move in answer["moves"]] == GAME
    for move, report in zip(answer["moves"], reports, strict=True):
        assert move["ply"] == report.ply and move["seat"] == report.seat
        if report.exact:  # exact values do not depend on the search's timing
            assert move["exact"] and move["cost"] == report.cost and move["flag"] == report.flag
            assert move["best_value"] == report.best_value
    assert answer["thresholds"] == {"mistake": MISTAKE["general"], "blunder": BLUNDER["general"]}
    summaries = summarize(reports, 2)
    assert [player["moves"] for player in answer["players"]] == [s.moves for s in summaries]
    # Cached: the next visitor gets it at once.
    assert client.get(f"/api/games/{game_id}/analysis").json()["status"] == "done"


def test_an_analysis_of_a_missing_game_is_refused(client: TestClient) -> None:
    response = client.get("/api/games/nope/analysis")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "no_game"


def test_the_search_time_is_spread_over_the_game_within_bounds() -> None:
    assert seconds_per_position(9) == 0.5
    big = seconds_per_position(26 * 26)
    assert big * 2 * 26 * 26 <= BUDGET_SECONDS + 1e-9
    assert seconds_per_position(10**6) >= 0.02


def test_a_game_of_three_gets_best_moves_but_no_costs() -> None:
    game = Game(3, 3, players=3, moves=["Sa1", "Ob1", "Sc1", "Sa2"])
    position = Position(3, 3, 3, "general", None, tuple(str(a) for a in game.actions))
    result = analysis_json(position, 0.02)
    assert [move["played"] for move in result["moves"]] == ["Sa1", "Ob1", "Sc1", "Sa2"]
    assert all(move["cost"] is None and move["flag"] is None for move in result["moves"])
    assert all(move["best"] for move in result["moves"])
