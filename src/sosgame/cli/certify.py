"""``sosgame certify FILE``: check a solver certificate with the rules engine alone."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from sosgame.certify import check, load
from sosgame.cli.language import subcommand, t

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``certify`` subcommand."""
    parser = subcommand(commands, "certify")
    parser.add_argument("file", type=Path, metavar="FILE", help=t("cli.certify.file"))
    parser.add_argument("--sample", type=int, metavar="N", help=t("cli.certify.sample"))
    parser.add_argument("--seed", type=int, default=0, metavar="N", help=t("cli.certify.seed"))
    parser.add_argument("--json", action="store_true", help=t("cli.help.json"))
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    """Check the certificate named on the command line; 0 if it holds (errors exit 1)."""
    report = check(load(arguments.file), sample=arguments.sample, seed=arguments.seed)
    if arguments.json:
        print(json.dumps(asdict(report) | {"complete": report.complete}))
        return 0
    key = "cli.certify.proven" if report.complete else "cli.certify.sampled"
    if report.assumed:
        key = "cli.certify.assumed"
    value = f"{report.value:+d}" if report.value else "0"
    print(t(key, **(asdict(report) | {"value": value, "count": report.assumed})))
    return 0
