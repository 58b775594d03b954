"""Puzzle ratings that resist farming, through the real app: a puzzle whose solution was
shown to an address or a named player (a cookieless guest who gave up, too) is unrated for
both for a day, and rated attempts are paced per player; and the store's notes of who saw
what, on SQLite and PostgreSQL."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import test_web_store
from sos_web import FakeTime, app_client
from sosgame.ai.puzzles import puzzle_set
from sosgame.web.storage.store import Store
from test_web_puzzles import claim, one_move_puzzles

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

url = test_web_store.url  # the fixture: a new database, SQLite and PostgreSQL
DAY = 86400.0


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path / "games.sqlite3", login_attempts_per_minute=100) as opened:
        yield opened


def _solve(client: TestClient, puzzle_id: str, move: str, **kwargs: Any) -> dict[str, Any]:
    response = client.post(f"/api/puzzles/{puzzle_id}/moves", json={"moves": [move]}, **kwargs)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_solutions_shown_to_a_guest_who_gave_up_rate_nobody_from_that_address(
    client: TestClient,
) -> None:
    """The report's farm: a cookieless guest gives up on puzzles, then a named account
    sends the solutions it was shown."""
    chosen = one_move_puzzles()[:12]
    solutions = {}
    for puzzle in chosen:
        given_up = client.post(
            f"/api/puzzles/{puzzle.id}/moves", json={"moves": [], "give_up": True}
        ).json()
        solutions[puzzle.id] = given_up["solution"][0]
    farmer = claim(client, "Farmer")
    for puzzle in chosen:
        body = _solve(client, puzzle.id, solutions[puzzle.id], headers=farmer)
        assert body["correct"] is True and body["done"] is True
        assert body["rated"] is None and body["unrated"] == "solution_seen"
    player = client.get("/api/puzzles/next", headers=farmer).json()["player"]
    assert player["rating"] == 1500  # nothing gained


def test_a_solution_seen_is_unrated_for_a_day_for_the_account_too(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeTime.install(monkeypatch)
    first, second = one_move_puzzles()[:2]
    ann = claim(client, "Ann")
    wrong = [move for move, value in first.steps[0].values.items() if value < first.steps[0].best]
    missed = _solve(client, first.id, str(wrong[0]), headers=ann)
    assert missed["rated"] is not None  # her own first attempt is rated, then she sees it
    bob = claim(client, "Bob")  # another account, the same address
    seen = _solve(client, first.id, str(first.steps[0].move), headers=bob)
    assert seen["unrated"] == "solution_seen"
    clock.advance(DAY + 1)
    later = _solve(client, first.id, str(first.steps[0].move), headers=bob)
    assert later["rated"] is not None and later["unrated"] is None
    assert _solve(client, second.id, str(second.steps[0].move), headers=bob)["rated"]


def test_rated_attempts_are_paced_per_player(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeTime.install(monkeypatch)
    puzzles = one_move_puzzles()[:4]
    with app_client(tmp_path / "games.sqlite3", puzzle_rated_per_minute=2) as client:
        ann = claim(client, "Ann")
        answers = [_solve(client, p.id, str(p.steps[0].move), headers=ann) for p in puzzles[:3]]
        assert [answer["unrated"] for answer in answers] == [None, None, "too_fast"]
        assert answers[2]["rated"] is None and answers[2]["correct"] is True
        clock.advance(61)
        # Past the minute: rated again (the fast one was shown its solution, so another).
        assert _solve(client, puzzles[3].id, str(puzzles[3].steps[0].move), headers=ann)["rated"]


def test_the_store_keeps_who_saw_a_solution_over_every_process(url: str) -> None:
    from sosgame.web.people.puzzles import PuzzleRatings, RatedAttempt, Unrated, viewers

    stores = [Store(url), Store(url)]
    try:
        from sosgame.web.people.players import Players

        ann = Players(stores[0]).claim("Ann", "h", 1)
        puzzle = puzzle_set()[0]
        ratings = [PuzzleRatings(store) for store in stores]
        ratings[0].reveal(puzzle.id, viewers("10.0.0.1", None), 1_000, 1_000)
        ratings[1].reveal(puzzle.id, viewers("10.0.0.1", None), 1_500, 1_000)  # again
        kept = {"unrated_ms": 1_000, "per_minute": 10}
        from_there = ratings[1].record(ann.id, "10.0.0.1", puzzle, True, 2_000, **kept)
        assert from_there == Unrated("solution_seen")
        from_elsewhere = ratings[1].record(ann.id, "10.0.0.2", puzzle, True, 2_000, **kept)
        assert isinstance(from_elsewhere, RatedAttempt)
        assert ratings[0].record(ann.id, "10.0.0.2", puzzle, True, 2_001, **kept) is None
        ratings[0].reveal(puzzle.id, viewers("10.0.0.3", ann.id), 9_000, 1_000)
        with stores[0].engine.begin() as db:
            from sqlalchemy import text

            left = db.execute(text("SELECT viewer FROM puzzle_reveals ORDER BY 1")).scalars().all()
        assert left == ["a:10.0.0.3", f"p:{ann.id}"]  # the old notes went
    finally:
        for store in stores:
            store.close()
