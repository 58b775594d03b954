"""Play on this device: Pyodide's runtime and the engine's wheel, each under a path that names
its version (Pyodide's, pinned by package-lock.json; the wheel's hash), so a browser keeps them
for good and the service worker serves them with no network."""

from __future__ import annotations

import gzip
from functools import cache
from typing import Final

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from sosgame.web.api import Answer, declare, refused
from sosgame.web.offline.pyodide import RUNTIME, find_runtime
from sosgame.web.offline.wheel import engine_wheel

__all__ = ["ROUTES", "engine", "runtime"]

FOREVER: Final = "public, max-age=31536000, immutable"
"""A versioned file never changes: a new version has a new path."""
_TYPES: Final = {
    ".mjs": "text/javascript; charset=utf-8",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".json": "application/json",
}
_ALREADY_PACKED: Final = (".zip", ".whl")
"""Archives are compressed already: sent as they are."""


@cache
def _packed(name: str) -> bytes:
    """Pyodide's file ``name``, compressed once per process (the interpreter alone is 9 MB)."""
    found = find_runtime()
    assert found is not None
    return gzip.compress(found.read(name), compresslevel=9, mtime=0)


def _type(name: str) -> str:
    return next(kind for suffix, kind in _TYPES.items() if name.endswith(suffix))


@declare(
    "A file of Pyodide's runtime, for playing on this device",
    responses={
        200: Answer("The file"),
        404: refused("not_found: not this version or file, or not installed"),
    },
)
async def runtime(request: Request) -> Response:
    """``GET /offline/pyodide/{version}/{name}``: a file of Pyodide's runtime."""
    found = find_runtime()
    name = request.path_params["name"]
    if found is None or request.path_params["version"] != found.version or name not in RUNTIME:
        raise HTTPException(status_code=404)
    headers = {"cache-control": FOREVER, "vary": "accept-encoding"}
    if not name.endswith(_ALREADY_PACKED) and "gzip" in request.headers.get("accept-encoding", ""):
        body = await run_in_threadpool(_packed, name)
        headers["content-encoding"] = "gzip"
    else:
        body = await run_in_threadpool(found.read, name)
    return Response(body, media_type=_type(name), headers=headers)


@declare(
    "The engine's wheel (the rules and the pure-Python players), for playing on this device",
    responses={
        200: Answer("The wheel (a zip)"),
        404: refused("not_found: not the engine served now"),
    },
)
async def engine(request: Request) -> Response:
    """``GET /offline/engine/{digest}/{name}``: the engine's wheel."""
    wheel = await run_in_threadpool(engine_wheel)
    if (request.path_params["digest"], request.path_params["name"]) != (wheel.digest, wheel.name):
        raise HTTPException(status_code=404)
    return Response(wheel.data, media_type="application/zip", headers={"cache-control": FOREVER})


ROUTES: Final = [
    Route("/offline/pyodide/{version}/{name}", runtime),
    Route("/offline/engine/{digest}/{name}", engine),
]
"""This module's endpoints, for the app's routing table."""
