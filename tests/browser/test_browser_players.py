"""Named players, ratings and the lobby as a player sees them, at desktop (1280x900) and phone
(390x844) sizes: claiming a name and logging in (with their refusals), a rated game joined from
the lobby, the leaderboard, a player's rating chart, changing the password and logging out
everywhere from one's own page, private games kept out of the lobby, and the pages' texts in
Vietnamese and Hindi."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    ARTIFACTS,
    LiveServer,
    browser_fixture,
    server_fixture,
)

pytest.importorskip("playwright")
pytest.importorskip("websockets")

from playwright.sync_api import expect
from test_browser_app import CONTRAST, DESKTOP, MISSING_GLYPHS, PHONE
from websockets.sync.client import connect

from sos_play import QUIET_MOVES, play_then_resign

SIZES = {"desktop": DESKTOP, "phone": PHONE}


@pytest.fixture(params=list(SIZES))
def context(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    """A browser context (its own cookies) at desktop or phone size."""
    opened = browser.new_context(viewport=SIZES[request.param], locale="en-US")
    opened.set_default_timeout(30_000)
    yield opened
    opened.close()


def _page(context: Any) -> Any:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def _claim(context: Any, server: LiveServer, name: str) -> None:
    """Claim a name from this context (its cookie jar keeps the session)."""
    answer = context.request.post(
        f"{server.url}/api/players", data={"name": name, "password": "a good password"}
    )
    assert answer.status == 201, answer.text()


def _resign(
    server: LiveServer, game_id: str, token: str, *others: str, moves: tuple[str, ...] = ()
) -> None:
    """Play ``moves`` (with the tokens of every seat they need), then seat 0 resigns."""
    with connect(f"ws://127.0.0.1:{server.port}/ws/games/{game_id}") as socket:
        play_then_resign(
            socket.send, lambda: json.loads(socket.recv(timeout=20)), [token, *others], moves
        )


def test_claiming_a_name_and_logging_in_with_clear_refusals(
    context: Any, server: LiveServer
) -> None:
    page = _page(context)
    page.goto(f"{server.url}/#/login")
    page.fill("#login-name", "Ann")
    page.fill("#login-password", "short")
    page.click("#claim")
    expect(page.locator("#login-error")).to_contain_text("8 to 128 characters")
    page.fill("#login-password", "a good password")
    page.click("#claim")
    expect(page.locator("#player-name")).to_have_text("Ann")
    expect(page.locator("#me")).to_have_text("Logged in as Ann")
    page.click("#logout")
    expect(page.locator("#login-link")).to_be_visible()
    page.goto(f"{server.url}/#/login")
    page.fill("#login-name", "ANN")
    page.fill("#login-password", "a good password")
    page.click("#claim")
    expect(page.locator("#login-error")).to_have_text("Somebody has claimed this name already.")
    page.fill("#login-password", "not the password")
    page.press("#login-password", "Enter")
    expect(page.locator("#login-error")).to_have_text("Wrong name or password.")
    page.fill("#login-password", "a good password")
    page.click("#login-button")
    expect(page.locator("#me")).to_have_text("Logged in as Ann")
    page.reload()  # the session is the cookie's, not the page's
    expect(page.locator("#me")).to_have_text("Logged in as Ann")
    assert page.errors == []


def _establish(server: LiveServer) -> None:
    """Make every named player so far established (no longer provisional)."""
    import sqlite3

    with contextlib.closing(sqlite3.connect(server.database.removeprefix("sqlite:///"))) as db:
        db.execute("UPDATE players SET opponents = 100")
        db.commit()


def test_a_new_players_page_says_it_is_provisional(context: Any, server: LiveServer) -> None:
    _claim(context, server, "Chi")
    page = _page(context)
    page.goto(f"{server.url}/#/players/Chi")
    expect(page.locator("#player-provisional")).to_contain_text("Provisional")
    page.click("#nav-players")
    expect(page.locator("#provisional-help")).to_be_visible()
    expect(page.get_by_test_id("leaderboard").locator("tbody")).not_to_contain_text("Chi")
    assert page.errors == []


def test_a_bot_s_page_shows_bot_before_its_name(context: Any, server: LiveServer) -> None:
    _claim(context, server, "Robo")
    made = context.request.post(
        f"{server.url}/api/tokens", data={"description": "bot", "scopes": ["bot:play"]}
    )
    assert made.status == 201, made.text()
    bearer = {"authorization": f"Bearer {made.json()['token']}"}
    upgraded = context.request.post(f"{server.url}/api/bot/account/upgrade", headers=bearer)
    assert upgraded.status == 200, upgraded.text()
    _claim(context, server, "Person")
    page = _page(context)
    page.goto(f"{server.url}/#/players/Robo")
    expect(page.locator("#player-name")).to_have_text("BOT Robo")
    expect(page.get_by_test_id("bot-mark")).to_have_text("BOT")
    page.goto(f"{server.url}/#/players/Person")
    expect(page.locator("#player-name")).to_have_text("Person")
    expect(page.get_by_test_id("bot-mark")).to_have_count(0)
    assert page.errors == []


def _bot_token(context: Any, server: LiveServer, name: str) -> str:
    """A bot's account of this name (claimed from this context): its API token."""
    _claim(context, server, name)
    made = context.request.post(
        f"{server.url}/api/tokens",
        data={"description": "bot", "scopes": ["bot:play", "challenge:write"]},
    )
    assert made.status == 201, made.text()
    token: str = made.json()["token"]
    upgraded = context.request.post(
        f"{server.url}/api/bot/account/upgrade", headers={"authorization": f"Bearer {token}"}
    )
    assert upgraded.status == 200, upgraded.text()
    return token


def test_a_bot_s_name_shows_bot_in_its_game_its_end_and_my_games(
    context: Any, server: LiveServer
) -> None:
    robo = _bot_token(context, server, "Robo")
    _claim(context, server, "Ann")
    made = context.request.post(
        f"{server.url}/api/tokens",
        data={"description": "mine", "scopes": ["challenge:write", "board:play"]},
    )
    ann = {"authorization": f"Bearer {made.json()['token']}"}
    game = {"rows": 3, "cols": 3, "mode": "general", "clock": None, "days": None, "rated": False}
    asked = context.request.post(f"{server.url}/api/challenge/Robo", data=game, headers=ann)
    assert asked.status == 200, asked.text()
    accepted = server.post(f"/api/challenge/{asked.json()['challenge']['id']}/accept", {}, robo)
    game_id = accepted["game"]["id"]
    page = _page(context)
    page.goto(f"{server.url}/#/game/{game_id}")
    seats = page.locator("#seats li")
    expect(seats.nth(1)).to_contain_text("BOT Robo")
    expect(seats.nth(0)).not_to_contain_text("BOT")
    expect(page.get_by_test_id("seat-bar").locator("li").nth(1)).to_contain_text("BOT Robo")
    resigned = context.request.post(f"{server.url}/api/board/game/{game_id}/resign", headers=ann)
    assert resigned.status == 200, resigned.text()
    expect(page.locator("#result")).to_contain_text("BOT Robo")
    page.goto(f"{server.url}/#/")
    expect(page.get_by_test_id("my-games").locator(f'[data-game="{game_id}"]')).to_contain_text(
        "Ann, BOT Robo"
    )
    page.goto(f"{server.url}/#/players/Ann")
    expect(page.locator("#player-games")).to_contain_text("Ann, BOT Robo")
    assert page.errors == []


def test_a_lobby_game_between_named_players_is_rated(
    browser: Any, context: Any, server: LiveServer
) -> None:
    host = browser.new_context()
    try:
        _claim(host, server, "Ann")
        body = {
            "rows": 4,
            "cols": 5,
            "mode": "simple",
            "kind": "online",
            "public": True,
            "clock": {"initial": 300, "increment": 2},
            "seats": [{"name": "x"}, {"name": "y"}],
        }
        created = host.request.post(f"{server.url}/api/games", data=body).json()
    finally:
        host.close()
    _claim(context, server, "Bao")
    page = _page(context)
    page.goto(f"{server.url}/#/lobby")
    lobby = page.get_by_test_id("lobby")
    expect(lobby).to_contain_text("4x5")
    expect(lobby).to_contain_text("5 min + 2 s a move")
    expect(lobby).to_contain_text("Ann (0.0, provisional)")  # a new player's rating
    _establish(server)  # as if both had met enough established players: the game counts
    page.click(".join")
    expect(page.locator("#join-name")).to_have_value("Bao")
    expect(page.locator("#join-name")).to_be_disabled()
    page.click("#take-seat")
    expect(page.get_by_test_id("board")).to_be_visible()
    held = page.evaluate("JSON.parse(localStorage.getItem('sos.tokens'))")[created["id"]]
    # Two moves each (a game resigned sooner is not rated), then Ann resigns.
    _resign(server, created["id"], created["token"], *held, moves=QUIET_MOVES)
    expect(page.locator("#result")).to_be_visible()
    deadline = time.monotonic() + 20
    while not server.get("/api/players")["players"] and time.monotonic() < deadline:
        time.sleep(0.1)  # polling for an event: the rating, done in the background
    page.click("#nav-players")
    board = page.get_by_test_id("leaderboard")
    expect(board.locator("tbody tr")).to_have_count(2)
    expect(board.locator("tbody tr").first).to_contain_text("Bao")
    expect(board.locator("tbody tr").nth(1)).to_contain_text("Ann")
    expect(page.locator("#computer-ratings tbody tr")).to_have_count(5)
    assert page.evaluate(CONTRAST) == []
    board.get_by_role("link", name="Bao").click()
    chart = page.get_by_test_id("rating-chart")
    expect(chart).to_be_visible()
    expect(chart.locator(".rating-point")).to_have_count(1)
    expect(page.locator("#player-rating")).to_contain_text("after 1 rated game")
    expect(page.locator("#player-provisional")).to_have_count(0)
    expect(page.locator("#player-games")).to_contain_text("won")
    box = chart.bounding_box()
    assert box is not None and box["x"] >= 0
    assert box["x"] + box["width"] <= page.viewport_size["width"]
    assert page.evaluate(CONTRAST) == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(
        path=str(ARTIFACTS / f"player-{page.viewport_size['width']}.png"), full_page=True
    )
    assert page.errors == []


def test_an_aborted_game_is_not_a_loss_on_the_players_page(
    context: Any, server: LiveServer
) -> None:
    _claim(context, server, "Dan")
    body = {"rows": 3, "cols": 3, "kind": "online", "seats": [{"name": "x"}, {"name": "y"}]}
    created = context.request.post(f"{server.url}/api/games", data=body).json()
    with connect(f"ws://127.0.0.1:{server.port}/ws/games/{created['id']}") as socket:
        socket.send(json.dumps({"v": 1, "type": "hello", "token": created["token"]}))
        socket.send(json.dumps({"v": 1, "type": "abort"}))
        for _ in range(20):
            message = json.loads(socket.recv(timeout=20))
            assert message["type"] != "error", message
            if message["type"] == "state" and message["game"]["result"] is not None:
                break
    page = _page(context)
    page.goto(f"{server.url}/#/players/Dan")
    games = page.locator("#player-games li")
    expect(games).to_have_count(1)
    expect(games.first).to_contain_text("aborted")
    expect(games.first).not_to_contain_text("lost")
    assert page.errors == []


def test_a_new_password_and_logging_out_everywhere_from_ones_own_page(
    browser: Any, context: Any, server: LiveServer
) -> None:
    _claim(context, server, "Ann")
    elsewhere = browser.new_context()  # another browser of Ann's
    try:
        login = {"name": "Ann", "password": "a good password"}
        assert elsewhere.request.post(f"{server.url}/api/session", data=login).status == 200
        page = _page(context)
        page.goto(f"{server.url}/#/players/Ann")
        panel = page.locator("#account-panel")
        expect(panel).to_be_visible()
        page.fill("#password-current", "not the password")
        page.fill("#password-new", "a new password")
        page.click("#password-button")
        expect(page.locator("#account-status")).to_have_text("Wrong name or password.")
        page.fill("#password-current", "a good password")
        page.click("#password-button")
        expect(page.locator("#account-status")).to_have_text(
            "Password changed; you are now logged out everywhere else."
        )
        other = elsewhere.request.get(f"{server.url}/api/session").json()
        assert other == {"player": None}  # the other browser's session ended
        page.reload()
        expect(page.locator("#me")).to_have_text("Logged in as Ann")  # this one goes on
        assert page.evaluate(CONTRAST) == []
        page.click("#logout-everywhere")
        expect(page.locator("#login-link")).to_be_visible()
        expect(panel).to_have_count(0)
        page.reload()
        expect(page.locator("#login-link")).to_be_visible()
    finally:
        elsewhere.close()
    assert page.errors == []


def test_a_private_game_stays_out_of_the_lobby(context: Any, server: LiveServer) -> None:
    _claim(context, server, "Ann")
    body = {"rows": 3, "cols": 3, "kind": "online", "seats": [{"name": "x"}, {"name": "y"}]}
    created = context.request.post(f"{server.url}/api/games", data=body).json()
    page = _page(context)
    page.goto(f"{server.url}/#/lobby")
    expect(page.get_by_test_id("lobby")).to_have_text("No public games are waiting for players.")
    page.goto(f"{server.url}/#/join/{created['id']}/1")
    expect(page.locator("#invite-missing")).to_be_visible()
    assert page.errors == []


@pytest.mark.parametrize("language", ["vi", "hi"])
def test_the_players_pages_have_every_glyph(
    browser: Any, server: LiveServer, language: str
) -> None:
    for name, viewport in SIZES.items():
        context = browser.new_context(viewport=viewport)
        try:
            _claim(context, server, f"Ann {name}")
            body = {"rows": 3, "cols": 3, "kind": "online", "public": True,
                    "seats": [{"name": "x"}, {"name": "y"}]}  # fmt: skip
            context.request.post(f"{server.url}/api/games", data=body)
            page = context.new_page()
            page.goto(server.url)
            page.evaluate(f"localStorage.setItem('sos.lang', {json.dumps(language)})")
            page.reload()
            for view in ("login", "lobby", "players", f"players/Ann {name}"):
                page.goto(f"{server.url}/#/{view}")
                expect(page.locator("html")).to_have_attribute("lang", language)
                expect(page.locator("#view h1").first).to_be_visible()
                assert page.evaluate(MISSING_GLYPHS) == {"works": True, "missing": []}, view
                ARTIFACTS.mkdir(exist_ok=True)
                shot = f"{language}-{view.split('/')[0]}-{name}.png"
                page.screenshot(path=str(ARTIFACTS / shot), full_page=True)
        finally:
            context.close()


def test_a_name_with_a_slash_has_its_page(context: Any, server: LiveServer) -> None:
    _claim(context, server, "Tom/Jerry")
    page = _page(context)
    page.goto(server.url)
    page.click("#me")
    expect(page.locator("h1")).to_contain_text("Tom/Jerry")
    expect(page.locator("#player-games")).to_be_visible()
    assert page.errors == []
