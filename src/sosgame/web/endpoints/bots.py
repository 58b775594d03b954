"""The bot API (docs/protocol.md, "Bots"), after lichess's Bot API: personal API tokens,
bot accounts and challenges over HTTP; a game's moves and actions are
:mod:`sosgame.web.endpoints.botgames`', the NDJSON streams
:mod:`sosgame.web.endpoints.botstreams`'.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Final

from sqlalchemy import Engine
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sosgame.web.api import Answer, Model, declare, refused
from sosgame.web.endpoints.common import address, bearer, hub, read_json, server
from sosgame.web.guards import gamecaps
from sosgame.web.guards.gamecaps import Party
from sosgame.web.guards.ratelimit import SharedRates
from sosgame.web.live import clock as clocks
from sosgame.web.live.hub import Hub
from sosgame.web.live.protocol import (
    ProtocolError,
)
from sosgame.web.matchmaking import creation
from sosgame.web.matchmaking.challengelimits import (
    DECLINE_REASONS,
    LimitStore,
    parse_limits,
)
from sosgame.web.matchmaking.challenges import API_HOLDER, Challenge, ChallengeStore
from sosgame.web.matchmaking.lobby import seek_game
from sosgame.web.matchmaking.seeks import (
    CHALLENGES_PER_PLAYER,
    Member,
    Seek,
    SeekSettings,
    SeekStore,
    parse_seek,
    seat_token,
)
from sosgame.web.people.apitokens import SCOPES, ApiTokens, TokenInfo
from sosgame.web.people.players import Account, Players
from sosgame.web.people.tokens import hash_token, new_token

__all__ = ["ACTION_BURST", "ACTION_RATE", "ANY_PLAY", "OK", "ROUTES", "Bots", "authorized", "bots"]

ACTION_RATE: Final = 10.0
"""A token's requests for games a second on average (a move its seat may make is free)."""
ACTION_BURST: Final = 30

ANY_PLAY: Final = ("bot:play", "board:play", "challenge:read")
_MAX_TOKEN: Final = 100
SEATS_KEPT: Final = 4096
"""Accounts' seats in games kept in memory: a seat once taken is its account's for good, so
a game's actions need not read it again."""


class SeatMemory:
    """The seats each account took in a game, as read once from the store (only found
    seats are kept: one taken later is read then)."""

    def __init__(self, size: int = SEATS_KEPT) -> None:
        self._size = size
        self._kept: OrderedDict[tuple[int, str], frozenset[int]] = OrderedDict()

    def get(self, account: int, game_id: str) -> frozenset[int] | None:
        found = self._kept.get((account, game_id))
        if found is not None:
            self._kept.move_to_end((account, game_id))
        return found

    def keep(self, account: int, game_id: str, seats: frozenset[int]) -> None:
        if not seats:
            return
        self._kept[(account, game_id)] = seats
        while len(self._kept) > self._size:
            self._kept.popitem(last=False)


@dataclass
class Bots:
    """The bot API's parts (in ``app.state.bots``)."""

    tokens: ApiTokens
    challenges: ChallengeStore
    seeks: SeekStore
    rates: SharedRates = field(
        default_factory=lambda: SharedRates("bots", ACTION_RATE, ACTION_BURST)
    )
    seats: SeatMemory = field(default_factory=SeatMemory)

    @classmethod
    def of(cls, engine: Any) -> Bots:
        """The parts over the store's database."""
        return cls(ApiTokens(engine), ChallengeStore(engine), SeekStore(engine))

    def start(self, running: Hub) -> None:
        """Keep the API's challenges alive at each sweep."""

        async def sweep() -> None:
            await running.db(self.challenges.sweep, clocks.now_ms())

        running.sweep_hooks.append(sweep)
        self.rates.share(running.bus)


def bots(request: Request) -> Bots:
    """The bot API's parts of this process."""
    found: Bots = request.app.state.bots
    return found


async def authorized(request: Request, *scopes: str) -> tuple[Account, TokenInfo]:
    """The account and token of the request's ``Authorization: Bearer`` API token, which
    must grant one of ``scopes``: ``no_token``, ``bad_token`` (unknown or revoked) or
    ``missing_scope`` if not."""
    secret = bearer(request)
    if secret is None:
        raise ProtocolError("no_token", "send Authorization: Bearer and an API token")
    info, account = None, None
    if len(secret) <= _MAX_TOKEN:
        info, account = await hub(request).db_aside(
            _resolve, bots(request).tokens, server(request).accounts.players, secret
        )
    if info is None or account is None:
        raise ProtocolError("bad_token")
    if not set(scopes) & set(info.scopes):
        raise ProtocolError("missing_scope", " or ".join(scopes))
    return account, info


def _resolve(
    tokens: ApiTokens, players: Players, secret: str
) -> tuple[TokenInfo | None, Account | None]:
    """The token and its account, read in one trip to the store's side thread (a request
    of a bot's waits for one turn of that thread, not two)."""
    info = tokens.resolve(secret)
    return info, None if info is None else players.get(info.player_id)


async def _logged_in(request: Request) -> Account:
    account = await server(request).accounts.current(request)
    if account is None:
        raise ProtocolError("not_logged_in")
    return account


OK: Final = Model("Ok", {"type": "object", "properties": {"ok": {"type": "boolean"}}})
_NEW_TOKEN: Final = Model(
    "NewApiToken",
    {
        "type": "object",
        "properties": {
            "description": {"type": "string", "maxLength": 200},
            "scopes": {"type": "array", "items": {"type": "string", "enum": list(SCOPES)}},
        },
        "required": ["description", "scopes"],
    },
)


@declare(
    "Make a personal API token (session cookie of a named player); it is shown this once",
    body=_NEW_TOKEN,
    responses={
        201: Answer("id, token, scopes", Model("ApiToken", {"type": "object"})),
        400: refused("A bad field, or a scope that does not exist (unknown_scope)"),
        401: refused("No named player's session (not_logged_in)"),
        429: refused("As many tokens as one player may hold (too_many_tokens)"),
    },
)
async def new_api_token(request: Request) -> Response:
    """``POST /api/tokens``: a new token of the logged-in player, 201 ``{"id", "token",
    "scopes"}``."""
    account = await _logged_in(request)
    data = await read_json(request)
    if not isinstance(data, dict) or set(data) != {"description", "scopes"}:
        raise ProtocolError(
            "bad_field", "the body must be an object with 'description' and 'scopes'"
        )
    description, scopes = data["description"], data["scopes"]
    if not isinstance(description, str) or len(description) > 200:
        raise ProtocolError("bad_field", "field 'description' must be text of at most 200")
    if not isinstance(scopes, list) or not scopes or not all(isinstance(s, str) for s in scopes):
        raise ProtocolError("bad_field", "field 'scopes' must be a list of scopes")
    unknown = [scope for scope in scopes if scope not in SCOPES]
    if unknown:
        raise ProtocolError("unknown_scope", f"{unknown[0][:40]!r}; known: {', '.join(SCOPES)}")
    made = await hub(request).db_aside(
        bots(request).tokens.create,
        account.id,
        description,
        tuple(dict.fromkeys(scopes)),
        clocks.now_ms(),
    )
    if made is None:
        raise ProtocolError("too_many_tokens")
    info, token = made
    return JSONResponse({**info.to_json(), "token": token}, status_code=201)


@declare(
    "The logged-in player's API tokens (never the tokens themselves)",
    responses={
        200: Answer("tokens: id, description, scopes, created", Model("ApiTokens", {})),
        401: refused("No named player's session (not_logged_in)"),
    },
)
async def list_api_tokens(request: Request) -> Response:
    """``GET /api/tokens``."""
    account = await _logged_in(request)
    listed = await hub(request).db_aside(bots(request).tokens.listed, account.id)
    return JSONResponse({"tokens": [info.to_json() for info in listed]})


@declare(
    "Revoke one of the logged-in player's API tokens",
    responses={
        200: Answer("Revoked: id", Model("ApiTokenId", {})),
        401: refused("No named player's session (not_logged_in)"),
        404: refused("No such token of this player (no_token_id)"),
    },
)
async def revoke_api_token(request: Request) -> Response:
    """``DELETE /api/tokens/{id}``."""
    account = await _logged_in(request)
    token_id = str(request.path_params["token_id"])
    if not await hub(request).db_aside(bots(request).tokens.revoke, account.id, token_id):
        raise ProtocolError("no_token_id")
    return JSONResponse({"id": token_id})


@declare(
    "The account of the API token",
    bearer=True,
    responses={200: Answer("The player, with 'bot'", Model("Account", {}))},
)
async def api_account(request: Request) -> Response:
    """``GET /api/account``: the token's account (any scope)."""
    account, info = await authorized(request, *SCOPES)
    return JSONResponse({**account.to_json(), "scopes": list(info.scopes)})


@declare(
    "Make the token's account a bot's, for good (only without a rated game)",
    bearer=True,
    responses={
        200: Answer("The player, now with 'bot': true", Model("Account", {})),
        400: refused("The account has played a rated game (not_upgradable)"),
    },
)
async def upgrade(request: Request) -> Response:
    """``POST /api/bot/account/upgrade`` (``bot:play``)."""
    account, _ = await authorized(request, "bot:play")
    if not account.bot and not await hub(request).db(bots(request).tokens.make_bot, account.id):
        raise ProtocolError("not_upgradable")
    found = await hub(request).db(server(request).accounts.players.get, account.id)
    return JSONResponse(found.to_json())


# --------------------------------------------------------------------------- challenges


def _member(account: Account, seek_id: str) -> Member:
    """The member an API client is of a challenge: held by no lobby connection."""
    secret = f"{API_HOLDER}.{new_token()}"
    return Member(
        hash_token(secret),
        API_HOLDER,
        account.name,
        account.id,
        hash_token(seat_token(secret, seek_id)),
    )


@declare(
    "Challenge a named player to a game of two",
    bearer=True,
    body=Model(
        "Challenge", {"type": "object", "description": "rows, cols, mode, clock, days, rated"}
    ),
    responses={
        200: Answer(
            "challenge: id, rows, cols, mode, clock, days, rated, ...", Model("ChallengeMade", {})
        ),
        403: refused("The player takes no such challenge (challenge_refused, and the reason)"),
        404: refused("Nobody has claimed the name, or it is the caller's (no_player)"),
        429: refused("As many challenges waiting as one may (too_many_challenges), too_many_games"),
    },
)
async def challenge(request: Request) -> Response:
    """``POST /api/challenge/{name}`` (``challenge:write``)."""
    account, _ = await authorized(request, "challenge:write")
    name = str(request.path_params["name"])
    data = await read_json(request)
    if not isinstance(data, dict) or "players" in data or "rating" in data or "name" in data:
        raise ProtocolError("bad_field", "a challenge is rows, cols, mode, clock, days and rated")
    given = parse_seek(data)
    running = hub(request)
    party = Party(address(request), account.id)
    # The checks only read: one trip to the side thread, never queued behind the moves'
    # commits (the transaction that stores a game checks its caps again).
    target, reason = await running.db_aside(
        _challengeable,
        server(request).accounts.players,
        running.store.engine,
        account,
        name,
        given,
        creation.caps_now(running),
        party,
    )
    if reason is not None:
        raise creation.too_many(reason, running.limits)
    seek_id = secrets.token_urlsafe(9)
    now = clocks.now_ms()
    made = await running.db(
        bots(request).seeks.create,
        seek_id,
        given,
        _member(account, seek_id),
        party.address,
        now,
        per_address=CHALLENGES_PER_PLAYER,
        target=target.id,
    )
    if not made:
        raise ProtocolError("too_many_challenges", f"at most {CHALLENGES_PER_PLAYER}")
    running.bus.wake()
    # Told as made, without reading it back: the event streams hear it one trip sooner.
    seek = Seek(
        seek_id,
        given,
        account.name,
        1,
        account=account.id,
        target=target.id,
        target_name=target.name,
        created_ms=now,
        address=party.address,
        bot=account.bot,
        target_bot=target.bot,
    )
    shown = Challenge(seek, account.id, None, None).to_json()
    running.notices.tell([account.id, target.id], {"type": "challenge", "challenge": shown})
    return JSONResponse({"challenge": shown})


def _challengeable(
    players: Players,
    engine: Engine,
    account: Account,
    name: str,
    given: SeekSettings,
    caps: gamecaps.Caps,
    party: Party,
) -> tuple[Account, str | None]:
    """The account ``account`` may challenge as ``name`` to ``given`` (``no_player``, or
    ``challenge_refused`` by its limits), and the cap a new game would pass, if any."""
    target = players.find(name)
    if target is None or target.id == account.id:
        raise ProtocolError("no_player", name[:100])
    LimitStore(engine).check(account, target.id, given)
    return target, gamecaps.refused(engine, caps, party)


async def _challenge_answer(request: Request, answer: str, *, mine: bool) -> Response:
    account, _ = await authorized(request, "challenge:write")
    seek_id = str(request.path_params["challenge_id"])
    async with hub(request).notices.closing(account.id, answer):
        done = await hub(request).db(
            bots(request).challenges.answer, seek_id, account.id, answer, mine=mine
        )
    if not done:
        raise ProtocolError("no_challenge")
    hub(request).bus.wake()
    return JSONResponse({"ok": True})


@declare(
    "Accept a challenge to the token's account: the game is made",
    bearer=True,
    responses={
        200: Answer("game: id", Model("ChallengeAccepted", {})),
        404: refused("No such challenge to you (no_challenge)"),
    },
)
async def accept(request: Request) -> Response:
    """``POST /api/challenge/{id}/accept`` (``challenge:write``)."""
    account, _ = await authorized(request, "challenge:write")
    seek_id = str(request.path_params["challenge_id"])
    member = _member(account, seek_id)
    async with hub(request).notices.closing(account.id):
        refused_why = await hub(request).db(
            bots(request).seeks.join,
            seek_id,
            member,
            account.rating.shown,
            clocks.now_ms(),
            seek_game,
            address=address(request),
            caps=creation.caps_now(hub(request)),
        )
    if refused_why in gamecaps.REASONS:
        raise ProtocolError("too_many_games", "the challenger may make no more games now")
    if refused_why is not None:
        raise ProtocolError("no_challenge" if refused_why == "no_seek" else "not_for_you")
    game = await hub(request).db(bots(request).challenges.game_of, seek_id)
    hub(request).bus.wake()
    return JSONResponse({"ok": True, "game": {"id": game}})


@declare(
    "Decline a challenge to the token's account",
    bearer=True,
    body=Model("Decline", {"type": "object", "description": "reason (optional)"}),
    body_required=False,
    responses={
        200: Answer("ok", OK),
        404: refused("No such challenge (no_challenge)"),
    },
)
async def decline(request: Request) -> Response:
    """``POST /api/challenge/{id}/decline`` with ``{"reason"}`` (optional)."""
    reason = "generic"
    if await request.body():
        data = await read_json(request)
        given = data.get("reason") if isinstance(data, dict) else None
        if given is not None and (not isinstance(given, str) or not 0 < len(given) <= 40):
            raise ProtocolError("bad_field", "field 'reason' must be text of 1 to 40 characters")
        # As lichess: a reason outside the list is the generic one.
        reason = given if given in DECLINE_REASONS else reason
    return await _challenge_answer(request, f"declined:{reason}", mine=False)


@declare(
    "Cancel a challenge the token's account made",
    bearer=True,
    responses={
        200: Answer("ok", OK),
        404: refused("No such challenge (no_challenge)"),
    },
)
async def cancel(request: Request) -> Response:
    """``POST /api/challenge/{id}/cancel``."""
    return await _challenge_answer(request, "canceled", mine=True)


@declare(
    "The challenges waiting to and from the token's account (lichess's GET /api/challenge)",
    bearer=True,
    responses={
        200: Answer(
            "in: to the account; out: from it; each as the event stream's 'challenge' shows it",
            Model("Challenges", {}),
        ),
        401: refused("no_token, bad_token"),
        403: refused("missing_scope"),
    },
)
async def list_challenges(request: Request) -> Response:
    """``GET /api/challenge`` (``challenge:read`` or ``challenge:write``): ``{"in", "out"}``,
    oldest first."""
    account, _ = await authorized(request, "challenge:read", "challenge:write")
    found = await hub(request).db_aside(
        bots(request).challenges.involving, account.id, clocks.now_ms()
    )
    waiting = [one for one in found if one.game is None and one.answer is None]
    return JSONResponse(
        {
            "in": [one.to_json() for one in waiting if one.seek.target == account.id],
            "out": [one.to_json() for one in waiting if one.challenger == account.id],
        }
    )


# ---------------------------------------------------------------------- challenge limits


async def _limits_account(request: Request, *scopes: str) -> Account:
    """The account of the session cookie, or of a bearer API token granting ``scopes``."""
    if bearer(request) is not None:
        account, _ = await authorized(request, *scopes)
        return account
    return await _logged_in(request)


_LIMITS: Final = Model(
    "ChallengeLimits",
    {
        "type": "object",
        "properties": {
            "accept": {"enum": ["nobody", "rated", "registered", "everyone"]},
            "min_side": {"type": ["integer", "null"]},
            "max_side": {"type": ["integer", "null"]},
            "modes": {"type": "array", "items": {"enum": ["general", "simple"]}},
            "min_initial": {"type": ["integer", "null"], "description": "seconds"},
            "max_initial": {"type": ["integer", "null"], "description": "seconds"},
            "untimed": {"type": "boolean"},
            "days": {"type": "boolean"},
            "rated": {"type": "boolean"},
            "casual": {"type": "boolean"},
            "bots": {"type": "boolean"},
        },
    },
)


@declare(
    "Who may challenge the caller, and to what games (session cookie, or a bearer token)",
    responses={
        200: Answer("The limits", _LIMITS),
        401: refused("No session nor token (not_logged_in, no_token, bad_token)"),
    },
)
async def get_limits(request: Request) -> Response:
    """``GET /api/account/challenge-limits``."""
    account = await _limits_account(request, "challenge:read", "challenge:write", "bot:play")
    found = await hub(request).db(LimitStore(hub(request).store.engine).get, account.id)
    return JSONResponse(found.to_json())


@declare(
    "Set who may challenge the caller, and to what games (fields left out: their defaults)",
    body=_LIMITS,
    responses={
        200: Answer("The limits", _LIMITS),
        400: refused("A field out of its range (bad_field, unknown_field)"),
        401: refused("No session nor token (not_logged_in, no_token, bad_token)"),
    },
)
async def put_limits(request: Request) -> Response:
    """``PUT /api/account/challenge-limits`` (``challenge:write`` for a token)."""
    account = await _limits_account(request, "challenge:write")
    limits = parse_limits(await read_json(request))
    await hub(request).db(LimitStore(hub(request).store.engine).put, account.id, limits)
    return JSONResponse(limits.to_json())


ROUTES: Final = [
    Route("/api/account/challenge-limits", get_limits, methods=["GET"]),
    Route("/api/account/challenge-limits", put_limits, methods=["PUT"]),
    Route("/api/tokens", new_api_token, methods=["POST"]),
    Route("/api/tokens", list_api_tokens, methods=["GET"]),
    Route("/api/tokens/{token_id}", revoke_api_token, methods=["DELETE"]),
    Route("/api/account", api_account, methods=["GET"]),
    Route("/api/bot/account/upgrade", upgrade, methods=["POST"]),
    Route("/api/challenge", list_challenges, methods=["GET"]),
    Route("/api/challenge/{challenge_id}/accept", accept, methods=["POST"]),
    Route("/api/challenge/{challenge_id}/decline", decline, methods=["POST"]),
    Route("/api/challenge/{challenge_id}/cancel", cancel, methods=["POST"]),
    Route("/api/challenge/{name}", challenge, methods=["POST"]),
]
"""This module's endpoints, for the app's routing table."""
