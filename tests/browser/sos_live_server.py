"""A real ``sosgame serve`` in a child process, on a free loopback port with its own database,
and Debian's chromium driven by Playwright; test modules import the fixtures from here.

(No conftest.py here: two files of that name in one run would clash with the suite's own,
``tests/conftest.py``, so the fixtures live in this module.)
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from sos_services import free_port

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


class LiveServer:
    """``sosgame serve`` in a child process; ``restart`` and ``kill`` keep port and database."""

    def __init__(self, database: Path, env: dict[str, str] | None = None) -> None:
        # The computer workers start with the first computer move, as they did before the
        # server learnt to start them with itself: most test servers never need them.
        self.env = {**os.environ, "SOSGAME_PREPARE_COMPUTERS": "0", **(env or {})}
        self.database = f"sqlite:///{database}"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log = database.with_suffix(".log")

    def start(self) -> None:
        command = [sys.executable, "-m", "sosgame", "serve", "--port", str(self.port)]
        command += ["--database", self.database]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, env=self.env
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/health", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        # A server that was slow to start would otherwise outlive its test run.
        self.kill()
        raise RuntimeError("the server did not start within 30 s")

    def kill(self) -> None:
        """Stop the server at once, as ``kill -9`` does."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None

    def restart(self) -> None:
        self.kill()
        self.start()

    def post(self, path: str, body: Any, token: str | None = None) -> Any:
        request = urllib.request.Request(
            f"{self.url}{path}",
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
            method="POST",
        )
        if token:
            request.add_header("authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(f"{self.url}{path}", timeout=10) as response:
            return json.loads(response.read())


def seated_game(server: LiveServer, body: dict[str, Any]) -> tuple[str, list[str]]:
    """An online game made with ``body`` (two seats, Ann's and Bao's), its second seat taken
    by its invite: the game's id and the two seats' tokens."""
    created = server.post("/api/games", {"kind": "online", **body})
    invite = created["links"]["seats"][1].rsplit("/", 1)[1]
    taken = server.post(f"/api/games/{created['id']}/seats/1", {"name": "Bao", "invite": invite})
    return created["id"], [created["token"], taken["token"]]


def click_move(page: Any, move: str) -> None:
    """Play ``move`` by clicking its cell and then its letter."""
    from playwright.sync_api import expect

    cell = page.locator(f'.cell[data-cell="{move[1:]}"]')
    cell.click()
    page.click(f"#pick-{move[0]}")
    expect(cell).to_have_text(move[0])


@contextmanager
def pages(browser: Any, count: int) -> Iterator[list[Any]]:
    """A page in each of ``count`` new browser contexts (players apart), closed after."""
    contexts = [browser.new_context() for _ in range(count)]
    try:
        yield [context.new_page() for context in contexts]
    finally:
        for context in contexts:
            context.close()


@pytest.fixture(name="server")
def server_fixture(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "games.sqlite3")
    live.start()
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture(name="server", scope="module")
def module_server_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for a whole module, for modules whose tests each make their own games and
    read nothing of the server's beyond them (no lists of players or seeks, no restarts): a
    server's start costs more than most of their tests."""
    live = LiveServer(tmp_path_factory.mktemp("server") / "games.sqlite3")
    live.start()
    try:
        yield live
    finally:
        live.stop()


# Module scope, not session: Playwright's sync API keeps an asyncio loop running while it is
# open, and later test modules (the terminal game's) start loops of their own.
@pytest.fixture(name="browser", scope="module")
def browser_fixture() -> Iterator[Any]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    # Generous waits for events, so that a machine busy with other work is not a failure.
    sync_api.expect.set_options(timeout=20_000)
    with sync_api.sync_playwright() as playwright:
        # Playwright gives every launch a fresh, temporary user-data directory.
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield launched
        launched.close()


@pytest.fixture(name="page")
def page_fixture(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1100, "height": 800}, locale="en-US")
    context.set_default_timeout(30_000)
    opened = context.new_page()
    yield opened
    context.close()


@pytest.fixture(name="desktop")
def desktop_fixture(browser: Any) -> Iterator[Any]:
    """A page at 1280x900 in English that fails its test on any script error."""
    yield from _sized_page(browser, DESKTOP)


@pytest.fixture(name="phone")
def phone_fixture(browser: Any) -> Iterator[Any]:
    """A page at 390x844 in English that fails its test on any script error."""
    yield from _sized_page(browser, PHONE)


def _sized_page(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:
    context = browser.new_context(viewport=viewport, locale="en-US")
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == []
