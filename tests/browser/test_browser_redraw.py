"""The game page redraws in place: a move changes a few nodes, not the whole page, and the
nodes that stay (the board's cells, the panels) are the same nodes, with their handlers."""

from __future__ import annotations

from typing import Any

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    LiveServer,
    browser_fixture,
    click_move,
    seated_game,
    server_fixture,
)
from test_browser_app import _hold

pytest.importorskip("playwright")

from playwright.sync_api import expect

COUNT_CHANGES = """() => {
  window.__changes = 0;
  new MutationObserver((records) => {
    for (const record of records) window.__changes += record.type === "childList"
      ? record.addedNodes.length + record.removedNodes.length : 1;
  }).observe(document.getElementById("view") || document.body,
    { subtree: true, childList: true, attributes: true, characterData: true });
}"""


def test_a_move_on_an_8x8_board_changes_a_few_nodes_of_a_spectators_page(
    browser: Any, server: LiveServer
) -> None:
    body = {"rows": 8, "cols": 8, "public": True, "seats": [{"name": "Ann"}, {"name": "Bao"}]}
    game, tokens = seated_game(server, body)
    contexts = [browser.new_context(locale="en-US") for _ in range(2)]
    try:
        player, watcher = (context.new_page() for context in contexts)
        _hold(player, server, game, tokens[0])
        player.evaluate(
            "([id, a, b]) => localStorage.setItem('sos.tokens', JSON.stringify({[id]: [a, b]}))",
            [game, *tokens],
        )
        for page in (player, watcher):
            page.goto(f"{server.url}/#/game/{game}")
        for move in ("Sa1", "Sh8"):
            click_move(player, move)
        expect(watcher.locator('.cell[data-cell="h8"]')).to_have_text("S")
        corner = watcher.locator('.cell[data-cell="d4"]').element_handle()
        watcher.evaluate(COUNT_CHANGES)
        click_move(player, "Od4")
        expect(watcher.locator('.cell[data-cell="d4"]')).to_have_text("O")
        # The same cell node, written in place, among few changes: a page drawn anew
        # would add and remove every one of its hundreds of nodes.
        assert corner.evaluate("node => node.isConnected && node.textContent") == "O"
        changes = watcher.evaluate("() => window.__changes")
        assert 0 < changes < 60, changes
        # The kept cells still act on the newest state: the player's page plays on.
        click_move(player, "Sb2")
        expect(watcher.locator('.cell[data-cell="b2"]')).to_have_text("S")
    finally:
        for context in contexts:
            context.close()
