"""Store calls that change no game (a whole game loaded into memory, a login attempt counted,
a session looked up) run beside the games' changes, so a crowd of them never delays a move's
commit, and a held commit never holds them."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from pathlib import Path

from sos_web import app_client
from sosgame.web.live.hub import Hub

PEOPLE = [{"name": "Ann"}, {"name": "Bao"}]
GOOD = "a good password"


def test_loads_logins_and_sessions_go_on_while_the_games_database_thread_is_busy(
    tmp_path: Path,
) -> None:
    with app_client(tmp_path / "games.sqlite3") as client:
        game = client.post("/api/games", json={"rows": 3, "cols": 3, "seats": PEOPLE}).json()
        assert client.post("/api/players", json={"name": "Ann", "password": GOOD}).status_code
    with app_client(tmp_path / "games.sqlite3") as client:
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        release, held = threading.Event(), threading.Event()

        def busy() -> None:
            held.set()
            release.wait(30)

        # The games' database thread busy (a long commit, say) for as long as the test runs.
        running: Future[None] = hub.database._thread.submit(busy)
        try:
            assert held.wait(30)
            assert client.get(f"/api/games/{game['id']}").status_code == 200  # loaded cold
            logged_in = client.post("/api/session", json={"name": "Ann", "password": GOOD})
            assert logged_in.status_code == 200
            assert client.get("/api/session").json()["player"]["name"] == "Ann"
            answered_while_busy = not running.done()
        finally:
            release.set()
        assert answered_while_busy
