"""One piece of a split solve: solving it (in any process) and keeping its result on disk.

A piece's result is a small JSON file, ``DIR/<rows>x<cols>-<mode>/<position>.json`` (the
position's canonical text with ``_`` for an empty cell and ``-`` between rows, such as
``_____-_____-_____-_____-___OS.json``), holding ``board``, ``rows``, ``cols``,
``mode``, ``value`` (exact, for the side to move) or, while only bounds are known,
``lower`` and ``upper`` (either may be missing: the least and most the piece is worth),
``nodes``, ``seconds`` (all the work spent on the piece so far), ``memory_mb``,
``peak_rss_mb`` (the solving process's peak resident memory) and ``version``. When the root is
the empty board, the combined result goes to ``solved-split<depth>.json`` in the same folder,
with the keys of docs/solved.json. With certificates asked for, each piece's proof goes beside
its result, ``<position>.proof.json.gz``. Files are written whole or not at all, so a solve stopped
at any moment leaves only finished pieces behind.
"""

from __future__ import annotations

import gzip
import json
import resource
import threading
import time
from pathlib import Path
from typing import Any

from sosgame import __version__
from sosgame.errors import InvalidSettingsError
from sosgame.files import write_file
from sosgame.game import Game, Mode
from sosgame.research.split import Interval, widest
from sosgame.search.table import TranspositionTable

__all__ = ["PieceStore", "bound_piece", "interval", "solve_piece"]

_RESULT_KEYS = ("board", "rows", "cols", "mode", "nodes", "seconds")
_local = threading.local()


def _table(memory_mb: int) -> TranspositionTable:
    # One table per worker thread, kept between pieces: what one piece learns about a
    # position stays true for the next (values depend on the board alone).
    table: TranspositionTable | None = getattr(_local, "table", None)
    if table is None or getattr(_local, "memory_mb", None) != memory_mb:
        table = _local.table = TranspositionTable(memory_mb)
        _local.memory_mb = memory_mb
    return table


def solve_piece(
    board: str, mode: Mode, memory_mb: int, proof_limit: int | None = None
) -> dict[str, Any]:
    """The exact value of position ``board`` for the side to move, as a piece's result.

    With ``proof_limit``, the result's ``entries`` also prove it (see
    :mod:`sosgame.research.certificate`), or ``proof_over`` says they would be more than that.
    A plain function of plain arguments, so a process pool or a Dask worker can run it.
    """
    from sosgame.research.certificate import CertificateTooLargeError, prove
    from sosgame.solver import Search, warm_up

    warm_up()
    game = Game.from_position(board, mode=mode)
    start = time.perf_counter()
    run = Search(game, _table(memory_mb), None)
    # Neighbouring pieces tend to share their value: the last one is the first guess to test.
    value = _local.guess = run.exact(getattr(_local, "guess", 0))
    proof: dict[str, Any] = {}
    if proof_limit is not None:
        try:
            proof["entries"] = prove(run, mode, value, proof_limit)
        except CertificateTooLargeError:
            proof["proof_over"] = proof_limit
    return proof | {
        "board": board,
        "rows": game.rows,
        "cols": game.cols,
        "mode": mode,
        "value": value,
        "nodes": run.nodes,
        "seconds": round(time.perf_counter() - start, 3),
        "memory_mb": memory_mb,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        "version": __version__,
    }


def bound_piece(board: str, mode: Mode, memory_mb: int, target: int) -> dict[str, Any]:
    """Whether position ``board`` is worth at least ``target`` to the side to move, as a bound.

    The result has ``lower`` (the piece is worth at least that, which is ``target`` or more)
    or ``upper`` (at most that, below ``target``): one null-window search, far cheaper than
    an exact value. A plain function of plain arguments, like :func:`solve_piece`.
    """
    from sosgame.solver import Search, warm_up

    warm_up()
    game = Game.from_position(board, mode=mode)
    start = time.perf_counter()
    run = Search(game, _table(memory_mb), None)
    bound = run.value(target - 1, target)
    return {
        "board": board,
        "rows": game.rows,
        "cols": game.cols,
        "mode": mode,
        "lower" if bound >= target else "upper": bound,
        "nodes": run.nodes,
        "seconds": round(time.perf_counter() - start, 3),
        "memory_mb": memory_mb,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        "version": __version__,
    }


def prove_piece(
    board: str,
    mode: Mode,
    memory_mb: int,
    claim: tuple[int | None, int | None],
    proof_limit: int | None,
) -> dict[str, Any]:
    """The certificate entries proving position ``board`` is worth at least ``claim[0]`` and
    at most ``claim[1]`` (None: nothing to prove that side), as ``{"board", "claim",
    "entries"}``, or ``proof_over`` instead of ``entries`` if they would be more than
    ``proof_limit``. A plain function of plain arguments, like :func:`solve_piece`.
    """
    from sosgame.research.certificate import CertificateTooLargeError, prove_bounds
    from sosgame.solver import Search, warm_up

    warm_up()
    run = Search(Game.from_position(board, mode=mode), _table(memory_mb), None)
    result: dict[str, Any] = {"board": board, "claim": list(claim)}
    try:
        result["entries"] = prove_bounds(run, mode, *claim, proof_limit)
    except CertificateTooLargeError:
        result["proof_over"] = proof_limit
    return result


def interval(result: dict[str, Any]) -> Interval:
    """The least and most a piece's result says it is worth (a side with no bound: anything
    a position can be worth, :func:`~sosgame.research.split.widest`)."""
    if "value" in result:
        return result["value"], result["value"]
    low, high = widest(result["board"], result["mode"] == "simple")
    return max(low, result.get("lower", low)), min(high, result.get("upper", high))


def _file_name(board: str) -> str:
    # Not the text itself: a name starting with "." would be hidden, one with "-" an option.
    return board.replace(".", "_").replace("/", "-")


class PieceStore:
    """The finished pieces of one board size and mode, one JSON file each, under ``root``."""

    def __init__(self, root: Path, rows: int, cols: int, mode: str) -> None:
        self.folder = Path(root) / f"{rows}x{cols}-{mode}"
        self.rows, self.cols, self.mode = rows, cols, mode

    def path(self, board: str) -> Path:
        """Where the result for position ``board`` lives."""
        return self.folder / (_file_name(board) + ".json")

    def load(self, board: str) -> dict[str, Any] | None:
        """The stored result for ``board``, or None if it is not solved yet.

        :raises InvalidSettingsError: if the file is there but is not this piece's result.
        """
        path = self.path(board)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        try:
            result = json.loads(text)
        except json.JSONDecodeError as error:
            raise InvalidSettingsError(f"{path} is not a piece's result: {error}") from None
        expected = {"board": board, "rows": self.rows, "cols": self.cols, "mode": self.mode}
        if (
            not isinstance(result, dict)
            or any(key not in result for key in _RESULT_KEYS)
            or any(result[key] != value for key, value in expected.items())
            or not _bounds_hold(result)
        ):
            raise InvalidSettingsError(f"{path} is not the result of piece {board}")
        return result

    def proof_path(self, board: str, claim: tuple[int | None, int | None] | None = None) -> Path:
        """Where the proof of ``board``'s value lives (its certificate entries, gzip JSON), or
        with ``claim``, the proof of those bounds (lower, upper; None: not proven that side)."""
        sides = (
            ""
            if claim is None
            else "".join(
                f"-{side}{bound}"
                for side, bound in zip(("lower", "upper"), claim, strict=True)
                if bound is not None
            )
        )
        return self.folder / (_file_name(board) + f".proof{sides}.json.gz")

    def load_proof(
        self, board: str, claim: tuple[int | None, int | None] | None = None
    ) -> list[list[Any]]:
        """The stored proof entries of ``board`` (of ``claim``, if given).

        :raises InvalidSettingsError: if the file cannot be read as a list of entries.
        """
        path = self.proof_path(board, claim)
        try:
            entries = json.loads(gzip.decompress(path.read_bytes()))
        except (OSError, ValueError, EOFError) as error:
            raise InvalidSettingsError(f"cannot read the proof {path}: {error}") from None
        if not isinstance(entries, list):
            raise InvalidSettingsError(f"{path} is not a list of proof entries")
        return entries

    def save_proof(
        self,
        board: str,
        entries: list[list[Any]],
        claim: tuple[int | None, int | None] | None = None,
    ) -> None:
        """Write the proof entries of ``board`` (of ``claim``, if given; whole, or not at all)."""
        data = json.dumps(entries, separators=(",", ":")).encode()
        write_file(self.proof_path(board, claim), gzip.compress(data, mtime=0))

    def root_path(self, depth: int) -> Path:
        """Where the empty board's value, combined from its pieces ``depth`` moves deep, lives."""
        return self.folder / f"solved-split{depth}.json"

    def save_root(self, depth: int, entry: dict[str, Any]) -> None:
        """Write the empty board's combined result (the entry docs/solved.json lists)."""
        self._write(self.root_path(depth), entry)

    def save(self, result: dict[str, Any]) -> None:
        """Write one piece's result (whole, by renaming a finished temporary file)."""
        self._write(self.path(result["board"]), result)

    def add_bound(self, result: dict[str, Any]) -> dict[str, Any]:
        """Narrow the stored bounds of a piece by a :func:`bound_piece` result; returns the
        merged result as written (``value`` once the bounds meet; work is added up)."""
        merged = dict(result)
        old = self.load(result["board"])
        if old is not None:
            for key, pick in (("lower", max), ("upper", min)):
                bounds = [found.get(key, found.get("value")) for found in (old, result)]
                known = [bound for bound in bounds if bound is not None]
                if known:
                    merged[key] = pick(known)
            merged["nodes"] = old["nodes"] + result["nodes"]
            merged["seconds"] = round(old["seconds"] + result["seconds"], 3)
            merged["peak_rss_mb"] = max(old.get("peak_rss_mb", 0), result["peak_rss_mb"])
        if merged.get("lower") is not None and merged.get("lower") == merged.get("upper"):
            merged["value"] = merged.pop("lower")
            del merged["upper"]
        self.save(merged)
        return merged

    @staticmethod
    def _write(path: Path, result: dict[str, Any]) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_file(path, (json.dumps(result, indent=1) + "\n").encode())


def _bounds_hold(result: dict[str, Any]) -> bool:
    # An exact value, or one or two bounds that leave room for a value.
    if "value" in result:
        return isinstance(result["value"], int) and not isinstance(result["value"], bool)
    bounds = [result[key] for key in ("lower", "upper") if key in result]
    if not bounds or any(not isinstance(bound, int) or isinstance(bound, bool) for bound in bounds):
        return False
    return len(bounds) == 1 or result["lower"] < result["upper"]
