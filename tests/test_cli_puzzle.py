"""``sosgame puzzle``: one puzzle as JSON, played in line mode, and one-line errors."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from sos_cli import run
from sosgame.ai.puzzles import Puzzle, puzzle_set
from sosgame.cli.puzzle import UNSOLVED_STATUS


def one_move() -> Puzzle:
    return next(puzzle for puzzle in puzzle_set() if len(puzzle.steps) == 1)


def test_json_prints_the_puzzle_with_the_protocols_keys(
    capsys: pytest.CaptureFixture[str],
) -> None:
    puzzle = one_move()
    status, out, err = run(capsys, "puzzle", "--id", puzzle.id, "--json")
    assert status == 0, err
    answer = json.loads(out)
    assert answer == puzzle.to_json()
    assert {"id", "rows", "cols", "mode", "position", "turn", "scores", "goal"} <= set(answer)


def test_json_chooses_by_size_mode_and_rating(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "puzzle", "--size", "4x4", "--mode", "simple", "--seed", "3", "--json"
    )
    assert status == 0
    answer = json.loads(out)
    assert (answer["rows"], answer["cols"], answer["mode"]) == (4, 4, "simple")


def test_the_right_move_solves_it_in_line_mode(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle = one_move()
    monkeypatch.setattr("sys.stdin", io.StringIO(f"nonsense\n{puzzle.steps[0].move}\n"))
    status, out, _ = run(capsys, "puzzle", "--id", puzzle.id)
    assert status == 0
    assert "Not a move here" in out
    assert "Solved" in out


def test_a_wrong_move_shows_the_solution(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle = one_move()
    step = puzzle.steps[0]
    worse = next(move for move, value in step.values.items() if value < step.best)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{worse}\n"))
    status, out, _ = run(capsys, "puzzle", "--id", puzzle.id)
    assert status == UNSOLVED_STATUS
    assert "Wrong" in out
    assert f"Solution: {step.move}" in out


def test_the_texts_follow_the_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("solution\n"))
    status, out, _ = run(capsys, "puzzle", "--id", one_move().id, "--lang", "vi")
    assert status == UNSOLVED_STATUS
    assert "Lời giải" in out


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--id", "nothing"], "no puzzle with the id"),
        (["--size", "big"], "--size must be ROWSxCOLS"),
        (["--size", "9x9"], "no puzzle has this board"),
    ],
)
def test_bad_choices_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    status, out, err = run(capsys, "puzzle", "--json", *arguments)
    assert out == ""
    assert status == 1
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_a_puzzle_left_unsolved_exits_with_the_readme_s_status_not_bad_input_s(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle = one_move()
    step = puzzle.steps[0]
    worse = next(move for move, value in step.values.items() if value < step.best)
    for answer in (f"{worse}\n", "solution\n", "quit\n", ""):
        monkeypatch.setattr("sys.stdin", io.StringIO(answer))
        status, _, _ = run(capsys, "puzzle", "--id", puzzle.id)
        assert status == 3, answer
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| 3 |"))
    assert "puzzle" in row
    assert "puzzle" not in next(line for line in readme.splitlines() if line.startswith("| 1 |"))


def test_puzzle_help_tells_the_default_mode_it_has(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "puzzle", "--help")
    assert status == 0
    assert "default general" not in out
    assert "(default: either)" in " ".join(out.split())
    modes = set()
    for seed, rating in enumerate(range(600, 2601, 100)):
        # Seeded, so that the same puzzles come back on every run.
        status, out, _ = run(
            capsys, "puzzle", "--rating", str(rating), "--seed", str(seed), "--json"
        )
        modes.add(json.loads(out)["mode"])
    assert modes == {"general", "simple"}  # without --mode, either comes back
