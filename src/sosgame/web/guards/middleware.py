"""The checks and headers every request passes through: the allowed hosts and origins, and
the security headers of every answer."""

from __future__ import annotations

from typing import Final
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sosgame.web.live.errors import error_response

__all__ = ["HEADERS", "RequestChecks", "SecurityHeaders", "host_name", "origin_allowed"]

CSP: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " connect-src 'self'; font-src 'self'; manifest-src 'self'; worker-src 'self';"
    " base-uri 'none'; form-action 'none';"
    " frame-ancestors 'none'"
)
HEADERS: Final = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
"""The security headers of every HTTP answer."""
ENGINE_WORKER: Final = "/static/engine-worker.js"
"""The Web Worker that runs the engine on the device: it alone may compile WebAssembly
(Pyodide), so its policy alone allows that; a worker's policy is its script's."""
ENGINE_WORKER_HEADERS: Final = [
    (
        b"content-security-policy",
        CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'").encode(),
    ),
    *HEADERS[1:],
]
STATE_CHANGING: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_PAGE_SCHEMES: Final = {"ws": "http", "wss": "https"}
"""The scheme of the pages that open WebSockets of each scheme."""


class SecurityHeaders:
    """Adds the Content-Security-Policy and friends to every HTTP response, and
    ``Cache-Control: no-store`` to those that may carry a seat token or an invite (the
    answers to state-changing requests, and the invite links)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        no_store = scope["method"] in STATE_CHANGING or scope["path"].endswith("/invites")
        added = ENGINE_WORKER_HEADERS if scope["path"] == ENGINE_WORKER else HEADERS

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.get("headers", [])
                if no_store:
                    headers = [item for item in headers if item[0].lower() != b"cache-control"]
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = [*headers, *added]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def host_name(host: str) -> str:
    """A ``Host`` header's (or an allowed host's) name: lower case, without its port or
    an IPv6 address's brackets; ``""`` if it is not a host."""
    host = host.strip().lower()
    if host.startswith("["):
        name, closed, rest = host[1:].partition("]")
        if not closed or (rest and not (rest[0] == ":" and rest[1:].isdigit())):
            return ""
        return name
    if host.count(":") > 1:
        return host  # an IPv6 address as an allowed host, without brackets
    name, colon, port = host.partition(":")
    if colon and not port.isdigit():
        return ""
    return name.rstrip(".")


def _host_allowed(host: str, allowed: frozenset[str]) -> bool:
    name = host_name(host)
    if not name:
        return False
    if "*" in allowed or name in allowed:
        return True
    # "*.example.org" allows every name under example.org.
    return any(pattern.startswith("*.") and name.endswith(pattern[1:]) for pattern in allowed)


def origin_allowed(origin: str, host: str, allowed_origins: tuple[str, ...], scheme: str) -> bool:
    """Whether a request from a page at ``origin`` may act on the app at ``host``, reached
    by ``scheme`` (the request's: ``http``, ``https``, ``ws`` or ``wss``): the app's own
    pages (the same scheme, host and port) and the allowed origins may."""
    if origin in allowed_origins:
        return True
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    # An http page must not act on the https site of the same name (nor the other way).
    own = _PAGE_SCHEMES.get(scheme, scheme)
    return (
        bool(parts.netloc) and parts.scheme == own and parts.netloc.lower() == host.strip().lower()
    )


class RequestChecks:
    """Refuses a request for another host than the allowed ones (a page of another site
    that made its name point at this server: DNS rebinding), and a state-changing HTTP
    request from another site's page (cross-site request forgery). A request with more
    than one ``Host`` or ``Origin`` header is refused too: checking the first of them while
    something else (a proxy, a framework) trusts another would let the check be passed."""

    def __init__(
        self,
        app: ASGIApp,
        allowed_hosts: frozenset[str] | None,
        allowed_origins: tuple[str, ...],
    ) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts
        self.allowed_origins = allowed_origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        refusal = None
        if len(headers.getlist("host")) > 1:
            refusal = error_response("bad_host", "a request has one Host header")
        elif self.allowed_hosts is not None and not _host_allowed(host, self.allowed_hosts):
            refusal = error_response(
                "bad_host",
                "this server does not answer for that host name"
                " (sosgame serve --allowed-hosts names the ones it does)",
            )
        elif len(headers.getlist("origin")) > 1:
            refusal = error_response("bad_origin", "a request has at most one Origin header")
        elif scope["type"] == "http" and scope["method"] in STATE_CHANGING:
            origin = headers.get("origin")
            cross_site = headers.get("sec-fetch-site") == "cross-site"
            scheme = scope["scheme"]
            if (
                origin is not None
                and not origin_allowed(origin, host, self.allowed_origins, scheme)
            ) or (cross_site and origin not in self.allowed_origins):
                refusal = error_response(
                    "bad_origin", "requests from other sites' pages are refused"
                )
        if refusal is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            reason = "host not allowed" if refusal.status_code == 400 else "origin not allowed"
            await send({"type": "websocket.close", "code": 1008, "reason": reason})
        else:
            await refusal(scope, receive, send)
