"""What a game may be: board sides, seat counts and player names, for new games and uploads.

Every entry point that makes a game (``POST /api/games``, ``POST /api/records``) checks its
settings here, so the two can never drift apart. The board and the seat count are the
engine's to decide (:func:`sosgame.notation.check_size`, :func:`sosgame.game.check_players`):
the web takes every game the engine plays, and only translates the engine's error into one
that names the request's field.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from sosgame import settings
from sosgame.errors import InvalidSettingsError
from sosgame.game import check_players
from sosgame.limits import WEB_MAX_NAME
from sosgame.notation import check_size

__all__ = [
    "MAX_PASSWORD",
    "MIN_PASSWORD",
    "SettingsError",
    "check_board",
    "check_name",
    "check_password",
    "check_seat_count",
    "draws_nothing",
    "is_filler",
    "is_text",
]

MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 128
"""A password's length, in characters."""


# Default-ignorable code points (Unicode's DerivedCoreProperties.txt), which fonts draw as
# nothing, and the fillers and blanks that are letters or symbols yet draw nothing either.
_BLANK_RANGES: Final = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def is_filler(char: str) -> bool:
    """Whether ``char`` is a default-ignorable code point or a blank filler such as U+3164
    HANGUL FILLER or U+2800 BRAILLE PATTERN BLANK: present, yet nothing to see."""
    code = ord(char)
    return any(low <= code <= high for low, high in _BLANK_RANGES)


def draws_nothing(char: str) -> bool:
    """Whether ``char`` leaves no mark of its own: a space, a combining mark (which only
    changes the letter before it) or a filler (:func:`is_filler`)."""
    return unicodedata.category(char)[0] in "ZM" or is_filler(char)


class SettingsError(ValueError):
    """A setting outside the limits; the message names the field."""


def check_board(rows: object, cols: object) -> tuple[int, int]:
    """The sides of a board the engine plays; the error names field ``rows`` or ``cols``."""
    try:
        return check_size(rows, cols)
    except InvalidSettingsError as error:
        raise SettingsError(f"field {error.field!r}: {error}") from None


def check_seat_count(count: int, where: str) -> int:
    """How many seats a game has, as many as the engine seats; the error names ``where``."""
    try:
        return check_players(count)
    except InvalidSettingsError as error:
        raise SettingsError(f"field {where!r}: {error}") from None


def check_name(value: object, where: str) -> str:
    """A player's name: 1 to ``WEB_MAX_NAME`` characters after trimming spaces, none of them a
    control, format (such as a bidirectional override) or unassigned character, and at least
    one that draws something (see :func:`draws_nothing`)."""
    if not isinstance(value, str):
        raise SettingsError(f"field {where!r} must be text")
    name = " ".join(value.split())
    try:  # the engine's rule for every name (sosgame.settings.check_name), in the web's words
        settings.check_name(name, 0)
    except InvalidSettingsError as error:
        if error.code == "name_control":
            raise SettingsError(
                f"field {where!r} must not hold control characters or bidirectional overrides"
            ) from None
        raise SettingsError(
            f"field {where!r} must be a name of 1 to {WEB_MAX_NAME} characters"
        ) from None
    if all(draws_nothing(char) for char in name):
        raise SettingsError(f"field {where!r} must hold a visible character: it looks blank")
    return name


def is_text(value: str) -> bool:
    """Whether ``value`` is text that can be written down (no lone surrogate from a JSON
    escape such as ``"\\ud800"``)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_password(value: object, name: str) -> str:
    """A password for the name ``name``: ``MIN_PASSWORD`` to ``MAX_PASSWORD`` characters, not
    the name itself and not one character repeated."""
    if not isinstance(value, str) or not is_text(value):
        raise SettingsError("field 'password' must be text")
    if len(value) > MAX_PASSWORD:
        raise SettingsError(f"the password is too long: at most {MAX_PASSWORD} characters")
    if len(value) < MIN_PASSWORD:
        raise SettingsError(f"the password is too weak: use at least {MIN_PASSWORD} characters")
    if value.casefold() == name.casefold() or len(set(value)) == 1:
        raise SettingsError(
            "the password is too weak: it must not be the name or one character repeated"
        )
    return value
