"""``sosgame analyze RECORD.json``: every move against the best move, and what it cost.

Its options are declared in :mod:`sosgame.cli.options`, which loads this module when the
command runs.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from sosgame.ai.analysis import BLUNDER, MISTAKE, MoveReport, analyze, summarize
from sosgame.ai.players import Budget
from sosgame.cli.language import t
from sosgame.cli.progress import Progress
from sosgame.notation import Move
from sosgame.record import load

__all__ = ["run"]


def _number(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def _row(report: MoveReport) -> dict[str, Any]:
    return {
        "ply": report.ply,
        "seat": report.seat,
        "played": str(report.played),
        "best": str(report.best),
        "best_value": _number(report.best_value),
        "played_value": _number(report.played_value),
        "cost": _number(report.cost),
        "exact": report.exact,
        "flag": report.flag,
    }


def run(arguments: argparse.Namespace) -> int:
    """Analyse the record named on the command line."""
    Budget(arguments.seconds)  # rejects a bad --seconds before any work, naming it
    record = load(arguments.file)
    game = record.to_game()
    with Progress() as progress:

        def analysed(done: int, total: int) -> None:
            progress.show(t("cli.analyze.working", done=done, total=total), now=True)

        moves = sum(isinstance(action, Move) for action in game.actions)
        progress.show(t("cli.analyze.working", done=0, total=moves), now=True)
        reports = analyze(
            game,
            seconds=arguments.seconds,
            seed=arguments.seed,
            progress=analysed if progress.shown else None,
        )
    summaries = summarize(reports, game.players)
    names = record.players
    if arguments.json:
        data = {
            "mode": game.mode,
            "rows": game.rows,
            "cols": game.cols,
            "thresholds": {"mistake": MISTAKE[game.mode], "blunder": BLUNDER[game.mode]},
            "plies": [_row(report) for report in reports],
            "players": [
                {
                    "seat": summary.seat,
                    "name": names[summary.seat],
                    "moves": summary.moves,
                    "total_cost": round(summary.total_cost, 2),
                    "average_cost": round(summary.average_cost, 3),
                    "mistakes": summary.mistakes,
                    "blunders": summary.blunders,
                }
                for summary in summaries
            ],
        }
        print(json.dumps(data, ensure_ascii=False))
        return 0
    heading = [t(f"cli.analyze.{word}") for word in ("ply", "player", "played", "best", "cost")]
    print(f"{heading[0]:>4}  {heading[1]:<12} {heading[2]:<7} {heading[3]:<7} {heading[4]:>6}")
    for report in reports:
        cost = "-" if report.cost is None else f"{report.cost:.2f}"
        mark = "" if report.exact or report.cost is None else "~"
        flag = f"  {t(f'cli.analyze.{report.flag}')}" if report.flag else ""
        name = names[report.seat][:12]
        print(
            f"{report.ply:>4}  {name:<12} {report.played!s:<7} {report.best!s:<7}"
            f" {mark + cost:>6}{flag}"
        )
    legend = "points" if game.mode == "general" else "results"
    print(t(f"cli.analyze.legend_{legend}"))
    for summary in summaries:
        print(
            t(
                "cli.analyze.summary",
                name=names[summary.seat],
                moves=t("cli.analyze.moves", count=summary.moves),
                total=f"{summary.total_cost:.2f}",
                average=f"{summary.average_cost:.2f}",
                mistakes=t("cli.analyze.mistakes", count=summary.mistakes),
                blunders=t("cli.analyze.blunders", count=summary.blunders),
            )
        )
    return 0
