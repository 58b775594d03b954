"""Split solves: pieces combine to the direct solve, a store resumes, and a Dask cluster works."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sosgame import Game, InvalidSettingsError
from sosgame.cli import main
from sosgame.extras import MissingExtraError
from sosgame.game import Mode
from sosgame.solver import solve
from sosgame.solver.distribute import solve_split, split_status
from sosgame.solver.pieces import PieceStore
from sosgame.solver.split import canonical, plan_split
from sosgame.solver.symmetry import symmetries


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
    if "x" in position:
        rows, cols = map(int, position.split("x"))
        game = Game(rows, cols, mode=mode)
    else:
        game = Game.from_position(position, mode=mode)
    split = solve_split(game, depth, tmp_path, memory_mb=8, workers=2, progress=False)
    assert (split.value, [str(move) for move in split.best_moves]) == _direct(game)
    assert split.solved_now == split.pieces == len(plan_split(game, depth).pieces)
    assert split.nodes > 0


def test_a_second_run_solves_only_what_is_missing(tmp_path: Path) -> None:
    game = Game(3, 4, mode="simple")
    first = solve_split(game, 1, tmp_path, memory_mb=8, workers=1, progress=False)
    store = PieceStore(tmp_path, 3, 4, "simple")
    files = sorted(store.folder.glob("*_*.json"))  # a piece's name holds its empty cells
    assert len(files) == first.pieces
    removed = files[: len(files) // 2]
    kept = {path: path.read_text() for path in files[len(files) // 2 :]}
    for path in removed:
        path.unlink()
    second = solve_split(game, 1, tmp_path, memory_mb=8, workers=1, progress=False)
    assert second.solved_now == len(removed)
    assert (second.value, second.best_moves) == (first.value, first.best_moves)
    assert all(path.read_text() == text for path, text in kept.items())
    third = solve_split(game, 1, tmp_path, memory_mb=8, workers=1, progress=True)
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
    assert (split.value, [str(move) for move in split.best_moves]) == _direct(game)
    assert split.solved_now == split.pieces


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
    solved = solve_split(game, 2, tmp_path, memory_mb=8, workers=1, progress=False)
    assert split_status(game, 2, tmp_path) == (
        solved.pieces,
        solved.pieces,
        solved.value,
        solved.value,
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
    assert capsys.readouterr().out.splitlines() == [
        f"0 of {pieces} pieces solved",
        "the value is between -1 and +1 so far",
    ]
    assert main([*argv, "--no-progress"]) == 0
    capsys.readouterr()
    assert main([*argv, "--status", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer == {"pieces": pieces, "solved": pieces, "lower": value, "upper": value}
    assert main(["solve", "1x7", "--status"]) == 1
    assert "--split" in capsys.readouterr().err
