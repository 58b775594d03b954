"""How errors are answered: every one as JSON ``{"error": {"code": ..., "message": ...}}``
with the status its code calls for, never a traceback."""

from __future__ import annotations

from typing import Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from sosgame.web.endpoints.common import STORAGE_UNAVAILABLE, error_response
from sosgame.web.guards.middleware import HEADERS
from sosgame.web.live.protocol import ProtocolError

__all__ = ["http_error", "protocol_error", "server_error", "storage_unavailable"]

# Codes for the errors routing and static files raise (an unknown path, a wrong method).
HTTP_CODES: Final = {404: "not_found", 405: "method_not_allowed"}


async def protocol_error(_request: Request, error: Exception) -> Response:
    """A checked request's error, with the status its code calls for."""
    assert isinstance(error, ProtocolError)
    status = {
        "no_game": 404,
        "too_large": 413,
        "seat_taken": 409,
        "not_your_seat": 403,
        "not_allowed": 403,
        "bad_invite": 403,
        "too_many_games": 429,
        "too_many_lobby_games": 429,
        "analysis_busy": 429,
        "analysis_queue_full": 429,
        "rate_limited": 429,
        "login_busy": 429,
        "name_taken": 409,
        "name_confusable": 409,
        "wrong_password": 401,
        "not_logged_in": 401,
        "no_player": 404,
        "no_puzzle": 404,
        "no_seek": 404,
        "too_many_seeks": 429,
        "no_lobby": 401,
        "account_needed": 403,
    }.get(error.code, 400)
    return error_response(status, error.code, error.message)


async def storage_unavailable(_request: Request, _exception: Exception) -> Response:
    """The database cannot be reached: 503."""
    return error_response(503, *STORAGE_UNAVAILABLE)


async def http_error(_request: Request, error: Exception) -> Response:
    """An unknown path or a wrong method, in JSON."""
    assert isinstance(error, HTTPException)
    code = HTTP_CODES.get(error.status_code, "bad_request")
    response = error_response(error.status_code, code, str(error.detail).lower())
    response.headers.update(error.headers or {})  # such as a 405's Allow
    return response


async def server_error(_request: Request, _exception: Exception) -> Response:
    """Anything else: 500, with no traceback."""
    # Sent from outside every middleware, so it carries the security headers itself.
    response = error_response(500, "internal", "the server failed to answer this request")
    response.raw_headers.extend(HEADERS)
    return response
