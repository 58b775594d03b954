"""The command line on bad input and on the way out: one line naming what was wrong, nothing
left behind, and quick commands that load nothing they do not use."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sosgame import Game
from sosgame.record import Record, save

_HEAVY = ("numba", "numpy", "sosgame.kernel", "sosgame.ai", "sosgame.solver", "sosgame.search")
"""Modules that the quick commands must not load: the compiled kernel and the players."""

_LOADED = """
import json, sys
from sosgame.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    save(Record.from_game(Game(3, 3, moves=["Sa1", "Ob1"]), players=["Ann", "Bao"]), path)
    return path


@pytest.mark.parametrize(
    "argv",
    [["--help"], ["show", "S.O/.O./S.S"], ["replay", "RECORD"], ["replay", "--help"]],
    ids=["help", "show", "replay", "replay-help"],
)
def test_quick_commands_load_neither_the_kernel_nor_the_players(
    argv: list[str], record_file: Path
) -> None:
    argv = [str(record_file) if argument == "RECORD" else argument for argument in argv]
    result = subprocess.run(
        [sys.executable, "-c", _LOADED, *argv], capture_output=True, text=True, check=True
    )
    loaded = json.loads(result.stderr.splitlines()[-1])
    heavy = [name for name in loaded if name.split(".")[0] in _HEAVY or name.startswith(_HEAVY)]
    assert heavy == []
    assert result.stdout  # the command did its work


def test_the_loaded_modules_check_sees_a_command_that_loads_the_players() -> None:
    # The same check on a command that does load them, so that it can fail.
    result = subprocess.run(
        [sys.executable, "-c", _LOADED, "hint", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = json.loads(result.stderr.splitlines()[-1])
    assert "sosgame.ai" in loaded
