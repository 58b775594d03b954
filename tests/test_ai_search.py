"""The searches behind ``hard`` and ``perfect``: checked against the engine and the solver."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from sos_strategies import random_game
from sosgame import Game
from sosgame.ai.alphabeta import Searcher
from sosgame.ai.heuristics import quiet_handovers
from sosgame.ai.mcts import mcts
from sosgame.ai.state import State, gain
from sosgame.geometry import geometry
from sosgame.kernel import JIT, count_lines, count_openings, encode, new_array, to_array
from sosgame.notation import LETTERS
from sosgame.search.ordering import generate
from sosgame.solver import solve

ROOT = Path(__file__).resolve().parent.parent
_CHILD = "SOSGAME_AI_CHILD"
PLAIN_RUN = os.environ.get(_CHILD) == "1"
"""Whether this is the plain-Python rerun, which checks fewer positions to stay quick."""
SIZES = [(3, 3), (3, 4), (4, 4), (2, 5), (1, 8), (1, 3), (4, 3)]


def test_lines_counted_and_turns_read_agree_with_the_engine() -> None:
    rng = random.Random(4)
    for _ in range(10 if PLAIN_RUN else 60):
        rows, cols = rng.choice([*SIZES, (5, 7), (1, 12)])
        players = rng.randint(2, 5)
        mode = rng.choice(["general", "simple"])
        game = Game(rows, cols, players=players, mode=mode)  # type: ignore[arg-type]
        if rng.random() < 0.3:
            game.resign(rng.randrange(players))
        while not game.is_over:
            state = State(game)
            assert state.turn == game.turn and state.scores == list(game.scores)
            assert state.empty == len(game.empty_cells())
            move = rng.choice(list(game.legal_moves))
            index = move.cell.row * cols + move.cell.col
            assert state.move(index, move.letter) == move
            counted = gain(state.cells, state.shape, index, move.letter)
            mover = game.turn
            assert counted == len(game.play(move))
            if not counted and not game.is_over:
                assert game.turn == state.next_seat[mover]


def _lines_open_to_next(game: Game) -> int:
    """Over every empty cell, the most lines one letter there would complete (by the engine)."""
    total = 0
    for cell in game.empty_cells():
        best = 0
        for letter in LETTERS:
            best = max(best, len(game.copy().play(f"{letter}{cell}")))
        total += best
    return total


def test_handover_counts_what_the_engine_lets_the_next_player_take() -> None:
    rng = random.Random(8)
    checked = 0
    for trial in range(200):
        setup = {"rows": 4, "cols": 5, "players": 2, "mode": "general"}
        game = random_game(setup, trial, limit=rng.randint(0, 12))
        if game.is_over or _lines_open_to_next(game):
            continue  # handover is meant for a quiet board
        state = State(game)
        for handed, index, letter in quiet_handovers(state):
            after = game.copy()
            after.play(state.move(index, letter))
            if not after.is_over:
                assert handed == _lines_open_to_next(after)
                checked += 1
    assert checked > 500


def _root_lists(game: Game, tempo: int) -> tuple[dict[int, int], set[int], dict[int, int]]:
    """The move lists of the search's ordering: scoring (with gains), safe, unsafe (ranks)."""
    kernel = encode(game)
    size = len(kernel.board)
    moves, ranks = new_array(6 * size), new_array(6 * size)
    counts = generate(
        kernel.board, kernel.tables.table, to_array(range(size)), moves, ranks, 0,
        new_array(2 * size), 0, tempo, -1,
    )  # fmt: skip
    n_scoring, n_safe, n_unsafe, _ = counts
    scoring = {int(moves[k]): int(ranks[k]) for k in range(n_scoring)}
    safe = {int(moves[2 * size + k]) for k in range(n_safe)}
    unsafe = {int(moves[4 * size + k]): int(ranks[4 * size + k]) for k in range(n_unsafe)}
    return scoring, safe, unsafe


def test_the_search_move_lists_agree_with_the_kernel() -> None:
    for trial in range(40):
        setup = {"rows": 5, "cols": 6, "players": 2, "mode": "general"}
        game = random_game(setup, trial, limit=4 + trial // 2)
        if game.is_over:
            continue
        scoring, safe, unsafe = _root_lists(game, tempo=0)
        kernel = encode(game)
        board, table = kernel.board, kernel.tables.table
        for cell in range(len(board)):
            for letter in (1, 2):
                code = 2 * cell + letter - 1
                if board[cell] != 0:
                    assert code not in scoring and code not in safe and code not in unsafe
                    continue
                completes = count_lines(board, table, cell, letter)
                opens = count_openings(board, table, cell, letter)
                if completes:
                    assert scoring[code] == completes
                elif opens:
                    assert unsafe[code] == -(opens << 40)  # no history: the handover alone
                else:
                    assert code in safe
        # The exact search's lists keep one letter of one cell that no live line crosses.
        exact_scoring, exact_safe, exact_unsafe = _root_lists(game, tempo=1)
        assert exact_scoring == scoring and exact_unsafe == unsafe
        assert exact_safe <= safe
        dropped = {code >> 1 for code in safe - exact_safe}
        assert all(not _on_live_line(game, cell) for cell in dropped)


def _live_for(game: Game, cell: int, letter: str) -> int:
    """The lines through empty ``cell`` that could still become an SOS with ``letter`` there."""
    cells = [char for char in game.position() if char != "/"]
    count = 0
    for line in geometry(game.rows, game.cols).lines:
        if cell not in line or letter != ("O" if line.index(cell) == 1 else "S"):
            continue
        if all(
            cells[index] in (".", "O" if position == 1 else "S")
            for position, index in enumerate(line)
        ):
            count += 1
    return count


@pytest.mark.parametrize("mode", ["general", "simple"])
def test_the_exact_search_lists_safe_moves_keeping_lines_alive_first(mode: str) -> None:
    # In both modes a safe move ranks by the lines it keeps alive for its letter minus those
    # it kills for the other letter (with no history yet, that alone).
    checked = 0
    for trial in range(40):
        game = random_game({"rows": 4, "cols": 5, "players": 2, "mode": mode}, trial, limit=6)
        kernel = encode(game)
        size = len(kernel.board)
        moves, ranks = new_array(6 * size), new_array(6 * size)
        n_scoring, n_safe, _, _ = generate(
            kernel.board, kernel.tables.table, to_array(range(size)), moves, ranks, 0,
            new_array(2 * size), kernel.simple, 1, -1,
        )  # fmt: skip
        if game.is_over or n_scoring < 0:
            continue
        for index in range(2 * size, 2 * size + n_safe):
            cell, letter = divmod(int(moves[index]), 2)
            own, other = ("S", "O") if letter == 0 else ("O", "S")
            alive = _live_for(game, cell, own) - _live_for(game, cell, other)
            assert ranks[index] == alive << 37
            checked += alive != 0
    assert checked > 100


def _on_live_line(game: Game, cell: int) -> bool:
    """Whether a line through ``cell`` can still become an SOS (by the engine's lines)."""
    cells = [char for char in game.position() if char != "/"]
    for line in geometry(game.rows, game.cols).lines:
        if cell in line and all(
            cells[index] in (".", "O" if position == 1 else "S")
            for position, index in enumerate(line)
        ):
            return True
    return False


@pytest.mark.parametrize("mode", ["general", "simple"])
def test_the_search_matches_the_solver_near_the_end(mode: str) -> None:
    rng = random.Random(5 if mode == "general" else 6)
    searcher = Searcher()
    checked = 0
    trials = 12 if PLAIN_RUN else 60
    for _ in range(trials):
        rows, cols = rng.choice(SIZES)
        game = Game(rows, cols, mode=mode)  # type: ignore[arg-type]
        target = rng.randint(1, 9)
        while not game.is_over and len(game.empty_cells()) > target:
            game.play(rng.choice(list(game.legal_moves)))
        if game.is_over:
            continue
        exact = solve(game, memory_mb=16)
        state = State(game)
        result = searcher.search(state, random.Random(1), seconds=None, nodes=None)
        assert result is not None
        assert result.exact
        assert result.value == exact.value, game.position()
        assert state.move(result.index, result.letter) in exact.best_moves, game.position()
        checked += 1
    assert checked > trials // 2


def test_a_node_budget_stops_the_search_and_repeats_exactly() -> None:
    game = Game(8, 8, moves=["Sd4", "Oe5"])
    results = [
        Searcher().search(State(game), random.Random(2), seconds=None, nodes=3_000)
        for _ in range(2)
    ]
    assert results[0] is not None and results[0] == results[1]
    assert results[0].nodes <= 3_000
    assert Searcher().search(State(game), random.Random(2), seconds=None, nodes=1) is None


@pytest.mark.parametrize("nodes", [2_000, 9_000, 40_000])
def test_a_budget_cut_search_gives_the_move_of_its_last_completed_iteration(nodes: int) -> None:
    # The iteration the budget interrupts is dropped: the move is the one a search stopped
    # after the last completed depth gives, never a partial iteration's.
    game = Game(6, 6, moves=["Sa1", "Oc3", "Sd4", "Ob5"])
    cut = Searcher().search(State(game), random.Random(4), seconds=None, nodes=nodes)
    assert cut is not None
    whole = Searcher().search(
        State(game), random.Random(4), seconds=None, nodes=None, depth_limit=cut.depth
    )
    assert whole is not None
    assert (whole.index, whole.letter, whole.value, whole.depth) == (
        cut.index,
        cut.letter,
        cut.value,
        cut.depth,
    )
    assert whole.nodes <= cut.nodes


def test_a_time_budget_stops_the_search() -> None:
    game = Game(10, 10)
    result = Searcher().search(State(game), random.Random(2), seconds=0.05, nodes=None)
    assert result is None or result.depth < 100


def test_mcts_takes_a_winning_line_in_simple_mode_for_three_seats() -> None:
    game = Game.from_position("S.S./..../....", players=3, mode="simple", turn=1)
    move, _ = mcts(encode(game), random.Random(0), seconds=None, nodes=50)
    assert move == (1, 2)  # O at b1 completes a1-b1-c1


def test_mcts_avoids_handing_a_win_to_the_next_seat() -> None:
    game = Game.from_position("S...../....../......", players=3, mode="simple")
    kernel = encode(game)
    for seed in range(5):
        (cell, letter), runs = mcts(kernel, random.Random(seed), seconds=None, nodes=200)
        assert runs == 200
        after = game.copy()
        after.play(State(game).move(cell, "S" if letter == 1 else "O"))
        assert not any(len(after.copy().play(reply)) for reply in list(after.legal_moves))


@pytest.mark.skipif(PLAIN_RUN, reason="already the plain-Python run")
def test_the_search_runs_the_same_as_plain_python() -> None:
    if not JIT:
        pytest.skip("the search already runs as plain Python here")
    environment = dict(os.environ, NUMBA_DISABLE_JIT="1", **{_CHILD: "1"})
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-x",
            str(Path(__file__)),
            "-k",
            "solver_near_the_end or node_budget or agree_with_the_engine or mcts",
        ],
        cwd=ROOT / "tests",
        env=environment,
        check=False,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
