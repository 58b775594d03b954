"""Game records: the JSON form ``sosgame-record/1``, checked field by field when loaded.

A record knows nothing of scoring: it replays its moves through :class:`sosgame.Game`, which
is the judge of every move and of the result.

>>> record = Record.from_game(Game(3, 3, moves=["Sa1", "Ob1", "Sc1"]), players=["Ann", "Bao"])
>>> Record.from_json(record.to_json()).to_game().scores
(1, 0)
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from sosgame.errors import (
    FileError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidSettingsError,
    RecordError,
    SosError,
)
from sosgame.files import check_text, check_value, read_text, write_file
from sosgame.game import MAX_PLAYERS, MIN_PLAYERS, Game, Mode
from sosgame.limits import (
    BOARD_MAX_SIDE,
    BOARD_MIN_SIDE,
    RECORD_MAX_BYTES,
    RECORD_MAX_DEPTH,
    RECORD_MAX_NAME,
)
from sosgame.notation import parse_action
from sosgame.outcome import OFF_THE_BOARD, Outcome, Termination
from sosgame.settings import check_mode, check_names

__all__ = ["FORMAT", "MAX_NAME_LENGTH", "Record", "Start", "load", "save", "starting_game"]

FORMAT: Final = "sosgame-record/1"
MAX_NAME_LENGTH: Final = RECORD_MAX_NAME
"""The longest player name a record holds (:data:`sosgame.limits.RECORD_MAX_NAME`)."""
_FIELDS: Final = ("format", "rows", "cols", "mode", "players", "start", "moves", "result", "meta")
_REQUIRED: Final = ("format", "rows", "cols", "mode", "players", "moves")
_META_TEXT: Final = ("date", "event", "site", "round")
_META_FIELDS: Final = (*_META_TEXT, "times", "tags")


@dataclass(frozen=True)
class Start:
    """A set-up starting position: the board, the seat to move and the points so far."""

    position: str
    turn: int = 0
    scores: tuple[int, ...] | None = None


def starting_game(
    rows: int, cols: int, *, players: int, mode: Mode, start: Start | None = None
) -> Game:
    """A game before any move: the empty ``rows`` x ``cols`` board, or the set-up ``start``.

    Every part that rebuilds a game from its settings (records, the terminal game's replays,
    the web server's rooms and workers) starts here.

    :raises SosError: for settings or a start the rules do not allow.
    """
    if start is None:
        return Game(rows, cols, players=players, mode=mode)
    return Game.from_position(
        start.position, players=players, mode=mode, turn=start.turn, scores=start.scores
    )


@dataclass
class Record:
    """One game as a record: the settings, the players' names, the moves and what is known.

    ``moves`` holds move text (``Sb3``) and resignations (``resign:1``); ``result`` is the
    outcome with the final scores, present once the game is over; ``meta`` holds ``date``,
    ``event``, ``site``, ``round`` (text), ``times`` (seconds per entry of ``moves``) and
    ``tags`` (free text keys and values).
    """

    rows: int
    cols: int
    players: list[str]
    moves: list[str] = field(default_factory=list)
    mode: Mode = "general"
    result: tuple[Outcome, tuple[int, ...]] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    start: Start | None = None

    @classmethod
    def from_game(
        cls,
        game: Game,
        *,
        players: Sequence[str] | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> Record:
        """The record of ``game``; ``players`` are the seats' names (by default Player 1, ...)."""
        names = list(players) if players is not None else default_names(game.players)
        start = None
        if game.start is not None:
            position, turn, scores = game.start
            start = Start(position, turn, scores)
        result = (game.outcome, game.scores) if game.outcome is not None else None
        record = cls(
            rows=game.rows,
            cols=game.cols,
            players=names,
            moves=[str(action) for action in game.actions],
            mode=game.mode,
            result=result,
            meta=dict(meta or {}),
            start=start,
        )
        return cls.from_dict(record.to_dict())

    def to_game(self) -> Game:
        """Replay the record into a new game.

        :raises RecordError: naming the entry of ``moves`` that is not legal.
        """
        game = self._empty_game()
        _replay(game, self.moves)
        return game

    def starting_game(self) -> Game:
        """The record's game before its first move (see :func:`starting_game`)."""
        return starting_game(
            self.rows, self.cols, players=len(self.players), mode=self.mode, start=self.start
        )

    def _empty_game(self) -> Game:
        try:
            return self.starting_game()
        except SosError as error:
            # Without a start position only the size can be what the rules refuse.
            where, field, code = (
                ("fields 'rows' and 'cols'", "rows", "record_size")
                if self.start is None
                else ("field 'start'", "start", "record_start")
            )
            raise RecordError(
                f"{where}: {error}", field=field, code=code, values={"error": error}
            ) from None

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON-ready dictionary."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "rows": self.rows,
            "cols": self.cols,
            "mode": self.mode,
            "players": list(self.players),
        }
        if self.start is not None:
            start: dict[str, Any] = {"position": self.start.position, "turn": self.start.turn}
            if self.start.scores is not None:
                start["scores"] = list(self.start.scores)
            data["start"] = start
        data["moves"] = list(self.moves)
        if self.result is not None:
            outcome, scores = self.result
            data["result"] = {
                "winners": list(outcome.winners),
                "termination": outcome.termination.value,
                "scores": list(scores),
            }
        if self.meta:
            data["meta"] = dict(self.meta)
        return data

    def to_json(self, *, indent: int | None = 2) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """Read and check a record from JSON text (UTF-8, if bytes), nested no deeper than
        :data:`~sosgame.limits.RECORD_MAX_DEPTH`.

        :raises RecordError: for text that is not JSON, or a record that is wrong anywhere.
        """
        try:
            data = json.loads(check_text(text, depth=RECORD_MAX_DEPTH))
        except FileError as error:
            raise RecordError(
                f"the record is not valid JSON: {error}",
                code="record_json",
                values={"reason": error},
            ) from None
        except json.JSONDecodeError as error:
            raise RecordError(
                f"the record is not valid JSON: {error}",
                code="record_json",
                values={"reason": str(error)},
            ) from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: object) -> Record:
        """Check a decoded record field by field and replay its moves.

        :raises RecordError: naming the field (and for moves, the ply) that is wrong.
        """
        try:  # JSON another parser read (an upload) is held to a record file's depth
            check_value(data, depth=RECORD_MAX_DEPTH)
        except FileError as error:
            raise RecordError(
                f"the record is too deep: {error}", code="record_deep", values={"reason": error}
            ) from None
        if not isinstance(data, dict):
            raise RecordError(
                f"a record must be a JSON object, not {_kind(data)}",
                code="record_object",
                values={"kind": _kind(data)},
            )
        for key in data:
            if key not in _FIELDS:
                raise RecordError(
                    f"unknown field {key!r} in the record",
                    field=str(key),
                    code="record_unknown",
                    values={"name": key},
                )
        for key in _REQUIRED:
            if key not in data:
                raise RecordError(
                    f"the record has no field {key!r}",
                    field=key,
                    code="record_missing",
                    values={"name": key},
                )
        if data["format"] != FORMAT:
            raise RecordError(
                f"field 'format': {data['format']!r} is not a format this version reads;"
                f" it reads {FORMAT!r}",
                field="format",
                code="record_format",
                values={"value": data["format"], "format": FORMAT},
            )
        rows = _whole(data["rows"], "rows", BOARD_MIN_SIDE, BOARD_MAX_SIDE)
        cols = _whole(data["cols"], "cols", BOARD_MIN_SIDE, BOARD_MAX_SIDE)
        mode = data["mode"]
        try:
            check_mode(mode)
        except InvalidSettingsError:
            raise RecordError(
                f"field 'mode': must be 'general' or 'simple', not {mode!r}",
                field="mode",
                code="record_mode",
                values={"value": mode},
            ) from None
        players = _names(data["players"])
        moves = data["moves"]
        if not isinstance(moves, list):
            raise RecordError(f"field 'moves': must be a list, not {_kind(moves)}", field="moves")
        record = cls(
            rows=rows,
            cols=cols,
            players=players,
            mode=mode,
            start=_start(data.get("start"), len(players)),
            meta=_meta(data.get("meta", {}), len(moves)),
        )
        game = record._empty_game()
        if (game.rows, game.cols) != (rows, cols):
            raise RecordError(
                f"field 'start': the position is {game.rows}x{game.cols} but the record says"
                f" {rows}x{cols}",
                field="start",
            )
        record.moves = _replay(game, moves)
        record.result = _result(data.get("result"), game)
        return record


def default_names(players: int) -> list[str]:
    """``["Player 1", "Player 2", ...]``."""
    return [f"Player {seat + 1}" for seat in range(players)]


def load(path: str | Path) -> Record:
    """Read and check the record in the file at ``path`` (read by
    :func:`sosgame.files.read_text`: a regular file of at most
    :data:`~sosgame.limits.RECORD_MAX_BYTES`).

    :raises RecordError: if the file cannot be read or the record is wrong.
    """
    try:
        text = read_text(path, most=RECORD_MAX_BYTES, depth=RECORD_MAX_DEPTH)
    except FileError as error:
        raise RecordError(str(error), code="record_unreadable", values=error.values) from None
    return Record.from_json(text)


def save(record: Record | Game, path: str | Path) -> None:
    """Write ``record`` (or a game's record) to the file at ``path`` as JSON, whole or not at
    all (by :func:`sosgame.files.write_file`).

    :raises RecordError: if the file cannot be written.
    """
    if isinstance(record, Game):
        record = Record.from_game(record)
    _names(record.players)  # a record built by hand may hold names no file can
    data = (record.to_json() + "\n").encode("utf-8")
    try:
        write_file(path, data)
    except FileError as error:
        raise RecordError(str(error), code="record_unwritable", values=error.values) from None


def _replay(game: Game, moves: Sequence[object]) -> list[str]:
    canonical = []
    for number, entry in enumerate(moves):
        where = f"moves[{number}] (ply {number + 1})"
        if not isinstance(entry, str):
            raise RecordError(
                f"{where}: must be move text such as 'Sb3', not {_kind(entry)}",
                field=f"moves[{number}]",
                ply=number + 1,
            )
        try:
            action = parse_action(entry)
            game.apply(action)
        except (InvalidMoveError, IllegalMoveError) as error:
            raise RecordError(
                f"{where}: {error}",
                field=f"moves[{number}]",
                ply=number + 1,
                code="record_move",
                values={"number": number, "ply": number + 1, "error": error},
            ) from None
        canonical.append(str(action))
    return canonical


def _result(data: object, game: Game) -> tuple[Outcome, tuple[int, ...]] | None:
    actual = game.outcome
    if data is None:
        return None if actual is None else (actual, game.scores)
    data = _fields(data, "result", ("winners", "termination", "scores"))
    winners = data.get("winners")
    if not isinstance(winners, list) or not all(_is_whole(seat) for seat in winners):
        raise RecordError(
            "field 'result.winners': must be a list of seat numbers", field="result.winners"
        )
    if "scores" in data and data["scores"] != list(game.scores):
        raise RecordError(
            f"field 'result.scores': the record says {data['scores']!r} but the moves give"
            f" {list(game.scores)}",
            field="result.scores",
        )
    decided = _off_the_board(data.get("termination"), winners, game)
    if decided is not None:
        return decided, game.scores
    if actual is None:
        raise RecordError(
            f"field 'result': the record states a result, but the game is not over after its"
            f" {len(game.actions)} move{'' if len(game.actions) == 1 else 's'}",
            field="result",
            code="record_not_over",
            values={"count": len(game.actions)},
        )
    if tuple(winners) != actual.winners:
        raise RecordError(
            f"field 'result.winners': the record says {winners} but the moves give"
            f" {list(actual.winners)}",
            field="result.winners",
        )
    termination = data.get("termination")
    if termination != actual.termination.value:
        known = ", ".join(repr(item.value) for item in Termination)
        raise RecordError(
            f"field 'result.termination': the record says {termination!r} but the moves give"
            f" {actual.termination.value!r} (one of {known})",
            field="result.termination",
        )
    return actual, game.scores


def _off_the_board(termination: object, winners: list[int], game: Game) -> Outcome | None:
    """The outcome a record states that the players or a server decided (see
    :data:`~sosgame.outcome.OFF_THE_BOARD`), checked against the moves; ``None`` for any
    other termination."""
    kinds = {item.value: item for item in OFF_THE_BOARD}
    if termination not in kinds:
        return None
    kind = kinds[str(termination)]
    actual = game.outcome
    where = "field 'result.termination'"
    if kind in (Termination.TIMEOUT, Termination.ABANDONED) and actual is not None:
        # The last resignation was a flag, or a claim against a seat that had left.
        if actual.termination is not Termination.RESIGNATION or tuple(winners) != actual.winners:
            raise RecordError(
                f"{where}: {termination!r} ends a game by resignations, which these moves do not",
                field="result.termination",
            )
        return Outcome(kind, actual.winners)
    if actual is not None:
        raise RecordError(
            f"{where}: {termination!r} ends a game the moves do not end, but they give"
            f" {actual.termination.value!r}",
            field="result.termination",
        )
    if kind is Termination.TIMEOUT:
        raise RecordError(
            f"{where}: 'timeout' ends a game by resignations, which these moves do not",
            field="result.termination",
        )
    active = game.active_seats
    expected_empty = kind is Termination.ABORTED
    if (
        (expected_empty and winners)
        or (not expected_empty and not winners)
        or sorted(set(winners)) != winners
        or not set(winners) <= set(active)
    ):
        rule = "no winners" if expected_empty else "seats still in the game, in order"
        raise RecordError(
            f"field 'result.winners': {termination!r} takes {rule}, not {winners}",
            field="result.winners",
        )
    return Outcome(kind, tuple(winners))


def _names(data: object) -> list[str]:
    if not isinstance(data, list):
        raise RecordError(
            f"field 'players': must be a list of names, not {_kind(data)}", field="players"
        )
    if not MIN_PLAYERS <= len(data) <= MAX_PLAYERS:
        raise RecordError(
            f"field 'players': must name {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(data)}",
            field="players",
            code="record_players",
            values={"least": MIN_PLAYERS, "most": MAX_PLAYERS, "value": len(data)},
        )
    try:
        return check_names(data)
    except InvalidSettingsError as error:
        seat = int(str(error.values.get("second", error.values.get("seat", 1)))) - 1
        raise RecordError(
            f"field 'players[{seat}]': {error}",
            field=f"players[{seat}]",
            code="record_name",
            values={"seat": seat, "error": error},
        ) from None


def _start(data: object, players: int) -> Start | None:
    if data is None:
        return None
    data = _fields(data, "start", ("position", "turn", "scores"))
    position = data.get("position")
    if not isinstance(position, str):
        raise RecordError(
            "field 'start.position': must be position text such as 'S.O/.../OSS'",
            field="start.position",
        )
    turn = _whole(data.get("turn", 0), "start.turn", 0, players - 1)
    scores = data.get("scores")
    if scores is not None and (
        not isinstance(scores, list) or not all(_is_whole(value) for value in scores)
    ):
        raise RecordError(
            "field 'start.scores': must be a list of whole numbers", field="start.scores"
        )
    return Start(position, turn, None if scores is None else tuple(scores))


def _meta(data: object, moves: int) -> dict[str, Any]:
    data = _fields(data, "meta")
    for key, value in data.items():
        where = f"meta.{key}"
        if key not in _META_FIELDS:
            known = ", ".join(_META_FIELDS)
            raise RecordError(
                f"unknown field {key!r} in 'meta' (known: {known}; put anything else in 'tags')",
                field=where,
            )
        if key in _META_TEXT and not isinstance(value, str):
            raise RecordError(f"field {where!r}: must be text, not {_kind(value)}", field=where)
        if key == "date":
            try:
                datetime.fromisoformat(value)
            except ValueError:
                raise RecordError(
                    f"field 'meta.date': {value!r} is not an ISO date such as '2026-12-01'",
                    field=where,
                ) from None
        if key == "times" and (
            not isinstance(value, list)
            or len(value) != moves
            or not all(_is_seconds(seconds) for seconds in value)
        ):
            raise RecordError(
                f"field 'meta.times': must list {moves} times in seconds (0 or more), one for"
                " each entry of 'moves'",
                field=where,
            )
        if key == "tags" and (
            not isinstance(value, dict)
            or not all(isinstance(item, str) for pair in value.items() for item in pair)
        ):
            raise RecordError(
                "field 'meta.tags': must be an object of text keys and text values", field=where
            )
    return dict(data)


def _fields(data: object, name: str, known: tuple[str, ...] | None = None) -> dict[str, Any]:
    """``data``, if it is an object (of only the ``known`` keys, when given), for field ``name``."""
    if not isinstance(data, dict):
        raise RecordError(f"field {name!r}: must be an object, not {_kind(data)}", field=name)
    for key in data:
        if known is not None and key not in known:
            raise RecordError(f"unknown field {key!r} in {name!r}", field=f"{name}.{key}")
    return data


def _whole(value: object, name: str, low: int, high: int) -> int:
    if not _is_whole(value) or not low <= value <= high:  # type: ignore[operator]
        raise RecordError(
            f"field {name!r}: must be a whole number from {low} to {high}, not {value!r}",
            field=name,
            code="record_whole",
            values={"name": name, "least": low, "most": high, "value": value},
        )
    return value  # type: ignore[return-value]


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_seconds(value: object) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value >= 0
    )


def _kind(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "text", bool: "true/false", type(None): "null"}
    return names.get(type(value), f"the number {value!r}" if _is_whole(value) else repr(value))
