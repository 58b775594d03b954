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
from sosgame.game import MODES

__all__ = ["register", "report"]

_INSTALL_HINT = "sosgame: for a progress bar, install it with: pip install 'sosgame[fast]'"


def register(commands: Any) -> None:
    """Add the ``arena`` subcommand."""
    parser = commands.add_parser(
        "arena",
        help="play a match between two computer levels and estimate the Elo difference",
        description=(
            "Play a match between two computer levels, colours swapped every game, on every"
            " core; print wins, draws and losses for LEVEL_A, the score and the Elo difference"
            " with its 95% interval."
        ),
    )
    parser.add_argument("level_a", metavar="LEVEL_A", choices=LEVELS, help=", ".join(LEVELS))
    parser.add_argument("level_b", metavar="LEVEL_B", choices=LEVELS, help="the opponent")
    parser.add_argument("--size", type=int, default=5, metavar="N", help="an N x N board (5)")
    parser.add_argument("--rows", type=int, metavar="R", help="the number of rows (--size)")
    parser.add_argument("--cols", type=int, metavar="C", help="the number of columns (--size)")
    parser.add_argument("--mode", choices=MODES, default="general", help="the rules to play")
    parser.add_argument("--games", type=int, default=100, metavar="K", help="games (100)")
    parser.add_argument(
        "--seconds", type=float, default=0.5, metavar="S", help="seconds per move (0.5)"
    )
    parser.add_argument("--seed", type=int, metavar="N", help="make the match reproducible")
    parser.add_argument("--jobs", type=int, metavar="N", help="processes (default: every core)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def _progress(stream: Iterator[GameResult], total: int) -> Iterator[GameResult]:
    try:
        from tqdm import tqdm  # type: ignore[import-untyped]
    except ImportError:
        print(_INSTALL_HINT, file=sys.stderr)
        return _lines(stream, total)
    bar: Iterator[GameResult] = tqdm(stream, total=total, unit="game", file=sys.stderr)
    return bar


def _lines(stream: Iterator[GameResult], total: int) -> Iterator[GameResult]:
    for done, result in enumerate(stream, start=1):
        print(f"game {done}/{total} done", file=sys.stderr, flush=True)
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
    print(
        f"{a} vs {b}: {rows}x{cols} {arguments.mode}, {len(match.games)} games,"
        f" {arguments.seconds:g} s a move"
    )
    print(f"{a}: {match.wins} wins, {match.draws} draws, {match.losses} losses")
    print(
        f"score {100 * match.score:.1f}% (95% interval {100 * numbers['score_low']:.1f}%"
        f" to {100 * numbers['score_high']:.1f}%)"
    )
    rating, rating_low, rating_high = match.elo()
    print(
        f"Elo difference {_elo_text(rating)} (95% interval {_elo_text(rating_low)}"
        f" to {_elo_text(rating_high)})"
    )
    return 0
