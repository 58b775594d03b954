"""Split solves run on many processes: a local pool by default, a Dask cluster on request.

Both run through one :class:`concurrent.futures.Executor`: a
:class:`~concurrent.futures.ProcessPoolExecutor` here, or the executor of a
``distributed.Client`` connected to a scheduler's address (the ``cluster`` extra). The process
that calls :func:`solve_split` writes every finished piece to the store, so workers need
sosgame but no shared disk.

>>> import tempfile
>>> from sosgame import Game
>>> with tempfile.TemporaryDirectory() as store:
...     result = solve_split(Game(3, 3), 1, store, memory_mb=8, workers=1, progress=False)
>>> result.value, result.pieces
(0, 6)
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Executor, Future, as_completed
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from sosgame import __version__
from sosgame.errors import InvalidSettingsError, SosError
from sosgame.extras import MissingExtraError
from sosgame.game import Game
from sosgame.notation import Move
from sosgame.processes import check_workers, process_pool
from sosgame.research.bounded import solve_bounded
from sosgame.research.certificate import claims_above, document, merge, top_entries, write
from sosgame.research.pieces import PieceStore, interval, prove_piece, solve_piece
from sosgame.research.split import Interval, Plan, combine, plan_split, root_interval

__all__ = ["SplitSolution", "SplitStatus", "executor", "solve_split", "split_status"]


class SplitSolution(NamedTuple):
    """A root solved from its pieces, with the work of every piece (this run's and earlier)."""

    value: int
    best_moves: tuple[Move, ...]
    nodes: int
    """The nodes of all pieces."""
    seconds: float
    """The solving time of all pieces, added up (not the wall-clock time of this run)."""
    pieces: int
    solved_now: int
    """How many pieces this run solved (the rest were in the store already); in a bounded
    solve, how many piece tests it ran."""
    peak_rss_mb: int
    """The largest peak resident memory of a process that solved a piece."""
    unproven: int = 0
    """With a certificate asked for: the pieces whose proof was over the entry limit."""
    tested: int = 0
    """A bounded solve: the pieces it needed a bound of (the others were never searched)."""
    exact: int = 0
    """A bounded solve: the pieces whose exact value it came to know."""
    new_pieces: int = 0
    """A bounded solve: the pieces this run was the first to test."""


@contextmanager
def executor(workers: int | None = None, scheduler: str | None = None) -> Iterator[Executor]:
    """An executor for pieces: ``workers`` local processes, or the Dask cluster at ``scheduler``.

    :raises MissingExtraError: for a scheduler address when ``distributed`` is not installed.
    """
    if scheduler is None:
        if workers is not None and (isinstance(workers, bool) or workers < 1):
            raise InvalidSettingsError(
                f"workers must be at least 1, not {workers!r}",
                code="workers",
                values={"value": workers},
            )
        check_workers(workers, "workers")
        with process_pool(workers) as pool:
            yield pool
        return
    try:
        from distributed import Client
    except ImportError:
        raise MissingExtraError("sosgame solve --scheduler", "cluster", ("distributed",)) from None
    try:
        client = Client(scheduler)  # type: ignore[no-untyped-call]
    except (ValueError, OSError) as error:
        raise SosError(
            f"cannot reach the Dask scheduler at {scheduler}: {error}",
            code="scheduler",
            values={"address": scheduler, "reason": str(error)},
        ) from None
    with client:
        yield client.get_executor()  # type: ignore[no-untyped-call]


class SplitStatus(NamedTuple):
    """How far a split solve has come: pieces solved, and what they settle of the root."""

    pieces: int
    solved: int
    """The pieces whose exact value is known."""
    lower: int
    """The least the root can be worth (its value once enough pieces are settled)."""
    upper: int
    bounded: int = 0
    """The pieces only bounds are known of (a bounded solve tests most pieces no further)."""


def split_status(game: Game, depth: int, store: str | Path) -> SplitStatus:
    """What the store already settles of ``game``'s value split ``depth`` moves deep.

    :raises InvalidSettingsError: for a bad depth or a store file that is not its piece.
    """
    plan = plan_split(game, depth)
    pieces = PieceStore(Path(store), game.rows, game.cols, game.mode)
    known: dict[str, Interval] = {}
    for board in plan.pieces:
        result = pieces.load(board)
        if result is not None:
            known[board] = interval(result)
    lower, upper = root_interval(plan, known)
    solved = sum(low == high for low, high in known.values())
    return SplitStatus(len(plan.pieces), solved, lower, upper, len(known) - solved)


def solve_split(
    game: Game,
    depth: int,
    store: str | Path,
    *,
    memory_mb: int,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool = True,
    certificate: str | Path | None = None,
    entry_limit: int | None = None,
    exact_pieces: bool = False,
    guess: int = 0,
) -> SplitSolution:
    """Solve ``game``'s position from its pieces ``depth`` moves deep, kept under ``store``.

    By default the pieces are tested with null windows, each for the bound the search of the
    moves above them needs (:mod:`sosgame.research.bounded`; ``guess`` is the first value
    tried); with ``exact_pieces`` every piece is solved exactly.
    What the store holds is read, not computed again; each new result is written there as
    soon as it is finished, so a run stopped at any point goes on where it was when run again.
    ``memory_mb`` sizes each worker's transposition table. ``progress`` shows a bar (tqdm) with
    the work left and an estimate of the time it needs. With ``certificate``, every piece
    also gets a proof (of at most ``entry_limit`` entries), kept beside its result, and when
    all have one the certificate of the root's value is written to that file; otherwise
    ``unproven`` counts the pieces whose proof was too large.

    :raises InvalidSettingsError: for a bad depth, memory size or worker count, or a store
        file that is not the piece it is named after.
    :raises MissingExtraError: for a scheduler address when ``distributed`` is not installed.
    """
    if not isinstance(memory_mb, int) or isinstance(memory_mb, bool) or memory_mb < 1:
        raise InvalidSettingsError(f"memory_mb must be at least 1, not {memory_mb!r}")
    if not isinstance(guess, int) or isinstance(guess, bool):
        raise InvalidSettingsError(f"guess must be a whole number, not {guess!r}")
    plan = plan_split(game, depth)
    pieces = PieceStore(Path(store), game.rows, game.cols, game.mode)
    if not exact_pieces:
        solution = _solve_bounded(plan, pieces, memory_mb, workers, scheduler, progress, guess)
        if certificate is not None:
            unproven = _bounded_certificate(
                game,
                plan,
                pieces,
                solution.value,
                (memory_mb, workers, scheduler, progress),
                entry_limit or _NO_LIMIT,
                certificate,
            )
            solution = solution._replace(unproven=unproven)
        _save_root(game, depth, pieces, solution, memory_mb)
        return solution
    results = {board: pieces.load(board) for board in plan.pieces}
    proving = certificate is not None
    limit = (entry_limit or _NO_LIMIT) if proving else None
    todo = [
        board
        for board, result in results.items()
        if result is None or (limit is not None and _needs_proof(pieces, board, result, limit))
    ]
    if todo:
        with (
            executor(workers, scheduler) as pool,
            _bar(len(plan.pieces), len(todo), progress) as bar,
        ):
            futures: list[Future[dict[str, Any]]] = [
                pool.submit(solve_piece, board, game.mode, memory_mb, limit) for board in todo
            ]
            try:
                for future in as_completed(futures):
                    result = future.result()
                    entries = result.pop("entries", None)
                    if entries is not None:
                        pieces.save_proof(result["board"], entries)
                    pieces.save(result)
                    results[result["board"]] = result
                    bar(result)
            finally:
                for future in futures:
                    future.cancel()
    done = [result for result in results.values() if result is not None]
    value, best = combine(plan, {result["board"]: result["value"] for result in done})
    solution = SplitSolution(
        value,
        best,
        sum(result["nodes"] for result in done),
        sum(result["seconds"] for result in done),
        len(plan.pieces),
        len(todo),
        max(result.get("peak_rss_mb", 0) for result in done),
    )
    if certificate is not None:
        missing = [board for board in plan.pieces if not pieces.proof_path(board).exists()]
        if missing:
            solution = solution._replace(unproven=len(missing))
        else:
            values = {result["board"]: result["value"] for result in done}
            proofs = [pieces.load_proof(board) for board in plan.pieces]
            entries = merge(top_entries(plan, values), *proofs)
            write(document(game, value, entries), certificate)
    _save_root(game, depth, pieces, solution, memory_mb)
    return solution


_NO_LIMIT = 1 << 62
_CLUSTER_TESTS = 64  # tests at a time on a cluster: its scheduler spreads them over workers


def _solve_bounded(
    plan: Plan,
    pieces: PieceStore,
    memory_mb: int,
    workers: int | None,
    scheduler: str | None,
    progress: bool,
    guess: int,
) -> SplitSolution:
    if workers is not None:
        parallel = workers
    elif scheduler is not None:
        parallel = _CLUSTER_TESTS
    else:
        parallel = os.cpu_count() or 1
    before = {board: pieces.load(board) is not None for board in plan.pieces}
    with executor(workers, scheduler) as pool, _test_bar(progress) as bar:
        result = solve_bounded(
            plan, pieces, pool, memory_mb=memory_mb, parallel=parallel, progress=bar, guess=guess
        )
    done = [found for found in map(pieces.load, plan.pieces) if found is not None]
    return SplitSolution(
        result.value,
        result.best_moves,
        sum(found["nodes"] for found in done),
        sum(found["seconds"] for found in done),
        len(plan.pieces),
        result.tests,
        max((found.get("peak_rss_mb", 0) for found in done), default=0),
        tested=len(done),
        exact=sum("value" in found for found in done),
        new_pieces=sum(not before[found["board"]] for found in done),
    )


def _bounded_certificate(
    game: Game,
    plan: Plan,
    pieces: PieceStore,
    value: int,
    running: tuple[int, int | None, str | None, bool],
    entry_limit: int,
    path: str | Path,
) -> int:
    # The entries above the pieces follow from their bounds; each piece then proves the
    # bounds they need of it. A piece whose proof is over the limit is listed as assumed.
    memory_mb, workers, scheduler, progress = running
    known = {board: interval(found) for board in plan.pieces if (found := pieces.load(board))}
    top, claims = claims_above(plan, known, value)
    proofs = []
    todo = []
    for board, claim in claims.items():
        if pieces.proof_path(board, claim).exists():
            proofs.append(pieces.load_proof(board, claim))
        else:
            todo.append((board, claim))
    assumed: list[list[Any]] = []
    if todo:
        with (
            executor(workers, scheduler) as pool,
            _bar(len(claims), len(todo), progress) as bar,
        ):
            futures = [
                pool.submit(prove_piece, board, game.mode, memory_mb, claim, entry_limit)
                for board, claim in todo
            ]
            for future in as_completed(futures):
                result = future.result()
                claim = (result["claim"][0], result["claim"][1])
                if "entries" in result:
                    pieces.save_proof(result["board"], result["entries"], claim)
                    proofs.append(result["entries"])
                else:
                    assumed.append([result["board"], *claim])
                bar({"nodes": 0})
    write(document(game, value, merge(top, *proofs), sorted(assumed)), path)
    return len(assumed)


def _needs_proof(pieces: PieceStore, board: str, result: dict[str, Any], limit: int) -> bool:
    # A piece needs solving again for its proof unless it has one, or had too many entries
    # for a limit at least as large as this one.
    if pieces.proof_path(board).exists():
        return False
    return int(result.get("proof_over", 0)) < limit


def _save_root(
    game: Game, depth: int, pieces: PieceStore, solution: SplitSolution, memory_mb: int
) -> None:
    # The empty board's entry says what its solve took; a run that only read the store adds
    # nothing to that, and its table size is not the one the pieces were solved with.
    if "S" in game.position() or "O" in game.position():
        return
    if solution.solved_now or not pieces.root_path(depth).exists():
        pieces.save_root(depth, _root_entry(game, depth, solution, memory_mb))


def _root_entry(game: Game, depth: int, solution: SplitSolution, memory_mb: int) -> dict[str, Any]:
    # The keys of docs/solved.json first, then what a split solve adds.
    return {
        "rows": game.rows,
        "cols": game.cols,
        "mode": game.mode,
        "value": solution.value,
        "best_moves": [str(move) for move in solution.best_moves],
        "nodes": solution.nodes,
        "seconds": round(solution.seconds, 3),
        "command": f"sosgame solve {game.rows}x{game.cols} --mode {game.mode} --split {depth}",
        "version": __version__,
        "split": depth,
        "pieces": solution.pieces,
        "memory_mb": memory_mb,
        "peak_rss_mb": solution.peak_rss_mb,
    } | ({"tested": solution.tested, "exact": solution.exact} if solution.tested else {})


@contextmanager
def _bar(total: int, todo: int, show: bool) -> Iterator[Any]:
    try:
        from tqdm import tqdm  # type: ignore[import-untyped]
    except ImportError:
        show = False
    if not show:
        yield lambda result: None
        return
    with tqdm(total=total, initial=total - todo, unit="piece", file=sys.stderr, smoothing=0) as bar:
        nodes = 0
        started = time.perf_counter()

        def update(result: dict[str, Any]) -> None:
            nonlocal nodes
            nodes += result["nodes"]
            rate = nodes / max(time.perf_counter() - started, 1e-9)
            bar.set_postfix_str(f"{nodes:,} nodes, {rate:,.0f}/s", refresh=False)
            bar.update(1)

        yield update


@contextmanager
def _test_bar(show: bool) -> Iterator[Any]:
    try:
        from tqdm import tqdm
    except ImportError:
        show = False
    if not show:
        yield lambda result, ahead, note: None
        return
    with tqdm(unit="test", file=sys.stderr, smoothing=0) as bar:
        nodes = 0
        started = time.perf_counter()

        def update(result: dict[str, Any], ahead: int, note: str) -> None:
            # The total is what the search sees ahead now: it shrinks as tests cut it short.
            nonlocal nodes
            nodes += result["nodes"]
            rate = nodes / max(time.perf_counter() - started, 1e-9)
            bar.total = bar.n + 1 + ahead
            bar.set_description_str(note, refresh=False)
            bar.set_postfix_str(f"{nodes:,} nodes, {rate:,.0f}/s", refresh=False)
            bar.update(1)

        yield update
