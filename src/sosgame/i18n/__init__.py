"""The interfaces' words in English, Vietnamese and Hindi.

>>> translator("vi")("scores", scores="Ann 1")
'Điểm: Ann 1'
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Final, Literal, TypeAlias

from sosgame.i18n.catalog import CATALOG

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "Language", "detect_language", "translator"]

Language: TypeAlias = Literal["en", "vi", "hi"]
LANGUAGES: Final[dict[Language, str]] = {"en": "English", "vi": "Tiếng Việt", "hi": "हिन्दी"}
"""Each language's code and its name in that language."""
DEFAULT_LANGUAGE: Final[Language] = "en"


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


def translator(language: str) -> Callable[..., str]:
    """A function ``(key, **values) -> text`` in ``language`` (one of :data:`LANGUAGES`).

    :raises ValueError: for a language that is not one of ours.
    """
    if language not in LANGUAGES:
        known = ", ".join(LANGUAGES)
        raise ValueError(f"unknown language {language!r}: choose one of {known}")

    def translate(key: str, **values: object) -> str:
        return CATALOG[key][language].format(**values)

    return translate
