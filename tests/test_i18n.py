"""The gettext catalogs: complete, true to the English source, compiled, plural-aware."""

from __future__ import annotations

import gettext
import io
import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from sosgame.i18n import LANGUAGES, LOCALE_DIR, browser_catalog, translator
from sosgame.i18n.marks import Plural
from sosgame.i18n.texts import TEXTS

TRANSLATED = [language for language in LANGUAGES if language != "en"]
I18N_FOLDER = Path(__file__).resolve().parent.parent / "src" / "sosgame" / "i18n"
TEXTS_FILES = sorted(I18N_FOLDER.glob("texts_*.py"))
KEYWORDS = {"text": ((1, "c"), 2), "plural": ((1, "c"), 2, 3)}


def po(language: str) -> Catalog:
    with open(LOCALE_DIR / language / "LC_MESSAGES" / "sosgame.po", "rb") as file:
        return read_po(file, locale=language)


def fields(text: str) -> tuple[set[str], list[str]]:
    """The ``{name}`` fields of a text, and its ``%s``-style ones (argparse's words) in order."""
    names = {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    return names, sorted(re.findall(r"%(?:\(\w+\))?[sr]", text))


def source_ids(key: str) -> tuple[str, ...]:
    """The English message id of ``key``: (text,) or (singular, plural)."""
    source = TEXTS[key]
    return tuple(source) if isinstance(source, Plural) else (source,)


def as_tuple(value: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def test_the_template_is_what_babel_extracts_from_the_english_texts() -> None:
    expected = {(key, source_ids(key)) for key in TEXTS}
    extracted = [
        found
        for path in TEXTS_FILES
        for found in extract_from_file(
            "python",
            str(path),
            keywords=KEYWORDS,  # type: ignore[arg-type]
        )
    ]
    assert len(extracted) == len(TEXTS)  # no key twice
    assert {(context, as_tuple(message)) for _, message, _, context in extracted} == expected
    with open(LOCALE_DIR / "sosgame.pot", "rb") as file:
        template = read_po(file)
    # Run `make catalogs` after changing the texts: the template and catalogs follow it.
    assert {(message.context, as_tuple(message.id)) for message in template if message.id} == (
        expected
    )


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_catalog_is_complete_and_keeps_every_placeholder(language: str) -> None:
    catalog = po(language)
    assert not catalog.fuzzy
    messages = {message.context: message for message in catalog if message.id}
    assert set(messages) == set(TEXTS)
    plural_forms = catalog.num_plurals
    for key, message in messages.items():
        assert not message.fuzzy, key
        english = source_ids(key)
        assert as_tuple(message.id) == english, key
        forms = as_tuple(message.string)
        assert len(forms) == (plural_forms if len(english) == 2 else 1), key
        for form in forms:
            assert form.strip(), f"{language}: {key} is not translated"
            assert fields(form) == fields(english[-1]), f"{language}: {key} {form!r}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalogs_match_their_sources(language: str) -> None:
    fresh = io.BytesIO()
    write_mo(fresh, po(language))
    fresh.seek(0)
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    with open(folder / "sosgame.mo", "rb") as file:
        committed = gettext.GNUTranslations(file)
    # Run `make catalogs` after changing a .po file: the .mo is what the program reads.
    assert committed._catalog == gettext.GNUTranslations(fresh)._catalog  # type: ignore[attr-defined]


def test_plural_texts_take_each_language_s_form() -> None:
    english, hindi, vietnamese = translator("en"), translator("hi"), translator("vi")
    assert english("tui.loaded", path="g", count=1) == "Opened g (1 move)."
    assert english("tui.loaded", path="g", count=0) == "Opened g (0 moves)."
    assert hindi("tui.loaded", path="g", count=1) == "g खोली गई (1 चाल)।"
    assert hindi("tui.loaded", path="g", count=5) == "g खोली गई (5 चालें)।"
    assert hindi("scored", name="A", count=1, lines="a1-b1-c1") == "A ने 1 SOS (a1-b1-c1) बनाया।"
    assert hindi("scored", name="A", count=2, lines="x") == "A ने 2 SOS (x) बनाए।"
    assert vietnamese("tui.loaded", path="g", count=1) == vietnamese(
        "tui.loaded", path="g", count=7
    ).replace("7", "1")


def test_an_unknown_key_or_a_missing_count_is_a_clear_error() -> None:
    with pytest.raises(LookupError, match=r"no interface text is called 'no\.such'"):
        translator("vi")("no.such")
    with pytest.raises(TypeError, match="give count=N"):
        translator("en")("tui.loaded", path="g")
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        translator("fr")


def test_the_browser_gets_every_text_in_every_language() -> None:
    catalog = browser_catalog()
    assert set(catalog) == set(TEXTS)
    for key, entry in catalog.items():
        assert set(entry) == set(LANGUAGES), key
        if isinstance(TEXTS[key], Plural):
            assert all(set(forms) == {"one", "other"} for forms in entry.values()), key  # type: ignore[arg-type]
    assert catalog["to_move"]["vi"] == "Đến lượt {name}."
