"""The marks that make a text extractable: ``text(key, english)`` and ``plural(key, one, many)``.

Babel's extractor knows them by name (``make catalogs``: ``-k text:1c,2 -k plural:1c,2,3``),
so the key becomes the message context and the English text the message id.
"""

from __future__ import annotations

from typing import NamedTuple, TypeAlias

__all__ = ["Plural", "Source", "plural", "text"]


class Plural(NamedTuple):
    """A text that depends on a number, ``{count}``: its English singular and plural."""

    singular: str
    plural: str


Source: TypeAlias = str | Plural
"""An English source text: plain, or a :class:`Plural`."""


def text(key: str, english: str) -> tuple[str, Source]:
    """The text ``key`` reads ``english`` in English."""
    return key, english


def plural(key: str, singular: str, plural: str) -> tuple[str, Source]:
    """The text ``key`` reads ``singular`` for a ``{count}`` of one in English, else ``plural``."""
    return key, Plural(singular, plural)
