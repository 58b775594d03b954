"""Run Python as on an install that lacks some packages: they cannot be imported.

    python run_without.py numba,numpy -m sosgame solve 3x3
    python run_without.py textual -c "import sosgame.tui.app"

The first argument names the top-level modules to hide, separated by commas (it may be empty).
Importing any of them, or anything inside them, raises ``ModuleNotFoundError`` as it would if
the package were not installed.
"""

from __future__ import annotations

import runpy
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType


class HiddenModules:
    """A meta-path finder that refuses the modules it hides, before any other finder looks."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name.partition(".")[0] in self.names:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


def main() -> None:
    hidden = frozenset(name for name in sys.argv[1].split(",") if name)
    loaded = sorted(name for name in hidden if name in sys.modules)
    if loaded:
        raise SystemExit(f"run_without: already imported at start-up: {', '.join(loaded)}")
    sys.meta_path.insert(0, HiddenModules(hidden))
    how, target, *arguments = sys.argv[2:]
    sys.argv = [target, *arguments]
    if how == "-m":
        runpy.run_module(target, run_name="__main__", alter_sys=True)
    elif how == "-c":
        sys.argv[0] = "-c"
        exec(compile(target, "<string>", "exec"), {"__name__": "__main__"})
    else:
        raise SystemExit(f"run_without: expected -m MODULE or -c CODE, not {how!r}")


if __name__ == "__main__":
    main()
