"""Each player's own seat reads "you": the turn, the extra turn, what is announced, the
result; a spectator reads the players' names, and so do players passing one device."""

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
    seated_game,
)
from test_browser_app import _hold
from test_browser_fairplay import pages  # noqa: F401 (a fixture: Ann, Bao and a spectator)

pytest.importorskip("playwright")

from playwright.sync_api import expect


def _spoken(page: Any) -> str:
    text: str = page.get_by_test_id("announcer").text_content()
    return text.replace("\u00a0", "").strip()


def test_each_player_reads_you_and_the_spectator_reads_names(
    pages: list[Any],  # noqa: F811 (the fixture imported above)
    server: LiveServer,
) -> None:
    ann, bao, watcher = pages
    body = {"rows": 3, "cols": 3, "seats": [{"name": "Ann"}, {"name": "Bao"}]}
    game, tokens = seated_game(server, body)
    _hold(ann, server, game, tokens[0])
    _hold(bao, server, game, tokens[1])
    for page in pages:
        page.goto(f"{server.url}/#/game/{game}")
    expect(ann.locator("#status")).to_have_text("Your turn.")
    expect(ann).to_have_title("Your turn · SOS")
    expect(bao.locator("#status")).to_have_text("Ann to move.")
    expect(watcher.locator("#status")).to_have_text("Ann to move.")
    click_move(ann, "Sa1")
    expect(ann.get_by_test_id("announcer")).to_have_text("You wrote S at a1. Bao to move.")
    expect(bao.get_by_test_id("announcer")).to_have_text("Ann wrote S at a1. Your turn.")
    expect(watcher.get_by_test_id("announcer")).to_have_text("Ann wrote S at a1. Bao to move.")
    click_move(bao, "Ob1")
    click_move(ann, "Sc1")
    # Ann's SOS: an extra turn, said to Ann as hers.
    expect(ann.locator("#status")).to_have_text("Your turn again: extra turn!")
    expect(ann.locator("#extra-turn")).to_have_text("SOS! You scored and move again.")
    expect(ann.get_by_test_id("announcer")).to_have_text(
        "You wrote S at c1: 1 point, you move again"
    )
    expect(bao.locator("#extra-turn")).to_have_text("SOS! Ann scored and moves again.")
    expect(bao.get_by_test_id("announcer")).to_have_text(
        "Ann wrote S at c1: 1 point, Ann moves again"
    )
    bao.once("dialog", lambda dialog: dialog.accept())
    bao.click("#resign")
    expect(ann.locator("#result")).to_have_text("You win: every other player resigned.")
    expect(bao.locator("#result")).to_have_text("Ann wins: every other player resigned.")
    expect(watcher.locator("#result")).to_have_text("Ann wins: every other player resigned.")
    assert _spoken(bao).startswith("You resign")


def test_players_passing_one_device_read_their_names(page: Any, server: LiveServer) -> None:
    body = {"rows": 3, "cols": 3, "seats": [{"name": "Ann"}, {"name": "Bao"}]}
    created = server.post("/api/games", body)
    _hold(page, server, created["id"], created["token"])
    page.goto(f"{server.url}/#/game/{created['id']}")
    expect(page.locator("#status")).to_have_text("Ann to move.")
    click_move(page, "Sa1")
    expect(page.locator("#status")).to_have_text("Bao to move.")


def test_after_a_rated_game_each_player_sees_the_new_ratings_and_the_change(
    pages: list[Any],  # noqa: F811 (the fixture imported above)
    server: LiveServer,
) -> None:
    ann, bao, _ = pages
    for page, name in ((ann, "Ann"), (bao, "Bao")):
        page.goto(server.url)
        claimed = page.context.request.post(
            f"{server.url}/api/players", data={"name": name, "password": "a good password"}
        )
        assert claimed.status == 201, claimed.text()
    body = {"rows": 3, "cols": 3, "kind": "online", "seats": [{"name": "x"}, {"name": "y"}]}
    created = ann.context.request.post(f"{server.url}/api/games", data=body).json()
    game = created["id"]
    invite = created["links"]["seats"][1].rsplit("/", 1)[1]
    taken = bao.context.request.post(
        f"{server.url}/api/games/{game}/seats/1", data={"invite": invite}
    ).json()
    _hold(ann, server, game, created["token"])
    _hold(bao, server, game, taken["token"])
    for page in pages:
        page.goto(f"{server.url}/#/game/{game}")
    for move, page in zip(("Sa1", "Sb1", "Sc1", "Sa2"), (ann, bao, ann, bao), strict=True):
        click_move(page, move)
    expect(ann.locator("#rated-status")).to_have_text("Rated game")
    ann.once("dialog", lambda dialog: dialog.accept())
    ann.click("#resign")
    for page in pages:
        winner = page.locator('#seats .rating-change[data-seat="1"]')
        expect(winner).to_have_text(re.compile(r"^rating \d+\.\d \(\+\d+\.\d\)$"))
        after = server.get("/api/players/Bao")["rating"]
        expect(winner).to_contain_text(f"rating {after:.1f} ")
        expect(page.locator('#seats .rating-change[data-seat="0"]')).to_have_text(
            re.compile(r"^rating -?\d+\.\d \([-+]?\d+\.\d\)$")
        )
