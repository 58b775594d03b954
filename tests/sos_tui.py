"""Shared helpers for the full-screen game's tests: a game app, a headless run, and keys."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from textual.pilot import Pilot
from textual.widgets import RichLog

from sosgame import Game, Move
from sosgame.table import Seat
from sosgame.tui.app import SosApp
from sosgame.tui.screens.game import GameScreen
from sosgame.tui.session import Session

SIZE = (100, 32)


def app_for(game: Game, kinds: tuple[str, ...] = ("person", "person"), **options: object) -> SosApp:
    names = ["Ann", "Bao", "Chi", "Dan", "Em", "Phi", "Gia", "Hoa"][: game.players]
    seats = [Seat(name, kind) for name, kind in zip(names, kinds, strict=True)]
    return SosApp(session=Session(game, seats), seed=5, computer_delay=0, **options)  # type: ignore[arg-type]


def drive(app: SosApp, script: Callable[[Pilot[int]], Awaitable[None]]) -> None:
    """Run ``app`` headless at a fixed size and play ``script`` on it."""

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


def screen(pilot: Pilot[int]) -> GameScreen:
    current = pilot.app.screen
    assert isinstance(current, GameScreen)
    return current


def text_of(pilot: Pilot[int], selector: str) -> str:
    widget = pilot.app.screen.query_one(selector)
    if isinstance(widget, RichLog):
        return "\n".join(line.text for line in widget.lines)
    return str(widget.render())


async def settle(pilot: Pilot[int]) -> None:
    """Wait until no computer is thinking."""
    for _ in range(200):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        current = pilot.app.screen
        if not isinstance(current, GameScreen) or current.thinking is None:
            return
    raise AssertionError("the computer never moved")


async def play(pilot: Pilot[int], move: str) -> None:
    """Walk the cursor to the move's cell with arrow and vi keys, then type the letter."""
    target = Move.parse(move)
    board = screen(pilot).board
    row, col = board.cursor
    keys = (["down"] * (target.cell.row - row) + ["k"] * (row - target.cell.row)) + (
        ["l"] * (target.cell.col - col) + ["left"] * (col - target.cell.col)
    )
    await pilot.press(*keys, target.letter.lower())
    await pilot.pause()


def run_at(
    app: SosApp, size: tuple[int, int], script: Callable[[Pilot[int]], Awaitable[None]]
) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())
