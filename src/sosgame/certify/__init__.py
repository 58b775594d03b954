"""An independent checker of solver certificates: the rules engine alone, no search code.

A certificate claims the value of a position for the side to move (general mode: the mover's
future points minus the opponent's; simple mode: 1 win, 0 draw, -1 loss) and proves it with
*entries*, one per board (named by its canonical text, the smallest text among the board's
symmetric images): ``[board, lower, move, upper]``, where

* ``lower`` (with ``move``, in the coordinates of that text) claims the mover can force at
  least ``lower``: after ``move`` the position must be worth at least ``lower`` (the mover's
  strategy);
* ``upper`` claims the mover cannot get more than ``upper``: after *every* legal move the
  position must be worth at most ``upper`` (the opponent's answers, each proven);

either may be ``null``. A certificate too large to keep whole may list, under ``assumed``,
claims ``[board, lower, upper]`` it does not prove (such as the bounds of the pieces of a
split solve): the checker takes them as given, and its :class:`Report` counts them and does
not call the value proven. The checker plays each entry's moves with :class:`sosgame.Game` and
checks that the claims they lead to are terminal facts (a full board, a simple-mode SOS, a
simple-mode position whose mover can complete an SOS at once) or claims of other entries at
least as strong. Every entry's children have fewer empty cells, so
when every entry passes, every claim holds by induction, and with them the root's ``lower =
upper = value``. Checking a random sample of entries instead gives confidence, not proof:
:class:`Report` says which.

A proof too large to keep can be kept as a sample (:func:`sosgame.research.sample.extract`):
random entries of the whole proof, with the claims they use as ``assumed``, and
``sampled_from``, the number of entries of the whole proof. A proof too large even to write
is sampled by random walks down it (:func:`sosgame.research.walk.walk_certificate`): the
entries met on the way, the claims they use as ``assumed``, and ``walks``, how many walks
drew them.

The file is JSON (gzip-compressed if its name ends in ``.gz``)::

    {"format": "sosgame-certificate", "version": 1, "rows": 3, "cols": 3, "mode": "simple",
     "position": ".../.../...", "value": 0, "entries": [[".../.../...", 0, "Sb2", 0], ...]}
"""

from __future__ import annotations

import gzip
import json
import operator
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from sosgame.errors import FileError, SosError
from sosgame.files import check_writable, read_text, write_file
from sosgame.game import MODES, Game, Mode
from sosgame.limits import BOARD_MAX_SIDE, CERTIFICATE_MAX_BYTES, CERTIFICATE_MAX_DEPTH

__all__ = ["FORMAT", "CertificateError", "Report", "check", "load", "writable", "write"]

FORMAT: Final = "sosgame-certificate"
_VERSION: Final = 1

_Claim = tuple[int | None, str | None, int | None]
"""An entry's ``lower``, ``move`` and ``upper`` (an assumed claim has no move)."""


class CertificateError(SosError):
    """The certificate does not prove what it claims (or is not a certificate)."""


@dataclass(frozen=True)
class Report:
    """What a check found: the proven value and how much of the proof was checked."""

    rows: int
    cols: int
    mode: str
    position: str
    value: int
    entries: int
    checked: int
    assumed: int = 0
    """Claims the certificate takes as given instead of proving them."""
    sampled_from: int | None = None
    """For a kept sample of a larger proof, the number of entries of the whole proof."""
    walks: int | None = None
    """For a sample drawn by random walks down a proof never written whole, their number."""

    @property
    def complete(self) -> bool:
        """True if every entry was checked and none was assumed: the value is proven, not
        only sampled or proven from assumptions."""
        whole = self.sampled_from is None and self.walks is None
        return self.checked == self.entries and not self.assumed and whole


def load(path: str | Path) -> dict[str, Any]:
    """Read a certificate file (``.gz``: gzip-compressed JSON) by
    :func:`sosgame.files.read_text`: a regular file of at most
    :data:`~sosgame.limits.CERTIFICATE_MAX_BYTES` once decompressed.

    :raises CertificateError: if the file cannot be read as JSON.
    """
    path = Path(path)
    try:
        text = read_text(
            path,
            most=CERTIFICATE_MAX_BYTES,
            depth=CERTIFICATE_MAX_DEPTH,
            gzipped=path.name.endswith(".gz"),
        )
        document = json.loads(text)
    except FileError as error:
        raise _unreadable(path, error.values["reason"], error.values.get("errno")) from None
    except ValueError as error:
        raise _unreadable(path, str(error), None) from None
    if not isinstance(document, dict):
        raise CertificateError(
            f"{path} holds no certificate object", code="no_certificate", values={"path": str(path)}
        )
    return document


def _unreadable(path: Path, reason: object, number: object) -> CertificateError:
    return CertificateError(
        f"cannot read certificate {path}: {reason}",
        code="certificate_unreadable",
        values={"path": str(path), "reason": reason, "errno": number},
    )


def write(document: dict[str, Any], path: str | Path) -> None:
    """Write a certificate as JSON, gzip-compressed if ``path`` ends in ``.gz``, by
    :func:`sosgame.files.write_file`: whole or not at all, never over a folder, a pipe or a
    device.

    :raises CertificateError: if the file cannot be written (nothing is left behind then).
    """
    path = Path(path)
    data = json.dumps(document, separators=(",", ":")).encode()
    if path.name.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    try:
        write_file(path, data)
    except FileError as error:
        raise _unwritable(path, error) from None


def writable(path: str | Path) -> None:
    """Check that :func:`write` would not refuse ``path`` for what it is (a folder, a pipe,
    a device), before the solve that makes the certificate.

    :raises CertificateError: if it would.
    """
    try:
        check_writable(path)
    except FileError as error:
        raise _unwritable(Path(path), error) from None


def _unwritable(path: Path, error: FileError) -> CertificateError:
    return CertificateError(
        f"cannot write certificate {path}: {error.values['reason']}",
        code="certificate_unwritable",
        values=error.values,
    )


class _Board:
    """The symmetric images of a board, and its canonical text (checker's own copy)."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        images = []
        for kind in range(8 if rows == cols else 4):
            image = []
            for row in range(rows):
                for col in range(cols):
                    image_row = rows - 1 - row if kind & 2 else row
                    image_col = cols - 1 - col if kind & 1 else col
                    if kind & 4:
                        image_row, image_col = image_col, image_row
                    image.append(image_row * cols + image_col)
            images.append(image)
        # cells[i] of an image's text comes from cell source[i] of the board.
        self.images: list[Callable[[str], Iterable[str]]] = []
        for image in images:
            source = [0] * len(image)
            for cell, target in enumerate(image):
                source[target] = cell
            self.images.append(operator.itemgetter(*source) if len(source) > 1 else _one(source))

    def canonical(self, position: str) -> str:
        cells = position.replace("/", "")
        if len(cells) != self.rows * self.cols or position.count("/") != self.rows - 1:
            shown = position if len(position) <= 60 else position[:60] + "..."
            raise CertificateError(f"board {shown!r} is not a {self.rows}x{self.cols} board")
        # Every image has its row breaks in the same places, so the least flat text is the
        # least text.
        best = min("".join(image(cells)) for image in self.images)
        cols = self.cols
        return "/".join(best[start : start + cols] for start in range(0, len(best), cols))


class _Checker:
    def __init__(self, document: dict[str, Any]) -> None:
        if document.get("format") != FORMAT or document.get("version") != _VERSION:
            raise CertificateError(
                f"not a {FORMAT} version {_VERSION} document",
                code="certificate_format",
                values={"format": FORMAT, "version": _VERSION},
            )
        rows, cols, mode = document.get("rows"), document.get("cols"), document.get("mode")
        if not (isinstance(rows, int) and isinstance(cols, int) and _whole(rows) and _whole(cols)):
            raise CertificateError("rows and cols must be whole numbers of at least 1")
        if max(rows, cols) > BOARD_MAX_SIDE:
            raise CertificateError(f"rows and cols must be at most {BOARD_MAX_SIDE}")
        if mode not in MODES:
            raise CertificateError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.mode: Mode = "simple" if mode == "simple" else "general"
        self.simple = mode == "simple"
        self.board = _Board(rows, cols)
        position, value = document.get("position"), document.get("value")
        if not (isinstance(position, str) and isinstance(value, int) and _whole(value, True)):
            raise CertificateError("position must be a text and value a whole number")
        self.position: str = position
        self.value: int = value
        self.entries: dict[str, _Claim] = {}
        listed = document.get("entries")
        if not isinstance(listed, list):
            raise CertificateError("entries must be a list")
        for entry in listed:
            if not (isinstance(entry, list) and len(entry) == 4 and isinstance(entry[0], str)):
                raise CertificateError(f"an entry must be [board, lower, move, upper]: {entry!r}")
            text, lower, move, upper = entry
            if text in self.entries:
                raise CertificateError(f"board {text} has two entries")
            if self.board.canonical(text) != text:
                raise CertificateError(f"board {text} is not written in its canonical form")
            if (lower is None) != (move is None) or (lower is None and upper is None):
                raise CertificateError(f"entry {entry!r} needs lower with move, or upper")
            if not all(bound is None or _whole(bound, True) for bound in (lower, upper)):
                raise CertificateError(f"entry {entry!r} has a bound that is not a whole number")
            if move is not None and not isinstance(move, str):
                raise CertificateError(f"entry {entry!r} has a move that is not a text")
            self.entries[text] = (lower, move, upper)
        self.assumed: dict[str, _Claim] = {}
        claims = document.get("assumed", [])
        if not isinstance(claims, list):
            raise CertificateError("assumed must be a list")
        for claim in claims:
            if not (isinstance(claim, list) and len(claim) == 3 and isinstance(claim[0], str)):
                raise CertificateError(f"an assumed claim must be [board, lower, upper]: {claim!r}")
            text, lower, upper = claim
            if text in self.assumed or self.board.canonical(text) != text:
                raise CertificateError(f"assumed board {text} is repeated or not canonical")
            if (lower is None and upper is None) or not all(
                bound is None or _whole(bound, True) for bound in (lower, upper)
            ):
                raise CertificateError(f"assumed claim {claim!r} needs whole-number bounds")
            self.assumed[text] = (lower, None, upper)
        whole = document.get("sampled_from")
        if whole is not None and not (_whole(whole) and whole >= len(self.entries)):
            raise CertificateError(
                f"sampled_from must be a whole number of at least {len(self.entries)} (the"
                f" entries kept), not {whole!r}"
            )
        self.sampled_from: int | None = whole
        walks = document.get("walks")
        if walks is not None and not _whole(walks):
            raise CertificateError(f"walks must be a whole number of at least 1, not {walks!r}")
        self.walks: int | None = walks

    def _claims(self, position: str) -> tuple[_Claim, ...]:
        return self._claims_of(self.board.canonical(position))

    def _claims_of(self, text: str) -> tuple[_Claim, ...]:
        return tuple(known[text] for known in (self.entries, self.assumed) if text in known)

    def check_root(self) -> Game:
        """The root as a game, once its value is shown to follow from the claims about it."""
        try:
            start = Game.from_position(self.position, mode=self.mode)
        except SosError as error:
            raise CertificateError(f"the position is not a position: {error}") from None
        if (start.rows, start.cols) != (self.board.rows, self.board.cols) or start.is_over:
            raise CertificateError("the position is not an unfinished game on the named board")
        value = self.value
        if not (self.proves_at_least(start, value) and self.at_most(self.position, value)):
            raise CertificateError(f"no entry proves the root's value {value} from both sides")
        return start

    def at_least(self, position: str, bound: int) -> bool:
        """Is the mover's value of ``position`` proven to be at least ``bound``?"""
        if "." not in position:
            return bound <= 0
        if self.simple and bound <= -1:
            return True
        return any(lower is not None and lower >= bound for lower, _, _ in self._claims(position))

    def at_most(self, position: str, bound: int) -> bool:
        """Is the mover's value of ``position`` proven to be at most ``bound``?"""
        if "." not in position:
            return bound >= 0
        if self.simple and bound >= 1:
            return True
        return any(upper is not None and upper <= bound for _, _, upper in self._claims(position))

    def proves_at_least(self, game: Game, bound: int) -> bool:
        """:meth:`at_least` for the position of ``game``, which may also win at once."""
        if self.at_least(game.position(), bound):
            return True
        # Simple mode: a mover who can complete an SOS wins (value 1) and needs no entry.
        return self.simple and bound <= 1 and self._can_score(game)

    @staticmethod
    def _can_score(game: Game) -> bool:
        for move in list(game.legal_moves):
            lines = game.play(move)
            game.undo()
            if lines:
                return True
        return False

    def follows(self, game: Game, lines: int, bound: int, lower: bool) -> bool:
        """After a move completing ``lines`` lines, is the mover's claim (``lower``: value at
        least ``bound``, else at most) proven by the position it leads to?"""
        if lines and self.simple:
            return bound <= 1 if lower else bound >= 1  # the mover has won: the value is 1
        if lines:  # the mover moves again, ``lines`` points up
            if lower:
                return self.proves_at_least(game, bound - lines)
            return self.at_most(game.position(), bound - lines)
        if lower:
            return self.at_most(game.position(), -bound)
        return self.proves_at_least(game, -bound)

    def check_entry(self, text: str) -> None:
        lower, move, upper = self.entries[text]
        try:
            game = Game.from_position(text, mode=self.mode)
        except SosError as error:
            raise CertificateError(f"board {text} is not a position: {error}") from None
        if game.is_over:
            raise CertificateError(f"board {text} is a finished game")
        if lower is not None:
            try:
                lines = len(game.play(str(move)))
            except SosError as error:
                raise CertificateError(f"board {text}: move {move} is illegal: {error}") from None
            if not self.follows(game, lines, lower, lower=True):
                raise CertificateError(f"board {text}: {move} does not prove at least {lower}")
            game.undo()
        if upper is not None:
            for reply in list(game.legal_moves):
                lines = len(game.play(reply))
                if not self.follows(game, lines, upper, lower=False):
                    raise CertificateError(f"board {text}: {reply} beats the bound {upper}")
                game.undo()


def check(
    document: dict[str, Any],
    *,
    sample: int | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    """Check a certificate: every entry, or a random ``sample`` of them (chosen by ``seed``).

    ``progress``, if given, is called after each entry with the number checked so far and the
    number to check in all.

    :raises CertificateError: naming the first entry that does not hold, or a malformed part.
    """
    if sample is not None and (type(sample) is not int or sample < 1):
        raise CertificateError(
            f"the sample must be a whole number of entries, at least 1, not {sample!r}",
            code="bad_sample",
            values={"sample": sample},
        )
    checker = _Checker(document)
    root = checker.position
    start = checker.check_root()
    value = checker.value
    boards = sorted(checker.entries)
    chosen = boards
    if sample is not None and sample < len(boards):
        chosen = random.Random(seed).sample(boards, sample)
        canonical = checker.board.canonical(root)
        if canonical in checker.entries and canonical not in chosen:
            chosen.append(canonical)
    for done, text in enumerate(chosen, start=1):
        checker.check_entry(text)
        if progress is not None:
            progress(done, len(chosen))
    return Report(
        start.rows,
        start.cols,
        checker.mode,
        root,
        value,
        len(boards),
        len(set(chosen)),
        len(checker.assumed),
        checker.sampled_from,
        checker.walks,
    )


def _one(source: list[int]) -> Callable[[str], Iterable[str]]:
    # itemgetter of one index gives the item itself, not a tuple of one.
    return lambda cells: cells[source[0]]


def _whole(value: object, negative: bool = False) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and (negative or value >= 1)
