"""The live lobby as players see it, in two and three browsers: a seek and the pools' counts
appear without a refresh, with rated or casual, the seeker's rating and the range; a game
being played is watched with one tap; a challenge to a named player is seen live, accepted
(both land in the game) or declined."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    LiveServer,
    browser_fixture,
    server_fixture,
)

pytest.importorskip("playwright")

from playwright.sync_api import expect

POOL = "5x5-general-3+2"
GAME = re.compile(r"#/game/([\w-]+)$")


def _contexts(browser: Any, count: int, width: int = 1280, height: int = 900) -> list[Any]:
    pages = []
    for _ in range(count):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
        context.set_default_timeout(30_000)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
        page.errors = errors
        pages.append(page)
    return pages


@pytest.fixture
def three(browser: Any) -> Iterator[list[Any]]:
    """Three browsers (contexts: their own storage and cookies)."""
    pages = _contexts(browser, 3)
    yield pages
    for page in pages:
        page.context.close()


@pytest.fixture
def phones(browser: Any) -> Iterator[list[Any]]:
    """Two browsers the size of a phone."""
    pages = _contexts(browser, 2, 390, 844)
    yield pages
    for page in pages:
        page.context.close()


def _claim(page: Any, server: LiveServer, name: str) -> None:
    answer = page.context.request.post(
        f"{server.url}/api/players", data={"name": name, "password": "a good password"}
    )
    assert answer.status == 201, answer.text()


def _game_id(page: Any) -> str:
    expect(page).to_have_url(GAME)
    found = GAME.search(page.url)
    assert found is not None
    return found.group(1)


def test_a_seek_and_a_pools_count_appear_in_other_browsers_without_a_refresh(
    three: list[Any], server: LiveServer
) -> None:
    ann, bao, cay = three
    _claim(ann, server, "Ann")
    bao.goto(f"{server.url}/#/lobby")
    cay.goto(server.url)
    expect(bao.locator("#seeks")).to_contain_text("No game is offered")
    expect(bao.locator("#seek-refresh")).to_have_count(0)
    expect(cay.locator(f'[data-count="{POOL}"]')).to_have_text("0 waiting")
    ann.goto(f"{server.url}/#/lobby")
    ann.fill("#seek-rows", "4")
    ann.fill("#seek-cols", "6")
    ann.fill("#seek-min", "-10")
    ann.fill("#seek-max", "50")
    ann.click("#seek-create")
    seek = bao.locator("#seeks li[data-seek]")
    expect(seek).to_have_count(1)
    expect(seek).to_contain_text("4x6")
    expect(seek.locator(".rated")).to_have_text("Casual")
    expect(seek.locator(".seeker")).to_have_text("Ann (0.0, provisional)")
    expect(seek.locator(".range")).to_have_text("ratings -10 to 50")
    # A seek out of a player's range never shows to them.
    ann.fill("#seek-min", "5")
    ann.fill("#seek-max", "")
    ann.click("#seek-create")
    expect(ann.locator("#seeks li[data-seek]")).to_have_count(2)
    expect(bao.locator("#seeks li[data-seek]")).to_have_count(1)
    # Entering a pool is counted on the other browsers' home pages.
    ann.goto(server.url)
    ann.locator(f'[data-pool="{POOL}"]').click()
    expect(cay.locator(f'[data-count="{POOL}"]')).to_have_text("1 waiting")
    assert ann.errors == [] and bao.errors == [] and cay.errors == []


def test_a_game_being_played_is_listed_and_watched_with_one_tap(
    phones: list[Any], server: LiveServer
) -> None:
    ann, bao = phones
    ann.goto(f"{server.url}/#/lobby")
    expect(ann.locator("#playing")).to_contain_text("No game is being played")
    body = {"rows": 4, "cols": 4, "kind": "online", "public": True}
    body["seats"] = [{"name": "Bao"}, {"name": "Easy", "player": "easy"}]
    game = server.post("/api/games", body)["id"]
    # Listed on the lobby page already open, without a refresh.
    watch = ann.locator(f'#playing [data-game="{game}"] a')
    expect(watch).to_contain_text("4x4")
    expect(watch).to_contain_text("Bao, Easy")
    watch.click()
    assert _game_id(ann) == game
    expect(ann.locator("#seats")).to_contain_text("Bao")
    bao.goto(f"{server.url}/#/lobby")
    bao.locator(f'#playing [data-game="{game}"] a').click()
    assert _game_id(bao) == game
    assert ann.errors == [] and bao.errors == []


def test_a_challenge_is_seen_live_accepted_and_both_land_in_the_game(
    three: list[Any], server: LiveServer
) -> None:
    ann, bao, cay = three
    for page, name in zip(three, ("Ann", "Bao", "Cay"), strict=True):
        _claim(page, server, name)
    bao.goto(server.url)  # the home page hears challenges too
    cay.goto(f"{server.url}/#/lobby")
    expect(bao.locator("#play-now")).to_be_visible()
    ann.goto(f"{server.url}/#/players/Bao")
    ann.fill("#challenge-rows", "6")
    ann.fill("#challenge-cols", "6")
    ann.click("#challenge-send")
    expect(ann.locator("#challenge-status")).to_contain_text("sent")
    received = bao.locator("#challenges li.received")
    expect(received).to_contain_text("From Ann (0.0, provisional)")
    expect(received).to_contain_text("6x6")
    expect(ann.locator("#challenges li.sent")).to_contain_text("To Bao")
    expect(cay.locator("#challenges li")).to_have_count(0)
    received.locator(".challenge-accept").click()
    game = _game_id(bao)
    assert _game_id(ann) == game
    expect(ann.locator("#seats")).to_contain_text("you")
    expect(bao.locator("#seats")).to_contain_text("you")
    assert ann.errors == [] and bao.errors == [] and cay.errors == []


def test_a_challenge_declined_is_said_to_the_challenger_and_guests_are_told_to_log_in(
    three: list[Any], server: LiveServer
) -> None:
    ann, bao, guest = three
    _claim(ann, server, "Ann")
    _claim(bao, server, "Bao")
    bao.goto(f"{server.url}/#/lobby")
    ann.goto(f"{server.url}/#/lobby")
    ann.fill("#challenge-name", "Bao")
    ann.click("#challenge-send")
    received = bao.locator("#challenges li.received")
    expect(received).to_have_count(1)
    received.locator(".challenge-decline").click()
    expect(received).to_have_count(0)
    expect(ann.locator("#challenge-status")).to_have_text(
        "Bao declined your challenge: I'm not accepting challenges at the moment."
    )
    # A name nobody claimed (a guest's) cannot be challenged.
    ann.fill("#challenge-name", "Somebody")
    ann.click("#challenge-send")
    expect(ann.locator("#challenge-status")).to_contain_text("Nobody has claimed this name")
    guest.goto(f"{server.url}/#/players/Bao")
    expect(guest.locator("#challenge-login")).to_contain_text("guests can neither challenge")
    expect(guest.locator("#challenge-send")).to_have_count(0)
    assert ann.errors == [] and bao.errors == [] and guest.errors == []


AXE = Path(__file__).parents[2] / "node_modules" / "axe-core" / "axe.min.js"
WIDE = "() => document.scrollingElement.scrollWidth - window.innerWidth"


def _violations(page: Any) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate("async () => (await axe.run(document)).violations")
    return [f"{item['id']}: {node['target']}" for item in found for node in item["nodes"]]


@pytest.mark.parametrize("size", [(390, 844), (1280, 900)])
def test_a_challenge_and_the_live_lobby_are_accessible_and_fit(
    browser: Any, server: LiveServer, size: tuple[int, int]
) -> None:
    if not AXE.exists():
        pytest.skip("npm ci has not installed node_modules/")
    # bypass_csp: the page's policy would refuse axe's script, which is the test's, not the app's.
    contexts = [
        browser.new_context(
            viewport={"width": size[0], "height": size[1]}, locale="en-US", bypass_csp=True
        )
        for _ in range(2)
    ]
    try:
        ann, bao = (context.new_page() for context in contexts)
        _claim(ann, server, "Ann")
        _claim(bao, server, "Bao")
        bao.goto(server.url)
        ann.goto(f"{server.url}/#/lobby")
        ann.click("#seek-create")
        expect(ann.locator("#seeks li[data-seek]")).to_have_count(1)
        ann.fill("#challenge-name", "Bao")
        ann.click("#challenge-send")
        expect(bao.locator("#challenges li.received")).to_have_count(1)
        expect(ann.locator("#challenges li.sent")).to_have_count(1)
        for page in (ann, bao):
            assert page.evaluate(WIDE) <= 0
            assert _violations(page) == []
    finally:
        for context in contexts:
            context.close()
