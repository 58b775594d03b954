"""``sosgame arena LEVEL_A LEVEL_B [LEVEL ...]``: a match between computer levels.

Two levels play with colours swapped every game and get an Elo difference; three to eight
(a level may be named more than once) sit in a new random order every game. Either way each
level gets an OpenSkill rating when the ``openskill`` package is there.

Its options are declared in :mod:`sosgame.cli.options`, which loads this module when the
command runs.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from sosgame.ai.arena import GameResult, MatchResult, MatchStopped, play_match
from sosgame.ai.multiseat import SeatGame, SeatMatch, play_seats
from sosgame.cli.language import t
from sosgame.cli.progress import INTERRUPTED_STATUS, Progress

__all__ = ["report", "run", "seats_report"]

Played = TypeVar("Played")


def _progress(stream: Iterator[Played], total: int) -> Iterator[Played]:
    """The finished games, counted on the progress line (on a terminal only)."""
    with Progress() as progress:
        progress.show(t("cli.arena.progress", done=0, total=total), now=True)
        for done, result in enumerate(stream, start=1):
            progress.show(t("cli.arena.progress", done=done, total=total))
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


def _ratings(levels: Sequence[str], rate: Callable[[], dict[str, Any]]) -> dict[str, Any] | None:
    """Each level's OpenSkill rating as JSON, or ``None`` (with a notice) without openskill."""
    try:
        found = rate()
    except ImportError:
        print(t("cli.arena.no_openskill"), file=sys.stderr)
        return None
    return {level: found[level].to_json() for level in levels}


def seats_report(match: SeatMatch) -> dict[str, Any]:
    """The numbers ``arena --json`` prints for a match of more than two seats."""
    return {
        "levels": list(match.levels),
        "games": len(match.games),
        "results": {
            level: {
                "seats": match.levels.count(level),
                "wins": round(match.wins(level), 2),
                "win_share": round(match.win_share(level), 4),
                "points": match.points(level),
                "point_share": round(match.point_share(level), 4),
            }
            for level in match.names
        },
        "ratings": _ratings(match.names, match.ratings),
    }


def _settings(arguments: argparse.Namespace, rows: int, cols: int) -> dict[str, Any]:
    """The match settings the command line gives, as keywords of the match functions."""
    return {
        "rows": rows,
        "cols": cols,
        "mode": arguments.mode,
        "games": arguments.games,
        "seconds": arguments.seconds,
        "seed": arguments.seed,
        "jobs": arguments.jobs,
        "progress": _progress,
    }


def _print_seats(match: SeatMatch, arguments: argparse.Namespace, rows: int, cols: int) -> None:
    levels = list(match.levels)
    numbers = seats_report(match)
    if arguments.json:
        numbers.update(rows=rows, cols=cols, mode=arguments.mode)
        numbers.update(seconds=arguments.seconds, seed=arguments.seed)
        print(json.dumps(numbers))
        return
    title = {"levels": ", ".join(levels), "rows": rows, "cols": cols, "mode": arguments.mode}
    seconds = f"{arguments.seconds:g}"
    print(t("cli.arena.seats_title", **title, count=len(match.games), seconds=seconds))
    ratings = numbers["ratings"] or {}
    for level, result in numbers["results"].items():
        wins = f"{100 * result['win_share']:.1f}"
        points = f"{100 * result['point_share']:.1f}"
        print(t("cli.arena.seats_line", level=level, wins=wins, points=points))
        if level in ratings:
            print(t("cli.arena.rating", level=level, **ratings[level]))


def run(arguments: argparse.Namespace) -> int:
    """Play the match the command line describes; Ctrl-C stops it, and the games finished
    by then are reported."""
    rows = arguments.rows if arguments.rows is not None else arguments.size
    cols = arguments.cols if arguments.cols is not None else arguments.size
    settings = _settings(arguments, rows, cols)
    stopped = False
    match: MatchResult | SeatMatch
    try:
        if arguments.more:
            levels = [arguments.level_a, arguments.level_b, *arguments.more]
            match = play_seats(levels, **settings)
        else:
            match = play_match(arguments.level_a, arguments.level_b, **settings)
    except MatchStopped as stop:
        match, stopped = stop.finished, True
    if match.games:
        if isinstance(match, SeatMatch):
            _print_seats(match, arguments, rows, cols)
        else:
            _print_pair(match, arguments, rows, cols)
    if stopped:
        sys.stdout.flush()
        print(t("cli.arena.stopped", count=len(match.games)), file=sys.stderr)
        return INTERRUPTED_STATUS
    return 0


def _print_pair(match: MatchResult, arguments: argparse.Namespace, rows: int, cols: int) -> None:
    numbers = report(match)
    pair = SeatMatch(
        (match.level_a, match.level_b),
        tuple(
            SeatGame(
                game.index,
                (match.level_a, match.level_b) if game.a_first else (match.level_b, match.level_a),
                game.points if game.a_first else game.points[::-1],
                _winners(game),
                game.plies,
            )
            for game in match.games
        ),
    )
    names = pair.names
    numbers["ratings"] = _ratings(names, pair.ratings)
    if arguments.json:
        numbers.update(
            rows=rows,
            cols=cols,
            mode=arguments.mode,
            seconds=arguments.seconds,
            seed=arguments.seed,
        )
        print(json.dumps(numbers))
        return
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
    counts = {
        kind: t(f"cli.arena.{kind}", count=count)
        for kind, count in (("wins", match.wins), ("draws", match.draws), ("losses", match.losses))
    }
    print(t("cli.arena.record", level=a, **counts))
    low, high = numbers["score_low"], numbers["score_high"]
    percent = {"score": f"{100 * match.score:.1f}", "low": f"{100 * low:.1f}"}
    print(t("cli.arena.score", **percent, high=f"{100 * high:.1f}"))
    rating, rating_low, rating_high = match.elo()
    elo = {"elo": _elo_text(rating), "low": _elo_text(rating_low), "high": _elo_text(rating_high)}
    print(t("cli.arena.elo", **elo))
    for level, rating in (numbers["ratings"] or {}).items():
        print(t("cli.arena.rating", level=level, **rating))


def _winners(game: GameResult) -> tuple[int, ...]:
    """The winning seats of a two-level game (both on a draw)."""
    if game.score == 0.5:
        return (0, 1)
    a_seat = 0 if game.a_first else 1
    return (a_seat,) if game.score == 1 else (1 - a_seat,)
