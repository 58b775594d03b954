"""Moves per second of the rules engine, playing random complete games through the public API.

Each game is a random order of the cells with a random letter for each, generated before the
clock starts; the clock covers creating the game and every ``Game.play`` call (with all its
legality checks, scoring, turn and end-of-game handling) and an ``is_over`` check per move.
Two more figures time the loop people write, choosing each move at random from
``Game.legal_moves``: ``rng.choice(list(game.legal_moves))``, and ``rng.choice(game.legal_moves)``
on the view itself (a sequence, so no copy is needed).

Beside them, ``--reference NAME=PATH`` times a public Python SOS engine on the choose loop of
8x8, in the same rounds as ours: random games through its own API (its list of legal moves,
one picked at random, played, until its game is over). Their code is not ours to ship, so the
engine's file is fetched apart and given by path; the engines known here, by NAME:

* ``ellaro``: ``main.py`` of https://github.com/ellaro/SOS_Game (commit b438a5d, no license
  given): ``SOSGame()`` on 8x8, ``legal_moves()``, ``make_move((row, col, letter))``,
  ``game_over``.
* ``malekahmaad``: ``SOS.py`` of https://github.com/malekahmaad/SOS-GAME (commit 90bb18b, no
  license given): ``SOS()`` on a board of the module's ``size``, set to 8 here,
  ``legal_moves()`` (empty once the board is full), ``make_move(letter, row, col)``.

Run: ``make bench`` or ``python benchmarks/engine.py [--games N] [--rounds N] [--json]
[--reference NAME=PATH ...]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from types import ModuleType

from sosgame import Game, Move
from sosgame.geometry import geometry

SIZES = (5, 8, 15)
TARGET_8X8 = 300_000
CHOOSE = "choose from legal_moves + play"
CHOOSE_TARGETS = {"8x8": 180_000, "15x15": 100_000}


def random_games(size: int, games: int, seed: int) -> list[list[Move]]:
    """``games`` random move orders for a ``size`` x ``size`` board."""
    rng = random.Random(seed)
    moves = geometry(size, size).moves
    result = []
    for _ in range(games):
        order = list(range(size * size))
        rng.shuffle(order)
        result.append([moves[index][rng.randrange(2)] for index in order])
    return result


def time_play(size: int, games: list[list[Move]], mode: str) -> float:
    """Moves per second for playing the prepared games."""
    count = 0
    start = time.perf_counter()
    for moves in games:
        game = Game(size, size, mode=mode)  # type: ignore[arg-type]
        play = game.play
        for move in moves:
            play(move)
            count += 1
            if game.is_over:
                break
    return count / (time.perf_counter() - start)


def time_choose_and_play(size: int, games: int, seed: int, *, copy: bool = True) -> float:
    """Moves per second when each move is chosen from ``list(game.legal_moves)``, or with
    ``copy=False`` from the view itself."""
    rng = random.Random(seed)
    count = 0
    start = time.perf_counter()
    for _ in range(games):
        game = Game(size, size)
        while not game.is_over:
            moves = game.legal_moves
            game.play(rng.choice(list(moves) if copy else moves))
            count += 1
    return count / (time.perf_counter() - start)


def _load(name: str, path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"reference_{name}", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _ellaro(module: ModuleType, games: int, seed: int) -> float:
    rng = random.Random(seed)
    count = 0
    start = time.perf_counter()
    for _ in range(games):
        game = module.SOSGame()
        while not game.game_over:
            game.make_move(rng.choice(game.legal_moves()))
            count += 1
    return count / (time.perf_counter() - start)


def _malekahmaad(module: ModuleType, games: int, seed: int) -> float:
    setattr(module, "size", 8)  # noqa: B010 (the engine reads its board size from this global)
    rng = random.Random(seed)
    count = 0
    start = time.perf_counter()
    for _ in range(games):
        game = module.SOS()
        while moves := game.legal_moves():
            (row, col), letter = rng.choice(moves)
            game.make_move(letter, row, col)
            count += 1
    return count / (time.perf_counter() - start)


REFERENCES: dict[str, Callable[[ModuleType, int, int], float]] = {
    "ellaro": _ellaro,
    "malekahmaad": _malekahmaad,
}
"""How to time each known public engine's choose loop on 8x8: moves per second."""


def compare(paths: dict[str, str], games: int, rounds: int) -> dict[str, list[float]]:
    """Moves per second of our 8x8 choose loop and of each reference engine, taking turns in
    every round so that all see the same machine."""
    modules = {name: _load(name, path) for name, path in paths.items()}
    rates: dict[str, list[float]] = {"sosgame": [], **{name: [] for name in modules}}
    for round_ in range(rounds):
        rates["sosgame"].append(time_choose_and_play(8, games, seed=round_))
        for name, module in modules.items():
            rates[name].append(REFERENCES[name](module, games, round_))
    return rates


def _reference(text: str) -> tuple[str, str]:
    name, _, path = text.partition("=")
    if name not in REFERENCES or not path:
        raise argparse.ArgumentTypeError(f"expected NAME=PATH, NAME one of {', '.join(REFERENCES)}")
    return name, path


def main() -> None:
    """Run the benchmark and print a table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="games per round on 8x8")
    parser.add_argument("--rounds", type=int, default=5, help="rounds; the median is reported")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--reference",
        type=_reference,
        action="append",
        default=[],
        metavar="NAME=PATH",
        help="also time this public engine's 8x8 choose loop beside ours",
    )
    arguments = parser.parse_args()
    if arguments.reference:
        _print_comparison(dict(arguments.reference), arguments)
        return
    results = []
    for size in SIZES:
        games = max(20, arguments.games * 64 // (size * size))
        prepared = random_games(size, games, seed=size)
        for mode in ("general", "simple"):
            rates = [time_play(size, prepared, mode) for _ in range(arguments.rounds)]
            results.append(
                {"size": f"{size}x{size}", "mode": mode, "what": "play", "moves_per_second": rates}
            )
        for what, copy in ((CHOOSE, True), ("choose from the view + play", False)):
            rates = [
                time_choose_and_play(size, max(5, games // 10), seed=size, copy=copy)
                for _ in range(arguments.rounds)
            ]
            results.append(
                {
                    "size": f"{size}x{size}",
                    "mode": "general",
                    "what": what,
                    "moves_per_second": rates,
                }
            )
    if arguments.json:
        print(json.dumps({"python": platform.python_version(), "results": results}, indent=2))
        return
    print(f"Python {platform.python_version()}, {platform.machine()}, one process (one core)")
    print("| board | mode | timed | moves/s (median) | min | max |")
    print("|---|---|---|---:|---:|---:|")
    for row in results:
        rates = row["moves_per_second"]
        assert isinstance(rates, list)
        print(
            f"| {row['size']} | {row['mode']} | {row['what']} | {statistics.median(rates):,.0f}"
            f" | {min(rates):,.0f} | {max(rates):,.0f} |"
        )
    general_8 = next(row for row in results if row["size"] == "8x8" and row["what"] == "play")
    rates = general_8["moves_per_second"]
    assert isinstance(rates, list)
    median = statistics.median(rates)
    verdict = "meets" if median >= TARGET_8X8 else "MISSES"
    print(f"\n8x8 general: {median:,.0f} moves/s {verdict} the target of {TARGET_8X8:,}.")
    for size, target in CHOOSE_TARGETS.items():
        row = next(row for row in results if row["size"] == size and row["what"] == CHOOSE)
        rates = row["moves_per_second"]
        assert isinstance(rates, list)
        median = statistics.median(rates)
        verdict = "meets" if median >= target else "MISSES"
        print(f"{size} {CHOOSE}: {median:,.0f} moves/s {verdict} the target of {target:,}.")


def _print_comparison(paths: dict[str, str], arguments: argparse.Namespace) -> None:
    games = max(5, arguments.games // 10)
    rates = compare(paths, games, arguments.rounds)
    medians = {name: statistics.median(values) for name, values in rates.items()}
    load = os.getloadavg()
    if arguments.json:
        report = {"python": platform.python_version(), "load": load, "moves_per_second": rates}
        print(json.dumps(report, indent=2))
        return
    print(
        f"8x8 choose loop, {games} games a round, {arguments.rounds} rounds, median;"
        f" load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}"
    )
    ours = medians["sosgame"]
    for name, median in medians.items():
        print(f"{name:<12} {median:>10,.0f} moves/s  ours is {ours / median:.2f}x")


if __name__ == "__main__":
    main()
