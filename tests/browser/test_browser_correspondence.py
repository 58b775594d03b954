"""A correspondence game in Debian's chromium: days per move chosen on the new-game form,
the time left shown by each seat, and a move that reaches the other player; a seek of days
filled after its creator left the lobby, found in "My games" and played, and the players'
chat in the record a player downloads."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    LiveServer,
    browser_fixture,
    click_move,
    pages,
    server_fixture,
)

pytest.importorskip("playwright")

from playwright.sync_api import expect
from test_browser import start_game


def test_two_players_of_a_correspondence_game_see_the_days_and_a_move(
    browser: Any, server: LiveServer
) -> None:
    with pages(browser, 2) as (ann, bao):
        game_id = start_game(
            ann, server, [("Ann", "human"), ("Bao", "human")], kind="online", days="3"
        )
        assert server.get(f"/api/games/{game_id}")["days"] == 3
        bao.goto(ann.locator("#invite-1").input_value())
        bao.click("#take-seat")
        expect(bao.locator("#status")).to_have_text("Ann to move.")
        expect(bao.locator('#seats .clock[data-seat="0"]')).to_have_text("3 d 0:00")
        # Days to make a first move read as days and hours, never as 259168 seconds.
        expect(bao.locator("#first-move")).to_have_text(
            re.compile(r"Ann has [23] d \d{1,2}:\d\d left to make a first move")
        )
        click_move(ann, "Sa1")
        expect(bao.locator('.cell[data-cell="a1"]')).to_have_text("S")
        expect(bao.locator("#status")).to_have_text("Your turn.")
        expect(bao.locator('#seats .clock[data-seat="1"]')).to_have_text("3 d 0:00")


def test_a_seek_of_days_filled_after_its_creator_left_is_in_their_games_with_its_chat(
    browser: Any, server: LiveServer
) -> None:
    with pages(browser, 2) as (ann, bao):
        ann.goto(f"{server.url}/#/lobby")
        ann.fill("#seek-rows", "4")
        ann.fill("#seek-cols", "4")
        ann.select_option("#seek-days", "3")
        ann.click("#seek-create")
        expect(ann.locator("#seek-status")).to_contain_text("offered")
        ann.goto(f"{server.url}/#/players")  # leaving the lobby closes its socket
        bao.goto(f"{server.url}/#/lobby")
        bao.locator("#seeks .join").first.click()
        expect(bao).to_have_url(re.compile(r"#/game/"))
        game = bao.url.rsplit("/", 1)[1]
        ann.goto(server.url)
        mine = ann.locator(f'#my-games [data-game="{game}"]')
        expect(mine).to_have_class(re.compile("your-turn"))
        expect(mine).to_contain_text("Your turn")
        mine.locator("a").first.click()
        expect(ann.locator("#seats")).to_contain_text("you")
        click_move(ann, "Sa1")
        expect(bao.locator('.cell[data-cell="a1"]')).to_have_text("S")
        ann.locator('[data-phrase="good_game"]').click()
        expect(bao.locator("#chat-log")).to_contain_text("Good game")
        expect(ann.locator("#chat-kept")).to_be_visible()
        with ann.expect_download() as download:
            ann.click("#download")
        record = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
        (said,) = json.loads(record["meta"]["tags"]["sosgame.chat"])
        assert (said["seat"], said["phrase"]) == (0, "good_game")
        assert re.fullmatch(r"Guest \d{4}", said["name"])


def test_time_left_reads_as_a_clock_under_a_day_and_in_days_beyond(
    browser: Any, server: LiveServer
) -> None:
    """A tournament's start five hours away, or a correspondence move's last hours, read as
    hours, minutes and seconds (not "0 d 5:33")."""
    with pages(browser, 1) as (page,):
        page.goto(server.url)
        expect(page.locator("#pools button.pool").first).to_be_visible()  # the texts loaded
        shown = page.evaluate(
            """async () => {
              const { formatClock } = await import("/static/dom.js");
              const second = 1000, hour = 3600 * second;
              return [65 * second, hour, 5 * hour + 33 * 60 * second + 20 * second,
                      24 * hour - second, 24 * hour, 3 * 24 * hour + 2 * hour + 5 * 60 * second]
                .map(formatClock);
            }"""
        )
    assert shown == ["1:05", "1:00:00", "5:33:20", "23:59:59", "1 d 0:00", "3 d 2:05"]
