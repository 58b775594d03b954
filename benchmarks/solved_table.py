"""Solve the empty boards of docs/solved.md in both modes and write the table.

Run: nice python benchmarks/solved_table.py --write docs/solved.md
Strips 1xN and 2xN grow until a solve needs more than ``--max-nodes`` nodes; then 3x3 to 3x6,
4x4 and 4x5. Without ``--write`` the page goes to standard output. With ``--write`` the same
results also go, machine-readable, to the file of the same name ending in ``.json``
(docs/solved.json): a list of ``{"rows", "cols", "mode", "value", "best_moves", "nodes",
"seconds", "command", "version"}``, the value for the first player as on the page.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

from sosgame import Game, __version__
from sosgame.kernel import JIT, warm_up
from sosgame.solver import NodeLimitError, Solution, TranspositionTable, solve

MODES = ("general", "simple")
FIXED = [(3, 3), (3, 4), (3, 5), (3, 6), (4, 4), (4, 5)]
COMMAND = "nice python benchmarks/solved_table.py --write docs/solved.md"

HEADER = f"""# Solved boards

The exact value of every empty board below, for the first player, with best play from both
players (two players). In general mode the value is the first player's points minus the second
player's; in simple mode it is 1 (first player wins), 0 (draw) or -1 (first player loses).
"Best" counts the first moves that reach the value; nodes and seconds are the solver's work
(`sosgame solve RxC --mode MODE` finds each one).

Reproduce the whole page with:

    {COMMAND}

"""


def _solve(rows: int, cols: int, mode: str, limit: int, table: TranspositionTable) -> Solution:
    return solve(Game(rows, cols, mode=mode), node_limit=limit, table=table)  # type: ignore[arg-type]


def _row(rows: int, cols: int, results: dict[str, Solution]) -> str:
    cells = [f"{rows}x{cols}"]
    for mode in MODES:
        solution = results[mode]
        cells += [
            f"{solution.value:+d}" if solution.value else "0",
            str(len(solution.best_moves)),
            f"{solution.nodes:,}",
            f"{solution.seconds:.2f}",
        ]
    return "| " + " | ".join(cells) + " |"


def _entry(rows: int, cols: int, mode: str, solution: Solution) -> dict[str, object]:
    return {
        "rows": rows,
        "cols": cols,
        "mode": mode,
        "value": solution.value,
        "best_moves": [str(move) for move in solution.best_moves],
        "nodes": solution.nodes,
        "seconds": round(solution.seconds, 3),
        "command": COMMAND,
        "version": __version__,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", type=Path, metavar="FILE", help="write the page to FILE")
    parser.add_argument("--max-nodes", type=int, default=400_000_000, help="per solve")
    parser.add_argument("--memory", type=int, default=2048, help="table size in MiB")
    arguments = parser.parse_args()
    warm_up()
    table = TranspositionTable(arguments.memory)
    started = time.perf_counter()
    lines = [
        "| board | general | best | nodes | seconds | simple | best | nodes | seconds |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    unreached: list[str] = []
    entries: list[dict[str, object]] = []

    def attempt(rows: int, cols: int) -> bool:
        results: dict[str, Solution] = {}
        for mode in MODES:
            try:
                results[mode] = _solve(rows, cols, mode, arguments.max_nodes, table)
            except NodeLimitError:
                unreached.append(f"{rows}x{cols} {mode}")
                return False
        lines.append(_row(rows, cols, results))
        entries.extend(_entry(rows, cols, mode, results[mode]) for mode in MODES)
        print(lines[-1], file=sys.stderr, flush=True)
        return True

    for strip in (1, 2):
        cols = 3
        while cols <= 26 and attempt(strip, cols):
            cols += 1
    for rows, cols in FIXED:
        attempt(rows, cols)
    minutes = (time.perf_counter() - started) / 60
    footer = [
        "",
        f"Strips stop at the first size needing more than {arguments.max_nodes:,} nodes in a"
        " mode: " + (", ".join(unreached) if unreached else "none") + ".",
        "",
        f"Machine: {platform.machine()}, {platform.python_implementation()}"
        f" {platform.python_version()}, compiled kernel: {JIT}, table {arguments.memory} MiB;"
        f" the whole table took {minutes:.0f} minutes on a machine shared with other work,"
        " run with nice, so the seconds are wall-clock times and only indicative.",
    ]
    page = HEADER + "\n".join(lines + footer) + "\n"
    if arguments.write:
        arguments.write.write_text(page, encoding="utf-8")
        table_file = arguments.write.with_suffix(".json")
        table_file.write_text(json.dumps(entries, indent=1) + "\n", encoding="utf-8")
    else:
        sys.stdout.write(page)


if __name__ == "__main__":
    main()
