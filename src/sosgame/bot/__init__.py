"""A bot on a sosgame server, after lichess-bot: ``sosgame bot`` on the command line, or
from Python::

    import asyncio
    from sosgame.bot import BotClient, ChallengeFilter

    def first_legal(game):
        return next(iter(game.legal_moves))

    client = BotClient("http://localhost:8000", token, player=first_legal,
                       accept=ChallengeFilter(sizes=frozenset({(3, 3)})), concurrency=2)
    asyncio.run(client.run())

One module a job: :mod:`~sosgame.bot.session` (HTTP and NDJSON streams),
:mod:`~sosgame.bot.backoff` (waits between attempts), :mod:`~sosgame.bot.filters` (which
challenges to take), :mod:`~sosgame.bot.players` (levels and callables as players),
:mod:`~sosgame.bot.game` (one game's loop) and :mod:`~sosgame.bot.client` (the runner).
Needs the ``bot`` extra (``httpx``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from sosgame.bot.client import BotClient, ChallengeSpec
from sosgame.bot.errors import BotError
from sosgame.bot.filters import DECLINE_REASONS, ChallengeFilter, Range
from sosgame.bot.game import GameReport
from sosgame.bot.players import Turn

__all__ = [
    "DECLINE_REASONS",
    "BotClient",
    "BotError",
    "ChallengeFilter",
    "ChallengeSpec",
    "GameReport",
    "Range",
    "Turn",
    "run",
]


def run(server: str, token: str, **options: Any) -> list[GameReport]:
    """Run a :class:`BotClient` (``options`` are its keywords) until it stops; the reports
    of the games it played."""
    client = BotClient(server, token, **options)
    asyncio.run(client.run())
    return client.reports
