"""Split solves: pieces combine to the direct solve, a store resumes, and a Dask cluster works."""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sosgame import Game, InvalidSettingsError
from sosgame.cli import main
from sosgame.extras import MissingExtraError
from sosgame.game import Mode
from sosgame.research.distribute import solve_split, split_status
from sosgame.research.goals import Goal, needed, status
from sosgame.research.pieces import PieceStore, interval
from sosgame.research.split import Plan, canonical, combine, plan_split
from sosgame.solver import solve
from sosgame.symmetry import symmetries


def _direct(game: Game) -> tuple[int, list[str]]:
    solution = solve(game, memory_mb=16)
    return solution.value, [str(move) for move in solution.best_moves]


@pytest.mark.parametrize(
    ("position", "mode", "depth"),
    [
        ("3x3", "general", 1),
        ("3x3", "general", 3),
        ("3x3", "simple", 2),
        ("1x7", "general", 2),
        ("1x7", "simple", 2),
        ("2x4", "simple", 1),
        # Scoring moves in the plies above the pieces: the mover moves again, or wins.
        ("S.S/.../O..", "general", 2),
        ("S.S/.../O..", "simple", 2),
    ],
)
def test_pieces_combine_to_the_direct_solve(
    tmp_path: Path, position: str, mode: Mode, depth: int
) -> None:
    game = _game(position, mode)
    split = solve_split(
        game, depth, tmp_path, memory_mb=8, workers=2, progress=False, exact_pieces=True
    )
    assert (split.value, [str(move) for move in split.best_moves]) == _direct(game)
    assert split.solved_now == split.pieces == len(plan_split(game, depth).pieces)
    assert split.nodes > 0


def _game(position: str, mode: Mode) -> Game:
    if "x" in position:
        rows, cols = map(int, position.split("x"))
        return Game(rows, cols, mode=mode)
    return Game.from_position(position, mode=mode)


@pytest.mark.parametrize(
    ("position", "mode", "depth", "workers"),
    [
        ("3x3", "general", 1, 1),
        ("3x3", "general", 3, 2),
        ("3x3", "simple", 2, 2),
        ("1x7", "general", 2, 1),
        ("1x7", "simple", 2, 2),
        ("3x4", "general", 2, 2),
        ("3x4", "simple", 2, 1),
        ("S.S/.../O..", "general", 2, 2),
        ("S.S/.../O..", "simple", 2, 1),
        ("SO../..../.O../...S", "general", 2, 2),
    ],
)
def test_a_bounded_split_finds_the_direct_solve_with_fewer_nodes_than_exact_pieces(
    tmp_path: Path, position: str, mode: Mode, depth: int, workers: int
) -> None:
    game = _game(position, mode)
    bounded = solve_split(game, depth, tmp_path / "b", memory_mb=8, workers=workers, progress=False)
    assert (bounded.value, [str(move) for move in bounded.best_moves]) == _direct(game)
    exact = solve_split(
        game, depth, tmp_path / "e", memory_mb=8, workers=1, progress=False, exact_pieces=True
    )
    assert bounded.tested <= exact.pieces
    assert bounded.exact <= bounded.tested
    if exact.nodes > 1000:
        assert bounded.nodes < exact.nodes
    # Run again, it reads the bounds back and tests nothing.
    again = solve_split(game, depth, tmp_path / "b", memory_mb=8, workers=workers, progress=False)
    assert again.solved_now == 0
    assert (again.value, again.best_moves) == (bounded.value, bounded.best_moves)


@pytest.mark.parametrize("guess", [-9, 0, 1, 7])
def test_any_first_guess_reaches_the_value(tmp_path: Path, guess: int) -> None:
    game = Game(3, 4)
    split = solve_split(game, 2, tmp_path, memory_mb=8, workers=1, progress=False, guess=guess)
    assert (split.value, [str(move) for move in split.best_moves]) == _direct(game)


def test_a_bounded_solve_stopped_half_way_goes_on_from_its_bounds(tmp_path: Path) -> None:
    game = Game(3, 4, mode="general")
    whole = solve_split(game, 2, tmp_path / "whole", memory_mb=8, workers=1, progress=False)
    store = PieceStore(tmp_path / "half", 3, 4, "general")
    for path in sorted((tmp_path / "whole").glob("3x4-general/*_*.json"))[::2]:
        store.save(json.loads(path.read_text()))
    half = solve_split(game, 2, tmp_path / "half", memory_mb=8, workers=2, progress=True)
    assert (half.value, half.best_moves) == (whole.value, whole.best_moves)
    assert half.solved_now < whole.solved_now


def test_a_second_run_solves_only_what_is_missing(tmp_path: Path) -> None:
    game = Game(3, 4, mode="simple")
    first = solve_split(
        game, 1, tmp_path, memory_mb=8, workers=1, progress=False, exact_pieces=True
    )
    store = PieceStore(tmp_path, 3, 4, "simple")
    files = sorted(store.folder.glob("*_*.json"))  # a piece's name holds its empty cells
    assert len(files) == first.pieces
    removed = files[: len(files) // 2]
    kept = {path: path.read_text() for path in files[len(files) // 2 :]}
    for path in removed:
        path.unlink()
    second = solve_split(
        game, 1, tmp_path, memory_mb=8, workers=1, progress=False, exact_pieces=True
    )
    assert second.solved_now == len(removed)
    assert (second.value, second.best_moves) == (first.value, first.best_moves)
    assert all(path.read_text() == text for path, text in kept.items())
    third = solve_split(game, 1, tmp_path, memory_mb=8, workers=1, progress=True, exact_pieces=True)
    assert third.solved_now == 0
    assert third.value == first.value


def test_a_store_file_that_is_not_its_piece_is_rejected(tmp_path: Path) -> None:
    game = Game(3, 3)
    solve_split(game, 1, tmp_path, memory_mb=8, workers=1, progress=False)
    store = PieceStore(tmp_path, 3, 3, "general")
    victim = sorted(store.folder.glob("*_*.json"))[0]
    result = json.loads(victim.read_text())
    result["board"] = "S../.../..."
    victim.write_text(json.dumps(result))
    with pytest.raises(InvalidSettingsError, match=victim.name):
        solve_split(game, 1, tmp_path, memory_mb=8, workers=1, progress=False)
    victim.write_text("{not json")
    with pytest.raises(InvalidSettingsError, match="not a piece's result"):
        solve_split(game, 1, tmp_path, memory_mb=8, workers=1, progress=False)


@pytest.mark.parametrize("depth", [0, -1, True, 1.5])
def test_bad_depths_are_rejected(tmp_path: Path, depth: object) -> None:
    with pytest.raises(InvalidSettingsError, match="split depth"):
        solve_split(Game(3, 3), depth, tmp_path, memory_mb=8)  # type: ignore[arg-type]
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("guess", ["1", 1.5, True, None])
def test_bad_guesses_are_rejected(tmp_path: Path, guess: object) -> None:
    with pytest.raises(InvalidSettingsError, match="guess must be a whole number"):
        solve_split(Game(3, 3), 1, tmp_path, memory_mb=8, guess=guess)  # type: ignore[arg-type]
    assert not any(tmp_path.iterdir())


def test_bad_worker_counts_are_rejected(tmp_path: Path) -> None:
    with pytest.raises(InvalidSettingsError, match="workers"):
        solve_split(Game(3, 3), 1, tmp_path, memory_mb=8, workers=0)


@given(
    st.sampled_from([(3, 3), (2, 4), (3, 4), (4, 4)]),
    st.data(),
)
def test_the_canonical_name_is_the_same_for_every_image(
    size: tuple[int, int], data: st.DataObject
) -> None:
    rows, cols = size
    cells = data.draw(st.lists(st.sampled_from(".SO"), min_size=rows * cols, max_size=rows * cols))
    text = "/".join("".join(cells[row * cols : (row + 1) * cols]) for row in range(rows))
    for image in symmetries(rows, cols):
        moved = [""] * len(cells)
        for cell, target in enumerate(image):
            moved[target] = cells[cell]
        other = "/".join("".join(moved[row * cols : (row + 1) * cols]) for row in range(rows))
        assert canonical(other, rows, cols) == canonical(text, rows, cols)


def test_a_dask_cluster_gives_the_same_value(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    game = Game(3, 4, mode="simple")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        split = solve_split(
            game, 1, tmp_path, memory_mb=8, scheduler=cluster.scheduler_address, progress=False
        )
        exact = solve_split(
            game,
            1,
            tmp_path / "exact",
            memory_mb=8,
            scheduler=cluster.scheduler_address,
            progress=False,
            exact_pieces=True,
        )
    assert (split.value, [str(move) for move in split.best_moves]) == _direct(game)
    assert (exact.value, exact.best_moves) == (split.value, split.best_moves)
    assert split.solved_now > 0
    assert exact.solved_now == exact.pieces


def test_a_scheduler_without_dask_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'sosgame\[cluster\]'"):
        solve_split(Game(3, 3), 1, tmp_path, memory_mb=8, scheduler="tcp://127.0.0.1:1")
    assert not any(tmp_path.iterdir())


def test_the_command_line_split(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["solve", "3x4", "--mode", "simple", "--json", "--memory", "8"]
    split = [*argv, "--split", "2", "--store", str(tmp_path), "--workers", "2", "--no-progress"]
    split.append("--exact-pieces")
    assert main(split) == 0
    answer = json.loads(capsys.readouterr().out)
    assert list(answer)[:4] == ["value", "best_moves", "nodes", "seconds"]
    assert main(argv) == 0
    direct = json.loads(capsys.readouterr().out)
    assert (answer["value"], answer["best_moves"]) == (direct["value"], direct["best_moves"])
    pieces = list(tmp_path.glob("3x4-simple/*_*.json"))
    assert answer["solved_now"] == answer["pieces"] == len(pieces)
    root = json.loads((tmp_path / "3x4-simple" / "solved-split2.json").read_text())
    assert list(root)[:9] == [
        "rows",
        "cols",
        "mode",
        "value",
        "best_moves",
        "nodes",
        "seconds",
        "command",
        "version",
    ]
    assert (root["value"], root["best_moves"]) == (answer["value"], answer["best_moves"])
    assert main(split) == 0
    assert json.loads(capsys.readouterr().out)["solved_now"] == 0


def test_workers_without_a_split_are_rejected(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "3x3", "--workers", "2"]) == 1
    assert "--split" in capsys.readouterr().err


@pytest.mark.parametrize("mode", ["general", "simple"])
def test_the_status_bounds_always_hold_the_value(tmp_path: Path, mode: Mode) -> None:
    game = Game(3, 3, mode=mode)
    solved = solve_split(
        game, 2, tmp_path, memory_mb=8, workers=1, progress=False, exact_pieces=True
    )
    assert split_status(game, 2, tmp_path) == (
        solved.pieces,
        solved.pieces,
        solved.value,
        solved.value,
        0,
    )
    files = sorted(PieceStore(tmp_path, 3, 3, mode).folder.glob("*_*.json"))
    for path in files[::2]:
        path.unlink()
    status = split_status(game, 2, tmp_path)
    assert status.solved == len(files) - len(files[::2])
    assert status.lower <= solved.value <= status.upper
    for path in files[1::2]:
        path.unlink()
    status = split_status(game, 2, tmp_path)
    assert status.solved == 0 and status.lower < status.upper


def test_the_command_line_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(1, 7, mode="simple")
    pieces = len(plan_split(game, 1).pieces)
    value = solve(game, memory_mb=8).value
    argv = ["solve", "1x7", "--mode", "simple", "--split", "1", "--store", str(tmp_path)]
    assert main([*argv, "--status"]) == 0
    # Before any piece is solved, the mirror strategy already keeps the first player's draw.
    assert capsys.readouterr().out.splitlines() == [
        f"0 of {pieces} pieces solved",
        "the value is between 0 and +1 so far",
    ]
    assert main([*argv, "--no-progress", "--exact-pieces"]) == 0
    capsys.readouterr()
    assert main([*argv, "--status", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer == {
        "pieces": pieces,
        "solved": pieces,
        "lower": value,
        "upper": value,
        "bounded": 0,
    }
    assert main(["solve", "1x7", "--status"]) == 1
    assert "--split" in capsys.readouterr().err


@pytest.mark.parametrize("mode", ["general", "simple"])
def test_the_status_of_a_bounded_solve_holds_the_value(tmp_path: Path, mode: Mode) -> None:
    game = Game(3, 4, mode=mode)
    solved = solve_split(game, 2, tmp_path, memory_mb=8, workers=1, progress=False)
    status = split_status(game, 2, tmp_path)
    assert status.lower == status.upper == solved.value
    assert status.solved + status.bounded == solved.tested
    assert status.bounded > 0


def test_bounds_only_narrow_and_meet_in_a_value(tmp_path: Path) -> None:
    store = PieceStore(tmp_path, 3, 3, "general")
    board = "S../.../..."
    base = {"board": board, "rows": 3, "cols": 3, "mode": "general", "peak_rss_mb": 1}
    store.add_bound(base | {"lower": -2, "nodes": 5, "seconds": 0.5})
    assert interval(store.load(board) or {}) == (-2, 8 * 8)
    store.add_bound(base | {"upper": 3, "nodes": 5, "seconds": 0.5})
    store.add_bound(base | {"lower": -4, "nodes": 5, "seconds": 0.5})  # weaker: kept out
    assert interval(store.load(board) or {}) == (-2, 3)
    merged = store.add_bound(base | {"lower": 3, "nodes": 1, "seconds": 0.25})
    assert merged["value"] == 3 and "lower" not in merged and "upper" not in merged
    assert (merged["nodes"], merged["seconds"]) == (16, 1.75)
    assert store.load(board) == merged


@pytest.mark.parametrize(
    "bounds", [{}, {"lower": 2, "upper": 2}, {"lower": 3, "upper": 1}, {"lower": "1"}]
)
def test_a_piece_file_with_impossible_bounds_is_rejected(
    tmp_path: Path, bounds: dict[str, object]
) -> None:
    store = PieceStore(tmp_path, 3, 3, "general")
    board = "S../.../..."
    result = {"board": board, "rows": 3, "cols": 3, "mode": "general", "nodes": 1, "seconds": 0}
    store.save(result | bounds)
    with pytest.raises(InvalidSettingsError, match="is not the result of piece"):
        store.load(board)


@given(st.sampled_from(["general", "simple"]), st.integers(-3, 3), st.data())
def test_goals_answered_from_any_true_bounds_agree_with_the_values(
    mode: Mode, target: int, data: st.DataObject
) -> None:
    plan, values = _solved_plan(mode)
    known = {}
    for board, value in values.items():
        if data.draw(st.booleans()):
            below = data.draw(st.integers(0, 3))
            above = data.draw(st.integers(0, 3))
            known[board] = (value - below, value + above)
    goal = Goal(plan.root, target)
    answer = status(plan, known, goal)
    truth = combine(plan, values)[0] >= target
    assert answer in (None, truth)
    if answer is None:
        board, asked = next(needed(plan, known, goal))
        low, high = known.get(board, (-99, 99))
        assert low < asked <= high
    else:
        assert list(needed(plan, known, goal)) == []


@cache
def _solved_plan(mode: Mode) -> tuple[Plan, dict[str, int]]:
    plan = plan_split(Game(3, 3, mode=mode), 2)
    return plan, {board: solve(Game.from_position(board, mode=mode)).value for board in plan.pieces}


@pytest.mark.parametrize(("size", "mode"), [((3, 3), "general"), ((3, 3), "simple")])
def test_the_progress_counts_each_tests_own_work(
    tmp_path: Path, size: tuple[int, int], mode: Mode
) -> None:
    # A piece tested twice keeps the sum of both tests' work: the progress must add each
    # test's own nodes, not the running sum, or it counts the first test twice.
    from concurrent.futures import ThreadPoolExecutor

    from sosgame.research.bounded import solve_bounded

    game = Game(*size, mode=mode)
    plan = plan_split(game, 2)
    store = PieceStore(tmp_path, game.rows, game.cols, game.mode)
    told: list[int] = []
    with ThreadPoolExecutor(1) as pool:
        result = solve_bounded(
            plan,
            store,
            pool,
            memory_mb=8,
            parallel=1,
            progress=lambda found, ahead, note: told.append(found["nodes"]),
        )
    kept = [found for found in map(store.load, plan.pieces) if found is not None]
    assert result.tests == len(told) > len(kept)  # some piece was tested more than once
    assert sum(told) == sum(found["nodes"] for found in kept)


@pytest.mark.parametrize("exact_pieces", [False, True])
def test_a_run_that_only_reads_the_store_keeps_the_roots_entry(
    tmp_path: Path, exact_pieces: bool
) -> None:
    # The entry says what the solve took: a later run with another table adds nothing to it.
    game = Game(3, 4)
    options: dict[str, Any] = {"workers": 1, "progress": False, "exact_pieces": exact_pieces}
    solve_split(game, 1, tmp_path, memory_mb=8, **options)
    path = tmp_path / "3x4-general" / "solved-split1.json"
    entry = json.loads(path.read_text())
    assert entry["memory_mb"] == 8
    again = solve_split(game, 1, tmp_path, memory_mb=16, **options)
    assert again.solved_now == 0 and json.loads(path.read_text()) == entry
    path.unlink()
    solve_split(game, 1, tmp_path, memory_mb=16, **options)
    assert json.loads(path.read_text())["memory_mb"] == 16


@pytest.mark.parametrize(("size", "depth"), [((3, 4), 1), ((3, 3), 2), ((4, 4), 1)])
def test_a_bounded_solve_asks_no_piece_what_the_mirror_strategy_answers(
    tmp_path: Path, size: tuple[int, int], depth: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from sosgame.research import bounded
    from sosgame.solver.mirror import mirror_interval

    asked: list[tuple[str, int]] = []
    test = bounded.bound_piece

    def recorded(board: str, mode: Mode, memory_mb: int, target: int) -> dict[str, Any]:
        asked.append((board, target))
        return test(board, mode, memory_mb, target)

    monkeypatch.setattr(bounded, "bound_piece", recorded)
    game = Game(*size, mode="simple")
    plan = plan_split(game, depth)
    store = PieceStore(tmp_path, game.rows, game.cols, game.mode)
    with ThreadPoolExecutor(1) as pool:
        result = bounded.solve_bounded(
            plan, store, pool, memory_mb=8, parallel=1, progress=lambda *told: None
        )
    assert (result.value, [str(move) for move in result.best_moves]) == _direct(game)
    assert asked
    for board, target in asked:
        low, high = mirror_interval(board)
        assert low < target <= high, (board, target)
    assert any(mirror_interval(board) != (-1, 1) for board in plan.pieces)
