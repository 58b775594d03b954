"""The analysis page draws each move's report as the server sends it, the last moves first,
patching the page in place, and ends with every move, each as the whole analysis has it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    LiveServer,
    browser_fixture,
    desktop_fixture,
    server_fixture,
)

pytest.importorskip("playwright")

from playwright.sync_api import expect

from sosgame import Game
from sosgame.record import Record

# Notes, at every change of the page, which moves the chart shows analysed and which it
# shows pending, every text each analysed move's bar has had, and the first chart drawn.
RECORDER = """
window.seen = { states: [], texts: {}, same: true };
new MutationObserver(() => {
  const chart = document.getElementById("analysis-chart");
  if (!chart) return;
  if (!window.firstChart) window.firstChart = chart;
  window.seen.same = window.seen.same && chart === window.firstChart;
  const shown = [...chart.querySelectorAll(".move-bar:not(.pending)")];
  const plies = shown.map((group) => Number(group.dataset.ply));
  const pending = chart.querySelectorAll(".move-bar.pending").length;
  const last = window.seen.states[window.seen.states.length - 1];
  if (!last || last.plies.join() !== plies.join() || last.pending !== pending) {
    window.seen.states.push({ plies, pending });
  }
  for (const group of shown) {
    const ply = group.dataset.ply;
    const texts = window.seen.texts[ply] || (window.seen.texts[ply] = []);
    const text = group.querySelector("title").textContent;
    if (!texts.includes(text)) texts.push(text);
  }
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
"""


def _finished_game(seed: int) -> Game:
    """A whole 5x5 game of 25 random moves."""
    chance = random.Random(seed)
    game = Game(5, 5)
    while not game.is_over:
        game.play(chance.choice(game.legal_moves))
    return game


def test_the_analysis_shows_the_last_moves_first_and_ends_with_every_move(
    desktop: Any, server: LiveServer
) -> None:
    game = _finished_game(1)
    record = Record.from_game(game, players=["Ann", "Bao"])
    game_id = server.post("/api/records", record.to_dict())["id"]
    desktop.add_init_script(RECORDER)
    desktop.goto(f"{server.url}/#/analysis/{game_id}")
    chart = desktop.get_by_test_id("analysis-chart")
    expect(chart.locator(".move-bar:not(.pending)")).to_have_count(game.ply, timeout=120_000)
    expect(chart.locator(".move-bar.pending")).to_have_count(0)
    expect(desktop.get_by_test_id("analysis-progress")).to_have_count(0)
    seen = desktop.evaluate("window.seen")
    # Drawn while the rest was pending: the last moves first, each report added in turn.
    partial = [state for state in seen["states"] if state["plies"] and state["pending"]]
    assert partial, seen["states"]
    for state in partial:
        assert state["plies"] == list(range(game.ply - len(state["plies"]) + 1, game.ply + 1))
        assert len(state["plies"]) + state["pending"] == game.ply
    # One chart throughout, patched as the reports came, never drawn afresh.
    assert seen["same"]
    # Each move's report, once shown, stayed as it was: the one of the whole analysis.
    analysis = server.get(f"/api/games/{game_id}/analysis")
    assert [move["ply"] for move in analysis["moves"]] == list(range(1, game.ply + 1))
    for move in analysis["moves"]:
        bar = chart.locator(f'.move-bar[data-ply="{move["ply"]}"]')
        text = bar.locator("title").text_content()
        assert seen["texts"][str(move["ply"])] == [text]
        assert move["played"] in text and move["best"] in text
        rect = bar.locator("rect.bar")
        if move["flag"]:
            expect(rect).to_contain_class(move["flag"])
        else:
            expect(rect).not_to_contain_class("mistake")
            expect(rect).not_to_contain_class("blunder")
    # Every move of the list takes its flag, and none is left marked as waiting.
    expect(desktop.locator(".moves .move.pending")).to_have_count(0)
    flagged = [move["ply"] for move in analysis["moves"] if move["flag"]]
    for ply in flagged:
        expect(desktop.locator(f'.moves .move[data-ply="{ply}"] .flag')).to_have_count(1)
