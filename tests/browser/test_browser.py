"""The browser app driven through Debian's chromium: clicks, keys, seats, reloads, restarts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    ARTIFACTS,
    LiveServer,
    browser_fixture,
    click_move,
    module_server_fixture,
    page_fixture,
)

pytest.importorskip("playwright")

from playwright.sync_api import expect

from sosgame import Game
from sosgame.record import Record

GAME = ["Sa1", "Ob1", "Sc1", "Sa2", "Ob2", "Sc2", "Oa3", "Ob3", "Oc3"]


def start_game(page: Any, server: LiveServer, seats: list[tuple[str, str]], **form: str) -> str:
    page.goto(server.url)
    expect(page.locator("#new-game")).to_be_visible()
    page.select_option("#seat-count", str(len(seats)))
    for number, (name, player) in enumerate(seats):
        page.fill(f"#seat-{number}-name", name)
        page.select_option(f"#seat-{number}-player", player)
    # The tests' games are 3x3 unless they say otherwise (the form starts at 5x5).
    for field, value in {"rows": "3", "cols": "3", **form}.items():
        page.select_option(f"#{field}", value)
    page.click("#start")
    page.wait_for_url(re.compile(r"#/game/"))
    expect(page.locator("#board")).to_be_visible()
    match = re.search(r"#/game/([\w-]+)", page.url)
    assert match, page.url
    return match.group(1)


def test_a_whole_local_game_by_clicks(page: Any, server: LiveServer) -> None:
    game_id = start_game(page, server, [("Ann", "human"), ("Bao", "human")])
    expect(page.locator("#status")).to_have_text("Ann to move.")
    for number, move in enumerate(GAME):
        click_move(page, move)
        expect(page.locator("#moves .move")).to_have_count(number + 1)
        if move == "Sc1":
            expect(page.locator("#extra-turn")).to_contain_text("Ann")
            expect(page.locator(".lines line")).to_have_count(1)
    expect(page.locator("#result")).to_be_visible()
    state = server.get(f"/api/games/{game_id}")
    winner = state["seats"][state["result"]["winners"][0]]["name"]
    expect(page.locator("#result")).to_contain_text(f"{winner} wins")
    expect(page.locator(".lines line")).to_have_count(len(state["lines"]))
    scores = page.locator("#seats .score")
    expect(scores).to_have_text([str(score) for score in state["scores"]])
    for index, (seat, score) in enumerate(zip(state["seats"], state["scores"], strict=True)):
        points = "point" if score == 1 else "points"  # the catalog's plural forms
        expect(scores.nth(index)).to_have_attribute(
            "aria-label", f"{seat['name']}: {score} {points}"
        )
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "final-board.png"), full_page=True)
    page.click("#replay")
    expect(page.locator("#replay-ply")).to_have_text(f"Move {len(GAME)} of {len(GAME)}")
    page.click("#replay-first")
    expect(page.locator(".cell.filled")).to_have_count(0)
    page.click("#replay-next")
    expect(page.locator(".cell.filled")).to_have_count(1)


def test_undo_redo_and_keyboard_play(page: Any, server: LiveServer) -> None:
    start_game(page, server, [("Ann", "human"), ("Bao", "human")])
    page.locator('.cell[data-cell="a1"]').focus()
    page.keyboard.press("s")
    expect(page.locator('.cell[data-cell="a1"]')).to_have_text("S")
    page.locator('.cell[data-cell="a1"]').focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("o")
    expect(page.locator('.cell[data-cell="b1"]')).to_have_text("O")
    expect(page.locator("#status")).to_have_text("Ann to move.")
    page.click("#undo")
    expect(page.locator('.cell[data-cell="b1"]')).to_have_text("")
    page.click("#redo")
    expect(page.locator('.cell[data-cell="b1"]')).to_have_text("O")
    expect(page.locator('.cell[data-cell="c1"]')).to_have_attribute("aria-label", "c1, empty")


def test_a_game_against_a_computer_seat(page: Any, server: LiveServer) -> None:
    pytest.importorskip("sosgame.ai")
    start_game(page, server, [("Ann", "human"), ("Robot", "easy")])
    click_move(page, "Sb2")
    expect(page.locator('#seats li[data-seat="1"]')).to_contain_text("thinking")
    expect(page.locator(".cell.filled")).to_have_count(2, timeout=20_000)
    # The one human seat is this browser's: it reads "you".
    expect(page.locator("#status")).to_have_text("Your turn.")


def test_an_online_game_with_a_spectator_reload_and_restart(
    browser: Any, server: LiveServer
) -> None:
    contexts = [browser.new_context() for _ in range(3)]
    ann, bao, watcher = (context.new_page() for context in contexts)
    try:
        game_id = start_game(ann, server, [("Ann", "human"), ("Bao", "human")], kind="online")
        expect(ann.locator("#status")).to_have_text("Waiting for every player to take a seat.")
        invite = ann.locator("#invite-1").input_value()
        spectate = ann.locator("#spectate").input_value()
        bao.goto(invite)
        bao.fill("#join-name", "Bao <b>")
        bao.click("#take-seat")
        expect(bao.locator("#board")).to_be_visible()
        watcher.goto(spectate)
        expect(ann.locator("#spectators")).to_have_text("Watching: 1")
        expect(ann.locator("#status")).to_have_text("Your turn.")
        expect(watcher.locator("#status")).to_have_text("Ann to move.")
        expect(ann.locator('#seats li[data-seat="1"]')).to_contain_text("Bao <b>")
        expect(ann.locator('#seats li[data-seat="1"] .presence')).to_have_text("connected")
        click_move(ann, "Sa1")
        for page in (bao, watcher):
            expect(page.locator('.cell[data-cell="a1"]')).to_have_text("S")
        expect(watcher.locator("#pick-S")).to_have_count(0)
        watcher.locator('.cell[data-cell="b2"]').click()
        expect(watcher.locator("#picker button")).to_have_count(0)
        bao.reload()
        expect(bao.locator("#status")).to_have_text("Your turn.")
        expect(watcher.locator("#status")).to_have_text("Bao <b> to move.")
        click_move(bao, "Ob1")
        expect(ann.locator('.cell[data-cell="b1"]')).to_have_text("O")
        server.restart()
        expect(ann.locator("#notice")).to_be_hidden(timeout=15_000)
        expect(ann.locator("#status")).to_have_text("Your turn.", timeout=15_000)
        click_move(ann, "Sc1")
        for page in (bao, watcher):
            expect(page.locator('.cell[data-cell="c1"]')).to_have_text("S", timeout=15_000)
            expect(page.locator("#extra-turn")).to_contain_text("Ann")
        assert server.get(f"/api/games/{game_id}")["actions"] == ["Sa1", "Ob1", "Sc1"]
    finally:
        for context in contexts:
            context.close()


def test_the_language_switch(page: Any, server: LiveServer) -> None:
    page.goto(server.url)
    expect(page.locator("#new-game-title")).to_have_text("New game")
    page.select_option("#language", "vi")
    expect(page.locator("#new-game-title")).to_have_text("Ván mới")
    expect(page.locator("#start")).to_have_text("Bắt đầu ván")
    page.select_option("#language", "hi")
    expect(page.locator("#new-game-title")).to_have_text("नया खेल")
    page.reload()
    expect(page.locator("#start")).to_have_text("खेल शुरू करें")
    expect(page.locator("html")).to_have_attribute("lang", "hi")
    page.click("#start")
    expect(page.locator("#status")).to_contain_text("की बारी")


def test_an_uploaded_record_continues_in_the_browser(
    page: Any, server: LiveServer, tmp_path: Path
) -> None:
    record = Record.from_game(Game(3, 3, moves=["Sa1", "Ob1", "Sc1"]), players=["Ann", "Bao"])
    path = tmp_path / "game.json"
    path.write_text(record.to_json(), encoding="utf-8")
    page.goto(server.url)
    page.set_input_files("#upload", str(path))
    expect(page.locator('.cell[data-cell="c1"]')).to_have_text("S")
    expect(page.locator("#status")).to_have_text("Ann to move again: extra turn!")
    expect(page.locator(".lines line")).to_have_count(1)
    click_move(page, "Oc3")
    expect(page.locator("#moves .move")).to_have_count(4)


def test_a_move_made_while_disconnected_is_sent_when_the_connection_is_back(
    page: Any, server: LiveServer
) -> None:
    game_id = start_game(page, server, [("Ann", "human"), ("Bao", "human")])
    click_move(page, "Sa1")
    server.kill()
    expect(page.locator("#notice")).to_contain_text("Reconnecting")
    page.locator('.cell[data-cell="b2"]').click()
    page.click("#pick-O")
    expect(page.locator("#notice")).to_contain_text("Ob2 will be sent")
    server.start()
    expect(page.locator('.cell[data-cell="b2"]')).to_have_text("O", timeout=15_000)
    expect(page.locator("#notice")).to_be_hidden()
    assert server.get(f"/api/games/{game_id}")["actions"] == ["Sa1", "Ob2"]


def test_a_rematch_reaches_the_other_player_and_a_second_seat_is_kept(
    browser: Any, server: LiveServer
) -> None:
    contexts = [browser.new_context() for _ in range(2)]
    ann, bao = (context.new_page() for context in contexts)
    try:
        game_id = start_game(
            ann, server, [("Ann", "human"), ("Bao", "human"), ("Chi", "human")], kind="online"
        )
        bao_link = ann.locator("#invite-1").input_value()
        chi_link = ann.locator("#invite-2").input_value()
        assert chi_link.rsplit("/", 1)[1] not in repr(server.get(f"/api/games/{game_id}"))
        bao.goto(bao_link)
        bao.click("#take-seat")
        expect(bao.locator("#board")).to_be_visible()
        # The same browser takes a second seat through the other invite: it keeps both.
        bao.goto(chi_link)
        bao.click("#take-seat")
        expect(bao.locator("#status")).to_have_text("Ann to move.")
        spectator_join = f"{server.url}/#/join/{game_id}/2"
        ann.goto(spectator_join)
        # A browser holding a seat of the game is sent on to the game from a taken seat's
        # invite. Only the hash changes, so wait for the game's view before playing in it.
        expect(ann).to_have_url(re.compile(f"#/game/{game_id}$"))
        expect(ann.locator("#take-seat")).to_have_count(0)
        expect(ann.locator("#status")).to_have_text("Your turn.")
        click_move(ann, "Sa1")
        click_move(bao, "Ob1")
        click_move(bao, "Oc1")
        ann.once("dialog", lambda dialog: dialog.accept())
        ann.click("#resign")
        # This browser plays two of the three seats: each reads "you".
        expect(bao.locator("#status")).to_have_text("Your turn.")
        bao.once("dialog", lambda dialog: dialog.accept())
        bao.click("#resign")
        expect(bao.locator("#result")).to_be_visible()
        # The rematch is an offer, made once every player has accepted; the seats rotate.
        bao.click("#rematch")
        expect(ann.locator("#offer-rematch-standing")).to_contain_text("Bao offers a rematch.")
        ann.click("#accept-rematch")
        # Both players' pages open the rematch by themselves.
        for page in (ann, bao):
            expect(page).not_to_have_url(re.compile(f"#/game/{game_id}$"))
        expect(ann.locator("#status")).to_have_text("Bao to move.")
        expect(bao.locator("#status")).to_have_text("Your turn.")
        click_move(bao, "Sb2")
        expect(ann.locator('.cell[data-cell="b2"]')).to_have_text("S")
    finally:
        for context in contexts:
            context.close()
