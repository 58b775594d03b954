"""The exact solver on simple-mode positions: nodes and time for each position's value.

The positions: the empty 4x4 and 3x5 boards, and 10 positions each from the quality
benchmark's seeded random play (seeds 6 to 15, so not the ones it judges players on) on 4x5
with 16 and 18 empty cells and 5x5 with 18 and 20. Each value is found from a fresh 64 MiB
table by the solver's null-window tests (MTD(f)), without the best moves. Run: ``python
benchmarks/simple_solve.py [--json]``.
"""

from __future__ import annotations

import argparse
import json
import platform
import time

from quality import positions  # type: ignore[import-not-found]
from sosgame import Game
from sosgame.kernel import JIT
from sosgame.solver import Search, TranspositionTable, warm_up

SETS = ((4, 5, 16), (4, 5, 18), (5, 5, 18), (5, 5, 20))


def main() -> None:
    """Solve every position and print the totals per set (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    warm_up()
    groups = {"empty 4x4, 3x5": [Game(4, 4, mode="simple"), Game(3, 5, mode="simple")]}
    for rows, cols, empty in SETS:
        groups[f"{rows}x{cols}, {empty} empty"] = positions(rows, cols, "simple", empty, 16)[6:]
    rows_out = []
    for name, games in groups.items():
        nodes, seconds, cpu, values = 0, 0.0, 0.0, []
        for game in games:
            run = Search(game, TranspositionTable(64), None)
            start, start_cpu = time.perf_counter(), time.process_time()
            values.append(run.exact())
            seconds += time.perf_counter() - start
            cpu += time.process_time() - start_cpu
            nodes += run.nodes
        rows_out.append(
            {
                "set": name,
                "positions": len(games),
                "nodes": nodes,
                "seconds": round(seconds, 2),
                "cpu_seconds": round(cpu, 2),
                "values": "".join("-0+"[value + 1] for value in values),
            }
        )
    if arguments.json:
        print(json.dumps({"python": platform.python_version(), "rows": rows_out}, indent=2))
        return
    print(f"compiled: {JIT}")
    print("| positions | count | nodes | seconds | CPU seconds | values |")
    print("|---|---:|---:|---:|---:|---|")
    for row in rows_out:
        print(
            f"| {row['set']} | {row['positions']} | {row['nodes']:,} | {row['seconds']} |"
            f" {row['cpu_seconds']} | {row['values']} |"
        )
    total = sum(int(row["nodes"]) for row in rows_out)  # type: ignore[call-overload]
    print(f"total nodes: {total:,}")


if __name__ == "__main__":
    main()
