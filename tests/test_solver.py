"""The solver agrees with a plain minimax over the engine, and rejects what it cannot solve."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sos_strategies import minimax_move_value, minimax_value
from sosgame import Game, GameOverError, InvalidSettingsError, Move
from sosgame.game import Mode
from sosgame.solver import NodeLimitError, TimeLimitError, TranspositionTable, solve
from sosgame.symmetry import symmetries

ROOT = Path(__file__).resolve().parent.parent
SIZES = [(1, 3), (1, 4), (1, 5), (1, 6), (1, 7), (2, 3), (2, 4), (3, 1), (3, 2), (3, 3)]


@st.composite
def positions(draw: st.DrawFn, max_empty: int = 7) -> Game:
    rows, cols = draw(st.sampled_from(SIZES))
    mode = draw(st.sampled_from(["general", "simple"]))
    game = Game(rows, cols, mode=mode)
    keep = draw(st.integers(1, max_empty))
    while not game.is_over and rows * cols - game.ply > keep:
        moves = list(game.legal_moves)
        game.play(moves[draw(st.integers(0, len(moves) - 1))])
    if game.is_over:
        return Game(rows, min(cols, 3) if rows == 1 else cols, mode=mode)
    return Game.from_position(game.position(), mode=mode)


@settings(max_examples=150, deadline=None)
@given(game=positions())
def test_value_and_best_moves_match_plain_minimax(game: Game) -> None:
    values = {move: minimax_move_value(game, move) for move in list(game.legal_moves)}
    best = max(values.values())
    solution = solve(game, memory_mb=4)
    assert solution.value == best
    assert list(solution.best_moves) == sorted(
        (move for move, value in values.items() if value == best), key=Move.sort_key
    )
    assert solution.nodes > 0 and solution.seconds >= 0


@settings(max_examples=40, deadline=None)
@given(game=positions(max_empty=9))
def test_symmetric_positions_have_the_same_value(game: Game) -> None:
    cells = [char for char in game.position() if char != "/"]
    values = set()
    for image in symmetries(game.rows, game.cols):
        moved = ["."] * len(cells)
        for cell, target in enumerate(image):
            moved[target] = cells[cell]
        text = "/".join(
            "".join(moved[r * game.cols : (r + 1) * game.cols]) for r in range(game.rows)
        )
        values.add(solve(Game.from_position(text, mode=game.mode), memory_mb=4).value)
    assert len(values) == 1


@pytest.mark.parametrize(("rows", "cols", "count"), [(3, 3, 8), (3, 4, 4), (1, 5, 2), (5, 1, 2)])
def test_symmetries_map_lines_to_lines(rows: int, cols: int, count: int) -> None:
    from sosgame.geometry import geometry

    lines = {frozenset((a, c)) | {b + 1000} for a, b, c in geometry(rows, cols).lines}
    found = symmetries(rows, cols)
    assert len(found) == count and found[0] == tuple(range(rows * cols))
    for image in found:
        assert {
            frozenset((image[a], image[c])) | {image[b] + 1000}
            for a, b, c in geometry(rows, cols).lines
        } == lines


@pytest.mark.parametrize("mode", ["general", "simple"])
def test_known_small_boards(mode: Mode) -> None:
    for rows, cols in [(1, 3), (1, 4), (2, 3), (3, 3)]:
        game = Game(rows, cols, mode=mode)
        assert solve(game, memory_mb=16).value == minimax_value(game.position(), mode)


def test_docstring_examples() -> None:
    import doctest

    import sosgame.solver

    result = doctest.testmod(sosgame.solver)
    assert result.attempted > 0 and result.failed == 0


def test_a_reused_table_gives_the_same_answers_with_less_work() -> None:
    table = TranspositionTable(8)
    game = Game(3, 4)
    first = solve(game, table=table)
    again = solve(game, table=table)
    assert again.value == first.value and again.best_moves == first.best_moves
    assert again.nodes < first.nodes
    simple = solve(Game(3, 4, mode="simple"), table=table)
    assert simple == solve(Game(3, 4, mode="simple"), memory_mb=8)._replace(seconds=simple.seconds)


def test_the_game_is_left_as_it_was() -> None:
    game = Game(3, 3, moves=["Sa1", "Ob2", "Sc3"])
    before = game.copy()
    solve(game)
    assert game == before


def test_a_position_on_a_large_board_with_few_empty_cells() -> None:
    rows = ["SOSOSOSOSO"] * 10
    rows[4] = "SO...OSOSO"
    rows[7] = "S.SOSOSOSO"
    game = Game.from_position("/".join(rows))
    values = {move: minimax_move_value(game, move) for move in list(game.legal_moves)}
    solution = solve(game)
    assert solution.value == max(values.values())


def test_more_than_two_players_is_rejected() -> None:
    with pytest.raises(InvalidSettingsError, match="two players"):
        solve(Game(3, 3, players=3))


def test_a_finished_game_is_rejected() -> None:
    with pytest.raises(GameOverError, match="over"):
        solve(Game(1, 3, moves=["Sa1", "Ob1", "Sc1"], mode="simple"))
    with pytest.raises(GameOverError, match="over"):
        solve(Game.from_position("SOS/OSO/SOS"))


def test_too_many_empty_cells_is_rejected() -> None:
    with pytest.raises(InvalidSettingsError, match="empty cells"):
        solve(Game(7, 7))


def test_a_node_limit_stops_the_search() -> None:
    with pytest.raises(NodeLimitError) as raised:
        solve(Game(4, 4), node_limit=1000, memory_mb=4)
    assert raised.value.nodes == 1000
    assert solve(Game(1, 4), node_limit=10_000).value == 0


@pytest.mark.parametrize("memory", [1, 8, 64])
def test_the_table_stays_within_its_memory(memory: int) -> None:
    table = TranspositionTable(memory)
    used = len(table.keys) * 8 + len(table.data)
    assert memory * (1 << 20) - 64 <= used <= memory * (1 << 20)
    solve(Game(3, 4), table=table)
    assert len(table.keys) * 8 + len(table.data) == used


@pytest.mark.parametrize("memory", [0, -5, 10**9, "64", True])
def test_bad_memory_sizes_are_rejected(memory: object) -> None:
    with pytest.raises(InvalidSettingsError, match="memory"):
        solve(Game(3, 3), memory_mb=memory)  # type: ignore[arg-type]


def test_a_time_limit_stops_the_search_and_keeps_its_work() -> None:
    table = TranspositionTable(8)
    with pytest.raises(TimeLimitError) as raised:
        solve(Game(4, 5), seconds=0.02, table=table)
    assert raised.value.nodes > 0
    assert "0.02 s" in str(raised.value)
    # A generous limit changes nothing: the same value and best moves as without one.
    game = Game(3, 4, moves=["Sa1"])
    assert solve(game, seconds=600)[:2] == solve(game)[:2]


@pytest.mark.parametrize("seconds", [0, -1, math.nan, math.inf, "1", True])
def test_bad_time_limits_are_rejected(seconds: object) -> None:
    with pytest.raises(InvalidSettingsError, match="seconds"):
        solve(Game(3, 3), seconds=seconds)  # type: ignore[arg-type]


@pytest.mark.parametrize("limit", [0, -1, 2.5, "100"])
def test_bad_node_limits_are_rejected(limit: object) -> None:
    with pytest.raises(InvalidSettingsError, match="node_limit"):
        solve(Game(3, 3), node_limit=limit)  # type: ignore[arg-type]


_PURE = (
    "from sosgame import Game\n"
    "from sosgame.kernel import JIT\n"
    "from sosgame.solver import solve\n"
    "assert not JIT\n"
    "for rows, cols, mode, moves in {cases!r}:\n"
    "    s = solve(Game(rows, cols, mode=mode, moves=moves))\n"
    "    print(s.value, ' '.join(map(str, s.best_moves)), s.nodes)\n"
)
_CASES = [
    (3, 3, "general", ["Sa1"]),
    (3, 3, "simple", []),
    (2, 4, "general", []),
    (3, 4, "general", ["Sa1", "Ob2", "Sc3", "Oa2"]),
]


@pytest.mark.skipif(os.environ.get("SOSGAME_KERNEL_CHILD") == "1", reason="already a child")
def test_plain_python_solver_finds_the_same_answers() -> None:
    environment = dict(os.environ, NUMBA_DISABLE_JIT="1", SOSGAME_KERNEL_CHILD="1")
    done = subprocess.run(
        [sys.executable, "-c", _PURE.format(cases=_CASES)],
        env=environment,
        capture_output=True,
        text=True,
        timeout=240,
        check=True,
    )
    expected = []
    for rows, cols, mode, moves in _CASES:
        s = solve(Game(rows, cols, mode=mode, moves=moves))  # type: ignore[arg-type]
        expected.append(f"{s.value} {' '.join(map(str, s.best_moves))} {s.nodes}")
    assert done.stdout.splitlines() == expected
