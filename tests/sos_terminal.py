"""Driving a program in a real pseudo-terminal, and reading what it draws as plain text."""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Sequence
from pathlib import Path

import pexpect

# Textual draws with escape sequences between runs of text: match the text, skipping them.
_ESCAPES = re.compile(rb"\x1b\[[0-9;?<>=]*[A-Za-z~]|\x1b[()][A-Z0-9]|\x1b[=>]")


def take_ctrl_c() -> None:
    """Run in the child before it starts: Ctrl-C interrupts it as in a user's terminal, even
    when this test run was started in the background, where SIGINT is ignored and inherited."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn_in_terminal(program: str, arguments: Sequence[str], *, cwd: Path) -> pexpect.spawn:
    """Start ``program`` in a 100x32 xterm-like pseudo-terminal."""
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "32"}
    env.pop("TEXTUAL", None)
    return pexpect.spawn(
        program,
        list(arguments),
        cwd=str(cwd),
        env=env,
        dimensions=(32, 100),
        timeout=60,
        preexec_fn=take_ctrl_c,
    )


class Screen:
    """What a child process has drawn so far, read as text without the escape sequences."""

    def __init__(self, child: pexpect.spawn) -> None:
        self.child = child
        self.raw = b""
        self.seen = 0

    def wait_for(self, wanted: str) -> None:
        """Read until ``wanted`` is drawn after what an earlier wait found."""
        while True:
            text = _ESCAPES.sub(b"", self.raw).decode(errors="replace")
            found = text.find(wanted, self.seen)
            if found >= 0:
                self.seen = found + len(wanted)
                return
            self.raw += self.child.read_nonblocking(65536, timeout=60)
