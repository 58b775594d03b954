"""Tournaments (docs/protocol.md, "Tournaments"): create, list and show them, and join,
withdraw or pause, by a session cookie or a bot's bearer API token. The server runs them
(:mod:`sosgame.web.tournaments.runner`); what an endpoint shows is worked out from the store.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sosgame.tournaments.settings import TournamentSettingsError, parse_settings
from sosgame.web.api import Answer, Model, declare, refused
from sosgame.web.endpoints.bots import authorized
from sosgame.web.endpoints.common import bearer, hub, read_json, server
from sosgame.web.live.protocol import ProtocolError
from sosgame.web.people.players import Account
from sosgame.web.tournaments import views
from sosgame.web.tournaments.runner import TournamentRunner
from sosgame.web.tournaments.store import UPCOMING_PER_CREATOR

__all__ = ["ROUTES"]

SCOPES: Final = ("bot:play", "board:play")
"""A bearer token's scopes that let its account take part in tournaments."""

_AUTH: Final = "No session nor token (not_logged_in, no_token, bad_token)"
_ID: Final = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}


def _runner(request: Request) -> TournamentRunner:
    found: TournamentRunner = request.app.state.tournaments
    return found


async def _account(request: Request) -> Account:
    """The account of the bearer API token, or of the session cookie."""
    if bearer(request) is not None:
        account, _ = await authorized(request, *SCOPES)
        return account
    found = await server(request).accounts.current(request)
    if found is None:
        raise ProtocolError("not_logged_in")
    return found


_SETTINGS: Final = Model(
    "TournamentSettings",
    {
        "type": "object",
        "properties": {
            "kind": {"enum": ["arena", "swiss"]},
            "name": {"type": "string", "minLength": 2, "maxLength": 60},
            "rows": {"type": "integer"},
            "cols": {"type": "integer"},
            "mode": {"enum": ["general", "simple"]},
            "clock": {
                "type": ["object", "null"],
                "properties": {
                    "initial": {"type": "integer", "description": "seconds"},
                    "increment": {"type": "integer", "description": "seconds"},
                },
            },
            "days": {"type": ["integer", "null"], "description": "days per move (a Swiss)"},
            "rated": {"type": "boolean"},
            "starts_at": {"type": "integer", "description": "ms since 1970"},
            "minutes": {"type": ["integer", "null"], "description": "an Arena's length"},
            "rounds": {"type": ["integer", "null"], "description": "a Swiss's rounds"},
            "bots": {"type": "boolean"},
            "open": {"type": "boolean"},
        },
        "required": ["kind", "name", "rows", "cols", "mode", "starts_at"],
    },
)
_LISTS: Final = Model(
    "Tournaments",
    {
        "type": "object",
        "properties": {
            name: {"type": "array", "items": {"type": "object"}}
            for name in ("upcoming", "playing", "finished")
        },
    },
)
_TOURNAMENT: Final = Model(
    "Tournament",
    {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "kind": {"enum": ["arena", "swiss"]},
            "status": {"enum": ["created", "started", "finished"]},
            "standings": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "rank": {"type": "integer"},
                        "name": {"type": "string"},
                        "rating": {"type": "integer"},
                        "score": {"type": "number"},
                        "games": {"type": "array"},
                        "fire": {"type": "boolean"},
                        "win": {
                            "type": "number",
                            "description": "what the player's next win is worth, berserk aside",
                        },
                    },
                },
            },
            "berserk_plies": {
                "type": ["integer", "null"],
                "description": "an Arena's moves a game must last for a berserk win's extra point",
            },
            "me": {
                "type": "object",
                "description": "where the session's player stands (absent without a session)",
                "properties": {
                    name: {"type": "boolean"}
                    for name in ("joined", "paused", "withdrawn", "creator")
                },
            },
        },
    },
)
_ENTRANT: Final = Model(
    "TournamentEntrant",
    {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "joined": {"type": "boolean"},
            "paused": {"type": "boolean"},
            "withdrawn": {"type": "boolean"},
        },
    },
)


@declare(
    "Create a tournament (session cookie, or a bearer token)",
    body=_SETTINGS,
    responses={
        201: Answer("Created", Model("NewTournament", _ID)),
        400: refused("A setting missing or out of its range (bad_field, with the field)"),
        401: refused(_AUTH),
        429: refused(
            f"The caller has {UPCOMING_PER_CREATOR} tournaments not started yet"
            " (too_many_tournaments)"
        ),
    },
)
async def create(request: Request) -> Response:
    """``POST /api/tournaments``."""
    account = await _account(request)
    body = await read_json(request)
    if not isinstance(body, dict):
        raise ProtocolError("bad_field", "the body must be an object of tournament settings")
    try:
        settings = parse_settings(body)
    except TournamentSettingsError as error:
        raise ProtocolError("bad_field", str(error)) from None
    runner = _runner(request)
    made = await hub(request).db(runner.store.create, settings, account.id, runner.now())
    if made is None:
        raise ProtocolError("too_many_tournaments", f"at most {UPCOMING_PER_CREATOR}")
    return JSONResponse({"id": made}, status_code=201)


@declare(
    "The tournaments: upcoming (soonest first), playing, and the latest finished",
    responses={200: Answer("The three lists", _LISTS)},
)
async def listed(request: Request) -> Response:
    """``GET /api/tournaments``."""
    runner = _runner(request)
    found = await hub(request).db(partial(runner.store.listed, only_open=True))
    return JSONResponse(
        {
            name: [views.summary(row, count, runner.speed) for row, count in rows]
            for name, rows in found.items()
        }
    )


@declare(
    "A tournament: its settings, standings (worked out from its stored games) and games",
    responses={
        200: Answer("The tournament", _TOURNAMENT),
        404: refused("No such tournament (no_tournament)"),
    },
)
async def show(request: Request) -> Response:
    """``GET /api/tournaments/{id}``."""
    runner = _runner(request)
    snapshot = await hub(request).db(runner.store.snapshot, request.path_params["id"])
    if snapshot is None:
        raise ProtocolError("no_tournament")
    shown = views.tournament_json(snapshot, runner.speed)
    # A page's buttons follow where its reader stands; a guest's page has none.
    account = await server(request).accounts.current(request)
    if account is not None:
        shown["me"] = views.my_state(snapshot, account.id)
    return JSONResponse(shown)


def _refuse(refusal: str | None) -> None:
    """Raise the error of the store's refusal, if any."""
    if refusal == "no_tournament":
        raise ProtocolError("no_tournament")
    if refusal == "tournament_over":
        raise ProtocolError("tournament_over")
    if refusal == "not_invited":
        raise ProtocolError("not_invited")
    if refusal == "bots_not_allowed":
        raise ProtocolError("bots_not_allowed")
    if refusal == "tournament_full":
        raise ProtocolError("tournament_full", "a Swiss takes at most 64 players")
    if refusal == "not_entered":
        raise ProtocolError("not_entered")
    if refusal == "not_your_tournament":
        raise ProtocolError("not_your_tournament")
    if refusal == "tournament_open":
        raise ProtocolError("tournament_open")


async def _entrant(request: Request, action: str) -> Response:
    account = await _account(request)
    runner = _runner(request)
    tournament_id = str(request.path_params["id"])
    now = runner.now()
    refusal: str | None
    if action == "join":
        rating = round(account.rating.shown)
        refusal = await hub(request).db(
            runner.store.join, tournament_id, account.id, rating, bot=account.bot, now_ms=now
        )
    else:
        refusal = await hub(request).db(
            runner.store.leave,
            tournament_id,
            account.id,
            withdraw=action == "withdraw",
            now_ms=now,
        )
    _refuse(refusal)
    shown: dict[str, Any] = {
        "id": tournament_id,
        "joined": action == "join",
        "paused": action == "pause",
        "withdrawn": action == "withdraw",
    }
    return JSONResponse(shown)


_REFUSALS: Final = {
    401: refused(_AUTH),
    404: refused("No such tournament (no_tournament)"),
}


@declare(
    "Join a tournament, or come back to it after a pause or a withdrawal",
    responses={
        200: Answer("Joined", _ENTRANT),
        **_REFUSALS,
        403: refused(
            "Not invited (not_invited), or a bot where bots may not play (bots_not_allowed)"
        ),
        409: refused("Over (tournament_over), or a Swiss full (tournament_full)"),
    },
)
async def join(request: Request) -> Response:
    """``POST /api/tournaments/{id}/join``."""
    return await _entrant(request, "join")


@declare(
    "Withdraw from a tournament (before its start: leave it), keeping one's points",
    responses={
        200: Answer("Withdrawn", _ENTRANT),
        **_REFUSALS,
        409: refused("Over (tournament_over), or not in it (not_entered)"),
    },
)
async def withdraw(request: Request) -> Response:
    """``POST /api/tournaments/{id}/withdraw``."""
    return await _entrant(request, "withdraw")


@declare(
    "Pause: be paired no more until one joins again",
    responses={
        200: Answer("Paused", _ENTRANT),
        **_REFUSALS,
        409: refused("Over (tournament_over), or not in it (not_entered)"),
    },
)
async def pause(request: Request) -> Response:
    """``POST /api/tournaments/{id}/pause``."""
    return await _entrant(request, "pause")


@declare(
    "Invite a player by name to one's tournament that is not open (its creator only)",
    body=Model(
        "TournamentInvitation",
        {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
    ),
    responses={
        200: Answer(
            "Invited (again: nothing changes)",
            Model("TournamentInvited", {"type": "object", "properties": {"id": {}, "name": {}}}),
        ),
        400: refused("No name given (bad_field)"),
        **_REFUSALS,
        403: refused("Not the tournament's creator (not_your_tournament)"),
        409: refused("Open to all (tournament_open), or over (tournament_over)"),
    },
)
async def invite(request: Request) -> Response:
    """``POST /api/tournaments/{id}/invite`` with ``{"name"}``."""
    account = await _account(request)
    body = await read_json(request)
    name = body.get("name") if isinstance(body, dict) else None
    if not isinstance(name, str) or not name.strip():
        raise ProtocolError("bad_field", "field 'name' must name a player")
    runner = _runner(request)
    tournament_id = str(request.path_params["id"])
    guest = await hub(request).db(server(request).accounts.players.find, name)
    if guest is None:
        raise ProtocolError("no_player", name[:100])
    refusal = await hub(request).db(runner.store.invite_by, tournament_id, account.id, guest.id)
    _refuse(refusal)
    return JSONResponse({"id": tournament_id, "name": guest.name})


ROUTES: Final = [
    Route("/api/tournaments", create, methods=["POST"]),
    Route("/api/tournaments", listed, methods=["GET"]),
    Route("/api/tournaments/{id}", show, methods=["GET"]),
    Route("/api/tournaments/{id}/join", join, methods=["POST"]),
    Route("/api/tournaments/{id}/withdraw", withdraw, methods=["POST"]),
    Route("/api/tournaments/{id}/pause", pause, methods=["POST"]),
    Route("/api/tournaments/{id}/invite", invite, methods=["POST"]),
]
"""This module's endpoints, for the app's routing table."""
