"""HTTP connections bounded before their requests are parsed: headers in time and in size,
bodies in time.

A client that opens connections and sends their headers a byte at a time ties up the
server's sockets and memory for as long as it likes. Each protocol here arms a timer when
a connection opens and when a request's first byte arrives, and closes the connection if
the headers are not complete when it fires (``ServerLimits.header_timeout`` seconds, 10
by default). Once the headers are in, a second timer gives the body
``ServerLimits.body_timeout`` seconds: past it the request is answered 408 ``body_timeout``
(or, if its answer has begun, cut off) and the connection closed. A WebSocket is not timed
once it is open.

A request line and headers of more than ``ServerLimits.max_header_bytes`` bytes together
are answered 431 ``headers_too_large`` and the connection closed, having parsed no more than
that (what the client still sends is read and dropped for a few seconds, so that it sees the
answer): httptools keeps a header that arrives in many pieces by joining them again each time
(time that grows with the square of its length, all of it on the event loop), so it is
handed the bytes of a request's headers only up to the limit.

``sosgame serve`` hands uvicorn :func:`http_protocol`'s class: the one built on the
parser uvicorn would choose itself (httptools when it is installed, else h11).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from functools import cache
from http import HTTPStatus
from importlib.util import find_spec
from typing import Any, Literal

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from sosgame.web.config import ServerLimits
from sosgame.web.live.errors import error_body, error_status

__all__ = ["H11HeadersDeadline", "http_protocol"]

Phase = Literal["headers", "body"]


@cache
def _limits() -> ServerLimits:
    return ServerLimits.from_environment()


def _closing_error(code: str, detail: str) -> bytes:
    """A whole HTTP answer with a JSON error that closes its connection."""
    status = error_status(code)
    body = json.dumps({"error": error_body(code, detail)}).encode()
    head = (
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode() + body


@cache
def _headers_too_large() -> bytes:
    most = _limits().max_header_bytes
    return _closing_error(
        "headers_too_large", f"a request line and headers may be at most {most} bytes"
    )


@cache
def _body_timeout() -> bytes:
    seconds = _limits().body_timeout
    return _closing_error("body_timeout", f"a request body must arrive within {seconds:g} s")


LINGER_SECONDS = 5.0
"""How long a refused connection goes on reading (and dropping) what its client still sends,
so that the client, still sending, reads the answer rather than a reset."""


class _Refusal:
    """A connection answered and about to close: its answer is written and the writing side
    shut, and what the client still sends is dropped until it hangs up or
    :data:`LINGER_SECONDS` pass (closing at once, with the client's bytes unread, makes the
    kernel reset the connection, and the client would never see the answer)."""

    def __init__(self, transport: asyncio.Transport, answer: bytes) -> None:
        self.transport = transport
        transport.write(answer)
        if transport.can_write_eof():
            transport.write_eof()
            self.timer: asyncio.TimerHandle | None = asyncio.get_running_loop().call_later(
                LINGER_SECONDS, self.close
            )
        else:
            self.timer = None
            transport.close()

    def close(self) -> None:
        """Stop waiting for the client."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if not self.transport.is_closing():
            self.transport.close()


class _Deadline:
    """The timer of one connection: armed while a request's headers or its body are
    awaited, each phase with its own seconds."""

    def __init__(self, transport: asyncio.Transport, answered: Callable[[], bool]) -> None:
        self.transport = transport
        self.answered = answered
        self.timer: asyncio.TimerHandle | None = None
        self.phase: Phase | None = None
        self.upgraded = False

    def enter(self, phase: Phase | None) -> None:
        """Time this phase from now on (or nothing, for ``None``); a phase entered again
        keeps the clock it had."""
        if phase == self.phase and self.timer is not None:
            return
        self.disarm()
        self.phase = phase
        if phase is None or self.upgraded or self.transport.is_closing():
            return
        limits = _limits()
        seconds = limits.header_timeout if phase == "headers" else limits.body_timeout
        self.timer = asyncio.get_running_loop().call_later(seconds, self._expired)

    def disarm(self) -> None:
        """Nothing is awaited (or the connection closed)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.phase = None

    def upgrade(self) -> None:
        """The connection is a WebSocket from now on: never time it again."""
        self.disarm()
        self.upgraded = True

    def _expired(self) -> None:
        self.timer = None
        if self.transport.is_closing():
            return
        if self.phase == "body" and not self.answered():
            self.transport.write(_body_timeout())
        self.transport.close()


class _Connection(h11.Connection):
    """h11's connection, remembering the status its parser's last refusal calls for."""

    refusal = 400

    def next_event(self) -> Any:
        try:
            return super().next_event()
        except h11.RemoteProtocolError as error:
            self.refusal = error.error_status_hint
            raise


class H11HeadersDeadline(H11Protocol):
    """uvicorn's h11 protocol, cutting off clients slow to send their headers or bodies and
    refusing headers over the limit with 431 (h11 counts them itself)."""

    _deadline: _Deadline | None = None
    _refusal: _Refusal | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn = _Connection(h11.SERVER, max_incomplete_event_size=_limits().max_header_bytes)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline = _Deadline(transport, self._answered)
        self._deadline.enter("headers")

    def _answered(self) -> bool:
        return self.cycle is not None and self.cycle.response_started

    def data_received(self, data: bytes) -> None:
        if self._refusal is not None:
            return  # answered already: the rest is dropped
        super().data_received(data)
        if self._deadline is None:
            return
        # Between requests h11 waits in IDLE until a request's headers are complete.
        state = self.conn.their_state
        self._deadline.enter(
            "headers" if state is h11.IDLE else "body" if state is h11.SEND_BODY else None
        )

    def send_400_response(self, msg: str) -> None:
        if isinstance(self.conn, _Connection) and self.conn.refusal == 431:
            if self._deadline is not None:
                self._deadline.disarm()
            self._refusal = _Refusal(self.transport, _headers_too_large())
            return
        super().send_400_response(msg)

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        if self._deadline is not None:
            self._deadline.upgrade()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.disarm()
        if self._refusal is not None:
            self._refusal.close()
        super().connection_lost(exc)


# Defined only where httptools is installed; each class at the module's top level, so that
# ``serve --workers N`` can hand it to the processes it starts.
if find_spec("httptools") is not None:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class HttpToolsHeadersDeadline(HttpToolsProtocol):
        """uvicorn's httptools protocol, cutting off clients slow to send their headers or
        bodies, and handing the parser no more than the limit of a request's headers."""

        _deadline: _Deadline | None = None
        _refusal: _Refusal | None = None
        _awaiting = True
        """Whether the bytes that come next are a request's line and headers."""
        _header_bytes = 0
        """How many of them the parser has had."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._deadline = _Deadline(transport, self._answered)
            self._deadline.enter("headers")

        def _answered(self) -> bool:
            return self.cycle is not None and self.cycle.response_started

        def data_received(self, data: bytes) -> None:
            if self._refusal is not None:
                return  # answered already: the rest is dropped
            most = _limits().max_header_bytes
            rest = memoryview(data)
            while rest and not self._done():
                if not self._awaiting:
                    super().data_received(rest)  # type: ignore[arg-type]
                    return
                # Up to one byte past the limit: enough to know the headers are too long.
                room = most - self._header_bytes + 1
                piece, rest = rest[:room], rest[room:]
                self._header_bytes += len(piece)
                super().data_received(piece)  # type: ignore[arg-type]
                if self._awaiting and self._header_bytes > most and not self._done():
                    if self._deadline is not None:
                        self._deadline.disarm()
                    self._refusal = _Refusal(self.transport, _headers_too_large())
                    return

        def _done(self) -> bool:
            """Whether the connection takes no more HTTP: closed, refused or a WebSocket."""
            upgraded = self._deadline is not None and self._deadline.upgraded
            return self.parser is None or self.transport.is_closing() or upgraded

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self._deadline is not None:
                self._deadline.enter("headers")

        def on_headers_complete(self) -> None:
            self._awaiting = False
            self._header_bytes = 0
            if self._deadline is not None:
                self._deadline.enter("body")
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._awaiting = True
            if self._deadline is not None:
                self._deadline.disarm()
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            if self._deadline is not None:
                self._deadline.upgrade()
            super().handle_websocket_upgrade()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._deadline is not None:
                self._deadline.disarm()
            if self._refusal is not None:
                self._refusal.close()
            super().connection_lost(exc)


def http_protocol() -> type[asyncio.Protocol]:
    """The protocol class to serve HTTP with: the parser uvicorn would choose, bounded."""
    if find_spec("httptools") is not None:
        return HttpToolsHeadersDeadline
    return H11HeadersDeadline
