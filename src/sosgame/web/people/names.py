"""Names that look alike: the normal form a claimed name is stored in, and its confusables
skeleton (Unicode Technical Standard #39), under which two names that a reader could take
for one another are equal: "alice", the same with a Cyrillic a (U+0430) and in full width
letters.

No library on PyPI that installs everywhere without a compiler gives the skeleton itself
(PyICU's ``SpoofChecker.getSkeleton`` needs ICU's headers and a compiler; the wheels that
bundle ICU cover only a few platforms), so it is computed here from the confusables data of
``confusable-homoglyphs``, which is Unicode's ``confusables.txt`` kept as a map from each
character to the ones it is confusable with, in both directions.
"""

from __future__ import annotations

import json
import secrets
import unicodedata
from collections import defaultdict
from functools import cache
from importlib import resources
from typing import Final

from sosgame.limits import WEB_MAX_NAME
from sosgame.web.guards.limits import is_filler

__all__ = ["distinct_names", "guest_name", "normal_name", "skeleton"]

# Marks the data wraps right-to-left characters in (from the file's comments), not content.
_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")


GUEST: Final = "Guest"
"""The name of a guest who gives none, before its number (see :func:`guest_name`)."""


def guest_name() -> str:
    """A guest's name of their own, such as "Guest 4821": two guests paired in a pool are told
    apart in the game, its lists and its chat."""
    return f"{GUEST} {1000 + secrets.randbelow(9000)}"


def distinct_names(names: list[str]) -> list[str]:
    """``names`` with each later repeat of a name (or of a name that looks like it) numbered,
    "Ann (2)", so that every seat of a game reads as its own person (a long name is cut to
    make room for its number: a name stays within ``WEB_MAX_NAME``)."""
    seen: set[str] = set()
    out: list[str] = []
    for name in names:
        chosen, number = name, 1
        while skeleton(chosen) in seen:
            number += 1
            suffix = f" ({number})"
            chosen = name[: WEB_MAX_NAME - len(suffix)].rstrip() + suffix
        seen.add(skeleton(chosen))
        out.append(chosen)
    return out


def normal_name(name: str) -> str:
    """The form a name is claimed and looked up in: NFKC, so compatibility variants (full
    width letters, ligatures, circled digits) are the plain characters they stand for."""
    return unicodedata.normalize("NFKC", name)


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype: what the skeleton puts in its place.

    ``confusables.txt`` maps every confusable character to one prototype (a prototype maps to
    nothing, so each class of look-alikes is a star around its prototype); the data kept by
    ``confusable-homoglyphs`` holds each pair both ways. The prototype is therefore the
    centre of its star: the member with several neighbours, or the one of several characters
    (sources are single characters). A class of two single characters has no centre to find;
    either serves, since skeletons are only compared with each other, so the smaller is taken.
    """
    text = resources.files("confusable_homoglyphs").joinpath("confusables.json")
    data: dict[str, list[dict[str, str]]] = json.loads(text.read_text(encoding="utf-8"))
    neighbours: defaultdict[str, set[str]] = defaultdict(set)
    for key, entries in data.items():
        one = key.translate(_DIRECTION_MARKS)
        for entry in entries:
            other = entry["c"].translate(_DIRECTION_MARKS)
            if one and other and one != other:
                neighbours[one].add(other)
                neighbours[other].add(one)
    prototypes: dict[str, str] = {}
    for char, linked in neighbours.items():
        if len(char) != 1 or len(linked) > 1:
            continue  # a sequence, or the centre of its star: a prototype itself
        (other,) = linked
        if len(other) > 1 or len(neighbours[other]) > 1 or other < char:
            prototypes[char] = other
    return prototypes


def skeleton(name: str) -> str:
    """The name's confusables skeleton, case-insensitive, the one key two names are compared
    by: NFKC, fillers left out (they show nothing, so "al\u3164ice" reads as "alice"), UTS
    #39's skeleton (NFD, each character replaced by its prototype, NFD again), then case
    folded and mapped once more, with the look-alikes of one script that the prototypes miss
    (:data:`_FOLDS`). Mapped before case folding, so that a capital I is an l ("AIice" is
    "Alice") and a zero an O ("b0b" is "bob"), as they look; folded after it, so that case
    never tells two names apart. Two names with the same skeleton look alike.

    >>> skeleton("AIice") == skeleton("alice") and skeleton("b0b") == skeleton("BOB")
    True
    >>> skeleton("vvill") == skeleton("will") and skeleton("rnary") == skeleton("Mary")
    True
    """
    shown = "".join(char for char in normal_name(name) if not is_filler(char))
    folded = _map(_map(shown).casefold())
    return unicodedata.normalize("NFD", "".join(_FOLDS.get(char, char) for char in folded))


_FOLDS: Final = {"w": "vv"}
"""Look-alikes within one script that ``confusables.txt`` leaves apart ("vv" and "w"); I, l,
1 and |, O and 0, and "rn" and "m" are in it already."""


def _map(text: str) -> str:
    """UTS #39's skeleton of ``text``: NFD, each character replaced by its prototype, NFD."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(_expand(char, prototypes) for char in decomposed))


def _expand(char: str, prototypes: dict[str, str]) -> str:
    """A character's prototype, itself made of prototypes (a sequence's characters may be
    mapped further when two of its single characters form a class of their own)."""
    prototype = prototypes.get(char)
    if prototype is None:
        return char
    if len(prototype) == 1:
        return prototypes.get(prototype, prototype)
    return "".join(prototypes.get(part, part) for part in unicodedata.normalize("NFD", prototype))
