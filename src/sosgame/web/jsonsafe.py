"""Parsing JSON from strangers: the nesting depth is checked before the parser sees the text.

Python's parser recurses once per level, so a few kilobytes of ``[`` would otherwise end in a
``RecursionError`` deep inside it.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

__all__ = ["MAX_DEPTH", "JsonError", "loads"]

MAX_DEPTH: Final = 32
"""The deepest nesting of arrays and objects accepted (a record needs four)."""

# A string (skipped whole, so brackets inside it do not count) or one bracket.
_TOKENS: Final = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


class JsonError(ValueError):
    """Text that is not JSON, or nested too deeply; the message says which."""


def _depth_ok(text: str, limit: int) -> bool:
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limit:
                return False
        elif token in "]}":
            depth -= 1
    return True


def loads(data: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """Parse ``data`` as JSON nested at most ``max_depth`` deep, or raise :class:`JsonError`."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as error:
        raise JsonError(f"not UTF-8: {error}") from None
    if not _depth_ok(text, max_depth):
        raise JsonError(f"arrays and objects may be nested at most {max_depth} deep")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise JsonError(str(error)) from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise JsonError(f"arrays and objects may be nested at most {max_depth} deep") from None
