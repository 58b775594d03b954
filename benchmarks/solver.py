"""Solver speed: the empty 4x4 and 4x5 boards in both modes, against their time targets.

Run: nice python benchmarks/solver.py [--quick] [--memory MIB]. Targets: 4x4 under 10 seconds
and 4x5 under 5 minutes, in each mode. ``--quick`` does 4x4 only.
"""

from __future__ import annotations

import argparse
import random
import time

from sosgame import Game
from sosgame.kernel import JIT
from sosgame.solver import TranspositionTable, solve, warm_up

TARGETS = {(4, 4): 10.0, (4, 5): 300.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="solve 4x4 only")
    parser.add_argument("--memory", type=int, default=2048, help="table size in MiB")
    parser.add_argument(
        "--reach", action="store_true", help="time mid-game positions by their empty cells"
    )
    arguments = parser.parse_args()
    warm_up()
    if arguments.reach:
        reach(arguments.memory)
        return
    print(f"compiled: {JIT}; table: {arguments.memory} MiB")
    print(
        f"{'board':>6} {'mode':>8} {'value':>6} {'nodes':>14} {'seconds':>9} {'cpu s':>9}  target"
    )
    for (rows, cols), target in TARGETS.items():
        if arguments.quick and (rows, cols) != (4, 4):
            continue
        for mode in ("general", "simple"):
            game = Game(rows, cols, mode=mode)  # type: ignore[arg-type]
            cpu = time.process_time()
            solution = solve(game, memory_mb=arguments.memory)
            cpu = time.process_time() - cpu
            verdict = "met" if solution.seconds < target else "MISSED"
            print(
                f"{rows}x{cols:<4} {mode:>8} {solution.value:>6} {solution.nodes:>14,}"
                f" {solution.seconds:>9.2f} {cpu:>9.2f}  under {target:g} s: {verdict}",
                flush=True,
            )


def reach(memory: int) -> None:
    """The slowest solve among positions with a given number of empty cells.

    Positions come from random games on 5x5, 6x6 and 8x8 in both modes, stopped when that
    many cells are left empty (games that end sooner are skipped).
    """
    table = TranspositionTable(memory)
    print(f"{'empty':>5} {'positions':>9} {'max nodes':>12} {'max s':>8} {'mean s':>8}")
    for empty in range(10, 19, 2):
        times: list[float] = []
        nodes: list[int] = []
        for seed in range(6):
            for size in (5, 6, 8):
                for mode in ("general", "simple"):
                    game = _position(size, mode, empty, seed)
                    if game is None:
                        continue
                    table.clear()
                    solution = solve(game, table=table)
                    times.append(solution.seconds)
                    nodes.append(solution.nodes)
        print(
            f"{empty:>5} {len(times):>9} {max(nodes):>12,} {max(times):>8.2f}"
            f" {sum(times) / len(times):>8.2f}",
            flush=True,
        )


def _position(size: int, mode: str, empty: int, seed: int) -> Game | None:
    rng = random.Random(seed * 1000 + size)
    game = Game(size, size, mode=mode)  # type: ignore[arg-type]
    while not game.is_over and size * size - game.ply > empty:
        game.play(rng.choice(list(game.legal_moves)))
    return None if game.is_over else game


if __name__ == "__main__":
    main()
