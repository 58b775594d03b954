"""The language the command line speaks: its help, its messages and argparse's own words.

One language per process: ``--lang`` when the command line gives it, else the locale
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English. Every text comes from the
same catalogs as the games' (:mod:`sosgame.i18n`); JSON output is never translated.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

from sosgame.game import MODES
from sosgame.i18n import LANGUAGES, Language, detect_language, translations, translator

__all__ = ["add_json", "add_mode", "choose_language", "speaking", "subcommand", "t"]

_translate: list[Callable[..., str]] = [translator("en")]

# argparse's own words (its msgids, as Python writes them) and the keys of their translations.
_ARGPARSE: Final = {
    "usage: ": "cli.argparse.usage",
    "positional arguments": "cli.argparse.positionals",
    "options": "cli.argparse.options",
    "show this help message and exit": "cli.argparse.help",
    "show program's version number and exit": "cli.argparse.version",
    "the following arguments are required: %s": "cli.argparse.required",
    "unrecognized arguments: %s": "cli.argparse.unrecognized",
    "invalid choice: %(value)r (choose from %(choices)s)": "cli.argparse.choice",
    "invalid %(type)s value: %(value)r": "cli.argparse.value",
    "argument %(argument_name)s: %(message)s": "cli.argparse.argument",
    "expected one argument": "cli.argparse.one",
    "expected at least one argument": "cli.argparse.at_least_one",
    "ambiguous option: %(option)s could match %(matches)s": "cli.argparse.ambiguous",
    "not allowed with argument %s": "cli.argparse.not_allowed",
}


def t(key: str, **values: object) -> str:
    """The text ``key`` in the command line's language, with ``values`` filled in."""
    return _translate[0](key, **values)


def subcommand(commands: Any, name: str) -> argparse.ArgumentParser:
    """Add the subcommand ``name`` to ``commands``, with its texts ``cli.NAME.help`` and
    ``cli.NAME.description``, and the ``--lang`` option every subcommand takes."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name, help=t(f"cli.{name}.help"), description=t(f"cli.{name}.description")
    )
    # Read before parsing, by choose_language; declared so that the parser accepts it and
    # --help lists it.
    parser.add_argument("--lang", choices=list(LANGUAGES), help=t("cli.help.lang"))
    return parser


def add_mode(
    parser: argparse.ArgumentParser, default: str | None = None, *, help_key: str = "cli.help.mode"
) -> None:
    """Add the ``--mode`` option (``general`` or ``simple``) that several commands share;
    ``help_key`` names its help text when the default is not general."""
    parser.add_argument("--mode", choices=MODES, default=default, help=t(help_key))


def add_json(parser: argparse.ArgumentParser) -> None:
    """Add the ``--json`` option that prints a command's answer as JSON."""
    parser.add_argument("--json", action="store_true", help=t("cli.help.json"))


def choose_language(argv: Sequence[str]) -> Language:
    """``--lang X`` (or ``--lang=X``) from the arguments when it names one of ours, else the
    locale's language."""
    for index, argument in enumerate(argv):
        if argument == "--lang" and index + 1 < len(argv):
            wanted = argv[index + 1]
        elif argument.startswith("--lang="):
            wanted = argument.partition("=")[2]
        else:
            continue
        if wanted in LANGUAGES:
            return wanted
    return detect_language()


@contextlib.contextmanager
def speaking(language: Language) -> Iterator[None]:
    """Speak ``language`` within the block: the catalogs' texts and argparse's words."""
    catalog = translations(language)
    before = (_translate[0], argparse._)  # type: ignore[attr-defined]

    def argparse_text(message: str) -> str:
        key = _ARGPARSE.get(message)
        return message if key is None else catalog.pgettext(key, message)

    _translate[0] = translator(language)
    setattr(argparse, "_", argparse_text)  # noqa: B010 (argparse looks its words up here)
    try:
        yield
    finally:
        _translate[0] = before[0]
        setattr(argparse, "_", before[1])  # noqa: B010
