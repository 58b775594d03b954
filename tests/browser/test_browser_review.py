"""The defects a review of the game page found, each shown fixed: the move list's letters, its
scrolling, the analysis page's buttons, marks and table, and the replay's keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    LiveServer,
    browser_fixture,
    click_move,
    desktop_fixture,
    module_server_fixture,
    phone_fixture,
)

pytest.importorskip("playwright")

from playwright.sync_api import expect

from sosgame import Game
from sosgame.record import Record

# A whole 3x3 game with a mistake and a blunder in it.
GAME = ["Sa1", "Ob1", "Sc1", "Sa2", "Ob2", "Sc2", "Oa3", "Ob3", "Oc3"]


def _upload(server: LiveServer, game: Game) -> str:
    record = Record.from_game(game, players=["Ann", "Bao"])
    game_id: str = server.post("/api/records", record.to_dict())["id"]
    return game_id


def _long_game() -> Game:
    """A whole 7x7 game, the first empty cell each time: a move list longer than its box."""
    game = Game(7, 7)
    while not game.is_over:
        game.play(next(iter(game.legal_moves)))
    return game


def _analysed(page: Any, server: LiveServer, game: Game) -> tuple[str, dict[str, Any]]:
    game_id = _upload(server, game)
    page.goto(f"{server.url}/#/analysis/{game_id}")
    expect(page.get_by_test_id("analysis-chart")).to_be_visible(timeout=120_000)
    # The chart shows the moves as they are analysed: wait for the last of them.
    expect(page.get_by_test_id("analysis-progress")).to_have_count(0, timeout=120_000)
    analysis: dict[str, Any] = server.get(f"/api/games/{game_id}/analysis")
    return game_id, analysis


def test_the_move_list_tells_the_letter_o_from_zero(desktop: Any, server: LiveServer) -> None:
    desktop.goto(f"{server.url}/#/replay/{_upload(server, Game(3, 3, moves=GAME))}")
    move = desktop.locator('.move[data-ply="2"]')
    expect(move).to_have_text("Ob1")
    # In a font where "O" and "0" are drawn alike (a monospace one), both are as wide.
    widths = move.evaluate(
        """(node) => {
          const context = document.createElement("canvas").getContext("2d");
          const style = getComputedStyle(node);
          context.font = `${style.fontSize} ${style.fontFamily}`;
          return [context.measureText("O").width, context.measureText("0").width];
        }"""
    )
    assert widths[0] > widths[1] * 1.1, widths


def test_the_side_move_list_shows_its_first_row_whole_after_scrolling(
    desktop: Any, server: LiveServer
) -> None:
    desktop.goto(f"{server.url}/#/replay/{_upload(server, _long_game())}")
    box = desktop.get_by_test_id("moves-box")
    expect(box.locator('.move[data-ply="1"]')).to_be_attached()
    assert box.evaluate("(node) => node.scrollTop") > 0  # scrolled to the end
    desktop.locator("#replay-first").click()
    desktop.locator("#replay-next").click()
    expect(desktop.locator("#replay-ply")).to_contain_text("1")
    box.evaluate("(node) => { node.scrollTop = 0; }")
    first = box.locator("tbody tr").first
    head = box.locator("thead").bounding_box()
    row = first.bounding_box()
    frame = box.bounding_box()
    assert row["y"] >= head["y"] + head["height"] - 0.5, (row, head)
    assert row["y"] >= frame["y"] - 0.5
    # Scrolled down and back by a move's choice, the chosen row is below the header.
    box.evaluate("(node) => { node.scrollTop = node.scrollHeight; }")
    desktop.locator("#replay-next").click()
    chosen = box.locator('.move[data-ply="2"]').bounding_box()
    head = box.locator("thead").bounding_box()
    assert chosen["y"] >= head["y"] + head["height"] - 0.5, (chosen, head)


def test_a_live_move_list_on_a_phone_keeps_its_rows_below_its_header(
    phone: Any, server: LiveServer
) -> None:
    body = {"rows": 6, "cols": 6, "seats": [{"name": "Ann"}, {"name": "Bao"}]}
    created = server.post("/api/games", body)
    phone.goto(server.url)
    phone.evaluate(
        "([id, token]) => localStorage.setItem('sos.tokens', JSON.stringify({[id]: [token]}))",
        [created["id"], created["token"]],
    )
    phone.goto(f"{server.url}/#/game/{created['id']}")
    # Only S: nothing scores, the turn passes each time, and the list outgrows its box.
    for cell in [f"{column}{row}" for row in range(1, 7) for column in "abcdef"][:30]:
        click_move(phone, f"S{cell}")
    box = phone.get_by_test_id("moves-box")
    expect(box.locator('.move[data-ply="30"]')).to_be_attached()
    head = box.locator("thead th").first
    # The newest move is drawn in whole, below the header...
    newest = box.locator('.move[data-ply="30"]').bounding_box()
    header = head.bounding_box()
    frame = box.bounding_box()
    assert newest["y"] >= header["y"] + header["height"] - 0.5, (newest, header)
    assert newest["y"] + newest["height"] <= frame["y"] + frame["height"] + 0.5, (newest, frame)
    # ...and scrolled back to the top, so is the first.
    box.evaluate("(node) => { node.scrollTop = 0; }")
    first = box.locator('.move[data-ply="1"]').bounding_box()
    header = head.bounding_box()
    assert first["y"] >= header["y"] + header["height"] - 0.5, (first, header)


def test_the_mistake_buttons_are_disabled_without_mistakes(
    desktop: Any, server: LiveServer
) -> None:
    game = Game(3, 3, moves=["Oa1", "Ob1"])  # two moves that cost nothing
    _, analysis = _analysed(desktop, server, game)
    assert not any(move["flag"] for move in analysis["moves"])
    expect(desktop.locator("#analysis-prev-flag")).to_be_disabled()
    expect(desktop.locator("#analysis-next-flag")).to_be_disabled()


def test_the_mistake_buttons_step_only_where_a_mistake_is(desktop: Any, server: LiveServer) -> None:
    _, analysis = _analysed(desktop, server, Game(3, 3, moves=GAME))
    flagged = [move["ply"] for move in analysis["moves"] if move["flag"]]
    chart = desktop.get_by_test_id("analysis-chart")
    chart.focus()
    desktop.keyboard.press("End")
    last = analysis["moves"][-1]["ply"]
    expect(chart).to_have_attribute("aria-valuenow", str(last))
    expect(desktop.locator("#analysis-next-flag")).to_be_disabled()
    desktop.locator("#analysis-prev-flag").click()
    expect(chart).to_have_attribute("aria-valuenow", str(max(p for p in flagged if p < last)))


def test_a_played_move_that_was_best_is_marked_best_not_red(
    desktop: Any, server: LiveServer
) -> None:
    _, analysis = _analysed(desktop, server, Game(3, 3, moves=GAME))
    chart = desktop.get_by_test_id("analysis-chart")
    chart.focus()
    desktop.keyboard.press("Home")
    for report in analysis["moves"]:
        expect(chart).to_have_attribute("aria-valuenow", str(report["ply"]))
        played = desktop.locator(f'.cell[data-cell="{report["played"][1:]}"]')
        if report["cost"] == 0:
            expect(played).to_have_class("cell best")  # never "played": red is for a slip
            expect(desktop.locator(".cell.played")).to_have_count(0)
        elif report["cost"]:
            expect(played).to_contain_class("played")
            expect(desktop.locator(".cell.best")).to_have_count(1)
        desktop.keyboard.press("ArrowRight")


def test_the_analysis_table_fits_a_phone_and_scrolls_by_keyboard(
    phone: Any, server: LiveServer
) -> None:
    _analysed(phone, server, Game(3, 3, moves=GAME))
    summary = phone.get_by_test_id("analysis-summary")
    expect(summary.locator("th", has_text="Blunders")).to_be_visible()
    box = phone.locator(".table-box")
    widths = box.evaluate("(node) => [node.scrollWidth, node.clientWidth]")
    assert widths[0] <= widths[1], widths  # nothing to scroll to: "Blunders" whole
    heading = summary.locator("th", has_text="Blunders").bounding_box()
    frame = box.bounding_box()
    assert heading["x"] + heading["width"] <= frame["x"] + frame["width"] + 0.5
    # Were it ever wider, the keyboard reaches it (axe: scrollable-region-focusable).
    expect(box).to_have_attribute("tabindex", "0")
    expect(box).to_have_accessible_name("Players")


def test_the_arrow_keys_step_through_a_replay(desktop: Any, server: LiveServer) -> None:
    desktop.goto(f"{server.url}/#/replay/{_upload(server, Game(3, 3, moves=GAME))}")
    ply = desktop.locator("#replay-ply")
    expect(ply).to_have_text("Move 9 of 9")
    desktop.keyboard.press("ArrowLeft")
    expect(ply).to_have_text("Move 8 of 9")
    desktop.keyboard.press("ArrowLeft")
    expect(ply).to_have_text("Move 7 of 9")
    desktop.keyboard.press("ArrowRight")
    expect(ply).to_have_text("Move 8 of 9")
    expect(desktop.locator('.move[data-ply="8"]')).to_contain_class("current")
    # On the board's grid the arrows move between cells instead.
    desktop.locator('.cell[data-cell="a1"]').focus()
    desktop.keyboard.press("ArrowRight")
    expect(desktop.locator('.cell[data-cell="b1"]')).to_be_focused()
    expect(ply).to_have_text("Move 8 of 9")


def test_an_uploaded_game_against_the_computer_keeps_the_computer(
    desktop: Any, server: LiveServer, tmp_path: Path
) -> None:
    game = Game(3, 3)
    for move in GAME:
        game.play(move)
    tags = {"sosgame.seats": "person,easy"}
    record = Record.from_game(game, players=["Ann", "Bot"], meta={"tags": tags})
    path = tmp_path / "game.json"
    path.write_text(record.to_json(), encoding="utf-8")
    desktop.goto(server.url)
    desktop.set_input_files("#upload", str(path))
    seats = desktop.locator("#seats li")
    expect(seats.nth(0)).to_contain_text("person, you")
    expect(seats.nth(1)).to_contain_text("computer, easy")
    expect(seats.nth(1)).not_to_contain_text("you")
    # Over, against the computer: it stays over (no undo reopens it).
    expect(desktop.locator("#result")).to_be_visible()
    expect(desktop.locator("#undo")).to_be_disabled()
