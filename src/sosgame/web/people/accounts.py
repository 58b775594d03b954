"""Named players over HTTP: claiming a name, logging in and out, the leaderboard, a player's
page and the lobby; and rating each finished game once.

A session is a row of the ``sessions`` table: the cookie (``sos_session``, HttpOnly,
SameSite=Lax) carries a random secret and the table its SHA-256, so every server process knows
every session and logging out (here, everywhere, or by changing the password) ends it for
good. Passwords are stored only as argon2 hashes.
"""

from __future__ import annotations

import logging
from typing import Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sosgame.limits import WEB_MAX_NAME
from sosgame.web.api import JSON, Answer, Model, declare, refused
from sosgame.web.guards import limits
from sosgame.web.guards.bodies import read_json
from sosgame.web.live import clock as clocks
from sosgame.web.live.hub import Hub
from sosgame.web.live.protocol import ProtocolError
from sosgame.web.people.names import normal_name
from sosgame.web.people.passwords import PasswordLane
from sosgame.web.people.players import Account, NameConfusableError, NameTakenError, Players
from sosgame.web.people.ratings import COMPUTER_RATINGS
from sosgame.web.tournaments.runner import TournamentRunner

__all__ = ["COOKIE", "SESSION_DAYS", "Accounts"]

_log = logging.getLogger(__name__)

COOKIE: Final = "sos_session"
SESSION_DAYS: Final = 30
_MAX_AGE: Final = SESSION_DAYS * 24 * 3600
_LIFETIME_MS: Final = _MAX_AGE * 1000
# A cookie's secret is 43 characters; anything much longer is not one of ours.
_MAX_COOKIE: Final = 100
_WINDOW_MS: Final = 60_000
_MAX_BODY: Final = 4096

_PASSWORD: Final[JSON] = {
    "type": "string",
    "minLength": limits.MIN_PASSWORD,
    "maxLength": limits.MAX_PASSWORD,
    "description": "not the name, not one character repeated",
}
CREDENTIALS: Final = Model(
    "Credentials",
    {
        "type": "object",
        "required": ["name", "password"],
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": WEB_MAX_NAME},
            "password": _PASSWORD,
        },
        "additionalProperties": False,
    },
    _MAX_BODY,
)
PASSWORD_CHANGE: Final = Model(
    "PasswordChange",
    {
        "type": "object",
        "required": ["password", "new_password"],
        "properties": {
            "password": {"type": "string", "description": "the current password"},
            "new_password": _PASSWORD,
        },
        "additionalProperties": False,
    },
    _MAX_BODY,
)
_RATING: Final[JSON] = {
    "rating": {"type": "number", "description": "mu - 3 sigma, shown on the leaderboard"},
    "mu": {"type": "number"},
    "sigma": {"type": "number"},
}
_PLAYER: Final[JSON] = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        **_RATING,
        "rated_games": {"type": "integer"},
        "provisional": {
            "type": "boolean",
            "description": "not yet established: off the leaderboard, of little weight on"
            " others' ratings",
        },
    },
}
SESSION: Final = Model(
    "Session", {"type": "object", "properties": {"player": {"oneOf": [_PLAYER, {"type": "null"}]}}}
)
_LOGGED_IN: Final = Answer("The player, logged in: the sos_session cookie is set", SESSION)
_LOGGED_OUT: Final = Answer("player: null", SESSION)
_ATTEMPTS: Final = refused(
    "Over {limits.login_attempts_per_minute} attempts a minute to log in, claim a name or"
    " change a password from this address (rate_limited), or too many passwords being"
    " checked on the server now (login_busy)"
)


class Accounts:
    """The players' endpoints of one app, with their share of its start and stop."""

    def __init__(self) -> None:
        self._hub: Hub | None = None
        self._players: Players | None = None
        self._passwords: PasswordLane | None = None

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

    @property
    def passwords(self) -> PasswordLane:
        """Where passwords are hashed and checked (once started)."""
        assert self._passwords is not None
        return self._passwords

    async def start(self, hub: Hub) -> None:
        """Rate each game this process finishes from now on, and rate the finished games
        nobody rated (a process stopped before it could)."""
        self._hub = hub
        self._passwords = PasswordLane(
            hub.limits.password_threads,
            hub.limits.password_queue,
            hub.limits.password_queue_per_address,
            time_cost=hub.limits.password_time_cost,
            memory_kib=hub.limits.password_memory_kib,
        )
        self._players = Players(
            hub.store,
            rated_per_pair=hub.limits.rated_games_per_pair_per_day,
            established_opponents=hub.limits.established_opponents,
            provisional_weight=hub.limits.provisional_weight,
        )
        hub.finished_hooks.append(self._rate)
        await hub.db(self.players.fill_skeletons)
        rated = await hub.db(self.players.catch_up, clocks.now_ms())
        if rated:
            _log.info("rated %d finished games left unrated", rated)

    def close(self) -> None:
        """Stop the password threads."""
        if self._passwords is not None:
            self._passwords.close()

    async def _rate(self, game_id: str) -> None:
        try:
            await self.hub.db(self.players.rate, game_id, clocks.now_ms())
        except Exception as error:  # the catch-up at the next start rates it
            _log.warning("game %s: rating failed: %s", game_id, error)

    # ---------------------------------------------------------------------- sessions

    @staticmethod
    def _secret(request: Request) -> str | None:
        cookie = request.cookies.get(COOKIE)
        if not cookie or len(cookie) > _MAX_COOKIE:
            return None
        return cookie

    async def current(self, request: Request) -> Account | None:
        """The player whose session cookie came with the request, if the session is live."""
        secret = self._secret(request)
        if secret is None:
            return None
        account: Account | None = await self.hub.db_aside(
            self.players.session_account, secret, clocks.now_ms()
        )
        return account

    async def _session(
        self, request: Request, account: Account, status: int, secret: str | None = None
    ) -> Response:
        """The answer that logs this browser in: a new session unless ``secret`` is one."""
        if secret is None:
            secret = await self.hub.db_aside(
                self.players.start_session, account.id, clocks.now_ms(), _LIFETIME_MS
            )
        response = JSONResponse({"player": account.to_json()}, status_code=status)
        response.set_cookie(
            COOKIE,
            secret,
            max_age=_MAX_AGE,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )
        return response

    @staticmethod
    def _logged_out(request: Request) -> Response:
        response = JSONResponse({"player": None})
        response.delete_cookie(
            COOKIE, httponly=True, samesite="lax", secure=request.url.scheme == "https"
        )
        return response

    async def _logged_in(self, request: Request) -> Account:
        account = await self.current(request)
        if account is None:
            raise ProtocolError("not_logged_in")
        return account

    async def _limit(self, request: Request) -> None:
        address = _address(request)
        most = self.hub.limits.login_attempts_per_minute
        wait = await self.hub.db_aside(
            self.players.attempt, address, clocks.now_ms(), _WINDOW_MS, most
        )
        if wait:
            raise ProtocolError(
                "rate_limited",
                f"too many login attempts from this address: at most {most} a minute;"
                f" try again in {-(-wait // 1000)} s",
            )

    @staticmethod
    async def _fields(request: Request, model: Model) -> list[object]:
        """The values of a JSON body (at most ``model.limit`` bytes, counted as it streams in)
        that must be an object of exactly the fields of ``model``."""
        names = model.fields
        assert model.limit is not None
        data = await read_json(request, model.limit)
        if not isinstance(data, dict) or set(data) != set(names):
            listed = " and ".join(repr(name) for name in names)
            raise ProtocolError("bad_field", f"the body must be an object with {listed}")
        return [data[name] for name in names]

    async def _credentials(self, request: Request) -> tuple[str, str]:
        raw_name, password = await self._fields(request, CREDENTIALS)
        try:
            name = limits.check_name(raw_name, "name")
        except limits.SettingsError as error:
            raise ProtocolError("bad_field", str(error)) from None
        if not isinstance(password, str) or not password:
            raise ProtocolError("bad_field", "field 'password' must be text")
        return name, password

    # -------------------------------------------------------------------- endpoints

    @declare(
        "Claim a name with a password (and log in)",
        body=CREDENTIALS,
        responses={
            201: _LOGGED_IN,
            400: refused("A bad name (bad_field) or password (weak_password)"),
            409: refused(
                "Somebody has the name already (name_taken), or one that looks like it"
                " (name_confusable)"
            ),
            429: _ATTEMPTS,
        },
    )
    async def claim(self, request: Request) -> Response:
        """``POST /api/players``: claim a name with a password, and log in."""
        name, password = await self._credentials(request)
        try:
            # NFKC may lengthen a name or change it; the rules hold for what is stored.
            name = limits.check_name(normal_name(name), "name")
        except limits.SettingsError as error:
            raise ProtocolError("bad_field", str(error)) from None
        try:
            limits.check_password(password, name)
        except limits.SettingsError as error:
            raise ProtocolError("weak_password", str(error)) from None
        await self._limit(request)
        digest = await self.passwords.hash(password, _address(request))
        try:
            account = await self.hub.db_aside(self.players.claim, name, digest, clocks.now_ms())
        except NameTakenError:
            raise ProtocolError("name_taken", f"the name {name!r} is taken") from None
        except NameConfusableError:
            raise ProtocolError(
                "name_confusable", f"the name {name!r} is too like a name already claimed"
            ) from None
        return await self._session(request, account, 201)

    @declare(
        "Log in with a claimed name and its password",
        body=CREDENTIALS,
        responses={
            200: _LOGGED_IN,
            401: refused("Wrong name or password (wrong_password)"),
            429: _ATTEMPTS,
        },
    )
    async def login(self, request: Request) -> Response:
        """``POST /api/session``: log in with a claimed name and its password."""
        name, password = await self._credentials(request)
        if len(password) > limits.MAX_PASSWORD:
            raise ProtocolError("wrong_password")
        await self._limit(request)
        account: Account | None = await self.hub.db_aside(self.players.find, name)
        digest = None if account is None else account.password_hash
        if not await self.passwords.verify(digest, password, _address(request)) or account is None:
            raise ProtocolError("wrong_password")
        return await self._session(request, account, 200)

    @declare(
        "Log out: this browser's session ends (the cookie is removed)",
        responses={200: _LOGGED_OUT},
    )
    async def logout(self, request: Request) -> Response:
        """``DELETE /api/session``: end the session of this browser."""
        secret = self._secret(request)
        if secret is not None:
            await self.hub.db(self.players.end_session, secret)
        return self._logged_out(request)

    @declare(
        "Log out everywhere: every session of the player ends, this one too",
        responses={
            200: _LOGGED_OUT,
            401: refused("No live session came with the request (not_logged_in)"),
        },
    )
    async def logout_everywhere(self, request: Request) -> Response:
        """``DELETE /api/sessions``: end every session of the player, this one too."""
        account = await self._logged_in(request)
        await self.hub.db(self.players.end_sessions, account.id)
        return self._logged_out(request)

    @declare(
        "Change the password: every session of the player ends and this browser gets a new one",
        body=PASSWORD_CHANGE,
        responses={
            200: _LOGGED_IN,
            400: refused("A bad body (bad_field) or new password (weak_password)"),
            401: refused("Not logged in (not_logged_in) or a wrong password (wrong_password)"),
            429: _ATTEMPTS,
        },
    )
    async def change_password(self, request: Request) -> Response:
        """``POST /api/session/password``: with the current password, set a new one; every
        session of the player ends and this browser gets a new one."""
        account = await self._logged_in(request)
        old, new = await self._fields(request, PASSWORD_CHANGE)
        if (
            not isinstance(old, str)
            or not old
            or len(old) > limits.MAX_PASSWORD
            or not limits.is_text(old)
        ):
            raise ProtocolError("wrong_password")
        try:
            new = limits.check_password(new, account.name)
        except limits.SettingsError as error:
            raise ProtocolError("weak_password", str(error)) from None
        await self._limit(request)
        if not await self.passwords.verify(account.password_hash, old, _address(request)):
            raise ProtocolError("wrong_password")
        digest = await self.passwords.hash(new, _address(request))
        secret = await self.hub.db(
            self.players.change_password, account.id, digest, clocks.now_ms(), _LIFETIME_MS
        )
        return await self._session(request, account, 200, secret)

    @declare(
        "Who is logged in here (player null: a guest)",
        responses={200: Answer("The player, or null", SESSION)},
    )
    async def session(self, request: Request) -> Response:
        """``GET /api/session``: who is logged in (``null`` for a guest)."""
        account = await self.current(request)
        return JSONResponse({"player": None if account is None else account.to_json()})

    @declare(
        "The leaderboard: named players by rating (?kind=person or ?kind=bot: only people or"
        " only bots), and the computer levels' fixed ratings",
        query={"kind": {"enum": ["person", "bot"]}},
        responses={
            200: Answer(
                "Best rating first",
                Model(
                    "Leaderboard",
                    {
                        "type": "object",
                        "properties": {
                            "players": {"type": "array", "items": _PLAYER},
                            "computers": {
                                "type": "array",
                                "items": {
                                    "type": "object",
                                    "properties": {
                                        "level": {"enum": list(COMPUTER_RATINGS)},
                                        **_RATING,
                                    },
                                },
                            },
                        },
                    },
                ),
            )
        },
    )
    async def leaderboard(self, request: Request) -> Response:
        """``GET /api/players``: the players by rating (``?kind=person`` or ``bot``: of that
        kind only), and the computer levels' ratings."""
        kind = request.query_params.get("kind")
        if kind not in (None, "person", "bot"):
            raise ProtocolError("bad_field", "kind must be person or bot")
        bots = None if kind is None else kind == "bot"
        board = await self.hub.db(self.players.leaderboard, bots=bots)
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

    @declare(
        "A player's rating, games (newest first), rating history and tournaments",
        responses={
            200: Answer(
                "The player",
                Model(
                    "PlayerPage",
                    {
                        "type": "object",
                        "description": "A player with 'games' (id, public, rows, cols, mode,"
                        " status, seat, names, result, rating after it or null, rated: true,"
                        " false or null while undecided, tournament: id and name or null),"
                        " 'history' (game, at, rating, mu, sigma) and 'tournaments' (the"
                        " latest 20 entered: id, name, kind, status, rank, score, players,"
                        " starts_at); a private game's id and game are null unless the"
                        " player asks",
                    },
                ),
            ),
            404: refused("Nobody has claimed the name (no_player)"),
        },
    )
    async def player(self, request: Request) -> Response:
        """``GET /api/players/{name}``: a player's rating, games (each saying whether it was
        rated: ``null`` until decided), rating history and latest tournaments."""
        name = str(request.path_params["name"])
        account: Account | None = None
        if limits.is_text(name):  # text that cannot be stored names nobody
            account = await self.hub.db(self.players.find, name)
        if account is None:
            raise ProtocolError("no_player", f"nobody has claimed the name {name!r}")
        # A private game's id is its spectator link: shown to the player themselves only.
        viewer = await self.current(request)
        mine = viewer is not None and viewer.id == account.id
        games = await self.hub.db(self.players.history, account.id, private_ids=mine)
        history = await self.hub.db(self.players.ratings_over_time, account.id, private_ids=mine)
        runner: TournamentRunner = request.app.state.tournaments
        entered = await self.hub.db(runner.results, account.id)
        return JSONResponse(
            {**account.to_json(), "games": games, "history": history, "tournaments": entered}
        )

    @declare(
        "Public online games waiting for players: size, mode, clock, and each seat with its"
        " player's rating",
        responses={
            200: Answer(
                "Newest first",
                Model(
                    "Lobby",
                    {
                        "type": "object",
                        "description": "'games': id, rows, cols, mode, clock (initial,"
                        " increment in seconds, or null), open_seats, created, and seats (seat,"
                        " name, player, free, named, provisional, rating or null)",
                    },
                ),
            )
        },
    )
    async def lobby(self, _request: Request) -> Response:
        """``GET /api/lobby``: public games waiting for players, with their ratings."""
        return JSONResponse({"games": await self.hub.db(self.players.lobby)})

    async def link(self, game_id: str, seat: int, account: Account | None) -> None:
        """Note that a logged-in player took this seat (nothing for a guest)."""
        if account is not None:
            await self.hub.db(self.players.link, game_id, seat, account.id)
            await self.hub.notices.game(game_id)
            if account.bot:
                await self._seated_bot(game_id)

    async def copy_links(self, old_id: str, new_id: str) -> None:
        """A rematch seats the same named players."""
        await self.hub.db(self.players.copy_links, old_id, new_id)
        await self.hub.notices.game(new_id)

    async def _seated_bot(self, game_id: str) -> None:
        """A bot's account took a seat of a game whose room was open already: its seats
        are read again here, and in every other process, so that they show it."""
        room = self.hub.rooms.get(game_id)
        if room is not None:
            async with room.lock:
                await room.reload()
            room.changed()
        # No version: every process that has the game reads it again.
        self.hub.bus.publish(game_id, {"reload": True})

    def routes(self) -> list[Route]:
        """The endpoints, for the app's routing table."""
        return [
            Route("/api/players", self.leaderboard, methods=["GET"]),
            Route("/api/players", self.claim, methods=["POST"]),
            Route("/api/players/{name:path}", self.player, methods=["GET"]),
            Route("/api/session", self.session, methods=["GET"]),
            Route("/api/session", self.login, methods=["POST"]),
            Route("/api/session", self.logout, methods=["DELETE"]),
            Route("/api/sessions", self.logout_everywhere, methods=["DELETE"]),
            Route("/api/session/password", self.change_password, methods=["POST"]),
            Route("/api/lobby", self.lobby, methods=["GET"]),
        ]


def _address(request: Request) -> str:
    """The client address a request's password work is counted for."""
    return request.client.host if request.client is not None else ""
