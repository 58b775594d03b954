"""The browser app as a player sees it, at desktop (1280x900) and phone (390x844) sizes: a board
that fits for every size, the look and feel of a game, the analysis page, accessibility."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sos_live_server import (  # noqa: F401 (fixtures)
    ARTIFACTS,
    DESKTOP,
    PHONE,
    LiveServer,
    browser_fixture,
    desktop_fixture,
    phone_fixture,
    server_fixture,
)

pytest.importorskip("playwright")

from playwright.sync_api import expect

from sosgame import Game
from sosgame.record import Record
from sosgame.seats import SEAT_COLOURS, SEAT_SYMBOLS

SIZES = [(1, 3), (3, 1), (2, 3), (3, 3), (6, 9), (13, 13), (15, 15), (3, 26), (26, 3), (26, 26)]
GAME = ["Sa1", "Ob1", "Sc1", "Sa2", "Ob2", "Sc2", "Oa3", "Ob3", "Oc3"]

# The contrast of every visible text against what is behind it, as WCAG 2 computes it.
CONTRAST = """() => {
  const parse = (text) => {
    const numbers = (text.match(/[\\d.]+/g) || []).map(Number);
    const scale = text.startsWith("color(srgb") ? 255 : 1;
    return [numbers[0] * scale, numbers[1] * scale, numbers[2] * scale, numbers[3] ?? 1];
  };
  const background = (node) => {
    for (let at = node; at && at.nodeType === 1; at = at.parentElement) {
      const colour = parse(getComputedStyle(at).backgroundColor);
      if (colour[3] > 0.5) return colour;
    }
    return [255, 255, 255, 1];
  };
  const luminance = ([r, g, b]) => {
    const linear = (v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  };
  const failures = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const node = text.parentElement;
    if (!text.textContent.trim() || !node || !node.getClientRects().length) continue;
    // Decorative marks (aria-hidden) repeat a name beside them; disabled controls are exempt.
    const skip = "[hidden], [aria-hidden='true'], :disabled, option, noscript, title";
    if (node.closest(skip)) continue;
    const style = getComputedStyle(node);
    if (style.visibility === "hidden" || style.display === "none") continue;
    const svgText = node.namespaceURI === "http://www.w3.org/2000/svg";
    const fore = parse(svgText ? style.fill : style.color);
    const back = background(svgText ? node.closest("section, div") : node);
    const [a, b] = [luminance(fore), luminance(back)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.6 && Number(style.fontWeight) >= 700);
    const what = text.textContent.trim().slice(0, 30);
    if (ratio < (large ? 3 : 4.5)) failures.push(`${what}: ${ratio.toFixed(2)}`);
  }
  return failures;
}"""

# Characters of the page that no font has: drawn, they match the box of a character that has
# no glyph anywhere (a private-use code point).
MISSING_GLYPHS = """() => {
  const canvas = document.createElement("canvas");
  canvas.width = 40; canvas.height = 40;
  const context = canvas.getContext("2d", { willReadFrequently: true });
  context.font = `28px ${getComputedStyle(document.body).fontFamily}`;
  const draw = (text) => {
    context.clearRect(0, 0, 40, 40);
    context.fillText(text, 4, 30);
    return Array.from(context.getImageData(0, 0, 40, 40).data).join(",");
  };
  const tofu = draw("\\uE000");
  const characters = new Set(document.body.innerText.replace(/\\s/g, ""));
  return {
    // The check itself works: an unassigned code point is caught, a letter is not.
    works: draw("\\u0378") === tofu && draw("A") !== tofu,
    missing: [...characters].filter((character) => draw(character) === tofu),
  };
}"""


def _open_game(page: Any, server: LiveServer, rows: int, cols: int, **settings: Any) -> str:
    """A local game made through the API, opened by a browser that holds its seats."""
    seats = settings.pop("seats", [{"name": "Ann"}, {"name": "Bao"}])
    body = {"rows": rows, "cols": cols, "seats": seats, **settings}
    created = server.post("/api/games", body)
    _hold(page, server, created["id"], created["token"])
    page.goto(f"{server.url}/#/game/{created['id']}")
    expect(page.locator(f'.board-wrap[data-rows="{rows}"][data-cols="{cols}"]')).to_be_visible()
    expect(page.locator("#status")).not_to_have_text("")
    expect(page.get_by_test_id("moves")).to_be_visible()  # the last drawing, once it came
    # The page's fonts, once loaded, are what the board is measured with (a busy machine may
    # still be loading them now).
    page.evaluate("document.fonts.ready.then(() => true)")
    game_id: str = created["id"]
    return game_id


def _hold(page: Any, server: LiveServer, game_id: str, token: str) -> None:
    if not page.url.startswith(server.url):
        page.goto(server.url)
    page.evaluate(
        "([id, token]) => localStorage.setItem('sos.tokens', JSON.stringify({[id]: [token]}))",
        [game_id, token],
    )


def _upload(server: LiveServer, moves: list[str], rows: int = 3, cols: int = 3) -> str:
    record = Record.from_game(Game(rows, cols, moves=moves), players=["Ann", "Bao"])
    game_id: str = server.post("/api/records", record.to_dict())["id"]
    return game_id


def _box(page: Any, test_id: str) -> dict[str, float]:
    return _measure(page, page.get_by_test_id(test_id))


def _measure(page: Any, locator: Any) -> dict[str, float]:
    # A state or presence message may redraw the page between finding and measuring.
    for _ in range(20):
        box: dict[str, float] | None = locator.bounding_box()
        if box is not None:
            return box
        page.wait_for_timeout(50)
    raise AssertionError(f"{locator} is not on the page")


def _inside(box: dict[str, float], viewport: dict[str, int]) -> bool:
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= viewport["width"] + 0.5
        and box["y"] + box["height"] <= viewport["height"] + 0.5
    )


def _apart(one: dict[str, float], other: dict[str, float]) -> bool:
    return (
        one["x"] + one["width"] <= other["x"] + 0.5
        or other["x"] + other["width"] <= one["x"] + 0.5
        or one["y"] + one["height"] <= other["y"] + 0.5
        or other["y"] + other["height"] <= one["y"] + 0.5
    )


def _cell_size(page: Any) -> float:
    box = _measure(page, page.locator('.cell[data-cell="a1"]'))
    return float(min(box["width"], box["height"]))


def _play(page: Any, move: str) -> None:
    cell = page.locator(f'.cell[data-cell="{move[1:]}"]')
    cell.click()
    page.click(f"#pick-{move[0]}")
    expect(cell).to_have_text(move[0])


# ------------------------------------------------------------------------ a board that fits


def test_every_size_fits_beside_the_players_on_a_desktop(desktop: Any, server: LiveServer) -> None:
    for rows, cols in SIZES:
        _open_game(desktop, server, rows, cols)
        frame, players = _box(desktop, "board-frame"), _box(desktop, "players")
        assert _inside(frame, DESKTOP), (rows, cols, frame)
        assert _inside(players, DESKTOP), (rows, cols, players)
        assert players["x"] >= frame["x"] + frame["width"], (rows, cols)  # beside it
        for other in ("banner", "players"):
            assert _apart(frame, _box(desktop, other)), (rows, cols, other)
        controls = _measure(desktop, desktop.locator(".controls"))
        assert _apart(frame, controls) and _inside(controls, DESKTOP), (rows, cols)
        # The whole board shows: no panning needed on a desktop.
        board = _box(desktop, "board")
        assert board["width"] <= frame["width"] + 0.5 and board["height"] <= frame["height"] + 0.5
        if (rows, cols) == (3, 3):
            assert board["height"] >= 0.4 * DESKTOP["height"], board
    desktop.screenshot(path=str(ARTIFACTS / "desktop-26x26.png"))


def test_every_size_fits_above_the_players_on_a_phone(phone: Any, server: LiveServer) -> None:
    for rows, cols in SIZES:
        _open_game(phone, server, rows, cols)
        frame, players = _box(phone, "board-frame"), _box(phone, "players")
        assert _inside(frame, PHONE), (rows, cols, frame)
        assert players["y"] >= frame["y"] + frame["height"], (rows, cols)  # below it
        assert _apart(frame, _box(phone, "banner")), (rows, cols)
        assert _cell_size(phone) >= 22, (rows, cols)
    # 26x26 at 22 px is wider than a phone: the frame pans, and zooms.
    frame = phone.get_by_test_id("board-frame")
    # Waited for: on a busy machine the last board may still be laid out.
    phone.wait_for_function(
        "() => { const node = document.querySelector('[data-testid=board-frame]');"
        " return node.scrollWidth > node.clientWidth; }"
    )
    before = _cell_size(phone)
    phone.click("#zoom-in")
    assert _cell_size(phone) > before
    frame.evaluate("node => { node.scrollLeft = node.scrollWidth; }")
    phone.locator('.cell[data-cell="z1"]').click()
    expect(phone.locator("#pick-S")).to_be_visible()
    phone.click("#pick-S")
    expect(phone.locator('.cell[data-cell="z1"]')).to_have_text("S")
    phone.click("#zoom-out")
    assert _cell_size(phone) == before
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "phone-26x26.png"))


def test_the_form_offers_every_size_the_engine_allows(desktop: Any, server: LiveServer) -> None:
    limits = server.get("/api/config")["limits"]
    desktop.goto(server.url)
    sides = limits["max_side"] - limits["min_side"] + 1
    for field in ("#rows", "#cols"):
        # The options are made once the page has the limits from the server.
        expect(desktop.locator(f"{field} option")).to_have_count(sides)
        values = desktop.locator(f"{field} option").evaluate_all("nodes => nodes.map(n => n.value)")
        assert values == [str(side) for side in range(limits["min_side"], limits["max_side"] + 1)]
    assert (limits["min_side"], limits["max_side"]) == (1, 26)
    desktop.select_option("#rows", "2")
    desktop.select_option("#cols", "2")
    desktop.click("#start")
    expect(desktop.locator("#new-game .error")).to_contain_text("at least 3")
    expect(desktop.locator("#clock-minutes")).to_be_hidden()
    desktop.check("#clock-on")
    expect(desktop.locator("#clock-minutes")).to_be_visible()
    desktop.select_option("#cols", "26")
    desktop.click("#start")
    expect(desktop.locator('.cell[data-cell="z2"]')).to_be_visible()


# --------------------------------------------------------------------------- feels like a game


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_banners_never_move_the_board(request: Any, server: LiveServer, size: str) -> None:
    page = request.getfixturevalue(size)
    _open_game(page, server, 3, 3)
    start = _box(page, "board-frame")
    for move in GAME:
        _play(page, move)
        assert _box(page, "board-frame") == start, move
        if move == "Sc1":
            expect(page.locator("#banner.extra")).to_be_visible()
    expect(page.locator("#result")).to_be_visible()
    assert _box(page, "board-frame") == start


def test_the_home_page_does_not_move_while_it_loads(phone: Any, server: LiveServer) -> None:
    # Every layout shift the page makes by itself (no input), summed as Lighthouse's CLS does;
    # above 0.1 is "poor". The pools arriving late once pushed the panels below them down (0.085).
    phone.add_init_script(
        "window.shifts = [];"
        "new PerformanceObserver((list) => { for (const entry of list.getEntries())"
        " if (!entry.hadRecentInput) window.shifts.push(entry.value); })"
        ".observe({ type: 'layout-shift', buffered: true });"
    )
    phone.goto(f"{server.url}/")
    expect(phone.locator("#pools button.pool").first).to_be_visible()
    phone.wait_for_load_state("networkidle")
    shifts: list[float] = phone.evaluate("window.shifts")
    assert sum(shifts) < 0.01, shifts


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_extra_turn_is_said_in_full_inside_the_banner(
    request: Any, server: LiveServer, size: str
) -> None:
    page = request.getfixturevalue(size)
    _open_game(page, server, 3, 3)
    for move in GAME[:3]:  # Sc1 completes S-O-S: an extra turn
        _play(page, move)
    extra = page.locator("#extra-turn")
    expect(extra).to_be_visible()
    expect(extra).to_have_text("SOS! Ann scored and moves again.")
    inside = extra.evaluate(
        """(badge) => {
          const box = badge.getBoundingClientRect();
          const banner = badge.closest('#banner').getBoundingClientRect();
          return box.left >= banner.left && box.right <= banner.right
            && box.top >= banner.top && box.bottom <= banner.bottom
            && badge.scrollWidth <= badge.clientWidth;
        }"""
    )
    assert inside


def test_the_last_move_and_the_newest_lines_stand_out(desktop: Any, server: LiveServer) -> None:
    _open_game(desktop, server, 4, 4)
    for move in ["Sa1", "Ob1"]:
        _play(desktop, move)
    expect(desktop.locator(".cell.last")).to_have_attribute("data-cell", "b1")
    expect(desktop.locator('.cell[data-cell="b1"]')).to_have_attribute(
        "aria-label", "b1, O, last move"
    )
    _play(desktop, "Sc1")
    expect(desktop.locator(".cell.scored")).to_have_count(3)
    line = desktop.locator(".lines line.fresh")
    expect(line).to_have_count(1)
    expect(line).to_have_attribute("stroke", SEAT_COLOURS[0])
    expect(line.locator("animate")).to_have_count(2)  # it grows from its first cell
    for move in ["Od1", "Sa2", "Ob2", "Sc2"]:  # seat 1's line: another colour and dash
        _play(desktop, move)
    lines = desktop.locator(".lines line")
    expect(lines).to_have_count(2)
    assert lines.nth(1).get_attribute("stroke") == SEAT_COLOURS[1]
    assert lines.nth(0).get_attribute("stroke-dasharray") != lines.nth(1).get_attribute(
        "stroke-dasharray"
    )
    scored = desktop.locator(".cell.scored")
    expect(scored).to_have_count(3)
    assert scored.evaluate_all("nodes => nodes.map(n => n.dataset.cell)") == ["a2", "b2", "c2"]
    # Each seat's symbol stands beside its name, so colour is never the only cue.
    for seat, symbol in enumerate(SEAT_SYMBOLS[:2]):
        expect(desktop.locator(f'#seats li[data-seat="{seat}"] .seat-mark')).to_have_text(symbol)


def test_the_move_list_has_a_column_per_player_with_points(
    desktop: Any, server: LiveServer
) -> None:
    _open_game(desktop, server, 3, 3)
    for move in GAME[:4]:
        _play(desktop, move)
    table = desktop.get_by_test_id("moves")
    expect(table.locator("thead th")).to_have_text(["#", "● Ann", "▲ Bao"])
    expect(table.locator("tbody tr")).to_have_count(3)  # Sc1 scored: Ann moved again
    first = table.locator("tbody tr").nth(0).locator("td")
    expect(first).to_have_text(["Sa1", "Ob1"])
    second = table.locator("tbody tr").nth(1).locator("td")
    expect(second.nth(0)).to_have_text("Sc1+1")
    expect(second.nth(0).locator(".points")).to_have_attribute("aria-label", "1 point")
    expect(table.locator("tbody tr").nth(2).locator("td").nth(0)).to_have_text("Sa2")
    # After a reload the list comes from the server, the same.
    desktop.reload()
    expect(table.locator(".move")).to_have_text(["Sa1", "Ob1", "Sc1+1", "Sa2"])
    desktop.click("#undo")
    expect(table.locator(".move")).to_have_count(3)


def test_titles_favicon_and_sounds(browser: Any, server: LiveServer) -> None:
    context = browser.new_context(viewport=DESKTOP)
    # Counts the tones made, in place of the speakers.
    context.add_init_script(
        """(() => {
          window.tones = 0;
          const Real = window.AudioContext;
          window.AudioContext = class extends Real {
            createOscillator() { window.tones += 1; return super.createOscillator(); }
          };
        })();"""
    )
    page = context.new_page()
    try:
        icon = page.request.get(f"{server.url}/static/favicon.svg")
        assert icon.ok and icon.headers["content-type"].startswith("image/svg+xml")
        game_id = _open_game(page, server, 3, 3)
        expect(page.locator('link[rel="icon"]')).to_have_attribute("href", "/static/favicon.svg")
        expect(page).to_have_title("Your turn · SOS")
        expect(page.locator("#sound")).to_have_attribute("aria-pressed", "false")
        _play(page, "Sa1")
        assert page.evaluate("window.tones") == 0  # off by default
        page.click("#sound")
        expect(page.locator("#sound")).to_have_attribute("aria-pressed", "true")
        _play(page, "Ob1")
        page.reload()  # the choice is kept
        expect(page.locator("#sound")).to_have_attribute("aria-pressed", "true")
        _play(page, "Sc1")
        page.wait_for_function("window.tones >= 2")  # the SOS: two tones
        watcher = context.new_page()
        watcher.goto(f"{server.url}/#/replay/{game_id}")
        expect(watcher).to_have_title("Replay, move 3 of 3 · SOS")
        for move in GAME[3:]:
            _play(page, move)
        expect(page).to_have_title("Ann wins: the board is full. · SOS")
    finally:
        context.close()


def test_an_online_spectator_sees_whose_turn_in_the_title(desktop: Any, server: LiveServer) -> None:
    created = server.post(
        "/api/games",
        {
            "rows": 3,
            "cols": 3,
            "kind": "online",
            "public": True,
            "seats": [{"name": "Ann"}, {"name": "Bao"}],
        },
    )
    desktop.goto(f"{server.url}/#/game/{created['id']}")
    expect(desktop).to_have_title("Waiting for players · SOS")
    server.post(f"/api/games/{created['id']}/seats/1", {"name": "Bao"})
    desktop.reload()
    expect(desktop).to_have_title("Ann to move · SOS")


# ------------------------------------------------------------------------------------ analysis


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_analysis_of_a_finished_game(request: Any, server: LiveServer, size: str) -> None:
    page = request.getfixturevalue(size)
    game_id = _upload(server, GAME)
    page.goto(f"{server.url}/#/game/{game_id}")
    expect(page.locator("#result")).to_be_visible()
    page.click("#analysis")
    expect(page.get_by_test_id("analysis-progress")).to_be_visible()
    chart = page.get_by_test_id("analysis-chart")
    expect(chart).to_be_visible(timeout=90_000)
    # The chart shows the moves as they are analysed: wait for the last of them.
    expect(page.get_by_test_id("analysis-progress")).to_have_count(0, timeout=90_000)
    assert _inside(_box(page, "board-frame"), DESKTOP if size == "desktop" else PHONE)
    analysis = server.get(f"/api/games/{game_id}/analysis")
    assert analysis["status"] == "done"
    moves = analysis["moves"]
    expect(chart.locator(".bar")).to_have_count(len(moves))
    for flag in ("mistake", "blunder"):
        flagged = [move["ply"] for move in moves if move["flag"] == flag]
        assert flagged, flag  # this game has both
        expect(chart.locator(f".flag-mark.{flag}")).to_have_count(len(flagged))
        table = page.get_by_test_id("moves")
        expect(table.locator(f".move.{flag}")).to_have_count(len(flagged))
        marks = table.locator(f".move.{flag}").evaluate_all("ns => ns.map(n => +n.dataset.ply)")
        assert marks == flagged
    # The page opens on the first blunder, its best move shown on the board.
    chosen = next(move for move in moves if move["flag"] == "blunder")
    expect(chart).to_have_attribute("aria-valuenow", str(chosen["ply"]))
    best = page.locator(".cell.best")
    expect(best).to_have_attribute("data-cell", chosen["best"][1:])
    expect(best).to_have_text(chosen["best"][0])
    expect(page.locator(".cell.played")).to_have_attribute("data-cell", chosen["played"][1:])
    expect(page.locator("#analysis-move")).to_contain_text("blunder")
    # Any ply: by the keyboard on the chart, by a click in the move list.
    chart.focus()
    page.keyboard.press("Home")
    expect(chart).to_have_attribute("aria-valuenow", "1")
    expect(page.locator(".cell.best")).to_have_attribute("data-cell", moves[0]["best"][1:])
    page.keyboard.press("ArrowRight")
    expect(chart).to_have_attribute("aria-valuenow", "2")
    page.locator('.move[data-ply="8"]').click()
    expect(chart).to_have_attribute("aria-valuenow", "8")
    expect(page.locator(".cell.best")).to_have_attribute("data-cell", moves[7]["best"][1:])
    summary = page.get_by_test_id("analysis-summary")
    for seat, player in enumerate(analysis["players"]):
        row = summary.locator(f'tr[data-seat="{seat}"]')
        expect(row.locator(".blunders")).to_have_text(str(player["blunders"]))
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"analysis-{size}.png"), full_page=True)
    # Linked from the replay too.
    page.goto(f"{server.url}/#/replay/{game_id}")
    page.click("#analysis")
    expect(page.get_by_test_id("analysis-chart")).to_be_visible()


def test_a_long_analysis_shows_its_progress(desktop: Any, server: LiveServer) -> None:
    game = Game(7, 7)
    while not game.is_over:  # a whole 7x7 game, the first empty cell each time
        game.play(next(iter(game.legal_moves)))
    record = Record.from_game(game, players=["Ann", "Bao"])
    game_id = server.post("/api/records", record.to_dict())["id"]
    desktop.goto(f"{server.url}/#/analysis/{game_id}")
    progress = desktop.get_by_test_id("analysis-progress")
    expect(progress).to_contain_text("Analysing: move", timeout=60_000)
    expect(progress.locator("progress")).to_have_attribute("max", str(len(game.actions)))
    desktop.wait_for_function(
        "() => Number(document.querySelector('#analysis-bar')?.value) > 0", timeout=60_000
    )


# ------------------------------------------------------------------------------- accessibility


def test_someone_joining_does_not_take_the_focus_from_the_letter_being_chosen(
    desktop: Any, server: LiveServer
) -> None:
    from websockets.sync.client import connect

    game_id = _open_game(desktop, server, 3, 3)
    desktop.locator('.cell[data-cell="b2"]').focus()
    desktop.keyboard.press("Enter")
    expect(desktop.locator("#pick-S")).to_be_focused()
    ws_url = server.url.replace("http://", "ws://")
    with connect(f"{ws_url}/ws/games/{game_id}") as spectator:
        spectator.send(json.dumps({"v": 1, "type": "hello", "tokens": []}))
        # The presence message redraws the game: the picker must keep its focus.
        expect(desktop.locator("#spectators")).to_be_visible()
        expect(desktop.locator("#pick-S")).to_be_focused()
        desktop.keyboard.press("Enter")
        expect(desktop.get_by_role("gridcell", name="b2, S")).to_have_count(1)


def test_the_board_is_a_labelled_grid_played_by_keyboard_alone(
    desktop: Any, server: LiveServer
) -> None:
    _open_game(desktop, server, 3, 4)
    board = desktop.get_by_role("grid")
    expect(board).to_have_attribute("aria-label", "SOS board, 3 rows by 4 columns")
    expect(board.get_by_role("row")).to_have_count(3)
    expect(board.get_by_role("gridcell")).to_have_count(12)
    expect(desktop.get_by_role("gridcell", name="b3, empty")).to_have_count(1)
    # Tab into the board, arrows to b2, Enter opens the letters, Enter writes S.
    desktop.locator("#brand").focus()
    for _ in range(10):
        desktop.keyboard.press("Tab")
        if desktop.evaluate("document.activeElement.dataset.cell") == "a1":
            break
    assert desktop.evaluate("document.activeElement.dataset.cell") == "a1"
    outline = desktop.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"  # focus is visible
    desktop.keyboard.press("ArrowRight")
    desktop.keyboard.press("ArrowDown")
    desktop.keyboard.press("Enter")
    expect(desktop.locator("#pick-S")).to_be_focused()
    desktop.keyboard.press("Escape")  # back to the cell, nothing written
    expect(desktop.locator('.cell[data-cell="b2"]')).to_be_focused()
    desktop.keyboard.press("Enter")
    desktop.keyboard.press("Tab")
    expect(desktop.locator("#pick-O")).to_be_focused()
    desktop.keyboard.press("Enter")
    expect(desktop.locator('.cell[data-cell="b2"]')).to_have_text("O")
    expect(desktop.locator('.cell[data-cell="b2"]')).to_have_attribute(
        "aria-label", "b2, O, last move"
    )
    desktop.keyboard.press("End")
    expect(desktop.locator('.cell[data-cell="d2"]')).to_be_focused()
    desktop.keyboard.press("s")
    expect(desktop.locator('.cell[data-cell="d2"]')).to_have_text("S")
    # Every control is a button or link the keyboard reaches.
    desktop.locator("#undo").focus()
    desktop.keyboard.press("Enter")
    expect(desktop.locator('.cell[data-cell="d2"]')).to_have_text("")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_text_contrast_is_aa_on_every_page(request: Any, server: LiveServer, size: str) -> None:
    page = request.getfixturevalue(size)
    finished = _upload(server, GAME)
    page.goto(server.url)
    expect(page.locator("#new-game")).to_be_visible()
    assert page.evaluate(CONTRAST) == []
    game_id = _open_game(page, server, 3, 3)
    for move in GAME[:3]:
        _play(page, move)
    assert page.evaluate(CONTRAST) == [], game_id
    page.goto(f"{server.url}/#/game/{finished}")
    expect(page.locator("#result")).to_be_visible()
    assert page.evaluate(CONTRAST) == []
    page.goto(f"{server.url}/#/analysis/{finished}")
    expect(page.get_by_test_id("analysis-chart")).to_be_visible(timeout=90_000)
    assert page.evaluate(CONTRAST) == []


@pytest.mark.parametrize("language", ["vi", "hi"])
def test_vietnamese_and_hindi_have_every_glyph(
    browser: Any, server: LiveServer, language: str
) -> None:
    finished = _upload(server, GAME)
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        try:
            page.goto(server.url)
            page.evaluate(f"localStorage.setItem('sos.lang', {json.dumps(language)})")
            pages = [("home", "/"), ("game", f"/#/game/{finished}")]
            pages.append(("analysis", f"/#/analysis/{finished}"))
            for view, path in pages:
                page.goto(f"{server.url}{path}")
                expect(page.locator("html")).to_have_attribute("lang", language)
                if view == "analysis":
                    expect(page.get_by_test_id("analysis-chart")).to_be_visible(timeout=90_000)
                else:
                    expect(page.locator("#view h1, #view h2").first).to_be_visible()
                assert page.evaluate(MISSING_GLYPHS) == {"works": True, "missing": []}, view
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(
                    path=str(ARTIFACTS / f"{language}-{view}-{name}.png"), full_page=True
                )
        finally:
            context.close()
