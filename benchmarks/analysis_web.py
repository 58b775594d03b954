"""The analysis of finished games through the API of a running ``sosgame serve``: the time
from the first ``GET /api/games/{id}/analysis`` to the first move's report (the first line
the browser can draw) and to the whole analysis, for several seeded random games of 4x4 (16
moves) and 5x5 (25 moves), and the time of asking again once it is done.

With ``--reference TREE`` a second server runs the ``src`` of another source tree (an
earlier version, unpacked with ``git archive``) beside this one, each game analysed by the
two back to back. Each server first analyses one game unmeasured, so that its kernels are
loaded (and, for a fresh tree, compiled then and there: ``SOSGAME_KERNELS=compiled``, so
that no server measures plain Python while a build runs in the background). The server's
read rate limit is raised for the run so that it can be polled every 50 ms. Run it with
``python benchmarks/analysis_web.py [--games 3] [--reference TREE]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.error
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "browser"), str(ROOT / "tests")]

from sos_live_server import LiveServer  # noqa: E402

from sosgame import Game  # noqa: E402
from sosgame.record import Record  # noqa: E402

POLL_SECONDS = 0.05
TARGET_SECONDS = 3.0
"""The issue's bound on a 25-move 5x5 game's whole analysis in the browser."""


def random_game(size: int, seed: int) -> Game:
    """A finished game of ``size`` x ``size``, each move chosen at random."""
    chance = random.Random(seed)
    game = Game(size, size)
    while not game.is_over:
        game.play(chance.choice(game.legal_moves))
    return game


def upload(server: LiveServer, game: Game) -> str:
    record = Record.from_game(game, players=["Ann", "Bao"])
    game_id: str = server.post("/api/records", record.to_dict())["id"]
    return game_id


def analyse(server: LiveServer, game: Game) -> dict[str, float]:
    """Seconds to the first report, to the whole analysis, and to a second visit's answer."""
    game_id = upload(server, game)
    start = time.perf_counter()
    first = None
    while True:
        try:
            answer = server.get(f"/api/games/{game_id}/analysis")
        except urllib.error.HTTPError as error:  # refused for now: ask again in a moment
            if error.code != 429:
                raise
            time.sleep(POLL_SECONDS)
            continue
        now = time.perf_counter() - start
        if answer["status"] == "failed":
            raise RuntimeError(answer["error"])
        if first is None and answer.get("moves"):
            first = now
        if answer["status"] == "done":
            break
        time.sleep(POLL_SECONDS)
    again = time.perf_counter()
    assert server.get(f"/api/games/{game_id}/analysis")["status"] == "done"
    exact = sum(move["exact"] for move in answer["moves"]) / len(answer["moves"])
    return {
        "first": first if first is not None else now,
        "whole": now,
        "again": time.perf_counter() - again,
        "exact": exact,
    }


def serve(folder: Path, name: str, source: Path | None) -> LiveServer:
    env = {
        "SOSGAME_READS_PER_SECOND": "100",
        "SOSGAME_READ_BURST": "200",
        "SOSGAME_KERNELS": "compiled",
        "SOSGAME_PREPARE_COMPUTERS": "1",  # as sosgame serve has it (the tests' servers not)
    }
    if source is not None:
        env["PYTHONPATH"] = str(source / "src")
    server = LiveServer(folder / f"{name}.sqlite3", env)
    server.start()
    analyse(server, random_game(3, 0))  # unmeasured: the kernels loaded (or compiled)
    return server


def report(name: str, size: int, results: list[dict[str, float]]) -> None:
    def median(key: str) -> float:
        return statistics.median(result[key] for result in results)

    print(
        f"{size}x{size}  {name:9}  first {median('first'):5.2f} s"
        f"  whole {median('whole'):5.2f} s (most {max(r['whole'] for r in results):5.2f} s)"
        f"  again {1000 * median('again'):4.0f} ms  exact {100 * median('exact'):3.0f}%"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="seeded games of each size")
    parser.add_argument("--reference", type=Path, help="another source tree to compare with")
    arguments = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as folder:
        servers = {"this": serve(Path(folder), "this", None)}
        if arguments.reference is not None:
            servers["reference"] = serve(Path(folder), "reference", arguments.reference)
        try:
            for size in (4, 5):
                results: dict[str, list[dict[str, float]]] = {name: [] for name in servers}
                for seed in range(1, arguments.games + 1):
                    game = random_game(size, seed)
                    for name, server in servers.items():
                        results[name].append(analyse(server, game))
                for name, found in results.items():
                    report(name, size, found)
        finally:
            for server in servers.values():
                server.stop()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"(target: a 25-move 5x5 game's whole analysis within {TARGET_SECONDS:g} s)")


if __name__ == "__main__":
    main()
