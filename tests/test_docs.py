"""The examples in the README and in the docstrings run as written."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULES = [
    "sosgame.game",
    "sosgame.record",
    "sosgame.i18n",
    "sosgame.research.split",
    "sosgame.research.distribute",
    "sosgame.research.certificate",
]


def test_readme_examples() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_the_solved_table_and_its_json_agree() -> None:
    import json
    import re

    keys = {"rows", "cols", "mode", "value", "best_moves", "nodes", "seconds", "command", "version"}
    entries = json.loads((ROOT / "docs" / "solved.json").read_text(encoding="utf-8"))
    by_board = {
        (entry["rows"], entry["cols"], entry["mode"], "split" in entry): entry for entry in entries
    }
    page = (ROOT / "docs" / "solved.md").read_text(encoding="utf-8")
    boards, _, certificates = page.partition("## Certificates")
    boards, _, unfinished = boards.partition("Solves under way")
    found = re.findall(r"^\| (\d+)x(\d+) \| (.+) \|$", boards, re.M)
    # The boards solved in pieces name their mode in the second column.
    rows = [row for row in found if row[2].split(" |")[0] not in ("general", "simple")]
    split = [row for row in found if row not in rows]
    assert rows, "docs/solved.md lists no board"
    assert len(by_board) == len(entries) == 2 * len(rows) + len(split)
    for rows_text, cols_text, cells_text in rows:
        cells = [cell.strip() for cell in cells_text.split("|")]
        halves = (cells[:4], cells[4:])
        for mode, (value, best, nodes, _) in zip(("general", "simple"), halves, strict=True):
            entry = by_board[(int(rows_text), int(cols_text), mode, False)]
            assert entry["value"] == int(value.replace("+", ""))
            assert len(entry["best_moves"]) == int(best)
            assert entry["nodes"] == int(nodes.replace(",", ""))
            assert set(entry) == keys
    for rows_text, cols_text, cells_text in split:
        mode, value, best, _, _, nodes, *_ = (cell.strip() for cell in cells_text.split("|"))
        entry = by_board[(int(rows_text), int(cols_text), mode, True)]
        assert entry["value"] == int(value.replace("+", ""))
        assert len(entry["best_moves"]) == int(best)
        assert entry["nodes"] == int(nodes.replace(",", ""))
    # The bounds it gives for solves under way are what their pieces settle.
    from sosgame import Game
    from sosgame.research.distribute import split_status

    going = re.findall(
        r"^\| (\d+)x(\d+) \| (\w+) \| (\d+) \| .* \| ([-+\d]+) \| ([-+\d]+) \|$", unfinished, re.M
    )
    assert len(going) == len(re.findall(r"^\| \d+x\d+ \|", unfinished, re.M))
    for rows_text, cols_text, mode, depth, lower, upper in going:
        game = Game(int(rows_text), int(cols_text), mode=mode)  # type: ignore[arg-type]
        status = split_status(game, int(depth), ROOT / "data" / "solves")
        assert (status.lower, status.upper) == (int(lower), int(upper))
    # The certificates it lists are there, for the value it names.
    from sosgame.certify import load

    listed = re.findall(
        r"^\| (\d+)x(\d+) \| (\w+) \| ([-+\d]+) \| ([\d,]+) \| ([\d,]*)( walks)? ?\| ([\d,]+) \|"
        r" `(.+)` \|$",
        certificates,
        re.M,
    )
    assert listed, "docs/solved.md lists no certificate"
    for rows_text, cols_text, mode, value, count, whole, walked, assumed, path in listed:
        document = load(ROOT / path)
        assert (document["rows"], document["cols"], document["mode"]) == (
            int(rows_text),
            int(cols_text),
            mode,
        )
        assert document["value"] == int(value.replace("+", ""))
        assert len(document["entries"]) == int(count.replace(",", ""))
        assert len(document.get("assumed", [])) == int(assumed.replace(",", ""))
        part_of = int(whole.replace(",", "")) if whole else None
        assert document.get("walks" if walked else "sampled_from") == part_of
        assert set(entry) >= keys
