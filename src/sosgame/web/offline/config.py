"""What the browser is told of offline play (in ``GET /api/config``)."""

from __future__ import annotations

from typing import Any

from sosgame.levels import DEVICE_LEVELS
from sosgame.web.offline.pyodide import RUNTIME, find_runtime
from sosgame.web.offline.wheel import engine_wheel

__all__ = ["offline_config"]


def offline_config() -> dict[str, Any]:
    """What ``GET /api/config`` says of offline play: whether it is installed, the files to
    fetch (the loader's folder, the wheel) with their sizes, and the levels a device plays."""
    found = find_runtime()
    if found is None:
        return {"available": False, "levels": list(DEVICE_LEVELS)}
    wheel = engine_wheel()
    folder = f"/offline/pyodide/{found.version}/"
    return {
        "available": True,
        "pyodide": folder,
        "engine": f"/offline/engine/{wheel.digest}/{wheel.name}",
        "files": [
            *({"url": f"{folder}{name}", "bytes": found.size(name)} for name in RUNTIME),
            {"url": f"/offline/engine/{wheel.digest}/{wheel.name}", "bytes": len(wheel.data)},
        ],
        "levels": list(DEVICE_LEVELS),
    }
