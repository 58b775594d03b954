"""How strong the offline levels are beside the server's, by games: each level of
``sosgame.ai.device`` against the server's level of the same name and the next one up, on
5x5 in general and simple mode, from both seats, reporting the device's wins, draws, losses
and score share (a draw counting half).

The server's side plays as ``sosgame serve`` does (``sosgame.web.computer``: a fresh player
per move, its ``SEARCH_SECONDS`` a move, compiled kernels); the device's side is
``sosgame.ai.device`` itself, driven by the same ``start`` and ``act`` messages as the page
sends its worker, played either

* ``--where browser``: in Pyodide, in an engine worker in Debian's chromium, exactly as a
  device plays (``SECONDS`` a move); or
* ``--where python`` (the default): in a child CPython running the kernels as plain Python
  (``NUMBA_DISABLE_JIT=1``), as Pyodide does, with ``SECONDS`` scaled by the speed of plain
  Python here over Pyodide's, measured in the same run on a fixed search (``--ratio`` gives it
  instead). The search then visits as many positions a move as the device's would, and the
  games run without a browser beside them, which competes with both sides for the cores.

Run it with ``python benchmarks/offline_strength.py [--games 1] [--where python|browser]
[--levels random,easy,medium,hard] [--modes general,simple] [--ratio R] [--out FILE]``;
``benchmarks/offline.py`` runs it with its browser.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "browser"), str(ROOT / "tests")]

from sosgame import Game  # noqa: E402
from sosgame.ai import make_player  # noqa: E402
from sosgame.ai.device import DEVICE_LEVELS, SECONDS  # noqa: E402
from sosgame.kernel import MODE  # noqa: E402
from sosgame.levels import LEVELS  # noqa: E402
from sosgame.web.computer.computer import SEARCH_SECONDS  # noqa: E402

SIZE = 5
ROUNDS = 3
"""Rounds of the speed measure, alternating Pyodide and plain Python; the median of each."""

Engine = Callable[[str, dict[str, Any]], dict[str, Any]]
"""One call on a device's engine: an operation of ``engine-worker.js`` and its arguments."""

# The device's engine in a child CPython: one JSON request a line, one answer a line, the
# worker's operations on sosgame.ai.device ("run" executes code and answers its ``result``).
CHILD = """
import json, sys
from sosgame.ai import device
for line in sys.stdin:
    op, args = json.loads(line)
    try:
        if op == "run":
            names = {}
            exec(args["code"], names)
            value = names["result"]
        else:
            value = json.loads(getattr(device, op)(json.dumps(args)))
        answer = {"ok": True, "value": value}
    except Exception as error:
        answer = {"ok": False, "error": f"{type(error).__name__}: {error}"}
    print(json.dumps(answer), flush=True)
"""

# A fixed search: ``hard`` with a budget in positions, not seconds, on positions past the
# opening book, so that its time measures the speed of the Python running it.
SPEED = """
import json, random, time
from sosgame import Game
from sosgame.ai import make_player
player = make_player("hard", nodes=NODES, seed=1)
spent = 0.0
for seed in range(3):
    game = Game(5, 5, mode=("general", "simple")[seed % 2])
    rng = random.Random(seed)
    while len(game.actions) < 6:
        game.play(rng.choice(list(game.legal_moves)))
    started = time.perf_counter()
    player.choose_move(game)
    spent += time.perf_counter() - started
result = json.dumps(spent)
"""
SPEED_NODES = 30_000

# The page's side of a worker kept between calls, as device.js keeps it.
WORKER = """async (config) => {
  const worker = new Worker("/static/engine-worker.js", { type: "module" });
  let next = 1;
  window.sosAsk = (op, args) => new Promise((resolve) => {
    const id = next++;
    const listen = (event) => {
      if (event.data.id !== id) return;
      worker.removeEventListener("message", listen);
      resolve(event.data);
    };
    worker.addEventListener("message", listen);
    worker.postMessage({ id, op, args });
  });
  window.sosWorker = worker;
  return await window.sosAsk("boot", config);
}"""
ASK = "([op, args]) => window.sosAsk(op, args)"


class ChildEngine:
    """``sosgame.ai.device`` in a child CPython whose kernels run as plain Python."""

    def __init__(self) -> None:
        env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-c", CHILD],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def __call__(self, op: str, args: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps([op, args]) + "\n")
        self.process.stdin.flush()
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


def browser_engine(page: Any, config: dict[str, Any]) -> Engine:
    """The engine worker of the page (Pyodide), booted with the app's ``config``."""
    booted = page.evaluate(WORKER, config)
    if not booted["ok"]:
        sys.exit(f"the engine worker did not start: {booted['error']}")
    return lambda op, args: dict(page.evaluate(ASK, [op, args]))


def _value(answer: dict[str, Any]) -> Any:
    if not answer["ok"]:
        raise RuntimeError(answer["error"])
    return answer["value"]


def speed_ratio(browser: Engine, child: Engine, rounds: int = ROUNDS) -> dict[str, float]:
    """How many times longer Pyodide takes than plain CPython on the same search
    (:data:`SPEED`), the median of ``rounds`` each, taken in turns."""
    code = f"NODES = {SPEED_NODES}\n{SPEED}"
    pyodide, plain = [], []
    for _ in range(rounds):
        pyodide.append(float(json.loads(_value(browser("run", {"code": f"{code}\nresult"})))))
        plain.append(float(json.loads(_value(child("run", {"code": code})))))
    found = {"pyodide": statistics.median(pyodide), "python": statistics.median(plain)}
    return {**found, "ratio": found["pyodide"] / found["python"]}


def next_level(level: str) -> str:
    """The server's level one above ``level``."""
    return LEVELS[LEVELS.index(level) + 1]


def play_game(
    engine: Engine, device: str, server: str, mode: str, seat: int, seconds: float, seed: int
) -> dict[str, Any]:
    """One game: the device's ``device`` level in ``seat`` against the server's ``server``
    level, each move of the server's from a fresh player as ``sosgame serve`` makes it.
    Returns the points of each side and the device's seconds a move."""
    seats = [{"name": "server"}, {"name": "server"}]
    seats[seat] = {"name": "device", "player": device}
    state = _value(
        engine(
            "start",
            {"rows": SIZE, "cols": SIZE, "mode": mode, "seats": seats, "seconds": seconds},
        )
    )
    game = Game(SIZE, SIZE, mode=mode)
    thinking: list[float] = []
    while not game.is_over:
        if state["computer_to_move"]:
            started = time.perf_counter()
            state = _value(engine("act", {"type": "computer"}))
            thinking.append(time.perf_counter() - started)
            game.play(state["moved"])
        else:
            player = make_player(server, seconds=SEARCH_SECONDS, seed=seed)  # type: ignore[arg-type]
            move = str(player.choose_move(game))
            game.play(move)
            state = _value(engine("act", {"type": "move", "move": move}))
        # Both sides keep the game: the device's engine and this copy must agree.
        assert state["state"]["actions"] == [str(action) for action in game.actions]
    outcome = game.outcome
    assert outcome is not None and state["state"]["result"] is not None
    winner = outcome.winner
    result = "draw" if winner is None else "win" if winner == seat else "loss"
    return {
        "device": device,
        "server": server,
        "mode": mode,
        "seat": seat,
        "result": result,
        "points": [game.scores[seat], game.scores[1 - seat]],
        "device_seconds": statistics.mean(thinking) if thinking else 0.0,
    }


def compare(
    engine: Engine,
    *,
    games: int,
    seconds: float,
    levels: list[str],
    modes: list[str],
    out: Path | None = None,
) -> list[dict[str, Any]]:
    """Every pairing's games, ``games`` from each seat in each mode; each game is printed
    (and appended to ``out``) as it ends."""
    played = []
    for device in levels:
        for server in (device, next_level(device)):
            for mode in modes:
                for seat in (0, 1):
                    for number in range(games):
                        game = play_game(
                            engine, device, server, mode, seat, seconds, seed=number * 2 + seat
                        )
                        played.append(game)
                        line = json.dumps(game)
                        print(line, flush=True)
                        if out is not None:
                            with out.open("a", encoding="utf-8") as file:
                                file.write(line + "\n")
    return played


def table(played: list[dict[str, Any]]) -> str:
    """The Markdown table of the games: per pairing and mode, the device's results."""
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for game in played:
        groups.setdefault((game["device"], game["server"], game["mode"]), []).append(game)
    lines = [
        "| device | server | mode | games | wins | draws | losses | score | device s/move |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for (device, server, mode), found in groups.items():
        counts = {kind: sum(game["result"] == kind for game in found) for kind in ("win", "draw")}
        losses = len(found) - counts["win"] - counts["draw"]
        share = (counts["win"] + counts["draw"] / 2) / len(found)
        spent = statistics.mean(game["device_seconds"] for game in found)
        lines.append(
            f"| `{device}` | `{server}` | {mode} | {len(found)} | {counts['win']} |"
            f" {counts['draw']} | {losses} | {share:.0%} | {spent:.3f} |"
        )
    return "\n".join(lines)


def run(
    args: argparse.Namespace, page: Any | None = None, config: dict[str, Any] | None = None
) -> None:
    """The comparison as ``args`` asks, in ``page`` (a page of the app, its ``config``'s
    ``offline``) when the device's side or the speed measure needs the browser."""
    levels = args.levels.split(",")
    modes = args.modes.split(",")
    unknown = [level for level in levels if level not in DEVICE_LEVELS]
    if unknown:
        sys.exit(f"not a level of the device: {', '.join(unknown)}")
    child = ChildEngine()
    try:
        browser = None
        if args.where == "browser" or args.ratio is None:
            assert page is not None and config is not None
            browser = browser_engine(page, config)
        seconds = SECONDS
        if args.where == "browser":
            engine: Engine = browser  # type: ignore[assignment]
            print(f"device's side: Pyodide in chromium, {SECONDS} s a move")
        else:
            if args.ratio is None:
                assert browser is not None
                speed = speed_ratio(browser, child)
                ratio = speed["ratio"]
                print(
                    f"the same search: {speed['pyodide']:.2f} s in Pyodide, {speed['python']:.2f} s"
                    f" in plain CPython (median of {ROUNDS}): Pyodide {ratio:.2f}x slower"
                )
            else:
                ratio = args.ratio
            seconds = SECONDS / ratio
            print(
                f"device's side: plain CPython, {seconds:.2f} s a move ({SECONDS} s on the"
                f" device, {ratio:.2f}x slower)"
            )
            engine = child
        print(
            f"server's side: {SEARCH_SECONDS} s a move, kernels {MODE}; load average"
            f" {os.getloadavg()}"
        )
        if MODE != "compiled":
            print("(not the server's speed: build the kernels with python -m sosgame.ai.build)")
        started = time.perf_counter()
        played = compare(
            engine, games=args.games, seconds=seconds, levels=levels, modes=modes, out=args.out
        )
        print(f"({len(played)} games in {time.perf_counter() - started:.0f} s)")
        print(table(played))
        print(f"load average after: {os.getloadavg()}")
    finally:
        child.close()


def add_arguments(parser: argparse.ArgumentParser, prefix: str = "") -> None:
    """This benchmark's options, named with ``prefix`` (``benchmarks/offline.py``'s
    ``--strength-``)."""
    parser.add_argument(
        f"--{prefix}games", type=int, default=1, help="games from each seat, mode and pairing"
    )
    parser.add_argument(
        f"--{prefix}where",
        choices=("python", "browser"),
        default="python",
        help="where the device's side plays: plain CPython, time scaled, or Pyodide",
    )
    parser.add_argument(
        f"--{prefix}levels", default=",".join(DEVICE_LEVELS), help="the device's levels"
    )
    parser.add_argument(f"--{prefix}modes", default="general,simple", help="the game modes")
    parser.add_argument(
        f"--{prefix}ratio", type=float, help="Pyodide's slowness over plain CPython, not measured"
    )
    parser.add_argument(f"--{prefix}out", type=Path, help="append each game as a JSON line")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    args = parser.parse_args()
    if args.where == "python" and args.ratio is not None:
        run(args)
        return
    from playwright.sync_api import sync_playwright
    from sos_live_server import CHROMIUM, CHROMIUM_ARGS, LiveServer

    with tempfile.TemporaryDirectory() as folder:
        server = LiveServer(Path(folder) / "games.sqlite3")
        server.start()
        try:
            config = server.get("/api/config")["offline"]
            if not config["available"]:
                sys.exit("offline play is not installed: run npm ci")
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
                )
                page = browser.new_page()
                page.goto(server.url)
                run(args, page, config)
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
