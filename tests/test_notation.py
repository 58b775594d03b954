"""Text forms of cells, moves, resignations and positions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sosgame import (
    Cell,
    InvalidCellError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Resignation,
    format_position,
    parse_action,
    parse_position,
)
from sosgame.notation import parse_size

cells = st.builds(Cell, st.integers(0, 25), st.integers(0, 25))
moves = st.builds(Move, st.sampled_from(["S", "O"]), cells)


def test_a1_is_the_top_left_cell_and_c2_is_row_2_column_3() -> None:
    assert Cell.parse("a1") == Cell(0, 0)
    assert Cell.parse("c2") == Cell(row=1, col=2)
    assert str(Cell(1, 2)) == "c2"
    assert str(Cell(25, 25)) == "z26"


def test_move_text_is_case_insensitive_and_output_is_canonical() -> None:
    assert Move.parse("sb3") == Move("S", Cell(2, 1))
    assert str(Move.parse(" oA1 ")) == "Oa1"
    assert str(Move.parse("SZ26")) == "Sz26"


@given(cells)
def test_cells_round_trip(cell: Cell) -> None:
    assert Cell.parse(str(cell)) == cell
    assert Cell.parse(str(cell).upper()) == cell


@given(moves)
def test_moves_round_trip_and_repr_reads_back(move: Move) -> None:
    assert Move.parse(str(move)) == move
    assert eval(repr(move)) == move


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "is not a cell"),
        ("b", "is not a cell"),
        ("3b", "is not a cell"),
        ("b0", "is not a cell"),
        ("b03", "is not a cell"),
        ("b27", "row numbers go from 1 to 26"),
        ("bb3", "is not a cell"),
        ("é3", "is not a cell"),
    ],
)
def test_bad_cells_are_rejected_with_the_reason(text: str, words: str) -> None:
    with pytest.raises(InvalidCellError, match=words):
        Cell.parse(text)


def test_a_cell_must_be_text() -> None:
    with pytest.raises(InvalidCellError, match="not int"):
        Cell.parse(3)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "must start with the letter S or O"),
        ("Xb3", "must start with the letter S or O"),
        ("S", "is not a cell"),
        ("Sb", "is not a cell"),
        ("Sb99", "is not a cell"),
        ("SOb3", "is not a cell"),
    ],
)
def test_bad_moves_are_rejected_with_the_reason(text: str, words: str) -> None:
    with pytest.raises(InvalidMoveError, match=words):
        Move.parse(text)


def test_resignations_have_a_text_form() -> None:
    assert Resignation.parse("resign:1") == Resignation(1)
    assert str(Resignation(3)) == "resign:3"
    assert parse_action("RESIGN:0") == Resignation(0)
    assert parse_action("Oc3") == Move("O", Cell(2, 2))
    for text in ("resign", "resign:", "resign:x", "resign:-1", "resign:\u0661"):
        with pytest.raises(InvalidMoveError, match="not a resignation"):
            parse_action(text)


def test_positions_parse_into_rows_and_format_back() -> None:
    grid = parse_position("S.O/.../oss")
    assert grid == [["S", ".", "O"], [".", ".", "."], ["O", "S", "S"]]
    assert format_position([letter for row in grid for letter in row], 3) == "S.O/.../OSS"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("S.O/../OSS", "row 2 has 2 cells but row 1 has 3"),
        ("S.O/.X./OSS", "row 2, column b holds 'X'"),
        ("SO/..", "the longer side must be at least 3"),
        ("." * 27, "cols must be from 1 to 26"),
        ("/".join(["..."] * 27), "rows must be from 1 to 26"),
        ("", "the position is empty"),
    ],
)
def test_bad_positions_name_the_row_and_column(text: str, words: str) -> None:
    with pytest.raises(InvalidPositionError, match=words):
        parse_position(text)


@given(st.integers(1, 8), st.integers(3, 8), st.randoms())
def test_positions_round_trip(rows: int, cols: int, rng: object) -> None:
    import random

    assert isinstance(rng, random.Random)
    cells = [rng.choice("SO.") for _ in range(rows * cols)]
    text = format_position(cells, cols)
    assert format_position([c for row in parse_position(text) for c in row], cols) == text


@pytest.mark.parametrize(
    ("text", "size"),
    [("4x5", (4, 5)), (" 10 X 3 ", (10, 3)), ("4x", None), ("x5", None), ("S.O/...", None)],
)
def test_a_board_size_is_rows_x_columns(text: str, size: tuple[int, int] | None) -> None:
    assert parse_size(text) == size
