"""Anytime Monte Carlo tree search with a score per seat, for games of three or more seats.

Each simulation walks down the tree by UCB1 on the reward of the seat that moves at each node
(after a scoring move that is the same seat again), adds one node, finishes the game with the
kernel's greedy playout, and backs up every seat's reward. Only sensible moves enter the
tree: the scoring moves when there are any, else the quiet moves that hand the next seat no
line, else the ones handing over the fewest.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any, Final, cast

from sosgame import kernel
from sosgame.kernel import DRAW, EMPTY, GREEDY, IntArray, KernelState

__all__ = ["EXPLORATION", "candidate_moves", "mcts", "rank_moves"]

EXPLORATION: Final = 0.7
"""The UCB1 exploration constant (rewards lie between 0 and 1)."""
_MARGIN_WEIGHT: Final = 0.2
"""How much of a general-mode reward is the seat's share of the points, beside the result."""


def candidate_moves(board: IntArray, table: IntArray) -> list[tuple[int, int]]:
    """The moves worth searching, as kernel ``(cell, letter)`` pairs (1 = S, 2 = O)."""
    scoring: list[tuple[int, int]] = []
    safe: list[tuple[int, int]] = []
    unsafe: list[tuple[int, int, int]] = []
    for cell in range(len(board)):
        if board[cell] != EMPTY:
            continue
        for letter in (1, 2):
            if kernel.count_lines(board, table, cell, letter):
                scoring.append((cell, letter))
            elif not scoring:
                handed = kernel.count_openings(board, table, cell, letter)
                if handed:
                    unsafe.append((handed, cell, letter))
                else:
                    safe.append((cell, letter))
    if scoring:
        return scoring
    if safe:
        return safe
    least = min(unsafe)[0]
    return [(cell, letter) for handed, cell, letter in unsafe if handed == least]


def _copy(values: IntArray) -> IntArray:
    # Lists and numpy arrays both copy themselves; the protocol does not say so.
    copied: IntArray = cast(Any, values).copy()
    return copied


class _Node:
    __slots__ = ("children", "mover", "totals", "untried", "visits")

    def __init__(self, mover: int, untried: list[tuple[int, int]], players: int) -> None:
        self.mover = mover
        self.untried = untried
        self.children: dict[tuple[int, int], _Node] = {}
        self.visits = 0
        self.totals = [0.0] * players


def _rewards(result: int, scores: IntArray, next_seat: IntArray, simple: int) -> list[float]:
    """Each seat's reward from 0 to 1 for a finished playout."""
    players = len(scores)
    active = [seat for seat in range(players) if next_seat[seat] >= 0]
    rewards = [0.0] * players
    if simple:
        if result == DRAW:
            for seat in active:
                rewards[seat] = 1.0 / len(active)
        else:
            rewards[result] = 1.0
        return rewards
    best = max(scores[seat] for seat in active)
    leaders = [seat for seat in active if scores[seat] == best]
    total = sum(scores[seat] for seat in active)
    for seat in active:
        share = scores[seat] / total if total else 1.0 / len(active)
        won = 1.0 / len(leaders) if seat in leaders else 0.0
        rewards[seat] = (1 - _MARGIN_WEIGHT) * won + _MARGIN_WEIGHT * share
    return rewards


def mcts(
    state: KernelState,
    rng: random.Random,
    *,
    seconds: float | None,
    nodes: int | None,
    moves: Sequence[tuple[int, int]] | None = None,
) -> tuple[tuple[int, int], int]:
    """The most visited root move ``(cell, letter)`` and the number of simulations run.

    Stops after ``nodes`` simulations or ``seconds`` of wall time, whichever comes first
    (at least one simulation runs). ``moves``, if given, are the root moves to choose from
    (instead of :func:`candidate_moves`).
    """
    ranking, simulations = rank_moves(state, rng, seconds=seconds, nodes=nodes, moves=moves)
    return ranking[0], simulations


def rank_moves(
    state: KernelState,
    rng: random.Random,
    *,
    seconds: float | None,
    nodes: int | None,
    moves: Sequence[tuple[int, int]] | None = None,
) -> tuple[list[tuple[int, int]], int]:
    """The root moves, most visited first, and the number of simulations run (as :func:`mcts`).

    Moves the search did not reach come last.
    """
    start = time.perf_counter()
    board, scores, table = state.board, state.scores, state.tables.table
    next_seat, simple = state.next_seat, state.simple
    players = len(scores)
    playout_rng = kernel.make_rng(rng.getrandbits(31))
    untried = candidate_moves(board, table) if moves is None else list(moves)
    root = _Node(state.turn, untried, players)
    rng.shuffle(root.untried)
    if len(root.untried) == 1:
        return list(root.untried), 0
    simulations = 0
    path: list[tuple[int, int, int, int]] = []
    while True:
        simulations += 1
        node = root
        turn = state.turn
        empty = state.empty
        over = False
        visited = [root]
        path.clear()
        # Selection: down through fully expanded nodes.
        while not node.untried and node.children:
            log_visits = math.log(node.visits)
            mover = node.mover
            best_score = -1.0
            chosen = None
            for move, child in node.children.items():
                score = child.totals[mover] / child.visits + EXPLORATION * math.sqrt(
                    log_visits / child.visits
                )
                if score > best_score:
                    best_score = score
                    chosen = move
            assert chosen is not None
            cell, letter = chosen
            done = kernel.apply_move(board, scores, table, turn, cell, letter)
            path.append((turn, cell, letter, done))
            empty -= 1
            over = empty == 0 or (simple == 1 and done > 0)
            turn = kernel.next_turn(next_seat, turn, done)
            node = node.children[chosen]
            visited.append(node)
        # Expansion: one new child.
        if node.untried and not over:
            cell, letter = node.untried.pop()
            done = kernel.apply_move(board, scores, table, turn, cell, letter)
            path.append((turn, cell, letter, done))
            empty -= 1
            over = empty == 0 or (simple == 1 and done > 0)
            turn = kernel.next_turn(next_seat, turn, done)
            untried = [] if over else candidate_moves(board, table)
            rng.shuffle(untried)
            child = _Node(turn, untried, players)
            node.children[(cell, letter)] = child
            visited.append(child)
        # Simulation on copies, then back-propagation.
        work_board = _copy(board)
        work_scores = _copy(scores)
        result = DRAW
        if over:
            if simple == 0:
                result = kernel.winner(work_scores, next_seat)
            elif path and path[-1][3] > 0:
                result = path[-1][0]
        else:
            result = kernel.playout(
                work_board, work_scores, table, next_seat, turn, simple, GREEDY, playout_rng
            )
        rewards = _rewards(result, work_scores, next_seat, simple)
        for step in visited:
            step.visits += 1
            totals = step.totals
            for seat in range(players):
                totals[seat] += rewards[seat]
        for mover, cell, _letter, done in reversed(path):
            kernel.undo_move(board, scores, mover, cell, done)
        if nodes is not None and simulations >= nodes:
            break
        if seconds is not None and time.perf_counter() - start >= seconds:
            break
    # Ties keep the order the moves were tried in, as ``max`` did.
    ranked = sorted(root.children, key=lambda move: -root.children[move].visits)
    return ranked + root.untried[::-1], simulations
