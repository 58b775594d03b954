"""Play with no connection: after one visit that turned offline play on, the app plays games
on the device through the engine in a Web Worker (Pyodide and the engine's wheel, kept by the
service worker), keeps them, and uploads their records once the network is back."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    LiveServer,
    browser_fixture,
)

pytest.importorskip("playwright")

from playwright.sync_api import expect

from sosgame.ai.device import DEVICE_LEVELS
from sosgame.i18n import translator
from sosgame.record import Record

pytestmark = pytest.mark.slow

RULES = Path(__file__).resolve().parents[1] / "test_rules.py"
BOOT_MS = 240_000
"""Pyodide's start (a few seconds alone) on a machine busy with other work."""


@pytest.fixture(name="server", scope="module")
def module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("offline") / "games.sqlite3")
    live.start()
    try:
        yield live
    finally:
        live.stop()


def _until(page: Any, script: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"never true: {script}"
        page.wait_for_timeout(100)


def _game_ready(page: Any) -> None:
    """Wait until the person is to move on the device's game, or the game is over."""
    page.wait_for_selector(
        '.game[data-device][data-ready="true"], .game[data-device] #result', timeout=BOOT_MS
    )


def _play(page: Any, moves: int | None = None) -> None:
    """Play ``moves`` of the person's moves (an S in the first empty cell), or play on until
    the game ends."""
    played = 0
    while moves is None or played < moves:
        _game_ready(page)
        if page.locator("#result").count():
            return
        cell = page.locator(".cell:not(.filled)").first
        name = cell.get_attribute("data-cell")
        cell.click()
        page.click("#pick-S")
        expect(page.locator(f'.cell[data-cell="{name}"]')).to_have_text("S")
        played += 1


def test_offline_play_on_one_visit_then_games_with_no_network_kept_and_uploaded(
    browser: Any, server: LiveServer
) -> None:
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-US")
    context.set_default_timeout(60_000)
    errors: list[str] = []
    requests: list[Any] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        # (Playwright marks its handlers: a bound method of a list cannot be one.)
        context.on("request", lambda request: requests.append(request))  # noqa: PLW0108
        page.goto(server.url)
        _until(page, "navigator.serviceWorker.ready.then(() => true)")
        page.wait_for_function("Boolean(navigator.serviceWorker.controller)")
        control = page.get_by_test_id("offline-play")
        expect(control).to_contain_text("Turn on offline play")
        expect(page.locator("#offline-play-note")).to_have_text(
            "Computer levels on this device: random, easy, medium, hard"
        )
        # A visitor who plays online only downloads nothing of it.
        assert not [request.url for request in requests if "/offline/" in request.url]

        control.click()
        expect(control).to_have_text(
            "Offline play is ready" + "Computer levels on this device: random, easy, medium, hard",
            timeout=BOOT_MS,
        )
        fetched = {
            request.url.split("/offline/")[1] for request in requests if "/offline/" in request.url
        }
        assert {name.rsplit("/", 1)[1] for name in fetched} >= {
            "pyodide.mjs",
            "pyodide.asm.wasm",
            "python_stdlib.zip",
        }
        # Every file of it from the app itself, never from a CDN or any other address.
        hosts = {urlsplit(request.url).netloc for request in requests}
        assert hosts == {urlsplit(server.url).netloc}, hosts

        # No network from here on: every request the page makes is the service worker's.
        context.set_offline(True)
        requests.clear()
        page.reload()
        expect(control).to_contain_text("Offline play is ready")
        page.get_by_test_id("play-computer").click()
        expect(page).to_have_url(re.compile(r"#/device/"))
        expect(page.locator(".seats")).to_contain_text("computer, medium")
        _play(page)
        expect(page.locator("#result")).to_be_visible()
        finished = page.url.rsplit("/", 1)[1]
        rows = page.locator("#moves tbody tr").count()
        assert rows >= 6  # a 5x5 board: at least a dozen moves each side, some extra turns
        # Its record, downloaded with no network, replays to the same end.
        with page.expect_download() as downloading:
            page.click("#download")
        record = Record.from_dict(json.loads(Path(downloading.value.path()).read_text("utf-8")))
        replayed = record.starting_game()
        replayed.play_all(record.moves)
        assert replayed.is_over and (replayed.rows, replayed.cols) == (5, 5)
        board = "".join(page.locator(".cell").all_text_contents())
        assert board == replayed.position().replace("/", "").replace(".", "")

        # An unfinished game, played on after a reload.
        page.goto(f"{server.url}/#/")
        page.get_by_test_id("play-computer").click()
        _play(page, 2)
        _game_ready(page)
        board = page.locator("#board").inner_text()
        unfinished = page.url.rsplit("/", 1)[1]
        page.reload()
        page.goto(f"{server.url}/#/")
        kept = page.get_by_test_id("device-games")
        expect(kept.locator(f'li[data-game="{unfinished}"]')).to_contain_text("Not finished")
        expect(kept.locator(f'li[data-game="{finished}"]')).not_to_contain_text("Not finished")
        kept.locator(f'li[data-game="{unfinished}"] a').click()
        _game_ready(page)
        assert page.locator("#board").inner_text() == board
        _play(page, 1)

        # The page's own requests (its scripts, the engine's files, its questions to the
        # server) are all answered by the service worker; the worker's tries of the network
        # (it fetches the app's files network first) found none.
        mine = [request for request in requests if request.service_worker is None]
        assert len(mine) > 30
        strays = [
            request.url
            for request in mine
            if request.response() is None or not request.response().from_service_worker
        ]
        assert strays == []

        # The network is back: the finished game's record goes to the server for analysis.
        context.set_offline(False)
        page.goto(f"{server.url}/#/device/{finished}")
        page.click("#upload-record", timeout=BOOT_MS)
        link = page.locator("#uploaded")
        expect(link).to_be_visible()
        uploaded = link.get_attribute("href").rsplit("/", 1)[1]
        game = server.get(f"/api/games/{uploaded}")
        assert game["result"] is not None
        assert [seat["player"] for seat in game["seats"]] == ["human", "medium"]
        assert errors == []
    finally:
        context.close()


def test_a_game_at_one_screen_chosen_on_this_device_with_undo_and_a_hint(
    browser: Any, server: LiveServer
) -> None:
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-US")
    context.set_default_timeout(60_000)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        posted: list[str] = []
        page.on("request", lambda request: request.method == "POST" and posted.append(request.url))
        page.goto(server.url)
        page.select_option("#kind", "device")
        page.select_option("#rows", "4")
        page.select_option("#cols", "4")
        page.fill("#seat-0-name", "Ann")
        page.fill("#seat-1-name", "Bao")
        page.evaluate(WATCH_CONTROL)
        page.click("#start")
        _game_ready(page)
        # The first game on this device downloaded the engine, its progress shown, and so
        # turned offline play on.
        seen = page.evaluate("window.controlSeen")
        assert [item for item in seen if item["text"].startswith("Downloading")]
        assert seen[-1]["state"] == "ready"
        expect(page.get_by_test_id("device-note")).to_contain_text("Played on this device.")
        expect(page.locator("#status")).to_have_text("Ann to move.")
        page.click("#hint")
        expect(page.locator("#hint-text")).to_contain_text("Hint:")
        hinted = page.locator(".cell.hint").get_attribute("data-cell")
        assert hinted and page.locator(f'.cell[data-cell="{hinted}"]').text_content() == ""
        _play(page, 2)  # Ann, then Bao: both people at this screen
        expect(page.locator("#moves .move")).to_have_count(2)
        page.click("#undo")
        expect(page.locator("#moves .move")).to_have_count(1)
        expect(page.locator("#status")).to_have_text("Bao to move.")
        page.click("#redo")
        expect(page.locator("#moves .move")).to_have_count(2)
        # The server made no game: the device plays it.
        assert posted == []
        page.goto(f"{server.url}/#/")
        expect(page.get_by_test_id("offline-play")).to_have_attribute("data-state", "ready")
        assert errors == []
    finally:
        context.close()


# Every state the offline-play control is drawn in, from now on: its text, its state and
# whether a progress bar shows with it.
WATCH_CONTROL = """() => {
  window.controlSeen = [];
  const note = () => {
    const button = document.getElementById("offline-play");
    if (!button) return;
    const bar = document.querySelector("#offline-play-box progress");
    window.controlSeen.push({
      text: button.querySelector("strong").textContent,
      state: button.dataset.state,
      progress: bar ? Number(bar.value) / Number(bar.max) : null,
    });
  };
  new MutationObserver(note).observe(document.body, { childList: true, subtree: true });
}"""


def _offline_requests(requests: list[Any]) -> list[str]:
    return [request.url for request in requests if "/offline/" in request.url]


def test_installing_the_app_downloads_offline_play_with_its_progress_shown(
    browser: Any, server: LiveServer
) -> None:
    context = browser.new_context(locale="en-US")
    context.set_default_timeout(60_000)
    errors: list[str] = []
    requests: list[Any] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        context.on("request", lambda request: requests.append(request))  # noqa: PLW0108
        page.goto(server.url)
        control = page.get_by_test_id("offline-play")
        expect(control).to_have_attribute("data-state", "off")
        assert _offline_requests(requests) == []
        page.evaluate(WATCH_CONTROL)

        page.evaluate("window.dispatchEvent(new Event('appinstalled'))")
        expect(control).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
        expect(control).to_contain_text("Offline play is ready")
        fetched = {url.rsplit("/", 1)[1] for url in _offline_requests(requests)}
        assert {"pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip"} <= fetched
        seen = page.evaluate("window.controlSeen")
        downloading = [item for item in seen if item["text"].startswith("Downloading")]
        assert downloading and all(item["state"] == "busy" for item in downloading)
        shares = [item["progress"] for item in downloading]
        assert None not in shares and shares == sorted(shares) and 0 < shares[-1] <= 1
        # Kept: the next visit finds offline play ready, with nothing downloaded again.
        requests.clear()
        page.reload()
        expect(control).to_have_attribute("data-state", "ready")
        assert errors == []
    finally:
        context.close()


def test_a_visitor_who_plays_online_downloads_nothing_of_offline_play(
    browser: Any, server: LiveServer
) -> None:
    context = browser.new_context(locale="en-US")
    context.set_default_timeout(60_000)
    requests: list[Any] = []
    try:
        page = context.new_page()
        context.on("request", lambda request: requests.append(request))  # noqa: PLW0108
        page.goto(server.url)
        page.get_by_test_id("play-computer").click()
        page.wait_for_url(re.compile(r"#/game/"))
        game_id = page.url.rsplit("/", 1)[1]
        for _ in range(3):
            # The person's turn again: the server's computer has answered.
            _until(
                page,
                f"fetch('/api/games/{game_id}').then((r) => r.json())"
                ".then((game) => game.turn === 0 || game.result !== null)",
            )
            page.reload()
            if page.locator("#result").count():
                break
            cell = page.locator(".cell:not(.filled)").first
            name = cell.get_attribute("data-cell")
            cell.click()
            page.click("#pick-S")
            expect(page.locator(f'.cell[data-cell="{name}"]')).to_have_text("S")
        assert len(server.get(f"/api/games/{game_id}")["actions"]) >= 4
        # Every request of the page, its workers and its service worker: nothing of Pyodide
        # or the wheel, and no engine worker started (the service worker keeps its script
        # with the app's other files, a few kilobytes).
        assert _offline_requests(requests) == []
        started = [
            request.url
            for request in requests
            if "engine-worker" in request.url and request.service_worker is None
        ]
        assert started == []
    finally:
        context.close()


def test_without_pyodide_the_page_says_offline_play_is_not_installed(
    browser: Any, tmp_path: Path
) -> None:
    live = LiveServer(tmp_path / "games.sqlite3", env={"SOSGAME_PYODIDE": str(tmp_path / "no")})
    live.start()
    context = browser.new_context(locale="en-US")
    try:
        page = context.new_page()
        page.goto(live.url)
        control = page.get_by_test_id("offline-play")
        expect(control).to_contain_text("Offline play is not installed on this server")
        expect(control).to_have_attribute("data-state", "missing")
        expect(control).to_be_disabled()
        page.select_option("#kind", "device")
        page.click("#start")
        expect(page.locator("#new-game .error")).to_have_text(
            "Offline play is not installed on this server"
        )
        # Online play goes on.
        page.get_by_test_id("play-computer").click()
        expect(page.locator(".cell")).to_have_count(25)
    finally:
        context.close()
        live.stop()


def test_the_page_says_which_levels_play_offline_and_how_they_compare_in_each_language(
    browser: Any, server: LiveServer
) -> None:
    context = browser.new_context(locale="en-US")
    try:
        page = context.new_page()
        page.goto(server.url)
        for language in ("en", "vi", "hi"):
            if language != "en":
                page.select_option("#language", language)
            t = translator(language)
            levels = ", ".join(t(f"web.device.level.{level}") for level in DEVICE_LEVELS)
            expect(page.locator("#offline-play-note")).to_have_text(
                t("web.device.levels", levels=levels)
            )
            compare = page.locator("#offline-play-compare")
            expect(compare).to_have_text(t("web.device.compare"))
            described = page.get_by_test_id("offline-play").get_attribute("aria-describedby")
            assert "offline-play-compare" in described.split()
        expect(compare).to_contain_text("सर्वर")  # the Hindi text, not the English one
    finally:
        context.close()


# The rule tests that need nothing of pytest beyond ``raises``, run by the engine in the
# worker: the very wheel a device plays with, in Pyodide's Python.
RUNNER = """
import json, re, sys, types, inspect

class _Raises:
    def __init__(self, kind, match=None):
        self.kind, self.match, self.value = kind, match, None
    def __enter__(self):
        return self
    def __exit__(self, kind, value, traceback):
        if kind is None:
            raise AssertionError(f"did not raise {self.kind}")
        if not issubclass(kind, self.kind):
            return False
        if self.match is not None and not re.search(self.match, str(value)):
            raise AssertionError(f"{value!r} does not match {self.match!r}")
        self.value = value
        return True

pytest = types.ModuleType("pytest")
pytest.raises = _Raises
pytest.mark = types.SimpleNamespace(parametrize=lambda *a, **k: (lambda f: f))
sys.modules["pytest"] = pytest
names = {}
exec(compile(SOURCE, "test_rules.py", "exec"), names)
results = {}
for name, test in names.items():
    if name.startswith("test_") and not inspect.signature(test).parameters:
        try:
            test()
            results[name] = "passed"
        except Exception as error:
            results[name] = f"{type(error).__name__}: {error}"
json.dumps(results)
"""


def test_the_wheel_passes_the_rule_tests_inside_the_worker(
    browser: Any, server: LiveServer
) -> None:
    context = browser.new_context(locale="en-US")
    try:
        page = context.new_page()
        page.goto(server.url)
        code = f"SOURCE = {RULES.read_text('utf-8')!r}\n{RUNNER}"
        answer = page.evaluate(
            """async (code) => {
                const config = await (await fetch("/api/config")).json();
                const worker = new Worker("/static/engine-worker.js", { type: "module" });
                const ask = (id, op, args) => new Promise((resolve) => {
                  worker.addEventListener("message", (event) => {
                    if (event.data.id === id) resolve(event.data);
                  });
                  worker.postMessage({ id, op, args });
                });
                const booted = await ask(1, "boot", config.offline);
                if (!booted.ok) return booted;
                const ran = await ask(2, "run", { code });
                return { ...ran, python: booted.value.python };
            }""",
            code,
        )
        assert answer["ok"], answer
        assert answer["python"].startswith("3.")
        results = json.loads(answer["value"])
        assert len(results) >= 20
        assert {name: result for name, result in results.items() if result != "passed"} == {}
    finally:
        context.close()
