"""A masked policy gradient through the Gymnasium environment, in NumPy alone.

A linear softmax policy over the legal actions (the others masked out with the environment's
``action_mask``) learns by REINFORCE with a running baseline against the ``random`` level,
holding a random seat each episode. Afterwards its win rate is compared with that of a
uniformly random policy in the same games.

Run: ``python examples/train_gymnasium_masked.py --rows 4 --cols 4 --episodes 3000``
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import gymnasium
import numpy as np

import sosgame.envs  # noqa: F401 (registers sosgame/SOS-v0)


def features(observation: dict[str, Any]) -> np.ndarray[Any, np.dtype[np.float64]]:
    """The board planes and the scores seen from the agent, and a constant."""
    board = observation["observation"].reshape(-1).astype(np.float64)
    return np.concatenate([board, observation["scores"].astype(np.float64), [1.0]])


def masked_softmax(
    logits: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]
) -> np.ndarray[Any, np.dtype[np.float64]]:
    """Action probabilities, zero wherever the mask forbids the action."""
    shifted = np.where(mask == 1, logits, -np.inf)
    shifted = shifted - shifted.max()
    weights = np.exp(shifted)
    probabilities: np.ndarray[Any, np.dtype[np.float64]] = weights / weights.sum()
    return probabilities


def play(
    env: Any,
    weights: np.ndarray[Any, Any] | None,
    rng: np.random.Generator,
    seed: int,
) -> tuple[float, list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], int]], bool]:
    """One episode; ``weights=None`` plays uniformly at random. Returns the return, the
    (features, probabilities, action) of each step and whether the agent won."""
    observation, info = env.reset(seed=seed)
    steps = []
    total, done = 0.0, False
    while not done:
        mask = observation["action_mask"]
        x = features(observation)
        logits = np.zeros(mask.shape) if weights is None else weights @ x
        probabilities = masked_softmax(logits, mask)
        action = int(rng.choice(len(mask), p=probabilities))
        steps.append((x, probabilities, action))
        observation, reward, done, _, info = env.step(action)
        total += float(reward)
    return total, steps, bool(info["winners"][info["seat"]] and info["winners"].sum() == 1)


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Train, evaluate, print and return the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=4)
    parser.add_argument("--cols", type=int, default=4)
    parser.add_argument("--mode", choices=["general", "simple"], default="general")
    parser.add_argument("--reward", choices=["result", "margin", "points"], default="result")
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--evaluation", type=int, default=300)
    parser.add_argument("--learning-rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args(argv)
    env = gymnasium.make(
        "sosgame/SOS-v0",
        rows=arguments.rows,
        cols=arguments.cols,
        mode=arguments.mode,
        opponent="random",
        seat="random",
        reward=arguments.reward,
    )
    rng = np.random.default_rng(arguments.seed)
    observation, _ = env.reset(seed=arguments.seed)
    weights = np.zeros((env.action_space.n, features(observation).size))
    baseline = 0.0
    for episode in range(arguments.episodes):
        total, steps, _ = play(env, weights, rng, seed=arguments.seed + 1 + episode)
        advantage = total - baseline
        baseline += 0.05 * (total - baseline)
        for x, probabilities, action in steps:
            # The gradient of log softmax: the chosen action's one-hot minus the probabilities.
            gradient = -probabilities
            gradient[action] += 1.0
            weights += arguments.learning_rate * advantage * np.outer(gradient, x)
    seeds = range(10**6, 10**6 + arguments.evaluation)
    random_wins = [play(env, None, rng, seed)[2] for seed in seeds]
    trained_wins = [play(env, weights, rng, seed)[2] for seed in seeds]
    figures = {
        "episodes": float(arguments.episodes),
        "random_win_rate": float(np.mean(random_wins)),
        "trained_win_rate": float(np.mean(trained_wins)),
    }
    print(json.dumps(figures))
    return figures


if __name__ == "__main__":
    main()
