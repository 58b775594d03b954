"""Move quality: how often each level keeps a position's exact value, judged by the solver.

Positions come from seeded random play on 4x4, 4x5 and 5x5 boards, stopped with a given
number of empty cells still to fill (in simple mode the random moves never complete an SOS, so
the game is still on). Each level and time budget chooses a move in each position; the exact
solver gives the position's value and the chosen move's value, for the side to move (general:
future points for minus against; simple: 1 win, 0 draw, -1 loss). The report gives, per level
and budget, the share of moves that keep the value, the mean value lost, and in simple mode how
many won positions were thrown away.

Exact values are cached in ``benchmarks/quality_values.json`` (kept in the repository), so a
rerun only times the players (a chosen move needs a solve only when it loses value);
``--positions`` and ``--seconds`` change the work.

The "slowest" column is the longest move as a share of its budget (100% is exactly on
time). Run: ``nice python benchmarks/quality.py [--positions N] [--seconds 0.1 0.5 2 4]
[--levels hard] [--modes simple] [--json]``; ``--prepare`` only solves the positions (so two
runs, one per mode, can share the cache afterwards).
"""

from __future__ import annotations

import argparse
import itertools
import json
import platform
import random
import time
from dataclasses import dataclass
from pathlib import Path

from sosgame import Game, Move
from sosgame.ai import make_player
from sosgame.game import MODES
from sosgame.kernel import JIT
from sosgame.solver import TranspositionTable, solve, warm_up

CACHE = Path(__file__).with_name("quality_values.json")
SETS = ((4, 4, (10, 12)), (4, 5, (14, 18)), (5, 5, (16, 20)))
"""Boards and the numbers of empty cells at which positions are taken."""
LEVELS = ("medium", "hard", "perfect")


class Values:
    """Exact values and best moves of positions, kept in a JSON file between runs.

    ``"mode:position"`` holds the value for the side to move; ``"best:mode:position"`` the
    moves keeping it, so a chosen move needs a solve of its own only when it loses value.
    """

    def __init__(self, path: Path, memory_mb: int) -> None:
        self.path = path
        self.known: dict[str, int | str] = json.loads(path.read_text()) if path.exists() else {}
        self.table = TranspositionTable(memory_mb)
        self.added: dict[str, int | str] = {}

    def _solve(self, game: Game) -> None:
        key = f"{game.mode}:{game.position()}"
        start = Game.from_position(game.position(), mode=game.mode)
        solution = solve(start, table=self.table)
        best = " ".join(str(move) for move in solution.best_moves)
        for name, found in ((key, solution.value), (f"best:{key}", best)):
            self.known[name] = self.added[name] = found

    def of(self, game: Game) -> int:
        """The exact value of ``game`` for the side to move (0 once the game is over)."""
        if game.is_over:
            return 0
        key = f"{game.mode}:{game.position()}"
        if key not in self.known:
            self._solve(game)
        return int(self.known[key])

    def best(self, game: Game) -> set[str]:
        """The moves keeping the value of ``game``."""
        key = f"best:{game.mode}:{game.position()}"
        if key not in self.known:
            self._solve(game)
        return set(str(self.known[key]).split())

    def of_move(self, game: Game, move: Move) -> int:
        """The exact value of playing ``move`` in ``game``, for the side that plays it."""
        if str(move) in self.best(game):
            return self.of(game)
        after = game.copy()
        lines = len(after.play(move))
        if lines and game.mode == "simple":
            return 1
        if lines:
            return lines + self.of(after)
        return -self.of(after)

    def save(self) -> None:
        """Add the values found to the file (as it is now: runs may share it), sorted."""
        if self.added:
            known = json.loads(self.path.read_text()) if self.path.exists() else {}
            known.update(self.added)
            text = json.dumps(dict(sorted(known.items())), indent=0, separators=(",", ":"))
            self.path.write_text(text + "\n")
            self.added.clear()


def positions(rows: int, cols: int, mode: str, empty: int, count: int) -> list[Game]:
    """``count`` positions with ``empty`` empty cells, by seeded random play."""
    found = []
    for seed in range(count):
        rng = random.Random(f"{rows}x{cols}:{mode}:{empty}:{seed}")
        game = Game(rows, cols, mode=mode)  # type: ignore[arg-type]
        while game.position().count(".") > empty:
            moves = list(game.legal_moves)
            if mode == "simple":
                moves = [move for move in moves if not game.copy().play(move)]
            if not moves:
                break
            game.play(rng.choice(moves))
        if not game.is_over and game.position().count(".") == empty:
            # The solver values a position for the side to move whatever the seats' scores.
            found.append(Game.from_position(game.position(), mode=mode))  # type: ignore[arg-type]
    return found


@dataclass
class Tally:
    """What one level at one budget did over the positions of one mode."""

    kept: int = 0
    moves: int = 0
    lost: float = 0.0
    wins_thrown: int = 0
    seconds: float = 0.0


def main() -> None:
    """Judge every level and budget, and print a table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=6, help="positions per set (6)")
    parser.add_argument("--seconds", type=float, nargs="+", default=[0.1, 0.5, 2.0, 4.0])
    parser.add_argument("--levels", nargs="+", choices=LEVELS, default=list(LEVELS))
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--memory", type=int, default=512, help="the solver's table, MiB")
    parser.add_argument("--prepare", action="store_true", help="only solve the positions")
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    warm_up()
    values = Values(CACHE, arguments.memory)
    games = {
        mode: [
            game
            for rows, cols, empties in SETS
            for empty in empties
            for game in positions(rows, cols, mode, empty, arguments.positions)
        ]
        for mode in arguments.modes
    }
    tallies: dict[tuple[str, str, float], Tally] = {}
    for mode, found in games.items():
        for game in found:
            best = values.of(game)
            values.best(game)
            values.save()  # a long run keeps what it solved even if it is stopped
            if arguments.prepare:
                continue
            for level in arguments.levels:
                for seconds in arguments.seconds if level != "medium" else [0.0]:
                    budget = {"seconds": seconds} if seconds else {}
                    player = make_player(level, seed=1, **budget)  # type: ignore[arg-type]
                    start = time.perf_counter()
                    move = player.choose_move(game)
                    spent = time.perf_counter() - start
                    value = values.of_move(game, move)
                    tally = tallies.setdefault((mode, level, seconds), Tally())
                    tally.moves += 1
                    tally.kept += value == best
                    tally.lost += best - value
                    tally.wins_thrown += mode == "simple" and best == 1 and value < 1
                    tally.seconds = max(tally.seconds, spent / seconds if seconds else 0.0)
    values.save()
    rows = [
        {
            "mode": mode,
            "level": level,
            "seconds": seconds or None,
            "positions": tally.moves,
            "kept": round(tally.kept / tally.moves, 3),
            "mean_lost": round(tally.lost / tally.moves, 3),
            "wins_thrown": tally.wins_thrown if mode == "simple" else None,
            "slowest_share": round(tally.seconds, 3) if seconds else None,
        }
        for (mode, level, seconds), tally in sorted(tallies.items())
    ]
    if arguments.json:
        print(json.dumps({"python": platform.python_version(), "rows": rows}, indent=2))
        return
    if not rows:
        return
    sizes = ", ".join(f"{r}x{c} at {'/'.join(map(str, e))} empty" for r, c, e in SETS)
    print(f"compiled: {JIT}; {arguments.positions} positions per set: {sizes}")
    print("| mode | level | s/move | positions | keeps value | mean lost | wins thrown | slowest |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        thrown = "" if row["wins_thrown"] is None else str(row["wins_thrown"])
        budget = "-" if row["seconds"] is None else f"{row['seconds']:g}"
        slowest = "" if row["slowest_share"] is None else f"{100 * row['slowest_share']:.0f}%"  # type: ignore[operator]
        print(
            f"| {row['mode']} | {row['level']} | {budget} | {row['positions']} |"
            f" {100 * row['kept']:.0f}% | {row['mean_lost']:.2f} | {thrown} | {slowest} |"  # type: ignore[operator]
        )
    for mode in games:
        for level in arguments.levels:
            kept = [
                tally.kept / tally.moves
                for (in_mode, in_level, _), tally in sorted(tallies.items())
                if (in_mode, in_level) == (mode, level)
            ]
            rising = all(a <= b for a, b in itertools.pairwise(kept))
            trend = "rising or flat" if rising else "NOT rising"
            print(f"{mode} {level}: {' -> '.join(f'{100 * k:.0f}%' for k in kept)} ({trend})")


if __name__ == "__main__":
    main()
