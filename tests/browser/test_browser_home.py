"""The home page's first choices, "My games" and the header's your-turn badge, in Debian's
chromium at phone and desktop sizes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    LiveServer,
    browser_fixture,
    click_move,
    module_server_fixture,
    page_fixture,
)

pytest.importorskip("playwright")

from playwright.sync_api import expect

GAME = ["Sa1", "Ob1", "Sc1", "Sa2", "Ob2", "Sc2", "Oa3", "Ob3", "Oc3"]
SIZES = [{"width": 390, "height": 844}, {"width": 1280, "height": 900}]


def game_id(page: Any) -> str:
    page.wait_for_url(re.compile(r"#/game/"))
    match = re.search(r"#/game/([\w-]+)", page.url)
    assert match, page.url
    return match.group(1)


@pytest.mark.parametrize("size", SIZES)
def test_a_first_visit_offers_three_choices_and_the_computer_is_one_click_away(
    browser: Any, server: LiveServer, size: dict[str, int]
) -> None:
    context = browser.new_context(viewport=size, locale="en-US")
    try:
        page = context.new_page()
        page.goto(server.url)
        choices = [
            page.get_by_test_id(name) for name in ("play-computer", "play-friend", "play-online")
        ]
        for choice, label in zip(
            choices, ["Play the computer", "Play a friend", "Play online"], strict=True
        ):
            expect(choice).to_be_visible()
            expect(choice).to_contain_text(label)
            assert choice.bounding_box()["y"] < size["height"]
        # Unrated, and said so in the form before anything starts.
        expect(page.locator("#rated-note")).to_contain_text("not rated")
        page.get_by_test_id("play-computer").focus()
        page.keyboard.press("Enter")
        game = server.get(f"/api/games/{game_id(page)}")
        assert (game["rows"], game["cols"], game["mode"]) == (5, 5, "general")
        assert [seat["player"] for seat in game["seats"]] == ["human", "medium"]
        expect(page.locator(".cell")).to_have_count(25)
    finally:
        context.close()


def test_play_a_friend_sets_the_form_for_an_online_game(page: Any, server: LiveServer) -> None:
    page.goto(server.url)
    page.get_by_test_id("play-friend").click()
    expect(page.locator("#kind")).to_have_value("online")
    expect(page.locator("#start")).to_be_focused()
    page.keyboard.press("Enter")
    game = server.get(f"/api/games/{game_id(page)}")
    assert (game["kind"], game["rows"], game["cols"]) == ("online", 5, 5)


def test_my_games_lists_a_finished_game_with_its_result_and_the_badge_counts_my_turn(
    page: Any, server: LiveServer
) -> None:
    page.goto(server.url)
    expect(page.get_by_test_id("my-games")).to_contain_text("You have no games yet.")
    expect(page.get_by_test_id("turn-badge")).to_be_hidden()
    page.select_option("#rows", "3")
    page.select_option("#cols", "3")
    page.click("#start")
    finished = game_id(page)
    for move in GAME:
        click_move(page, move)
    expect(page.locator("#result")).to_be_visible()
    page.goto(f"{server.url}#/")
    page.click("#start")  # a 5x5 game at one screen: always this browser's turn
    playing = game_id(page)
    badge = page.get_by_test_id("turn-badge")
    expect(badge).to_have_text("1")
    expect(badge).to_have_attribute("aria-label", "1 game where it is your turn")
    page.click("#brand")
    mine = page.get_by_test_id("my-games").locator("li")
    expect(mine).to_have_count(2)
    expect(mine.nth(0)).to_have_attribute("data-game", playing)
    expect(mine.nth(0)).to_contain_text("Your turn")
    expect(mine.nth(1)).to_have_attribute("data-game", finished)
    expect(mine.nth(1)).to_contain_text("wins")
    expect(mine.nth(1).locator("time")).to_be_visible()


def test_the_badge_follows_the_game_after_a_move(page: Any, server: LiveServer) -> None:
    seats = [{"name": "Ann"}, {"name": "Bao"}]
    created = server.post("/api/games", {"rows": 3, "cols": 3, "kind": "online", "seats": seats})
    invite = created["links"]["seats"][1].rsplit("/", 1)[1]
    server.post(f"/api/games/{created['id']}/seats/1", {"invite": invite})
    page.goto(server.url)
    page.evaluate(
        "([game, token]) => localStorage.setItem('sos.tokens', JSON.stringify({[game]: [token]}))",
        [created["id"], created["token"]],
    )
    page.goto(f"{server.url}#/game/{created['id']}")
    badge = page.get_by_test_id("turn-badge")
    expect(badge).to_have_text("1")
    click_move(page, "Sb2")  # now Bao's turn: the game's socket says so, and the badge follows
    expect(badge).to_be_hidden()


def test_a_local_game_is_never_shown_as_rated(page: Any, server: LiveServer) -> None:
    answer = page.context.request.post(
        f"{server.url}/api/players", data={"name": "Eve", "password": "a good password"}
    )
    assert answer.status == 201, answer.text()
    page.goto(server.url)
    rated = page.locator("#rated")
    # A local game first: not rated, and the box says so.
    expect(page.locator("#kind")).to_have_value("local")
    expect(rated).to_be_disabled()
    expect(rated).not_to_be_checked()
    page.select_option("#kind", "online")
    expect(rated).to_be_enabled()
    expect(rated).to_be_checked()
    # The player's choice for online games comes back after a local game.
    rated.uncheck()
    page.select_option("#kind", "local")
    expect(rated).not_to_be_checked()
    page.select_option("#kind", "online")
    expect(rated).not_to_be_checked()


def test_one_day_a_move_is_said_in_the_singular(page: Any, server: LiveServer) -> None:
    page.goto(server.url)
    page.select_option("#kind", "online")
    options = page.locator("#days option")
    expect(options.nth(1)).to_have_text("1 day a move")
    expect(options.nth(2)).to_have_text("2 days a move")


def test_without_a_network_the_error_is_said_in_the_pages_language(
    page: Any, server: LiveServer
) -> None:
    page.goto(server.url)
    page.select_option("#language", "vi")
    expect(page.locator("#start")).to_be_visible()
    page.context.set_offline(True)
    try:
        page.click("#start")
        error = page.locator("#new-game .error")
        expect(error).to_contain_text("không kết nối được với máy chủ")
        expect(error).not_to_contain_text("Failed to fetch")
    finally:
        page.context.set_offline(False)
