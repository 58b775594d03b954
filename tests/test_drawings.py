"""The plain-text and SVG drawings."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from sosgame import Game
from sosgame.svg import SEAT_COLOURS, UNOWNED_COLOUR, svg
from sosgame.text import draw

SVG = "{http://www.w3.org/2000/svg}"


def test_text_drawing_shows_letters_coordinates_and_lines() -> None:
    game = Game(3, 3, moves=["Sa1", "Ob1", "Sc1", "Ob2", "Sb3", "Sa3"])
    assert draw(game) == "\n".join(
        [
            "   a   b   c",
            "1  S - O - S",
            "         /",
            "2  .   O   .",
            "     /",
            "3  S   S   .",
        ]
    )
    assert str(game) == draw(game)


def test_text_drawing_marks_crossing_diagonals_and_verticals() -> None:
    game = Game.from_position("S..S/.OO./.SS.")
    assert draw(game, coordinates=False).splitlines()[3] == "      X"
    game = Game.from_position("S.../O.../S...")
    assert draw(game, coordinates=False).splitlines()[1] == "|"


def test_svg_draws_each_line_in_its_owners_colour() -> None:
    game = Game.from_position("SOS/.../...", scores=(1, 0), turn=1)
    game.play_all(["Sa3", "Oa2"])  # seat 1's quiet move, then seat 0 completes a1-a2-a3
    root = ET.fromstring(svg(game))
    strokes = [line.get("stroke") for line in root.iter(f"{SVG}line")]
    assert strokes == [UNOWNED_COLOUR, SEAT_COLOURS[0]]
    letters = [t.text for t in root.iter(f"{SVG}text") if t.text in ("S", "O")]
    assert sorted(letters) == ["O", "O", "S", "S", "S"]
    assert "seat 0: 2, seat 1: 0" in (root.findtext(f"{SVG}title") or "")


def test_svg_sizes_and_jupyter_hook() -> None:
    game = Game(2, 5)
    root = ET.fromstring(svg(game, size=300))
    assert root.get("width") == "300"
    assert root.get("viewBox") == "0 0 248 128"
    assert game._repr_svg_() == svg(game)
    assert len(list(ET.fromstring(svg(game, coordinates=False)).iter(f"{SVG}rect"))) == 11
