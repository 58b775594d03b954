"""Games being played, gathered for callers of the earlier single module.

The work is split by job: :mod:`~sosgame.web.room` (one game), :mod:`~sosgame.web.hub`
(every room, caps, creation), :mod:`~sosgame.web.fanout` (connections and channels),
:mod:`~sosgame.web.workers` (computer players), :mod:`~sosgame.web.writer` (batched
writes), :mod:`~sosgame.web.clock` and :mod:`~sosgame.web.tokens`.
"""

from __future__ import annotations

from sosgame.web.clock import now_ms
from sosgame.web.fanout import Connection
from sosgame.web.hub import Hub
from sosgame.web.room import Room
from sosgame.web.tokens import hash_token

Client = Connection
"""The earlier name of :class:`~sosgame.web.fanout.Connection`."""

__all__ = ["Client", "Connection", "Hub", "Room", "hash_token", "now_ms"]
