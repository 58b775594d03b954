"""The errors sosgame raises: every one is a precise subclass of :class:`ValueError`."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = [
    "FileError",
    "GameOverError",
    "IllegalMoveError",
    "InvalidCellError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidSettingsError",
    "NothingToUndoError",
    "OccupiedCellError",
    "OffBoardError",
    "RecordError",
    "SosError",
]


class SosError(ValueError):
    """Base class of every error sosgame raises on bad input.

    ``code`` names the error's text in the interfaces' catalogs (the text ``error.CODE``), and
    ``values`` fills in its placeholders, so that an interface can show the error in its
    player's language (:func:`sosgame.i18n.error_text`); ``str(error)`` is that text in
    English. A value may itself be an error, shown in the same language. An error without a
    code is shown as it is.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        values: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.values: dict[str, object] = dict(values or {})


class InvalidCellError(SosError):
    """Text that is not a cell such as ``b3``."""


class InvalidMoveError(SosError):
    """Text (or a value) that is not a move such as ``Sb3``."""


class InvalidPositionError(SosError):
    """Text that is not a position such as ``S.O/.../OSS``, or a position the rules forbid."""


class InvalidSettingsError(SosError):
    """A board size, player count, mode, turn or score list outside what the rules allow.

    ``field`` names the setting that is wrong (``rows``, ``cols``, ``players``, ``mode``), if
    one is, so that an interface can point at its own field for it.
    """

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        code: str | None = None,
        values: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message, code=code, values=values)
        self.field = field


class IllegalMoveError(SosError):
    """A well-formed move (or resignation) that the current position forbids."""


class OffBoardError(IllegalMoveError):
    """A move on a cell outside the board."""


class OccupiedCellError(IllegalMoveError):
    """A move on a cell that already holds a letter."""


class GameOverError(IllegalMoveError):
    """A move or resignation after the game has ended."""


class NothingToUndoError(SosError):
    """An undo with no move or resignation left to take back."""


class RecordError(SosError):
    """A game record that is malformed or disagrees with the rules.

    ``field`` names the offending JSON field (for example ``"moves[4]"``) and ``ply`` the
    1-based ply of an offending move, where they apply.
    """

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        ply: int | None = None,
        code: str | None = None,
        values: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message, code=code, values=values)
        self.field = field
        self.ply = ply


class FileError(SosError):
    """A file the program cannot read or write as one of its files (a record, a certificate,
    a puzzle set): missing, not a regular file, too large, too deeply nested, not UTF-8 text.

    ``values`` holds ``path`` and ``reason`` (the system's words, with ``errno``, or an error
    of its own that says what is wrong with the file).
    """
