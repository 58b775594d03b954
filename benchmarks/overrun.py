"""Time kept: each level's longest move as a share of its ``seconds`` budget, on a busy machine.

Every level plays whole games against itself (each seat its own player, made before the
clock starts, as a game in the app does) at each budget, on several boards, modes and numbers
of seats; every ``choose_move`` call is timed on the wall clock. The report gives, per level
and budget, the moves timed, the longest as a share of the budget (100% is exactly on time),
how many went more than 10% over, and where the longest one was; and the most CPU time a move
used as a share of its budget (``time.process_time``): a move long on the wall clock but short
on the CPU waited for the machine, not for its own work.

A busy machine is the point: ``--busy N`` (default: one per core) starts N processes that
spin on the CPU for the whole run, at the same priority, so each move competes for its core.
Run: ``python benchmarks/overrun.py [--busy N] [--seconds 0.1 0.5 1] [--levels hard perfect]
[--boards 5x5:general ...] [--games 1] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import time
from dataclasses import dataclass

from sosgame import Game
from sosgame.ai import LEVELS, make_player
from sosgame.kernel import JIT

BOARDS = (
    "5x5:general",
    "5x5:simple",
    "4x5:simple",
    "4x5:general",
    "8x8:general",
    "8x8:simple",
    "6x6:general:3",
)
"""``ROWSxCOLS:MODE[:SEATS]`` (two seats unless given)."""
LATE = 1.1
"""A move longer than this share of its budget is late (the issue's bound)."""


def _spin() -> None:  # pragma: no cover - runs in the busy processes
    while True:
        pass


@dataclass
class Worst:
    """The moves one level took at one budget."""

    moves: int = 0
    late: int = 0
    share: float = 0.0
    where: str = ""
    cpu: float = 0.0


def play(board: str, level: str, seconds: float, seed: int, worst: Worst) -> None:
    """One game of ``level`` against itself on ``board``, every move timed into ``worst``."""
    size, mode, *seats = board.split(":")
    rows, cols = (int(part) for part in size.split("x"))
    players = int(seats[0]) if seats else 2
    game = Game(rows, cols, mode=mode, players=players)  # type: ignore[arg-type]
    bots = [make_player(level, seconds=seconds, seed=seed + seat) for seat in range(players)]
    while not game.is_over:
        bot = bots[game.turn]
        start, cpu = time.perf_counter(), time.process_time()
        move = bot.choose_move(game)
        share = (time.perf_counter() - start) / seconds
        worst.cpu = max(worst.cpu, (time.process_time() - cpu) / seconds)
        worst.moves += 1
        worst.late += share > LATE
        if share > worst.share:
            empty = game.position().count(".")
            worst.share = share
            worst.where = f"{board}, {empty} empty, {game.position()}"
        game.play(move)


def main() -> None:
    """Play the games and print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--busy", type=int, default=os.cpu_count() or 1, help="spinning processes")
    parser.add_argument("--seconds", type=float, nargs="+", default=[0.1, 0.5, 1.0])
    parser.add_argument("--levels", nargs="+", choices=LEVELS, default=list(LEVELS))
    parser.add_argument("--boards", nargs="+", default=list(BOARDS))
    parser.add_argument("--games", type=int, default=1, help="games per board, level, budget")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    for level in arguments.levels:  # compile (or load) every kernel before any clock runs
        make_player(level, seconds=0.01, seed=0).choose_move(Game(3, 3))
    spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(arguments.busy)]
    for spinner in spinners:
        spinner.start()
    results: dict[tuple[str, float], Worst] = {}
    loads = [os.getloadavg()[0]]
    try:
        for level in arguments.levels:
            for seconds in arguments.seconds:
                worst = results.setdefault((level, seconds), Worst())
                for board in arguments.boards:
                    for game in range(arguments.games):
                        play(board, level, seconds, arguments.seed + 100 * game, worst)
                    loads.append(os.getloadavg()[0])
    finally:
        for spinner in spinners:
            spinner.terminate()
            spinner.join()
    rows = [
        {
            "level": level,
            "seconds": seconds,
            "moves": worst.moves,
            "longest_share": round(worst.share, 3),
            "late": worst.late,
            "longest_cpu_share": round(worst.cpu, 3),
            "longest_at": worst.where,
        }
        for (level, seconds), worst in results.items()
    ]
    load = f"{min(loads):.1f} to {max(loads):.1f}"
    if arguments.json:
        print(json.dumps({"python": platform.python_version(), "load": load, "rows": rows}))
        return
    print(f"compiled: {JIT}; {arguments.busy} spinning processes; load average {load}")
    print("| level | s/move | moves | longest | over 110% | most CPU | longest at |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for row in rows:
        print(
            f"| {row['level']} | {row['seconds']:g} | {row['moves']} |"
            f" {100 * row['longest_share']:.0f}% | {row['late']} |"  # type: ignore[operator]
            f" {100 * row['longest_cpu_share']:.0f}% | {row['longest_at']} |"  # type: ignore[operator]
        )


if __name__ == "__main__":
    main()
