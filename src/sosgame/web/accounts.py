"""Named players over HTTP: claiming a name, logging in and out, the leaderboard, a player's
page and the lobby; and rating each finished game once.

A session is a signed cookie (``sos_session``, HttpOnly, SameSite=Lax) holding the player's
id; the signing key is kept in the database, so every server process reads the same one.
Passwords are stored only as argon2 hashes.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, URLSafeTimedSerializer
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sosgame.web import clock as clocks
from sosgame.web import limits
from sosgame.web.bodies import read_body
from sosgame.web.hub import Hub
from sosgame.web.players import Account, NameTakenError, Players
from sosgame.web.protocol import ProtocolError, parse_json
from sosgame.web.ratings import COMPUTER_RATINGS

__all__ = ["COOKIE", "SESSION_DAYS", "Accounts"]

_log = logging.getLogger(__name__)

COOKIE: Final = "sos_session"
SESSION_DAYS: Final = 30
_MAX_AGE: Final = SESSION_DAYS * 24 * 3600
_WINDOW_MS: Final = 60_000
_MAX_BODY: Final = 4096
_HASHER: Final = PasswordHasher()
# A hash to check against when the name is unknown, so both answers take as long.
_NOBODY: Final = _HASHER.hash("no such player here")


class Accounts:
    """The players' endpoints of one app, with their share of its start and stop."""

    def __init__(self) -> None:
        self._hub: Hub | None = None
        self._players: Players | None = None
        self._signer: URLSafeTimedSerializer | None = None

    @property
    def hub(self) -> Hub:
        """The app's hub (once started)."""
        assert self._hub is not None
        return self._hub

    @property
    def players(self) -> Players:
        """The players' tables (once started)."""
        assert self._players is not None
        return self._players

    async def start(self, hub: Hub) -> None:
        """Read the shared session key, rate each game this process finishes from now on,
        and rate the finished games nobody rated (a process stopped before it could)."""
        self._hub = hub
        self._players = Players(hub.store)
        secret = await hub.db(self.players.secret)
        self._signer = URLSafeTimedSerializer(secret, salt="sosgame-session")
        hub.finished_hooks.append(self._rate)
        rated = await hub.db(self.players.catch_up, clocks.now_ms())
        if rated:
            _log.info("rated %d finished games left unrated", rated)

    async def _rate(self, game_id: str) -> None:
        try:
            await self.hub.db(self.players.rate, game_id, clocks.now_ms())
        except Exception as error:  # the catch-up at the next start rates it
            _log.warning("game %s: rating failed: %s", game_id, error)

    # ---------------------------------------------------------------------- sessions

    async def current(self, request: Request) -> Account | None:
        """The player whose session cookie came with the request, if any."""
        cookie = request.cookies.get(COOKIE)
        if not cookie or self._signer is None:
            return None
        try:
            data = self._signer.loads(cookie, max_age=_MAX_AGE)
        except BadSignature:
            return None
        if not isinstance(data, dict) or not isinstance(data.get("player"), int):
            return None
        account: Account | None = await self.hub.db(self.players.get, data["player"])
        return account

    def _session(self, request: Request, account: Account, status: int) -> Response:
        assert self._signer is not None
        response = JSONResponse({"player": account.to_json()}, status_code=status)
        response.set_cookie(
            COOKIE,
            self._signer.dumps({"player": account.id}),
            max_age=_MAX_AGE,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )
        return response

    async def _limit(self, request: Request) -> None:
        address = request.client.host if request.client is not None else ""
        most = self.hub.limits.login_attempts_per_minute
        wait = await self.hub.db(self.players.attempt, address, clocks.now_ms(), _WINDOW_MS, most)
        if wait:
            raise ProtocolError(
                "rate_limited",
                f"too many login attempts from this address: at most {most} a minute;"
                f" try again in {-(-wait // 1000)} s",
            )

    async def _credentials(self, request: Request) -> tuple[str, str]:
        body = await read_body(request, _MAX_BODY)
        data = parse_json(body, "the request body")
        if not isinstance(data, dict) or set(data) != {"name", "password"}:
            raise ProtocolError(
                "bad_field", "the body must be an object with 'name' and 'password'"
            )
        try:
            name = limits.check_name(data["name"], "name")
        except limits.SettingsError as error:
            raise ProtocolError("bad_field", str(error)) from None
        password = data["password"]
        if not isinstance(password, str) or not password:
            raise ProtocolError("bad_field", "field 'password' must be text")
        return name, password

    # -------------------------------------------------------------------- endpoints

    async def claim(self, request: Request) -> Response:
        """``POST /api/players``: claim a name with a password, and log in."""
        name, password = await self._credentials(request)
        try:
            limits.check_password(password, name)
        except limits.SettingsError as error:
            raise ProtocolError("weak_password", str(error)) from None
        await self._limit(request)
        digest = await asyncio.to_thread(_HASHER.hash, password)
        try:
            account = await self.hub.db(self.players.claim, name, digest, clocks.now_ms())
        except NameTakenError:
            raise ProtocolError("name_taken", f"the name {name!r} is taken") from None
        return self._session(request, account, 201)

    async def login(self, request: Request) -> Response:
        """``POST /api/session``: log in with a claimed name and its password."""
        name, password = await self._credentials(request)
        if len(password) > limits.MAX_PASSWORD:
            raise ProtocolError("wrong_password", "wrong name or password")
        await self._limit(request)
        account: Account | None = await self.hub.db(self.players.find, name)
        digest = _NOBODY if account is None else account.password_hash
        try:
            await asyncio.to_thread(_HASHER.verify, digest, password)
        except (VerificationError, InvalidHashError):
            account = None
        if account is None:
            raise ProtocolError("wrong_password", "wrong name or password")
        return self._session(request, account, 200)

    async def logout(self, _request: Request) -> Response:
        """``DELETE /api/session``: forget the session in this browser."""
        response = JSONResponse({"player": None})
        response.delete_cookie(COOKIE, httponly=True, samesite="lax")
        return response

    async def session(self, request: Request) -> Response:
        """``GET /api/session``: who is logged in (``null`` for a guest)."""
        account = await self.current(request)
        return JSONResponse({"player": None if account is None else account.to_json()})

    async def leaderboard(self, _request: Request) -> Response:
        """``GET /api/players``: the players by rating, and the computer levels' ratings."""
        board = await self.hub.db(self.players.leaderboard)
        return JSONResponse(
            {
                "players": [account.to_json() for account in board],
                "computers": [
                    {"level": level, **rating.to_json()}
                    for level, rating in sorted(
                        COMPUTER_RATINGS.items(), key=lambda item: -item[1].shown
                    )
                ],
            }
        )

    async def player(self, request: Request) -> Response:
        """``GET /api/players/{name}``: a player's rating, games and rating history."""
        name = str(request.path_params["name"])
        account: Account | None = await self.hub.db(self.players.find, name)
        if account is None:
            raise ProtocolError("no_player", f"nobody has claimed the name {name!r}")
        games = await self.hub.db(self.players.history, account.id)
        history = await self.hub.db(self.players.ratings_over_time, account.id)
        return JSONResponse({**account.to_json(), "games": games, "history": history})

    async def lobby(self, _request: Request) -> Response:
        """``GET /api/lobby``: public games waiting for players, with their ratings."""
        return JSONResponse({"games": await self.hub.db(self.players.lobby)})

    async def link(self, game_id: str, seat: int, account: Account | None) -> None:
        """Note that a logged-in player took this seat (nothing for a guest)."""
        if account is not None:
            await self.hub.db(self.players.link, game_id, seat, account.id)

    async def copy_links(self, old_id: str, new_id: str) -> None:
        """A rematch seats the same named players."""
        await self.hub.db(self.players.copy_links, old_id, new_id)

    def routes(self) -> list[Route]:
        """The endpoints, for the app's routing table."""
        return [
            Route("/api/players", self.leaderboard, methods=["GET"]),
            Route("/api/players", self.claim, methods=["POST"]),
            Route("/api/players/{name}", self.player, methods=["GET"]),
            Route("/api/session", self.session, methods=["GET"]),
            Route("/api/session", self.login, methods=["POST"]),
            Route("/api/session", self.logout, methods=["DELETE"]),
            Route("/api/lobby", self.lobby, methods=["GET"]),
        ]
