"""A game played on the player's own device, with no server: a :class:`~sosgame.table.Table`
whose computer seats move through :func:`~sosgame.ai.make_player`, seen as the same JSON state
the web server's game page draws (``docs/protocol.md``, the ``state`` message's ``game``).

The browser runs this module in a Web Worker (Pyodide) from the engine's wheel, so that games
at one screen and against the computer go on without a connection, by these very rules and
players. Every call takes and returns JSON text, the form a worker's messages carry.

>>> import json
>>> table = json.loads(start('{"rows": 3, "cols": 3, "seats": [{"name": "Ann"}, '
...                          '{"name": "Bob", "player": "random"}]}'))
>>> table["state"]["turn"], table["state"]["board"]
(0, ['...', '...', '...'])
>>> json.loads(act('{"type": "move", "move": "Sa1"}'))["state"]["actions"]
['Sa1']
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from sosgame.ai.players import make_player
from sosgame.game import Game
from sosgame.levels import DEVICE_LEVELS, HINT_LEVEL
from sosgame.notation import Resignation, parse_action
from sosgame.record import Record
from sosgame.table import PERSON, Seat, Table, seats_from_record

__all__ = ["DEVICE_LEVELS", "HINT_SECONDS", "SECONDS", "act", "resume", "start", "state"]

SECONDS: Final = 2.0
"""The time budget of a searching level's move on a device (``hard``: a few seconds a move
even on a phone, where plain Python runs a few times slower than on a desktop)."""
HINT_SECONDS: Final = 1.0
"""The time a hint may take."""
HUMAN: Final = "human"
"""A person's seat, as the web's JSON names it (the table calls it :data:`PERSON`)."""


class _Current:
    """The one table a worker plays, with the settings it was started with."""

    table: Table | None = None
    seconds: float = SECONDS


_current = _Current()


def _seat(data: dict[str, Any], number: int) -> Seat:
    player = str(data.get("player", HUMAN))
    kind = PERSON if player == HUMAN else player
    if kind != PERSON and kind not in DEVICE_LEVELS:
        raise ValueError(f"a device plays {', '.join(DEVICE_LEVELS)}, not {player!r}")
    return Seat(str(data.get("name") or f"Player {number}"), kind)


def start(settings: str) -> str:
    """A new game from ``settings`` (``rows``, ``cols``, ``mode``, ``seats``: a ``name`` and a
    ``player`` each, a person (``"human"``) or a level of :data:`DEVICE_LEVELS`; ``seconds``:
    a searching level's time per move); returns :func:`state`."""
    data = json.loads(settings)
    seats = [_seat(seat, number) for number, seat in enumerate(data["seats"], start=1)]
    game = Game(
        int(data["rows"]), int(data["cols"]), players=len(seats), mode=data.get("mode", "general")
    )
    _current.table = Table(game, seats)
    _current.seconds = float(data.get("seconds", SECONDS))
    return state()


def resume(saved: str) -> str:
    """The game kept as :func:`state`'s ``saved`` (its record and what undo took back),
    at the table again; returns :func:`state`."""
    data = json.loads(saved)
    record = Record.from_dict(data["record"])
    undone: Sequence[str] = data.get("undone", [])
    game = record.starting_game()
    played = len(record.moves)
    game.play_all([*record.moves, *reversed(undone)])
    table = Table(game, seats_from_record(record))
    table.rewind(played)
    _current.table = table
    _current.seconds = float(data.get("seconds", SECONDS))
    return state()


def act(message: str) -> str:
    """Does what ``message`` asks (its ``type``): ``move`` (``move``: ``Sb3``), ``undo``,
    ``redo``, ``resign`` (the seat to move), ``computer`` (the computer seat to move plays),
    ``hint`` (the move :data:`~sosgame.levels.HINT_LEVEL` would play, in ``hint``); returns
    :func:`state`, with ``hint`` for a hint and ``moved`` for a computer's move.

    :raises IllegalMoveError: (from the engine) for a move the game forbids.
    :raises ValueError: for a message of no known type, or a computer's move when a person
        is to move.
    """
    data = json.loads(message)
    table = _table()
    kind = data.get("type")
    extra: dict[str, Any] = {}
    if kind == "move":
        if table.computer_to_move:
            raise ValueError("the computer is to move")
        table.play(str(data["move"]))
    elif kind == "undo":
        table.undo()
    elif kind == "redo":
        table.redo()
    elif kind == "resign":
        table.resign()
    elif kind == "computer":
        if not table.computer_to_move:
            raise ValueError("no computer is to move")
        level = table.seats[table.game.turn].kind
        player = make_player(level, seconds=_current.seconds)
        move = player.choose_move(table.game)
        table.play(move)
        extra["moved"] = str(move)
    elif kind == "hint":
        if table.game.is_over:
            raise ValueError("the game is over")
        extra["hint"] = str(
            make_player(HINT_LEVEL, seconds=HINT_SECONDS).choose_move(table.game.copy())
        )
    else:
        raise ValueError(f"no message of type {kind!r}")
    return json.dumps({**json.loads(state()), **extra})


def _table() -> Table:
    if _current.table is None:
        raise ValueError("no game was started")
    return _current.table


def _moves(record: Record) -> list[dict[str, Any]]:
    """Every action with the seat that took it and the points it scored, from the engine."""
    replaying = record.starting_game()
    moves = []
    for text in record.moves:
        action = parse_action(text)
        seat = action.seat if isinstance(action, Resignation) else replaying.turn
        moves.append({"action": text, "seat": seat, "points": len(replaying.apply(action))})
    return moves


def state() -> str:
    """The game as JSON: ``state``, the fields of the server's state message that a game on
    a device has (the board as rows of text, scores, lines with their owners, the turn, the
    actions, the result and what undo, redo and a hint may do), ``moves`` (each action with
    its seat and points, as ``GET /api/games/{id}/moves`` has them), ``legal`` (the moves the
    seat to move may play), ``computer_to_move``, and ``saved``, what :func:`resume` takes
    (the game's record, what undo took back, the time per move)."""
    table = _table()
    game = table.game
    outcome = game.outcome
    result = None if outcome is None else {**outcome.to_dict(), "scores": list(game.scores)}
    active = set(game.active_seats)
    person_to_move = not game.is_over and not table.seats[game.turn].is_computer
    seats = [
        {
            "name": seat.name,
            "player": HUMAN if seat.kind == PERSON else seat.kind,
            "taken": True,
            "connected": True,
            "resigned": index not in active,
        }
        for index, seat in enumerate(table.seats)
    ]
    shown = {
        "kind": "local",
        "rows": game.rows,
        "cols": game.cols,
        "mode": game.mode,
        "status": "finished" if game.is_over else "playing",
        "seats": seats,
        "board": game.position().split("/"),
        "scores": list(game.scores),
        "turn": game.turn,
        "ply": game.ply,
        "actions": [str(action) for action in game.actions],
        "lines": [line.to_dict() for line in game.lines],
        "extra_turn": game.extra_turn,
        "result": result,
        "clock": None,
        "can_undo": table.can_undo,
        "can_redo": table.can_redo,
        "can_hint": person_to_move,
    }
    record = table.record()
    saved = {
        "record": record.to_dict(),
        "undone": [str(action) for action in table.redo_stack],
        "seconds": _current.seconds,
    }
    return json.dumps(
        {
            "state": shown,
            "moves": _moves(record),
            "legal": [str(move) for move in game.legal_moves] if person_to_move else [],
            "computer_to_move": table.computer_to_move,
            "saved": saved,
        }
    )
