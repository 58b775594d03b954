"""What the endpoints share: the server's parts, kept in ``app.state`` by
:func:`sosgame.web.app.create_app`; request bodies; the client's address and seat token; JSON
errors."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Final

from starlette.requests import HTTPConnection, Request

from sosgame.web.api import refused
from sosgame.web.computer.analysis import Analyses
from sosgame.web.config import ServerLimits
from sosgame.web.guards.bodies import read_json
from sosgame.web.guards.ratelimit import SharedRates, TokenStore
from sosgame.web.live.chat import ChatRates
from sosgame.web.live.errors import ProtocolError, error_response
from sosgame.web.live.hub import Hub
from sosgame.web.live.replay import Answers
from sosgame.web.live.room import Room
from sosgame.web.people.accounts import Accounts

__all__ = [
    "FORBIDDEN",
    "NO_GAME",
    "READS",
    "TOO_MANY",
    "Server",
    "address",
    "bearer",
    "cold_load",
    "costly",
    "error_response",
    "hub",
    "read_json",
    "room_or_404",
    "server",
]


NO_GAME: Final = refused("There is no game with this id (no_game)")
FORBIDDEN: Final = refused("No right to do it: a missing or wrong seat token or invite")
TOO_MANY: Final = refused(
    "Too many unfinished games: with a computer seat, over"
    " {limits.computer_games_per_address} from this address or"
    " {limits.computer_games_total} on the server; over {limits.games_per_address} from this"
    " address or {limits.games_per_player} of this player, or over"
    " {limits.new_games_per_address} made from this address or {limits.new_games_per_player}"
    " by this player in {limits.new_games_seconds:g} s (too_many_games); or public games"
    " waiting for players, over {limits.lobby_games_per_address} from this address or"
    " {limits.lobby_games_per_player} of this player (too_many_lobby_games)"
)
READS: Final = refused(
    "Too many replays, records, move lists and analyses from this address: over"
    " {limits.reads_per_second:g} a second on average or {limits.read_burst} at once"
    " (rate_limited)"
)


@dataclass(frozen=True)
class Server:
    """The parts of the server the endpoints share besides the hub, in ``app.state.server``."""

    limits: ServerLimits
    accounts: Accounts
    """The named players and their sessions."""
    analyses: Analyses
    answers: Answers
    """The replays, records and move lists made once per game version."""
    reads: SharedRates
    """Each client's rate of replays, records, move lists and analyses."""
    loads: SharedRates
    """Each client's rate of games loaded from the store (not in memory)."""
    allowed_origins: tuple[str, ...]
    """The origins besides the app's own whose pages may open WebSockets."""
    chat: ChatRates
    """The chat's rates per seat and per address."""

    def share_rates(self, tokens: TokenStore) -> None:
        """Count the rates per address and per seat in ``tokens``, with every process."""
        for rates in (self.reads, self.loads, *self.chat.shared()):
            rates.share(tokens)


def hub(connection: HTTPConnection) -> Hub:
    """The rooms, store and computer players (in ``app.state.hub`` once the app has started)."""
    found: Hub = connection.app.state.hub
    return found


def server(connection: HTTPConnection) -> Server:
    """The server's other parts."""
    found: Server = connection.app.state.server
    return found


def address(connection: HTTPConnection) -> str:
    """The client's address."""
    return connection.client.host if connection.client is not None else ""


def bearer(request: Request) -> str | None:
    """The seat token of an ``Authorization: Bearer`` header."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


async def costly(request: Request) -> None:
    """Refuse (``rate_limited``) a request for work past the client's rate of such requests
    (replays, records, move lists, analyses and uploads), before anything is read."""
    if not await server(request).reads.allow(address(request)):
        raise ProtocolError(
            "rate_limited",
            "too many replays, records, analyses and uploads asked for: at most"
            f" {server(request).limits.reads_per_second:g} a second from one address on average",
        )


async def cold_load(connection: HTTPConnection, game_id: str) -> None:
    """Refuse (``rate_limited``) to load a game that is not in memory past the client's
    rate of such loads (each reads the whole game from the store); a game in memory, or
    being loaded for someone else, costs nothing."""
    rates = server(connection).loads
    client = address(connection)
    if not await hub(connection).may_load(game_id, partial(rates.allow, client)):
        raise ProtocolError(
            "rate_limited",
            "too many games opened that were not in memory: at most"
            f" {server(connection).limits.cold_loads_per_second:g} a second from one address"
            " on average",
        )


async def room_or_404(request: Request) -> Room:
    """The room of the game the path names (``no_game``, a 404, if there is none)."""
    game_id = str(request.path_params["game_id"])
    await cold_load(request, game_id)
    room = await hub(request).room(game_id)
    if room is None:
        raise ProtocolError("no_game")
    return room
