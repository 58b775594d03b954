"""A tournament in the browser: an Arena made through the form, joined by two players, its
countdown and standings, the call to its game and the board, then its podium once it is over,
in Vietnamese too, and axe on its page. The server runs Arenas 60 times faster than the wall
clock, so that one of five minutes lasts five seconds."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sos_live_server import LiveServer, browser_fixture  # noqa: F401 (fixtures)

pytest.importorskip("playwright")

from playwright.sync_api import expect

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
PASSWORD = "a good password"


@pytest.fixture(name="server")
def fast_server_fixture(tmp_path: Path) -> Iterator[LiveServer]:
    env = {
        "SOSGAME_TOURNAMENT_SPEED": "60",
        "SOSGAME_TOURNAMENT_TICK_SECONDS": "0.2",
        "SOSGAME_TOURNAMENT_SCHEDULE": "[]",
    }
    live = LiveServer(tmp_path / "games.sqlite3", env)
    live.start()
    try:
        yield live
    finally:
        live.stop()


def signed_up(browser: Any, server: LiveServer, name: str) -> Any:
    """A page in a context of its own (bypassing the page's policy for axe's script), logged
    in as a new player ``name``."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="en-US", bypass_csp=True
    )
    context.set_default_timeout(30_000)
    answer = context.request.post(
        f"{server.url}/api/players", data={"name": name, "password": PASSWORD}
    )
    assert answer.ok, answer.text()
    return context.new_page()


def test_an_arena_made_joined_played_and_its_podium(browser: Any, server: LiveServer) -> None:
    ann, bao = signed_up(browser, server, "Ann"), signed_up(browser, server, "Bao")
    errors: list[str] = []
    ann.on("pageerror", lambda error: errors.append(str(error)))
    ann.goto(f"{server.url}/#/")
    expect(ann.locator("#tournaments-panel")).to_contain_text("None for now.")
    ann.click("#nav-tournaments")
    expect(ann.locator("h1")).to_have_text("Tournaments")
    ann.fill("#tournament-name", "Quick Arena")
    ann.select_option("#tournament-rows", "3")
    ann.select_option("#tournament-cols", "3")
    ann.fill("#tournament-clock-minutes", "1")
    ann.fill("#tournament-minutes", "5")
    # Eight seconds from now, in the page's own time zone, as a person would type it.
    start = ann.evaluate(
        "() => { const at = new Date(Date.now() + 8000 - new Date().getTimezoneOffset() * 60000);"
        " return at.toISOString().slice(0, 19); }"
    )
    ann.fill("#tournament-start-at", start)
    ann.uncheck("#tournament-rated")
    ann.click("#tournament-create")
    expect(ann.locator("h1")).to_have_text("Quick Arena")
    tournament_id = ann.url.rsplit("/", 1)[1]
    expect(ann.locator("#tournament-clock")).to_contain_text("Starts in 0:0")
    expect(ann.locator("#tournament-settings")).to_contain_text("Arena · 5 minutes · 3x3")
    ann.click("#tournament-join")
    expect(ann.locator("#tournament-me")).to_have_text("You are in.")
    joined = bao.request.post(f"{server.url}/api/tournaments/{tournament_id}/join")
    assert joined.ok, joined.text()
    # The standings follow without a reload.
    expect(ann.locator("#standings tbody tr")).to_have_count(2)
    expect(ann.locator("#standings")).to_contain_text("Bao")
    # The start pairs them: a countdown, then the board.
    call = ann.locator("#tournament-call")
    expect(call).to_contain_text("Your game in Quick Arena starts in")
    expect(ann.locator("#tournament-call-go")).to_be_focused()
    ann.wait_for_url("**/#/game/*")
    expect(ann.locator("#board")).to_be_visible()
    expect(call).to_have_count(0)
    # Five minutes at sixty times: over in five seconds, with a podium above the standings.
    ann.goto(f"{server.url}/#/tournament/{tournament_id}")
    expect(ann.locator("#podium li")).to_have_count(2, timeout=30_000)
    expect(ann.locator("#tournament-status")).to_have_text("Finished")
    expect(ann.locator("#podium")).to_contain_text("Ann")
    expect(ann.locator("#podium")).to_contain_text("Bao")
    expect(ann.locator("#standings tbody tr")).to_have_count(2)
    ann.select_option("#language", "vi")
    expect(ann.locator("#podium-title")).to_have_text("Bục trao giải")
    expect(ann.locator("#standings-title")).to_have_text("Bảng xếp hạng")
    if AXE.exists():
        ann.add_script_tag(path=str(AXE))
        found = ann.evaluate("async () => (await axe.run(document)).violations")
        assert [f"{item['id']}: {node['target']}" for item in found for node in item["nodes"]] == []
    assert errors == []
    ann.context.close()
    bao.context.close()
