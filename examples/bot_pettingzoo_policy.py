"""A policy trained through the PettingZoo environment, playing on a server as a bot.

The tabular Q-learner of ``train_pettingzoo.py`` learns for a few thousand games on its board;
then its greedy policy answers the challenges of that board on the server. The bridge is two
lines: :func:`sosgame.envs.encoding.observation` gives the server's game exactly as the
environment's ``observe()`` does, and :func:`~sosgame.envs.encoding.action_to_move` turns the
chosen action back into a move.

Run: ``SOSGAME_BOT_TOKEN=sos_... python examples/bot_pettingzoo_policy.py --server URL``
"""

from __future__ import annotations

import argparse
import os
import random
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import numpy as np

import sosgame.bot
from sosgame import Game, Move
from sosgame.envs import sos_v0
from sosgame.envs.encoding import action_to_move, observation
from train_pettingzoo import run_episode

Values = dict[bytes, np.ndarray[Any, Any]]


def train(rows: int, cols: int, mode: str, episodes: int, seed: int) -> Values:
    """The Q-values the learner of ``train_pettingzoo.py`` learns in seat 0."""
    rng = random.Random(seed)
    env = sos_v0.env(rows=rows, cols=cols, mode=mode)
    values: Values = defaultdict(lambda: np.zeros(2 * rows * cols))
    for episode in range(episodes):
        epsilon = max(0.05, 1.0 - episode / (0.7 * episodes))
        run_episode(env, values, rng, epsilon=epsilon, learn=True)
    return dict(values)


def as_player(values: Values) -> Callable[..., Move]:
    """The greedy policy of ``values`` as a bot's player (a legal move at random in a
    position it never met)."""

    def play(game: Game, seat: int) -> Move:
        seen = observation(game, seat)
        legal = np.flatnonzero(seen["action_mask"])
        row = values.get(seen["observation"].tobytes() + seen["scores"].tobytes())
        action = int(legal[np.argmax(row[legal])]) if row is not None else int(random.choice(legal))
        return action_to_move(action, game.rows, game.cols)

    return play


def main(argv: list[str] | None = None) -> list[sosgame.bot.GameReport]:
    """Train, then play on the server until Ctrl-C (or ``--games`` games)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True)
    parser.add_argument("--token", default=os.environ.get("SOSGAME_BOT_TOKEN"))
    parser.add_argument("--rows", type=int, default=3)
    parser.add_argument("--cols", type=int, default=3)
    parser.add_argument("--mode", choices=["general", "simple"], default="simple")
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--games", type=int)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args(argv)
    values = train(
        arguments.rows, arguments.cols, arguments.mode, arguments.episodes, arguments.seed
    )
    accept = sosgame.bot.ChallengeFilter(
        sizes=frozenset({(arguments.rows, arguments.cols)}), modes=frozenset({arguments.mode})
    )
    return sosgame.bot.run(
        arguments.server, arguments.token, player=as_player(values), accept=accept,
        games=arguments.games,
    )  # fmt: skip


if __name__ == "__main__":
    main()
