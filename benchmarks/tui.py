"""How long the full-screen game takes to draw a key press, on big boards.

Each key press is posted to the app (run headless, through Textual's Pilot) and timed until the
app has handled it and drawn the screen again (``Pilot.pause(0)`` handles every pending message,
then has the screen draw what changed). Four cases per board size:

* ``cursor``: arrow keys walking the cursor over the whole board, which is all in view;
* ``cursor, scrolled``: the same on an 80x24 terminal, where the board scrolls;
* ``moves``: writing letters (each one a move through the engine, then the whole panel again);
* ``cursor, computer thinking``: arrow keys while a computer searches on a worker thread (the
  ``hard`` search, over and over, until the keys are done), which competes for the interpreter.

It reports the median and the 95th percentile of the wall time per key, and the interface
thread's own CPU time per key (``time.thread_time``, which leaves out the computer's thread).

Run: ``python benchmarks/tui.py [--keys N] [--sizes 15 26] [--json]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from textual import events

import sosgame.tui.app
from sosgame import Game, Move
from sosgame.ai import make_player
from sosgame.tui.app import SosApp
from sosgame.tui.screens.game import GameScreen
from sosgame.tui.session import Seat, Session

BIG_TERMINAL = (200, 60)
"""Room for a whole 26x26 board beside the panel."""
SMALL_TERMINAL = (80, 24)


class Busy:
    """A computer that keeps the ``hard`` search running until told to stop."""

    level = "hard"

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.searches = 0

    def choose_move(self, game: Game) -> Move:
        player = make_player("hard", seconds=0.2, seed=1)
        move = player.choose_move(game)
        while not self.stop.is_set():
            move = player.choose_move(game)
            self.searches += 1
        return move


class BenchApp(SosApp):
    """The game, with the benchmark's computer in every computer seat."""

    CSS_PATH = str(Path(sosgame.tui.app.__file__).with_name("sosgame.tcss"))

    def __init__(self, busy: Busy, **options: Any) -> None:
        super().__init__(**options)
        self.busy = busy

    def player(self, level: str) -> Any:
        return self.busy


def walk(rows: int, cols: int) -> Iterator[str]:
    """Arrow keys that sweep the cursor along every row and back, row after row, over and over:
    every key moves it."""
    while True:
        for _ in range(rows - 1):
            yield from ["right"] * (cols - 1) + ["left"] * (cols - 1) + ["down"]
        yield from ["up"] * (rows - 1)


def writing(rows: int, cols: int) -> Iterator[str]:
    """Letters and arrow keys that fill the board cell by cell."""
    for row in range(rows):
        for col in range(cols):
            yield "s" if (row + col) % 3 else "o"
            if col < cols - 1:
                yield "right" if row % 2 == 0 else "left"
        yield "down"


async def time_keys(
    size: int, terminal: tuple[int, int], keys: Iterator[str], count: int, *, thinking: bool
) -> dict[str, float]:
    busy = Busy()
    kinds = ("person", "hard") if thinking else ("person", "person")
    session = Session(Game(size, size), [Seat("Ann", kinds[0]), Seat("Bao", kinds[1])])
    app = BenchApp(busy, session=session, computer_delay=0, seed=1)
    walls: list[float] = []
    cpu = 0.0
    async with app.run_test(size=terminal) as pilot:
        await pilot.pause()
        current = app.screen
        assert isinstance(current, GameScreen)
        if thinking:
            await pilot.press("s")  # the computer's turn: it thinks until the keys are done
            assert current.thinking == 1
        for _ in range(count):
            key = next(keys)
            started, started_cpu = time.perf_counter(), time.thread_time()
            app.post_message(events.Key(key, key if len(key) == 1 else None))
            await pilot.pause(0)
            walls.append(time.perf_counter() - started)
            cpu += time.thread_time() - started_cpu
        if thinking:
            assert current.thinking == 1, "the computer stopped thinking before the keys ended"
        busy.stop.set()
        await app.workers.wait_for_complete()
    walls.sort()
    return {
        "median_ms": 1000 * statistics.median(walls),
        "p95_ms": 1000 * walls[int(0.95 * (len(walls) - 1))],
        "cpu_ms": 1000 * cpu / count,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=300, help="key presses per case")
    parser.add_argument("--sizes", type=int, nargs="+", default=[15, 26])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    arguments = parser.parse_args()
    results: list[dict[str, Any]] = []
    for size in arguments.sizes:
        cases = (
            ("cursor", BIG_TERMINAL, walk(size, size), False),
            ("cursor, scrolled", SMALL_TERMINAL, walk(size, size), False),
            ("moves", BIG_TERMINAL, writing(size, size), False),
            ("cursor, computer thinking", BIG_TERMINAL, walk(size, size), True),
        )
        for name, terminal, keys, thinking in cases:
            count = min(arguments.keys, 2 * size * size - 1) if name == "moves" else arguments.keys
            figures = asyncio.run(time_keys(size, terminal, keys, count, thinking=thinking))
            results.append(
                {"board": f"{size}x{size}", "case": name, "terminal": "x".join(map(str, terminal))}
                | figures
            )
    if arguments.json:
        print(json.dumps({"python": platform.python_version(), "results": results}, indent=2))
        return
    print(f"Python {platform.python_version()}, {arguments.keys} keys per case")
    print(f"{'board':<7} {'case':<27} {'terminal':<9} {'median':>9} {'p95':>9} {'CPU/key':>9}")
    for row in results:
        print(
            f"{row['board']:<7} {row['case']:<27} {row['terminal']:<9}"
            f" {row['median_ms']:>7.1f}ms {row['p95_ms']:>7.1f}ms {row['cpu_ms']:>7.1f}ms"
        )


if __name__ == "__main__":
    main()
