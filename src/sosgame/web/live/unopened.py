"""The sweep of games nobody came to: a game of people with a clock in which nobody ever
moved (paired in a pool or a seek, or every seat taken, and then never opened) is aborted
in the store, without being loaded.

A room's own timer aborts a game whose seat to move misses its first move, but only while
some process has the room in memory (the timer stands still otherwise): a game nobody opens
would stay ``playing`` for ever, and count for its owner's caps. Every hub sweeps; the
version check of any change lets only one abort a game, and the hubs that have it in memory
catch up. Correspondence games keep their own deadline (:mod:`sosgame.web.live.correspondence`).
"""

from __future__ import annotations

import json
import time
from typing import Final

from sqlalchemy import Engine, select

from sosgame.web.live import clock as clocks
from sosgame.web.live.hub import Hub
from sosgame.web.storage.group_commit import dump_json
from sosgame.web.storage.rows import HUMAN
from sosgame.web.storage.schema import actions, games, seats

__all__ = ["EVERY_SECONDS", "Unopened", "abort_unopened"]

EVERY_SECONDS: Final = 5.0
"""How often a hub looks for such games."""


def abort_unopened(
    engine: Engine, before_ms: int, now_ms: int, limit: int = 100
) -> list[tuple[str, int]]:
    """Abort the online games of people with a clock (not days per move) that nobody moved
    in and nothing changed since ``before_ms``, the oldest first (at most ``limit``): their
    ids and new versions."""
    moved = select(actions.c.game_id).where(actions.c.game_id == games.c.id).exists()
    computer = (
        select(seats.c.game_id)
        .where(seats.c.game_id == games.c.id, seats.c.player != HUMAN)
        .exists()
    )
    ended = []
    with engine.begin() as db:
        rows = db.execute(
            select(games.c.id, games.c.version, games.c.clock, games.c.start, games.c.players)
            .where(
                games.c.status == "playing",
                games.c.kind == "online",
                games.c.clock.is_not(None),
                games.c.deadline_ms.is_(None),
                games.c.updated_ms < before_ms,
                ~moved,
                ~computer,
            )
            .order_by(games.c.updated_ms)
            .limit(limit)
        ).all()
        for row in rows:
            clock = json.loads(row.clock)
            if not isinstance(clock, dict) or clock.get("days") is not None:
                continue
            start = json.loads(row.start) if row.start else None
            scores = [0] * row.players
            if isinstance(start, dict) and start.get("scores") is not None:
                scores = list(start["scores"])
            # As the room's own abort ends it (the machine's endings.finish).
            result = {"termination": "aborted", "winners": [], "scores": scores, "flagged": []}
            done = db.execute(
                games.update()
                .where(games.c.id == row.id, games.c.version == row.version)
                .values(
                    status="finished",
                    result=dump_json(result),
                    clock=dump_json({**clocks.resume(clock, None), "since": None, "waiting": None}),
                    updated_ms=now_ms,
                    version=row.version + 1,
                )
            )
            if done.rowcount == 1:
                ended.append((row.id, row.version + 1))
    return ended


class Unopened:
    """The sweep of one hub: every :data:`EVERY_SECONDS`, the games still without a move
    ``first_move_seconds + first_move_grace_seconds`` after their last change are aborted."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._last = -EVERY_SECONDS

    async def sweep(self) -> None:
        """Abort the games nobody came to, and tell whoever follows them."""
        if time.monotonic() - self._last < EVERY_SECONDS:
            return
        self._last = time.monotonic()
        hub, limits = self.hub, self.hub.limits
        now = clocks.now_ms()
        before = now - int((limits.first_move_seconds + limits.first_move_grace_seconds) * 1000)
        for game_id, version in await hub.db(abort_unopened, hub.store.engine, before, now):
            event = {"reload": True, "version": version}
            hub.bus.publish(game_id, event)
            room = hub.rooms.get(game_id)
            if room is not None:
                room.hear(event)
