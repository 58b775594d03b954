"""Challenges in two browsers: made from the lobby's form, seen live on a page that lists no
challenges (a prompt read out as it comes), accepted (both land in the game), declined with a
reason the challenger reads in their own language, withdrawn, refused by the player's limits
(set on their own page); the leaderboard's Bots tab; the prompt on a phone."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    LiveServer,
    browser_fixture,
    server_fixture,
)
from test_browser_live_lobby import _claim, _contexts, _game_id

pytest.importorskip("playwright")

from playwright.sync_api import expect

WIDE = "() => document.scrollingElement.scrollWidth - window.innerWidth"


@pytest.fixture
def two(browser: Any) -> Iterator[list[Any]]:
    pages = _contexts(browser, 2)
    yield pages
    for page in pages:
        page.context.close()


@pytest.fixture
def phones(browser: Any) -> Iterator[list[Any]]:
    pages = _contexts(browser, 2, 390, 844)
    yield pages
    for page in pages:
        page.context.close()


def _challenge(page: Any, server: LiveServer, name: str, **fields: str) -> None:
    page.goto(f"{server.url}/#/lobby")
    page.fill("#challenge-name", name)
    for field, value in fields.items():
        page.fill(f"#challenge-{field}", value)
    page.click("#challenge-send")


def test_a_challenge_is_seen_on_any_page_accepted_and_both_land_in_the_game(
    two: list[Any], server: LiveServer
) -> None:
    ann, bao = two
    _claim(ann, server, "Ann")
    _claim(bao, server, "Bao")
    bao.goto(f"{server.url}/#/players")  # a page without the challenges' list
    expect(bao.locator("#leaderboard")).to_be_visible()
    _challenge(ann, server, "Bao", rows="6", cols="6")
    expect(ann.locator("#challenges li.sent")).to_contain_text("Waiting for Bao")
    prompt = bao.locator("#challenge-prompt")
    expect(prompt).to_be_visible()
    expect(bao.locator("#challenge-prompt-live")).to_contain_text("From Ann (0.0, provisional)")
    # Read out by the page's one live region.
    expect(bao.locator("#announcer")).to_contain_text("From Ann (0.0, provisional): 6x6")
    expect(prompt.locator("li.received")).to_contain_text("6x6 general")
    expect(bao).to_have_title("A challenge! · SOS")
    # Keyboard: Tab reaches Accept, and Enter takes the challenge.
    prompt.locator(".challenge-accept").focus()
    bao.keyboard.press("Enter")
    game = _game_id(bao)
    assert _game_id(ann) == game
    expect(ann.locator("#seats")).to_contain_text("you")
    expect(bao.locator("#seats")).to_contain_text("you")
    expect(prompt).to_be_hidden()
    assert ann.errors == [] and bao.errors == []


def test_a_decline_s_reason_is_read_by_the_challenger_in_their_language(
    two: list[Any], server: LiveServer
) -> None:
    ann, bao = two
    _claim(ann, server, "Ann")
    _claim(bao, server, "Bao")
    bao.goto(f"{server.url}/#/puzzles")
    ann.goto(f"{server.url}/#/lobby")
    ann.select_option("#language", "vi")
    # The lobby is drawn again in the new language once its list is read: the form is filled
    # only after that (a form filled before would be replaced empty).
    expect(ann.locator("#challenge-send")).to_have_text("Thách đấu")
    _challenge(ann, server, "Bao")
    received = bao.locator("#challenge-prompt li.received")
    expect(received).to_have_count(1)
    received.locator(".challenge-reason").select_option("tooFast")
    received.locator(".challenge-decline").click()
    expect(received).to_have_count(0)
    expect(ann.locator("#challenge-status")).to_have_text(
        "Bao đã từ chối lời thách đấu của bạn: Thời gian này quá nhanh với tôi,"
        " xin hãy thách đấu lại với ván chậm hơn."
    )
    expect(ann.locator("#challenges li")).to_have_count(0)
    assert ann.errors == [] and bao.errors == []


def test_a_withdrawn_challenge_is_said_to_the_challenged_and_survives_their_reload(
    two: list[Any], server: LiveServer
) -> None:
    ann, bao = two
    _claim(ann, server, "Ann")
    _claim(bao, server, "Bao")
    bao.goto(f"{server.url}/#/players")
    _challenge(ann, server, "Bao")
    received = bao.locator("#challenge-prompt li.received")
    expect(received).to_have_count(1)
    bao.reload()
    expect(received).to_have_count(1)  # listed again on the new page
    ann.locator("#challenges li.sent .challenge-cancel").click()
    expect(received).to_have_count(0)
    expect(bao.locator("#challenge-prompt-live")).to_have_text("Ann withdrew the challenge.")
    bao.click("#challenge-prompt-close")
    expect(bao.locator("#challenge-prompt")).to_be_hidden()
    assert ann.errors == [] and bao.errors == []


def test_a_challenger_who_reloads_sees_their_challenge_again_and_plays_it(
    two: list[Any], server: LiveServer
) -> None:
    ann, bao = two
    _claim(ann, server, "Ann")
    _claim(bao, server, "Bao")
    bao.goto(f"{server.url}/#/players")
    _challenge(ann, server, "Bao")
    sent = ann.locator("#challenges li.sent")
    expect(sent).to_contain_text("Waiting for Bao")
    received = bao.locator("#challenge-prompt li.received")
    expect(received).to_have_count(1)
    ann.reload()
    expect(sent).to_contain_text("Waiting for Bao")  # theirs again, on the new page
    expect(received).to_have_count(1)  # never withdrawn meanwhile
    received.locator(".challenge-accept").click()
    game = _game_id(bao)
    assert _game_id(ann) == game
    expect(ann.locator("#seats")).to_contain_text("you")
    assert ann.errors == [] and bao.errors == []


def test_limits_set_on_one_s_page_refuse_a_challenge_with_the_reason(
    two: list[Any], server: LiveServer
) -> None:
    ann, bao = two
    _claim(ann, server, "Ann")
    _claim(bao, server, "Bao")
    bao.goto(f"{server.url}/#/players/Bao")
    bao.select_option("#limits-accept", "everyone")
    bao.fill("#limits-max-side", "6")
    bao.click("#limits-save")
    expect(bao.locator("#limits-status")).to_contain_text("Saved")
    _challenge(ann, server, "Bao", rows="8", cols="8")
    expect(ann.locator("#challenge-status")).to_have_text(
        "Bao does not take this challenge: I'm not accepting challenges on this board or in"
        " this mode."
    )
    bao.reload()
    expect(bao.locator("#limits-max-side")).to_have_value("6")
    bao.select_option("#limits-accept", "nobody")
    bao.click("#limits-save")
    expect(bao.locator("#limits-status")).to_contain_text("Saved")
    # From Bao's page: the same refusal, now for any game.
    ann.goto(f"{server.url}/#/players/Bao")
    ann.click("#challenge-send")
    expect(ann.locator("#challenge-status")).to_contain_text("not accepting challenges at the")
    assert ann.errors == [] and bao.errors == []


def test_the_leaderboard_has_people_and_bots_tabs(two: list[Any], server: LiveServer) -> None:
    page = two[0]
    _claim(page, server, "Ann")
    with sqlite3.connect(server.database.removeprefix("sqlite:///")) as db:
        db.execute("UPDATE players SET mu = 30, sigma = 2, games = 30, opponents = 30")
        db.executemany(
            "INSERT INTO players (key, name, password_hash, mu, sigma, games, created_ms,"
            " opponents, bot) VALUES (?, ?, '-', ?, 2, 30, 0, 30, 1)",
            [("robo", "Robo", 28.0), ("bolt", "Bolt", 31.0)],
        )
    page.goto(f"{server.url}/#/players")
    board = page.locator("#leaderboard tbody")
    expect(board.locator("tr")).to_have_count(1)
    expect(board).to_contain_text("Ann")
    expect(page.locator("#tab-person")).to_have_attribute("aria-selected", "true")
    page.click("#tab-bot")
    expect(board.locator("tr")).to_have_count(2)
    expect(board.locator("tr").first).to_contain_text("BOT Bolt")
    expect(board).not_to_contain_text("Ann")
    expect(page.locator("#tab-bot")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#tab-bot")).to_be_focused()
    page.keyboard.press("ArrowLeft")
    expect(board).to_contain_text("Ann")
    assert page.errors == []


def test_the_prompt_and_the_form_fit_a_phone(phones: list[Any], server: LiveServer) -> None:
    ann, bao = phones
    _claim(ann, server, "Ann")
    _claim(bao, server, "Bao")
    bao.goto(f"{server.url}/#/players")
    _challenge(ann, server, "Bao")
    prompt = bao.locator("#challenge-prompt")
    expect(prompt.locator("li.received")).to_have_count(1)
    for page in (ann, bao):
        assert page.evaluate(WIDE) <= 0
    box = prompt.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    for button in (".challenge-accept", ".challenge-decline"):
        found = prompt.locator(button).bounding_box()
        assert found is not None and found["x"] + found["width"] <= 390 and found["height"] >= 24
    assert ann.errors == [] and bao.errors == []
