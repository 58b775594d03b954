"""The JSON the server accepts, checked field by field: new-game settings and client messages.

Every check raises :class:`ProtocolError` with a registered code (:mod:`sosgame.web.live.errors`)
and a detail naming what was wrong; nothing is changed before a message has passed every check.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeAlias

from sosgame.game import MAX_PLAYERS, MIN_PLAYERS, MODES, Mode
from sosgame.levels import LEVELS
from sosgame.limits import BOARD_MAX_SIDE, BOARD_MIN_SIDE, WEB_MAX_NAME
from sosgame.web.api import JSON, Model
from sosgame.web.guards import jsonsafe, limits
from sosgame.web.live.errors import ProtocolError, error_body
from sosgame.web.storage.rows import HUMAN

__all__ = [
    "CLAIMS",
    "COMPUTER_LEVELS",
    "DAYS_PER_MOVE",
    "KINDS",
    "MAX_CHAT_TEXT",
    "MAX_MESSAGE_BYTES",
    "NEW_GAME",
    "OFFERS",
    "PHRASES",
    "PROTOCOL_VERSION",
    "ClientMessage",
    "ClockSettings",
    "NewGame",
    "ProtocolError",
    "SeatSettings",
    "check_chat",
    "check_days",
    "check_name",
    "error_message",
    "parse_client_message",
    "parse_envelope",
    "parse_json",
    "parse_new_game",
]

PROTOCOL_VERSION: Final = 1
MAX_MESSAGE_BYTES: Final = 2048
"""The longest WebSocket message a client may send; a longer one closes the connection
(1009), both here and in the server's WebSocket transport."""
MAX_TOKENS: Final = MAX_PLAYERS
COMPUTER_LEVELS: Final = LEVELS
"""The levels a computer seat can play (:data:`sosgame.levels.LEVELS`)."""
KINDS: Final = ("local", "online")
OFFERS: Final = ("draw", "takeback", "rematch")
"""What a player may offer the others (:mod:`sosgame.web.offers`)."""
CLAIMS: Final = ("win", "draw")
"""What the players left may claim when a seat has abandoned a game without a clock."""
MAX_CLOCK_SECONDS: Final = 3 * 3600
MAX_INCREMENT_SECONDS: Final = 180
DAYS_PER_MOVE: Final = (1, 2, 3, 5, 7, 14)
"""The days per move a correspondence game may give each move."""
PHRASES: Final = ("hello", "good_luck", "good_game", "thanks")
"""The chat's quick phrases, by key."""
MAX_CHAT_TEXT: Final = 140
"""The longest free text of a chat message, in characters."""

Kind: TypeAlias = Literal["local", "online"]

_SIDE: Final[JSON] = {"type": "integer", "minimum": BOARD_MIN_SIDE, "maximum": BOARD_MAX_SIDE}
_SEAT: Final[JSON] = {
    "type": "object",
    "required": ["name"],
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": WEB_MAX_NAME},
        "player": {"enum": [HUMAN, *COMPUTER_LEVELS], "default": HUMAN},
    },
}
_CLOCK: Final[JSON] = {
    "type": ["object", "null"],
    "required": ["initial"],
    "properties": {
        "initial": {"type": "integer", "minimum": 1, "maximum": MAX_CLOCK_SECONDS},
        "increment": {
            "type": "integer",
            "minimum": 0,
            "maximum": MAX_INCREMENT_SECONDS,
            "default": 0,
        },
    },
    "description": "seconds per player, and seconds added after each of their moves",
}
NEW_GAME: Final = Model(
    "NewGame",
    {
        "type": "object",
        "required": ["rows", "cols", "seats"],
        "properties": {
            "rows": _SIDE,
            "cols": _SIDE,
            "mode": {"enum": list(MODES), "default": MODES[0]},
            "kind": {"enum": list(KINDS), "default": KINDS[0]},
            "seats": {
                "type": "array",
                "minItems": MIN_PLAYERS,
                "maxItems": MAX_PLAYERS,
                "items": _SEAT,
            },
            "clock": _CLOCK,
            "days": {
                "enum": list(DAYS_PER_MOVE),
                "description": "online games: a correspondence game with this many days per"
                " move (instead of a clock)",
            },
            "public": {
                "type": "boolean",
                "default": False,
                "description": "online games: list the game and let anyone take its free seats"
                " (otherwise only with an invite link)",
            },
            "rated": {
                "type": "boolean",
                "description": "online games: to be rated (the default for online games; a"
                " guest's game is casual all the same)",
            },
        },
        "additionalProperties": False,
        "description": "The longer side at least 3 (every board the engine plays)",
    },
)
"""The body of ``POST /api/games``: the fields :func:`parse_new_game` takes, and its limits."""


def error_message(code: str, detail: str | None = None, **extra: Any) -> dict[str, Any]:
    """The ``error`` message sent back for a bad message (a code of the registry,
    :mod:`sosgame.web.live.errors`)."""
    return {"v": PROTOCOL_VERSION, "type": "error", **error_body(code, detail), **extra}


@dataclass(frozen=True)
class SeatSettings:
    """A seat at creation: its name and ``human`` or a computer level."""

    name: str
    player: str


@dataclass(frozen=True)
class ClockSettings:
    """Time per player and the increment added after each of their moves, in milliseconds."""

    initial_ms: int
    increment_ms: int


@dataclass(frozen=True)
class NewGame:
    """Checked settings for a new game."""

    rows: int
    cols: int
    mode: Mode
    kind: Kind
    seats: tuple[SeatSettings, ...]
    clock: ClockSettings | None
    public: bool = False
    rated: bool = True
    """Whether the game is to be rated (it is only if it qualifies: online, named players)."""
    days: int | None = None
    """Days per move of a correspondence game (then no clock)."""


@dataclass(frozen=True)
class ClientMessage:
    """A checked client message; fields a type does not use are ``None``."""

    type: str
    token: str | None = None
    move: str | None = None
    ply: int | None = None
    seat: int | None = None
    tokens: tuple[str, ...] = ()
    offer: str | None = None
    accept: bool | None = None
    claim: str | None = None
    text: str | None = None
    """A ``chat`` message's free text (checked by :func:`sosgame.web.live.chat.check_chat`)."""
    phrase: str | None = None

    @property
    def all_tokens(self) -> tuple[str, ...]:
        """``token`` and ``tokens`` together: every seat token a ``hello`` offers."""
        return (*((self.token,) if self.token else ()), *self.tokens)


def _whole(value: object, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ProtocolError(
            "bad_field", f"field {name!r} must be a whole number from {low} to {high}"
        )
    return value


def check_name(value: object, where: str) -> str:
    """A player's name, checked by :func:`sosgame.web.guards.limits.check_name`."""
    try:
        return limits.check_name(value, where)
    except limits.SettingsError as error:
        raise ProtocolError("bad_field", str(error)) from None


def parse_json(data: str | bytes, what: str) -> Any:
    """JSON from a client, nested at most :data:`~sosgame.web.guards.jsonsafe.MAX_DEPTH` deep."""
    try:
        return jsonsafe.loads(data)
    except jsonsafe.JsonError as error:
        raise ProtocolError("bad_json", f"{what} is not valid JSON: {error}") from None


def _object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ProtocolError("bad_field", f"{where} must be a JSON object")
    return value


def _known(data: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in data:
        if key not in allowed:
            raise ProtocolError(
                "unknown_field", f"unknown field {key!r} in {where} (known: {', '.join(allowed)})"
            )


def parse_new_game(data: object) -> NewGame:
    """Check the body of ``POST /api/games``."""
    body = _object(data, "the new game")
    _known(body, NEW_GAME.fields, "the new game")
    try:
        rows, cols = limits.check_board(body.get("rows"), body.get("cols"))
    except limits.SettingsError as error:
        raise ProtocolError("bad_field", str(error)) from None
    mode = body.get("mode", "general")
    if mode not in MODES:
        raise ProtocolError("bad_field", "field 'mode' must be 'general' or 'simple'")
    kind = body.get("kind", "local")
    if kind not in KINDS:
        raise ProtocolError("bad_field", "field 'kind' must be 'local' or 'online'")
    raw_seats = body.get("seats")
    try:
        if not isinstance(raw_seats, list):
            raise limits.SettingsError("field 'seats' must be a list of seats")
        limits.check_seat_count(len(raw_seats), "seats")
    except limits.SettingsError as error:
        raise ProtocolError("bad_field", str(error)) from None
    seats = []
    for number, raw in enumerate(raw_seats):
        where = f"seats[{number}]"
        seat = _object(raw, f"field {where!r}")
        _known(seat, tuple(_SEAT["properties"]), f"field {where!r}")
        player = seat.get("player", HUMAN)
        if player != HUMAN and player not in COMPUTER_LEVELS:
            known = ", ".join((HUMAN, *COMPUTER_LEVELS))
            raise ProtocolError("bad_field", f"field '{where}.player' must be one of {known}")
        seats.append(SeatSettings(check_name(seat.get("name"), f"{where}.name"), player))
    clock = None
    if body.get("clock") is not None:
        raw_clock = _object(body["clock"], "field 'clock'")
        _known(raw_clock, tuple(_CLOCK["properties"]), "field 'clock'")
        initial = _whole(raw_clock.get("initial"), "clock.initial", 1, MAX_CLOCK_SECONDS)
        increment = _whole(
            raw_clock.get("increment", 0), "clock.increment", 0, MAX_INCREMENT_SECONDS
        )
        clock = ClockSettings(initial * 1000, increment * 1000)
    days = check_days(body.get("days"), "days")
    if days is not None and clock is not None:
        raise ProtocolError("bad_field", "give field 'clock' or field 'days', not both")
    if days is not None and kind != "online":
        raise ProtocolError("bad_field", "field 'days' is for online games only")
    public = body.get("public", False)
    if not isinstance(public, bool):
        raise ProtocolError("bad_field", "field 'public' must be true or false")
    if public and kind != "online":
        raise ProtocolError("bad_field", "field 'public' is for online games only")
    rated = body.get("rated", kind == "online")
    if not isinstance(rated, bool):
        raise ProtocolError("bad_field", "field 'rated' must be true or false")
    if rated and kind != "online":
        raise ProtocolError("bad_field", "field 'rated' is for online games only")
    return NewGame(rows, cols, mode, kind, tuple(seats), clock, public, rated, days)


def check_days(value: object, where: str) -> int | None:
    """Days per move (``None`` if not given), one of :data:`DAYS_PER_MOVE`."""
    if value is None:
        return None
    if isinstance(value, bool) or value not in DAYS_PER_MOVE:
        allowed = ", ".join(str(days) for days in DAYS_PER_MOVE)
        raise ProtocolError(
            "bad_field", f"field {where!r} must be one of {allowed} (days per move)"
        )
    return int(value)


_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "hello": ("token", "tokens"),
    "move": ("move", "ply"),
    "resign": ("seat", "ply"),
    "undo": ("ply",),
    "redo": ("ply",),
    "hint": (),
    "offer": ("offer", "ply"),
    "answer": ("offer", "accept", "ply"),
    "withdraw": ("offer", "ply"),
    "abort": ("ply",),
    "claim": ("claim", "ply"),
    "ping": (),
    "chat": ("text", "phrase"),
}
_REQUIRED: Final[dict[str, tuple[str, ...]]] = {
    "move": ("move", "ply"),
    "resign": ("ply",),
    "offer": ("offer",),
    "answer": ("offer", "accept"),
    "withdraw": ("offer",),
    "claim": ("claim",),
}


def parse_envelope(text: str, types: Mapping[str, tuple[str, ...]]) -> tuple[str, dict[str, Any]]:
    """The type and fields of one WebSocket message, checked: its size, JSON, version, a type
    among ``types`` and only the fields ``types`` gives that type (besides ``v``, ``type``)."""
    if len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"a message may be at most {MAX_MESSAGE_BYTES} bytes long")
    data = parse_json(text, "the message")
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    version = data.get("v")
    # ``true`` and ``1.0`` compare equal to 1 in Python; only the integer 1 will do.
    if type(version) is not int or version != PROTOCOL_VERSION:
        raise ProtocolError(
            "bad_version", f"field 'v' must be {PROTOCOL_VERSION}, the protocol version"
        )
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in types:
        raise ProtocolError(
            "unknown_type",
            f"unknown message type {kind!r}; the types are {', '.join(types)}",
        )
    allowed = ("v", "type", *types[kind])
    _known(data, allowed, f"a {kind!r} message")
    return kind, data


def check_chat(text: object, phrase: object) -> tuple[str | None, str | None]:
    """The text or the phrase of a ``chat`` message, checked (exactly one of them)."""
    if (text is None) == (phrase is None):
        raise ProtocolError("bad_message", "a 'chat' message needs 'text' or 'phrase', not both")
    if phrase is not None:
        if phrase not in PHRASES:
            raise ProtocolError("bad_field", f"field 'phrase' must be one of {', '.join(PHRASES)}")
        return None, str(phrase)
    if not isinstance(text, str):
        raise ProtocolError("bad_field", "field 'text' must be text")
    # Control characters (line breaks too) would let one message look like several.
    clean = "".join(c for c in text if unicodedata.category(c)[0] != "C").strip()
    if not clean or len(clean) > MAX_CHAT_TEXT:
        raise ProtocolError("bad_field", f"field 'text' must hold 1 to {MAX_CHAT_TEXT} characters")
    return clean, None


def parse_client_message(text: str) -> ClientMessage:
    """Check one WebSocket message from a client (see docs/protocol.md)."""
    kind, data = parse_envelope(text, _FIELDS)
    for key in _REQUIRED.get(kind, ()):
        # A null is no value: ``"offer": null`` must not become an offer of nothing.
        if data.get(key) is None:
            raise ProtocolError("bad_message", f"a {kind!r} message needs field {key!r}")
    token = data.get("token")
    if token is not None and (not isinstance(token, str) or len(token) > 100):
        raise ProtocolError("bad_field", "field 'token' must be a seat token (text)")
    tokens = data.get("tokens", [])
    if (
        not isinstance(tokens, list)
        or len(tokens) > MAX_TOKENS
        or not all(isinstance(item, str) and 0 < len(item) <= 100 for item in tokens)
    ):
        raise ProtocolError(
            "bad_field", f"field 'tokens' must list at most {MAX_TOKENS} seat tokens (text)"
        )
    move = data.get("move")
    if move is not None and (not isinstance(move, str) or len(move) > 10):
        raise ProtocolError("bad_field", "field 'move' must be move text such as 'Sb3'")
    ply = data.get("ply")
    if ply is not None:
        ply = _whole(ply, "ply", 0, 10_000)
    seat = data.get("seat")
    if seat is not None:
        seat = _whole(seat, "seat", 0, MAX_PLAYERS - 1)
    offer = data.get("offer")
    if offer is not None and offer not in OFFERS:
        raise ProtocolError("bad_field", f"field 'offer' must be one of {', '.join(OFFERS)}")
    accept = data.get("accept")
    if accept is not None and not isinstance(accept, bool):
        raise ProtocolError("bad_field", "field 'accept' must be true or false")
    claim = data.get("claim")
    if claim is not None and claim not in CLAIMS:
        raise ProtocolError("bad_field", f"field 'claim' must be one of {', '.join(CLAIMS)}")
    said: tuple[str | None, str | None] = (None, None)
    if kind == "chat":
        said = check_chat(data.get("text"), data.get("phrase"))
    return ClientMessage(
        kind,
        token,
        move,
        ply,
        seat,
        tuple(tokens),
        offer,
        accept,
        claim,
        text=said[0],
        phrase=said[1],
    )
