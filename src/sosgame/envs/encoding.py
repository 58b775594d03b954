"""What the environments share: actions, observations, masks and rewards, read off a Game.

An action is ``2 * cell + letter``: ``cell`` is the row-major index of the cell and
``letter`` is 0 for S and 1 for O, so there are ``2 * rows * cols`` actions.

Rewards: every adapter takes ``reward=`` (:data:`REWARDS`, default :data:`DEFAULT_REWARD`) and
pays each seat, after every move, the change in that seat's :func:`reward_values`, so a seat's
return over a whole game is its value at the end:

* ``"result"``: the result (:func:`result_rewards`), paid when the game ends;
* ``"margin"``: the seat's points minus the best other seat's points;
* ``"points"``: the seat's own points.
"""

from __future__ import annotations

from typing import Any, Final, Literal, TypeAlias

import numpy as np
from gymnasium import spaces

from sosgame.errors import InvalidSettingsError
from sosgame.game import Game
from sosgame.geometry import geometry
from sosgame.notation import EMPTY, LETTERS, Move, O, S
from sosgame.outcome import Outcome

__all__ = [
    "DEFAULT_REWARD",
    "PLANES",
    "REWARDS",
    "Reward",
    "action_count",
    "action_mask",
    "action_to_move",
    "legal_actions",
    "move_to_action",
    "observation",
    "observation_space",
    "planes",
    "relative_scores",
    "result_rewards",
    "reward_bounds",
    "reward_values",
    "winner_flags",
]

PLANES = 3
"""Observation planes: S, O and empty."""

Reward: TypeAlias = Literal["result", "margin", "points"]
REWARDS: Final[tuple[Reward, ...]] = ("result", "margin", "points")
DEFAULT_REWARD: Final[Reward] = "result"
"""The reward every adapter uses unless told otherwise."""


def action_count(rows: int, cols: int) -> int:
    """The number of actions on a board: one per (cell, letter)."""
    return 2 * rows * cols


def action_to_move(action: object, rows: int, cols: int) -> Move:
    """The move an action stands for.

    An action is a Python or NumPy integer (a zero-dimensional integer array counts too).

    :raises ValueError: for a value that is not an integer (``3.0``, ``True``, ``"4"``), or an
        action outside ``0 .. 2 * rows * cols - 1``.
    """
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = int(action)
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        raise ValueError(f"an action must be an int or a NumPy integer, not {action!r}")
    count = action_count(rows, cols)
    if not 0 <= action < count:
        raise ValueError(f"action {action} is outside 0 .. {count - 1} for a {rows}x{cols} board")
    cell, letter = divmod(int(action), 2)
    return geometry(rows, cols).moves[cell][letter]


def move_to_action(move: Move, cols: int) -> int:
    """The action of a move."""
    row, col = move.cell
    return 2 * (row * cols + col) + LETTERS.index(move.letter)


def _letters(game: Game) -> np.ndarray[Any, np.dtype[np.uint8]]:
    # The engine's position text is the cheapest full read of the board.
    return np.frombuffer(game.position().replace("/", "").encode("ascii"), dtype=np.uint8)


def action_mask(game: Game) -> np.ndarray[Any, np.dtype[np.int8]]:
    """1 for each legal action, 0 elsewhere (all 0 once the game is over)."""
    if game.is_over:
        return np.zeros(action_count(game.rows, game.cols), dtype=np.int8)
    return np.repeat(_letters(game) == ord(EMPTY), 2).astype(np.int8)


def legal_actions(game: Game) -> list[int]:
    """The legal actions, in increasing order (none once the game is over)."""
    return [int(action) for action in np.flatnonzero(action_mask(game))]


def planes(game: Game) -> np.ndarray[Any, np.dtype[np.int8]]:
    """The board as ``(rows, cols, 3)`` planes: S, O, empty (the same for every seat)."""
    letters = _letters(game).reshape(game.rows, game.cols)
    stacked = np.stack([letters == ord(S), letters == ord(O), letters == ord(EMPTY)], axis=-1)
    return stacked.astype(np.int8)


def relative_scores(game: Game, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The scores seen from ``seat``: its own first, then the seats that follow it in order."""
    scores = game.scores
    return np.array([scores[(seat + k) % game.players] for k in range(game.players)], np.float32)


def observation(game: Game, seat: int, *, moving: bool = True) -> dict[str, np.ndarray[Any, Any]]:
    """What ``seat`` sees: the board's :func:`planes`, the :func:`relative_scores` from its side
    and the :func:`action_mask` (all zero unless ``moving``: the seat is the one to act)."""
    mask = action_mask(game)
    if not moving:
        mask[:] = 0
    return {
        "observation": planes(game),
        "scores": relative_scores(game, seat),
        "action_mask": mask,
    }


def observation_space(rows: int, cols: int, players: int) -> spaces.Dict:
    """The space of :func:`observation`'s dicts: a seat scores at most every line of the board."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0, 1, (rows, cols, PLANES), np.int8),
            "scores": spaces.Box(0, len(geometry(rows, cols).lines), (players,), np.float32),
            "action_mask": spaces.Box(0, 1, (action_count(rows, cols),), np.int8),
        }
    )


def result_rewards(outcome: Outcome, players: int) -> list[float]:
    """Each seat's final result, summing to zero: a sole winner gets 1 and every loser
    ``-1 / (players - 1)``; seats sharing a draw of k split the win: ``(n/k - 1) / (n - 1)``.

    With two players that is +1 / -1 for a win and 0 each for a draw.
    """
    share = 1 / len(outcome.winners)
    return [
        (players * (share if seat in outcome.winners else 0.0) - 1) / (players - 1)
        for seat in range(players)
    ]


def check_reward(reward: object) -> Reward:
    """``reward`` if it names one of :data:`REWARDS`.

    :raises InvalidSettingsError: otherwise.
    """
    for known in REWARDS:
        if reward == known and isinstance(reward, str):
            return known
    raise InvalidSettingsError(
        f"reward must be one of {', '.join(map(repr, REWARDS))}, not {reward!r}"
    )


def reward_values(game: Game, reward: Reward) -> list[float]:
    """Each seat's value of ``game`` under ``reward``: what its return adds up to so far.

    ``"result"`` is 0 until the end, then :func:`result_rewards`; ``"margin"`` is the seat's
    points minus the best other seat's; ``"points"`` is the seat's own points.
    """
    scores = game.scores
    if reward == "points":
        return [float(score) for score in scores]
    if reward == "margin":
        ranked = sorted(scores, reverse=True)
        best, second = ranked[0], ranked[1]
        return [float(score - (second if score == best else best)) for score in scores]
    outcome = game.outcome
    if outcome is None:
        return [0.0] * game.players
    return result_rewards(outcome, game.players)


def reward_bounds(game: Game, reward: Reward) -> tuple[float, float]:
    """The least and greatest return a seat can have under ``reward`` on this board."""
    if reward == "result":
        return -1.0, 1.0
    most = float(len(geometry(game.rows, game.cols).lines))
    return (0.0 if reward == "points" else -most), most


def winner_flags(game: Game) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """One flag per seat, set for each winner (every seat sharing a draw); all clear while the
    game goes on."""
    flags = np.zeros(game.players, dtype=np.bool_)
    if game.outcome is not None:
        flags[list(game.outcome.winners)] = True
    return flags
