"""The first computer move on a fresh install (an empty kernel cache) and once warm.

Three ways a person first meets the computer, each timed from the moment of asking to the
move, first with an empty ``NUMBA_CACHE_DIR`` (a new install: the kernels run as plain Python
while the background build compiles them) and then with that cache built (the next run):

* ``hint``: ``sosgame hint 5x5`` (``hard``, its default budget), a fresh process, start to exit;
* ``line``: ``sosgame play --plain --size 5`` with ``hard`` in the first seat, a fresh process,
  start to the line that shows its first move;
* ``web``: a server started on the empty cache, and 5 s later a local game with ``hard`` in
  the first seat made through the API, from the request to the move in the game's move list.

Between the cold and the warm runs it waits for the background build that the cold runs
started (``python -m sosgame.ai.build --wait``) and reports how long that took.

Run: ``python benchmarks/first_move.py [--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

SOSGAME = [sys.executable, "-m", "sosgame"]
SETTLE_SECONDS = 5.0
"""How long after the server answers its first request the web game is made."""


def _environment(cache: Path) -> dict[str, str]:
    environment = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    environment.pop("NUMBA_DISABLE_JIT", None)
    environment.pop("SOSGAME_KERNELS", None)
    return environment


def time_hint(environment: dict[str, str]) -> float:
    """Seconds from start to exit of ``sosgame hint 5x5``."""
    start = time.perf_counter()
    subprocess.run(
        [*SOSGAME, "hint", "5x5", "--level", "hard"],
        env=environment,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def time_line(environment: dict[str, str]) -> float:
    """Seconds from start to the first move that the line-mode game prints."""
    command = [*SOSGAME, "play", "--plain", "--size", "5", "--lang", "en"]
    command += ["--seat-level", "1", "hard", "--names", "Computer", "Ann"]
    start = time.perf_counter()
    with subprocess.Popen(
        command,
        env=environment,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as game:
        assert game.stdout is not None
        for line in game.stdout:
            if "Ann to move" in line:
                elapsed = time.perf_counter() - start
                break
        else:
            raise RuntimeError("the line-mode game ended before the computer moved")
        game.kill()
    return elapsed


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _request(url: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def _moves(url: str) -> list[Any]:
    """The game's moves so far; none while the server asks this client to slow down."""
    try:
        moves: list[Any] = _request(url)["moves"]
    except urllib.error.HTTPError as error:
        if error.code != 429:
            raise
        time.sleep(0.2)
        return []
    return moves


def time_web(environment: dict[str, str], folder: Path) -> float:
    """Seconds from a new game's request to the move of its first seat, ``hard``."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    command = [*SOSGAME, "serve", "--port", str(port)]
    command += ["--database", f"sqlite:///{folder / 'games.db'}"]
    with subprocess.Popen(
        command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    ) as server:
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    _request(f"{url}/api/health")
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)
            # A person comes a few seconds after the server started, not at once: by then
            # it has started its computer workers (sosgame serve starts them with itself).
            time.sleep(SETTLE_SECONDS)
            seats = [{"name": "Computer", "player": "hard"}, {"name": "Ann"}]
            start = time.perf_counter()
            game = _request(f"{url}/api/games", {"rows": 5, "cols": 5, "seats": seats})
            while not _moves(f"{url}/api/games/{game['id']}/moves"):
                time.sleep(0.05)
            return time.perf_counter() - start
        finally:
            server.terminate()
            server.wait(timeout=30)


def measure() -> dict[str, Any]:
    """The cold and warm figures of each way, and the background build's time."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        environment = _environment(folder / "numba")
        cold = {
            "hint": time_hint(environment),
            "line": time_line(environment),
            "web": time_web(environment, folder),
        }
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "sosgame.ai.build", "--wait"], env=environment, check=True
        )
        build = time.perf_counter() - start
        warm = {
            "hint": time_hint(environment),
            "line": time_line(environment),
            "web": time_web(environment, folder),
        }
    return {"cold": cold, "warm": warm, "build_wait": build}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    arguments = parser.parse_args()
    figures = measure()
    figures["machine"] = {"cpus": os.cpu_count(), "python": platform.python_version()}
    figures["load"] = os.getloadavg()
    if arguments.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"load average {figures['load'][0]:.1f}, {os.cpu_count()} cores")
    print("way   cold s  warm s")
    for way in ("hint", "line", "web"):
        print(f"{way:<5} {figures['cold'][way]:6.2f}  {figures['warm'][way]:6.2f}")
    print(f"waited {figures['build_wait']:.1f} s for the background build after the cold runs")


if __name__ == "__main__":
    main()
