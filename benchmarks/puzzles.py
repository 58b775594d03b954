"""Puzzles: how fast the generator makes them, and how often each computer level solves them.

The first part runs the generator (``sosgame.research.puzzles``) on fresh games, ``--games``
per board and mode, into a temporary work file, and reports the puzzles made per minute of
wall time (the compiled kernels warmed up first, so compiling is not counted). The second
takes ``--sample`` shipped puzzles at random and lets each level find every move of each at
``--seconds`` a move: a puzzle counts as solved only if every move is right. A check that the
set is neither trivial (every level solves everything) nor impossible (even ``perfect``
fails).

Run: ``nice python benchmarks/puzzles.py [--games 3] [--sample 300] [--seconds 0.1]
[--seed 1] [--json]``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import platform
import random
import tempfile
import time
from collections import Counter
from pathlib import Path

from sosgame import Game
from sosgame.ai import make_player
from sosgame.ai.puzzles import attempt, puzzle_set
from sosgame.kernel import JIT
from sosgame.levels import LEVELS
from sosgame.research.puzzles import BOARDS, generate
from sosgame.solver import solve, warm_up


def made_per_minute(games: int) -> tuple[int, float]:
    """The puzzles the generator makes from ``games`` games per board and mode, and the
    minutes it takes."""
    warm_up()
    solve(Game(3, 3, moves=["Sa1", "Ob1"]))
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder) / "work.jsonl"
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):  # its progress lines
            generate(work, games, list(BOARDS), ["general", "simple"])
        minutes = (time.perf_counter() - start) / 60
        made = sum(len(json.loads(line)["puzzles"]) for line in work.read_text().splitlines())
    return made, minutes


def solve_rates(sample: int, seconds: float, seed: int) -> dict[str, dict[str, float]]:
    """Per level, the share of ``sample`` random shipped puzzles it solves, overall and by
    the puzzle's number of moves."""
    puzzles = random.Random(seed).sample(puzzle_set(), sample)
    rates: dict[str, dict[str, float]] = {}
    for level in LEVELS:
        solved: Counter[str] = Counter()
        total: Counter[str] = Counter()
        for number, puzzle in enumerate(puzzles):
            player = make_player(level, seconds=seconds, seed=seed + number)
            length = f"{len(puzzle.steps)} moves" if len(puzzle.steps) > 1 else "1 move"
            won = attempt(puzzle, player.choose_move)
            for key in ("all", length):
                total[key] += 1
                solved[key] += won
        rates[level] = {key: round(solved[key] / total[key], 3) for key in sorted(total)}
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per board and mode")
    parser.add_argument("--sample", type=int, default=300, help="shipped puzzles to try")
    parser.add_argument("--seconds", type=float, default=0.1, help="each level's time a move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    made, minutes = made_per_minute(options.games)
    rates = solve_rates(options.sample, options.seconds, options.seed)
    report = {
        "machine": f"{platform.machine()}, {platform.python_version()}, compiled: {JIT}",
        "games_per_board_and_mode": options.games,
        "puzzles_made": made,
        "minutes": round(minutes, 2),
        "per_minute": round(made / minutes, 1),
        "sample": options.sample,
        "seconds_a_move": options.seconds,
        "solved": rates,
    }
    if options.json:
        print(json.dumps(report, indent=2))
        return
    print(f"machine: {report['machine']}")
    print(f"made {made} puzzles in {minutes:.2f} min: {report['per_minute']} a minute")
    print(f"solved, of {options.sample} shipped puzzles, at {options.seconds:g} s a move:")
    for level, shares in rates.items():
        parts = ", ".join(f"{key} {share:.0%}" for key, share in shares.items())
        print(f"  {level:8} {parts}")


if __name__ == "__main__":
    main()
