"""How long the ``sosgame`` command takes to start, answer and exit: its quick commands and
the ``--help`` of every subcommand.

Each command runs as a fresh process (``python -m sosgame ...``) the given number of times,
the cases taking turns so that a change in the machine's load falls on all of them; the wall
time of each run is taken from start to exit, output thrown away. It reports the median and
the fastest run, and the ``python -c pass`` baseline: what the interpreter alone costs on this
machine. A ``--help`` should come within :data:`HELP_ALLOWANCE` seconds of that baseline.

Run: ``python benchmarks/startup.py [--runs N] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sosgame import Game
from sosgame.cli import _COMMANDS
from sosgame.record import Record, save

HELP_ALLOWANCE = 0.15
"""How much longer than the bare interpreter any ``--help`` may take, in seconds (median)."""
BASELINE = "python -c pass"


def once(argv: list[str]) -> float:
    """The wall time, in seconds, of one run of ``argv``."""
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def timed(cases: dict[str, list[str]], runs: int) -> dict[str, dict[str, float]]:
    """The median and the fastest wall time, in seconds, of ``runs`` runs of each case."""
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(runs):
        for name, argv in cases.items():
            times[name].append(once(argv))
    return {
        name: {"median": statistics.median(values), "fastest": min(values)}
        for name, values in times.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "game.json"
        game = Game(5, 5, moves=["Sa1", "Ob1", "Sc1", "Oc3"])
        save(Record.from_game(game, players=["Ann", "Bao"]), record)
        sosgame = [sys.executable, "-m", "sosgame"]
        cases = {
            BASELINE: [sys.executable, "-c", "pass"],
            "sosgame --help": [*sosgame, "--help"],
            "sosgame show S.O/.O./S.S": [*sosgame, "show", "S.O/.O./S.S"],
            "sosgame replay game.json": [*sosgame, "replay", str(record)],
        }
        for command in _COMMANDS:
            cases[f"sosgame {command} --help"] = [*sosgame, command, "--help"]
        results = timed(cases, options.runs)
    machine: dict[str, Any] = {
        "python": platform.python_version(),
        "cores": os.cpu_count(),
        "load": os.getloadavg()[0],
    }
    if options.json:
        print(json.dumps({"machine": machine, "runs": options.runs, "results": results}))
        return
    print(f"{options.runs} runs each; load average {machine['load']:.1f}")
    print(f"{'command':<28} {'median s':>9} {'fastest s':>10} {'over the interpreter':>21}")
    base = results[BASELINE]["median"]
    for name, figures in results.items():
        over = figures["median"] - base
        verdict = "" if "--help" not in name else " ok" if over <= HELP_ALLOWANCE else " SLOW"
        print(
            f"{name:<28} {figures['median']:>9.3f} {figures['fastest']:>10.3f}"
            f" {over:>+18.3f}{verdict:<3}"
        )


if __name__ == "__main__":
    main()
