"""Invariants of the rules engine on random games of every shape, mode and player count."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from sos_strategies import board_settings, count_sos, random_game
from sosgame import Cell, Game, Move
from sosgame.geometry import geometry
from sosgame.record import Record

seeds = st.integers(0, 2**32 - 1)


@given(board_settings(), seeds)
def test_scores_add_up_to_the_sos_lines_on_the_board(options: dict[str, object], seed: int) -> None:
    rng = random.Random(seed)
    game = random_game(options, 0, limit=0)
    while not game.is_over:
        game.play(rng.choice(list(game.legal_moves)))
        assert sum(game.scores) == len(game.lines) == count_sos(game.position())


@given(board_settings(), seeds)
def test_every_line_belongs_to_the_seat_that_moved_at_its_ply(
    options: dict[str, object], seed: int
) -> None:
    rng = random.Random(seed)
    game = random_game(options, 0, limit=0)
    movers = []
    while not game.is_over:
        movers.append(game.turn)
        game.play(rng.choice(list(game.legal_moves)))
    for line in game.lines:
        assert line.ply is not None and line.owner == movers[line.ply - 1]
        letters = "".join(game.letter_at(cell) or "." for cell in line.cells)
        assert letters == "SOS"


@given(board_settings(), seeds)
def test_a_scoring_move_keeps_the_turn_and_a_quiet_one_passes_it(
    options: dict[str, object], seed: int
) -> None:
    rng = random.Random(seed)
    game = random_game(options, 0, limit=0)
    while not game.is_over:
        mover = game.turn
        lines = game.play(rng.choice(list(game.legal_moves)))
        if game.is_over:
            break
        if lines:
            assert game.turn == mover and game.extra_turn
        else:
            assert game.turn == (mover + 1) % game.players and not game.extra_turn


@given(board_settings(), seeds, st.integers(0, 3))
def test_undo_restores_the_exact_state(
    options: dict[str, object], seed: int, resignations: int
) -> None:
    rng = random.Random(seed)
    game = random_game(options, 0, limit=0)
    snapshots = [(game.copy(), repr(game), game.position(), game.scores, game.lines, game.turn)]
    while not game.is_over:
        if resignations and rng.random() < 0.1:
            game.resign(rng.choice(game.active_seats))
            resignations -= 1
        else:
            game.play(rng.choice(list(game.legal_moves)))
        snapshots.append(
            (game.copy(), repr(game), game.position(), game.scores, game.lines, game.turn)
        )
    for copy, text, position, scores, lines, turn in reversed(snapshots[:-1]):
        game.undo()
        assert game == copy
        assert (repr(game), game.position(), game.scores, game.lines, game.turn) == (
            text,
            position,
            scores,
            lines,
            turn,
        )
        assert game.outcome is copy.outcome or game.outcome == copy.outcome


@given(board_settings(), seeds)
def test_the_text_forms_round_trip(options: dict[str, object], seed: int) -> None:
    game = random_game(options, seed)
    for move in game.moves:
        assert Move.parse(str(move)) == move
    again = Game.from_position(
        game.position(), players=game.players, mode="general", turn=game.turn, scores=game.scores
    )
    assert again.position() == game.position()
    assert len(again.lines) == len(game.lines)
    assert eval(repr(game)) == game


@settings(max_examples=50)
@given(board_settings(), seeds, st.integers(0, 40))
def test_a_record_saved_and_loaded_replays_to_the_same_game(
    options: dict[str, object], seed: int, limit: int
) -> None:
    game = random_game(options, seed, limit=limit)
    names = [f"Seat {seat}" for seat in range(game.players)]
    record = Record.from_game(game, players=names, meta={"event": "property test"})
    loaded = Record.from_json(record.to_json())
    assert loaded == record
    assert loaded.to_game() == game
    assert loaded.to_json() == record.to_json()


@given(board_settings(max_players=3), seeds)
def test_legal_moves_are_exactly_the_empty_cells_with_each_letter(
    options: dict[str, object], seed: int
) -> None:
    game = random_game(options, seed, limit=random.Random(seed).randrange(0, 20))
    expected = [] if game.is_over else [Move(l, c) for c in game.empty_cells() for l in "SO"]  # noqa: E741
    assert list(game.legal_moves) == expected
    assert len(game.legal_moves) == len(expected)
    assert all(move in game.legal_moves for move in expected)


def _moves_from_the_position(game: Game) -> list[Move]:
    # An oracle independent of the engine's own bookkeeping: scan the position's text.
    if game.is_over:
        return []
    rows = game.position().split("/")
    return [
        Move(letter, Cell(row, col))  # type: ignore[arg-type]
        for row, text in enumerate(rows)
        for col, char in enumerate(text)
        if char == "."
        for letter in "SO"
    ]


@given(board_settings(), seeds)
def test_legal_moves_stay_right_through_plays_undos_and_reads_at_any_time(
    options: dict[str, object], seed: int
) -> None:
    rng = random.Random(seed)
    game = random_game(options, 0, limit=0)
    view = game.legal_moves  # taken once: a live view must follow every change
    for _ in range(3 * game.rows * game.cols):
        if game.actions and rng.random() < 0.3:
            game.undo()
        elif not game.is_over:
            game.play(view[rng.randrange(len(view))])
        if rng.random() < 0.5:
            expected = _moves_from_the_position(game)
            assert list(view) == expected == list(game.legal_moves)
            assert len(view) == len(expected)
            if expected:
                assert view[-1] == expected[-1] and view[1:3] == expected[1:3]
    copy = game.copy()
    assert list(copy.legal_moves) == list(view)
    if not copy.is_over:
        copy.play(copy.legal_moves[0])
        assert list(view) == _moves_from_the_position(game)


@given(board_settings(max_side=8))
def test_the_engine_s_plain_tables_agree_with_the_lines_of_the_board(
    options: dict[str, object],
) -> None:
    # The plain-tuple tables Game.play loops over, against the board's lines themselves.
    shape = geometry(int(options["rows"]), int(options["cols"]))  # type: ignore[call-overload]
    for index in range(shape.size):
        ends = {(m, e) for s, m, e in shape.lines if s == index}
        ends |= {(m, s) for s, m, e in shape.lines if e == index}
        middles = {(s, e) for s, m, e in shape.lines if m == index}
        assert {(first, second) for first, second, _ in shape.s_triples[index]} == ends
        assert {(first, second) for first, second, _ in shape.o_triples[index]} == middles
        for first, second, cells in (*shape.s_triples[index], *shape.o_triples[index]):
            line = sorted({index, first, second})
            assert cells == tuple(shape.cells[k] for k in line)
        assert shape.s_triples[index] == tuple(map(tuple, shape.s_patterns[index]))
        assert shape.o_triples[index] == tuple(map(tuple, shape.o_patterns[index]))
    assert list(shape.all_moves) == [Move(l, c) for c in shape.cells for l in "SO"]  # noqa: E741


@given(board_settings(), seeds, st.integers(0, 30))
def test_legal_moves_of_a_game_set_up_from_a_position_follow_plays_and_undos(
    options: dict[str, object], seed: int, limit: int
) -> None:
    played = random_game({**options, "mode": "general"}, seed, limit=limit)
    if played.is_over:
        return
    rng = random.Random(seed)
    game = Game.from_position(
        played.position(), players=played.players, scores=played.scores, turn=played.turn
    )
    assert list(game.legal_moves) == _moves_from_the_position(game)
    for _ in range(game.rows * game.cols):
        if game.actions and rng.random() < 0.3:
            game.undo()
        elif not game.is_over:
            game.play(rng.choice(list(game.legal_moves)))
        if rng.random() < 0.5:
            assert list(game.legal_moves) == _moves_from_the_position(game)


@given(board_settings(), seeds)
def test_a_move_plays_the_same_as_the_boards_own_object_as_an_equal_copy_and_as_text(
    options: dict[str, object], seed: int
) -> None:
    # The engine finds the moves it hands out by identity, and any other move by its cell.
    rng = random.Random(seed)
    own, copied, texted = (random_game(options, 0, limit=0) for _ in range(3))
    while not own.is_over:
        move = rng.choice(list(own.legal_moves))
        lines = own.play(move)
        assert copied.play(Move(str(move.letter), Cell(move.cell.row, move.cell.col))) == lines
        assert texted.play(str(move).lower()) == lines
        assert own == copied == texted
    board_moves = geometry(own.rows, own.cols).moves
    for stored in (*copied.moves, *texted.moves):
        assert (
            stored
            is board_moves[stored.cell.row * own.cols + stored.cell.col][stored.letter == "O"]
        )
