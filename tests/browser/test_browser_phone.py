"""The browser app at its best on a phone: installable and starting offline, dark colours,
coordinates on the board, a live region that tells every move, a compact bar above the board."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    ARTIFACTS,
    LiveServer,
    browser_fixture,
    server_fixture,
)
from test_browser_app import (  # noqa: F401 (fixtures)
    CONTRAST,
    GAME,
    PHONE,
    _open_game,
    _page,
    _play,
    _upload,
    desktop_fixture,
    phone_fixture,
)

pytest.importorskip("playwright")

from playwright.sync_api import expect

BACKGROUND = "getComputedStyle(document.documentElement).backgroundColor"


@pytest.fixture(name="dark_phone")
def dark_phone_fixture(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, locale="en-US", color_scheme="dark")
    context.set_default_timeout(30_000)
    page = context.new_page()
    yield page
    context.close()


# ------------------------------------------------------------------ installable, and offline


def test_the_app_starts_offline_and_says_what_needs_the_network(
    browser: Any, server: LiveServer
) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-US")
    try:
        page = context.new_page()
        page.goto(server.url)
        expect(page.locator("#new-game")).to_be_visible()
        expect(page.get_by_test_id("offline")).to_be_hidden()
        # The worker has kept the app's files once it is ready and in charge of the page.
        page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
        page.wait_for_function("Boolean(navigator.serviceWorker.controller)")
        page.wait_for_function(
            "caches.open('sos-app-v1').then((c) => c.keys()).then((k) => k.length >= 15)"
        )
        context.set_offline(True)
        page.reload()
        expect(page.locator("h1")).to_have_text("SOS")
        expect(page.locator("#new-game")).to_be_visible()
        offline = page.get_by_test_id("offline")
        expect(offline).to_be_visible()
        expect(offline).to_contain_text("need the connection to the server")
        context.set_offline(False)
        expect(offline).to_be_hidden()
    finally:
        context.close()


# --------------------------------------------------------------------------------- dark mode


def test_dark_mode_follows_the_system_and_the_switch_with_aa_contrast(
    dark_phone: Any, server: LiveServer
) -> None:
    page = dark_phone
    finished = _upload(server, GAME)
    page.goto(server.url)
    expect(page.locator("#new-game")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(page.locator("#theme")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(BACKGROUND) == "rgb(18, 22, 29)"
    assert page.evaluate(CONTRAST) == []
    game_id = _open_game(page, server, 3, 3)
    for move in GAME[:3]:
        _play(page, move)
    assert page.evaluate(CONTRAST) == [], game_id
    page.goto(f"{server.url}/#/analysis/{finished}")
    expect(page.get_by_test_id("analysis-chart")).to_be_visible(timeout=90_000)
    assert page.evaluate(CONTRAST) == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dark-analysis-phone.png"), full_page=True)
    # The switch overrides the system, and is kept.
    page.click("#theme")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    expect(page.locator("#theme")).to_have_attribute("aria-pressed", "false")
    assert page.evaluate(BACKGROUND) == "rgb(251, 250, 247)"
