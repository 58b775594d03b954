"""What makes the browser app installable and quick on a phone: the manifest and its icons,
the service worker at the site's root, and compressed text answers."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from sosgame.web import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

STATIC = Path(__file__).resolve().parents[1] / "src" / "sosgame" / "web" / "static"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    executor = ThreadPoolExecutor(max_workers=1)
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", computer=executor)
    with TestClient(app) as test_client:
        yield test_client
    executor.shutdown()


def test_the_page_links_a_manifest_with_icons_that_exist(client: TestClient) -> None:
    page = client.get("/").text
    assert '<link rel="manifest" href="/manifest.json">' in page
    response = client.get("/manifest.json")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["name"] and manifest["short_name"]
    sizes = set()
    for icon in manifest["icons"]:
        answer = client.get(icon["src"])
        assert answer.status_code == 200, icon
        assert answer.headers["content-type"] == icon["type"], icon
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes  # what browsers ask of an installable app
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    assert "manifest-src 'self'" in response.headers["content-security-policy"]


def test_the_service_worker_is_served_from_the_root_and_keeps_every_app_file(
    client: TestClient,
) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["cache-control"] == "no-cache"
    kept = json.loads(
        "[" + re.search(r"APP_FILES = \[(.*?)\];", response.text, re.S)[1].rstrip(", \n") + "]"
    )
    # Every script and style of the app is kept, and every one kept exists.
    shipped = {
        f"/static/{path.name}" for path in STATIC.iterdir() if path.suffix in {".js", ".css"}
    }
    shipped.discard("/static/sw.js")
    assert shipped <= set(kept)
    for path in kept:
        assert client.get(path).status_code == 200, path


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/static/style.css", "/api/i18n"])
def test_text_answers_are_compressed_for_a_browser_that_accepts_it(
    client: TestClient, path: str
) -> None:
    plain = client.get(path, headers={"accept-encoding": "identity"})
    packed = client.get(path, headers={"accept-encoding": "gzip"})
    assert plain.headers.get("content-encoding") is None
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.content == plain.content  # the client unpacked it
    assert int(packed.headers["content-length"]) < len(plain.content)
    assert "content-security-policy" in packed.headers


def test_the_game_socket_is_not_compressed(client: TestClient) -> None:
    seats = [{"name": "Ann"}, {"name": "Bao"}]
    game = client.post("/api/games", json={"rows": 3, "cols": 3, "seats": seats}).json()
    with client.websocket_connect(
        f"/ws/games/{game['id']}", headers={"accept-encoding": "gzip"}
    ) as socket:
        socket.send_json({"v": 1, "type": "hello", "tokens": [game["token"]]})
        assert socket.receive_json()["type"] == "welcome"
