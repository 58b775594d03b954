"""Game records: saving, loading and every way a record can be wrong."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sos_strategies import board_settings, random_game
from sosgame import Game, RecordError
from sosgame.record import FORMAT, Record, Start, load, save
from sosgame.snapshot import Snapshot, build_game


def good() -> dict[str, Any]:
    return {
        "format": FORMAT,
        "rows": 3,
        "cols": 3,
        "mode": "general",
        "players": ["Ann", "Bao"],
        "moves": ["Sa1", "Ob1", "Sc1"],
    }


def test_a_record_replays_into_the_game() -> None:
    record = Record.from_dict(good())
    game = record.to_game()
    assert game == Game(3, 3, moves=["Sa1", "Ob1", "Sc1"])
    assert record.result is None


def test_saving_writes_the_documented_form(tmp_path: Path) -> None:
    game = Game(3, 3, mode="simple", moves=["Sa1", "Ob1", "Sc1"])
    path = tmp_path / "game.json"
    save(Record.from_game(game, players=["Ann", "Bao"], meta={"date": "2026-12-01"}), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data == {
        "format": "sosgame-record/1",
        "rows": 3,
        "cols": 3,
        "mode": "simple",
        "players": ["Ann", "Bao"],
        "moves": ["Sa1", "Ob1", "Sc1"],
        "result": {"winners": [0], "termination": "sos", "scores": [1, 0]},
        "meta": {"date": "2026-12-01"},
    }
    assert load(path).to_game() == game


def test_a_game_can_be_saved_directly_with_default_names(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    save(Game(3, 4, players=3, moves=["Sa1", "resign:2"]), path)
    record = load(path)
    assert record.players == ["Player 1", "Player 2", "Player 3"]
    assert record.moves == ["Sa1", "resign:2"]


def test_move_text_is_made_canonical() -> None:
    data = good() | {"moves": ["sa1", " oB1", "SC1"]}
    assert Record.from_dict(data).moves == ["Sa1", "Ob1", "Sc1"]


def test_a_set_up_start_position_round_trips() -> None:
    game = Game.from_position("SOS/.../...", turn=1, scores=(0, 1), moves=["Oa2"])
    record = Record.from_game(game)
    assert record.start == Start("SOS/.../...", 1, (0, 1))
    assert Record.from_json(record.to_json()).to_game() == game


def test_a_full_game_with_a_result_and_meta_loads() -> None:
    data = good() | {
        "mode": "simple",
        "result": {"winners": [0], "termination": "sos", "scores": [1, 0]},
        "meta": {
            "date": "2026-12-01T10:00:00",
            "event": "Club night",
            "times": [1.5, 2, 0],
            "tags": {"opening": "corner"},
        },
    }
    record = Record.from_dict(data)
    assert record.result is not None and record.result[0].winners == (0,)
    assert record.to_dict() == data


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"format": "sosgame-record/2"}, "format", "is not a format this version reads"),
        ({"rows": "3"}, "rows", "must be a whole number from 1 to 26, not '3'"),
        ({"rows": True}, "rows", "must be a whole number"),
        ({"cols": 27}, "cols", "from 1 to 26, not 27"),
        ({"rows": 1, "cols": 2}, "rows", "too small"),
        ({"mode": "fast"}, "mode", "must be 'general' or 'simple'"),
        ({"players": ["Ann"]}, "players", "must name 2 to 8 players, not 1"),
        ({"players": "Ann, Bao"}, "players", "must be a list of names"),
        ({"players": ["Ann", ""]}, "players[1]", "the name of seat 2 is empty"),
        ({"players": ["Ann", 7]}, "players[1]", "the name of seat 2 must be text"),
        ({"moves": "Sa1 Ob1"}, "moves", "must be a list"),
        ({"moves": ["Sa1", 5]}, "moves[1]", "moves[1] (ply 2): must be move text"),
        ({"moves": ["Sa1", "Sa1"]}, "moves[1]", "moves[1] (ply 2): cannot play Sa1"),
        ({"moves": ["Sa1", "Sd1"]}, "moves[1]", "d1 is off the 3x3 board"),
        ({"moves": ["Sa1", "hello"]}, "moves[1]", "is not a move"),
        ({"moves": ["resign:0", "Sa1"]}, "moves[1]", "the game is over"),
        ({"moves": ["resign:5"]}, "moves[0]", "seats go from 0 to 1"),
        ({"extra": 1}, "extra", "unknown field 'extra'"),
        ({"result": {"winners": [1], "termination": "sos"}}, "result", "the game is not over"),
        ({"result": [0]}, "result", "must be an object"),
        ({"meta": []}, "meta", "must be an object"),
        ({"meta": {"date": "yesterday"}}, "meta.date", "is not an ISO date"),
        ({"meta": {"event": 3}}, "meta.event", "must be text"),
        ({"meta": {"times": [1, 2]}}, "meta.times", "must list 3 times"),
        ({"meta": {"times": [1, 2, -1]}}, "meta.times", "must list 3 times"),
        ({"meta": {"times": [1, 2, float("nan")]}}, "meta.times", "must list 3 times"),
        ({"meta": {"tags": {"a": 1}}}, "meta.tags", "text keys and text values"),
        ({"meta": {"colour": "red"}}, "meta.colour", "unknown field 'colour' in 'meta'"),
        ({"start": "SOS/.../..."}, "start", "must be an object"),
        ({"start": {"position": 5}}, "start.position", "must be position text"),
        ({"start": {"position": "SOS/.../...", "turn": 2}}, "start.turn", "from 0 to 1"),
        ({"start": {"position": "SOS/.../...", "scores": [3, 0]}}, "start", "scores add up"),
        ({"start": {"position": "SOS/.../...", "x": 1}}, "start.x", "unknown field 'x'"),
        ({"start": {"position": "SOS./..../...."}}, "start", "the position is 3x4"),
    ],
)
def test_every_wrong_field_is_named(change: dict[str, Any], field: str, words: str) -> None:
    data = good() | change
    with pytest.raises(RecordError, match=re.escape(words)) as caught:
        Record.from_dict(data)
    assert caught.value.field == field


@pytest.mark.parametrize(
    ("result", "field", "words"),
    [
        ({"winners": [1], "termination": "sos"}, "result.winners", r"says \[1\] but the moves"),
        ({"winners": "0", "termination": "sos"}, "result.winners", "list of seat numbers"),
        ({"winners": [0], "termination": "resignation"}, "result.termination", "'sos'"),
        ({"winners": [0], "termination": "sos", "scores": [2, 0]}, "result.scores", r"\[1, 0\]"),
        ({"winners": [0], "termination": "sos", "why": "x"}, "result.why", "unknown field"),
    ],
)
def test_a_stated_result_must_agree_with_the_moves(
    result: dict[str, Any], field: str, words: str
) -> None:
    data = good() | {"mode": "simple", "result": result}
    with pytest.raises(RecordError, match=words) as caught:
        Record.from_dict(data)
    assert caught.value.field == field


def test_the_ply_of_an_illegal_move_is_reported() -> None:
    with pytest.raises(RecordError) as caught:
        Record.from_dict(good() | {"moves": ["Sa1", "Ob1", "Sc1", "Sa1"]})
    assert caught.value.ply == 4
    assert "moves[3] (ply 4)" in str(caught.value)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{", "not valid JSON"),
        (b"\xff\xfe", "not valid JSON"),
        ("[1, 2]", "must be a JSON object, not a list"),
        ("{}", "has no field 'format'"),
        ('{"format": "sosgame-record/1"}', "has no field 'rows'"),
    ],
)
def test_text_that_is_not_a_record_is_rejected(text: str | bytes, words: str) -> None:
    with pytest.raises(RecordError, match=words):
        Record.from_json(text)


def test_missing_and_unwritable_files_are_reported(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "missing.json")
    with pytest.raises(RecordError, match="cannot write"):
        save(Game(3, 3), tmp_path / "no" / "such" / "dir.json")


@given(board_settings(), st.integers(0, 2**32 - 1))
def test_a_snapshot_of_settings_and_action_texts_rebuilds_the_game(
    settings: dict[str, object], seed: int
) -> None:
    game = random_game(settings, seed)
    snapshot = Snapshot(
        game.rows,
        game.cols,
        game.players,
        game.mode,
        None,
        tuple(str(action) for action in game.actions),
    )
    rebuilt = build_game(snapshot)
    assert rebuilt == game
    assert rebuilt.scores == game.scores and rebuilt.lines == game.lines


# ------------------------------------------------------------- endings off the board


def _record(moves: list[str], result: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "rows": 3,
        "cols": 3,
        "mode": "general",
        "players": ["Ann", "Bao"],
        "moves": moves,
        "result": result,
    }


@pytest.mark.parametrize(
    ("moves", "result"),
    [
        (["Sa1"], {"termination": "aborted", "winners": []}),
        (["Sa1", "Ob1"], {"termination": "agreement", "winners": [0, 1]}),
        (["Sa1", "Ob1"], {"termination": "abandoned", "winners": [0, 1], "scores": [0, 0]}),
        (["Sa1", "resign:1"], {"termination": "abandoned", "winners": [0]}),
        (["Sa1", "Ob1", "resign:0"], {"termination": "timeout", "winners": [1]}),
    ],
)
def test_a_record_states_an_ending_the_players_decided(
    moves: list[str], result: dict[str, Any]
) -> None:
    record = Record.from_dict(_record(moves, result))
    assert record.result is not None
    outcome, _ = record.result
    assert outcome.termination.value == result["termination"]
    assert list(outcome.winners) == result["winners"]
    assert Record.from_dict(record.to_dict()) == record


@pytest.mark.parametrize(
    ("moves", "result", "field"),
    [
        (["Sa1"], {"termination": "aborted", "winners": [0]}, "result.winners"),
        (["Sa1"], {"termination": "agreement", "winners": []}, "result.winners"),
        (["Sa1"], {"termination": "agreement", "winners": [1, 0]}, "result.winners"),
        (["Sa1", "resign:1"], {"termination": "aborted", "winners": []}, "result.termination"),
        (["Sa1"], {"termination": "timeout", "winners": [0]}, "result.termination"),
        (["Sa1", "resign:1"], {"termination": "timeout", "winners": [1]}, "result.termination"),
        (
            ["Sa1"],
            {"termination": "agreement", "winners": [0, 1], "scores": [1, 0]},
            "result.scores",
        ),
    ],
)
def test_an_ending_the_moves_contradict_is_refused(
    moves: list[str], result: dict[str, Any], field: str
) -> None:
    with pytest.raises(RecordError) as caught:
        Record.from_dict(_record(moves, result))
    assert caught.value.field == field
