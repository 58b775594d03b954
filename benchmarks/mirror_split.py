"""Split solves in simple mode with and without the mirror strategy's bounds on the pieces.

Each board is solved by piece tests (``sosgame solve --split DEPTH``, one thread, a fresh
store in a temporary folder, 64 MiB tables): once as ``sosgame`` does, where a piece starts
from what the mirror strategy guarantees one side (:mod:`sosgame.solver.mirror`), and once with
every piece starting from -1 to 1. Run: ``python benchmarks/mirror_split.py [--json]``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from sosgame import Game
from sosgame.research import pieces, split
from sosgame.research.bounded import solve_bounded
from sosgame.research.pieces import PieceStore
from sosgame.solver import warm_up

BOARDS = (((4, 4), 1), ((4, 4), 2), ((3, 6), 1), ((4, 5), 1), ((2, 8), 1))


def _without_mirror(text: str, simple: bool) -> tuple[int, int]:
    most = 1 if simple else 8 * text.count(".")
    return -most, most


def run(size: tuple[int, int], depth: int) -> dict[str, Any]:
    """One bounded split solve of the empty simple-mode board: value, tests, nodes, seconds."""
    game = Game(*size, mode="simple")
    plan = split.plan_split(game, depth)
    nodes: list[int] = []
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(1) as pool:
        store = PieceStore(Path(folder), game.rows, game.cols, game.mode)
        started = time.perf_counter()
        result = solve_bounded(
            plan,
            store,
            pool,
            memory_mb=64,
            parallel=1,
            progress=lambda found, ahead, note: nodes.append(found["nodes"]),
        )
        seconds = time.perf_counter() - started
    return {
        "board": f"{size[0]}x{size[1]}",
        "split": depth,
        "value": result.value,
        "tests": len(nodes),
        "nodes": sum(nodes),
        "seconds": round(seconds, 2),
    }


def main() -> None:
    """Solve every board both ways and print a table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    warm_up()
    rows = []
    for size, depth in BOARDS:
        with_mirror = run(size, depth)
        kept = split.widest, pieces.widest
        split.widest = pieces.widest = _without_mirror
        try:
            without = run(size, depth)
        finally:
            split.widest, pieces.widest = kept
        assert with_mirror["value"] == without["value"]
        rows.append({"with": with_mirror, "without": without})
    if arguments.json:
        print(json.dumps(rows, indent=1))
        return
    print("| board | split | value | tests | nodes | tests without | nodes without |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        mirror, plain = row["with"], row["without"]
        value = f"{mirror['value']:+d}" if mirror["value"] else "0"
        print(
            f"| {mirror['board']} | {mirror['split']} | {value} | {mirror['tests']}"
            f" | {mirror['nodes']:,} | {plain['tests']} | {plain['nodes']:,} |"
        )


if __name__ == "__main__":
    main()
