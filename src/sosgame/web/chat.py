"""A game's chat: one for its players, another for its spectators, on the game's socket.

Quick phrases (:data:`~sosgame.web.protocol.PHRASES`, which each client shows in its own
language) are for everybody; free text (at most
:data:`~sosgame.web.protocol.MAX_CHAT_TEXT` characters) only for players with an account.
Each connection's messages are rate limited with a token bucket
(``chat_per_second``, ``chat_burst``). A message goes to this hub's players (or spectators)
at once and, on the game's channel of the bus, to those of the other hubs. Clients show the
text as text (never as HTML); nothing of the chat is stored.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from sosgame.web.bus import Bus
from sosgame.web.clock import now_ms
from sosgame.web.fanout import Connection, dumps
from sosgame.web.protocol import PROTOCOL_VERSION, ProtocolError
from sosgame.web.ratelimit import RateLimit

__all__ = ["deliver", "send_chat"]

SPECTATOR: Final = "Spectator"


async def send_chat(
    game_id: str,
    names: Sequence[str],
    followers: Iterable[Connection],
    bus: Bus,
    connection: Connection,
    text: str | None,
    phrase: str | None,
    *,
    account: str | None,
    limit: RateLimit,
) -> None:
    """Send a checked chat message from ``connection`` (``account``: its player's name, if
    logged in) to the players' chat or the spectators' of the game ``game_id`` (whose seats'
    names are ``names``): to this hub's ``followers`` and, over ``bus``, the others'."""
    if text is not None and account is None:
        raise ProtocolError("account_needed", "free text is for players with an account")
    if not limit.allow():
        raise ProtocolError("rate_limited", "too many chat messages: wait a little")
    seat = min(connection.seats) if connection.seats else None
    name = names[seat] if seat is not None else account or SPECTATOR
    message: dict[str, Any] = {
        "v": PROTOCOL_VERSION,
        "type": "chat",
        "seat": seat,
        "name": name,
        "at": now_ms(),
    }
    message["text" if text is not None else "phrase"] = text if text is not None else phrase
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
            connection.deliver(text)
