"""Fair play between people in Debian's chromium, two or three browsers at once: offers of a
draw, a takeback and a rematch (accepted, declined, withdrawn), aborts by the button and by
the first-move timer, a claim after the opponent left, and the rematch nobody came to."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    LiveServer,
    browser_fixture,
    click_move,
)

pytest.importorskip("playwright")
from playwright.sync_api import expect

# Short timers, so that the browsers see them run out while the tests poll for it.
QUICK = {"SOSGAME_FIRST_MOVE_SECONDS": "10", "SOSGAME_ABANDON_SECONDS": "2"}


# One server for the module: each test makes its own games and reads nothing else of it.
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("server") / "games.sqlite3", env=QUICK)
    live.start()
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture
def pages(browser: Any) -> Iterator[list[Any]]:
    """Three browsers: Ann, Bao and a spectator."""
    contexts = [browser.new_context(locale="en-US") for _ in range(3)]
    try:
        yield [context.new_page() for context in contexts]
    finally:
        for context in contexts:
            context.close()


def online_game(pages: list[Any], server: LiveServer, *, clock: bool = False) -> str:
    """Ann makes an online 3x3 game, Bao takes the other seat and the third page watches."""
    ann, bao, watcher = pages
    ann.goto(server.url)
    expect(ann.locator("#new-game")).to_be_visible()
    ann.select_option("#rows", "3")
    ann.select_option("#cols", "3")
    ann.fill("#seat-0-name", "Ann")
    ann.fill("#seat-1-name", "Bao")
    ann.select_option("#kind", "online")
    # A guest's game is casual, and the form says so before it starts.
    expect(ann.locator("#rated")).to_be_disabled()
    expect(ann.locator("#rated-note")).to_contain_text("log in")
    if clock:
        ann.check("#clock-on")
        ann.fill("#clock-minutes", "1")
        ann.fill("#clock-increment", "0")
    ann.click("#start")
    expect(ann.locator("#board")).to_be_visible()
    match = re.search(r"#/game/([\w-]+)", ann.url)
    assert match, ann.url
    bao.goto(ann.locator("#invite-1").input_value())
    bao.click("#take-seat")
    expect(bao.locator("#board")).to_be_visible()
    watcher.goto(ann.locator("#spectate").input_value())
    expect(watcher.locator("#board")).to_be_visible()
    expect(ann.locator("#rated-status")).to_have_text("Casual game: not rated")
    return match.group(1)


def test_a_draw_offer_declined_withdrawn_and_accepted(pages: list[Any], server: LiveServer) -> None:
    ann, bao, watcher = pages
    online_game(pages, server)
    click_move(ann, "Sa1")
    # Declined: everyone sees the offer, and then that it is gone.
    ann.click("#offer-draw")
    for page in pages:
        expect(page.locator("#offer-draw-standing")).to_contain_text("Ann offers a draw.")
    expect(watcher.locator("#accept-draw")).to_have_count(0)  # spectators only see it
    expect(bao.locator("[data-testid=announcer]")).to_have_text(re.compile("Ann offers a draw"))
    bao.click("#decline-draw")
    for page in pages:
        expect(page.locator("#offer-draw-gone")).to_be_visible()
    # Withdrawn, by keyboard alone.
    ann.focus("#offer-draw")
    ann.keyboard.press("Enter")
    expect(bao.locator("#accept-draw")).to_be_visible()
    ann.focus("#withdraw-draw")
    ann.keyboard.press("Enter")
    expect(bao.locator("#accept-draw")).to_have_count(0)
    expect(bao.locator("#offer-draw-gone")).to_be_visible()
    # Accepted.
    bao.click("#offer-draw")
    ann.focus("#accept-draw")
    ann.keyboard.press("Enter")
    # Each player reads "you"; the spectator, both names.
    expect(ann.locator("#result")).to_have_text("A draw between you and Bao: the players agreed.")
    expect(bao.locator("#result")).to_have_text("A draw between you and Ann: the players agreed.")
    expect(watcher.locator("#result")).to_have_text("A draw between Ann, Bao: the players agreed.")


def test_the_offer_buttons_follow_what_the_server_allows(
    pages: list[Any], server: LiveServer
) -> None:
    ann, bao, watcher = pages
    game = online_game(pages, server)
    # Nobody has a move to take back yet.
    expect(ann.locator("#offer-draw")).to_be_visible()
    expect(ann.locator("#offer-takeback")).to_have_count(0)
    click_move(ann, "Sa1")
    expect(ann.locator("#offer-takeback")).to_be_visible()
    # Bao has made no move: the server would refuse Bao's takeback, so Bao is not offered one.
    expect(bao.locator("#offer-draw")).to_be_visible()
    expect(bao.locator("#offer-takeback")).to_have_count(0)
    expect(watcher.locator("#offer-draw")).to_have_count(0)
    allowed = server.get(f"/api/games/{game}")["allowed"]
    assert [seat["can_offer"]["takeback"] for seat in allowed] == [True, False]
    # Once Ann's draw offer stands, Bao answers it and Ann may only withdraw it.
    ann.click("#offer-draw")
    expect(bao.locator("#accept-draw")).to_be_visible()
    expect(bao.locator("#withdraw-draw")).to_have_count(0)
    expect(ann.locator("#withdraw-draw")).to_be_visible()
    expect(ann.locator("#accept-draw")).to_have_count(0)
    for page in (ann, bao):
        expect(page.locator("#offer-draw")).to_have_count(0)


def test_a_takeback_accepted_and_an_abort_by_the_button(
    pages: list[Any], server: LiveServer
) -> None:
    ann, bao, _ = pages
    game = online_game(pages, server)
    click_move(ann, "Sa1")
    ann.click("#offer-takeback")
    expect(bao.locator("#offer-takeback-standing")).to_contain_text("Ann asks to take back")
    bao.click("#accept-takeback")
    expect(bao.locator('.cell[data-cell="a1"]')).to_have_text("")
    expect(ann.locator("#status")).to_have_text("Your turn.")
    click_move(ann, "Sb2")
    expect(bao.locator("#abort")).to_be_visible()
    bao.once("dialog", lambda dialog: dialog.accept())
    bao.click("#abort")
    expect(ann.locator("#result")).to_have_text("The game was aborted: nobody wins.")
    assert server.get(f"/api/games/{game}")["result"]["termination"] == "aborted"


def test_a_seat_that_misses_its_first_move_aborts_the_game(
    pages: list[Any], server: LiveServer
) -> None:
    ann, _, watcher = pages
    game = online_game(pages, server, clock=True)
    for page in pages:
        expect(page.locator("#first-move")).to_contain_text("Ann has")
    expect(watcher.locator("#abort")).to_have_count(0)
    # Ann never moves: the game is aborted, and nobody's time was spent.
    expect(ann.locator("#result")).to_have_text("The game was aborted: nobody wins.")
    state = server.get(f"/api/games/{game}")
    assert state["clock"]["remaining"] == [60_000, 60_000]


def test_a_claim_after_the_opponent_leaves(pages: list[Any], server: LiveServer) -> None:
    ann, bao, watcher = pages
    online_game(pages, server)
    click_move(ann, "Sa1")
    # Back in time (a reload): Bao is told how long they were away, and the rule.
    bao.reload()
    expect(bao.locator("#you-were-away")).to_contain_text("after 2 s away")
    bao.close()
    expect(ann.locator("#away-1")).to_be_visible()
    expect(ann.locator("#claim-win")).to_be_visible()
    expect(watcher.locator("#claim-win")).to_have_count(0)
    ann.click("#claim-win")
    expect(ann.locator("#result")).to_have_text("You win: a player left the game.")
    expect(watcher.locator("#result")).to_have_text("Ann wins: a player left the game.")


def test_a_rematch_waits_for_both_and_the_absent_player_loses_nothing(
    pages: list[Any], server: LiveServer
) -> None:
    ann, bao, _ = pages
    game = online_game(pages, server, clock=True)
    click_move(ann, "Sa1")
    click_move(bao, "Ob1")
    ann.once("dialog", lambda dialog: dialog.accept())
    ann.click("#resign")
    expect(bao.locator("#result")).to_contain_text("You win")
    # Offered, declined: no game is made.
    bao.click("#rematch")
    expect(ann.locator("#offer-rematch-standing")).to_contain_text("Bao offers a rematch.")
    ann.click("#decline-rematch")
    expect(bao.locator("#offer-rematch-gone")).to_be_visible()
    assert server.get(f"/api/games/{game}")["rematch"] is None
    # Offered and accepted: the seats rotate, and the rematch's clocks wait for the players.
    bao.click("#rematch")
    ann.click("#accept-rematch")
    # Both pages open the rematch by themselves.
    for page in (ann, bao):
        expect(page).not_to_have_url(re.compile(f"#/game/{game}$"))
    expect(ann.locator("#status")).to_have_text("Bao to move.")
    expect(bao.locator("#status")).to_have_text("Your turn.")
    rematch = server.get(f"/api/games/{game}")["rematch"]
    for page in (ann, bao):
        expect(page).to_have_url(re.compile(f"#/game/{rematch}$"))
    state = server.get(f"/api/games/{rematch}")
    assert [seat["name"] for seat in state["seats"]] == ["Bao", "Ann"]
    assert state["clock"]["running"] is None
    # Ann never comes: the rematch is aborted, and Ann's clock never ran.
    ann.close()
    expect(bao.locator("#result")).to_have_text("The game was aborted: nobody wins.")
    state = server.get(f"/api/games/{rematch}")
    assert state["clock"]["remaining"] == [60_000, 60_000]


def test_the_lobby_says_whether_a_game_is_rated(pages: list[Any], server: LiveServer) -> None:
    seats = [{"name": "Ann"}, {"name": "Bao"}]
    body = {"rows": 3, "cols": 3, "kind": "online", "public": True, "seats": seats}
    created = server.post("/api/games", body)
    page = pages[0]
    page.goto(f"{server.url}/#/lobby")
    entry = page.locator(f'#lobby li[data-game="{created["id"]}"]')
    expect(entry.locator(".rated")).to_have_text("Casual")  # a guest's game


def test_new_game_asks_before_leaving_a_live_online_game(browser: Any, server: LiveServer) -> None:
    body = {"rows": 3, "cols": 3, "kind": "online", "seats": [{"name": "Ann"}, {"name": "Bao"}]}
    created = server.post("/api/games", body)
    invite = created["links"]["seats"][1].rsplit("/", 1)[1]
    server.post(f"/api/games/{created['id']}/seats/1", {"name": "Bao", "invite": invite})
    context = browser.new_context(locale="en-US")
    try:
        page = context.new_page()
        page.goto(server.url)
        page.evaluate(
            "([id, token]) => localStorage.setItem('sos.tokens', JSON.stringify({[id]: [token]}))",
            [created["id"], created["token"]],
        )
        page.goto(f"{server.url}/#/game/{created['id']}")
        expect(page.locator("#status")).to_have_text("Your turn.")
        asked: list[str] = []

        def answer(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.dismiss()

        page.once("dialog", answer)
        page.click("#new-game")
        expect(page).to_have_url(re.compile(f"#/game/{created['id']}$"))
        assert asked and "goes on without you" in asked[0]
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#new-game")
        expect(page.locator("#start")).to_be_visible()
    finally:
        context.close()


IN_VIEW = """(node) => {
  const box = node.getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight
    && box.left >= 0 && box.right <= window.innerWidth;
}"""


def test_on_a_phone_what_needs_the_player_is_in_view_and_answered_there(
    pages: list[Any], server: LiveServer
) -> None:
    ann, bao, _ = pages
    bao.set_viewport_size({"width": 390, "height": 844})
    online_game(pages, server, clock=True)
    # The first move's countdown, in view on the phone without scrolling.
    bar = bao.get_by_test_id("fair-bar")
    expect(bar).to_contain_text("Ann has")
    assert bar.evaluate(IN_VIEW)
    # A desktop page keeps it in the panel beside the board.
    expect(ann.get_by_test_id("fair-bar")).to_have_count(1)
    expect(ann.get_by_test_id("fair-bar")).to_be_hidden()
    click_move(ann, "Sa1")
    click_move(bao, "Ob1")
    ann.click("#offer-draw")
    # The draw offer, answered from the bar.
    expect(bar).to_contain_text("Ann offers a draw.")
    assert bar.evaluate(IN_VIEW)
    bao.click("#bar-accept-draw")
    expect(ann.locator("#result")).to_contain_text("draw", ignore_case=True)
    expect(bar).to_have_count(0)
