"""Kernel playout speed: random and greedy playout moves per second on one core.

Run: python benchmarks/kernel.py [--seconds S]. The target is at least 5 million random-playout
moves per second on 8x8.
"""

from __future__ import annotations

import argparse
import time

from sosgame import Game
from sosgame.kernel import GREEDY, JIT, RANDOM, encode, make_rng, new_array, playouts, warm_up

TARGET = 5_000_000


def rate(rows: int, cols: int, mode: str, policy: int, seconds: float) -> tuple[float, float]:
    """Playout moves per CPU second and per wall-clock second from the empty board.

    CPU time is what one core spends; on a shared machine the wall-clock rate is lower.
    """
    state = encode(Game(rows, cols, mode=mode))  # type: ignore[arg-type]
    wins = new_array(3)
    points = new_array(2)
    rng = make_rng(1)
    batch = 64
    moves = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while (elapsed := time.perf_counter() - start) < seconds:
        moves += playouts(
            state.board, state.scores, state.tables.table, state.next_seat, 0, state.simple,
            policy, batch, rng, wins, points,
        )  # fmt: skip
        batch = min(batch * 2, 1 << 16)
    return moves / (time.process_time() - cpu), moves / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    arguments = parser.parse_args()
    warm_up()
    print(f"compiled: {JIT}")
    print(f"{'board':>6} {'mode':>8} {'policy':>7} {'moves/cpu-s':>14} {'moves/s':>14}")
    for rows, cols in ((8, 8), (5, 5), (15, 15)):
        for mode in ("general", "simple"):
            for name, policy in (("random", RANDOM), ("greedy", GREEDY)):
                speed, wall = rate(rows, cols, mode, policy, arguments.seconds)
                mark = ""
                if (rows, cols, policy, mode) == (8, 8, RANDOM, "general"):
                    mark = "  (target 5,000,000: " + ("met)" if speed >= TARGET else "MISSED)")
                print(f"{rows}x{cols:<4} {mode:>8} {name:>7} {speed:>14,.0f} {wall:>14,.0f}{mark}")


if __name__ == "__main__":
    main()
