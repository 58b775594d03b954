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
    "detect_language",
    "outcome_text",
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
