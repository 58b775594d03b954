"""A correspondence game in Debian's chromium: days per move chosen on the new-game form,
the time left shown by each seat, and a move that reaches the other player."""

from __future__ import annotations

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
        click_move(ann, "Sa1")
        expect(bao.locator('.cell[data-cell="a1"]')).to_have_text("S")
        expect(bao.locator("#status")).to_have_text("Bao to move.")
        expect(bao.locator('#seats .clock[data-seat="1"]')).to_have_text("3 d 0:00")
