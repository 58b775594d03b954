"""A short training run of a tabular Q-learner through the PettingZoo environment.

The learner takes seat 0 against a uniformly random seat 1 on a small board; afterwards its
greedy policy is measured against the random player and compared with the random player's own
result in the same seat.

Run: ``python examples/train_pettingzoo.py --rows 3 --cols 3 --episodes 3000``
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from typing import Any

import numpy as np

from sosgame.envs import sos_v0


def choose(
    values: dict[bytes, np.ndarray[Any, Any]],
    key: bytes,
    mask: np.ndarray[Any, Any],
    rng: random.Random,
    epsilon: float,
) -> int:
    """Epsilon-greedy over the legal actions."""
    legal = np.flatnonzero(mask)
    if rng.random() < epsilon:
        return int(rng.choice(list(legal)))
    row = values[key]
    return int(legal[np.argmax(row[legal])])


def run_episode(
    env: Any,
    values: dict[bytes, np.ndarray[Any, Any]],
    rng: random.Random,
    *,
    epsilon: float,
    learn: bool,
    alpha: float = 0.3,
    gamma: float = 1.0,
    learner_plays_random: bool = False,
) -> float:
    """One game; returns the learner's total reward."""
    env.reset()
    total = 0.0
    previous: tuple[bytes, int] | None = None
    pending = 0.0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        if agent == "player_0":
            total += float(reward)
            pending += float(reward)
            key = observation["observation"].tobytes() + observation["scores"].tobytes()
            done = termination or truncation
            if learn and previous is not None:
                old_key, old_action = previous
                target = pending
                if not done:
                    target += gamma * float(
                        np.max(values[key][np.flatnonzero(observation["action_mask"])])
                    )
                values[old_key][old_action] += alpha * (target - values[old_key][old_action])
            pending = 0.0
            if done:
                env.step(None)
                continue
            if learner_plays_random:
                action = int(rng.choice(list(np.flatnonzero(observation["action_mask"]))))
            else:
                action = choose(values, key, observation["action_mask"], rng, epsilon)
            previous = (key, action)
            env.step(action)
        else:
            if termination or truncation:
                env.step(None)
                continue
            env.step(int(rng.choice(list(np.flatnonzero(observation["action_mask"])))))
    return total


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Train, evaluate, print and return the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=3)
    parser.add_argument("--cols", type=int, default=3)
    parser.add_argument("--mode", choices=["general", "simple"], default="simple")
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--evaluation", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args(argv)
    rng = random.Random(arguments.seed)
    env = sos_v0.env(rows=arguments.rows, cols=arguments.cols, mode=arguments.mode)
    actions = 2 * arguments.rows * arguments.cols
    values: dict[bytes, np.ndarray[Any, Any]] = defaultdict(lambda: np.zeros(actions))
    for episode in range(arguments.episodes):
        epsilon = max(0.05, 1.0 - episode / (0.7 * arguments.episodes))
        run_episode(env, values, rng, epsilon=epsilon, learn=True)
    baseline = [
        run_episode(env, values, rng, epsilon=0.0, learn=False, learner_plays_random=True)
        for _ in range(arguments.evaluation)
    ]
    trained = [
        run_episode(env, values, rng, epsilon=0.0, learn=False) for _ in range(arguments.evaluation)
    ]
    figures = {
        "episodes": float(arguments.episodes),
        "states_learned": float(len(values)),
        "random_mean_reward": float(np.mean(baseline)),
        "trained_mean_reward": float(np.mean(trained)),
    }
    print(json.dumps(figures))
    return figures


if __name__ == "__main__":
    main()
