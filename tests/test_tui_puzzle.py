"""The terminal game's puzzle screen, driven by real key presses through Textual's Pilot."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot
from textual.widgets import Static

from sosgame import Game
from sosgame.ai.puzzles import Puzzle, puzzle_set
from sosgame.tui.app import SosApp
from sosgame.tui.screens.game import GameScreen
from sosgame.tui.screens.puzzle import PuzzleScreen
from sosgame.tui.session import Seat, Session
from sosgame.tui.widgets.board import Board

SIZE = (100, 32)


def one_move() -> Puzzle:
    return next(puzzle for puzzle in puzzle_set() if len(puzzle.steps) == 1)


def verdict(app: SosApp) -> str:
    return str(app.screen.query_one("#verdict", Static).render())


def app() -> SosApp:
    session = Session(Game(3, 3), [Seat("Ann", "person"), Seat("Bao", "person")])
    return SosApp(session=session, seed=5, computer_delay=0)


def drive(game: SosApp, script: Callable[[Pilot[int]], Awaitable[None]]) -> None:
    async def main() -> None:
        async with game.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


def test_f4_opens_a_puzzle_and_escape_goes_back_to_the_game() -> None:
    game = app()

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("f4")
        assert isinstance(game.screen, PuzzleScreen)
        title = str(game.screen.query_one("#title", Static).render())
        assert game.screen.puzzle.id in title
        first = game.screen.puzzle.id
        await pilot.press("n")
        assert game.screen.puzzle.id != first
        await pilot.press("x")
        assert "Solution:" in verdict(game)
        await pilot.press("escape")
        assert isinstance(game.screen, GameScreen)

    drive(game, script)


def test_the_right_move_solves_the_puzzle_and_a_wrong_one_shows_the_solution() -> None:
    puzzle = one_move()
    right = puzzle.steps[0].move
    step = puzzle.steps[0]
    wrong = next(move for move, value in step.values.items() if value < step.best)
    game = app()

    async def script(pilot: Pilot[int]) -> None:
        game.push_screen(PuzzleScreen(puzzle))
        await pilot.pause()
        game.screen.query_one(Board).cursor = right.cell
        await pilot.press(right.letter.lower())
        assert "Solved" in verdict(game)
        game.pop_screen()
        game.push_screen(PuzzleScreen(puzzle))
        await pilot.pause()
        game.screen.query_one(Board).cursor = wrong.cell
        await pilot.press(wrong.letter.lower())
        assert "Wrong" in verdict(game)
        assert f"Solution: {right}" in verdict(game)

    drive(game, script)


def test_asking_for_the_solution_before_any_move_is_not_called_wrong() -> None:
    puzzle = one_move()
    game = app()

    async def script(pilot: Pilot[int]) -> None:
        game.push_screen(PuzzleScreen(puzzle))
        await pilot.pause()
        await pilot.press("x")
        shown = verdict(game)
        assert f"Solution: {puzzle.steps[0].move}" in shown
        assert "Wrong" not in shown

    drive(game, script)
