"""Speed of the ``hard`` searches: alpha-beta nodes per second and tree-search simulations.

Alpha-beta searches positions from a few seeded medium-vs-medium games to a fixed depth (the
same work every run); the tree search runs for a fixed number of simulations. Both are timed
in CPU seconds of this process (so a busy, shared machine slows the figures less than wall
time would), after the kernels are compiled (or loaded from the cache).

Run: ``python benchmarks/search.py [--json]``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

from sosgame import Game
from sosgame.ai import make_player
from sosgame.ai.alphabeta import Searcher, warm_up
from sosgame.ai.mcts import mcts
from sosgame.ai.state import State
from sosgame.kernel import JIT, encode

SIZES = (5, 8)


def positions(size: int, count: int) -> list[Game]:
    """Middle-game positions: ``medium`` against itself, stopped a third of the way in."""
    found = []
    for seed in range(count):
        players = [make_player("medium", seed=seed), make_player("medium", seed=seed + 99)]
        game = Game(size, size)
        while game.ply < size * size // 3:
            game.play(players[game.turn].choose_move(game))
        found.append(game)
    return found


def alphabeta_rate(size: int, depth: int) -> float:
    """Alpha-beta nodes per CPU second over the positions, searched to ``depth``."""
    nodes = 0
    games = positions(size, 4)
    start = time.process_time()
    for game in games:
        searcher = Searcher()
        result = searcher.search(
            State(game), random.Random(0), seconds=None, nodes=None, depth_limit=depth
        )
        assert result is not None
        nodes += result.nodes
    return nodes / (time.process_time() - start)


def mcts_rate(size: int, simulations: int) -> float:
    """Tree-search simulations per CPU second over the positions."""
    games = positions(size, 4)
    start = time.process_time()
    for game in games:
        mcts(encode(game), random.Random(0), seconds=None, nodes=simulations)
    return 4 * simulations / (time.process_time() - start)


def main() -> None:
    """Print the figures (``--json`` for one object)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    warm_up()
    figures = {
        "compiled": JIT,
        "python": platform.python_version(),
        "alphabeta_nodes_per_second": {
            f"{size}x{size}": round(alphabeta_rate(size, 5 if size <= 5 else 4)) for size in SIZES
        },
        "mcts_simulations_per_second": {
            f"{size}x{size}": round(mcts_rate(size, 2000)) for size in SIZES
        },
    }
    if arguments.json:
        print(json.dumps(figures))
        return
    for name in ("alphabeta_nodes_per_second", "mcts_simulations_per_second"):
        for board, rate in figures[name].items():  # type: ignore[attr-defined]
            print(f"{name.replace('_', ' ')} on {board}: {rate:,}")


if __name__ == "__main__":
    main()
