"""The live game's machine, driven alone: random commands from every seat and from spectators
at random times, with the rules' invariants checked after each step (no event loop, no store).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from sosgame.game import Game
from sosgame.record import starting_game
from sosgame.web.live import clock as clocks
from sosgame.web.live.machine import permissions
from sosgame.web.live.machine.apply import apply
from sosgame.web.live.machine.clocks import clock_view, next_timer
from sosgame.web.live.machine.commands import (
    Command,
    Fire,
    GameMessage,
    Outcome,
    Play,
    Presence,
    Sent,
    Timer,
)
from sosgame.web.live.machine.state import LiveState, Timings
from sosgame.web.live.machine.writes import result
from sosgame.web.live.protocol import (
    AbortMessage,
    AnswerMessage,
    ClaimMessage,
    MoveMessage,
    OfferMessage,
    ProtocolError,
    RedoMessage,
    ResignMessage,
    UndoMessage,
    WithdrawMessage,
)
from sosgame.web.storage.rows import Change, SeatRow

START = 1_000_000
"""The first moment of every run (ms)."""
TIMINGS = Timings(first_move_ms=20_000, abandon_ms=30_000, rematch_ms=30_000)
STEPS_BACK = (UndoMessage, RedoMessage)
"""What a finished local game still takes (besides chat and a rematch, which are the
socket's work, not the machine's): undo and redo."""


def _state(kind: str, players: int, size: int, timed: bool, computer: bool) -> LiveState:
    seats = tuple(
        SeatRow(seat, f"P{seat}", "easy" if computer and seat == players - 1 else "human", "h")
        for seat in range(players)
    )
    clock = None
    if timed:
        clock = {**clocks.new_clock(60_000, 2_000, players), "waiting": START}
    return LiveState(
        game_id="g",
        kind=kind,
        rows=size,
        cols=size,
        mode="simple" if size == 3 else "general",
        seats=seats,
        timings=TIMINGS,
        rated=kind == "online",
        clock=clock,
    )


def _message(kind: str, seat: int | None, ply: int | None, data: Any) -> GameMessage:
    """One client message of ``kind`` (its fields drawn from ``data``)."""
    offer = data.draw(st.sampled_from(("draw", "takeback", "rematch")))
    match kind:
        case "move":
            return MoveMessage(move=data.draw(_moves), ply=ply if ply is not None else 0)
        case "resign":
            return ResignMessage(seat=seat, ply=ply if ply is not None else 0)
        case "undo":
            return UndoMessage(ply=ply)
        case "redo":
            return RedoMessage(ply=ply)
        case "abort":
            return AbortMessage(ply=ply)
        case "claim":
            return ClaimMessage(claim=data.draw(st.sampled_from(("win", "draw"))), ply=ply)
        case "offer":
            return OfferMessage(offer=offer, ply=ply)
        case "answer":
            return AnswerMessage(offer=offer, accept=data.draw(st.booleans()), ply=ply)
        case _:
            return WithdrawMessage(offer=offer, ply=ply)


_moves = st.builds(
    lambda letter, col, row: f"{letter}{col}{row}",
    st.sampled_from("SO"),
    st.sampled_from("abcd"),
    st.integers(1, 4),
)
_kinds = st.sampled_from(
    (
        "move",
        "move",
        "move",
        "resign",
        "undo",
        "redo",
        "abort",
        "claim",
        "offer",
        "answer",
        "withdraw",
    )
)


def _termination(state: LiveState) -> str | None:
    shown = result(state)
    return None if shown is None else str(shown["termination"])


def _fields(state: LiveState) -> list[str]:
    """Every field of ``state``, as text (what the state holds inside it too)."""
    return [repr(getattr(state, field.name)) for field in dataclasses.fields(state)]


class LiveGame(RuleBasedStateMachine):
    """The machine against the engine and the rules' invariants."""

    def __init__(self) -> None:
        super().__init__()
        self.state: LiveState
        self.now = START
        self.engine: Game
        """The game as the stored changes build it, through the engine alone."""

    @initialize(
        kind=st.sampled_from(("online", "local")),
        players=st.integers(2, 3),
        size=st.integers(3, 4),
        timed=st.booleans(),
        computer=st.booleans(),
    )
    def begin(self, kind: str, players: int, size: int, timed: bool, computer: bool) -> None:
        self.state = _state(kind, players, size, timed, computer and kind == "local")
        self.engine = starting_game(size, size, players=players, mode=self.state.mode)

    # ------------------------------------------------------------------------ commands

    @rule(ms=st.one_of(st.integers(0, 3_000), st.integers(0, 70_000)))
    def time_passes(self, ms: int) -> None:
        self.now += ms

    @rule(
        seat=st.integers(-1, 2),
        kind=_kinds,
        stale=st.integers(0, 9).map(lambda draw: draw == 0),
        legal=st.booleans(),
        data=st.data(),
    )
    def a_message(self, seat: int, kind: str, stale: bool, legal: bool, data: Any) -> None:
        """From a seat (its own alone), or from a spectator (``-1``: no seat; a computer's
        seat is no connection's)."""
        seats = self.state.seats
        person = 0 <= seat < len(seats) and seats[seat].player == "human"
        held = frozenset((seat,)) if person else frozenset()
        ply = self.state.ply + (1 if stale else 0)
        message = _message(kind, None if seat < 0 else seat, ply, data)
        if kind == "move" and legal and self.state.game.legal_moves:
            move = data.draw(st.sampled_from(sorted(map(str, self.state.game.legal_moves))))
            message = MoveMessage(move=move, ply=ply)
        self._step(Sent(message, held))

    @rule(moves=st.integers(1, 4), data=st.data())
    def the_seat_to_move_plays(self, moves: int, data: Any) -> None:
        """Legal moves from the seat to move (most moves are: games get to their end)."""
        for _ in range(moves):
            if not self.state.game.legal_moves or self._computer_to_move():
                return
            move = data.draw(st.sampled_from(sorted(map(str, self.state.game.legal_moves))))
            held = frozenset((self.state.game.turn,))
            self._step(Sent(MoveMessage(move=move, ply=self.state.ply), held))

    @rule()
    def a_timer_fires(self) -> None:
        timer = next_timer(self.state, self.now)
        if timer is not None:
            self.now = max(self.now, timer.when)
            self._step(Fire(timer))

    @rule(late=st.integers(0, 5_000))
    def the_correspondence_sweep(self, late: int) -> None:
        self._step(Fire(Timer("overdue", self.now + late, self.state.ply)))

    @rule(connected=st.frozensets(st.integers(0, 2)))
    def presence(self, connected: frozenset[int]) -> None:
        self._step(Presence(connected))

    @rule(data=st.data())
    def the_computer_moves(self, data: Any) -> None:
        if not self.state.playable or not self._computer_to_move():
            return
        move = data.draw(st.sampled_from(sorted(map(str, self.state.game.legal_moves))))
        self._step(Play(move))

    def _computer_to_move(self) -> bool:
        return self.state.seats[self.state.game.turn].player != "human"

    # ------------------------------------------------------------------------ one step

    def _step(self, command: Command) -> None:
        before = self.state
        fields = _fields(before)
        try:
            outcome = apply(before, command, self.now)
        except ProtocolError as error:
            assert error.code  # a registered code: tests/test_web_errors.py checks the source
            outcome = None
        assert _fields(before) == fields, "apply changed the state it was given"
        name = type(command.message if isinstance(command, Sent) else command).__name__
        event(f"{name} {'refused' if outcome is None else 'applied'}")
        if before.over:
            self._finished_accepts_nothing(command, outcome)
        if outcome is None:
            self._refused(before, command)
            return
        self._check(before, command, outcome)
        self.state = outcome.state

    def _finished_accepts_nothing(self, command: Command, outcome: Outcome | None) -> None:
        if isinstance(command, Sent) and isinstance(command.message, STEPS_BACK):
            assert outcome is None or self.state.kind == "local"
        elif isinstance(command, Sent | Play):
            assert outcome is None, f"a finished game took {command}"
        elif outcome is not None:
            assert outcome.write is None

    def _refused(self, before: LiveState, command: Command) -> None:
        """A refused move was not allowed (the state's flags say the same)."""
        if isinstance(command, Sent) and isinstance(command.message, MoveMessage):
            message = command.message
            if message.ply == before.ply and len(command.held) == 1:
                (seat,) = command.held
                flags = permissions.allowed(before, self.now)[seat]
                legal = {str(move) for move in before.game.legal_moves}
                assert not (flags["can_move"] and message.move in legal)

    def _check(self, before: LiveState, command: Command, outcome: Outcome) -> None:
        after = outcome.state
        write = outcome.write
        if write is None:
            assert after.actions == before.actions and after.version == before.version
            return
        assert after.version == before.version + 1
        assert write.version == before.version
        if isinstance(write, Change):
            self._store(write)
            self._clock_gains_nothing(before, after, write)
            self._timeouts_at_zero(before, after, write)
        if isinstance(command, Sent) and isinstance(command.message, MoveMessage):
            (seat,) = command.held
            assert permissions.allowed(before, self.now)[seat]["can_move"]
        shown = result(after)
        if shown is not None and shown["termination"] == "aborted":
            assert not before.started, "aborted after every seat had moved"
            assert after.ply == before.ply

    def _store(self, change: Change) -> None:
        """Build the game as a store of the changes would, with the engine."""
        if change.keep is not None:
            while len(self.engine.actions) > change.keep:
                self.engine.undo()
        assert change.first_ply == len(self.engine.actions) + 1
        self.engine.play_all(change.texts)

    def _clock_gains_nothing(self, before: LiveState, after: LiveState, change: Change) -> None:
        if before.clock is None:
            assert after.clock is None
            return
        assert after.clock is not None
        moved = [0] * len(before.seats)
        if change.keep is None:
            replay = before.game.copy()
            for text in change.texts:
                if not text.startswith("resign:"):
                    moved[replay.turn] += 1
                replay.apply(text)
        increment = before.clock["increment"]
        for seat, left in enumerate(after.clock["remaining"]):
            assert left <= before.clock["remaining"][seat] + moved[seat] * increment

    def _timeouts_at_zero(self, before: LiveState, after: LiveState, change: Change) -> None:
        if after.clock is None or before.clock is None:
            return
        new = set(after.clock.get("flagged", [])) - set(before.clock.get("flagged", []))
        for seat in new:
            assert f"resign:{seat}" in change.texts
            view = clock_view(before, self.now)
            assert view is not None and view["running"] == seat
            assert view["remaining"][seat] == 0, "a timeout with time left"

    # ---------------------------------------------------------------------- invariants

    @invariant()
    def the_machine_and_the_engine_agree(self) -> None:
        game, engine = self.state.game, self.engine
        assert self.state.actions == tuple(str(action) for action in engine.actions)
        assert game.position() == engine.position()
        assert (game.scores, game.turn, game.extra_turn) == (
            engine.scores,
            engine.turn,
            engine.extra_turn,
        )
        assert game.is_over == engine.is_over
        assert (self.state.status == "finished") == (
            engine.is_over or self.state.ending is not None
        )

    @invariant()
    def at_most_one_offer_of_each_kind(self) -> None:
        event(f"{self.state.kind} game {self.state.status}, result {_termination(self.state)}")
        kinds = [item["offer"] for item in self.state.standing_offers(self.now)]
        assert len(kinds) == len(set(kinds))
        stored = [item["offer"] for item in self.state.offers]
        assert len(stored) == len(set(stored))

    @invariant()
    def a_clock_never_shows_less_than_nothing(self) -> None:
        """Nor keeps less: a move that comes once the flag fell is a loss on time."""
        clock = self.state.clock
        assert clock is None or all(left >= 0 for left in clock["remaining"])
        view = clock_view(self.state, self.now)
        if view is not None:
            assert all(left >= 0 for left in view["remaining"])
            assert view["running"] is None or self.state.started


LiveGame.TestCase.settings = settings(max_examples=40, stateful_step_count=40)
test_the_live_game = LiveGame.TestCase


@pytest.mark.slow
def test_the_live_game_deeper() -> None:
    """The same machine, longer and more often."""
    run_state_machine_as_test(LiveGame, settings=settings(max_examples=300, stateful_step_count=80))


def test_a_local_game_aborted_after_an_undo_plays_nothing_on_by_redo() -> None:
    state = _state("local", 2, 3, False, False)
    for message in (MoveMessage(move="Sa1", ply=0), UndoMessage(ply=1), AbortMessage(ply=0)):
        state = apply(state, Sent(message, frozenset((0,))), START).state
    assert result(state) is not None and state.undone == ("Sa1",)
    with pytest.raises(ProtocolError) as refused:
        apply(state, Sent(RedoMessage(ply=0), frozenset((0,))), START)
    assert refused.value.code == "game_over"
    assert permissions.allowed(state, START)[0]["can_redo"] is False
    # An undo is what opens such a game again: here there is nothing left to take back.
    assert permissions.allowed(state, START)[0]["can_undo"] is False


def test_apply_reads_no_clock_but_its_now() -> None:
    state = _state("online", 2, 3, True, False)
    first = apply(state, Sent(MoveMessage(move="Sa1", ply=0), frozenset((0,))), START)
    assert first.write is not None and first.write.now_ms == START
    assert first.state.clock is not None and first.state.clock["waiting"] == START
    assert first.timer == Timer("overdue", START + TIMINGS.first_move_ms, 1)
