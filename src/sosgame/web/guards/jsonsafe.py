"""Parsing JSON from strangers: every check takes time in proportion to the text's length.

Before the parser sees the text, one pass strips the strings and checks what is left: the
nesting depth (Python's parser recurses once per level, so a few kilobytes of ``[`` would
otherwise end in a ``RecursionError`` deep inside it) and the length of every number (an
integer of more than 4,300 digits makes Python's ``int`` refuse it with a plain
``ValueError``). The parser then refuses ``NaN``, ``Infinity`` and numbers too large for a
float, and the strings it made are checked for lone surrogates (``"\\ud800"``), which are
not Unicode characters and could not be encoded, hashed or stored later.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Final

from sosgame.files import bracket_depth, outside_strings

__all__ = ["MAX_DEPTH", "MAX_NUMBER_LENGTH", "JsonError", "depth", "loads"]

MAX_DEPTH: Final = 32
"""The deepest nesting of arrays and objects accepted in a message (an uploaded record is
held to :data:`sosgame.limits.RECORD_MAX_DEPTH`)."""
MAX_NUMBER_LENGTH: Final = 100
"""The most characters a number may have (sign, digits, point and exponent)."""

# A run of number characters, matched only from its start so each run is read once.
_LONG_NUMBER: Final = re.compile(rf"(?<![-+.0-9eE])[-+.0-9eE]{{{MAX_NUMBER_LENGTH + 1}}}")
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")


class JsonError(ValueError):
    """Text that is not JSON, nested too deeply, or holding a number or string the server
    does not take; the message says which."""


def depth(text: str) -> int:
    """How deep the arrays and objects in ``text`` nest (brackets inside strings, closed or
    not, do not count), in one pass over the text (:func:`sosgame.files.nesting`)."""
    return bracket_depth(outside_strings(text))


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonError(f"the number {text[:20]} is too large")
    return value


def _constant(name: str) -> Any:
    raise JsonError(f"{name} is not a number JSON allows")


def _has_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return True
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
    return False


def loads(data: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """Parse ``data`` as JSON nested at most ``max_depth`` deep, or raise :class:`JsonError`.

    Numbers longer than :data:`MAX_NUMBER_LENGTH` characters, ``NaN``, ``Infinity``, numbers
    beyond a float's range and strings holding lone surrogates are refused too.
    """
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as error:
        raise JsonError(f"not UTF-8: {error}") from None
    if isinstance(data, str) and _SURROGATE.search(text):
        raise JsonError("text must not hold lone surrogates (U+D800 to U+DFFF)")
    outside = outside_strings(text)
    if bracket_depth(outside) > max_depth:
        raise JsonError(f"arrays and objects may be nested at most {max_depth} deep")
    if _LONG_NUMBER.search(outside):
        raise JsonError(f"a number may be at most {MAX_NUMBER_LENGTH} characters long")
    try:
        value = json.loads(text, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise JsonError(str(error)) from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise JsonError(f"arrays and objects may be nested at most {max_depth} deep") from None
    if _SURROGATE_ESCAPE.search(text) and _has_surrogate(value):
        raise JsonError(r"strings must not hold lone surrogates (such as \ud800)")
    return value
