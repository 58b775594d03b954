"""The OpenAPI document: made from the routes and their declarations, so it lists every route,
states the limits the request checks apply and the server's own limits."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

from starlette.applications import Starlette
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.schemas import BaseSchemaGenerator

from sosgame.web import create_app
from sosgame.web.api import operation_of
from sosgame.web.config import ServerLimits
from sosgame.web.endpoints.games import MAX_INVITE
from sosgame.web.guards.limits import SettingsError, check_password
from sosgame.web.live.protocol import ProtocolError, parse_new_game
from sosgame.web.openapi import UndeclaredEndpointError, openapi


@pytest.fixture
def app(tmp_path: Path) -> Starlette:
    return create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", computers=False)


def document(app: Starlette, limits: ServerLimits | None = None) -> dict[str, Any]:
    return openapi(app.routes, limits or ServerLimits())


def test_every_http_route_declares_itself_and_is_in_the_document(app: Starlette) -> None:
    endpoints = BaseSchemaGenerator().get_endpoints(app.routes)
    assert len(endpoints) > 20
    undeclared = [f"{e.http_method} {e.path}" for e in endpoints if operation_of(e.func) is None]
    assert undeclared == []
    paths = document(app)["paths"]
    assert {(e.path, e.http_method) for e in endpoints} == {
        (path, method) for path, operations in paths.items() for method in operations
    }


def test_a_route_added_without_a_declaration_is_refused(app: Starlette) -> None:
    async def forgotten(_request: Any) -> Response:
        return JSONResponse({})

    routes = [*app.routes, Route("/api/forgotten", forgotten, methods=["POST"])]
    with pytest.raises(UndeclaredEndpointError, match="POST /api/forgotten"):
        openapi(routes, ServerLimits())


def test_the_documents_server_limits_are_the_servers_own(app: Starlette) -> None:
    limits = ServerLimits(
        games_per_address=37,
        games_per_player=41,
        computer_games_per_address=3,
        computer_games_total=29,
        lobby_games_per_address=2,
        lobby_games_per_player=5,
        reads_per_second=2.5,
        read_burst=11,
        analysis_queue=6,
        login_attempts_per_minute=7,
    )
    paths = document(app, limits)["paths"]

    def refusal(path: str, method: str, status: str) -> str:
        description: str = paths[path][method]["responses"][status]["description"]
        return description

    too_many = refusal("/api/games", "post", "429")
    for figure in ("over 3 from", "29 on the server", "over 37 from", "41 of this player"):
        assert figure in too_many
    assert "over 2 from this address or 5 of this player" in too_many
    uploads = refusal("/api/records", "post", "429")
    assert "too_many_games" in uploads
    assert "over 2.5 a second on average or 11 at once" in uploads
    assert "over 2.5 a second on average or 11 at once" in refusal(
        "/api/games/{game_id}/replay", "get", "429"
    )
    analysis = refusal("/api/games/{game_id}/analysis", "get", "429")
    assert "over 2.5 a second" in analysis
    assert "over 6 waiting" in analysis
    assert "Over 7 attempts a minute" in refusal("/api/session", "post", "429")
    assert "{limits" not in json.dumps(paths)


def test_the_body_limits_are_those_the_endpoints_read_with(app: Starlette) -> None:
    paths = document(app)["paths"]
    too_large = paths["/api/games"]["post"]["responses"]["413"]["description"]
    assert f"over {256 * 1024} bytes" in too_large
    for path in ("/api/players", "/api/session", "/api/session/password"):
        assert "over 4096 bytes" in paths[path]["post"]["responses"]["413"]["description"]


def _accepted(body: dict[str, Any]) -> bool:
    try:
        parse_new_game(body)
    except ProtocolError:
        return False
    return True


def test_the_new_game_schema_states_the_limits_the_check_applies(app: Starlette) -> None:
    schema = document(app)["components"]["schemas"]["NewGame"]
    fields = schema["properties"]
    seat = {"name": "Ann"}
    game = {"rows": 3, "cols": 3, "seats": [seat, seat]}
    assert _accepted(game)
    for side in ("rows", "cols"):
        low, high = fields[side]["minimum"], fields[side]["maximum"]
        other = "cols" if side == "rows" else "rows"
        assert _accepted({**game, side: low, other: 3})
        assert _accepted({**game, side: high})
        assert not _accepted({**game, side: low - 1, other: 3})
        assert not _accepted({**game, side: high + 1})
    seats = fields["seats"]
    assert _accepted({**game, "seats": [seat] * seats["maxItems"]})
    assert not _accepted({**game, "seats": [seat] * (seats["maxItems"] + 1)})
    assert not _accepted({**game, "seats": [seat] * (seats["minItems"] - 1)})
    longest = seats["items"]["properties"]["name"]["maxLength"]
    assert _accepted({**game, "seats": [{"name": "A" * longest}, seat]})
    assert not _accepted({**game, "seats": [{"name": "A" * (longest + 1)}, seat]})
    assert set(seats["items"]["properties"]["player"]["enum"]) >= {"human", "perfect"}
    clock = fields["clock"]["properties"]
    for part in ("initial", "increment"):
        low, high = clock[part]["minimum"], clock[part]["maximum"]
        base = {"initial": 60, "increment": 0}
        assert _accepted({**game, "clock": {**base, part: high}})
        assert _accepted({**game, "clock": {**base, part: low}})
        assert not _accepted({**game, "clock": {**base, part: high + 1}})
        assert not _accepted({**game, "clock": {**base, part: low - 1}})
    # Every field the schema names is one the check takes, and no other is taken.
    assert not _accepted({**game, "colour": "red"})
    assert _accepted({**game, "mode": "simple", "kind": "online", "public": True, "clock": None})


def test_the_password_and_invite_limits_are_those_checked(app: Starlette) -> None:
    schemas = document(app)["components"]["schemas"]
    password = schemas["Credentials"]["properties"]["password"]
    assert check_password("ab" * (password["maxLength"] // 2), "ann")
    assert check_password("ab" * (password["minLength"] // 2), "ann")
    for length in (password["minLength"] - 1, password["maxLength"] + 1):
        with pytest.raises(SettingsError):
            check_password(("ab" * length)[:length], "ann")
    assert schemas["PasswordChange"]["properties"]["new_password"] == password
    assert schemas["TakeSeat"]["properties"]["invite"]["maxLength"] == MAX_INVITE
