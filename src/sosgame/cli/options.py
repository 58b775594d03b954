"""The options of the commands that search, solve or check a proof, apart from the commands.

Those commands (``solve``, ``certify``, ``hint``, ``analyze``, ``arena``, ``puzzle``) need the
players, the solver or the compiled kernel, whose loading takes longer than the rest of the
command line together. Their options are declared here with light imports only, so that
building the parser (``--help``, a mistyped option) loads none of it; the command's own module,
``sosgame.cli.NAME``, loads when the command runs.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from sosgame.cli.language import add_json, add_mode, subcommand, t
from sosgame.game import MAX_PLAYERS, MIN_PLAYERS
from sosgame.levels import DEFAULT_SECONDS, LEVELS
from sosgame.limits import SOLVER_MEMORY_MB, SOLVER_PLAIN_MEMORY_MB

__all__ = ["REGISTER"]


def _runs(name: str) -> Callable[[argparse.Namespace], int]:
    """The command ``name``'s ``run``, its module loaded when it is called."""

    def run(arguments: argparse.Namespace) -> int:
        status: int = importlib.import_module(f"sosgame.cli.{name}").run(arguments)
        return status

    return run


def _solve(commands: Any) -> None:
    parser = subcommand(commands, "solve")
    parser.add_argument("position", metavar="POSITION|RxC", help=t("cli.solve.position"))
    add_mode(parser, "general")
    add_json(parser)
    memory = t("cli.solve.memory", most=SOLVER_MEMORY_MB, plain=SOLVER_PLAIN_MEMORY_MB)
    parser.add_argument("--memory", type=int, metavar="MIB", help=memory)
    parser.add_argument("--threads", type=int, metavar="N", help=t("cli.solve.threads"))
    parser.add_argument("--split", type=int, metavar="DEPTH", help=t("cli.solve.split"))
    parser.add_argument(
        "--store", type=Path, default=Path("data/solves"), metavar="DIR", help=t("cli.solve.store")
    )
    parser.add_argument("--workers", type=int, metavar="N", help=t("cli.solve.workers"))
    parser.add_argument("--scheduler", metavar="ADDRESS", help=t("cli.solve.scheduler"))
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=True,
        help=t("cli.solve.progress"),
    )
    parser.add_argument("--certificate", type=Path, metavar="FILE", help=t("cli.solve.certificate"))
    parser.add_argument("--exact-pieces", action="store_true", help=t("cli.solve.exact_pieces"))
    parser.add_argument("--guess", type=int, default=0, metavar="VALUE", help=t("cli.solve.guess"))
    parser.add_argument("--status", action="store_true", help=t("cli.solve.status"))
    parser.add_argument("--max-entries", type=int, metavar="N", help=t("cli.solve.max_entries"))
    parser.add_argument("--walks", type=int, metavar="N", help=t("cli.solve.walks"))
    parser.add_argument("--seed", type=int, default=0, metavar="N", help=t("cli.solve.seed"))
    parser.add_argument("--add", action="store_true", help=t("cli.solve.add"))
    parser.set_defaults(run=_runs("solve"))


def _certify(commands: Any) -> None:
    parser = subcommand(commands, "certify")
    parser.add_argument("file", type=Path, metavar="FILE", help=t("cli.certify.file"))
    parser.add_argument("--sample", type=int, metavar="N", help=t("cli.certify.sample"))
    parser.add_argument("--seed", type=int, default=0, metavar="N", help=t("cli.certify.seed"))
    parser.add_argument("--extract", type=int, metavar="N", help=t("cli.certify.extract"))
    parser.add_argument("--out", type=Path, metavar="FILE", help=t("cli.certify.out"))
    add_json(parser)
    parser.set_defaults(run=_runs("certify"))


def _hint(commands: Any) -> None:
    parser = subcommand(commands, "hint")
    parser.add_argument("position", metavar="POSITION|RxC", help=t("cli.hint.position"))
    add_mode(parser, "general")
    parser.add_argument("--level", choices=LEVELS, default="hard", help=t("cli.hint.level"))
    parser.add_argument(
        "--players",
        type=int,
        default=MIN_PLAYERS,
        metavar="N",
        help=t("cli.hint.players", least=MIN_PLAYERS, most=MAX_PLAYERS),
    )
    parser.add_argument("--turn", type=int, default=1, metavar="SEAT", help=t("cli.hint.turn"))
    parser.add_argument("--scores", metavar="A,B,...", help=t("cli.hint.scores"))
    parser.add_argument(
        "--seconds",
        type=float,
        metavar="S",
        help=t("cli.hint.seconds", seconds=f"{DEFAULT_SECONDS:g}"),
    )
    parser.add_argument("--nodes", type=int, metavar="N", help=t("cli.help.nodes"))
    parser.add_argument("--seed", type=int, metavar="N", help=t("cli.help.seed"))
    add_json(parser)
    parser.set_defaults(run=_runs("hint"))


def _analyze(commands: Any) -> None:
    parser = subcommand(commands, "analyze")
    parser.add_argument("file", metavar="RECORD.json", help=t("cli.help.record"))
    parser.add_argument(
        "--seconds", type=float, default=0.5, metavar="S", help=t("cli.analyze.seconds")
    )
    parser.add_argument("--seed", type=int, default=0, metavar="N", help=t("cli.help.seed"))
    add_json(parser)
    parser.set_defaults(run=_runs("analyze"))


def _arena(commands: Any) -> None:
    parser = subcommand(commands, "arena")
    parser.add_argument("level_a", metavar="LEVEL_A", choices=LEVELS, help=", ".join(LEVELS))
    parser.add_argument("level_b", metavar="LEVEL_B", choices=LEVELS, help=t("cli.arena.opponent"))
    parser.add_argument("more", metavar="LEVEL", nargs="*", default=[], help=t("cli.arena.more"))
    parser.add_argument("--size", type=int, default=5, metavar="N", help=t("cli.arena.size"))
    parser.add_argument("--rows", type=int, metavar="R", help=t("cli.arena.rows"))
    parser.add_argument("--cols", type=int, metavar="C", help=t("cli.arena.cols"))
    add_mode(parser, "general")
    parser.add_argument("--games", type=int, default=100, metavar="K", help=t("cli.arena.games"))
    parser.add_argument(
        "--seconds", type=float, default=0.5, metavar="S", help=t("cli.arena.seconds")
    )
    parser.add_argument("--seed", type=int, metavar="N", help=t("cli.help.seed"))
    parser.add_argument("--jobs", type=int, metavar="N", help=t("cli.arena.jobs"))
    add_json(parser)
    parser.set_defaults(run=_runs("arena"))


def _puzzle(commands: Any) -> None:
    parser = subcommand(commands, "puzzle")
    parser.add_argument("--id", metavar="ID", help=t("cli.puzzle.id"))
    parser.add_argument(
        "--rating", type=int, default=1500, metavar="R", help=t("cli.puzzle.rating")
    )
    parser.add_argument("--size", metavar="RxC", help=t("cli.puzzle.size"))
    add_mode(parser, help_key="cli.puzzle.mode")
    parser.add_argument("--seed", type=int, metavar="N", help=t("cli.help.seed"))
    parser.add_argument("--json", action="store_true", help=t("cli.puzzle.json"))
    parser.set_defaults(run=_runs("puzzle"))


REGISTER: Final[dict[str, Callable[[Any], None]]] = {
    "solve": _solve,
    "certify": _certify,
    "hint": _hint,
    "analyze": _analyze,
    "arena": _arena,
    "puzzle": _puzzle,
}
"""How to add each of these subcommands to the parser, by name."""
