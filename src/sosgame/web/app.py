"""The web app: HTTP endpoints, the WebSocket endpoint and the front end's files.

>>> app = create_app("sqlite:///:memory:")  # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import UTC, datetime
from importlib import resources
from typing import Any, Final
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from sosgame.errors import RecordError
from sosgame.i18n import LANGUAGES, browser_catalog
from sosgame.position import Position, build_game
from sosgame.record import Record
from sosgame.web import creation, limits
from sosgame.web.accounts import Accounts
from sosgame.web.admission import BusyError
from sosgame.web.analysis import Analyses
from sosgame.web.bodies import MAX_BODY_BYTES, BodyLimit, read_body
from sosgame.web.browser import browser_config
from sosgame.web.bus import RedisBus
from sosgame.web.config import ServerLimits
from sosgame.web.fanout import dumps
from sosgame.web.hub import Hub, TooManyError
from sosgame.web.openapi import openapi
from sosgame.web.protocol import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    ProtocolError,
    check_name,
    error_message,
    parse_client_message,
    parse_json,
    parse_new_game,
)
from sosgame.web.ratelimit import RATE, ClientRates, RateLimit
from sosgame.web.replay import Answers, move_list, replay_frames, to_json_bytes
from sosgame.web.room import Room
from sosgame.web.store import Store
from sosgame.web.writer import StorageUnavailableError

__all__ = ["RateLimit", "create_app"]

FLOOD_LIMIT: Final = 200
"""A connection that goes on past this many refused messages is closed."""
TOO_BIG: Final = f"message too big: at most {MAX_MESSAGE_BYTES} bytes"
CSP: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none';"
    " frame-ancestors 'none'"
)
_HEADERS: Final = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
_STATIC = resources.files("sosgame.web") / "static"
_STORAGE_UNAVAILABLE: Final = (
    "storage_unavailable",
    "the games' storage cannot be reached now: try again soon",
)
_STATE_CHANGING: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Codes for the errors routing and static files raise (an unknown path, a wrong method).
_HTTP_CODES: Final = {404: "not_found", 405: "method_not_allowed"}


class _SecurityHeaders:
    """Adds the Content-Security-Policy and friends to every HTTP response, and
    ``Cache-Control: no-store`` to those that may carry a seat token or an invite (the
    answers to state-changing requests, and the invite links)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        no_store = scope["method"] in _STATE_CHANGING or scope["path"].endswith("/invites")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.get("headers", [])
                if no_store:
                    headers = [item for item in headers if item[0].lower() != b"cache-control"]
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = [*headers, *_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _host_name(host: str) -> str:
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
    name = _host_name(host)
    if not name:
        return False
    if "*" in allowed or name in allowed:
        return True
    # "*.example.org" allows every name under example.org.
    return any(pattern.startswith("*.") and name.endswith(pattern[1:]) for pattern in allowed)


def _origin_allowed(origin: str, host: str, allowed_origins: tuple[str, ...]) -> bool:
    """Whether a request from a page at ``origin`` may act on the app at ``host``: the
    app's own pages (the same host and port) and the allowed origins may."""
    if origin in allowed_origins:
        return True
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return bool(netloc) and netloc.lower() == host.strip().lower()


class _RequestChecks:
    """Refuses a request for another host than the allowed ones (a page of another site
    that made its name point at this server: DNS rebinding), and a state-changing HTTP
    request from another site's page (cross-site request forgery)."""

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
        if self.allowed_hosts is not None and not _host_allowed(host, self.allowed_hosts):
            refusal = _error(
                400,
                "bad_host",
                "this server does not answer for that host name"
                " (sosgame serve --allowed-hosts names the ones it does)",
            )
        elif scope["type"] == "http" and scope["method"] in _STATE_CHANGING:
            origin = headers.get("origin")
            cross_site = headers.get("sec-fetch-site") == "cross-site"
            if (origin is not None and not _origin_allowed(origin, host, self.allowed_origins)) or (
                cross_site and origin not in self.allowed_origins
            ):
                refusal = _error(403, "bad_origin", "requests from other sites' pages are refused")
        if refusal is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "host not allowed"})
        else:
            await refusal(scope, receive, send)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


async def _body(request: Request, *, optional: bool = False) -> Any:
    body = await read_body(request)
    if optional and not body.strip():
        return {}
    return parse_json(body, "the request body")


def _address(connection: Request | WebSocket) -> str:
    return connection.client.host if connection.client is not None else ""


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _seat_links(request: Request, room: Room) -> list[str | None]:
    """Each free seat's invite link (with its secret), for the game's players only."""
    base = str(request.base_url).rstrip("/")
    links: list[str | None] = []
    for row in room.seats:
        link = None
        if row.player == "human" and row.token_hash is None:
            if row.invite is not None:
                link = f"{base}/#/join/{room.id}/{row.seat}/{row.invite}"
            elif room.public:
                link = f"{base}/#/join/{room.id}/{row.seat}"
        links.append(link)
    return links


def _links(request: Request, room: Room, *, secret: bool) -> dict[str, Any]:
    base = str(request.base_url).rstrip("/")
    seats = _seat_links(request, room) if secret or room.public else [None] * len(room.seats)
    return {
        "game": f"{base}/#/game/{room.id}",
        "seats": seats,
        "spectator": f"{base}/#/game/{room.id}",
    }


def _created(request: Request, room: Room, token: str, seats: list[int]) -> JSONResponse:
    return JSONResponse(
        {
            "id": room.id,
            "token": token,
            "seats": seats,
            "links": _links(request, room, secret=True),
        },
        status_code=201,
    )


def create_app(
    database: str,
    *,
    computer: Executor | None = None,
    computer_pause: float = 0.6,
    allowed_origins: tuple[str, ...] = (),
    server_limits: ServerLimits | None = None,
    redis: str | None = None,
    computers: bool = True,
    allowed_hosts: Sequence[str] | None = None,
) -> Starlette:
    """The web app, storing games in the database at URL ``database``.

    ``computer`` runs computer players' searches (by default a pool of worker processes);
    ``allowed_origins`` are origins besides the app's own whose pages may open WebSockets
    and send state-changing requests; ``allowed_hosts`` are the host names (any port; a
    ``*.`` prefix allows every name under a domain, ``*`` any) the app answers for, every
    host if ``None`` (``sosgame serve`` passes the loopback names unless told others);
    ``server_limits`` caps connections and computer games (by default
    :meth:`ServerLimits.from_environment`). With ``redis`` (a Redis URL), any number of
    server processes serve the same games from the same database; ``computers=False``
    leaves their computer moves to other processes (``sosgame worker``).
    """
    state: dict[str, Hub] = {}
    caps = server_limits or ServerLimits.from_environment()
    analyses = Analyses(queue=caps.analysis_queue)
    accounts = Accounts()
    answers = Answers()
    reads = ClientRates(caps.reads_per_second, caps.read_burst)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        store = Store(database)
        state["hub"] = Hub(
            store,
            computer=computer,
            computer_pause=computer_pause,
            limits=caps,
            bus=None if redis is None else RedisBus(redis),
            computers=computers,
        )
        try:
            await state["hub"].start()
            await accounts.start(state["hub"])
        except BaseException:
            store.close()
            raise
        # What is loaded by now (modules, compiled kernels, the store) lives as long as the
        # process; left to the collector, every full collection walks all of it and stalls
        # each game for 100 ms or more while a crowd connects.
        gc.freeze()
        try:
            yield
        finally:
            await analyses.close()
            await state["hub"].close()
            store.close()

    def hub() -> Hub:
        return state["hub"]

    async def room_or_404(request: Request) -> Room:
        room = await hub().room(str(request.path_params["game_id"]))
        if room is None:
            raise ProtocolError("no_game", "there is no game with this id")
        return room

    async def index(_request: Request) -> Response:
        with resources.as_file(_STATIC / "index.html") as path:
            return FileResponse(path, media_type="text/html; charset=utf-8")

    async def i18n(_request: Request) -> Response:
        return JSONResponse({"languages": LANGUAGES, "catalog": browser_catalog()})

    async def config(_request: Request) -> Response:
        return JSONResponse(browser_config())

    async def list_games(request: Request) -> Response:
        which = request.query_params.get("list", "open")
        statuses = {"open": ["open"], "archive": ["finished"], "playing": ["playing"]}
        if which not in statuses:
            raise ProtocolError("bad_field", "query 'list' must be open, playing or archive")
        # Only games created public are listed, in any state: a private game's id is the
        # link to watch it, and its players choose whom they give it to.
        summaries = await hub().db(hub().store.summaries, statuses[which], public_only=True)
        return JSONResponse(
            {
                "games": [
                    {
                        "id": item.id,
                        "kind": item.kind,
                        "rows": item.rows,
                        "cols": item.cols,
                        "mode": item.mode,
                        "status": item.status,
                        "names": item.names,
                        "open_seats": item.open_seats,
                        "result": item.result,
                        "updated": item.updated_ms,
                    }
                    for item in summaries
                ]
            }
        )

    async def new_game(request: Request) -> Response:
        settings = parse_new_game(await _body(request))
        account = await accounts.current(request)
        player = account if settings.kind == "online" else None
        mine = next((n for n, row in enumerate(settings.seats) if row.player == "human"), None)
        if player is not None and mine is not None:
            # A named player's seat carries their name (and, linked, their rating).
            named = replace(settings.seats[mine], name=player.name)
            settings = replace(
                settings, seats=(*settings.seats[:mine], named, *settings.seats[mine + 1 :])
            )
        room, token, seats = await creation.create(
            hub(), settings, owner=_address(request), player=None if account is None else account.id
        )
        if mine is not None:
            await accounts.link(room.id, mine, player)
        return _created(request, room, token, seats)

    async def get_game(request: Request) -> Response:
        room = await room_or_404(request)
        return JSONResponse({**room.state()["game"], "links": _links(request, room, secret=False)})

    async def invites(request: Request) -> Response:
        room = await room_or_404(request)
        if not room.controlled(_bearer(request)):
            raise ProtocolError("not_your_seat", "invite links are for the game's players")
        return JSONResponse({"id": room.id, "seats": _seat_links(request, room)})

    async def take_seat(request: Request) -> Response:
        room = await room_or_404(request)
        seat_text = str(request.path_params["seat"])
        # ASCII digits only: "²".isdigit() is true but int() refuses it.
        if not (seat_text.isascii() and seat_text.isdigit() and len(seat_text) <= 3):
            raise ProtocolError("bad_field", "the seat must be a seat number")
        body = await _body(request, optional=True)
        if not isinstance(body, dict) or set(body) - {"name", "invite"}:
            raise ProtocolError(
                "bad_field", "the body must be an object with at most 'name' and 'invite'"
            )
        name = None if body.get("name") is None else check_name(body["name"], "name")
        invite = body.get("invite")
        if invite is not None and (not isinstance(invite, str) or len(invite) > 64):
            raise ProtocolError("bad_field", "field 'invite' must be the invite link's secret")
        player = await accounts.current(request)
        if player is not None:
            name = player.name
        token = await creation.take_seat(hub(), room, int(seat_text), name, invite)
        await accounts.link(room.id, int(seat_text), player)
        return JSONResponse({"id": room.id, "token": token, "seats": [int(seat_text)]})

    async def rematch(request: Request) -> Response:
        room = await room_or_404(request)
        token = _bearer(request)
        if token is None or not room.controlled(token):
            raise ProtocolError("not_your_seat", "a rematch needs a seat token of this game")
        account = await accounts.current(request)
        new, mine, fresh = await creation.rematch(
            hub(),
            room,
            token,
            owner=_address(request),
            player=None if account is None else account.id,
        )
        if fresh:
            await accounts.copy_links(room.id, new.id)
        response = _created(request, new, token, mine)
        response.status_code = 201 if fresh else 200
        return response

    async def costly_room(request: Request) -> Room:
        """The room of a request for work (a replay, record, move list or analysis), once
        the client's rate allows it."""
        if not reads.allow(_address(request)):
            raise ProtocolError(
                "rate_limited",
                f"too many replays, records and analyses asked for: at most"
                f" {caps.reads_per_second:g} a second from one address on average",
            )
        return await room_or_404(request)

    async def cached(room: Room, kind: str, make: Callable[[Position], bytes]) -> bytes:
        """The answer ``make`` gives for the room's game as it stands, made once per game
        version in a thread (from a copy of its moves) and kept."""
        position = room.position()
        key = (kind, room.id, room.version, len(position.actions))
        return await answers.get(key, lambda: make(position))

    async def record(request: Request) -> Response:
        room = await costly_room(request)
        created = datetime.fromtimestamp(room.created_ms / 1000, tz=UTC).date().isoformat()
        names = [row.name for row in room.seats]
        meta = {"date": created, "tags": {"game": room.id}}

        def make(position: Position) -> bytes:
            game = build_game(position)
            return Record.from_game(game, players=names, meta=meta).to_json().encode()

        return Response(
            await cached(room, "record", make),
            media_type="application/json",
            headers={"content-disposition": f'attachment; filename="sos-{room.id}.json"'},
        )

    async def replay(request: Request) -> Response:
        room = await costly_room(request)

        def make(position: Position) -> bytes:
            return to_json_bytes(replay_frames(build_game(position), position.start))

        return Response(await cached(room, "replay", make), media_type="application/json")

    async def moves(request: Request) -> Response:
        room = await costly_room(request)

        def make(position: Position) -> bytes:
            found = move_list(build_game(position), position.start)
            return to_json_bytes({"id": room.id, "moves": found})

        return Response(await cached(room, "moves", make), media_type="application/json")

    async def analysis(request: Request) -> Response:
        room = await costly_room(request)
        return JSONResponse(
            analyses.request(
                room.id, room.position(), version=room.version, client=_address(request)
            )
        )

    async def upload(request: Request) -> Response:
        body = await _body(request)
        try:
            loaded = Record.from_dict(body)
            # The same limits as a new game: board sides, seat count and names.
            limits.check_board(loaded.rows, loaded.cols)
            limits.check_seat_count(len(loaded.players), "players")
            players = [
                limits.check_name(name, f"players[{number}]")
                for number, name in enumerate(loaded.players)
            ]
        except (RecordError, limits.SettingsError) as error:
            raise ProtocolError("bad_record", str(error)) from None
        loaded.players = players
        account = await accounts.current(request)
        room, token, seats = await creation.create_from_record(
            hub(), loaded, owner=_address(request), player=None if account is None else account.id
        )
        return _created(request, room, token, seats)

    async def schema(_request: Request) -> Response:
        return JSONResponse(openapi())

    async def health(_request: Request) -> Response:
        try:
            await hub().db(hub().store.ping)
        except StorageUnavailableError:
            database = False
        else:
            database = True
        redis = await hub().bus.reachable()
        return JSONResponse(
            {
                "ok": database,
                "protocol": PROTOCOL_VERSION,
                "rooms": len(hub().rooms),
                "connections": hub().connections,
                "database": "ok" if database else "unavailable",
                "redis": None if redis is None else "ok" if redis else "unavailable",
            },
            status_code=200 if database else 503,
        )

    async def play(websocket: WebSocket) -> None:
        origin = websocket.headers.get("origin")
        host = websocket.headers.get("host", "")
        if origin is not None and not _origin_allowed(origin, host, allowed_origins):
            await websocket.close(code=1008, reason="origin not allowed")
            return
        address = _address(websocket)
        try:
            await hub().admission.enter(address)
        except BusyError as error:
            await websocket.accept()
            await websocket.send_text(dumps(error_message("server_busy", str(error))))
            await websocket.close(code=1013, reason="server busy: try again later")
            return
        await websocket.accept()
        game_id = str(websocket.path_params["game_id"])
        try:
            hub().admit(game_id, address)
        except TooManyError as error:
            await websocket.send_text(dumps(error_message(error.code, error.message)))
            await websocket.close(code=1013, reason=error.message[:120])
            return
        try:
            await _serve_socket(websocket, game_id, address)
        except StorageUnavailableError:
            # The client tries again later (the outage itself is logged once).
            with contextlib.suppress(Exception):
                await websocket.send_text(dumps(error_message(*_STORAGE_UNAVAILABLE)))
                await websocket.close(code=1013, reason="storage unavailable: try again later")
        finally:
            hub().release(game_id, address)

    async def _serve_socket(websocket: WebSocket, game_id: str, address: str) -> None:
        async def close(code: int, reason: str) -> None:
            await websocket.close(code=code, reason=reason)

        connection = hub().connection(websocket.send_text, close, address)
        room = await hub().room(game_id)
        if room is None:
            await connection.send(error_message("no_game", "there is no game with this id"))
            await connection.flush()
            await websocket.close(code=4404)
            return
        limit = RateLimit()
        refused = 0
        try:
            while not connection.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if not limit.allow():
                    refused += 1
                    if refused > FLOOD_LIMIT:
                        await websocket.close(code=1008, reason="too many messages")
                        break
                    await connection.send(
                        error_message(
                            "rate_limited",
                            f"too many messages: at most {RATE:g} a second on average",
                        )
                    )
                    continue
                refused = 0
                if text is not None and len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
                    # The same answer as the WebSocket transport gives a longer message.
                    await websocket.close(code=1009, reason=TOO_BIG)
                    break
                try:
                    if text is None:
                        raise ProtocolError("bad_message", "send messages as text frames of JSON")
                    parsed = parse_client_message(text)
                    if not connection.greeted:
                        if parsed.type != "hello":
                            raise ProtocolError("hello_first", "say hello before anything else")
                        room = await hub().room_to_join(game_id) or room
                        room.join(connection, parsed.all_tokens)
                        continue
                except ProtocolError as error:
                    await connection.send(error_message(error.code, error.message))
                    continue
                await room.handle(connection, parsed)
        except WebSocketDisconnect:
            pass
        finally:
            room.leave(connection)
            connection.stop()

    async def protocol_error(_request: Request, error: Exception) -> Response:
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
            "name_taken": 409,
            "name_confusable": 409,
            "wrong_password": 401,
            "not_logged_in": 401,
            "no_player": 404,
        }.get(error.code, 400)
        return _error(status, error.code, error.message)

    async def storage_unavailable(_request: Request, _exception: Exception) -> Response:
        return _error(503, *_STORAGE_UNAVAILABLE)

    async def http_error(_request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        code = _HTTP_CODES.get(error.status_code, "bad_request")
        response = _error(error.status_code, code, str(error.detail).lower())
        response.headers.update(error.headers or {})  # such as a 405's Allow
        return response

    async def server_error(_request: Request, _exception: Exception) -> Response:
        # Sent from outside every middleware, so it carries the security headers itself.
        response = _error(500, "internal", "the server failed to answer this request")
        response.raw_headers.extend(_HEADERS)
        return response

    routes = [
        Route("/", index),
        Route("/api/health", health),
        Route("/api/i18n", i18n),
        Route("/api/config", config),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{game_id}", get_game),
        Route("/api/games/{game_id}/seats/{seat}", take_seat, methods=["POST"]),
        Route("/api/games/{game_id}/rematch", rematch, methods=["POST"]),
        Route("/api/games/{game_id}/invites", invites),
        Route("/api/games/{game_id}/record", record),
        Route("/api/games/{game_id}/replay", replay),
        Route("/api/games/{game_id}/moves", moves),
        Route("/api/games/{game_id}/analysis", analysis),
        Route("/api/records", upload, methods=["POST"]),
        *accounts.routes(),
        Route("/openapi.json", schema),
        WebSocketRoute("/ws/games/{game_id}", play),
        Mount("/static", app=StaticFiles(packages=[("sosgame.web", "static")]), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={
            ProtocolError: protocol_error,
            StorageUnavailableError: storage_unavailable,
            HTTPException: http_error,
            500: server_error,
        },
    )
    hosts = None if allowed_hosts is None else frozenset(map(_host_name, allowed_hosts))
    app.add_middleware(_RequestChecks, allowed_hosts=hosts, allowed_origins=allowed_origins)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.add_middleware(_SecurityHeaders)
    return app
