"""The web server's own process loads neither the players nor their compiled kernels: the
computer's moves and analyses run in worker processes, so the server starts without numba
(a second or more on a busy machine) and keeps its memory small."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

_HEAVY = (
    "numba",
    "numpy",
    "sosgame.kernel",
    "sosgame.search",
    "sosgame.solver",
    "sosgame.ai.players",
)

_SERVE = """
import json, sys
from starlette.testclient import TestClient
from sosgame.web.app import create_app

app = create_app(sys.argv[1], computers=False)
with TestClient(app) as client:
    for path in ("/api/health", "/api/config", "/api/puzzles/next?rating=1500"):
        client.get(path)
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def _is_heavy(module: str) -> bool:
    return any(module == name or module.startswith(f"{name}.") for name in _HEAVY)


def test_the_server_starts_and_answers_without_the_players_or_the_kernels(
    tmp_path: Path,
) -> None:
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    result = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", _SERVE, database],
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = json.loads(result.stderr.splitlines()[-1])
    assert "sosgame.web.app" in loaded and "sosgame.ai.puzzles" in loaded
    assert [name for name in loaded if _is_heavy(name)] == []
