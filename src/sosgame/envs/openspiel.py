"""SOS as an OpenSpiel Python game, registered as ``python_sos`` on import.

>>> import pyspiel
>>> import sosgame.envs.openspiel
>>> game = pyspiel.load_game("python_sos", {"rows": 3, "cols": 3, "players": 2, "mode": "simple"})
>>> game.num_distinct_actions(), game.num_players(), game.observation_tensor_shape()
(18, 2, [7, 3, 3])

Parameters: ``rows``, ``cols`` (default 5), ``players`` (2 to 8, default 2), ``mode``
(``"general"`` or ``"simple"``), ``reward`` (``"result"``, ``"margin"`` or ``"points"``, as
defined in :mod:`sosgame.envs.encoding`; default ``"result"``). Actions are
``2 * cell + letter`` (letter 0 = S, 1 = O). A scoring move keeps ``current_player()`` on the
same seat. Rewards are terminal: ``returns()`` is 0 until the end, then each seat's value
under ``reward`` (so OpenSpiel's MCTS, which needs terminal rewards, works with every option).
``get_type()`` tells which: zero-sum for ``"result"`` (and ``"margin"`` with two seats),
general-sum otherwise.

Tensors are ``(planes, rows, cols)``. The observation: planes S, O and empty; one plane per
seat, all ones for the seat to move; one plane per seat holding its score over the number of
lines the board holds. The information state (perfect recall: the move history) adds one
plane holding, in each filled cell, the number of the move that filled it over the number of
cells; its string is the moves in order.

States clone with :meth:`sosgame.Game.copy`, which shares the board's fixed tables.
``serialize()`` holds OpenSpiel's own history line and, for the Python side, only the board
size, seats, mode and the actions played; ``deserialize_state`` replays those actions through
the engine.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from sosgame.envs.encoding import (
    DEFAULT_REWARD,
    PLANES,
    Reward,
    action_count,
    action_to_move,
    check_reward,
    legal_actions,
    move_to_action,
    planes,
    reward_bounds,
    reward_values,
)
from sosgame.game import MAX_PLAYERS, MIN_PLAYERS, Game, Mode
from sosgame.geometry import geometry

__all__ = ["SosGame", "SosHistoryObserver", "SosObserver", "SosState"]

_DEFAULTS: dict[str, Any] = {
    "rows": 5,
    "cols": 5,
    "players": 2,
    "mode": "general",
    "reward": DEFAULT_REWARD,
}


def _game_type(reward: Reward, players: int) -> pyspiel.GameType:
    zero_sum = reward == "result" or (reward == "margin" and players == 2)
    return pyspiel.GameType(
        short_name="python_sos",
        long_name="Python SOS",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS,
        min_num_players=MIN_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS,
    )


class SosGame(pyspiel.Game):  # type: ignore[misc]
    """The game ``python_sos`` with its parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        options = {**_DEFAULTS, **(params or {})}
        self.reward = check_reward(options["reward"])
        self.template = Game(
            options["rows"], options["cols"], players=options["players"], mode=options["mode"]
        )
        low, high = reward_bounds(self.template, self.reward)
        game_type = _game_type(self.reward, self.template.players)
        zero_sum = game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=action_count(self.template.rows, self.template.cols),
            max_chance_outcomes=0,
            num_players=self.template.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=self.template.rows * self.template.cols,
        )
        super().__init__(game_type, info, options)
        self.empty_engine = _Engine(self.template, self.reward, shared=True)

    def new_initial_state(self) -> SosState:
        """A new game from the empty board."""
        return SosState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SosObserver:
        """The observer for ``iig_obs_type``: with perfect recall, the move history
        (:class:`SosHistoryObserver`); otherwise the position (:class:`SosObserver`)."""
        if isinstance(iig_obs_type, dict):  # OpenSpiel passes the parameters alone
            iig_obs_type, params = None, iig_obs_type
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return SosHistoryObserver(self, params)
        return SosObserver(self, params)


class _Engine:
    """The engine's game behind a state, and the reward it is scored by.

    Copied with :meth:`Game.copy` (so clones share the fixed line tables) and pickled as its
    move history, which :func:`_replay` plays again. A new state shares its game's empty
    ``template`` (``shared``) until its first move, since OpenSpiel's ``clone()`` makes a new
    state only to overwrite it.
    """

    __slots__ = ("game", "reward", "shared")

    def __init__(self, game: Game, reward: Reward, *, shared: bool = False) -> None:
        self.game = game
        self.reward = reward
        self.shared = shared

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.game.copy(), self.reward)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        game = self.game
        actions = tuple(move_to_action(move, game.cols) for move in game.moves)
        return _replay, (game.rows, game.cols, game.players, game.mode, self.reward, actions)


def _replay(
    rows: int, cols: int, players: int, mode: Mode, reward: Reward, actions: tuple[int, ...]
) -> _Engine:
    """The engine's game after ``actions``: how a serialised state comes back."""
    moves = [action_to_move(action, rows, cols) for action in actions]
    return _Engine(Game(rows, cols, players=players, mode=mode, moves=moves), reward)


class SosState(pyspiel.State):  # type: ignore[misc]
    """A position of ``python_sos``: a thin wrapper around :class:`sosgame.Game`."""

    def __init__(self, game: SosGame) -> None:
        super().__init__(game)
        self._engine = game.empty_engine

    @property
    def game(self) -> Game:
        """The engine's game (read it; change it only through ``apply_action``)."""
        return self._own().game

    def _own(self) -> _Engine:
        # A new state's game is its SosGame's template: copy it before anyone can change it.
        engine = self._engine
        if engine.shared:
            engine = self._engine = _Engine(engine.game.copy(), engine.reward)
        return engine

    def current_player(self) -> int:
        """The seat to move, or ``pyspiel.PlayerId.TERMINAL``."""
        game = self._engine.game
        return int(pyspiel.PlayerId.TERMINAL) if game.is_over else game.turn

    def _legal_actions(self, player: int) -> list[int]:
        return legal_actions(self._engine.game)

    def _apply_action(self, action: int) -> None:
        game = self._own().game
        game.play(action_to_move(action, game.rows, game.cols))

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._engine.game
        return str(action_to_move(action, game.rows, game.cols))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._engine.game.is_over

    def returns(self) -> list[float]:
        """Each seat's value under the game's ``reward``: zero until the end."""
        game = self._engine.game
        if not game.is_over:
            return [0.0] * game.players
        return reward_values(game, self._engine.reward)

    def __str__(self) -> str:
        return self._engine.game.position()


class SosObserver:
    """The position as a ``(planes, rows, cols)`` tensor and a string (see the module)."""

    def __init__(self, game: SosGame, params: dict[str, Any] | None, extra_planes: int = 0) -> None:
        if params:
            raise ValueError(f"python_sos observations take no parameters; got {params}")
        template = game.template
        self.players = template.players
        self.cells = template.rows * template.cols
        self.most_lines = max(1, len(geometry(template.rows, template.cols).lines))
        shape = (PLANES + 2 * self.players + extra_planes, template.rows, template.cols)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.planes = np.reshape(self.tensor, shape)
        self.dict = {"observation": self.planes}

    def set_from(self, state: SosState, player: int) -> None:
        """Describe ``state`` (the same for every player: SOS has no hidden information)."""
        game = state.game
        view = self.planes
        self.tensor.fill(0)
        view[:PLANES] = np.moveaxis(planes(game), -1, 0)
        if not game.is_over:
            view[PLANES + game.turn] = 1
        for seat, score in enumerate(game.scores):
            view[PLANES + self.players + seat] = score / self.most_lines

    def string_from(self, state: SosState, player: int) -> str:
        """The position, scores and seat to move as text."""
        game = state.game
        scores = " ".join(str(score) for score in game.scores)
        return f"{game.position()} scores {scores} turn {state.current_player()}"


class SosHistoryObserver(SosObserver):
    """The information state: the observation planes plus the order of the moves."""

    def __init__(self, game: SosGame, params: dict[str, Any] | None) -> None:
        super().__init__(game, params, extra_planes=1)

    def set_from(self, state: SosState, player: int) -> None:
        """Describe ``state`` and the order its cells were filled in."""
        super().set_from(state, player)
        game = state.game
        order = self.planes[-1].reshape(-1)
        for number, move in enumerate(game.moves, start=1):
            row, col = move.cell
            order[row * game.cols + col] = number / self.cells

    def string_from(self, state: SosState, player: int) -> str:
        """The moves played, in order (empty at the start)."""
        return " ".join(str(move) for move in state.game.moves)


pyspiel.register_game(_game_type(DEFAULT_REWARD, MIN_PLAYERS), SosGame)
