"""Every error code the web server sends, in one registry: its HTTP status, where it may
come (an HTTP answer, a game's WebSocket, the lobby's) and its text, ``web.error.CODE`` in the
catalogs, whose English is the message sent with the code.

A refusal names only its code (:class:`ProtocolError`), and at most a ``detail`` that only
that place knows (the field, the cap, the ply): the message is the catalog's text and that
detail. A new code goes in :data:`ERRORS`, its text in :mod:`sosgame.i18n.texts_web_errors`
and its translations in the ``.po`` catalogs, and its row in docs/protocol.md's table of
codes (``tests/test_web_errors.py`` checks all four, and every code the source raises).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final

from starlette.responses import JSONResponse

from sosgame.i18n import translator

__all__ = [
    "ERRORS",
    "ErrorCode",
    "Place",
    "ProtocolError",
    "UnknownErrorCodeError",
    "error_body",
    "error_response",
    "error_status",
    "registered",
    "text_key",
]


class Place(StrEnum):
    """Where a code may be sent."""

    HTTP = "http"
    """In an HTTP answer, as ``{"error": {"code", "message"}}`` with the code's status."""
    GAME = "game"
    """As an ``error`` message on a game's WebSocket (``/ws/games/{id}``)."""
    LOBBY = "lobby"
    """As an ``error`` message on the lobby's WebSocket (``/ws/lobby``)."""


@dataclass(frozen=True)
class ErrorCode:
    """One code: the HTTP status it is answered with and where it may be sent."""

    status: int
    places: frozenset[Place]


def _code(status: int, *places: Place) -> ErrorCode:
    return ErrorCode(status, frozenset(places))


HTTP, GAME, LOBBY = Place.HTTP, Place.GAME, Place.LOBBY
SOCKETS: Final = (GAME, LOBBY)
EVERYWHERE: Final = (HTTP, GAME, LOBBY)

ERRORS: Final[Mapping[str, ErrorCode]] = MappingProxyType(
    {
        # What a request or message says, field by field.
        "bad_json": _code(400, *EVERYWHERE),
        "bad_message": _code(400, *SOCKETS),
        "bad_version": _code(400, *SOCKETS),
        "unknown_type": _code(400, *SOCKETS),
        "unknown_field": _code(400, *EVERYWHERE),
        "bad_field": _code(400, *EVERYWHERE),
        "bad_record": _code(400, HTTP),
        "bad_moves": _code(400, HTTP),
        "too_large": _code(413, *EVERYWHERE),
        "hello_first": _code(400, *SOCKETS),
        "hello_once": _code(400, LOBBY),
        # Caps and rates.
        "rate_limited": _code(429, *EVERYWHERE),
        "too_many_connections": _code(429, *EVERYWHERE),
        "server_busy": _code(503, *SOCKETS),
        "too_many_games": _code(429, *EVERYWHERE),
        "too_many_lobby_games": _code(429, HTTP, GAME),
        "too_many_seeks": _code(429, HTTP),
        "too_many_entries": _code(400, LOBBY),
        "analysis_busy": _code(429, HTTP),
        "analysis_queue_full": _code(429, HTTP),
        "login_busy": _code(429, HTTP),
        "chat_full": _code(400, GAME),
        # Games, seats and moves.
        "no_game": _code(404, HTTP, GAME),
        "seat_taken": _code(409, HTTP),
        "bad_invite": _code(403, HTTP),
        "waiting": _code(400, HTTP, GAME),
        "game_over": _code(400, HTTP, GAME),
        "stale": _code(400, HTTP, GAME),
        "not_your_turn": _code(400, GAME),
        "not_your_seat": _code(403, HTTP, GAME),
        "not_allowed": _code(403, HTTP, GAME),
        "bad_move": _code(400, HTTP, GAME),
        "illegal_move": _code(400, HTTP, GAME),
        "nothing_to_undo": _code(400, GAME),
        "nothing_to_redo": _code(400, GAME),
        "no_offer": _code(400, *EVERYWHERE),
        "not_abandoned": _code(400, HTTP, GAME),
        "unavailable": _code(400, GAME),
        # The lobby: pools and seeks.
        "no_pool": _code(400, LOBBY),
        "no_bots": _code(403, LOBBY),
        "already_waiting": _code(400, LOBBY),
        "no_seek": _code(404, HTTP, LOBBY),
        "not_for_you": _code(400, HTTP, LOBBY),
        "already_joined": _code(400, LOBBY),
        "no_challenge": _code(404, HTTP, LOBBY),
        "too_many_challenges": _code(429, HTTP, LOBBY),
        "challenge_refused": _code(403, HTTP, LOBBY),
        "no_lobby": _code(401, HTTP),
        "account_needed": _code(403, *EVERYWHERE),
        # Tournaments.
        "no_tournament": _code(404, HTTP),
        "not_invited": _code(403, HTTP),
        "bots_not_allowed": _code(403, HTTP),
        "tournament_over": _code(409, HTTP),
        "tournament_full": _code(409, HTTP),
        "not_entered": _code(409, HTTP),
        "too_many_tournaments": _code(429, HTTP),
        "not_your_tournament": _code(403, HTTP),
        "tournament_open": _code(409, HTTP),
        # Players, accounts and puzzles.
        "no_token": _code(401, HTTP),
        "bad_token": _code(401, HTTP),
        "missing_scope": _code(403, HTTP),
        "unknown_scope": _code(400, HTTP),
        "too_many_tokens": _code(429, HTTP),
        "no_token_id": _code(404, HTTP),
        "not_upgradable": _code(400, HTTP),
        "not_a_bot": _code(403, HTTP),
        "wrong_turn": _code(400, HTTP),
        "not_logged_in": _code(401, HTTP),
        "wrong_password": _code(401, HTTP),
        "weak_password": _code(400, HTTP),
        "name_taken": _code(409, HTTP),
        "name_confusable": _code(409, HTTP),
        "no_player": _code(404, HTTP, LOBBY),
        "no_puzzle": _code(404, HTTP),
        # The server itself and what stands before the app.
        "storage_failed": _code(400, HTTP, GAME),
        "storage_unavailable": _code(503, *EVERYWHERE),
        "bad_host": _code(400, HTTP),
        "bad_origin": _code(403, HTTP),
        "headers_too_large": _code(431, HTTP),
        "body_timeout": _code(408, HTTP),
        "not_found": _code(404, HTTP),
        "method_not_allowed": _code(405, HTTP),
        "bad_request": _code(400, HTTP),
        "internal": _code(500, HTTP),
    }
)
"""Every code the server may send, by name."""


class UnknownErrorCodeError(LookupError):
    """A code that is not in :data:`ERRORS`."""


def registered(code: str) -> ErrorCode:
    """The registry's entry for ``code``.

    :raises UnknownErrorCodeError: if the code is not registered.
    """
    try:
        return ERRORS[code]
    except KeyError:
        raise UnknownErrorCodeError(f"{code!r} is not a registered error code") from None


def text_key(code: str) -> str:
    """The key of ``code``'s text in the catalogs (the browser's ``errorText`` reads it)."""
    return f"web.error.{code}"


def error_status(code: str) -> int:
    """The HTTP status ``code`` is answered with."""
    return registered(code).status


_ENGLISH: Final = translator("en")


def _clause(text: str) -> str:
    """A catalog sentence as the clause the server's messages are written in: no final stop,
    and a small first letter unless it starts a word in capitals."""
    text = text.removesuffix(".")
    first = text.split(" ", 1)[0]
    return text[:1].lower() + text[1:] if first[1:] == first[1:].lower() else text


def _message(code: str, detail: str | None) -> str:
    registered(code)
    clause = _clause(_ENGLISH(text_key(code)))
    return clause if detail is None else f"{clause} ({detail})"


def error_body(code: str, detail: str | None = None) -> dict[str, Any]:
    """``{"code", "message"}`` (and ``"detail"`` if given), as both HTTP answers and the
    sockets' ``error`` messages carry it: the message is the catalog's English text and the
    detail."""
    body: dict[str, Any] = {"code": code, "message": _message(code, detail)}
    if detail is not None:
        body["detail"] = detail
    return body


def error_response(
    code: str, detail: str | None = None, *, status: int | None = None
) -> JSONResponse:
    """An error as every endpoint answers it, ``{"error": {"code", "message"}}``, with the
    code's status (or ``status``, for an error the framework raised with its own)."""
    return JSONResponse(
        {"error": error_body(code, detail)}, status_code=status or error_status(code)
    )


class ProtocolError(ValueError):
    """A request or message refused, with a registered ``code``; ``detail`` says what only
    the place that refuses it knows (which field, which cap), in English for programs.

    :raises UnknownErrorCodeError: for a code that is not in :data:`ERRORS`.
    """

    def __init__(self, code: str, detail: str | None = None) -> None:
        registered(code)
        self.code = code
        self.detail = detail
        super().__init__(code, detail)

    @property
    def message(self) -> str:
        """The code's English text and the detail (looked up when read: the machine's
        checks refuse many actions that nobody sends, to tell which are allowed)."""
        return _message(self.code, self.detail)

    def __str__(self) -> str:
        return self.message

    @property
    def status(self) -> int:
        """The HTTP status the error is answered with."""
        return error_status(self.code)
