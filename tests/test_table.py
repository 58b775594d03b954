"""The table the terminal game and the browser share: seats, undo back to a person's turn,
redo, and play on from a replay."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sosgame import Game, Move
from sosgame.errors import IllegalMoveError
from sosgame.record import Record
from sosgame.table import KINDS, PERSON, SEATS_TAG, Replay, Seat, Table, seats_from_record


@st.composite
def tables(draw: st.DrawFn) -> Table:
    """A table of 2 to 4 seats of any kinds, brought to a random state by random plays,
    resignations, undos and redos."""
    rows = draw(st.integers(3, 4))
    cols = draw(st.integers(3, 4))
    players = draw(st.integers(2, 4))
    kinds = draw(st.lists(st.sampled_from(KINDS), min_size=players, max_size=players))
    seats = [Seat(f"Seat {seat + 1}", kind) for seat, kind in enumerate(kinds)]
    table = Table(Game(rows, cols, players=players), seats)
    for step in draw(st.lists(st.sampled_from("pppprud"), max_size=30)):
        game = table.game
        if step == "p" and not game.is_over:
            moves = sorted(game.legal_moves, key=str)
            table.play(moves[draw(st.integers(0, len(moves) - 1))])
        elif step == "r" and not game.is_over:
            table.resign()
        elif step == "u":
            table.undo()
        elif step == "d":
            table.redo()
    return table


def state_of(table: Table) -> tuple[Game, list[str]]:
    return table.game.copy(), [str(action) for action in table.redo_stack]


@given(tables())
def test_undo_back_to_a_person_then_redo_restores_the_exact_state(table: Table) -> None:
    before = state_of(table)
    undone = table.undo()
    assert bool(undone) == (table.game != before[0])
    if undone:
        assert table.redo() == undone[::-1]
    assert state_of(table) == before


@given(tables())
def test_redo_then_undo_restores_the_exact_state(table: Table) -> None:
    before = state_of(table)
    redone = table.redo()
    if redone:
        assert table.undo() == redone[::-1]
    assert state_of(table) == before


@given(tables())
def test_undo_never_stops_on_a_computers_turn(table: Table) -> None:
    before = table.game.copy()
    undone = table.undo()
    if not undone:
        assert table.game == before
        assert not table.can_undo
    elif table.has_person:
        assert not table.seats[table.game.turn].is_computer
        assert not table.game.is_over
    else:
        assert len(undone) == 1  # computers only: one action at a time
    assert table.can_redo == bool(table.redo_stack)


@given(tables(), st.data())
def test_play_on_from_a_replayed_position_keeps_every_seats_kind(
    table: Table, data: st.DataObject
) -> None:
    record = Record.from_json(table.record().to_json())  # as a file keeps it
    replay = Replay(record)
    replay.to_end()
    for _ in range(data.draw(st.integers(0, replay.total))):
        replay.back()
    shown = replay.game.copy()
    played_on = replay.play_on()
    assert played_on.seats == table.seats
    assert played_on.game == shown
    assert played_on.game is not replay.game
    if not shown.is_over:
        assert played_on.computer_to_move == table.seats[shown.turn].is_computer


def test_a_new_action_forgets_what_undo_took_back() -> None:
    table = Table(Game(3, 3), [Seat("Ann"), Seat("Bao")])
    for move in ("Sa1", "Ob1", "Sc1"):
        table.play(move)
    assert [str(action) for action in table.undo()] == ["Sc1"]
    assert table.can_redo
    table.play("Oc3")
    assert not table.can_redo
    assert table.redo() == []


def test_undo_takes_back_nothing_where_only_a_computer_could_move() -> None:
    table = Table(Game(3, 3), [Seat("Bot", "easy"), Seat("Ann")])
    table.play("Sa1")  # the computer's opening move
    before = table.game.copy()
    assert not table.can_undo
    assert table.undo() == []
    assert table.game == before
    table.play("Ob1")
    table.play("Oc3")  # the computer's reply
    assert table.can_undo
    assert [str(action) for action in table.undo()] == ["Oc3", "Ob1"]
    assert table.game == before
    assert [str(action) for action in table.redo()] == ["Ob1", "Oc3"]


def test_a_retracted_action_gives_back_what_redo_held() -> None:
    table = Table(Game(3, 3), [Seat("Ann"), Seat("Bao")])
    table.play("Sa1")
    table.play("Ob1")
    table.undo()
    table.play("Sc3")
    assert not table.can_redo
    assert str(table.retract()) == "Sc3"
    assert [str(action) for action in table.redo_stack] == ["Ob1"]
    assert table.game == Game(3, 3, moves=["Sa1"])


def test_an_illegal_action_changes_nothing() -> None:
    table = Table(Game(3, 3), [Seat("Ann"), Seat("Bao")])
    table.play("Sa1")
    table.play("Ob1")
    table.undo()
    with pytest.raises(IllegalMoveError):
        table.play(Move.parse("Oa1"))
    assert [str(action) for action in table.redo_stack] == ["Ob1"]


def test_rewind_takes_back_for_redo() -> None:
    table = Table(Game(3, 3), [Seat("Ann"), Seat("Bao")])
    for move in ("Sa1", "Ob1", "Sc1"):
        table.play(move)
    assert [str(action) for action in table.rewind(1)] == ["Sc1", "Ob1"]
    assert [str(action) for action in table.redo()] == ["Ob1"]


def test_seats_name_their_kind() -> None:
    with pytest.raises(ValueError, match="'robot'"):
        Seat("Ann", "robot")
    with pytest.raises(ValueError, match="1 seats for a 2-player game"):
        Table(Game(3, 3), [Seat("Ann")])
    assert not Seat("Ann").is_computer and Seat("Bot", "hard").is_computer


def test_a_record_keeps_who_plays_each_seat() -> None:
    table = Table(Game(3, 3), [Seat("Ann"), Seat("Bot", "perfect")])
    record = table.record()
    assert record.meta["tags"] == {SEATS_TAG: f"{PERSON},perfect"}
    assert seats_from_record(record) == table.seats
    # A record that does not say, or says something else, has a person at every seat.
    for tags in ({}, {SEATS_TAG: "person"}, {SEATS_TAG: "person,robot"}):
        other = Record.from_dict({**record.to_dict(), "meta": {"tags": tags}})
        assert [seat.kind for seat in seats_from_record(other)] == [PERSON, PERSON]


def test_a_finished_game_against_the_computer_stays_finished() -> None:
    table = Table(Game(3, 3), [Seat("Ann"), Seat("Bot", "easy")])
    table.play("Sa1")
    table.resign(0)  # the person gives up: the computer has won
    assert table.game.is_over
    assert not table.can_undo
    assert table.undo() == []
    assert table.game.is_over


def test_a_finished_game_between_people_can_still_be_taken_back() -> None:
    table = Table(Game(3, 3), [Seat("Ann"), Seat("Bao")])
    table.play("Sa1")
    table.resign(1)
    assert [str(action) for action in table.undo()] == ["resign:1"]
    assert not table.game.is_over
