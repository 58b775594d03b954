"""The ``sosgame`` command: each subcommand lives in a module of its own."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

from sosgame import __version__
from sosgame.cli import options
from sosgame.cli.language import choose_language, speaking, t
from sosgame.cli.progress import INTERRUPTED_STATUS, Progress
from sosgame.errors import SosError
from sosgame.extras import MissingExtraError, install_command
from sosgame.first_compile import announcing
from sosgame.i18n import error_text, system_reason
from sosgame.kernel_cache import KERNELS_VARIABLE

__all__ = ["main"]

_COMMANDS = (
    "replay",
    "show",
    "play",
    "serve",
    "worker",
    "solve",
    "certify",
    "hint",
    "analyze",
    "arena",
    "puzzle",
    "bot",
)
"""Each subcommand, in the order ``--help`` lists them: the module ``sosgame.cli.NAME``."""
_EXHAUSTIVE = frozenset({"solve", "certify", "arena"})
"""The subcommands that search for long (exact solves, certificates, matches between levels):
they compile the kernels first on a first run (the others search as plain Python meanwhile)."""
_BROKEN_PIPE_STATUS = 141
"""What a shell reports for a program stopped by SIGPIPE (128 + 13)."""
_INTERNAL_STATUS = 70
"""A fault of sosgame's own, not of its input (``EX_SOFTWARE`` of ``sysexits.h``)."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, naming the problem."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, t("cli.parse_error", prog=self.prog, message=message) + "\n")


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for every subcommand, in the command line's language.

    Given the arguments ``argv``, only the subcommand they name is built whole (its module
    imported, its options added); the others are listed by name and help alone, so that
    ``sosgame --help`` or ``sosgame show`` never loads the players or the compiled kernel, nor
    does any command's ``--help``.
    """
    chosen = _chosen(argv) if argv is not None else None
    parser = _Parser(prog="sosgame", description=t("cli.description"))
    parser.add_argument("--version", action="version", version=f"sosgame {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    for name in _COMMANDS:
        if argv is None or name == chosen:
            _register(name, commands)
        else:
            commands.add_parser(name, help=t(f"cli.{name}.help"), add_help=False)
    return parser


def _register(name: str, commands: Any) -> None:
    # The commands that search or solve declare their options apart, in sosgame.cli.options,
    # so that their --help loads neither the players nor the compiled kernel.
    register = options.REGISTER.get(name) or importlib.import_module(f"sosgame.cli.{name}").register
    register(commands)


def _chosen(argv: Sequence[str]) -> str | None:
    # The first argument that is not an option names the subcommand: the top level takes no
    # option with a value.
    return next((argument for argument in argv if not argument.startswith("-")), None)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    It speaks the language ``--lang`` names, else the locale's (English by default). Run as
    the program (no ``argv``) and stopped by Ctrl-C, it leaves the process at once, its
    output flushed: the interpreter's own clean-up (of the compiled kernel above all) would
    take longer than the stop itself.
    """
    given = sys.argv[1:] if argv is None else list(argv)
    with speaking(choose_language(given)):
        status = _main(given)
    if argv is None and status == INTERRUPTED_STATUS:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(status)
    return status


def _main(argv: list[str]) -> int:
    if sys.stdout is None:  # started with its output closed (`>&-`): nowhere to answer
        if sys.stderr is not None:
            print(t("cli.error", error=t("cli.no_output")), file=sys.stderr)
        return 1
    if _chosen(argv) in _EXHAUSTIVE:
        # Minutes of search are worth the compiler's minute, where a move is not: these
        # compile what the kernel cache lacks, under the notice, rather than run plain
        # Python while a background build makes it (sosgame.kernel_cache).
        os.environ.setdefault(KERNELS_VARIABLE, "compiled")
    try:
        # Inside: Ctrl-C while a subcommand's modules load is a stop like any other.
        arguments = build_parser(argv).parse_args(argv)
        with announcing(_preparing):
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
        print(t("cli.error", error=error_text(t, error)), file=sys.stderr)
        return 1
    except OSError as error:  # a file or folder the command was given, as the system says
        print(t("cli.error", error=_os_error(error)), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(t("cli.stopped"), file=sys.stderr)
        return INTERRUPTED_STATUS
    except Exception as error:
        if os.environ.get("SOSGAME_TRACEBACK"):
            raise
        print(t("cli.internal_error", kind=type(error).__name__, error=error), file=sys.stderr)
        return _INTERNAL_STATUS
    return status


@contextlib.contextmanager
def _preparing() -> Iterator[None]:
    # While the kernels compile for the first time, so that a slow first search is explained.
    with Progress() as progress:
        progress.show(t("cli.preparing"), now=True)
        yield


def _os_error(error: OSError) -> str:
    reason = system_reason(t, error.errno, error.strerror or str(error))
    if error.filename is None:
        return reason
    return t("cli.os_error", path=str(error.filename), reason=reason)


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
