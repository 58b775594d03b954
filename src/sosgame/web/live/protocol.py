"""The JSON the server accepts, checked field by field: new-game settings and client messages.

Every check raises :class:`ProtocolError` with a registered code (:mod:`sosgame.web.live.errors`)
and a detail naming what was wrong; nothing is changed before a message has passed every check.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, Final, Literal, TypeAlias

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
    "AbortMessage",
    "AnswerMessage",
    "BerserkMessage",
    "ChatMessage",
    "ClaimKind",
    "ClaimMessage",
    "ClientMessage",
    "ClockSettings",
    "HelloMessage",
    "HintMessage",
    "MoveMessage",
    "NewGame",
    "OfferKind",
    "OfferMessage",
    "PingMessage",
    "ProtocolError",
    "RedoMessage",
    "ResignMessage",
    "SeatSettings",
    "UndoMessage",
    "WithdrawMessage",
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


OfferKind: TypeAlias = Literal["draw", "takeback", "rematch"]
ClaimKind: TypeAlias = Literal["win", "draw"]


@dataclass(frozen=True, kw_only=True)
class HelloMessage:
    """``hello``: the seat tokens this connection offers."""

    type: ClassVar[str] = "hello"
    token: str | None = None
    tokens: tuple[str, ...] = ()

    @property
    def all_tokens(self) -> tuple[str, ...]:
        """``token`` and ``tokens`` together: every seat token the hello offers."""
        return (*((self.token,) if self.token else ()), *self.tokens)


@dataclass(frozen=True, kw_only=True)
class MoveMessage:
    """``move``: a letter for the seat to move."""

    type: ClassVar[str] = "move"
    move: str
    ply: int


@dataclass(frozen=True, kw_only=True)
class ResignMessage:
    """``resign``: a seat this connection holds leaves the game (``None``: the default)."""

    type: ClassVar[str] = "resign"
    seat: int | None = None
    ply: int


@dataclass(frozen=True, kw_only=True)
class UndoMessage:
    """``undo``: take back the last action of a local game."""

    type: ClassVar[str] = "undo"
    ply: int | None = None


@dataclass(frozen=True, kw_only=True)
class RedoMessage:
    """``redo``: play again what undo took back."""

    type: ClassVar[str] = "redo"
    ply: int | None = None


@dataclass(frozen=True, kw_only=True)
class HintMessage:
    """``hint``: a suggested move for the seat to move."""

    type: ClassVar[str] = "hint"


@dataclass(frozen=True, kw_only=True)
class OfferMessage:
    """``offer``: a draw, takeback or rematch offered to the other players."""

    type: ClassVar[str] = "offer"
    offer: OfferKind
    ply: int | None = None


@dataclass(frozen=True, kw_only=True)
class AnswerMessage:
    """``answer``: accept or decline the standing offer of a kind."""

    type: ClassVar[str] = "answer"
    offer: OfferKind
    accept: bool
    ply: int | None = None


@dataclass(frozen=True, kw_only=True)
class WithdrawMessage:
    """``withdraw``: take back one's own standing offer."""

    type: ClassVar[str] = "withdraw"
    offer: OfferKind
    ply: int | None = None


@dataclass(frozen=True, kw_only=True)
class AbortMessage:
    """``abort``: end a game that has barely begun."""

    type: ClassVar[str] = "abort"
    ply: int | None = None


@dataclass(frozen=True, kw_only=True)
class BerserkMessage:
    """``berserk``: halve one's clock before one's first move (an Arena tournament's game)."""

    type: ClassVar[str] = "berserk"
    ply: int | None = None


@dataclass(frozen=True, kw_only=True)
class ClaimMessage:
    """``claim``: the win or a draw against a seat that left."""

    type: ClassVar[str] = "claim"
    claim: ClaimKind
    ply: int | None = None


@dataclass(frozen=True, kw_only=True)
class PingMessage:
    """``ping``: answered by ``pong``."""

    type: ClassVar[str] = "ping"


@dataclass(frozen=True, kw_only=True)
class ChatMessage:
    """``chat``: free text or a quick phrase, exactly one of them."""

    type: ClassVar[str] = "chat"
    text: str | None = None
    phrase: str | None = None


ClientMessage: TypeAlias = (
    HelloMessage
    | MoveMessage
    | ResignMessage
    | UndoMessage
    | RedoMessage
    | HintMessage
    | OfferMessage
    | AnswerMessage
    | WithdrawMessage
    | AbortMessage
    | BerserkMessage
    | ClaimMessage
    | PingMessage
    | ChatMessage
)
"""A checked client message: one dataclass per type, with exactly that type's fields."""


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


_MESSAGES: Final[tuple[type[ClientMessage], ...]] = (
    HelloMessage,
    MoveMessage,
    ResignMessage,
    UndoMessage,
    RedoMessage,
    HintMessage,
    OfferMessage,
    AnswerMessage,
    WithdrawMessage,
    AbortMessage,
    BerserkMessage,
    ClaimMessage,
    PingMessage,
    ChatMessage,
)
_CLASSES: Final[dict[str, type[ClientMessage]]] = {cls.type: cls for cls in _MESSAGES}
_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    name: tuple(item.name for item in fields(cls)) for name, cls in _CLASSES.items()
}
"""Each message type's fields (besides ``v`` and ``type``), as its dataclass has them."""
_REQUIRED: Final[dict[str, tuple[str, ...]]] = {
    name: tuple(
        item.name
        for item in fields(cls)
        if item.default is MISSING and item.default_factory is MISSING
    )
    for name, cls in _CLASSES.items()
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


def _token(value: object) -> str | None:
    if value is not None and (not isinstance(value, str) or len(value) > 100):
        raise ProtocolError("bad_field", "field 'token' must be a seat token (text)")
    return value


def _tokens(value: object) -> tuple[str, ...]:
    if (
        not isinstance(value, list)
        or len(value) > MAX_TOKENS
        or not all(isinstance(item, str) and 0 < len(item) <= 100 for item in value)
    ):
        raise ProtocolError(
            "bad_field", f"field 'tokens' must list at most {MAX_TOKENS} seat tokens (text)"
        )
    return tuple(value)


def _move(value: object) -> str:
    if not isinstance(value, str) or len(value) > 10:
        raise ProtocolError("bad_field", "field 'move' must be move text such as 'Sb3'")
    return value


def _offer(value: object) -> OfferKind:
    if value not in OFFERS:
        raise ProtocolError("bad_field", f"field 'offer' must be one of {', '.join(OFFERS)}")
    return value


def _accept(value: object) -> bool:
    if not isinstance(value, bool):
        raise ProtocolError("bad_field", "field 'accept' must be true or false")
    return value


def _claim(value: object) -> ClaimKind:
    if value not in CLAIMS:
        raise ProtocolError("bad_field", f"field 'claim' must be one of {', '.join(CLAIMS)}")
    return value


_CHECKS: Final[dict[str, Callable[[Any], object]]] = {
    # In this order, whatever the type: a message with several bad fields names the first.
    "token": _token,
    "tokens": _tokens,
    "move": _move,
    "ply": lambda value: _whole(value, "ply", 0, 10_000),
    "seat": lambda value: _whole(value, "seat", 0, MAX_PLAYERS - 1),
    "offer": _offer,
    "accept": _accept,
    "claim": _claim,
}


def parse_client_message(text: str) -> ClientMessage:
    """Check one WebSocket message from a client (see docs/protocol.md) and give it as its
    type's dataclass."""
    kind, data = parse_envelope(text, _FIELDS)
    for key in _REQUIRED[kind]:
        # A null is no value: ``"offer": null`` must not become an offer of nothing.
        if data.get(key) is None:
            raise ProtocolError("bad_message", f"a {kind!r} message needs field {key!r}")
    values: dict[str, Any] = {}
    for key, check in _CHECKS.items():
        # A null is no value, except in the list of tokens, which is a list or absent.
        if key in data and (data[key] is not None or key == "tokens"):
            values[key] = check(data[key])
    if kind == "chat":
        values["text"], values["phrase"] = check_chat(data.get("text"), data.get("phrase"))
    return _CLASSES[kind](**values)
