"""A tournament's game in Debian's chromium: the line naming its tournament with what a win
is worth to the player, the Berserk button halving their clock (and the seat marked), and,
once the game is over, the player's new score and the way back to the tournament; and the
tournament on the player's page."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    DESKTOP,
    LiveServer,
    browser_fixture,
)

pytest.importorskip("playwright")
pytest.importorskip("websockets")

from playwright.sync_api import expect
from websockets.sync.client import connect

from sosgame.web.people.accounts import COOKIE


@pytest.fixture(name="server")
def server_fixture(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "games.sqlite3", env={"SOSGAME_TOURNAMENT_TICK_SECONDS": "0.1"})
    live.start()
    try:
        yield live
    finally:
        live.stop()


def _arena(context: Any, server: LiveServer) -> str:
    """A 3x3 Arena of a minute a player, started now: its id."""
    body = {
        "kind": "arena",
        "name": "Test Arena",
        "rows": 3,
        "cols": 3,
        "mode": "general",
        "clock": {"initial": 60, "increment": 0},
        "rated": False,
        "starts_at": int(time.time() * 1000),
        "minutes": 5,
    }
    made = context.request.post(f"{server.url}/api/tournaments", data=body)
    assert made.status == 201, made.text()
    tournament_id: str = made.json()["id"]
    return tournament_id


def _paired(server: LiveServer, session: str) -> dict[str, Any]:
    """What the account's lobby socket is told of its tournament game (as a page would be)."""
    headers = {"cookie": f"{COOKIE}={session}"}
    with connect(f"ws://127.0.0.1:{server.port}/ws/lobby", additional_headers=headers) as lobby:
        lobby.send(json.dumps({"v": 1, "type": "hello"}))
        lobby.send(json.dumps({"v": 1, "type": "ping"}))
        while (message := json.loads(lobby.recv(timeout=20)))["type"] != "pong":
            if message["type"] == "paired":
                found: dict[str, Any] = message
                return found
    raise AssertionError("not paired")


def _session(context: Any) -> str:
    found: str = next(c["value"] for c in context.cookies() if c["name"] == COOKIE)
    return found


def _resign(server: LiveServer, paired: dict[str, Any]) -> None:
    """The paired player resigns their game."""
    with connect(f"ws://127.0.0.1:{server.port}/ws/games/{paired['game']}") as socket:
        socket.send(json.dumps({"v": 1, "type": "hello", "token": paired["token"]}))
        while True:
            message = json.loads(socket.recv(timeout=20))
            if message["type"] != "state":
                continue
            if message["game"]["status"] == "finished":
                return
            resign = {"v": 1, "type": "resign", "ply": message["game"]["ply"]}
            socket.send(json.dumps(resign))


def test_a_tournament_game_says_what_a_win_is_worth_and_berserk_halves_the_clock(
    browser: Any, server: LiveServer
) -> None:
    contexts = [browser.new_context(viewport=DESKTOP, locale="en-US") for _ in range(2)]
    try:
        for context, name in zip(contexts, ("Ann", "Bao"), strict=True):
            claimed = context.request.post(
                f"{server.url}/api/players", data={"name": name, "password": "a good password"}
            )
            assert claimed.status == 201, claimed.text()
        ann = contexts[0]
        tournament_id = _arena(ann, server)
        for context in contexts:
            joined = context.request.post(f"{server.url}/api/tournaments/{tournament_id}/join")
            assert joined.status == 200, joined.text()
        for _ in range(200):
            if server.get(f"/api/tournaments/{tournament_id}")["games"]:
                break
            time.sleep(0.05)
        # Bao pauses, so that the game's end pairs nobody again and the page stays on it.
        paused = contexts[1].request.post(f"{server.url}/api/tournaments/{tournament_id}/pause")
        assert paused.status == 200, paused.text()
        paired, theirs = (_paired(server, _session(context)) for context in contexts)
        game, seat = paired["game"], paired["seat"]
        tokens = json.dumps({game: [paired["token"]]})
        ann.add_init_script(f"localStorage.setItem('sos.tokens', {json.dumps(tokens)})")
        page = ann.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{server.url}/#/game/{game}")

        link = page.locator("#tournament-link")
        expect(link).to_have_text("Tournament: Test Arena")
        expect(link).to_have_attribute("href", f"#/tournament/{tournament_id}")
        worth = page.locator("#tournament-worth")
        # A 3x3 board: a berserk win counts once the game has half its 9 cells, 4 moves.
        expect(worth).to_have_text(
            "A win is worth 2 points now."
            " +1 if you go berserk and the game lasts at least 4 moves in all."
        )
        clock = page.locator(f'#seats .clock[data-seat="{seat}"]')
        expect(clock).to_have_text("1:00")
        page.click("#berserk")
        expect(clock).to_have_text("0:30")
        expect(page.locator("#berserk")).to_have_count(0)  # once
        mark = page.locator(f'.seat-bar .berserk-mark[data-seat="{seat}"]')
        expect(mark).to_have_attribute(
            "aria-label", "Ann went berserk: half the time, no increment"
        )
        expect(page.locator(f'.seat-bar .berserk-mark[data-seat="{1 - seat}"]')).to_have_count(0)
        expect(worth).to_contain_text("+1 for going berserk, if the game lasts at least 4 moves")

        _resign(server, theirs)
        back = page.locator("#tournament-back")
        expect(back).to_have_text("Back to the tournament")
        expect(back).to_have_attribute("href", f"#/tournament/{tournament_id}")
        # Read again at the end: the won game counts (2, the berserk none: too short).
        expect(worth).to_have_text("Your score in the tournament: 2 (rank 1 of 2).")
        # The player's page lists the tournament, and names it by the game.
        page.goto(f"{server.url}/#/players/Ann")
        entry = page.locator(f'#player-tournaments li[data-tournament="{tournament_id}"]')
        expect(entry.locator("a")).to_have_text("Test Arena")
        expect(entry).to_contain_text("Rank 1 of 2, score 2")
        expect(page.locator("#player-games .game-tournament").first).to_have_text(
            "Tournament: Test Arena"
        )
        assert errors == []
    finally:
        for context in contexts:
            context.close()
