"""A game's chat: one for its players, another for its spectators, on the game's socket.

Quick phrases (:data:`~sosgame.web.live.protocol.PHRASES`, which each client shows in its own
language) are for everybody; free text (at most
:data:`~sosgame.web.live.protocol.MAX_CHAT_TEXT` characters) only for players with an account,
whose session is looked up again for each message (so a logout ends it on sockets already
open). The messages are rate limited per person, not per socket (:class:`ChatRates`): a
token bucket per connection and per seat of a game (``chat_per_second``, ``chat_burst``)
and one per client address (``chat_per_address_per_second``, ``chat_per_address_burst``).
A message goes to this hub's players (or spectators) at once and, on the game's channel of
the bus, to those of the other hubs. Clients show the text as text (never as HTML). The
players' chat is stored (``chat_messages``, ``chat_per_game`` messages a game, shared
equally by its seats, so that one cannot use another's share) for the record its players
download (:func:`record_tag`); the spectators' chat is never stored.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, Final

from sqlalchemy import Engine, func, select

from sosgame.web.config import ServerLimits
from sosgame.web.guards.ratelimit import RateLimit, SharedRates
from sosgame.web.live.clock import iso, now_ms
from sosgame.web.live.fanout import Connection, dumps
from sosgame.web.live.protocol import PROTOCOL_VERSION, ProtocolError
from sosgame.web.network.bus import Bus
from sosgame.web.storage.schema import chat_messages, player_seats
from sosgame.web.storage.turns import in_turn
from sosgame.web.storage.writer import StorageUnavailableError

__all__ = [
    "CHAT_TAG",
    "ChatRates",
    "deliver",
    "keep_message",
    "plays_in",
    "record_tag",
    "seat_share",
    "send_chat",
]

SPECTATOR: Final = "Spectator"
CHAT_TAG: Final = "sosgame.chat"
"""The record's tag of the players' chat, in the records only the game's players download."""

Keep = Callable[[dict[str, Any]], Awaitable[bool]]
"""Stores a players' chat message; ``False`` if its seat's share of the game's chat is full."""
Who = Callable[[], Awaitable[str | None]]
"""The name of the account whose session opened the socket, if that session still lives."""


class ChatRates:
    """The chat's token buckets that the sockets of one person share: one per seat of a game
    and one per client address, over every server process once shared."""

    def __init__(self, limits: ServerLimits) -> None:
        self._seats = SharedRates("chat-seat", limits.chat_per_second, limits.chat_burst)
        self._addresses = SharedRates(
            "chat-address", limits.chat_per_address_per_second, limits.chat_per_address_burst
        )

    def shared(self) -> tuple[SharedRates, SharedRates]:
        """The buckets to count over every process."""
        return self._seats, self._addresses

    async def allow(self, own: RateLimit, game_id: str, seat: int | None, address: str) -> bool:
        """Take a token of the connection's bucket ``own``, of its seat's (if a player) and
        of its address's, if each has one (a shared bucket's token taken before another
        refuses stays taken: the stricter way to be wrong)."""
        if not own.ready():
            return False
        if seat is not None and not await self._seats.allow(f"{game_id}/{seat}"):
            return False
        if not await self._addresses.allow(address):
            return False
        return own.allow()


def seat_share(limits: ServerLimits, seats: int) -> int:
    """The messages of a game's players' chat each of its ``seats`` seats may have stored."""
    return max(1, limits.chat_per_game // max(1, seats))


async def send_chat(
    game_id: str,
    names: Sequence[str],
    followers: Iterable[Connection],
    bus: Bus,
    connection: Connection,
    text: str | None,
    phrase: str | None,
    *,
    account: Who,
    limit: RateLimit,
    rates: ChatRates,
    keep: Keep,
    bot: bool = False,
) -> None:
    """Send a checked chat message from ``connection`` (``account``: its player's name, if
    logged in) to the players' chat or the spectators' of the game ``game_id`` (whose seats'
    names are ``names``): to this hub's ``followers`` and, over ``bus``, the others'. Its
    rate is taken from ``limit`` (the connection's) and ``rates``. A player's message is
    stored first, with ``keep``. A ``bot``'s message says so (``"bot": true``), as its
    name shows BOT everywhere."""
    seat = min(connection.seats) if connection.seats else None
    if not await rates.allow(limit, game_id, seat, connection.address):
        raise ProtocolError("rate_limited", "too many chat messages: wait a little")
    # Looked up for each message, after the rate: a logout elsewhere ends free text here.
    who = await account()
    if text is not None and who is None:
        raise ProtocolError("account_needed", "free text is for players with an account")
    if seat is None and who is None and connection.alias is None:
        # Each guest spectator a name of their own, so that muting one mutes nobody else.
        connection.alias = f"{SPECTATOR} {1000 + secrets.randbelow(9000)}"
    name = names[seat] if seat is not None else who or connection.alias or SPECTATOR
    message: dict[str, Any] = {
        "v": PROTOCOL_VERSION,
        "type": "chat",
        "seat": seat,
        "name": name,
        "at": now_ms(),
    }
    message["text" if text is not None else "phrase"] = text if text is not None else phrase
    if bot:
        message["bot"] = True
    if seat is not None:
        try:
            kept = await keep(message)
        except StorageUnavailableError:
            raise ProtocolError("storage_failed", "the chat message was not sent") from None
        if not kept:
            raise ProtocolError("chat_full", "from this seat")
    event = {"chat": message}
    deliver(followers, event)
    bus.publish(game_id, event)


def deliver(followers: Iterable[Connection], event: dict[str, Any]) -> None:
    """Hand a chat message (``event["chat"]``) to this hub's players or spectators."""
    message = event.get("chat")
    if not isinstance(message, dict):
        return
    players = message.get("seat") is not None
    text = dumps(message)
    for connection in followers:
        if bool(connection.seats) == players:
            connection.deliver(text, chat=True)


def keep_message(engine: Engine, game_id: str, message: dict[str, Any], *, most: int) -> bool:
    """Store a message of the players' chat of ``game_id`` (as :func:`send_chat` makes it);
    ``False``, and nothing stored, if the game keeps ``most`` of its seat's already."""
    seat = message["seat"]
    with in_turn(engine, f"chat:{game_id}:{seat}") as db:
        count = db.execute(
            select(func.count())
            .select_from(chat_messages)
            .where(chat_messages.c.game_id == game_id, chat_messages.c.seat == seat)
        ).scalar_one()
        if count >= most:
            return False
        db.execute(
            chat_messages.insert().values(
                game_id=game_id,
                seat=seat,
                name=message["name"],
                text=message.get("text"),
                phrase=message.get("phrase"),
                at_ms=message["at"],
            )
        )
    return True


def plays_in(engine: Engine, game_id: str, player_id: int) -> bool:
    """Whether the account ``player_id`` took a seat of ``game_id``."""
    with engine.begin() as db:
        found = db.execute(
            select(player_seats.c.seat).where(
                player_seats.c.game_id == game_id, player_seats.c.player_id == player_id
            )
        ).first()
    return found is not None


def record_tag(engine: Engine, game_id: str) -> str | None:
    """The players' chat of ``game_id`` as its record's :data:`CHAT_TAG` (the tags of a
    record are text, so a JSON list of ``{"seat", "name", "at", "phrase" or "text"}``, ``at``
    in ISO 8601), or ``None`` if they said nothing."""
    with engine.begin() as db:
        rows = db.execute(
            select(chat_messages)
            .where(chat_messages.c.game_id == game_id)
            .order_by(chat_messages.c.at_ms, chat_messages.c.id)
        ).mappings()
        said = [
            {
                "seat": row["seat"],
                "name": row["name"],
                "at": iso(row["at_ms"]),
                **({"text": row["text"]} if row["text"] is not None else {"phrase": row["phrase"]}),
            }
            for row in rows
        ]
    return json.dumps(said, ensure_ascii=False) if said else None
