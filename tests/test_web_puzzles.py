"""Puzzles over HTTP, through the real app: the next puzzle, one by id, the daily puzzle, the
verdicts the server gives from the stored proof, and the ratings of a first attempt."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from sosgame.ai.puzzles import Puzzle, find_puzzle, puzzle_set
from sosgame.web import create_app
from sosgame.web.people.accounts import COOKIE

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

KEYS = {"id", "rows", "cols", "mode", "position", "turn", "scores", "goal", "rating", "themes"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    executor = ThreadPoolExecutor(max_workers=1)
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", computer=executor)
    with TestClient(app) as test_client:
        yield test_client
    executor.shutdown()


def claim(client: TestClient, name: str) -> dict[str, str]:
    response = client.post("/api/players", json={"name": name, "password": "a good password"})
    assert response.status_code == 201, response.text
    session = client.cookies.get(COOKIE)
    client.cookies.clear()
    return {"cookie": f"{COOKIE}={session}"}


def worse(puzzle: Puzzle) -> str:
    step = puzzle.steps[0]
    return str(next(move for move, value in step.values.items() if value < step.best))


def error(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code


def one_move_puzzles() -> list[Puzzle]:
    return [puzzle for puzzle in puzzle_set() if len(puzzle.steps) == 1]


def one_move_puzzle() -> Puzzle:
    return one_move_puzzles()[0]


def test_a_puzzle_is_sent_with_the_protocols_keys_and_without_its_solution(
    client: TestClient,
) -> None:
    puzzle = puzzle_set()[0]
    body = client.get(f"/api/puzzles/{puzzle.id}").json()
    assert set(body) >= KEYS
    assert body["position"] == puzzle.position
    assert body["goal"] in ("win", "draw", "points")
    assert "solution" not in body and "line" not in body and "proof" not in body
    error(client.get("/api/puzzles/nothing"), 404, "no_puzzle")


def test_a_guest_gets_a_next_puzzle_and_the_daily_one(client: TestClient) -> None:
    body = client.get("/api/puzzles/next").json()
    assert set(body) >= KEYS
    assert body["player"] is None
    first = client.get("/api/puzzles/daily").json()
    assert client.get("/api/puzzles/daily").json()["id"] == first["id"]


def test_the_right_answer_is_solved_and_a_guest_stays_unrated(client: TestClient) -> None:
    puzzle = one_move_puzzle()
    body = client.post(
        f"/api/puzzles/{puzzle.id}/moves", json={"moves": [str(puzzle.steps[0].move)]}
    ).json()
    assert body["correct"] is True and body["done"] is True
    assert body["solution"] == [str(move) for move in puzzle.line()]
    assert body["rated"] is None


def test_a_wrong_answer_ends_the_puzzle_with_the_solution(client: TestClient) -> None:
    puzzle = one_move_puzzle()
    body = client.post(f"/api/puzzles/{puzzle.id}/moves", json={"moves": [worse(puzzle)]}).json()
    assert body.pop("board")["position"].count(".") == puzzle.position.count(".") - 1
    assert body == {
        "correct": False,
        "reply": None,
        "done": True,
        "solution": [str(move) for move in puzzle.line()],
        "rated": None,
        "unrated": None,
    }


def test_a_longer_puzzle_sends_the_reply_and_keeps_the_solution_back(client: TestClient) -> None:
    puzzle = next(p for p in puzzle_set() if p.steps[0].reply is not None)
    body = client.post(
        f"/api/puzzles/{puzzle.id}/moves", json={"moves": [str(puzzle.steps[0].move)]}
    ).json()
    assert body["correct"] is True and body["done"] is False
    assert body["reply"] == str(puzzle.steps[0].reply)
    assert body["solution"] is None
    given_up = client.post(
        f"/api/puzzles/{puzzle.id}/moves",
        json={"moves": [str(puzzle.steps[0].move)], "give_up": True},
    ).json()
    assert given_up["correct"] is False and given_up["done"] is True
    assert given_up["solution"] == [str(move) for move in puzzle.line()]


@pytest.mark.parametrize(
    "body",
    [
        [],
        {"moves": "Sa1"},
        {"moves": [1]},
        {"moves": ["S" * 20]},
        {"moves": ["xyz"]},
        {"moves": ["Sa1"], "more": 1},
        {"moves": [], "give_up": "yes"},
        {"moves": ["Sa1"] * 9},
    ],
)
def test_bad_moves_are_refused_by_name(client: TestClient, body: object) -> None:
    puzzle = puzzle_set()[0]
    error(client.post(f"/api/puzzles/{puzzle.id}/moves", json=body), 400, "bad_moves")


def test_a_first_attempt_rates_the_player_and_the_puzzle_once(client: TestClient) -> None:
    ann = claim(client, "Ann")
    puzzle = one_move_puzzle()
    before = client.get(f"/api/puzzles/{puzzle.id}").json()["rating"]
    right = [str(puzzle.steps[0].move)]
    body = client.post(f"/api/puzzles/{puzzle.id}/moves", json={"moves": right}, headers=ann)
    rated = body.json()["rated"]
    assert rated["rating"] > 1500 and rated["change"] > 0
    assert client.get(f"/api/puzzles/{puzzle.id}").json()["rating"] < before
    again = client.post(f"/api/puzzles/{puzzle.id}/moves", json={"moves": right}, headers=ann)
    assert again.json()["correct"] is True and again.json()["rated"] is None
    bob = claim(client, "Bob")
    other = one_move_puzzles()[1]  # Ann's was shown here: unrated for this address now
    lost = client.post(
        f"/api/puzzles/{other.id}/moves", json={"moves": [worse(other)]}, headers=bob
    ).json()["rated"]
    assert lost["change"] < 0


def test_the_next_puzzle_is_never_one_already_tried(client: TestClient) -> None:
    ann = claim(client, "Ann")
    seen = set()
    for _ in range(5):
        body = client.get("/api/puzzles/next", headers=ann).json()
        assert body["id"] not in seen
        assert body["player"]["rating"] == round(body["player"]["rating"])
        seen.add(body["id"])
        puzzle = find_puzzle(body["id"])
        assert puzzle is not None
        client.post(f"/api/puzzles/{puzzle.id}/moves", json={"moves": [worse(puzzle)]}, headers=ann)
    assert client.get("/api/puzzles/next", headers=ann).json()["id"] not in seen
