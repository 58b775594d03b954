"""Masked PPO (sb3-contrib's ``MaskablePPO``) through the Gymnasium environment.

Needs PyTorch, Stable-Baselines3 and sb3-contrib, which are not part of ``sosgame[envs]``
(PyTorch alone is hundreds of megabytes): ``pip install sb3-contrib`` first. The agent holds
a random seat against the ``random`` level on 4x4; ``MaskablePPO`` reads the legal actions
from the environment's ``action_masks()``. The win rate of the greedy policy is measured
before and after training, on the same evaluation games.

Run: ``python examples/train_maskable_ppo.py --timesteps 20000``
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import gymnasium
from sb3_contrib import MaskablePPO

import sosgame.envs  # noqa: F401 (registers sosgame/SOS-v0)


def win_rate(model: Any, env: Any, games: int) -> float:
    """The share of evaluation games the greedy policy wins outright."""
    wins = 0
    for number in range(games):
        observation, info = env.reset(seed=10**6 + number)
        done = False
        while not done:
            action, _ = model.predict(
                observation, action_masks=env.unwrapped.action_masks(), deterministic=True
            )
            observation, _, done, _, info = env.step(int(action))
        wins += bool(info["winners"][info["seat"]] and info["winners"].sum() == 1)
    return wins / games


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Train, evaluate, print and return the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=4)
    parser.add_argument("--cols", type=int, default=4)
    parser.add_argument("--timesteps", type=int, default=20000)
    parser.add_argument("--evaluation", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args(argv)
    env = gymnasium.make(
        "sosgame/SOS-v0",
        rows=arguments.rows,
        cols=arguments.cols,
        opponent="random",
        seat="random",
    )
    model = MaskablePPO(
        "MultiInputPolicy", env, n_steps=512, batch_size=128, seed=arguments.seed, verbose=0
    )
    before = win_rate(model, env, arguments.evaluation)
    model.learn(total_timesteps=arguments.timesteps)
    figures = {
        "timesteps": float(arguments.timesteps),
        "untrained_win_rate": before,
        "trained_win_rate": win_rate(model, env, arguments.evaluation),
    }
    print(json.dumps(figures))
    return figures


if __name__ == "__main__":
    main()
