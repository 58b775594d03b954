"""The web app: its parts in ``app.state``, its middleware and its routes; the endpoints
themselves are in :mod:`sosgame.web.endpoints`.

>>> app = create_app("sqlite:///:memory:")  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import partial

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from sosgame.web.computer.analysis import Analyses
from sosgame.web.config import ServerLimits
from sosgame.web.endpoints import (
    botgames,
    bots,
    botstreams,
    errors,
    games,
    lobby,
    mine,
    offline,
    play,
    puzzles,
    records,
    site,
    tournaments,
)
from sosgame.web.endpoints.bots import Bots
from sosgame.web.endpoints.common import Server
from sosgame.web.guards.bodies import MAX_BODY_BYTES, BodyLimit
from sosgame.web.guards.middleware import RequestChecks, SecurityHeaders, host_name
from sosgame.web.guards.ratelimit import SharedRates
from sosgame.web.live import correspondence
from sosgame.web.live.chat import ChatRates
from sosgame.web.live.hub import PREPARE_COMPUTERS, Hub
from sosgame.web.live.protocol import ProtocolError
from sosgame.web.live.replay import Answers
from sosgame.web.live.unopened import Unopened
from sosgame.web.matchmaking.lobby import Lobby
from sosgame.web.matchmaking.pools import Pool, pools_from_environment
from sosgame.web.network.bus import RedisBus
from sosgame.web.people.accounts import Accounts
from sosgame.web.storage.store import Store
from sosgame.web.storage.writer import StorageUnavailableError
from sosgame.web.tournaments.runner import TournamentRunner
from sosgame.web.tournaments.schedule import Scheduled, schedule_from_environment

__all__ = ["create_app"]

GZIP_MINIMUM = 500
"""Bytes: a shorter answer is sent as it is (compressing it would gain nothing)."""
NDJSON = "application/x-ndjson"


def create_app(
    database: str,
    *,
    computer: Executor | None = None,
    computer_pause: float = 0.6,
    allowed_origins: tuple[str, ...] = (),
    server_limits: ServerLimits | None = None,
    redis: str | None = None,
    computers: bool = True,
    allowed_hosts: Sequence[str] | None = None,
    pools: tuple[Pool, ...] | None = None,
    schedule: tuple[Scheduled, ...] | None = None,
) -> Starlette:
    """The web app, storing games in the database at URL ``database``.

    ``computer`` runs computer players' searches (by default a pool of worker processes,
    started with the app, as is the worker process for analyses, when the environment's
    ``SOSGAME_PREPARE_COMPUTERS`` is ``1``, as ``sosgame serve`` sets it);
    ``allowed_origins`` are origins besides the app's own whose pages may open WebSockets
    and send state-changing requests; ``allowed_hosts`` are the host names (any port; a
    ``*.`` prefix allows every name under a domain, ``*`` any) the app answers for, every
    host if ``None`` (``sosgame serve`` passes the loopback names unless told others);
    ``server_limits`` caps connections and computer games (by default
    :meth:`ServerLimits.from_environment`); ``pools`` are the quick-pairing pools (by default
    :func:`~sosgame.web.matchmaking.pools.pools_from_environment`); ``schedule`` the
    server's own tournaments (by default
    :func:`~sosgame.web.tournaments.schedule.schedule_from_environment`).
    With ``redis`` (a Redis URL), any number of
    server processes serve the same games from the same database; ``computers=False``
    leaves their computer moves to other processes (``sosgame worker``).
    """
    caps = server_limits or ServerLimits.from_environment()
    accounts = Accounts()
    offered = pools_from_environment() if pools is None else pools
    scheduled = schedule_from_environment() if schedule is None else schedule

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(database)
        hub = Hub(
            store,
            computer=computer,
            computer_pause=computer_pause,
            limits=caps,
            bus=None if redis is None else RedisBus(redis),
            computers=computers,
        )
        app.state.hub = hub
        # Long request bodies are parsed here, one at a time per thread, off the event loop.
        app.state.parsers = ThreadPoolExecutor(caps.parse_threads, thread_name_prefix="sos-parse")
        app.state.long_bodies = asyncio.Semaphore(caps.long_bodies_at_once)
        app.state.lobby = Lobby(hub, offered)
        hub.sweep_hooks.append(app.state.lobby.sweep)
        hub.sweep_hooks.append(partial(correspondence.sweep, hub))
        hub.sweep_hooks.append(Unopened(hub).sweep)
        app.state.bots = Bots.of(store.engine)
        app.state.bots.start(hub)
        app.state.tournaments = TournamentRunner(hub, schedule=scheduled)
        try:
            await hub.start()
            app.state.tournaments.start()
            await accounts.start(hub)
            # Rates per address and per seat count over every process (over Redis).
            app.state.server.share_rates(hub.bus)
        except BaseException:
            store.close()
            raise
        if computer is None and computers and os.environ.get(PREPARE_COMPUTERS) == "1":
            # A server that starts its computers' workers with itself starts one for analyses
            # too, so that the first analysis does not wait for one to load its kernels.
            app.state.server.analyses.prepare()
        # What is loaded by now (modules, compiled kernels, the store) lives as long as the
        # process; left to the collector, every full collection walks all of it and stalls
        # each game for 100 ms or more while a crowd connects.
        gc.freeze()
        try:
            yield
        finally:
            await app.state.tournaments.close()
            await app.state.server.analyses.close()
            accounts.close()
            await hub.close()
            store.close()
            app.state.parsers.shutdown(wait=False, cancel_futures=True)

    routes = [
        *site.ROUTES,
        *games.ROUTES,
        *mine.ROUTES,
        *records.ROUTES,
        *puzzles.ROUTES,
        *lobby.ROUTES,
        *accounts.routes(),
        *play.ROUTES,
        *bots.ROUTES,
        *botgames.ROUTES,
        *botstreams.ROUTES,
        *tournaments.ROUTES,
        *offline.ROUTES,
        Mount("/static", app=StaticFiles(packages=[("sosgame.web", "static")]), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={
            ProtocolError: errors.protocol_error,
            StorageUnavailableError: errors.storage_unavailable,
            HTTPException: errors.http_error,
            500: errors.server_error,
        },
    )
    app.state.server = Server(
        limits=caps,
        accounts=accounts,
        analyses=Analyses(queue=caps.analysis_queue),
        answers=Answers(),
        reads=SharedRates("reads", caps.reads_per_second, caps.read_burst),
        loads=SharedRates("loads", caps.cold_loads_per_second, caps.cold_load_burst),
        allowed_origins=allowed_origins,
        chat=ChatRates(caps),
    )
    hosts = None if allowed_hosts is None else frozenset(map(host_name, allowed_hosts))
    app.add_middleware(RequestChecks, allowed_hosts=hosts, allowed_origins=allowed_origins)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    # Text answers (the page, scripts, JSON) travel compressed; WebSockets pass untouched, and
    # so do the bot API's streams: compressing held back their headers until their first
    # line, and costs a flush a line.
    app.add_middleware(
        GZipMiddleware,
        minimum_size=GZIP_MINIMUM,
        exclude_content_types=(*DEFAULT_EXCLUDED_CONTENT_TYPES, NDJSON),
    )
    app.add_middleware(SecurityHeaders)
    return app
