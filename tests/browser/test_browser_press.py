"""A press on a control is not lost to a redraw that arrives while the finger is down: the
browser sends no click to a button that a redraw took from the page in between."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    LiveServer,
    browser_fixture,
    server_fixture,
)

pytest.importorskip("playwright")

from playwright.sync_api import expect


def test_a_phrase_pressed_while_someone_leaves_is_sent(browser: Any, server: LiveServer) -> None:
    body = {"rows": 4, "cols": 4, "kind": "online", "public": True}
    body["seats"] = [{"name": "Ann"}, {"name": "Bao"}]
    game = server.post("/api/games", body)["id"]
    contexts = [browser.new_context(locale="en-US") for _ in range(2)]
    try:
        me, other = (context.new_page() for context in contexts)
        heard: list[dict[str, Any]] = []
        me.on("websocket", lambda socket: socket.on("framereceived", _keep(heard)))
        me.goto(f"{server.url}/#/game/{game}")
        other.goto(f"{server.url}/#/game/{game}")
        expect(me.locator("#spectators")).to_contain_text("2")
        hello = me.locator('[data-phrase="hello"]')
        box = hello.bounding_box()
        assert box is not None
        me.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        me.mouse.down()
        # The other spectator leaves while the button is held: the page hears of it.
        contexts[1].close()
        deadline = time.monotonic() + 20
        while not any(m.get("type") == "presence" and m.get("spectators") == 1 for m in heard):
            assert time.monotonic() < deadline, "the page never heard that the spectator left"
            me.wait_for_timeout(50)
        me.wait_for_timeout(300)  # the page handles what it heard
        me.mouse.up()
        expect(me.locator("#chat-log li")).to_have_count(1)
        # Once the press is over, the page shows what it heard meanwhile.
        expect(me.locator("#spectators")).to_contain_text("1")
    finally:
        for context in contexts:
            context.close()


def _keep(heard: list[dict[str, Any]]) -> Any:
    def keep(frame: str | bytes) -> None:
        if isinstance(frame, str):
            heard.append(json.loads(frame))

    return keep
