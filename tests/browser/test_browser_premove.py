"""Premoves in a clock game: a move chosen on the opponent's turn is shown, can be taken
back, and is sent the moment the turn comes; it waits through the opponent's extra turn, and
is dropped (and said so) if the opponent writes in its cell."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    LiveServer,
    browser_fixture,
    click_move,
    module_server_fixture,
    seated_game,
)
from test_browser_app import _hold

pytest.importorskip("playwright")

from playwright.sync_api import expect


@pytest.fixture
def players(browser: Any, server: LiveServer) -> Iterator[list[Any]]:
    """Ann and Bao, each in a browser of their own, in a 4x4 online game with a clock."""
    body = {
        "rows": 4,
        "cols": 4,
        "clock": {"initial": 300, "increment": 0},
        "seats": [{"name": "Ann"}, {"name": "Bao"}],
    }
    game, tokens = seated_game(server, body)
    contexts = [browser.new_context(locale="en-US") for _ in range(2)]
    try:
        ann, bao = (context.new_page() for context in contexts)
        _hold(ann, server, game, tokens[0])
        _hold(bao, server, game, tokens[1])
        for page in (ann, bao):
            page.goto(f"{server.url}/#/game/{game}")
        expect(ann.locator("#status")).to_have_text("Your turn.")
        yield [ann, bao]
    finally:
        for context in contexts:
            context.close()


def _premove(page: Any, move: str) -> None:
    page.locator(f'.cell[data-cell="{move[1:]}"]').click()
    expect(page.locator("#picker")).to_contain_text(f"Premove in {move[1:]}")
    page.click(f"#pick-{move[0]}")
    expect(page.locator("#premove")).to_have_text(f"Premove {move}: sent when your turn comes.")


def test_a_premove_is_shown_cancelled_and_sent_when_the_turn_comes(
    players: list[Any], server: LiveServer
) -> None:
    ann, bao = players
    _premove(bao, "Sd4")
    premoved = bao.locator('.cell[data-cell="d4"]')
    expect(premoved).to_have_class("cell premove")
    expect(premoved).to_have_text("S")
    bao.click("#premove-cancel")
    expect(bao.locator("#premove")).to_have_count(0)
    expect(premoved).to_have_text("")
    _premove(bao, "Od4")
    click_move(ann, "Sa1")
    # Sent at once: Bao's O is on Ann's board without Bao touching anything.
    expect(ann.locator('.cell[data-cell="d4"]')).to_have_text("O")
    expect(bao.locator("#premove")).to_have_count(0)
    expect(ann.locator("#status")).to_have_text("Your turn.")


def test_a_premove_waits_through_an_extra_turn_and_drops_on_a_taken_cell(
    players: list[Any], server: LiveServer
) -> None:
    ann, bao = players
    click_move(ann, "Sa1")
    click_move(bao, "Ob1")
    _premove(bao, "Sd4")
    # Ann's SOS gives her an extra turn: the premove waits.
    click_move(ann, "Sc1")
    expect(ann.locator("#status")).to_have_text("Your turn again: extra turn!")
    expect(bao.locator("#premove")).to_be_visible()
    click_move(ann, "Sa4")
    expect(ann.locator('.cell[data-cell="d4"]')).to_have_text("S")
    assert server.get(f"/api/games/{_game(ann)}")["actions"][-1] == "Sd4"
    # A premove on the cell the opponent then writes in is dropped, and Bao is told.
    click_move(ann, "Oa3")
    click_move(bao, "Sb4")
    _premove(bao, "Sd1")
    click_move(ann, "Od1")
    dropped = "Your premove Sd1 was not played: its cell is taken."
    expect(bao.locator("#error")).to_have_text(dropped)
    expect(bao.locator("#status")).to_have_text("Your turn.")


def _game(page: Any) -> str:
    return str(page.url.rsplit("/", 1)[1])
