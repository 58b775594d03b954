"""The interfaces' words in English, Vietnamese and Hindi, from gettext catalogs.

English, the source language, is in :mod:`sosgame.i18n.texts`; each other language has a
``.po`` catalog under ``locale/`` (made with Babel: ``make catalogs``), compiled to the ``.mo``
file that the standard library's :mod:`gettext` reads here, so no package is needed at run
time. A text missing from a catalog falls back to English, as in the browser.

>>> translator("vi")("scores", scores="Ann 1")
'Điểm: Ann 1'
>>> [translator("en")("tui.loaded", path="g.json", count=n) for n in (1, 2)]
['Opened g.json (1 move).', 'Opened g.json (2 moves).']
"""

from __future__ import annotations

import errno
import gettext
import os
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal, TypeAlias

from sosgame.i18n.marks import Plural
from sosgame.i18n.texts import TEXTS

if TYPE_CHECKING:
    from sosgame.outcome import Outcome

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "Language",
    "browser_catalog",
    "default_name",
    "detect_language",
    "error_text",
    "is_default_name",
    "outcome_text",
    "system_reason",
    "translations",
    "translator",
]

Language: TypeAlias = Literal["en", "vi", "hi"]
LANGUAGES: Final[dict[Language, str]] = {"en": "English", "vi": "Tiếng Việt", "hi": "हिन्दी"}
"""Each language's code and its name in that language."""
DEFAULT_LANGUAGE: Final[Language] = "en"
DOMAIN: Final = "sosgame"
LOCALE_DIR: Final = Path(__file__).parent / "locale"


def detect_language(environ: Mapping[str, str] | None = None) -> Language:
    """The language the environment's locale asks for (``LANGUAGE``, ``LC_ALL``, ``LANG``...),
    or English when it asks for none of ours."""
    env = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for choice in env.get(variable, "").split(":"):
            code = choice.split("_")[0].split(".")[0].lower()
            if code in LANGUAGES:
                return code
    return DEFAULT_LANGUAGE


def _check(language: str) -> None:
    if language not in LANGUAGES:
        known = ", ".join(LANGUAGES)
        raise ValueError(f"unknown language {language!r}: choose one of {known}")


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalog of ``language`` (for English, the identity).

    :raises ValueError: for a language that is not one of ours.
    """
    _check(language)
    if language == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[language])


def _lookup(catalog: gettext.NullTranslations, key: str, count: object) -> str:
    try:
        source = TEXTS[key]
    except KeyError:
        raise LookupError(f"no interface text is called {key!r}") from None
    if isinstance(source, Plural):
        if not isinstance(count, int):
            raise TypeError(f"the text {key!r} depends on a number: give count=N")
        return catalog.npgettext(key, source.singular, source.plural, count)
    return catalog.pgettext(key, source)


def translator(language: str) -> Callable[..., str]:
    """A function ``(key, **values) -> text`` in ``language`` (one of :data:`LANGUAGES`).

    A plural text takes its form from ``count``.

    :raises ValueError: for a language that is not one of ours.
    """
    catalog = translations(language)

    def translate(key: str, **values: object) -> str:
        return _lookup(catalog, key, values.get("count")).format(**values)

    return translate


def outcome_text(t: Callable[..., str], outcome: Outcome, names: Sequence[str]) -> str:
    """Who won a finished game, or who drew, and why: in the language of the translator ``t``,
    naming the seats by ``names``."""
    if not outcome.winners:  # an aborted game
        return t("aborted")
    reason = t(f"reason.{outcome.termination.value}")
    if outcome.winner is not None:
        return t("winner", name=names[outcome.winner], reason=reason)
    return t("draw", names=", ".join(names[seat] for seat in outcome.winners), reason=reason)


def error_text(t: Callable[..., str], error: BaseException) -> str:
    """An error's message in the language of the translator ``t``: the catalogs' text of its
    ``code`` (see :class:`sosgame.SosError`), with its values, each error among them shown the
    same way; an error without a known code as it is."""
    code = getattr(error, "code", None)
    values = getattr(error, "values", None)
    if not isinstance(code, str) or f"error.{code}" not in TEXTS or not isinstance(values, dict):
        return str(error)
    shown = {
        name: error_text(t, value) if isinstance(value, BaseException) else value
        for name, value in values.items()
    }
    number = values.get("errno")
    if isinstance(number, int):
        shown["reason"] = system_reason(t, number, str(values.get("reason", "")))
    return t(f"error.{code}", **shown)


def system_reason(t: Callable[..., str], number: int | None, reason: str) -> str:
    """Why the system refused a file (``reason``, its words for the error ``number``), in the
    language of ``t`` when it is one of the common ones."""
    name = errno.errorcode.get(number) if number is not None else None
    key = f"error.os.{name}"
    return t(key) if name is not None and key in TEXTS else reason


def default_name(t: Callable[..., str], seat: int, *, computer: bool = False) -> str:
    """The name seat ``seat`` (from 0) has until someone names it, in the language of ``t``:
    "Player 2", or "Computer 2" for a computer seat."""
    return t("tui.computer" if computer else "player", number=seat + 1)


def is_default_name(name: str, seat: int) -> bool:
    """Whether ``name`` is a name seat ``seat`` has by default, in any language (so that a
    change of language may give it the new language's)."""
    return any(
        name == default_name(translator(code), seat, computer=computer)
        for code in LANGUAGES
        for computer in (False, True)
    )


def browser_catalog() -> dict[str, dict[str, str | dict[str, str]]]:
    """Every text, unfilled, in every language, as the browser takes them: ``{key: {language:
    text}}``; a plural text is ``{"one": ..., "other": ...}``, for ``Intl.PluralRules``."""
    catalog: dict[str, dict[str, str | dict[str, str]]] = {}
    for key, source in TEXTS.items():
        entry: dict[str, str | dict[str, str]] = {}
        for language in LANGUAGES:
            found = translations(language)
            if isinstance(source, Plural):
                entry[language] = {
                    "one": _lookup(found, key, 1),
                    "other": _lookup(found, key, 2),
                }
            else:
                entry[language] = _lookup(found, key, None)
        catalog[key] = entry
    return catalog
