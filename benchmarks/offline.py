"""Play on this device: what turning offline play on downloads, how long the engine's worker
takes from a cold start to its first computer move, and the seconds per move of each offline
level on 5x5, in the browser (Pyodide, plain Python) and, beside it, in the server's Python.

The bytes are those the server sends for each file (compressed where it compresses);
the worker's times are taken in Debian's chromium, each round a new worker with the files in
the browser's cache (as on a device where offline play is on). Then, in the same browser,
how strong the offline levels are beside the server's (``benchmarks/offline_strength.py``,
``--strength-games`` from each seat, mode and pairing; 0 leaves it out). Needs the ``web``
extra, Debian's chromium and ``npm ci`` (for Pyodide). Run it with ``python
benchmarks/offline.py [--rounds 3] [--games 2] [--strength-games 1]`` (and the other options
of ``offline_strength.py``, named ``--strength-...``).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "browser"), str(ROOT / "tests")]

from sos_live_server import CHROMIUM, CHROMIUM_ARGS, LiveServer  # noqa: E402

import offline_strength  # noqa: E402

GOAL_BYTES = 6_000_000
"""The issue's bound on the download that turns offline play on: 6 MB compressed."""
GOAL_FIRST_MOVE = 5.0
"""The issue's bound on a cold worker's first computer move, in seconds."""

# Seconds per move of each level, playing both seats of a 5x5 general game (seeded), in the
# Python that runs it: Pyodide's in the worker, or the server's.
TIMING = """
import json, time
from sosgame import Game
from sosgame.ai import make_player
from sosgame.ai.device import DEVICE_LEVELS, SECONDS
spent = {}
for level in DEVICE_LEVELS:
    times = []
    for seed in range(GAMES):
        game = Game(5, 5)
        players = [make_player(level, seconds=SECONDS, seed=seed * 2 + seat) for seat in (0, 1)]
        while not game.is_over:
            started = time.perf_counter()
            move = players[game.turn].choose_move(game)
            times.append(time.perf_counter() - started)
            game.play(move)
    spent[level] = {"mean": sum(times) / len(times), "longest": max(times), "moves": len(times)}
json.dumps(spent)
"""

FIRST_MOVE = """async (config) => {
  const worker = new Worker("/static/engine-worker.js", { type: "module" });
  let next = 1;
  const ask = (op, args) => new Promise((resolve, reject) => {
    const id = next++;
    const listen = (event) => {
      if (event.data.id !== id) return;
      worker.removeEventListener("message", listen);
      if (event.data.ok) resolve(event.data.value); else reject(new Error(event.data.error));
    };
    worker.addEventListener("message", listen);
    worker.postMessage({ id, op, args });
  });
  const started = performance.now();
  await ask("boot", config);
  const booted = performance.now();
  await ask("start", { rows: 5, cols: 5, seats: [{ player: "medium" }, { name: "Me" }] });
  await ask("act", { type: "computer" });
  const moved = performance.now();
  worker.terminate();
  return { boot: (booted - started) / 1000, first_move: (moved - started) / 1000 };
}"""

TIMED = """async ([config, code]) => {
  const worker = new Worker("/static/engine-worker.js", { type: "module" });
  const ask = (id, op, args) => new Promise((resolve) => {
    worker.addEventListener("message", (event) => {
      if (event.data.id === id) resolve(event.data);
    });
    worker.postMessage({ id, op, args });
  });
  await ask(1, "boot", config);
  const ran = await ask(2, "run", { code });
  worker.terminate();
  return ran;
}"""


def download_bytes(server: LiveServer, files: list[dict[str, Any]]) -> list[tuple[str, int, int]]:
    """Each file's name, the bytes sent for it (as a browser accepting gzip gets them) and
    its own size."""
    sizes = []
    host = server.url.removeprefix("http://")
    for item in files:
        connection = http.client.HTTPConnection(host, timeout=120)
        connection.request("GET", item["url"], headers={"accept-encoding": "gzip"})
        response = connection.getresponse()
        sent = len(response.read())
        connection.close()
        sizes.append((item["url"].rsplit("/", 1)[1], sent, item["bytes"]))
    return sizes


def native_timing(games: int) -> dict[str, Any]:
    """The same timing in this Python (the server's: compiled kernels if numba is here)."""
    names: dict[str, Any] = {"GAMES": games}
    exec(TIMING.rsplit("\n", 2)[0], names)
    return dict(names["spent"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="cold starts to time")
    parser.add_argument("--games", type=int, default=2, help="games per level for its timing")
    offline_strength.add_arguments(parser, "strength-")
    args = parser.parse_args()
    strength = argparse.Namespace(
        **{
            name.removeprefix("strength_"): value
            for name, value in vars(args).items()
            if name.startswith("strength_")
        }
    )
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        server = LiveServer(Path(folder) / "games.sqlite3")
        server.start()
        try:
            config = server.get("/api/config")["offline"]
            if not config["available"]:
                sys.exit("offline play is not installed: run npm ci")
            print(f"load average before: {os.getloadavg()}")
            sizes = download_bytes(server, config["files"])
            sent = sum(item[1] for item in sizes)
            for name, compressed, whole in sizes:
                print(f"  {name:36} {compressed:>10,} bytes sent ({whole:,} bytes)")
            verdict = "within" if sent <= GOAL_BYTES else "over"
            print(f"offline play downloads {sent:,} bytes, {verdict} the goal of {GOAL_BYTES:,}")
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
                )
                page = browser.new_page()
                page.goto(server.url)
                # The first round fills the browser's cache (and the server's compressed copies).
                page.evaluate(FIRST_MOVE, config)
                rounds = [page.evaluate(FIRST_MOVE, config) for _ in range(args.rounds)]
                boot = statistics.median(item["boot"] for item in rounds)
                first = statistics.median(item["first_move"] for item in rounds)
                verdict = "within" if first <= GOAL_FIRST_MOVE else "over"
                print(
                    f"cold worker: Pyodide and the wheel ready in {boot:.2f} s, first computer"
                    f" move (medium) at {first:.2f} s, median of {args.rounds}; {verdict} the"
                    f" goal of {GOAL_FIRST_MOVE} s"
                )
                code = f"GAMES = {args.games}\n{TIMING}"
                ran = page.evaluate(TIMED, [config, code])
                if strength.games > 0:
                    print("the offline levels against the server's, 5x5:")
                    offline_strength.run(strength, page, config)
                browser.close()
            if not ran["ok"]:
                sys.exit(ran["error"])
            device = json.loads(ran["value"])
            started = time.perf_counter()
            native = native_timing(args.games)
            print(f"(the server's Python took {time.perf_counter() - started:.1f} s)")
            print("seconds per move on 5x5 general, both seats one level:")
            print(f"  {'level':8} {'device mean':>12} {'longest':>8} {'server mean':>12}")
            for level, found in device.items():
                print(
                    f"  {level:8} {found['mean']:>12.4f} {found['longest']:>8.3f}"
                    f" {native[level]['mean']:>12.4f}"
                )
            print(f"load average after: {os.getloadavg()}")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
