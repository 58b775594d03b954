"""Pyodide's runtime, from the npm package that package-lock.json pins (``npm ci``, which
``make run`` does): where its files are, and which of them the browser needs."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

__all__ = ["PYODIDE_ENV", "RUNTIME", "Runtime", "find_runtime"]

RUNTIME: Final = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""The files that start Python in the browser: the loader, the interpreter and its standard
library, and the package list the loader reads (no package of it is loaded)."""
PYODIDE_ENV: Final = "SOSGAME_PYODIDE"
"""The environment variable naming the folder of Pyodide's npm package, if not the one under
``node_modules`` of the folder the server starts in (or of the source checkout)."""


@dataclass(frozen=True)
class Runtime:
    """Pyodide's files: their folder and the package's version."""

    folder: Path
    version: str

    def size(self, name: str) -> int:
        """The bytes of the file ``name``."""
        return (self.folder / name).stat().st_size


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
