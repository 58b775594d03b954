"""``sosgame arena LEVEL_A LEVEL_B``: a match between two computer levels, with Elo."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterator
from typing import Any

from sosgame.ai import LEVELS
from sosgame.ai.arena import GameResult, MatchResult, play_match
from sosgame.cli.language import subcommand, t
from sosgame.game import MODES

__all__ = ["register", "report"]


def register(commands: Any) -> None:
    """Add the ``arena`` subcommand."""
    parser = subcommand(commands, "arena")
    parser.add_argument("level_a", metavar="LEVEL_A", choices=LEVELS, help=", ".join(LEVELS))
    parser.add_argument("level_b", metavar="LEVEL_B", choices=LEVELS, help=t("cli.arena.opponent"))
    parser.add_argument("--size", type=int, default=5, metavar="N", help=t("cli.arena.size"))
    parser.add_argument("--rows", type=int, metavar="R", help=t("cli.arena.rows"))
    parser.add_argument("--cols", type=int, metavar="C", help=t("cli.arena.cols"))
    parser.add_argument("--mode", choices=MODES, default="general", help=t("cli.help.mode"))
    parser.add_argument("--games", type=int, default=100, metavar="K", help=t("cli.arena.games"))
    parser.add_argument(
        "--seconds", type=float, default=0.5, metavar="S", help=t("cli.arena.seconds")
    )
    parser.add_argument("--seed", type=int, metavar="N", help=t("cli.help.seed"))
    parser.add_argument("--jobs", type=int, metavar="N", help=t("cli.arena.jobs"))
    parser.add_argument("--json", action="store_true", help=t("cli.help.json"))
    parser.set_defaults(run=run)


def _progress(stream: Iterator[GameResult], total: int) -> Iterator[GameResult]:
    try:
        from tqdm import tqdm  # type: ignore[import-untyped]
    except ImportError:
        print(t("cli.arena.no_bar"), file=sys.stderr)
        return _lines(stream, total)
    bar: Iterator[GameResult] = tqdm(stream, total=total, unit="game", file=sys.stderr)
    return bar


def _lines(stream: Iterator[GameResult], total: int) -> Iterator[GameResult]:
    for done, result in enumerate(stream, start=1):
        print(t("cli.arena.done", done=done, total=total), file=sys.stderr, flush=True)
        yield result


def _finite(value: float) -> float | None:
    return round(value, 1) if math.isfinite(value) else None


def report(match: MatchResult) -> dict[str, Any]:
    """The numbers ``arena --json`` prints, from level A's side."""
    low, high = match.interval()
    rating, rating_low, rating_high = match.elo()
    return {
        "level_a": match.level_a,
        "level_b": match.level_b,
        "games": len(match.games),
        "wins": match.wins,
        "draws": match.draws,
        "losses": match.losses,
        "score": round(match.score, 4),
        "score_low": round(low, 4),
        "score_high": round(high, 4),
        "elo": _finite(rating),
        "elo_low": _finite(rating_low),
        "elo_high": _finite(rating_high),
        "points_a": sum(game.points[0] for game in match.games),
        "points_b": sum(game.points[1] for game in match.games),
    }


def _elo_text(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


def run(arguments: argparse.Namespace) -> int:
    """Play the match the command line describes."""
    rows = arguments.rows if arguments.rows is not None else arguments.size
    cols = arguments.cols if arguments.cols is not None else arguments.size
    match = play_match(
        arguments.level_a,
        arguments.level_b,
        rows=rows,
        cols=cols,
        mode=arguments.mode,
        games=arguments.games,
        seconds=arguments.seconds,
        seed=arguments.seed,
        jobs=arguments.jobs,
        progress=_progress,
    )
    numbers = report(match)
    if arguments.json:
        numbers.update(
            rows=rows,
            cols=cols,
            mode=arguments.mode,
            seconds=arguments.seconds,
            seed=arguments.seed,
        )
        print(json.dumps(numbers))
        return 0
    a, b = match.level_a, match.level_b
    games = len(match.games)
    print(
        t(
            "cli.arena.title",
            a=a,
            b=b,
            rows=rows,
            cols=cols,
            mode=arguments.mode,
            count=games,
            seconds=f"{arguments.seconds:g}",
        )
    )
    print(t("cli.arena.record", level=a, wins=match.wins, draws=match.draws, losses=match.losses))
    low, high = numbers["score_low"], numbers["score_high"]
    percent = {"score": f"{100 * match.score:.1f}", "low": f"{100 * low:.1f}"}
    print(t("cli.arena.score", **percent, high=f"{100 * high:.1f}"))
    rating, rating_low, rating_high = match.elo()
    elo = {"elo": _elo_text(rating), "low": _elo_text(rating_low), "high": _elo_text(rating_high)}
    print(t("cli.arena.elo", **elo))
    return 0
