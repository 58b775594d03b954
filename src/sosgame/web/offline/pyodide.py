"""Pyodide's runtime, from the npm package that package-lock.json pins (``npm ci``, which
``make run`` does): where its files are, and which of them the browser needs."""

from __future__ import annotations

import io
import json
import os
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

__all__ = ["LEFT_OUT", "PYODIDE_ENV", "RUNTIME", "STDLIB", "Runtime", "find_runtime"]

RUNTIME: Final = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""The files that start Python in the browser: the loader, the interpreter and its standard
library, and the package list the loader reads (no package of it is loaded)."""
STDLIB: Final = "python_stdlib.zip"
"""Python's standard library, which the app serves without what the engine never uses."""
LEFT_OUT: Final = frozenset(
    {
        # Mail, the web, XML and other protocols: a board game's engine speaks none of them.
        *("email", "http", "html", "_markupbase", "xml", "xmlrpc", "wsgiref", "socketserver"),
        *("imaplib", "mailbox", "smtplib", "ftplib", "poplib", "netrc", "mimetypes", "webbrowser"),
        # Tools for a programmer at a prompt: debuggers, profilers, tests, documentation.
        *("_pyrepl", "pdb", "bdb", "trace", "pstats", "profile", "cProfile", "unittest"),
        *("doctest", "pydoc", "pydoc_data", "pickletools", "tabnanny", "pyclbr", "compileall"),
        *("modulefinder", "zipapp", "optparse", "shelve", "plistlib", "wave", "sqlite3"),
        *("antigravity", "this", "__hello__", "__phello__"),
    }
)
"""The standard library's top-level modules and packages left out of the browser's copy,
which keeps the download that turns offline play on small (a tenth of the library)."""
_CODECS: Final = ("cp", "mac_", "iso8859_", "koi8_", "kz1048", "hp_roman8", "ptcp154", "tis_620")
"""The single-byte text encodings (by their names' start) left out: the engine reads and
writes only UTF-8; ``cp437`` stays, as Python's start-up looks it up."""
PYODIDE_ENV: Final = "SOSGAME_PYODIDE"
"""The environment variable naming the folder of Pyodide's npm package, if not the one under
``node_modules`` of the folder the server starts in (or of the source checkout)."""


@dataclass(frozen=True)
class Runtime:
    """Pyodide's files: their folder and the package's version."""

    folder: Path
    version: str

    def size(self, name: str) -> int:
        """The bytes of the file ``name`` as served (every ``GET /api/config`` asks: the files
        as published are not read for it, and the trimmed library is built once)."""
        if name == STDLIB:
            return len(_library(self.folder / name))
        return (self.folder / name).stat().st_size

    def read(self, name: str) -> bytes:
        """The file ``name`` as served: the standard library without :data:`LEFT_OUT`."""
        if name == STDLIB:
            return _library(self.folder / name)
        return (self.folder / name).read_bytes()


def _left_out(path: str) -> bool:
    top = path.split("/", maxsplit=1)[0].removesuffix(".py").removesuffix(".pyc")
    if top in LEFT_OUT:
        return True
    if top == "encodings" and "/" in path:
        codec = path.split("/")[1]
        return codec.startswith(_CODECS) and not codec.startswith("cp437")
    return False


@cache
def _library(path: Path) -> bytes:
    """The standard library's zip without :data:`LEFT_OUT`, its entries kept in order."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(path) as whole, zipfile.ZipFile(buffer, "w", compresslevel=9) as kept:
        for info in whole.infolist():
            if not _left_out(info.filename):
                kept.writestr(info, whole.read(info), compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def _candidates() -> list[Path]:
    named = os.environ.get(PYODIDE_ENV)
    if named:
        return [Path(named)]
    checkout = Path(__file__).resolve().parents[4]
    return [Path.cwd() / "node_modules" / "pyodide", checkout / "node_modules" / "pyodide"]


@cache
def find_runtime() -> Runtime | None:
    """Pyodide's files, or ``None`` if the npm package is not installed (then offline play is
    not either)."""
    for folder in _candidates():
        try:
            version = json.loads((folder / "package.json").read_text("utf-8"))["version"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if all((folder / name).is_file() for name in RUNTIME):
            return Runtime(folder, str(version))
    return None
