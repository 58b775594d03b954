"""How long the long commands take to stop after Ctrl-C.

Each command runs in a pseudo-terminal (as at a keyboard, so it shows its progress line);
once its progress shows and a further random pause (0 to 1 s) has passed, Ctrl-C is sent
(the terminal's interrupt character, so every process of the command gets SIGINT, as at a
keyboard) and the time until the command has exited is taken. Each round checks that the
command said it stopped, in one line, with status 130.

The commands: ``solve 5x5`` (the threaded exact solver), ``certify`` of the 4x4 proof (made
first, which takes a minute), ``analyze`` of a random 6x6 game and ``arena hard medium`` on
two worker processes.

Run: ``python benchmarks/interrupt.py [--rounds N] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pexpect

from sosgame import Game
from sosgame.record import Record, save


def stop_time(arguments: list[str], progress: str, folder: Path, pause: float) -> float:
    """Seconds from Ctrl-C to the exit of ``sosgame ARGUMENTS`` (after ``progress`` shows)."""
    child = pexpect.spawn(
        sys.executable,
        ["-m", "sosgame", *arguments],
        cwd=str(folder),
        env={**os.environ, "TERM": "xterm", "COLUMNS": "120"},
        dimensions=(30, 120),
        timeout=300,
    )
    try:
        child.expect(progress)
        time.sleep(pause)
        start = time.perf_counter()
        child.sendintr()
        child.expect(pexpect.EOF)
        seconds = time.perf_counter() - start
    finally:
        child.close(force=True)
    said = child.before.decode(errors="replace")
    if child.exitstatus != 130 or "stopped by Ctrl-C" not in said or "Traceback" in said:
        raise RuntimeError(f"sosgame {' '.join(arguments)} did not stop as it should: {said!r}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        subprocess.run(
            [sys.executable, "-m", "sosgame", "solve", "4x4", "--certificate", "proof.json.gz"],
            cwd=folder,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        game = Game(6, 6)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves))
        save(Record.from_game(game), folder / "game.json")
        cases = {
            "solve 5x5": (["solve", "5x5"], r"[\d,]+ nodes"),
            "certify proof (4x4)": (["certify", "proof.json.gz"], r"checking entries: [\d,]+ of"),
            "analyze game (6x6)": (["analyze", "game.json"], r"move [1-9]\d* of"),
            "arena hard medium": (["arena", "hard", "medium", "--games", "40"], r"played: 1 of"),
        }
        results = {
            name: [
                stop_time(arguments, progress, folder, rng.uniform(0, 1))
                for _ in range(options.rounds)
            ]
            for name, (arguments, progress) in cases.items()
        }
    machine: dict[str, Any] = {
        "python": platform.python_version(),
        "cores": os.cpu_count(),
        "load": os.getloadavg()[0],
    }
    if options.json:
        print(json.dumps({"machine": machine, "rounds": options.rounds, "seconds": results}))
        return
    print(f"{options.rounds} rounds each; load average {machine['load']:.1f} at the end")
    print(f"{'command':<24} {'median s':>9} {'slowest s':>10}")
    for name, times in results.items():
        print(f"{name:<24} {statistics.median(times):>9.2f} {max(times):>10.2f}")


if __name__ == "__main__":
    main()
