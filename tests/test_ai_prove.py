"""Simple-mode proofs move by move (``sosgame.ai.prove``) and ``hard`` playing what they prove."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sosgame import Game
from sosgame.ai import make_player
from sosgame.ai.prove import prove_moves
from sosgame.kernel import decode_move
from sosgame.solver import TranspositionTable, solve

WON = "...O/.S../...S/S.O."
"""Simple mode, the side to move wins, and only with Sa1 (no SOS can be made at once)."""
DRAWN = "S.../O..S/O.../.OO."
"""Simple mode, a draw kept only by Sb1 and Sb3."""


def move_values(game: Game) -> dict[str, int]:
    """The exact value of every move of a simple-mode ``game``, for the side making it."""
    values = {}
    for move in game.legal_moves:
        after = game.copy()
        if after.play(move):
            values[str(move)] = 1
        else:
            values[str(move)] = -solve(Game.from_position(after.position(), mode="simple")).value
    return values


def named(game: Game, moves: list[tuple[int, int]]) -> set[str]:
    return {str(decode_move(cell, letter, game.rows, game.cols)) for cell, letter in moves}


def test_the_race_finds_the_only_winning_move() -> None:
    game = Game.from_position(WON, mode="simple")
    proofs = prove_moves(game, TranspositionTable(4), deadline=None, nodes=None)
    assert named(game, proofs.wins()) == {"Sa1"}
    assert proofs.solved()


def test_a_drawn_position_is_solved_to_its_drawing_moves() -> None:
    game = Game.from_position(DRAWN, mode="simple")
    proofs = prove_moves(game, TranspositionTable(4), deadline=None, nodes=None)
    assert proofs.solved() and proofs.safest() == 0
    assert named(game, proofs.best()) <= {"Sb1", "Sb3"}
    assert not proofs.wins()


def test_an_immediate_sos_is_a_win_at_once() -> None:
    game = Game.from_position("SO../..../..../....", mode="simple")
    proofs = prove_moves(game, TranspositionTable(4), deadline=None, nodes=None)
    assert named(game, proofs.wins()) == {"Sc1"}
    assert proofs.nodes == 0


def test_a_past_deadline_proves_nothing_and_keeps_the_moves_open() -> None:
    game = Game.from_position(DRAWN, mode="simple")
    proofs = prove_moves(game, TranspositionTable(4), deadline=0.0, nodes=None)
    assert not proofs.solved()
    assert len(proofs.open_or_better()) == len(list(game.legal_moves))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), nodes=st.integers(1, 6_000), cells=st.integers(5, 10))
def test_every_bound_the_race_gives_is_right_whatever_the_budget(
    seed: int, nodes: int, cells: int
) -> None:
    # Small budgets stop tests halfway, which must leave the board as it was for the next.
    rng = random.Random(seed)
    game = Game(4, 4, mode="simple")
    while game.position().count(".") > cells:
        quiet = [move for move in game.legal_moves if not game.copy().play(move)]
        if not quiet:
            return
        game.play(rng.choice(quiet))
    game = Game.from_position(game.position(), mode="simple")
    proofs = prove_moves(game, TranspositionTable(4), deadline=None, nodes=nodes)
    values = move_values(game)
    for (cell, letter), low in proofs.lower.items():
        value = values[str(decode_move(cell, letter, game.rows, game.cols))]
        assert low <= value <= proofs.upper[cell, letter]
    if proofs.solved():
        assert proofs.safest() == max(values.values())
        assert named(game, proofs.best()) <= {m for m, v in values.items() if v == proofs.safest()}


@pytest.mark.parametrize("nodes", [3_000, 20_000, 200_000])
def test_hard_plays_a_proven_win_in_simple_mode(nodes: int) -> None:
    game = Game.from_position(WON, mode="simple")
    for seed in range(3):
        player = make_player("hard", nodes=nodes, seed=seed)
        assert str(player.choose_move(game)) == "Sa1"
        assert player.proven  # type: ignore[attr-defined]


@pytest.mark.parametrize("nodes", [3_000, 200_000])
def test_hard_keeps_a_simple_mode_draw(nodes: int) -> None:
    game = Game.from_position(DRAWN, mode="simple")
    for seed in range(3):
        assert str(make_player("hard", nodes=nodes, seed=seed).choose_move(game)) in {"Sb1", "Sb3"}
