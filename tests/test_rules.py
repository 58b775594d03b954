"""Hand-made cases for every rule: scoring, extra turns, endings, seats and resignations."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from sosgame import (
    Cell,
    Game,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidSettingsError,
    Move,
    NothingToUndoError,
    OccupiedCellError,
    OffBoardError,
    Resignation,
    SosError,
    Termination,
)


def cells_of(lines: tuple[object, ...]) -> set[str]:
    return {str(line) for line in lines}


def test_an_s_can_complete_eight_lines_at_once() -> None:
    game = Game.from_position("S.S.S/.OOO./SO.OS/.OOO./S.S.S")
    lines = game.play("Sc3")
    assert len(lines) == 8
    assert {line.cells[0] if line.cells[0] != Cell(2, 2) else line.cells[2] for line in lines} == {
        Cell(r, c) for r in (0, 2, 4) for c in (0, 2, 4) if (r, c) != (2, 2)
    }
    assert game.scores == (8, 0)
    assert game.turn == 0


def test_an_o_can_complete_four_lines_at_once() -> None:
    game = Game.from_position("SSS/S.S/SSS", turn=1)
    lines = game.play("Ob2")
    assert cells_of(lines) == {"a1-b2-c3", "c1-b2-a3", "a2-b2-c2", "b1-b2-b3"}
    assert game.scores == (0, 4)


def test_a_corner_s_completes_the_three_lines_through_the_corner() -> None:
    game = Game.from_position(".OS/OO./S.S")
    assert cells_of(game.play("Sa1")) == {"a1-b1-c1", "a1-a2-a3", "a1-b2-c3"}


def test_overlapping_lines_sharing_a_cell_each_count() -> None:
    game = Game(1, 5)
    for move in ("Sa1", "Ob1"):
        assert game.play(move) == ()
    assert cells_of(game.play("Sc1")) == {"a1-b1-c1"}
    assert game.turn == 0, "a scoring move keeps the turn: seat 0 scored"
    assert game.play("Od1") == ()
    assert cells_of(game.play("Se1")) == {"c1-d1-e1"}
    assert game.scores == (1, 1)
    assert game.position() == "SOSOS"
    assert game.outcome is not None and game.outcome.is_draw


def test_a_scoring_move_keeps_the_turn_and_a_quiet_move_passes_it() -> None:
    game = Game(3, 3)
    game.play("Sa1")
    assert game.turn == 1
    game.play("Ob1")
    assert game.turn == 0
    game.play("Sc1")
    assert (game.turn, game.extra_turn) == (0, True)
    game.play("Sb2")
    assert (game.turn, game.extra_turn) == (1, False)


def test_lines_remember_owner_ply_and_cells() -> None:
    game = Game(3, 3, moves=["Sa1", "Ob1", "Sc1"])
    (line,) = game.lines
    assert (line.owner, line.ply, line.cells) == (0, 3, (Cell(0, 0), Cell(0, 1), Cell(0, 2)))


@pytest.mark.parametrize(
    ("rows", "cols", "moves", "expected"),
    [
        (1, 3, ["Sa1", "Sc1", "Ob1"], {"a1-b1-c1"}),
        (3, 1, ["Sa1", "Sa3", "Oa2"], {"a1-a2-a3"}),
        (2, 4, ["Sa1", "Sa2", "Oc2", "Ob1"], set()),
        (2, 4, ["Sa2", "Ob2", "Sd1"], set()),
        (2, 4, ["Sb2", "Oc2", "Sd2"], {"b2-c2-d2"}),
        (3, 5, ["Se1", "Od2", "Sc3"], {"e1-d2-c3"}),
        (5, 3, ["Sc5", "Ob4", "Sa3"], {"a3-b4-c5"}),
    ],
)
def test_edges_of_rectangular_and_thin_boards(
    rows: int, cols: int, moves: list[str], expected: set[str]
) -> None:
    game = Game(rows, cols)
    *setup, last = moves
    for move in setup:
        game.play(move)
    assert cells_of(game.play(last)) == expected


def test_general_mode_ends_on_a_full_board_and_most_points_wins() -> None:
    game = Game.from_position("SOS.", scores=(1, 0), turn=1)
    assert not game.is_over
    game.play("Sd1")
    assert game.is_over
    assert game.outcome is not None
    assert game.outcome.termination is Termination.FULL_BOARD
    assert game.outcome.winners == (0,)
    assert game.outcome.winner == 0


def test_general_mode_tie_for_the_most_is_a_draw_between_the_tied_seats() -> None:
    game = Game.from_position("SOS.SOS", players=3, scores=(1, 0, 1))
    game.play("Sd1")
    assert game.outcome is not None
    assert game.scores == (1, 0, 1)
    assert game.outcome.winners == (0, 2)
    assert game.outcome.is_draw and game.outcome.winner is None


def test_a_line_and_an_outcome_read_as_the_json_every_interface_sends() -> None:
    game = Game(3, 3, mode="simple", moves=["Sa1", "Ob1"])
    game.play("Sc1")
    assert game.outcome is not None
    assert [line.to_dict() for line in game.lines] == [
        {"owner": 0, "ply": 3, "cells": ["a1", "b1", "c1"]}
    ]
    assert game.outcome.to_dict() == {"termination": "sos", "winners": [0]}


def test_simple_mode_first_sos_wins_at_once() -> None:
    game = Game(3, 3, mode="simple", moves=["Sa1", "Ob1"])
    game.play("Sc1")
    assert game.outcome is not None
    assert (game.outcome.termination, game.outcome.winners) == (Termination.SOS, (0,))
    with pytest.raises(GameOverError, match="the game is over"):
        game.play("Sa3")
    assert len(game.legal_moves) == 0 and list(game.legal_moves) == []


def test_simple_mode_full_board_without_sos_is_a_draw_between_all_seats() -> None:
    game = Game.from_position("OOO/OOO/OO.", players=3, mode="simple")
    game.play("Oc3")
    assert game.outcome is not None
    assert game.outcome.termination is Termination.FULL_BOARD
    assert game.outcome.winners == (0, 1, 2)


def test_simple_mode_position_holding_an_sos_is_rejected() -> None:
    with pytest.raises(InvalidPositionError, match="already holds an SOS"):
        Game.from_position("SOS/.../...", mode="simple")


def test_three_players_take_turns_in_seat_order() -> None:
    game = Game(4, 4, players=3)
    seen = []
    for move in ("Sa1", "Sa4", "Sd4", "Sd1"):
        seen.append(game.turn)
        game.play(move)
    assert seen == [0, 1, 2, 0]
    assert game.turn == 1


def test_two_player_resignation_makes_the_other_player_win() -> None:
    game = Game(3, 3, moves=["Sa1"])
    game.resign()
    assert game.outcome is not None
    assert (game.outcome.termination, game.outcome.winners) == (Termination.RESIGNATION, (0,))
    with pytest.raises(GameOverError):
        game.play("Ob2")


def test_multi_player_resigner_leaves_and_the_game_goes_on() -> None:
    game = Game(3, 3, players=3)
    game.resign(1)
    assert not game.is_over
    assert game.active_seats == (0, 2)
    game.play("Sa1")
    assert game.turn == 2, "seat 1 left the turn order"
    game.resign()  # seat 2, the seat to move
    assert game.outcome is not None
    assert (game.outcome.termination, game.outcome.winners) == (Termination.RESIGNATION, (0,))


def test_the_seat_to_move_resigning_passes_the_turn() -> None:
    game = Game(3, 3, players=4)
    game.resign(0)
    assert game.turn == 1
    game.play("Sa1")
    game.play("Sb1")
    game.play("Sc1")
    assert game.turn == 1


def test_a_resigner_cannot_win_even_with_the_most_points() -> None:
    game = Game.from_position("SOS/SOS/...", players=3, scores=(2, 0, 0))
    game.resign(0)
    assert game.turn == 1
    for move in ("Oa3", "Ob3", "Oc3"):
        game.play(move)
    assert game.outcome is not None
    assert game.outcome.winners == (1, 2)


def test_resignation_errors_name_the_seat() -> None:
    game = Game(3, 3, players=3)
    game.resign(2)
    before = game.copy()
    with pytest.raises(IllegalMoveError, match="seat 2 has already resigned"):
        game.resign(2)
    with pytest.raises(IllegalMoveError, match="seats go from 0 to 2"):
        game.resign(3)
    with pytest.raises(IllegalMoveError, match="seats go from 0 to 2"):
        game.resign(True)  # type: ignore[arg-type]
    assert game == before


def test_undo_takes_back_resignations_and_moves() -> None:
    game = Game(3, 3, players=3, moves=["Sa1", "resign:0", "Ob1"])
    assert game.undo() == Move.parse("Ob1")
    assert game.undo() == Resignation(0)
    assert game.active_seats == (0, 1, 2)
    assert game.turn == 1
    assert game.undo() == Move.parse("Sa1")
    assert game == Game(3, 3, players=3)
    with pytest.raises(NothingToUndoError):
        game.undo()


def test_undo_after_the_end_reopens_the_game() -> None:
    game = Game(3, 3, mode="simple", moves=["Sa1", "Ob1", "Sc1"])
    game.undo()
    assert game.outcome is None and game.scores == (0, 0) and game.lines == ()
    assert game.turn == 0


@pytest.mark.parametrize(
    ("move", "error", "words"),
    [
        ("Sa1", OccupiedCellError, "a1 already holds S"),
        ("Od4", OffBoardError, "d4 is off the 3x3 board"),
        ("Xa1", InvalidMoveError, "must start with the letter S or O"),
        (Move("s", Cell(1, 1)), InvalidMoveError, "the letter must be 'S' or 'O'"),  # type: ignore[arg-type]
        (Move("S", (1, "x")), InvalidMoveError, "its cell must be a Cell"),  # type: ignore[arg-type]
        (Move("S", [1, 1]), InvalidMoveError, "its cell must be a Cell"),  # type: ignore[arg-type]
        (Move("O", Cell(3, 0)), OffBoardError, "Oa4: a4 is off the 3x3 board"),
        (Move("O", Cell(0, -1)), OffBoardError, "is off the 3x3 board"),
        (42, InvalidMoveError, "not 42"),
    ],
)
def test_illegal_moves_raise_and_change_nothing(
    move: object, error: type[Exception], words: str
) -> None:
    game = Game(3, 3, moves=["Sa1", "Ob1"])
    before = game.copy()
    with pytest.raises(error, match=words):
        game.play(move)  # type: ignore[arg-type]
    assert game == before
    assert repr(game) == repr(before)


def test_a_look_alike_cell_is_stored_as_the_boards_own_move() -> None:
    game = Game(3, 3)
    game.play(Move("S", (1, 2)))  # type: ignore[arg-type]
    (stored,) = game.moves
    assert stored == Move.parse("Sc2") and type(stored.cell) is Cell
    assert str(stored) == "Sc2"


def test_play_all_rolls_back_when_an_entry_fails() -> None:
    game = Game(3, 3, moves=["Sa1"])
    before = game.copy()
    with pytest.raises(OccupiedCellError, match="ply 3: cannot play Sa1"):
        game.play_all(["Ob1", "Sa1"])
    assert game == before
    with pytest.raises(InvalidMoveError, match="ply 2"):
        game.play_all(["bogus"])
    assert game == before


@pytest.mark.parametrize(
    ("kwargs", "words", "field"),
    [
        ({"rows": 2, "cols": 2}, "too small", "rows"),
        ({"rows": 0, "cols": 3}, "rows must be from 1 to 26", "rows"),
        ({"rows": 3, "cols": 27}, "cols must be from 1 to 26", "cols"),
        ({"rows": 3.0, "cols": 3}, "rows must be a whole number", "rows"),
        ({"rows": 3, "cols": 3, "players": 1}, "players must be from 2 to 8", "players"),
        ({"rows": 3, "cols": 3, "players": 9}, "players must be from 2 to 8", "players"),
        ({"rows": 3, "cols": 3, "mode": "misere"}, "mode must be 'general' or 'simple'", "mode"),
    ],
)
def test_bad_settings_are_rejected_naming_the_field(
    kwargs: dict[str, object], words: str, field: str | None
) -> None:
    with pytest.raises(InvalidSettingsError, match=words) as caught:
        Game(**kwargs)  # type: ignore[arg-type]
    assert caught.value.field == field


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"turn": 2}, "turn must be a seat from 0 to 1"),
        ({"scores": (1, 1)}, "scores add up to 2 but the board holds 1 SOS line"),
        ({"scores": (1,)}, "one number per seat"),
        ({"scores": (-1, 2)}, r"scores\[0\] must be a whole number of at least 0"),
        ({"scores": 5}, "scores must be a list of numbers"),
    ],
)
def test_bad_position_settings_are_rejected(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(InvalidSettingsError, match=words):
        Game.from_position("SOS/.../...", **kwargs)  # type: ignore[arg-type]


def test_lines_already_on_a_set_up_board_have_no_owner() -> None:
    game = Game.from_position("SOS/.O./S.S", scores=(2, 1), turn=1)
    assert [(line.owner, line.ply) for line in game.lines] == [(None, None)] * 3
    assert game.scores == (2, 1)
    assert game.turn == 1
    assert game.start == ("SOS/.O./S.S", 1, (2, 1))


def test_a_full_set_up_board_is_a_finished_game() -> None:
    game = Game.from_position("SOS/OOO/SOS", scores=(3, 3))
    assert game.outcome is not None
    assert game.outcome.winners == (0, 1)
    assert not game.legal_moves


def test_legal_moves_is_a_live_view() -> None:
    game = Game(3, 3)
    moves = game.legal_moves
    assert len(moves) == 18
    assert "Sa1" in moves and Move.parse("Oc3") in moves
    game.play("Sa1")
    assert len(moves) == 16
    assert "Sa1" not in moves and "Oa1" not in moves
    assert "Sz9" not in moves and "junk" not in moves and 5 not in moves
    assert list(moves)[:2] == [Move.parse("Sb1"), Move.parse("Ob1")]
    assert "16" in repr(moves)


def test_legal_moves_is_a_sequence_random_choice_can_use_without_a_copy() -> None:
    game = Game(3, 3, moves=["Sb2"])
    moves = game.legal_moves
    assert isinstance(moves, Sequence)
    assert moves[0] == Move.parse("Sa1") and moves[-1] == Move.parse("Oc3")
    assert moves[2:4] == [Move.parse("Sb1"), Move.parse("Ob1")]
    assert moves.index(Move.parse("Oc3")) == 15 and moves.count(Move.parse("Sb2")) == 0
    assert random.Random(3).choice(moves) in moves
    assert len(random.Random(3).sample(moves, 16)) == 16
    with pytest.raises(IndexError, match="index 16 is out of range: there are 16"):
        moves[16]
    game.play("Sa1")
    assert moves[0] == Move.parse("Sb1")


def test_a_move_with_a_plain_tuple_cell_is_in_legal_moves_exactly_when_play_takes_it() -> None:
    game = Game(3, 3)
    candidates = [
        Move("S", (0, 0)),  # type: ignore[arg-type]
        Move("O", (2, 2)),  # type: ignore[arg-type]
        Move("S", (3, 0)),  # type: ignore[arg-type]
        Move("S", (-1, 0)),  # type: ignore[arg-type]
        Move("S", [0, 0]),  # type: ignore[arg-type]
        Move("s", Cell(0, 1)),  # type: ignore[arg-type]
    ]
    for move in candidates:
        listed = move in game.legal_moves
        try:
            game.play(move)
        except SosError:
            accepted = False
        else:
            accepted = True
            game.undo()
        assert listed == accepted, move
    assert [move in game.legal_moves for move in candidates] == [True, True] + [False] * 4


def test_reading_the_board() -> None:
    game = Game(3, 3, moves=["Sa1", "Ob2"])
    assert game.letter_at("a1") == "S"
    assert game.letter_at(Cell(1, 1)) == "O"
    assert game.letter_at("c3") is None
    assert game.empty_cells()[0] == Cell(0, 1)
    assert game.last_move == Move.parse("Ob2")
    assert game.moves == (Move.parse("Sa1"), Move.parse("Ob2"))
    with pytest.raises(ValueError, match="off the 3x3 board"):
        game.letter_at("d1")


def test_repr_reads_back() -> None:
    for game in (
        Game(4, 5),
        Game(3, 3, players=3, mode="simple", moves=["Sa1", "resign:1", "Ob2"]),
        Game.from_position("SOS/.../...", turn=1, scores=(0, 1), moves=["Oa2"]),
    ):
        assert eval(repr(game)) == game


def test_copy_is_independent() -> None:
    game = Game(3, 3, moves=["Sa1"])
    other = game.copy()
    other.play("Ob1")
    assert game.ply == 1 and other.ply == 2
    assert game != other


def test_movers_name_the_seat_behind_each_action_through_extra_turns_and_resignations() -> None:
    game = Game(rows=3, cols=3, players=3)
    game.play("Sa1")  # seat 0
    game.play("Oa2")  # seat 1
    game.play("Sa3")  # seat 2 completes S-O-S and moves again
    game.play("Sc3")
    game.resign(1)  # out of turn: seat 1 leaves while seat 0 is to move
    game.play("Sb2")
    assert game.movers == (0, 1, 2, 2, 1, 0)
    assert len(game.movers) == len(game.actions)
    game.undo()
    assert game.movers == (0, 1, 2, 2, 1)
