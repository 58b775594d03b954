"""The research environments: the frameworks' own checks, and agreement with the engine."""

from __future__ import annotations

import random
import runpy
import sys
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import mcts, minimax
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import sosgame.envs.openspiel  # noqa: F401 (registers python_sos)
from sosgame import Game, IllegalMoveError, InvalidSettingsError
from sosgame.envs import GYMNASIUM_ID, sos_v0
from sosgame.envs.encoding import REWARDS, action_to_move, move_to_action, result_rewards
from sosgame.outcome import Outcome, Termination

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SETTINGS = [(2, "general"), (2, "simple"), (3, "general"), (4, "simple")]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("players", "mode"), SETTINGS)
def test_pettingzoo_api_and_seed_tests(players: int, mode: str) -> None:
    api_test(sos_v0.env(rows=4, cols=4, players=players, mode=mode), num_cycles=300)
    seed_test(lambda: sos_v0.env(rows=3, cols=4, players=players, mode=mode), num_cycles=50)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("players", "mode"), SETTINGS)
def test_pettingzoo_parallel_api_on_the_turn_based_conversion(players: int, mode: str) -> None:
    parallel_api_test(
        turn_based_aec_to_parallel(sos_v0.env(rows=3, cols=3, players=players, mode=mode)),
        num_cycles=100,
    )


def expected_return(game: Game, seat: int, reward: str) -> float:
    """A seat's return as docs/envs.md defines it, worked out here from the final game."""
    assert game.outcome is not None
    scores = game.scores
    if reward == "points":
        return float(scores[seat])
    if reward == "margin":
        return float(scores[seat] - max(s for other, s in enumerate(scores) if other != seat))
    if seat not in game.outcome.winners:
        return -1 / (game.players - 1)
    share = game.players / len(game.outcome.winners) - 1
    return share / (game.players - 1)


@pytest.mark.parametrize("reward", REWARDS)
@pytest.mark.parametrize(("players", "mode"), SETTINGS)
def test_pettingzoo_rewards_turns_and_ends_agree_with_the_engine(
    players: int, mode: str, reward: str
) -> None:
    rng = random.Random(players)
    for _ in range(5):
        env = sos_v0.raw_env(rows=3, cols=5, players=players, mode=mode, reward=reward)
        env.reset()
        game = Game(3, 5, players=players, mode=mode)  # type: ignore[arg-type]
        totals = dict.fromkeys(env.possible_agents, 0.0)
        while not game.is_over:
            assert env.agent_selection == f"player_{game.turn}"
            mask = env.observe(env.agent_selection)["action_mask"]
            assert sorted(np.flatnonzero(mask)) == sorted(
                move_to_action(move, 5) for move in game.legal_moves
            )
            action = rng.choice(list(np.flatnonzero(mask)))
            env.step(action)
            game.play(action_to_move(action, 3, 5))
            for agent, value in env.rewards.items():
                totals[agent] += value
            assert env.game == game
        assert all(env.terminations.values())
        assert game.outcome is not None
        for seat, agent in enumerate(env.possible_agents):
            assert totals[agent] == pytest.approx(expected_return(game, seat, reward))
            flags = env.infos[agent]["winners"]
            assert np.flatnonzero(flags).tolist() == list(game.outcome.winners)


def test_pettingzoo_observation_is_from_the_agents_point_of_view() -> None:
    env = sos_v0.raw_env(rows=3, cols=3, players=3)
    env.reset()
    for action in (0, 3, 4):  # Sa1, Ob1, Sc1: seat 2 completes a1-b1-c1
        env.step(action)
    assert env.agent_selection == "player_2"
    seen = env.observe("player_2")
    assert seen["scores"].tolist() == [1.0, 0.0, 0.0]
    assert env.observe("player_0")["scores"].tolist() == [0.0, 0.0, 1.0]
    assert seen["observation"][0, :, 0].tolist() == [1, 0, 1]  # S plane, top row
    assert seen["observation"][0, :, 1].tolist() == [0, 1, 0]  # O plane, top row
    assert env.observe("player_0")["action_mask"].sum() == 0
    assert env.infos["player_2"]["extra_turn"] is True


def test_pettingzoo_illegal_moves(caplog: pytest.LogCaptureFixture) -> None:
    raw = sos_v0.raw_env(rows=3, cols=3)
    raw.reset()
    raw.step(0)
    before = raw.game.copy()
    with pytest.raises(IllegalMoveError, match="a1 already holds S"):
        raw.step(1)
    with pytest.raises(ValueError, match=r"action 18 is outside 0 \.\. 17"):
        raw.step(18)
    assert raw.game == before
    wrapped = sos_v0.env(rows=3, cols=3)
    wrapped.reset()
    wrapped.step(0)
    wrapped.step(0)
    assert "Illegal move made" in caplog.text
    assert wrapped.rewards["player_1"] == -1
    assert all(wrapped.terminations.values())
    with pytest.raises(InvalidSettingsError, match="players must be from 2 to 8"):
        sos_v0.env(players=9)


def test_pettingzoo_render_text_and_rgb() -> None:
    env = sos_v0.raw_env(rows=3, cols=4, render_mode="ansi")
    env.reset()
    env.step(0)
    assert env.render().splitlines()[1] == "1  S   .   .   ."
    env = sos_v0.raw_env(rows=3, cols=4, render_mode="rgb_array")
    env.reset()
    picture = env.render()
    assert picture.shape == (144, 192, 3) and picture.dtype == np.uint8
    with pytest.raises(ValueError, match="render_mode"):
        sos_v0.raw_env(render_mode="svg")


@pytest.mark.parametrize(("players", "mode"), SETTINGS)
def test_openspiel_random_sim_test_with_serialisation(players: int, mode: str) -> None:
    game = pyspiel.load_game("python_sos", {"rows": 3, "cols": 4, "players": players, "mode": mode})
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


def test_openspiel_states_agree_with_the_engine() -> None:
    rng = random.Random(5)
    game = pyspiel.load_game("python_sos", {"rows": 4, "cols": 3, "players": 3})
    for _ in range(10):
        state = game.new_initial_state()
        engine = Game(4, 3, players=3)
        while not state.is_terminal():
            assert state.current_player() == engine.turn
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            engine.play(action_to_move(action, 4, 3))
        assert engine.outcome is not None
        assert state.returns() == result_rewards(engine.outcome, 3)
        assert sum(state.returns()) == pytest.approx(0)


def test_openspiel_observation_tensor() -> None:
    game = pyspiel.load_game("python_sos", {"rows": 3, "cols": 3})
    state = game.new_initial_state()
    for action in (0, 3, 4):
        state.apply_action(action)
    assert game.observation_tensor_shape() == [3 + 2 + 2, 3, 3]
    tensor = np.array(state.observation_tensor(0)).reshape(3 + 2 + 2, 3, 3)
    assert tensor[0, 0].tolist() == [1, 0, 1]  # S
    assert tensor[1, 0].tolist() == [0, 1, 0]  # O
    assert tensor[2].sum() == 6  # empty
    assert tensor[3].sum() == 9 and tensor[4].sum() == 0  # seat 0 moves again
    assert tensor[5, 0, 0] == pytest.approx(1 / 8)  # seat 0's point over the 8 lines of 3x3
    assert state.observation_string(0) == "SOS/.../... scores 1 0 turn 0"


def test_openspiel_rl_environment_and_python_bots() -> None:
    game = pyspiel.load_game("python_sos", {"rows": 3, "cols": 3, "mode": "simple"})
    env = rl_environment.Environment(game)
    step = env.reset()
    rng = random.Random(1)
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([rng.choice(step.observations["legal_actions"][player])])
    assert sum(step.rewards) == pytest.approx(0)
    generator = np.random.RandomState(0)
    bot = mcts.MCTSBot(
        game, 2.0, 50, mcts.RandomRolloutEvaluator(1, generator), random_state=generator
    )
    state = game.new_initial_state()
    for action in (0, 3):  # Sa1 Ob1: seat 0 can win with Sc1 (action 4)
        state.apply_action(action)
    assert bot.step(state) == 4
    value, best = minimax.alpha_beta_search(game, state, maximum_depth=7)
    assert (value, best) == (1.0, 4)


@pytest.mark.parametrize(("players", "mode"), SETTINGS)
def test_gymnasium_check_env(players: int, mode: str) -> None:
    env = gymnasium.make(
        GYMNASIUM_ID, rows=3, cols=4, mode=mode, opponent="medium", players=players
    )
    check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("reward", REWARDS)
def test_gymnasium_episode_agrees_with_the_engine(reward: str) -> None:
    env: Any = gymnasium.make(
        GYMNASIUM_ID, rows=4, cols=4, mode="general", opponent="easy", reward=reward
    )
    _, info = env.reset(seed=3)
    rng = random.Random(3)
    total = 0.0
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        assert (legal == np.flatnonzero(env.unwrapped.action_masks())).all()
        assert "winners" not in info
        _, value, done, truncated, info = env.step(int(rng.choice(list(legal))))
        assert not truncated
        total += float(value)
    game = env.unwrapped.game
    assert game.is_over
    assert total == pytest.approx(expected_return(game, 0, reward))
    assert isinstance(info["scores"], np.ndarray) and info["scores"].tolist() == list(game.scores)
    assert np.flatnonzero(info["winners"]).tolist() == list(game.outcome.winners)
    assert not info["action_mask"].any()
    replayed = Game(4, 4, moves=game.moves)
    assert replayed == game


def test_gymnasium_illegal_and_bad_actions() -> None:
    env: Any = gymnasium.make(GYMNASIUM_ID, rows=3, cols=3, opponent="random")
    env.reset(seed=0)
    env.step(0)  # Sa1, then the opponent answers
    occupied = int(np.flatnonzero(env.unwrapped.action_masks() == 0)[0])
    before = env.unwrapped.game.copy()
    _, reward, done, _, info = env.step(occupied)
    assert (reward, done, info["illegal_action"]) == (-1.0, True, True)
    assert env.unwrapped.game == before
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"outside 0 \.\. 17"):
        env.step(99)
    with pytest.raises(ValueError, match="level must be one of"):
        gymnasium.make(GYMNASIUM_ID, opponent="grandmaster")


def test_result_rewards_sum_to_zero() -> None:
    assert result_rewards(Outcome(Termination.SOS, (1,)), 2) == [-1.0, 1.0]
    assert result_rewards(Outcome(Termination.FULL_BOARD, (0, 1)), 2) == [0.0, 0.0]
    shares = result_rewards(Outcome(Termination.FULL_BOARD, (0, 2)), 4)
    assert sum(shares) == pytest.approx(0) and shares[0] == shares[2] > 0 > shares[1]


def run_example(name: str, *argv: str) -> dict[str, float]:
    saved = sys.argv
    sys.argv = [name, *argv]
    try:
        namespace = runpy.run_path(str(EXAMPLES / name), run_name="example")
    finally:
        sys.argv = saved
    result: dict[str, float] = namespace["main"](list(argv))
    return result


def test_example_openspiel_mcts_against_hard() -> None:
    tally = run_example(
        "openspiel_mcts_vs_hard.py", "--rows", "3", "--cols", "3", "--games", "2",
        "--simulations", "20", "--nodes", "200",
    )  # fmt: skip
    assert tally["games"] == 2
    assert tally["mcts_points"] + tally["ours_points"] == pytest.approx(2)


def test_example_training_run_learns_to_beat_random() -> None:
    figures = run_example("train_pettingzoo.py", "--episodes", "1500", "--evaluation", "200")
    assert figures["states_learned"] > 100
    assert figures["trained_mean_reward"] > figures["random_mean_reward"]


def test_example_masked_policy_gradient_through_gymnasium_learns() -> None:
    figures = run_example("train_gymnasium_masked.py", "--episodes", "800", "--evaluation", "200")
    assert figures["episodes"] == 800
    assert figures["trained_win_rate"] > figures["random_win_rate"] + 0.2


def test_example_maskable_ppo_learns() -> None:
    # PyTorch is too large for the envs extra: this runs where sb3-contrib is installed.
    pytest.importorskip("sb3_contrib", reason="sb3-contrib (and PyTorch) not installed")
    figures = run_example("train_maskable_ppo.py", "--timesteps", "3000", "--evaluation", "100")
    assert figures["timesteps"] == 3000
    assert figures["trained_win_rate"] > figures["untrained_win_rate"]
