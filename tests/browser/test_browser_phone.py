"""The browser app at its best on a phone: installable and starting offline, dark colours,
coordinates on the board, a live region that tells every move, a compact bar above the board."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    ARTIFACTS,
    LiveServer,
    browser_fixture,
    module_server_fixture,
)
from test_browser_app import (  # noqa: F401 (fixtures)
    CONTRAST,
    GAME,
    PHONE,
    _hold,
    _inside,
    _measure,
    _open_game,
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


def _until(page: Any, script: str) -> None:
    """Wait until ``script``, which may give a promise, comes true. (``wait_for_function``
    takes a promise itself for a true value; ``evaluate`` waits for what it holds.)"""
    deadline = time.monotonic() + 30
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"never true: {script}"
        page.wait_for_timeout(100)


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
        _until(page, "navigator.serviceWorker.ready.then(() => true)")
        page.wait_for_function("Boolean(navigator.serviceWorker.controller)")
        # One cache, the worker's, holding the app's files (sw.js lists 27).
        _until(
            page,
            """caches.keys().then((names) => names.length === 1
               && caches.open(names[0]).then((c) => c.keys()).then((k) => k.length >= 25))""",
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


def test_chromium_finds_the_app_installable(browser: Any, server: LiveServer) -> None:
    # Chromium's own check, the one Lighthouse's "installable-manifest" audit reported before
    # version 12 dropped it: a manifest with a name, icons and a start URL, a service worker.
    context = browser.new_context(viewport=PHONE, locale="en-US")
    try:
        page = context.new_page()
        page.goto(server.url)
        _until(page, "navigator.serviceWorker.ready.then(() => true)")
        session = context.new_cdp_session(page)
        errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
        # A test's browser context is a private window, where nothing installs: said apart.
        assert [error["errorId"] for error in errors if error["errorId"] != "in-incognito"] == []
        manifest = session.send("Page.getAppManifest")
        assert manifest["url"].endswith("/manifest.json") and not manifest["errors"]
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


# ------------------------------------------------------------------------------- coordinates


def test_coordinates_line_the_board_and_stay_when_it_is_panned(
    phone: Any, server: LiveServer
) -> None:
    _open_game(phone, server, 3, 4)
    labels = phone.get_by_test_id("coordinates")
    expect(labels).to_be_visible()
    expect(labels.locator(".coord-cols span")).to_have_text(["a", "b", "c", "d"])
    expect(labels.locator(".coord-rows span")).to_have_text(["1", "2", "3"])
    # Each label stands beside its cells: "c" above c1, "3" left of a3.
    c_label = _measure(phone, labels.locator(".coord-cols span").nth(2))
    c1 = _measure(phone, phone.locator('.cell[data-cell="c1"]'))
    assert abs(c_label["x"] + c_label["width"] / 2 - (c1["x"] + c1["width"] / 2)) < 2
    assert c_label["y"] + c_label["height"] <= c1["y"] + 0.5
    three = _measure(phone, labels.locator(".coord-rows span").nth(2))
    a3 = _measure(phone, phone.locator('.cell[data-cell="a3"]'))
    assert abs(three["y"] + three["height"] / 2 - (a3["y"] + a3["height"] / 2)) < 2
    assert three["x"] + three["width"] <= a3["x"] + 0.5
    # Switched off, they go (and the board takes their room); the choice is kept.
    phone.click("#coordinates")
    expect(labels).to_be_hidden()
    expect(phone.locator("#coordinates")).to_have_attribute("aria-pressed", "false")
    phone.reload()
    expect(phone.get_by_test_id("coordinates")).to_be_hidden()
    phone.click("#coordinates")
    expect(phone.get_by_test_id("coordinates")).to_be_visible()
    # A 26x26 board pans on a phone: its edges' labels stay in view.
    _open_game(phone, server, 26, 26)
    frame = phone.get_by_test_id("board-frame")
    labels = phone.get_by_test_id("coordinates")
    # On a busy machine the new board and its scroll settle over a few frames: measured
    # until they have (or for 5 s), then checked.
    deadline = time.monotonic() + 5
    while True:
        frame.evaluate(
            "node => { node.scrollLeft = node.scrollWidth; node.scrollTop = node.scrollHeight; }"
        )
        phone.evaluate("() => new Promise((done) => requestAnimationFrame(() => done(null)))")
        box = _measure(phone, frame)
        z = _measure(phone, labels.locator(".coord-cols span").last)
        row26 = _measure(phone, labels.locator(".coord-rows span").last)
        placed = [
            box["y"] <= z["y"] and z["y"] + z["height"] <= box["y"] + 22,  # at the frame's top
            z["x"] + z["width"] <= box["x"] + box["width"] + 0.5,  # letter z is in view
            box["x"] <= row26["x"] and row26["x"] + row26["width"] <= box["x"] + 22,  # at its left
            row26["y"] + row26["height"] <= box["y"] + box["height"] + 0.5,
        ]
        if all(placed) or time.monotonic() > deadline:
            break
    assert all(placed), (placed, box, z, row26)
    phone.screenshot(path=str(ARTIFACTS / "phone-26x26-coordinates.png"))


# ------------------------------------------------------------------------------ live region


def _spoken(page: Any) -> str:
    text: str = page.get_by_test_id("announcer").text_content()
    return text.replace("\u00a0", "").strip()


def test_the_live_region_tells_every_move_whose_turn_and_the_result(
    desktop: Any, server: LiveServer
) -> None:
    from sosgame import Game

    _open_game(desktop, server, 3, 3)
    region = desktop.get_by_test_id("announcer")
    expect(region).to_have_attribute("aria-live", "polite")
    expect(region).to_have_text("Ann to move.")
    node = region.element_handle()
    game = Game(3, 3)
    names = ["Ann", "Bao"]
    for move in GAME:
        mover = game.turn
        before = game.scores[mover]
        game.play(move)
        points = game.scores[mover] - before
        said = f"{names[mover]} wrote {move[0]} at {move[1:]}"
        if points:
            said += f": {points} point" + ("s" if points > 1 else "")
        if game.is_over:
            said += ". Ann wins: the board is full."
        elif points:
            said += f", {names[mover]} moves again"
        else:
            said += f". {names[game.turn]} to move."
        _play(desktop, move)
        desktop.wait_for_function(
            "said => document.querySelector('[data-testid=announcer]').textContent.trim()"
            ".replace(/\\u00a0/g, '') === said",
            arg=said,
        )
    # The same node all along: a region that is rebuilt is not heard.
    assert node.evaluate("n => n.isConnected")
    # This and the page's notices; the chat's log is a conversation of its own.
    assert desktop.locator("[aria-live]:not(#chat-log)").count() == 2


def test_the_live_region_tells_when_the_game_starts_and_when_it_is_aborted(
    desktop: Any, server: LiveServer
) -> None:
    body = {"rows": 3, "cols": 3, "kind": "online", "seats": [{"name": "Ann"}, {"name": "Bao"}]}
    created = server.post("/api/games", body)
    _hold(desktop, server, created["id"], created["token"])
    desktop.goto(f"{server.url}/#/game/{created['id']}")
    region = desktop.get_by_test_id("announcer")
    expect(region).to_have_text("Waiting for every player to take a seat.")
    invite = created["links"]["seats"][1].rsplit("/", 1)[1]
    server.post(f"/api/games/{created['id']}/seats/1", {"name": "Bao", "invite": invite})
    expect(region).to_have_text("Your turn.")
    desktop.once("dialog", lambda dialog: dialog.accept())
    desktop.click("#abort")
    expect(region).to_have_text("The game was aborted: nobody wins.")


def test_the_computer_moves_are_told_too(desktop: Any, server: LiveServer) -> None:
    seats = [{"name": "Ann"}, {"name": "Cat", "player": "random"}]
    _open_game(desktop, server, 3, 3, seats=seats)
    _play(desktop, "Sb2")
    region = desktop.get_by_test_id("announcer")
    expect(region).to_contain_text("Cat wrote")
    assert _spoken(desktop).endswith("Your turn.") or "Cat moves again" in _spoken(desktop)


# ------------------------------------------------------------------------------ phone layout


@pytest.mark.parametrize("side", [3, 5, 8])
def test_everything_a_player_needs_is_above_the_fold_on_a_phone(
    phone: Any, server: LiveServer, side: int
) -> None:
    seats = [{"name": "Ann"}, {"name": "Bao"}]
    _open_game(phone, server, side, side, seats=seats, clock={"initial": 300, "increment": 3})
    bar = phone.get_by_test_id("seat-bar")
    expect(bar.locator("li")).to_have_count(2)
    expect(bar.locator("li").first).to_have_attribute("aria-current", "true")
    expect(bar.locator(".clock")).to_have_text(["5:00", "5:00"])
    frame = _measure(phone, phone.get_by_test_id("board-frame"))
    top = _measure(phone, bar)
    assert top["y"] + top["height"] <= frame["y"]  # the players above the board
    needed = ["#status", "#undo", "#hint", "#resign", "#zoom-in", "#coordinates"]
    for selector in needed:
        assert _inside(_measure(phone, phone.locator(selector)), PHONE), selector
    assert _inside(frame, PHONE)
    # Choosing a letter keeps everything in place and in view.
    phone.locator('.cell[data-cell="b2"]').click()
    for selector in ["#pick-S", "#pick-O", "#pick-cancel", "#undo", "#resign"]:
        assert _inside(_measure(phone, phone.locator(selector)), PHONE), selector
    assert _measure(phone, phone.get_by_test_id("board-frame")) == frame
    phone.click("#pick-O")
    expect(bar.locator("li").nth(1)).to_have_attribute("aria-current", "true")
    expect(bar.locator(".bar-score")).to_have_text(["0", "0"])
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / f"phone-{side}x{side}.png"))


def test_a_new_online_game_offers_to_share_its_invitation_at_the_top(
    browser: Any, server: LiveServer
) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-US")
    # The browser's share sheet, stood in for: what it was given is kept.
    context.add_init_script(
        "navigator.share = (data) => { window.shared = data; return Promise.resolve(); };"
    )
    try:
        page = context.new_page()
        page.goto(server.url)
        page.select_option("#rows", "5")
        page.select_option("#cols", "5")
        page.select_option("#kind", "online")
        page.click("#start")
        share = page.get_by_test_id("share")
        expect(share).to_be_visible()
        box = _measure(page, share)
        assert _inside(box, PHONE)
        assert box["y"] < _measure(page, page.get_by_test_id("board-frame"))["y"]
        share.click()
        page.wait_for_function("Boolean(window.shared)")
        shared = page.evaluate("window.shared")
        invite = page.locator("#invite-1").input_value()
        assert shared["url"] == invite and "/#/join/" in invite
        assert shared["title"] == "Play SOS with me (5x5)"
    finally:
        context.close()


def test_without_a_share_sheet_the_invitation_is_copied(browser: Any, server: LiveServer) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-US")
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    context.add_init_script("delete Navigator.prototype.share; delete navigator.share;")
    try:
        page = context.new_page()
        created = server.post(
            "/api/games",
            {"rows": 4, "cols": 4, "kind": "online", "seats": [{"name": "Ann"}, {"name": "B"}]},
        )
        _hold(page, server, created["id"], created["token"])
        page.goto(f"{server.url}/#/game/{created['id']}")
        share = page.get_by_test_id("share")
        share.click()
        expect(share).to_have_text("Link copied: send it to a friend")
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == page.locator("#invite-1").input_value()
    finally:
        context.close()


# ------------------------------------------------------------------- boards that fit

CELLS = (
    """() => [...document.querySelectorAll('.cell')].map((c) => c.getBoundingClientRect().width)"""
)


def _sized(browser: Any, width: int, height: int) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    context.set_default_timeout(30_000)
    return context.new_page()


def test_a_phone_held_sideways_shows_an_8x8_board_with_fingertip_cells(
    browser: Any, server: LiveServer
) -> None:
    page = _sized(browser, 844, 390)
    try:
        body = {"rows": 8, "cols": 8, "seats": [{"name": "Ann"}, {"name": "Bot", "player": "easy"}]}
        created = server.post("/api/games", body)
        page.goto(server.url)
        page.evaluate(
            "([id, token]) => localStorage.setItem('sos.tokens', JSON.stringify({[id]: [token]}))",
            [created["id"], created["token"]],
        )
        page.goto(f"{server.url}/#/game/{created['id']}")
        expect(page.locator(".cell").first).to_be_visible()
        assert min(page.evaluate(CELLS)) >= 32
        frame = page.get_by_test_id("board-frame")
        expect(frame).not_to_have_class("board-frame pans")
        assert frame.evaluate(
            "(f) => f.scrollWidth <= f.clientWidth && f.scrollHeight <= f.clientHeight"
        )
    finally:
        page.context.close()


@pytest.mark.parametrize("width", [390, 1100])
def test_the_puzzle_boards_stay_inside_the_page_and_their_panels(
    browser: Any, server: LiveServer, width: int
) -> None:
    page = _sized(browser, width, 844)
    try:
        page.goto(f"{server.url}/#/puzzles")
        expect(page.get_by_test_id("board")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.goto(f"{server.url}/#/")
        expect(page.locator("#daily-board")).to_be_visible()
        inside = page.evaluate(
            """() => {
              const panel = document.getElementById('daily-puzzle').getBoundingClientRect();
              const wrap = document.querySelector("#daily-puzzle .board-wrap");
              const board = wrap.getBoundingClientRect();
              return board.left >= panel.left && board.right <= panel.right;
            }"""
        )
        assert inside
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        page.context.close()


@pytest.mark.parametrize("locale", ["en-US", "vi", "hi"])
def test_the_header_takes_little_of_a_phone_and_shows_every_link(
    browser: Any, server: LiveServer, locale: str
) -> None:
    """However long a language's words, the header stays within three short lines, and
    every link (My games with its badge among them) is on the screen, none cut off."""
    context = browser.new_context(viewport=PHONE, locale=locale)
    try:
        page = context.new_page()
        page.goto(server.url)
        expect(page.locator("#pools button.pool").first).to_be_visible()
        header = page.locator("header.top").bounding_box()
        assert header is not None and header["height"] <= 100, header
        for link in page.locator("header.top a.nav").all():
            box = link.bounding_box()
            assert box is not None and box["x"] >= 0, link
            assert box["x"] + box["width"] <= PHONE["width"], link
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()
