"""The mirror strategy: it never loses a simple-mode game, and its bounds agree with the solves."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sos_strategies import examples
from sosgame import Game
from sosgame.errors import InvalidSettingsError
from sosgame.notation import Cell, Move
from sosgame.solver import mirror, solve
from sosgame.solver.mirror import (
    check_mirror,
    mirror_bounds,
    mirror_interval,
    mirror_reply,
    mirror_seat,
)

SOLVED = Path(__file__).parent.parent / "docs" / "solved.json"

SMALL = [(1, 7), (1, 8), (1, 11), (2, 5), (2, 6), (3, 3), (3, 4), (3, 5), (4, 4), (3, 6), (4, 5)]


@pytest.mark.parametrize(("rows", "cols"), SMALL)
def test_no_reply_beats_the_mirror_strategy(rows: int, cols: int) -> None:
    found = check_mirror(rows, cols)
    assert found.lost_to is None
    assert found.positions > 0


@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (3, 3), (2, 5)])
def test_the_check_finds_the_loss_of_a_strategy_that_answers_with_the_other_letter(
    rows: int, cols: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    def other_letter(game: Game) -> Move | None:
        for move in game.legal_moves:
            if game.play(move):
                game.undo()
                return move  # a move that wins
            game.undo()
        last = game.last_move
        assert last is not None
        opposite = Cell(rows - 1 - last.cell.row, cols - 1 - last.cell.col)
        return Move("S" if last.letter == "O" else "O", opposite)

    monkeypatch.setattr(mirror, "mirror_reply", other_letter)
    lost_to = check_mirror(rows, cols).lost_to
    assert lost_to is not None
    # The line it reports is a real loss under the rules.
    game = Game(rows, cols, mode="simple", moves=lost_to)
    assert game.outcome is not None and game.outcome.winner == 1 - mirror_seat(rows, cols)


def test_every_solved_simple_mode_value_lies_within_the_mirror_bounds() -> None:
    solved = [row for row in json.loads(SOLVED.read_text()) if row["mode"] == "simple"]
    assert len(solved) > 30
    for row in solved:
        least, most = mirror_bounds(row["rows"], row["cols"])
        assert least <= row["value"] <= most, row
        if row["value"] == 0 and least == 0:
            # Where the first player can do no better than a draw, O in the centre draws.
            centre = Move("O", Cell(row["rows"] // 2, row["cols"] // 2))
            assert str(centre) in row["best_moves"], row


def test_the_bounds_follow_the_sides() -> None:
    assert mirror_bounds(6, 6) == (-1, 0)
    assert mirror_bounds(5, 6) == (-1, 0)
    assert mirror_bounds(7, 7) == (0, 1)
    assert mirror_seat(3, 5) == 0 and mirror_seat(3, 4) == 1
    with pytest.raises(InvalidSettingsError):
        mirror_bounds(0, 5)


def test_the_strategy_completes_an_sos_before_it_mirrors() -> None:
    game = Game(4, 4, mode="simple", moves=["Sa1"])
    assert mirror_reply(game) == Move("S", Cell(3, 3))
    game = Game(4, 4, mode="simple", moves=["Sa1", "Sd4", "Oa2"])
    assert mirror_reply(game) == Move("S", Cell(2, 0))


def test_the_strategy_opens_in_the_centre_and_answers_opposite() -> None:
    game = Game(3, 5, mode="simple")
    assert mirror_reply(game) == Move("O", Cell(1, 2))
    game.play("Oc2")
    assert mirror_reply(game) is None  # the opponent's turn on a symmetric board
    game.play("Sa1")
    assert mirror_reply(game) == Move("S", Cell(2, 4))


def test_the_strategy_holds_from_any_board_symmetric_but_for_one_letter() -> None:
    # Set up without a history: the reply reads the board, not the moves.
    game = Game.from_position("S..O/..../..../O...", mode="simple")
    assert mirror_reply(game) == Move("S", Cell(3, 3))
    assert mirror_reply(Game.from_position("S..O/..../..../O..O", mode="simple")) is None
    assert mirror_reply(Game.from_position("S.../..../..../...O", mode="simple")) is None
    # Both sides odd: only with the centre taken, since a line runs through it.
    assert mirror_reply(Game.from_position("S../.../...", mode="simple")) is None
    assert mirror_reply(Game.from_position("S../.S./...", mode="simple")) == Move("S", Cell(2, 2))


def test_the_strategy_has_no_move_where_it_does_not_hold() -> None:
    assert mirror_reply(Game(4, 4, mode="simple")) is None
    assert mirror_reply(Game(4, 4, mode="general", moves=["Sa1"])) is None
    assert mirror_reply(Game(4, 4, players=3, mode="simple", moves=["Sa1"])) is None
    assert mirror_reply(Game(3, 3, mode="simple", moves=["Sa1", "Ob1", "Sc1"])) is None


def test_hard_plays_the_mirror_move_where_it_proves_nothing_better() -> None:
    from sosgame.ai.players import make_player

    game = Game(6, 6, mode="simple", moves=["Sc3"])
    assert make_player("hard", nodes=300, seed=1).choose_move(game) == Move.parse("Sd4")


def test_hard_plays_a_proven_win_rather_than_the_mirror_move() -> None:
    from sosgame.ai.players import make_player

    game = Game(3, 4, mode="simple", moves=["Sa1"])
    move = make_player("hard", nodes=200_000, seed=1).choose_move(game)
    assert move in {Move.parse("Sd1"), Move.parse("Sd2")} and move != mirror_reply(game)


@pytest.mark.parametrize(("rows", "cols", "seed"), [(6, 6, 1), (5, 5, 3), (4, 7, 4)])
def test_hard_never_loses_in_the_mirror_seat(rows: int, cols: int, seed: int) -> None:
    # Without the mirror strategy a hard player with 50 nodes a move loses each of these
    # games to one with 3,000; with it, it wins or draws.
    from sosgame.ai.players import make_player

    weak = make_player("hard", nodes=50, seed=seed)
    strong = make_player("hard", nodes=3000, seed=seed + 100)
    seat = mirror_seat(rows, cols)
    game = Game(rows, cols, mode="simple")
    while not game.is_over:
        player = weak if game.turn == seat else strong
        game.play(player.choose_move(game))
    assert game.outcome is not None and game.outcome.winner in (seat, None)


@settings(max_examples=examples(60), deadline=None)
@given(
    size=st.sampled_from([(3, 3), (3, 4), (2, 5), (4, 4), (3, 5)]),
    pairs=st.integers(0, 5),
    extra=st.booleans(),
    chance=st.randoms(use_true_random=False),
)
def test_the_mirror_interval_holds_the_exact_value(
    size: tuple[int, int], pairs: int, extra: bool, chance: random.Random
) -> None:
    # Symmetric boards, with or without one more letter, where the bounds say something.
    rows, cols = size
    game = Game(rows, cols, mode="simple")
    if rows % 2 and cols % 2 and chance.random() < 0.7:
        game.play(Move(chance.choice("SO"), Cell(rows // 2, cols // 2)))
    for _ in range(pairs):
        if game.is_over or len(game.legal_moves) < 2:
            break
        move = chance.choice(list(game.legal_moves))
        opposite = Cell(rows - 1 - move.cell.row, cols - 1 - move.cell.col)
        if opposite == move.cell:
            continue
        game.play(move)
        if not game.is_over:
            game.play(Move(move.letter, opposite))
    if extra and not game.is_over:
        game.play(chance.choice(list(game.legal_moves)))
    assume(not game.is_over)
    low, high = mirror_interval(game.position())
    value = solve(Game.from_position(game.position(), mode="simple"), memory_mb=8).value
    assert low <= value <= high
