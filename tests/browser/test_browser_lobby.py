"""Quick pairing, seeks and the chat as players see them: two browsers entering the same
pool land in one game, a seek filled by a second browser alerts its creator, and the chat's
quick phrases and muting."""

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


@pytest.fixture
def two(browser: Any) -> Iterator[list[Any]]:
    """Two browsers (contexts: their own storage and cookies)."""
    contexts = [
        browser.new_context(viewport={"width": 1100, "height": 800}, locale="en-US")
        for _ in range(2)
    ]
    pages = []
    for context in contexts:
        context.set_default_timeout(30_000)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
        page.errors = errors
        pages.append(page)
    yield pages
    for context in contexts:
        context.close()


def _game_id(page: Any) -> str:
    expect(page).to_have_url(GAME)
    found = GAME.search(page.url)
    assert found is not None
    return found.group(1)


def test_two_browsers_in_one_pool_land_in_one_game_and_chat(
    two: list[Any], server: LiveServer
) -> None:
    ann, bao = two
    for page in two:
        page.goto(server.url)
        page.locator(f'[data-pool="{POOL}"]').click()
    expect(ann.locator("#seats")).to_contain_text("you")
    expect(bao.locator("#seats")).to_contain_text("you")
    assert _game_id(ann) == _game_id(bao)
    # Quick phrases reach the other player, as text; a muted player is heard no more.
    ann.locator('[data-phrase="good_luck"]').click()
    expect(bao.locator("#chat-log")).to_contain_text("Good luck")
    bao.locator(".chat-mute").first.click()
    expect(bao.locator("#chat-log li")).to_have_count(0)
    ann.locator('[data-phrase="thanks"]').click()
    expect(ann.locator("#chat-log")).to_contain_text("Thanks")
    bao.locator('[data-phrase="hello"]').click()
    expect(bao.locator("#chat-log")).to_contain_text("Hello")
    expect(bao.locator("#chat-log")).not_to_contain_text("Thanks")
    # Turning the chat off hides it.
    ann.locator("#chat-toggle").click()
    expect(ann.locator("#chat-log")).to_be_hidden()
    assert ann.errors == [] and bao.errors == []


def test_a_seek_filled_by_another_browser_alerts_its_creator(
    two: list[Any], server: LiveServer
) -> None:
    ann, bao = two
    ann.context.grant_permissions(["notifications"], origin=server.url)
    ann.add_init_script(
        "window.shown = []; window.Notification = class { static permission = 'granted';"
        " static requestPermission() { return Promise.resolve('granted'); }"
        " constructor(title, options) { window.shown.push(title); } };"
    )
    ann.goto(f"{server.url}/#/lobby")
    ann.fill("#seek-rows", "4")
    ann.fill("#seek-cols", "4")
    ann.click("#seek-create")
    expect(ann.locator("#seek-status")).to_contain_text("offered")
    bao.goto(f"{server.url}/#/lobby")
    bao.locator("#seeks .join").first.click()
    game = _game_id(ann)
    assert _game_id(bao) == game
    assert ann.evaluate("window.shown") == ["Your game starts! · SOS"]
    expect(ann.locator("#seats")).to_contain_text("you")
    assert ann.errors == [] and bao.errors == []


def test_named_players_find_their_casual_pool_game_in_their_accounts(
    two: list[Any], server: LiveServer
) -> None:
    for page, name in zip(two, ("Ann", "Bao"), strict=True):
        answer = page.context.request.post(
            f"{server.url}/api/players", data={"name": name, "password": "a good password"}
        )
        assert answer.status == 201, answer.text()
        page.goto(server.url)
        page.locator(f'[data-pool="{POOL}"]').click()
    game = _game_id(two[0])
    assert _game_id(two[1]) == game
    ann = two[0]
    # Ann's page, and My games on a browser that holds no seat token of the game.
    ann.goto(f"{server.url}/#/players/Ann")
    expect(ann.locator("#player-games li")).to_have_count(1)
    expect(ann.locator(f'#player-games a[href="#/game/{game}"]')).to_be_visible()
    ann.evaluate("localStorage.clear()")
    ann.goto(f"{server.url}/#/")
    expect(ann.locator(f'[href="#/game/{game}"]').first).to_be_visible()
    assert ann.errors == [] and two[1].errors == []


DUPLICATE_IDS = """() => {
  const seen = {};
  for (const node of document.querySelectorAll("[id]")) seen[node.id] = (seen[node.id] || 0) + 1;
  return Object.keys(seen).filter((id) => seen[id] > 1);
}"""


def test_stop_looking_shows_only_while_looking_and_ids_stay_unique(
    browser: Any, tmp_path: Path
) -> None:
    # Offered a computer after 1 s alone in a pool, so that the offer's button is on the page.
    server = LiveServer(tmp_path / "games.sqlite3", {"SOSGAME_POOL_FALLBACK_SECONDS": "1"})
    server.start()
    context = browser.new_context(viewport={"width": 1100, "height": 800}, locale="en-US")
    try:
        page = context.new_page()
        page.goto(server.url)
        leave = page.locator("#pool-leave")
        expect(page.locator(f'[data-pool="{POOL}"]')).to_be_visible()
        expect(leave).to_be_hidden()
        page.locator(f'[data-pool="{POOL}"]').click()
        expect(leave).to_be_visible()
        expect(page.locator("#pool-play-computer")).to_be_visible()
        assert page.evaluate(DUPLICATE_IDS) == []
        leave.click()
        expect(leave).to_be_hidden()
        expect(page.locator("#pool-play-computer")).to_have_count(0)
    finally:
        context.close()
        server.stop()


def test_the_chat_follows_a_change_of_language(two: list[Any], server: LiveServer) -> None:
    body = {"rows": 4, "cols": 4, "kind": "online", "public": True}
    body["seats"] = [{"name": "Ann"}, {"name": "Bao"}]
    game = server.post("/api/games", body)["id"]
    page = two[0]
    page.goto(f"{server.url}/#/game/{game}")
    page.locator('[data-phrase="hello"]').click()
    expect(page.locator("#chat-log")).to_contain_text("Hello")
    page.select_option("#language", "vi")
    expect(page.locator("#chat-title")).to_have_text("Trò chuyện")
    expect(page.locator('[data-phrase="good_luck"]')).to_have_text("Chúc may mắn")
    expect(page.locator("#chat-log .chat-said")).to_have_text("Xin chào")
    expect(page.locator("#chat-toggle")).to_have_text("Tắt trò chuyện")
    assert page.errors == []


def test_two_guests_paired_in_a_pool_have_names_of_their_own(
    two: list[Any], server: LiveServer
) -> None:
    for page in two:
        page.goto(server.url)
        page.locator(f'[data-pool="{POOL}"]').click()
    game = _game_id(two[0])
    assert _game_id(two[1]) == game
    names = [seat["name"] for seat in server.get(f"/api/games/{game}")["seats"]]
    assert len(set(names)) == 2, names
    assert all(re.fullmatch(r"Guest \d{4}( \(2\))?", name) for name in names), names
    for page in two:
        expect(page.locator("#seats")).to_contain_text(names[0])
        expect(page.locator("#seats")).to_contain_text(names[1])


def test_a_muted_spectator_stays_muted_after_a_reload_and_alone(
    browser: Any, server: LiveServer
) -> None:
    body = {"rows": 4, "cols": 4, "kind": "online", "public": True}
    body["seats"] = [{"name": "Ann"}, {"name": "Bao"}]
    game = server.post("/api/games", body)["id"]
    contexts = [browser.new_context(locale="en-US") for _ in range(3)]
    try:
        me, loud, quiet = (context.new_page() for context in contexts)
        for page in (me, loud, quiet):
            page.goto(f"{server.url}/#/game/{game}")
            expect(page.locator('[data-phrase="hello"]')).to_be_visible()
        loud.locator('[data-phrase="hello"]').click()
        expect(me.locator("#chat-log li")).to_have_count(1)
        me.locator(".chat-mute").first.click()
        expect(me.locator("#chat-log li")).to_have_count(0)
        # Another guest spectator is not muted with the first.
        quiet.locator('[data-phrase="thanks"]').click()
        expect(me.locator("#chat-log")).to_contain_text("Thanks")
        me.reload()
        expect(me.locator('[data-phrase="hello"]')).to_be_visible()
        loud.locator('[data-phrase="good_luck"]').click()
        quiet.locator('[data-phrase="good_game"]').click()
        expect(me.locator("#chat-log")).to_contain_text("Good game")
        expect(me.locator("#chat-log")).not_to_contain_text("Good luck")
    finally:
        for context in contexts:
            context.close()
