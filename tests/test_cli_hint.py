"""``sosgame hint``: the move a level would play, as text and JSON, and one-line errors."""

from __future__ import annotations

import json

import pytest

from sos_cli import run
from sosgame import Game
from sosgame.ai import make_player


def test_the_hint_is_the_move_the_level_plays(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "hint", "SO./.../...", "--level", "easy")
    assert status == 0, err
    assert out == "Sc1 (completes 1 SOS)\n"


def test_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "hint", "S.S./..../....", "--level", "medium", "--mode", "simple", "--json"
    )
    assert status == 0, err
    answer = json.loads(out)
    assert list(answer) == [
        "move", "level", "position", "mode", "players", "turn", "lines", "seconds", "proven",
    ]  # fmt: skip
    assert answer["move"] == "Ob1"
    assert answer["lines"] == 1
    assert answer["mode"] == "simple"


ISSUE_POSITION = "O..../.S.O./S.SS./...S./S...S"
"""General mode, seat 1 to move: worth 15, with best moves Oa4, Ob4, Sd1 and Se1 only."""


@pytest.mark.parametrize("level", ["hard", "perfect"])
def test_a_solved_hint_says_it_is_proven(capsys: pytest.CaptureFixture[str], level: str) -> None:
    status, out, err = run(
        capsys, "hint", ISSUE_POSITION, "--level", level, "--nodes", "100000", "--json"
    )
    assert status == 0, err
    answer = json.loads(out)
    assert answer["move"] in {"Oa4", "Ob4", "Sd1", "Se1"}
    assert answer["proven"] is True
    status, out, err = run(
        capsys, "hint", ISSUE_POSITION, "--level", "perfect", "--nodes", "100000"
    )
    assert status == 0, err
    move, note = out.splitlines()
    assert move.split()[0] in {"Oa4", "Ob4", "Sd1", "Se1"}
    assert note == "proven best by the exact solver"


def test_an_unsolved_perfect_hint_says_it_is_not_proven(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "hint", "7x7", "--level", "perfect", "--nodes", "500", "--json")
    assert status == 0, err
    assert json.loads(out)["proven"] is False
    status, out, err = run(capsys, "hint", "7x7", "--level", "perfect", "--nodes", "500")
    assert status == 0, err
    assert out.splitlines()[1].startswith("not proven")


def test_an_empty_board_by_size_with_seats_turn_and_seed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # People count seats from 1 on the command line; the JSON answer counts from 0.
    argv = ["hint", "4x5", "--level", "hard", "--players", "3", "--turn", "3", "--nodes", "200"]
    first = run(capsys, *argv, "--seed", "4", "--json")
    second = run(capsys, *argv, "--seed", "4", "--json")
    assert first[0] == 0, first[2]
    assert json.loads(first[1])["move"] == json.loads(second[1])["move"]
    expected = make_player("hard", nodes=200, seed=4).choose_move(
        Game.from_position("...../...../...../.....", players=3, turn=2)
    )
    assert json.loads(first[1])["move"] == str(expected)
    assert json.loads(first[1])["turn"] == 2


def test_scores_so_far_are_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "hint", "SOS/.../...", "--scores", "0,1", "--turn", "2")
    assert status == 0, err
    assert out.strip() and " " not in out.strip()


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["hint", "SOX"], "holds 'X'"),
        (["hint", "0x5"], "rows must be from 1 to 26"),
        (["hint", "3x3", "--level", "expert"], "invalid choice: 'expert'"),
        (["hint", "3x3", "--seconds", "0"], "seconds must be a number greater than 0"),
        (["hint", "3x3", "--nodes", "-4"], "nodes must be a whole number"),
        (["hint", "3x3", "--players", "9"], "players must be from 2 to 8"),
        (["hint", "3x3", "--turn", "3"], "--turn must be a seat from 1 to 2, not 3"),
        (["hint", "3x3", "--turn", "0"], "--turn must be a seat from 1 to 2, not 0"),
        (["hint", "SOS/.../...", "--mode", "simple"], "already holds an SOS"),
        (["hint", "SOS/OSO/SOS"], "already over"),
        (["hint", "3x3", "--scores", "1,x"], "--scores must be whole numbers"),
        (["hint", "3x3", "--scores", "1,0"], "scores add up to 1"),
        (["hint", "3x3", "--seconds", "soon"], "invalid float value"),
    ],
)
def test_bad_input_is_one_line_and_a_failure(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status != 0
    assert out == ""
    assert err.count("\n") == 1 and needle in err


def test_perfect_with_more_than_two_players_is_refused_before_any_search(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_search(*arguments: object, **options: object) -> None:
        raise AssertionError("a player was made")

    monkeypatch.setattr("sosgame.cli.hint.make_player", no_search)
    status, out, err = run(capsys, "hint", "4x4", "--level", "perfect", "--players", "3")
    assert status == 1 and out == ""
    assert "takes two players" in err and "has 3" in err
    assert len(err.strip().splitlines()) == 1
