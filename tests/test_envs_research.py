"""What researchers rely on: one reward on every adapter, reproducible opponents, OpenSpiel's
fast clones and small serialisation, and the frameworks' conventions."""

from __future__ import annotations

import doctest
import importlib
import random
import subprocess
import sys
from typing import Any

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from open_spiel.python.algorithms import mcts
from pettingzoo.test import api_test
from pettingzoo.utils.conversions import aec_to_parallel

import sosgame.envs.openspiel  # noqa: F401 (registers python_sos)
from sosgame import Game
from sosgame.ai import make_player
from sosgame.envs import GYMNASIUM_ID, sos_v0
from sosgame.envs.encoding import REWARDS, action_to_move, move_to_action
from sosgame.envs.gym import DEFAULT_OPPONENT_NODES
from sosgame.errors import InvalidSettingsError, OccupiedCellError


def random_actions(rows: int, cols: int, players: int, mode: str, seed: int) -> list[int]:
    """The actions of one random complete game."""
    rng = random.Random(seed)
    game = Game(rows, cols, players=players, mode=mode)  # type: ignore[arg-type]
    actions = []
    while not game.is_over:
        move = rng.choice(list(game.legal_moves))
        actions.append(move_to_action(move, cols))
        game.play(move)
    return actions


def pettingzoo_returns(
    rows: int, cols: int, players: int, mode: str, reward: str, actions: list[int]
) -> list[float]:
    env = sos_v0.raw_env(rows=rows, cols=cols, players=players, mode=mode, reward=reward)
    env.reset()
    totals = [0.0] * players
    for action in actions:
        env.step(action)
        for seat, agent in enumerate(env.possible_agents):
            totals[seat] += env.rewards[agent]
    assert all(env.terminations.values())
    return totals


def gymnasium_return(
    rows: int, cols: int, players: int, mode: str, reward: str, actions: list[int], seat: int
) -> float:
    """The return of ``seat`` when every seat, the agent's included, follows ``actions``."""
    script = iter(actions)
    env = gymnasium.make(
        GYMNASIUM_ID,
        rows=rows,
        cols=cols,
        mode=mode,
        players=players,
        seat=seat,
        reward=reward,
        opponent=lambda observation: next(script),
    )
    _, info = env.reset(seed=0)
    assert info["action_mask"].sum() > 0  # reset always leaves the agent a move
    total, done = 0.0, False
    while not done:
        _, value, done, _, info = env.step(next(script))
        total += float(value)
    assert next(script, None) is None
    return total


def openspiel_returns(
    rows: int, cols: int, players: int, mode: str, reward: str, actions: list[int]
) -> list[float]:
    params = {"rows": rows, "cols": cols, "players": players, "mode": mode, "reward": reward}
    state = pyspiel.load_game("python_sos", params).new_initial_state()
    for action in actions:
        state.apply_action(action)
    assert state.is_terminal()
    returns: list[float] = state.returns()
    return returns


@settings(max_examples=40, deadline=None)
@given(
    rows=st.integers(3, 4),
    cols=st.integers(3, 5),
    players=st.integers(2, 4),
    mode=st.sampled_from(["general", "simple"]),
    reward=st.sampled_from(REWARDS),
    seed=st.integers(0, 2**32),
)
def test_every_adapter_pays_the_same_returns_and_a_win_is_never_worth_less_than_a_loss(
    rows: int, cols: int, players: int, mode: str, reward: str, seed: int
) -> None:
    actions = random_actions(rows, cols, players, mode, seed)
    game = Game(rows, cols, players=players, mode=mode)  # type: ignore[arg-type]
    movers = set()
    for action in actions:
        movers.add(game.turn)
        game.play(action_to_move(action, rows, cols))
    assert game.outcome is not None
    zoo = pettingzoo_returns(rows, cols, players, mode, reward, actions)
    spiel = openspiel_returns(rows, cols, players, mode, reward, actions)
    assert zoo == pytest.approx(spiel)
    # A seat whose game ended before its first move gets a game dealt again by Gymnasium's
    # reset (test_gymnasium_reset_deals_again_when_the_agent_would_never_move).
    for seat in sorted(movers):
        gym = gymnasium_return(rows, cols, players, mode, reward, actions, seat)
        assert gym == pytest.approx(spiel[seat])
    winners = game.outcome.winners
    for winner in winners:
        for seat in range(players):
            if seat not in winners:
                assert spiel[winner] >= spiel[seat], (reward, game.scores, spiel)


@pytest.mark.parametrize("reward", REWARDS)
def test_a_closer_win_is_worth_less_under_margin_only(reward: str) -> None:
    # On 3x3 general: a 2-0 win for seat 0 and a 1-0 win for seat 0.
    close = ["Sa1", "Ob1", "Sc1", "Sa2", "Sb2", "Sc2", "Oa3", "Ob3", "Oc3"]
    wide = ["Sa1", "Ob1", "Sc1", "Oa2", "Sb2", "Sa3", "Sc2", "Sb3", "Sc3"]
    values = []
    for moves in (close, wide):
        game = Game(3, 3, moves=moves)
        assert game.outcome is not None and game.outcome.winners == (0,)
        actions = [move_to_action(move, 3) for move in game.moves]
        values.append(openspiel_returns(3, 3, 2, "general", reward, actions)[0])
    assert Game(3, 3, moves=close).scores == (1, 0) and Game(3, 3, moves=wide).scores == (2, 0)
    if reward == "result":
        assert values == [1.0, 1.0]
    else:
        assert values == [1.0, 2.0]


def test_reward_names_are_checked_everywhere() -> None:
    for make in (
        lambda: sos_v0.env(reward="score"),
        lambda: gymnasium.make(GYMNASIUM_ID, reward="score"),
        lambda: pyspiel.load_game("python_sos", {"reward": "score"}),
    ):
        with pytest.raises(ValueError, match="reward must be one of 'result', 'margin', 'points'"):
            make()


# ------------------------------------------------------------------------------ OpenSpiel


def openspiel_state(size: int, plies: int, **params: Any) -> Any:
    game = pyspiel.load_game("python_sos", {"rows": size, "cols": size, **params})
    state = game.new_initial_state()
    rng = random.Random(plies)
    for _ in range(plies):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_openspiel_clones_are_independent_and_new_states_stay_empty() -> None:
    game = pyspiel.load_game("python_sos", {"rows": 3, "cols": 3})
    first = game.new_initial_state()
    twin = first.clone()
    first.apply_action(0)
    twin.apply_action(17)
    assert str(first) == "S../.../..." and str(twin) == ".../.../..O"
    assert str(game.new_initial_state()) == ".../.../..."
    clone = first.clone()
    clone.apply_action(2)
    assert str(first) == "S../.../..." and str(clone) == "SS./.../..."
    assert clone.history() == [0, 2] and first.history() == [0]
    assert clone.game.moves[:1] == first.game.moves and clone.game is not first.game
    fresh = game.new_initial_state()
    fresh.game.play("Sb2")  # reaching into a new state's game changes that state alone
    assert str(game.new_initial_state()) == ".../.../..." and str(fresh) == ".../.S./..."


def test_openspiel_serialises_the_move_history_and_replays_it() -> None:
    state = openspiel_state(8, 30, reward="margin")
    text = state.serialize()
    assert text.startswith("history=") and len(text) < 1000
    game = state.get_game()
    again = game.deserialize_state(text)
    assert again.history() == state.history() and str(again) == str(state)
    assert again.game == state.game
    finished = openspiel_state(3, 0)
    while not finished.is_terminal():
        finished.apply_action(finished.legal_actions()[-1])
    restored = finished.get_game().deserialize_state(finished.serialize())
    assert restored.is_terminal() and restored.returns() == finished.returns()
    both = pyspiel.serialize_game_and_state(state.get_game(), state)
    _, copied = pyspiel.deserialize_game_and_state(both)
    assert copied.game == state.game
    assert len(openspiel_state(15, 0).serialize()) < 400


def test_openspiel_information_state_is_the_history() -> None:
    game = pyspiel.load_game("python_sos", {"rows": 3, "cols": 3, "players": 3})
    kind = game.get_type()
    assert kind.provides_information_state_tensor and kind.provides_information_state_string
    assert kind.provides_observation_tensor and kind.provides_observation_string
    assert game.information_state_tensor_shape() == [3 + 3 + 3 + 1, 3, 3]
    assert game.observation_tensor_shape() == [3 + 3 + 3, 3, 3]
    one = game.new_initial_state()
    for action in (0, 17):  # Sa1 then Oc3
        one.apply_action(action)
    assert one.information_state_string(0) == "Sa1 Oc3"
    swapped = game.new_initial_state()
    for action in (17, 0):  # Oc3 then Sa1: the same position, another history
        swapped.apply_action(action)
    assert swapped.observation_tensor(0)[: 9 * 3] == one.observation_tensor(0)[: 9 * 3]
    assert swapped.information_state_tensor(0) != one.information_state_tensor(0)
    order = np.array(one.information_state_tensor(0)).reshape(10, 3, 3)[-1]
    assert order[0, 0] == pytest.approx(1 / 9) and order[2, 2] == pytest.approx(2 / 9)
    assert order.sum() == pytest.approx(3 / 9)


@pytest.mark.parametrize(
    ("reward", "players", "utility", "bounds"),
    [
        ("result", 3, "ZERO_SUM", (-1.0, 1.0)),
        ("margin", 2, "ZERO_SUM", (-8.0, 8.0)),
        ("margin", 3, "GENERAL_SUM", (-8.0, 8.0)),
        ("points", 2, "GENERAL_SUM", (0.0, 8.0)),
    ],
)
def test_openspiel_get_type_tells_the_truth_about_utilities(
    reward: str, players: int, utility: str, bounds: tuple[float, float]
) -> None:
    params = {"rows": 3, "cols": 3, "players": players, "reward": reward}
    game = pyspiel.load_game("python_sos", params)
    kind = game.get_type()
    assert kind.utility == getattr(pyspiel.GameType.Utility, utility)
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (game.min_utility(), game.max_utility()) == bounds
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    generator = np.random.RandomState(0)
    bot = mcts.MCTSBot(
        game, 2.0, 20, mcts.RandomRolloutEvaluator(1, generator), random_state=generator
    )
    assert bot.step(game.new_initial_state()) in range(18)


# ------------------------------------------------------------------------------ Gymnasium


def first_legal_episode(env: Any, seed: int) -> tuple[list[str], float]:
    """Play the first legal action each turn; return the moves and the return."""
    _, info = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        _, value, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        total += float(value)
    return [str(move) for move in env.unwrapped.game.moves], total


@pytest.mark.parametrize("level", ["hard", "perfect"])
def test_gymnasium_search_opponents_on_a_node_budget_are_reproducible(level: str) -> None:
    episodes = [
        first_legal_episode(
            gymnasium.make(GYMNASIUM_ID, rows=4, cols=4, opponent=level, opponent_nodes=300), 7
        )
        for _ in range(2)
    ]
    assert episodes[0] == episodes[1]
    default = gymnasium.make(GYMNASIUM_ID, rows=4, cols=4, opponent=level).unwrapped
    default.reset(seed=1)
    assert default._player.budget.nodes == DEFAULT_OPPONENT_NODES
    assert default._player.budget.seconds is None


def test_gymnasium_random_seat_comes_from_the_seed() -> None:
    env: Any = gymnasium.make(GYMNASIUM_ID, rows=3, cols=3, seat="random", opponent="easy")
    seats = {}
    for seed in range(12):
        _, info = env.reset(seed=seed)
        seats[seed] = info["seat"]
        assert env.unwrapped.seat == info["seat"]
        assert env.unwrapped.game.turn == info["seat"]
    assert set(seats.values()) == {0, 1}
    for seed, seat in seats.items():
        assert env.reset(seed=seed)[1]["seat"] == seat
    with pytest.raises(InvalidSettingsError, match="seat must be from 0 to 1 or 'random'"):
        gymnasium.make(GYMNASIUM_ID, seat="first")


def test_gymnasium_policy_and_callable_opponents() -> None:
    seen: list[dict[str, Any]] = []

    def policy(observation: dict[str, Any]) -> np.int64:
        seen.append(observation)
        return np.int64(np.flatnonzero(observation["action_mask"])[-1])

    env: Any = gymnasium.make(GYMNASIUM_ID, rows=3, cols=3, players=3, opponent=policy)
    env.reset(seed=0)
    env.step(0)  # Sa1; seats 1 and 2 take the last legal action each: Oc3, then Ob3
    assert [str(move) for move in env.unwrapped.game.moves] == ["Sa1", "Oc3", "Ob3"]
    assert len(seen) == 2 and seen[0]["action_mask"].sum() == 16
    player = make_player("medium", seed=3)
    env.reset(seed=0, options={"opponent": player})
    assert env.unwrapped.opponent is player
    env.step(0)
    assert env.unwrapped.game.ply == 3
    with pytest.raises(ValueError, match="reset\\(\\) takes the option 'opponent' only"):
        env.reset(options={"seat": 1})
    with pytest.raises(InvalidSettingsError, match="apply to a level name only"):
        gymnasium.make(GYMNASIUM_ID, opponent=policy, opponent_nodes=10)
    with pytest.raises(InvalidSettingsError, match="opponent must be a level name"):
        gymnasium.make(GYMNASIUM_ID, opponent=42)


def test_gymnasium_a_bad_opponent_action_leaves_the_game_as_it_was() -> None:
    env: Any = gymnasium.make(GYMNASIUM_ID, rows=3, cols=3, opponent=lambda observation: 0)
    env.reset(seed=0)
    with pytest.raises(OccupiedCellError, match=r"opponent in seat 1 chose: .*a1 already holds S"):
        env.step(0)  # Sa1, then the opponent also asks for Sa1
    assert env.unwrapped.game == Game(3, 3)
    bad: Any = gymnasium.make(GYMNASIUM_ID, rows=3, cols=3, opponent=lambda observation: 2.0)
    bad.reset(seed=0)
    with pytest.raises(ValueError, match="the opponent in seat 1 chose: an action must be an int"):
        bad.step(0)
    assert bad.unwrapped.game == Game(3, 3)


@pytest.mark.parametrize("action", [3.0, True, np.float64(2), "4", np.bool_(True), None])
def test_gymnasium_rejects_non_integer_actions(action: Any) -> None:
    env: Any = gymnasium.make(GYMNASIUM_ID, rows=3, cols=3)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="an action must be an int or a NumPy integer"):
        env.unwrapped.step(action)
    assert env.unwrapped.game == Game(3, 3)
    env.unwrapped.step(np.array(4))  # a zero-dimensional integer array is an integer
    assert env.unwrapped.game.moves[0].cell == (0, 2)


def test_gymnasium_raises_after_any_end() -> None:
    env: Any = gymnasium.make(GYMNASIUM_ID, rows=3, cols=3, opponent="random")
    env.reset(seed=0)
    env.step(0)
    occupied = int(np.flatnonzero(env.unwrapped.action_masks() == 0)[0])
    _, _, done, _, info = env.step(occupied)
    assert done and info["illegal_action"]
    legal = int(np.flatnonzero(env.unwrapped.action_masks())[0])
    with pytest.raises(RuntimeError, match="the episode is over: call reset"):
        env.unwrapped.step(legal)
    first_legal_episode(env, 0)
    with pytest.raises(RuntimeError, match="the episode is over"):
        env.unwrapped.step(0)


def test_gymnasium_vector_env_stacks_scores_and_winners_as_numbers() -> None:
    envs = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make(GYMNASIUM_ID, rows=3, cols=3, opponent="easy")] * 2,
        autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP,
    )
    _, info = envs.reset(seed=[1, 2])
    assert info["scores"].dtype == np.int64 and info["scores"].shape == (2, 2)
    rng = np.random.default_rng(0)
    finished = False
    for _ in range(20):
        actions = [int(rng.choice(np.flatnonzero(mask))) for mask in info["action_mask"]]
        _, _, terminated, _, info = envs.step(np.array(actions))
        if terminated.any():
            finished = True
            final = info["final_info"]
            assert final["winners"].dtype == np.bool_ and final["winners"].shape == (2, 2)
            assert final["winners"][terminated].any(axis=1).all()
            break
    assert finished
    envs.close()


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("reward", ["margin", "points"])
def test_checkers_pass_with_every_reward(reward: str) -> None:
    check_env(
        gymnasium.make(GYMNASIUM_ID, rows=3, cols=4, reward=reward, seat="random").unwrapped,
        skip_render_check=True,
    )
    api_test(sos_v0.env(rows=3, cols=4, players=3, reward=reward), num_cycles=100)


def test_gymnasium_make_imports_the_package_from_the_id() -> None:
    code = (
        "import gymnasium, sys\n"
        "env = gymnasium.make('sosgame.envs:sosgame/SOS-v0', rows=3, cols=3)\n"
        "print(env.reset(seed=0)[0]['observation'].shape)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert result.stdout.strip() == "(3, 3, 3)"


# ------------------------------------------------------------------------------ PettingZoo


def test_pettingzoo_is_not_parallelizable() -> None:
    env = sos_v0.env(rows=3, cols=3)
    assert env.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env)


@pytest.mark.parametrize("name", ["sosgame.envs.openspiel", "sosgame.envs.sos_v0"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


_WINNING_OPENING = {0: 0, 1: 3, 2: 4}
"""On 3x3, by the number of cells filled: Sa1, Ob1, Sc1, so seat 2 makes an SOS at once."""


def _cells_filled(observation: dict[str, Any]) -> int:
    return 9 - int(observation["action_mask"].sum()) // 2


def test_gymnasium_reset_deals_again_when_the_agent_would_never_move() -> None:
    # Seats 0, 1 and 2 open with S, O, S in a row: seat 2's SOS ends a simple game before
    # seat 3 (the agent) has moved. On the second deal the opponents play quietly.
    games = []

    def opponent(observation: dict[str, Any]) -> int:
        if _cells_filled(observation) == 0:
            games.append(len(games))
        if len(games) == 1:
            return _WINNING_OPENING[_cells_filled(observation)]
        return int(np.flatnonzero(observation["action_mask"])[-1])  # an O in the last cell

    env = gymnasium.make(
        GYMNASIUM_ID, rows=3, cols=3, mode="simple", players=4, seat=3, opponent=opponent
    )
    _, info = env.reset(seed=0)
    game = env.unwrapped.game  # type: ignore[attr-defined]
    assert len(games) == 2
    assert not game.is_over and game.turn == 3 and game.ply == 3
    assert info["action_mask"].sum() == 2 * 6


def test_gymnasium_reset_gives_up_on_opponents_who_always_end_the_game_first() -> None:
    def opponent(observation: dict[str, Any]) -> int:
        return _WINNING_OPENING[_cells_filled(observation)]

    env = gymnasium.make(
        GYMNASIUM_ID, rows=3, cols=3, mode="simple", players=4, seat=3, opponent=opponent
    )
    with pytest.raises(RuntimeError, match="ended 100 games in a row before seat 3 could move"):
        env.reset(seed=0)
