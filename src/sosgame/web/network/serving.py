"""Server processes as the command line starts them: the web app in each of ``serve
--workers N``'s processes, and ``sosgame worker``, which only makes computer moves.

``serve --workers N`` hands uvicorn an import string, so each process builds its app here
from environment variables the command sets: ``SOSGAME_DATABASE``, ``SOSGAME_REDIS`` (may be
unset), ``SOSGAME_COMPUTERS`` (``0`` leaves computer moves to workers) and
``SOSGAME_ALLOWED_HOSTS`` (comma-separated; the loopback names if unset).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from sosgame.web.defaults import DEFAULT_DATABASE, LOOPBACK_HOSTS

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["app_from_environment", "run_worker", "serving_environment"]


def serving_environment(
    database: str,
    redis: str | None,
    *,
    computers: bool,
    allowed_hosts: Sequence[str] = LOOPBACK_HOSTS,
) -> dict[str, str]:
    """The variables :func:`app_from_environment` reads, for these settings."""
    variables = {
        "SOSGAME_DATABASE": database,
        "SOSGAME_COMPUTERS": "1" if computers else "0",
        "SOSGAME_ALLOWED_HOSTS": ",".join(allowed_hosts),
    }
    if redis is not None:
        variables["SOSGAME_REDIS"] = redis
    return variables


def app_from_environment(environ: Mapping[str, str] | None = None) -> Starlette:
    """The web app of one server process, set up from the environment."""
    from sosgame.web.app import create_app

    source = os.environ if environ is None else environ
    hosts = source.get("SOSGAME_ALLOWED_HOSTS", ",".join(LOOPBACK_HOSTS))
    return create_app(
        source.get("SOSGAME_DATABASE", DEFAULT_DATABASE),
        redis=source.get("SOSGAME_REDIS") or None,
        computers=source.get("SOSGAME_COMPUTERS", "1") != "0",
        allowed_hosts=[host.strip() for host in hosts.split(",") if host.strip()],
    )


async def run_worker(database: str, redis: str, *, stop: asyncio.Event | None = None) -> None:
    """Make the computer moves of the games every server process shares, until ``stop`` is
    set (or SIGINT/SIGTERM arrives)."""
    from sosgame.web.config import ServerLimits
    from sosgame.web.live.hub import Hub
    from sosgame.web.network.bus import RedisBus
    from sosgame.web.storage.store import Store

    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(number, stop.set)
    store = Store(database)
    hub = Hub(store, limits=ServerLimits.from_environment(), bus=RedisBus(redis), computers=True)
    try:
        await hub.start()
        await stop.wait()
    finally:
        await hub.close()
        store.close()
