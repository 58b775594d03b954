"""The client's HTTP: one connection pool to the server, its API token on every request,
NDJSON streams read line by line, and the server's refusals as :class:`RefusedError`.

A 429 is waited out as its ``Retry-After`` says, and a 503 (the server's store out of
reach) with a growing wait, before the request is sent again: both change nothing on the
server. Any other failure is the caller's to judge.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any, Final
from urllib.parse import quote

import httpx

from sosgame.bot.backoff import Backoff
from sosgame.bot.errors import BotError

__all__ = [
    "KEEP_ALIVE_GRACE",
    "Lost",
    "RefusedError",
    "Session",
    "as_error",
    "check_server",
    "player_path",
]

KEEP_ALIVE_GRACE: Final = 20.0
"""Seconds without a byte after which a stream is taken for dead (the server sends an empty
line after every 5 s of silence)."""
_RETRIES: Final = 8

Lost: Final = (httpx.TransportError, json.JSONDecodeError)
"""The errors of a connection lost or never made (or cut inside a line): a request may or
may not have arrived."""


class RefusedError(Exception):
    """The server answered ``status`` with the error ``code`` (docs/protocol.md, "Error
    codes") and its ``message``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


def check_server(url: str) -> str:
    """The server's URL without a trailing slash.

    :raises BotError: for anything but an ``http://`` or ``https://`` URL with a host.
    """
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError):
        raise BotError("bad_url", url=url) from None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise BotError("bad_url", url=url)
    return url.rstrip("/")


def as_error(refused: RefusedError) -> BotError:
    """A refusal that no retry mends (a token refused, a scope missing, not a bot's
    account) as the error that stops the client."""
    if refused.code == "missing_scope":
        return BotError("missing_scope", scopes=refused.message)
    if refused.code in ("not_a_bot", "not_upgradable"):
        return BotError(refused.code)
    if refused.status == 401:
        return BotError("bad_token")
    return BotError("unexpected", status=refused.status, answer=refused.code)


def _refused(answer: httpx.Response) -> RefusedError:
    try:
        error = answer.json()["error"]
        return RefusedError(answer.status_code, str(error["code"]), str(error.get("message", "")))
    except (ValueError, KeyError, TypeError):
        return RefusedError(answer.status_code, "http", answer.reason_phrase)


def _retry_after(answer: httpx.Response) -> float:
    try:
        return max(0.1, float(answer.headers.get("retry-after", "1")))
    except ValueError:
        return 1.0


class Session:
    """Requests to the bot API of ``server`` with ``token``."""

    def __init__(self, server: str, token: str, *, transport: Any = None) -> None:
        self.server = check_server(server)
        self._http = httpx.AsyncClient(
            base_url=self.server,
            headers={"authorization": f"Bearer {token}", "user-agent": "sosgame-bot"},
            timeout=httpx.Timeout(10.0, read=KEEP_ALIVE_GRACE),
            # Idle connections let go of sooner than the server's (uvicorn's 5 s): a request
            # sent on one the server closes at that moment would fail for nothing.
            limits=httpx.Limits(
                max_connections=None, max_keepalive_connections=20, keepalive_expiry=2.0
            ),
            transport=transport,
        )

    async def close(self) -> None:
        await self._http.aclose()

    async def request(self, method: str, path: str, body: Any = None) -> Any:
        """The JSON answer of a request; waits out 429 and 503 answers.

        :raises RefusedError: for any other answer but 200 and 201.
        :raises httpx.TransportError: when the connection failed (it may have arrived).
        """
        waits = Backoff(first=0.5, most=5.0)
        for attempt in range(_RETRIES):
            answer = await self._http.request(method, path, json=body)
            if answer.status_code in (200, 201):
                return answer.json()
            if attempt + 1 < _RETRIES and answer.status_code == 429:
                await asyncio.sleep(_retry_after(answer))
            elif attempt + 1 < _RETRIES and answer.status_code == 503:
                await asyncio.sleep(waits.next())
            else:
                break
        raise _refused(answer)

    async def get(self, path: str) -> Any:
        return await self.request("GET", path)

    async def post(self, path: str, body: Any = None) -> Any:
        return await self.request("POST", path, body)

    async def lines(self, path: str) -> AsyncIterator[dict[str, Any] | None]:
        """The objects of the NDJSON stream ``path``, ``None`` for each keep-alive line;
        ends when the server ends the stream.

        :raises RefusedError: when the stream is refused.
        :raises httpx.TransportError: when the connection is lost.
        """
        async with self._http.stream("GET", path) as answer:
            if answer.status_code != 200:
                await answer.aread()
                raise _refused(answer)
            async for line in answer.aiter_lines():
                yield json.loads(line) if line.strip() else None


def player_path(name: str) -> str:
    """The path of a named player's page in the API."""
    return f"/api/players/{quote(name, safe='')}"
