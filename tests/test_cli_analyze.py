"""``sosgame analyze``: every ply's best move and cost, a summary per player, and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sos_cli import run
from sosgame import Game
from sosgame.ai.analysis import analyze
from sosgame.record import Record, save
from sosgame.solver import solve


@pytest.fixture
def missed_line(tmp_path: Path) -> Path:
    # Ann passes up the line a1-b1-c1 at ply 3 and Bao takes it.
    path = tmp_path / "missed.json"
    game = Game(3, 3, moves=["Sa1", "Ob1", "Sa3", "Sc1"])
    save(Record.from_game(game, players=["Ann", "Bao"]), path)
    return path


def test_json_reports_every_ply_and_each_player(
    capsys: pytest.CaptureFixture[str], missed_line: Path
) -> None:
    status, out, err = run(capsys, "analyze", str(missed_line), "--json")
    assert status == 0, err
    report = json.loads(out)
    assert list(report) == ["mode", "rows", "cols", "thresholds", "plies", "players"]
    assert report["thresholds"] == {"mistake": 1.0, "blunder": 3.0}
    plies = report["plies"]
    assert [ply["played"] for ply in plies] == ["Sa1", "Ob1", "Sa3", "Sc1"]
    assert list(plies[0]) == [
        "ply", "seat", "played", "best", "best_value", "played_value", "cost", "exact", "flag",
    ]  # fmt: skip
    assert all(ply["exact"] for ply in plies)
    missed = plies[2]
    assert missed["seat"] == 0
    position = Game(3, 3, moves=["Sa1", "Ob1"])
    exact = solve(position)
    assert missed["best_value"] == exact.value
    assert missed["best"] in [str(move) for move in exact.best_moves]
    assert missed["cost"] >= 3 and missed["flag"] == "blunder"
    assert plies[3]["cost"] == 0 and plies[3]["flag"] is None
    ann, bao = report["players"]
    assert ann["name"] == "Ann" and ann["moves"] == 2 and ann["blunders"] >= 1
    assert bao["seat"] == 1 and bao["total_cost"] == sum(p["cost"] for p in plies[1::2])


def test_text_marks_estimates_and_flags(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    save(Record.from_game(Game(7, 7, moves=["Sd4", "Od5", "Sa1"])), path)
    status, out, err = run(capsys, "analyze", str(path), "--seconds", "0.05")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["ply", "player", "played", "best", "cost"]
    assert len([line for line in lines if line.strip().startswith(("1 ", "2 ", "3 "))]) == 3
    assert "~" in out  # 46 empty cells are out of the solver's reach: estimates
    assert "Player 1:" in out and "Player 2:" in out


def test_the_cost_is_never_negative_and_a_best_move_costs_nothing() -> None:
    game = Game(3, 4, mode="simple", moves=["Sa1", "Ob2", "Oc3"])
    for report in analyze(game, seconds=0.05):
        assert report.cost is not None and report.cost >= 0
        if report.played == report.best:
            assert report.cost == 0


def test_more_than_two_seats_get_best_moves_but_no_costs() -> None:
    game = Game(3, 4, players=3, moves=["Sa1", "Ob1", "Sa2"])
    reports = analyze(game, seconds=0.02)
    assert len(reports) == 3
    assert all(report.cost is None and report.flag is None for report in reports)


@pytest.mark.parametrize(
    ("content", "extra", "needle"),
    [
        (None, [], "cannot read"),
        ("{not json", [], "not valid JSON"),
        ('{"format": "sosgame-record/1"}', [], "has no field"),
        ("ok", ["--seconds", "-1"], "seconds must be a number greater than 0"),
    ],
)
def test_bad_input_is_one_line_and_a_failure(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    missed_line: Path,
    content: str | None,
    extra: list[str],
    needle: str,
) -> None:
    path = tmp_path / "bad.json"
    if content == "ok":
        path = missed_line
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    status, out, err = run(capsys, "analyze", str(path), *extra)
    assert status != 0
    assert out == ""
    assert err.count("\n") == 1 and needle in err
