"""The mirror strategy: it never loses a simple-mode game, and its bounds agree with the solves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sosgame import Game
from sosgame.errors import IllegalMoveError, InvalidSettingsError
from sosgame.notation import Cell, Move
from sosgame.solver import mirror
from sosgame.solver.mirror import check_mirror, mirror_bounds, mirror_move, mirror_seat

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
    sound = mirror_move

    def other_letter(game: Game) -> Move:
        move, last = sound(game), game.last_move
        if last is None or move.cell != Cell(rows - 1 - last.cell.row, cols - 1 - last.cell.col):
            return move  # the opening, or a move that wins
        return Move("S" if move.letter == "O" else "O", move.cell)

    monkeypatch.setattr(mirror, "mirror_move", other_letter)
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
    assert mirror_move(game) == Move("S", Cell(3, 3))
    game = Game(4, 4, mode="simple", moves=["Sa1", "Sd4", "Oa2"])
    assert mirror_move(game) == Move("S", Cell(2, 0))


def test_the_strategy_opens_in_the_centre_and_answers_opposite() -> None:
    game = Game(3, 5, mode="simple")
    assert mirror_move(game) == Move("O", Cell(1, 2))
    game.play(mirror_move(game))
    game.play("Sa1")
    assert mirror_move(game) == Move("S", Cell(2, 4))


def test_the_strategy_refuses_a_game_it_did_not_play() -> None:
    with pytest.raises(IllegalMoveError, match="answers"):
        mirror_move(Game(4, 4, mode="simple"))
    with pytest.raises(IllegalMoveError, match="did not follow"):
        mirror_move(Game(4, 4, mode="simple", moves=["Sd4", "Oa1"]))
    over = Game(3, 3, mode="simple", moves=["Sa1", "Ob1", "Sc1"])
    with pytest.raises(IllegalMoveError, match="over"):
        mirror_move(over)
