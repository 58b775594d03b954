"""A game on the player's device (``sosgame.ai.device``): the table's rules, the state the
browser's game page draws, and a saved game played on after a reload."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sosgame import Game, IllegalMoveError
from sosgame.ai import device


def _start(**settings: Any) -> dict[str, Any]:
    return json.loads(device.start(json.dumps(settings)))


def _act(**message: Any) -> dict[str, Any]:
    return json.loads(device.act(json.dumps(message)))


def test_the_state_has_the_fields_of_the_server_state_message() -> None:
    shown = _start(rows=3, cols=4, mode="simple", seats=[{"name": "Ann"}, {"name": "Bob"}])
    state = shown["state"]
    assert state["board"] == ["....", "....", "...."] and state["mode"] == "simple"
    assert [seat["player"] for seat in state["seats"]] == ["human", "human"]
    assert state["turn"] == 0 and state["ply"] == 0 and state["result"] is None
    assert len(shown["legal"]) == 2 * 12
    after = _act(type="move", move="Sa1")["state"]
    assert after["actions"] == ["Sa1"] and after["turn"] == 1 and after["can_undo"]


def test_lines_scores_and_result_come_from_the_engine() -> None:
    _start(rows=3, cols=3, seats=[{"name": "A"}, {"name": "B"}])
    moves = ["Sa1", "Ob1", "Sc1"]
    for move in moves:
        shown = _act(type="move", move=move)
    game = Game(3, 3, moves=moves)
    assert shown["state"]["lines"] == [line.to_dict() for line in game.lines]
    assert shown["state"]["scores"] == list(game.scores)
    assert shown["state"]["extra_turn"] is True
    assert shown["moves"] == [
        {"action": "Sa1", "seat": 0, "points": 0},
        {"action": "Ob1", "seat": 1, "points": 0},
        {"action": "Sc1", "seat": 0, "points": 1},
    ]


def test_undo_against_the_computer_goes_back_to_the_person_and_redo_plays_again() -> None:
    _start(rows=4, cols=4, seats=[{"name": "Me"}, {"name": "PC", "player": "random"}])
    _act(type="move", move="Sa1")
    moved = _act(type="computer")
    assert moved["moved"] and moved["state"]["ply"] == 2 and not moved["computer_to_move"]
    undone = _act(type="undo")["state"]
    assert undone["ply"] == 0 and undone["can_redo"]
    assert _act(type="redo")["state"]["actions"] == moved["state"]["actions"]


def test_a_game_saved_with_its_redo_plays_on_after_a_reload() -> None:
    _start(rows=4, cols=4, seats=[{"name": "A"}, {"name": "B"}])
    for move in ["Sa1", "Ob2", "Sc3"]:
        _act(type="move", move=move)
    saved = _act(type="undo")["saved"]
    _start(rows=3, cols=3, seats=[{"name": "X"}, {"name": "Y"}])  # another game meanwhile
    again = json.loads(device.resume(json.dumps(saved)))
    assert again["state"]["actions"] == ["Sa1", "Ob2"]
    assert [seat["name"] for seat in again["state"]["seats"]] == ["A", "B"]
    assert _act(type="redo")["state"]["actions"] == ["Sa1", "Ob2", "Sc3"]


def test_a_hint_is_a_legal_move_and_changes_nothing() -> None:
    shown = _start(rows=4, cols=4, seats=[{"name": "A"}, {"name": "B"}])
    hinted = _act(type="hint")
    assert hinted["hint"] in shown["legal"] and hinted["state"] == shown["state"]


def test_a_computer_plays_a_finished_game_to_its_record() -> None:
    shown = _start(rows=3, cols=3, seats=[{"player": "easy"}, {"player": "medium"}])
    while shown["computer_to_move"]:
        shown = _act(type="computer")
    record = shown["saved"]["record"]
    assert shown["state"]["status"] == "finished" and shown["state"]["result"]
    assert record["moves"] == shown["state"]["actions"]
    assert record["meta"]["tags"]["sosgame.seats"] == "easy,medium"


def test_refusals_are_errors() -> None:
    _start(rows=3, cols=3, seats=[{"name": "A"}, {"player": "random"}])
    with pytest.raises(ValueError, match="no computer"):
        _act(type="computer")
    _act(type="move", move="Sa1")
    with pytest.raises(ValueError, match="computer is to move"):
        _act(type="move", move="Sb1")
    _act(type="computer")
    with pytest.raises(IllegalMoveError):
        _act(type="move", move="Sa1")
    with pytest.raises(ValueError, match="device plays"):
        _start(rows=3, cols=3, seats=[{"name": "A"}, {"player": "perfect"}])
