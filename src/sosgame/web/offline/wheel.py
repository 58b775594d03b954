"""The engine's wheel for the browser: the rules core and the pure-Python players (no web, no
terminal, no research), built from the installed package, once per process.

The wheel is made here rather than by a build tool so that a server started from a checkout or
from an installed package serves the very source it runs; its files are zipped in a fixed
order with a fixed date, so the same source gives the same bytes and the same hash, and a
browser keeps a wheel until the engine changes.
"""

from __future__ import annotations

import base64
import hashlib
import io
import zipfile
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.abc import Traversable
from typing import Final

import sosgame

__all__ = ["PACKAGES", "EngineWheel", "engine_wheel"]

PACKAGES: Final = ("kernel", "search", "solver", "ai")
"""The subpackages beside the top-level modules that the wheel carries: the players and the
search they run."""
DATA: Final = ("ai/book.json",)
"""The data files the players read."""
_DATE: Final = (2020, 1, 1, 0, 0, 0)
_DIST: Final = f"sosgame-{sosgame.__version__}.dist-info"


@dataclass(frozen=True)
class EngineWheel:
    """The wheel's bytes, its file name and the start of its SHA-256 (for its URL)."""

    data: bytes
    name: str
    digest: str


def _files(root: Traversable, prefix: str) -> list[tuple[str, bytes]]:
    found: list[tuple[str, bytes]] = []
    for entry in sorted(root.iterdir(), key=lambda item: item.name):
        if entry.is_file() and entry.name.endswith((".py", ".typed")):
            found.append((f"{prefix}{entry.name}", entry.read_bytes()))
    return found


def _contents() -> list[tuple[str, bytes]]:
    package = resources.files("sosgame")
    files = _files(package, "sosgame/")
    for name in PACKAGES:
        files += _files(package / name, f"sosgame/{name}/")
    for path in DATA:
        files.append((f"sosgame/{path}", (package / path).read_bytes()))
    return files


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


@cache
def engine_wheel() -> EngineWheel:
    """The wheel of the installed engine (built at the first call)."""
    files = _contents()
    files.append(
        (
            f"{_DIST}/METADATA",
            f"Metadata-Version: 2.1\nName: sosgame\nVersion: {sosgame.__version__}\n".encode(),
        )
    )
    files.append(
        (
            f"{_DIST}/WHEEL",
            b"Wheel-Version: 1.0\nGenerator: sosgame\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
    )
    record = "\n".join([*(_record_line(name, data) for name, data in files), f"{_DIST}/RECORD,,"])
    files.append((f"{_DIST}/RECORD", f"{record}\n".encode()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in files:
            info = zipfile.ZipInfo(name, _DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    data = buffer.getvalue()
    return EngineWheel(
        data=data,
        name=f"sosgame-{sosgame.__version__}-py3-none-any.whl",
        digest=hashlib.sha256(data).hexdigest()[:16],
    )
