"""How long the ``sosgame`` command takes to start, answer and exit, for its quick commands.

Each command runs as a fresh process (``python -m sosgame ...``) the given number of times;
the wall time of each run is taken from start to exit, output thrown away. It reports the
median and the fastest run, and the ``python -c pass`` baseline: what the interpreter alone
costs on this machine.

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
from sosgame.record import Record, save


def timed(argv: list[str], runs: int) -> dict[str, float]:
    """The median and the fastest wall time, in seconds, of ``runs`` runs of ``argv``."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return {"median": statistics.median(times), "fastest": min(times)}


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
            "python -c pass": [sys.executable, "-c", "pass"],
            "sosgame --help": [*sosgame, "--help"],
            "sosgame show S.O/.O./S.S": [*sosgame, "show", "S.O/.O./S.S"],
            "sosgame replay game.json": [*sosgame, "replay", str(record)],
            "sosgame hint --help": [*sosgame, "hint", "--help"],
        }
        results = {name: timed(argv, options.runs) for name, argv in cases.items()}
    machine: dict[str, Any] = {
        "python": platform.python_version(),
        "cores": os.cpu_count(),
        "load": os.getloadavg()[0],
    }
    if options.json:
        print(json.dumps({"machine": machine, "runs": options.runs, "results": results}))
        return
    print(f"{options.runs} runs each; load average {machine['load']:.1f}")
    print(f"{'command':<28} {'median s':>9} {'fastest s':>10}")
    for name, figures in results.items():
        print(f"{name:<28} {figures['median']:>9.3f} {figures['fastest']:>10.3f}")


if __name__ == "__main__":
    main()
