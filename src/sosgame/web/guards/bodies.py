"""Request bodies read with a limit, counted as they stream in, and parsed off the event loop.

A body longer than its limit is refused (413 ``too_large``) as soon as the count passes the
limit, so a client streaming hundreds of megabytes never makes the server hold more than
the limit. :func:`read_body` reads one endpoint's body with that endpoint's limit;
:class:`BodyLimit` guards the whole app with the largest limit, so a route that forgets
:func:`read_body` is still safe. :func:`read_json` parses a long body in the app's parsing
threads (``ServerLimits.parse_threads``), so a crowd of long bodies waits its turn there
instead of holding the event loop (a 256 KiB body takes tens of milliseconds to check and
parse).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor
from typing import Any, Final

from starlette.datastructures import Headers
from starlette.requests import ClientDisconnect, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sosgame.web.live.errors import error_response
from sosgame.web.live.protocol import ProtocolError, parse_json

__all__ = [
    "INLINE_BYTES",
    "MAX_BODY_BYTES",
    "SMALL_BODY_BYTES",
    "BodyLimit",
    "BodyTooLargeError",
    "read_body",
    "read_json",
]

MAX_BODY_BYTES: Final = 256 * 1024
"""The largest HTTP request body (an uploaded record) the server reads."""
SMALL_BODY_BYTES: Final = 16 * 1024
"""The largest body of every other request (a new game's settings, a seek, a puzzle's moves,
a name and password), which needs a few hundred bytes: a long body sent to one of those is
refused by its declared length before anything is read or parsed."""
INLINE_BYTES: Final = 16 * 1024
"""A body up to this long is parsed on the event loop (in well under a millisecond); a
longer one in the app's parsing threads."""
_DIGITS: Final = 20
_CLOSE: Final = (b"connection", b"close")


class BodyTooLargeError(ProtocolError):
    """A request body over its limit."""

    def __init__(self, limit: int) -> None:
        super().__init__("too_large", f"a request body may be at most {limit} bytes")


def _declared_fits(headers: Headers, limit: int) -> bool:
    """Whether the Content-Length, if any, is a number of at most ``limit`` bytes."""
    length = headers.get("content-length")
    if length is None:
        return True
    length = length.strip()
    # ASCII digits only: "²".isdigit() is true, and int() of a long one fails.
    return length.isascii() and length.isdigit() and len(length) <= _DIGITS and int(length) <= limit


async def read_body(request: Request, limit: int = MAX_BODY_BYTES) -> bytes:
    """The request's body, or :class:`BodyTooLargeError` once it passes ``limit`` bytes (checked
    on the Content-Length first, then chunk by chunk as the body arrives)."""
    if not _declared_fits(request.headers, limit):
        raise BodyTooLargeError(limit)
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLargeError(limit)
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json(
    request: Request, limit: int = SMALL_BODY_BYTES, *, optional: bool = False
) -> Any:
    """The request's JSON body, read by :func:`read_body` and checked by
    :func:`~sosgame.web.live.protocol.parse_json` (``optional``: an empty body is ``{}``); a body
    over :data:`INLINE_BYTES` is parsed in the app's parsing threads (``app.state.parsers``)."""
    if limit <= SMALL_BODY_BYTES:
        return await _read_json(request, limit, optional=optional)
    # A long body waits its turn unread: a crowd of them, read and parsed all at once, would
    # fill the event loop with their chunks and hold it with their parsing.
    async with request.app.state.long_bodies:
        return await _read_json(request, limit, optional=optional)


async def _read_json(request: Request, limit: int, *, optional: bool) -> Any:
    body = await read_body(request, limit)
    if optional and not body.strip():
        return {}
    if len(body) <= INLINE_BYTES:
        return parse_json(body, "the request body")
    parsers: Executor = request.app.state.parsers
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(parsers, parse_json, body, "the request body")


class BodyLimit:
    """ASGI middleware: no HTTP request body of more than ``limit`` bytes reaches the app.

    A declared Content-Length over the limit is answered at once; a body sent in chunks is
    counted as the app reads it, and reading past the limit raises :class:`BodyTooLargeError`
    (answered 413 ``too_large`` by the app's handler, or here if none did). Every 413 says
    ``Connection: close``, so the server stops reading what the client goes on sending. A
    client that hangs up before its body is in is let go without an answer (or a log entry).
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if not _declared_fits(Headers(scope=scope), self.limit):
            await _refuse(self.limit, scope, receive, send)
            return
        received = 0
        started = False

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise BodyTooLargeError(self.limit)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if message["status"] == 413:  # the rest of the body is unread: hang up
                    message["headers"] = [*message.get("headers", []), _CLOSE]
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLargeError:
            if started:
                raise
            await _refuse(self.limit, scope, receive, send)
        except ClientDisconnect:
            # The client hung up before its body was in: there is no one to answer, and
            # nothing went wrong here worth a traceback in the log.
            return


async def _refuse(limit: int, scope: Scope, receive: Receive, send: Send) -> None:
    error = BodyTooLargeError(limit)
    response = error_response(error.code, error.detail)
    response.headers["connection"] = "close"
    await response(scope, receive, send)
