"""HTTP connections that must send their request headers in time.

A client that opens connections and sends their headers a byte at a time ties up the
server's sockets and memory for as long as it likes. Each protocol here arms a timer when
a connection opens and when a request's first byte arrives, and closes the connection if
the headers are not complete when it fires (``ServerLimits.header_timeout`` seconds, 10
by default). A request whose headers are in (a WebSocket among them) is not timed.

``sosgame serve`` hands uvicorn :func:`http_protocol`'s class: the one built on the
parser uvicorn would choose itself (httptools when it is installed, else h11).
"""

from __future__ import annotations

import asyncio
from functools import cache
from importlib.util import find_spec

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from sosgame.web.config import ServerLimits

__all__ = ["H11HeadersDeadline", "http_protocol"]


@cache
def _seconds() -> float:
    return ServerLimits.from_environment().header_timeout


class _Deadline:
    """The timer of one connection: armed while request headers are awaited."""

    def __init__(self, transport: asyncio.Transport) -> None:
        self.transport = transport
        self.timer: asyncio.TimerHandle | None = None
        self.upgraded = False

    def arm(self) -> None:
        """Start the clock, unless it runs already (or the connection is no longer HTTP)."""
        if self.timer is None and not self.upgraded and not self.transport.is_closing():
            loop = asyncio.get_running_loop()
            self.timer = loop.call_later(_seconds(), self._expired)

    def disarm(self) -> None:
        """The headers are in (or the connection closed)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def upgrade(self) -> None:
        """The connection is a WebSocket from now on: never time it again."""
        self.disarm()
        self.upgraded = True

    def _expired(self) -> None:
        self.timer = None
        if not self.transport.is_closing():
            self.transport.close()


class H11HeadersDeadline(H11Protocol):
    """uvicorn's h11 protocol, cutting off clients slow to send their headers."""

    _deadline: _Deadline | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline = _Deadline(transport)
        self._deadline.arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._deadline is None:
            return
        # Between requests h11 waits in IDLE until a request's headers are complete.
        if self.conn.their_state is h11.IDLE:
            self._deadline.arm()
        else:
            self._deadline.disarm()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        if self._deadline is not None:
            self._deadline.upgrade()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.disarm()
        super().connection_lost(exc)


# Defined only where httptools is installed; each class at the module's top level, so that
# ``serve --workers N`` can hand it to the processes it starts.
if find_spec("httptools") is not None:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class HttpToolsHeadersDeadline(HttpToolsProtocol):
        """uvicorn's httptools protocol, cutting off clients slow to send their headers."""

        _deadline: _Deadline | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._deadline = _Deadline(transport)
            self._deadline.arm()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self._deadline is not None:
                self._deadline.arm()

        def on_headers_complete(self) -> None:
            if self._deadline is not None:
                self._deadline.disarm()
            super().on_headers_complete()

        def handle_websocket_upgrade(self) -> None:
            if self._deadline is not None:
                self._deadline.upgrade()
            super().handle_websocket_upgrade()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._deadline is not None:
                self._deadline.disarm()
            super().connection_lost(exc)


def http_protocol() -> type[asyncio.Protocol]:
    """The protocol class to serve HTTP with: the parser uvicorn would choose, timed."""
    if find_spec("httptools") is not None:
        return HttpToolsHeadersDeadline
    return H11HeadersDeadline
