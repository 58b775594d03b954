"""Puzzles as a player sees them: a right and a wrong answer, the puzzle of the day on the
home page, and a named player's puzzle rating changing after a first attempt."""

from __future__ import annotations

from typing import Any

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    LiveServer,
    browser_fixture,
    module_server_fixture,
    page_fixture,
)

pytest.importorskip("playwright")

from playwright.sync_api import expect

from sosgame.ai.puzzles import Puzzle, find_puzzle, puzzle_set
from sosgame.notation import Move


def one_move() -> Puzzle:
    return next(puzzle for puzzle in puzzle_set() if len(puzzle.steps) == 1)


def worse(puzzle: Puzzle) -> Move:
    step = puzzle.steps[0]
    return next(move for move, value in step.values.items() if value < step.best)


def play(page: Any, move: Move) -> None:
    page.click(f'[data-cell="{move.cell}"]')
    page.click(f"#pick-{move.letter}")


def test_the_right_answer_is_solved_and_shows_the_solution(page: Any, server: LiveServer) -> None:
    puzzle = one_move()
    page.goto(f"{server.url}/#/puzzles/{puzzle.id}")
    expect(page.locator("#puzzle-goal")).to_have_text(
        {"win": "Find the move that wins.", "draw": "Find the move that keeps the draw."}.get(
            puzzle.goal, "Find the move that gains the most points."
        )
    )
    expect(page.locator("#puzzle-player")).to_contain_text("guest")
    play(page, puzzle.steps[0].move)
    expect(page.locator("#puzzle-status")).to_contain_text("Solved")
    expect(page.locator("#puzzle-solution")).to_contain_text(str(puzzle.steps[0].move))
    expect(page.locator(f'[data-cell="{puzzle.steps[0].move.cell}"]')).to_have_text(
        puzzle.steps[0].move.letter
    )


def test_a_wrong_answer_says_so_and_shows_the_solution(page: Any, server: LiveServer) -> None:
    puzzle = one_move()
    page.goto(f"{server.url}/#/puzzles/{puzzle.id}")
    play(page, worse(puzzle))
    expect(page.locator("#puzzle-status")).to_contain_text("Wrong")
    expect(page.locator("#puzzle-solution")).to_contain_text(str(puzzle.steps[0].move))
    page.click("#puzzle-next")
    expect(page.locator("h1")).not_to_have_text(f"Puzzle {puzzle.id}")


def test_the_home_page_shows_the_daily_puzzle(page: Any, server: LiveServer) -> None:
    daily = server.get("/api/puzzles/daily")
    page.goto(f"{server.url}/#/")
    panel = page.locator("#daily-puzzle")
    expect(panel).to_contain_text("Puzzle of the day")
    expect(panel.locator("[data-cell]")).to_have_count(daily["rows"] * daily["cols"])
    page.click("#daily-open")
    expect(page.locator("h1")).to_have_text(f"Puzzle {daily['id']}")


def test_a_named_players_puzzle_rating_changes_after_a_first_attempt(
    page: Any, server: LiveServer
) -> None:
    answer = page.context.request.post(
        f"{server.url}/api/players", data={"name": "Ann", "password": "a good password"}
    )
    assert answer.status == 201, answer.text()
    page.goto(f"{server.url}/#/puzzles")
    expect(page.locator("#puzzle-player")).to_have_text("Your puzzle rating: 1500")
    puzzle_id = page.locator("h1").inner_text().removeprefix("Puzzle ")
    puzzle = find_puzzle(puzzle_id)
    assert puzzle is not None
    play(page, worse(puzzle))
    expect(page.locator("#puzzle-player")).to_contain_text("Your puzzle rating: ")
    expect(page.locator("#puzzle-player")).to_contain_text("(-")
