"""``sosgame solve POSITION|RxC``: the exact value of a two-player position, and its best moves.

Its options are declared in :mod:`sosgame.cli.options`, which loads this module when the
command runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sosgame.certify import load, writable
from sosgame.cli.language import t
from sosgame.cli.progress import INTERRUPTED_STATUS, Progress
from sosgame.errors import InvalidPositionError, InvalidSettingsError
from sosgame.game import Game
from sosgame.notation import parse_size
from sosgame.processes import check_workers
from sosgame.solver import DEFAULT_MEMORY_MB, Solution, TranspositionTable, solve

if TYPE_CHECKING:
    from sosgame.research.distribute import SplitSolution, SplitStatus

__all__ = ["run"]


def _game(text: str, mode: str) -> Game:
    size = parse_size(text)
    if size is not None:
        return Game(*size, mode=mode)  # type: ignore[arg-type]
    if any(char.isdigit() for char in text):
        raise InvalidPositionError(t("cli.solve.neither", text=repr(text)))
    return Game.from_position(text, mode=mode)  # type: ignore[arg-type]


def _earlier(path: Path | None) -> dict[str, Any]:
    # The certificate --add adds walks to, read before a solve that may take hours.
    if path is None or not path.exists():
        raise InvalidSettingsError(t("cli.solve.add_needs_file", file=str(path)))
    return load(path)


@contextmanager
def _saving(path: Path, walks: int, show: bool) -> Iterator[Callable[[dict[str, Any]], None]]:
    # Save the certificate after each walk (a run stopped early keeps what it walked), under a
    # bar of the walks done and left: the first walks of a large board take minutes each.
    from sosgame.research.certificate import write

    try:
        from tqdm import tqdm  # type: ignore[import-untyped]
    except ImportError:
        show = False
    if not show:
        yield lambda sample: write(sample, path)
        return
    with tqdm(total=walks, unit="walk", file=sys.stderr, smoothing=0) as bar:

        def save(sample: dict[str, Any]) -> None:
            write(sample, path)
            bar.set_postfix_str(f"{len(sample['entries']):,} entries", refresh=False)
            bar.update(1)

        yield save


@contextmanager
def _progress(game: Game, shown: bool) -> Iterator[Callable[[int], None] | None]:
    """What the solver calls with its node count: the progress line on a terminal (none in
    a pipe, where the solver then reports nothing at all)."""
    if not shown:
        yield None
        return
    start = time.monotonic()
    position = game.position()
    with Progress() as progress:

        def report(nodes: int) -> None:
            seconds = time.monotonic() - start
            progress.show(
                t(
                    "cli.solve.working",
                    position=position,
                    nodes=f"{nodes:,}",
                    seconds=f"{seconds:.0f}",
                )
            )

        yield report


def _verdict(solution: Solution | SplitSolution, mode: str) -> str:
    if solution.value == 0:
        return t("cli.solve.draw")
    if mode == "simple":
        return t("cli.solve.wins" if solution.value > 0 else "cli.solve.loses")
    lead = abs(solution.value)
    return t("cli.solve.mover_by" if solution.value > 0 else "cli.solve.other_by", count=lead)


def _status(status: SplitStatus, as_json: bool) -> int:
    if as_json:
        print(json.dumps(status._asdict()))
        return 0
    bounds = [f"{bound:+d}" if bound else "0" for bound in (status.lower, status.upper)]
    print(t("cli.solve.status_line", solved=status.solved, pieces=status.pieces))
    if status.bounded:
        print(t("cli.solve.status_bounded", count=status.bounded))
    if status.lower == status.upper:
        print(t("cli.solve.status_value", value=bounds[0]))
    else:
        print(t("cli.solve.status_bounds", lower=bounds[0], upper=bounds[1]))
    return 0


def run(arguments: argparse.Namespace) -> int:
    """Solve the position named on the command line and print the answer."""
    game = _game(arguments.position, arguments.mode)
    split = arguments.split is not None
    split_only = (arguments.scheduler, arguments.workers, arguments.exact_pieces or None)
    if not split and (any(value is not None for value in split_only) or arguments.guess != 0):
        raise InvalidSettingsError(t("cli.solve.needs_split"))
    if split and arguments.threads is not None:
        raise InvalidSettingsError(t("cli.solve.threads_split"))
    walks = arguments.walks
    if walks is not None and arguments.certificate is None:
        raise InvalidSettingsError(t("cli.solve.walks_need_certificate"))
    check_workers(arguments.workers, "workers")  # before a split solve writes its plan
    check_workers(arguments.threads, "threads")
    if arguments.max_entries is not None and arguments.max_entries < 1:
        raise InvalidSettingsError(t("cli.solve.bad_max_entries", value=arguments.max_entries))
    if walks is not None and arguments.max_entries is not None:
        raise InvalidSettingsError(t("cli.solve.walks_or_max_entries"))
    if walks is not None:
        from sosgame.research.walk import check_walks

        check_walks(walks)  # before a solve that may take hours
    if arguments.add and walks is None:
        raise InvalidSettingsError(t("cli.solve.add_needs_walks"))
    earlier = _earlier(arguments.certificate) if arguments.add else None
    if arguments.certificate is not None:
        writable(arguments.certificate)  # not a pipe or a folder, found out after hours
    if arguments.status:
        if not split:
            raise InvalidSettingsError(t("cli.solve.needs_split"))
        from sosgame.research.distribute import split_status

        return _status(split_status(game, arguments.split, arguments.store), arguments.json)
    # Bars and progress lines go to a terminal only: a pipe or a log gets no frames.
    shown = arguments.progress and sys.stderr.isatty()
    try:
        if split:
            from sosgame.research.distribute import solve_split
            from sosgame.research.walk import walk_certificate

            split_solution = solve_split(
                game,
                arguments.split,
                arguments.store,
                memory_mb=arguments.memory or DEFAULT_MEMORY_MB,
                workers=arguments.workers,
                scheduler=arguments.scheduler,
                progress=shown,
                certificate=None if walks is not None else arguments.certificate,
                entry_limit=arguments.max_entries,
                exact_pieces=arguments.exact_pieces,
                guess=arguments.guess,
            )
            if split_solution.unproven:
                print(t("cli.solve.unproven", count=split_solution.unproven), file=sys.stderr)
            solution: Solution | SplitSolution = split_solution
            if walks is not None:
                with _saving(arguments.certificate, walks, shown) as save:
                    walk_certificate(
                        game,
                        walks=walks,
                        seed=arguments.seed,
                        memory_mb=arguments.memory or DEFAULT_MEMORY_MB,
                        depth=arguments.split,
                        store=arguments.store,
                        on_walk=save,
                        earlier=earlier,
                    )
        elif arguments.certificate is not None:
            from sosgame.research.certificate import certificate, write
            from sosgame.research.walk import walk_certificate

            table = TranspositionTable(arguments.memory or DEFAULT_MEMORY_MB)
            with _progress(game, shown) as report:
                solution = solve(game, table=table, progress=report)
            if walks is None:
                with Progress() as progress:

                    def proved(entries: int) -> None:
                        progress.show(t("cli.solve.proving", entries=f"{entries:,}"))

                    document = certificate(
                        game, table=table, progress=proved if progress.shown and shown else None
                    )
                write(document, arguments.certificate)
            else:
                with _saving(arguments.certificate, walks, shown) as save:
                    walk_certificate(
                        game,
                        walks=walks,
                        seed=arguments.seed,
                        table=table,
                        on_walk=save,
                        earlier=earlier,
                    )
        else:
            with _progress(game, shown) as report:
                solution = solve(
                    game, memory_mb=arguments.memory, threads=arguments.threads, progress=report
                )
    except KeyboardInterrupt:
        print(t("cli.solve.stopped"), file=sys.stderr)
        return INTERRUPTED_STATUS
    moves = [str(move) for move in solution.best_moves]
    if arguments.json:
        answer: dict[str, Any] = {
            "value": solution.value,
            "best_moves": moves,
            "nodes": solution.nodes,
            "seconds": round(solution.seconds, 3),
        }
        if not isinstance(solution, Solution):  # a split solve's
            answer |= {
                "pieces": solution.pieces,
                "solved_now": solution.solved_now,
                "peak_rss_mb": solution.peak_rss_mb,
            }
        print(json.dumps(answer))
        return 0
    value = f"{solution.value:+d}" if solution.value else "0"
    print(t("cli.solve.value", value=value, verdict=_verdict(solution, arguments.mode)))
    print(t("cli.solve.best", count=len(moves), moves=" ".join(moves)))
    print(t("cli.solve.nodes", nodes=solution.nodes, seconds=f"{solution.seconds:.2f}"))
    return 0
