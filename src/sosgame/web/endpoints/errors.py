"""How errors are answered: every one as JSON ``{"error": {"code": ..., "message": ...}}``
with the status the registry gives its code (:mod:`sosgame.web.live.errors`), never a
traceback."""

from __future__ import annotations

from http import HTTPStatus

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from sosgame.web.guards.middleware import HEADERS
from sosgame.web.live.errors import ProtocolError, error_response

__all__ = ["http_error", "protocol_error", "server_error", "storage_unavailable"]


async def protocol_error(_request: Request, error: Exception) -> Response:
    """A checked request's error, with the status its code calls for."""
    assert isinstance(error, ProtocolError)
    return error_response(error.code, error.detail)


async def storage_unavailable(_request: Request, _exception: Exception) -> Response:
    """The database cannot be reached: 503."""
    return error_response("storage_unavailable")


async def http_error(_request: Request, error: Exception) -> Response:
    """An unknown path or a wrong method (or another refusal of the routing or the static
    files), in JSON, with the status the framework gave it."""
    assert isinstance(error, HTTPException)
    if error.status_code == HTTPStatus.NOT_FOUND:
        code = "not_found"
    elif error.status_code == HTTPStatus.METHOD_NOT_ALLOWED:
        code = "method_not_allowed"
    else:
        code = "bad_request"
    # The framework's detail is the status's own phrase unless a route said more.
    said = str(error.detail)
    detail = None if said == HTTPStatus(error.status_code).phrase else said
    response = error_response(code, detail, status=error.status_code)
    response.headers.update(error.headers or {})  # such as a 405's Allow
    return response


async def server_error(_request: Request, _exception: Exception) -> Response:
    """Anything else: 500, with no traceback."""
    # Sent from outside every middleware, so it carries the security headers itself.
    response = error_response("internal")
    response.raw_headers.extend(HEADERS)
    return response
