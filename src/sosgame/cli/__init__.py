"""The ``sosgame`` command: each subcommand lives in a module of its own."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from sosgame import __version__
from sosgame.cli import (
    analyze,
    arena,
    certify,
    hint,
    play,
    puzzle,
    replay,
    serve,
    show,
    solve,
    worker,
)
from sosgame.cli.language import choose_language, speaking, t
from sosgame.errors import SosError
from sosgame.extras import MissingExtraError, install_command

__all__ = ["main"]

_COMMANDS = (replay, show, play, serve, worker, solve, certify, hint, analyze, arena, puzzle)
_BROKEN_PIPE_STATUS = 141
"""What a shell reports for a program stopped by SIGPIPE (128 + 13)."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, naming the problem."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, t("cli.parse_error", prog=self.prog, message=message) + "\n")


def build_parser() -> argparse.ArgumentParser:
    """The parser for every subcommand, in the command line's language."""
    parser = _Parser(prog="sosgame", description=t("cli.description"))
    parser.add_argument("--version", action="version", version=f"sosgame {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    for command in _COMMANDS:
        command.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    It speaks the language ``--lang`` names, else the locale's (English by default).
    """
    given = sys.argv[1:] if argv is None else list(argv)
    with speaking(choose_language(given)):
        return _main(given)


def _main(argv: list[str]) -> int:
    parser = build_parser()
    arguments = parser.parse_args(argv)
    try:
        status: int = arguments.run(arguments)
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return _BROKEN_PIPE_STATUS
    except MissingExtraError as error:
        print(
            t(
                "cli.needs_extra",
                command=error.what,
                extra=error.extra,
                install=install_command(error.extra),
                missing=", ".join(error.absent),
            ),
            file=sys.stderr,
        )
        return 1
    except SosError as error:
        print(t("cli.error", error=error), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return 130
    return status


def _silence_stdout() -> None:
    # The reader has gone (as with `sosgame replay game.json | head -1`): stop quietly, as
    # other command-line tools do. What is still buffered would fail again when Python flushes
    # it on exit, so standard output is pointed at the null device first.
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    finally:
        os.close(null)
