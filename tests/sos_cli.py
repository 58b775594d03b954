"""Running the ``sosgame`` command in-process, as the command-line tests do."""

from __future__ import annotations

import pytest

from sosgame.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``sosgame ARGV...``: its exit status, standard output and standard error."""
    try:
        status = main(list(argv))
    except SystemExit as stop:
        status = int(stop.code or 0)
    captured = capsys.readouterr()
    return status, captured.out, captured.err
