"""Scores that hold: Lighthouse (mobile) on the home and a game page, and axe-core on every main
page at phone and desktop sizes, against a server the test starts and Debian's chromium."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    CHROMIUM,
    DESKTOP,
    PHONE,
    LiveServer,
    browser_fixture,
    server_fixture,
)

pytest.importorskip("playwright")

from playwright.sync_api import expect

from sosgame import Game
from sosgame.record import Record

NODE_MODULES = Path(__file__).resolve().parents[2] / "node_modules"
LIGHTHOUSE = NODE_MODULES / ".bin" / "lighthouse"
AXE = NODE_MODULES / "axe-core" / "axe.min.js"
GAME = ["Sa1", "Ob1", "Sc1", "Sa2", "Ob2", "Sc2", "Oa3", "Ob3", "Oc3"]

pytestmark = pytest.mark.skipif(
    not LIGHTHOUSE.exists() or not AXE.exists(), reason="npm ci has not installed node_modules/"
)


def _finished_game(server: LiveServer) -> str:
    record = Record.from_game(Game(3, 3, moves=GAME), players=["Ann", "Bao"])
    game_id: str = server.post("/api/records", record.to_dict())["id"]
    return game_id


def _game_against_the_computer(server: LiveServer) -> str:
    body = {"rows": 5, "cols": 5, "seats": [{"name": "Ann"}, {"name": "Bot", "player": "easy"}]}
    game_id: str = server.post("/api/games", body)["id"]
    return game_id


def _lighthouse(url: str, out: Path) -> dict[str, Any]:
    """One Lighthouse run, mobile (its default form factor) with its simulated throttling: the
    page loads once, unthrottled, and the throttled timings are computed from that trace."""
    subprocess.run(
        [
            str(LIGHTHOUSE),
            url,
            "--quiet",
            "--form-factor=mobile",
            "--throttling-method=simulate",
            "--only-categories=performance,accessibility,best-practices",
            "--output=json",
            f"--output-path={out}",
            "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
        ],
        check=True,
        env={**os.environ, "CHROME_PATH": CHROMIUM},
        timeout=240,
        cwd=out.parent,
    )
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def _scores(report: dict[str, Any]) -> dict[str, int]:
    return {key: round(100 * category["score"]) for key, category in report["categories"].items()}


# Runs alone (make test): Lighthouse simulates a phone from one real load of the page, whose
# main-thread tasks a busy machine stretches, and the other worker's tests are such a load.
@pytest.mark.alone
@pytest.mark.parametrize("where", ["home", "game"])
def test_lighthouse_scores_hold_on_a_phone(server: LiveServer, tmp_path: Path, where: str) -> None:
    url = f"{server.url}/" if where == "home" else f"{server.url}/#/game/{_finished_game(server)}"
    report = _lighthouse(url, tmp_path / "report.json")
    scores = _scores(report)
    # Work elsewhere on the machine still slows some loads (Lighthouse's own advice is to take
    # several runs): the best of three at most, and only for performance; accessibility and
    # best practices do not depend on time.
    performance = [scores["performance"]]
    while max(performance) < 90 and len(performance) < 3:
        again = _lighthouse(url, tmp_path / f"run{len(performance)}.json")
        performance.append(_scores(again)["performance"])
    scores["performance"] = max(performance)
    failing = {
        audit["id"]: audit.get("displayValue", "")
        for audit in report["audits"].values()
        if audit["score"] is not None
        and audit["score"] < 1
        and audit["scoreDisplayMode"] == "binary"
    }
    assert scores["accessibility"] == 100, failing
    assert scores["best-practices"] >= 95, failing
    assert scores["performance"] >= 90, (scores, performance)
    # Lighthouse 12 no longer reports installability; where a version does, it must pass.
    installable = report["audits"].get("installable-manifest")
    if installable is not None:
        assert installable["score"] == 1, installable


def _violations(page: Any) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate("async () => (await axe.run(document)).violations")
    return [f"{item['id']}: {node['target']}" for item in found for node in item["nodes"]]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_axe_finds_nothing_on_any_main_page(browser: Any, server: LiveServer, size: str) -> None:
    # bypass_csp: the page's policy would refuse axe's script, which is the test's, not the app's.
    viewport = PHONE if size == "phone" else DESKTOP
    context = browser.new_context(viewport=viewport, locale="en-US", bypass_csp=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    finished = _finished_game(server)
    playing = _game_against_the_computer(server)
    pages = {
        "home": ("/#/", "#start"),
        "game": (f"/#/game/{playing}", "#board"),
        "finished game": (f"/#/game/{finished}", "#result"),
        "analysis": (f"/#/analysis/{finished}", "[data-testid='analysis-chart']"),
        "players": ("/#/players", "h1"),
        "lobby": ("/#/lobby", "h1"),
        "tournaments": ("/#/tournaments", "#tournaments-upcoming"),
    }
    found = {}
    for name, (path, ready) in pages.items():
        page.goto(f"{server.url}{path}")
        expect(page.locator(ready).first).to_be_visible(timeout=90_000)
        page.wait_for_load_state("networkidle")
        found[name] = _violations(page)
    context.close()
    assert found == {name: [] for name in pages}
