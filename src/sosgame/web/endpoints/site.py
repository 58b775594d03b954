"""The site itself: the page, its texts and settings, the API's description and health."""

from __future__ import annotations

from importlib import resources
from typing import Final

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from sosgame.i18n import LANGUAGES, browser_catalog
from sosgame.web.api import Answer, declare
from sosgame.web.browser import browser_config
from sosgame.web.endpoints.common import hub, server
from sosgame.web.live.protocol import PROTOCOL_VERSION
from sosgame.web.openapi import openapi
from sosgame.web.storage.writer import StorageUnavailableError

__all__ = ["ROUTES", "config", "health", "i18n", "index", "manifest", "schema", "service_worker"]

_STATIC = resources.files("sosgame.web") / "static"


def _static(name: str, media_type: str) -> FileResponse:
    """The app's own file ``name``, served as ``media_type``."""
    with resources.as_file(_STATIC / name) as path:
        return FileResponse(path, media_type=media_type)


@declare("The page", responses={200: Answer("The browser app (HTML)")})
async def index(_request: Request) -> Response:
    """``GET /``: the page."""
    return _static("index.html", "text/html; charset=utf-8")


@declare(
    "The web app manifest (name, icons, colours), for installing the app",
    responses={200: Answer("The manifest (application/manifest+json)")},
)
async def manifest(_request: Request) -> Response:
    """``GET /manifest.json``: the web app manifest (name, icons, colours), for installing."""
    return _static("manifest.json", "application/manifest+json")


@declare(
    "The service worker, which keeps the app's own files so that it starts without a network",
    responses={200: Answer("The service worker (JavaScript)")},
)
async def service_worker(_request: Request) -> Response:
    """``GET /sw.js``: the service worker, served from the root so that it serves every page."""
    response = _static("sw.js", "text/javascript; charset=utf-8")
    # A new version of the app reaches the browser at once.
    response.headers["cache-control"] = "no-cache"
    return response


@declare(
    "Every interface text in every language",
    responses={200: Answer("languages and catalog")},
)
async def i18n(_request: Request) -> Response:
    """``GET /api/i18n``: the languages and the browser's texts."""
    return JSONResponse({"languages": LANGUAGES, "catalog": browser_catalog()})


@declare(
    "Computer levels, seat colours and symbols, new-game limits",
    responses={200: Answer("levels, seats, limits and pools")},
)
async def config(request: Request) -> Response:
    """``GET /api/config``: the levels, colours, limits and pools the browser offers; the pools
    come here too, so that the home page draws its "Play now" buttons at once, without the
    rest of the page moving down when they arrive."""
    pools = [pool.to_json() for pool in request.app.state.lobby.pools.values()]
    # Off the event loop: the first call builds the engine's wheel and trims Pyodide's library.
    return JSONResponse({**await run_in_threadpool(browser_config), "pools": pools})


@declare("This document", responses={200: Answer("The OpenAPI 3.1 description")})
async def schema(request: Request) -> Response:
    """``GET /openapi.json``: the API's description, made from the app's routes."""
    return JSONResponse(openapi(request.app.routes, server(request).limits))


@declare(
    "Is the server up, and do its database and Redis answer",
    responses={
        200: Answer("ok, protocol, rooms, connections, database and redis"),
        503: Answer("The database or Redis cannot be reached now (ok: false)"),
    },
)
async def health(request: Request) -> Response:
    """``GET /api/health``: whether the database (and Redis) can be reached; either away,
    the server is not well (``ok: false``, 503): without Redis, moves reach the players on
    other processes only when their rooms next compare versions with the database."""
    try:
        await hub(request).db(hub(request).store.ping)
    except StorageUnavailableError:
        database = False
    else:
        database = True
    redis = await hub(request).bus.reachable()
    ok = database and redis is not False
    return JSONResponse(
        {
            "ok": ok,
            "protocol": PROTOCOL_VERSION,
            "rooms": len(hub(request).rooms),
            "connections": hub(request).connections,
            "database": "ok" if database else "unavailable",
            "redis": None if redis is None else "ok" if redis else "unavailable",
        },
        status_code=200 if ok else 503,
    )


ROUTES: Final = [
    Route("/", index),
    Route("/manifest.json", manifest),
    Route("/sw.js", service_worker),
    Route("/api/health", health),
    Route("/api/i18n", i18n),
    Route("/api/config", config),
    Route("/openapi.json", schema),
]
"""This module's endpoints, for the app's routing table."""
