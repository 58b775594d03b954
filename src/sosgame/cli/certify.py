"""``sosgame certify FILE``: check a solver certificate with the rules engine alone.

``--extract N --out FILE`` keeps a random sample of a proof too large to keep whole.

Its options are declared in :mod:`sosgame.cli.options`, which loads this module when the
command runs.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from sosgame.certify import check, load, write
from sosgame.cli.language import t
from sosgame.cli.progress import Progress
from sosgame.errors import InvalidSettingsError

__all__ = ["run"]


def run(arguments: argparse.Namespace) -> int:
    """Check the certificate named on the command line; 0 if it holds (errors exit 1)."""
    if (arguments.extract is None) != (arguments.out is None):
        raise InvalidSettingsError(t("cli.certify.extract_needs_out"))
    if arguments.extract is not None:
        if arguments.sample is not None:
            raise InvalidSettingsError(t("cli.certify.extract_or_sample"))
        return _extract(arguments)
    document = load(arguments.file)
    with Progress() as progress:

        def checked(done: int, total: int) -> None:
            progress.show(t("cli.certify.working", done=f"{done:,}", total=f"{total:,}"))

        report = check(
            document,
            sample=arguments.sample,
            seed=arguments.seed,
            progress=checked if progress.shown else None,
        )
    if arguments.json:
        print(json.dumps(asdict(report) | {"complete": report.complete}))
        return 0
    key, count = ("cli.certify.proven", report.entries)
    if not report.complete:
        key = "cli.certify.sampled"
    if report.assumed:
        key, count = ("cli.certify.assumed", report.assumed)
    if report.sampled_from is not None:
        key, count = ("cli.certify.kept_sample", report.checked)
    if report.walks is not None:
        key, count = ("cli.certify.walked", report.checked)
    value = f"{report.value:+d}" if report.value else "0"
    print(t(key, **(asdict(report) | {"value": value, "count": count})))
    return 0


def _extract(arguments: argparse.Namespace) -> int:
    """Write a kept sample of the certificate, after checking its entries against the whole."""
    from sosgame.research.sample import extract

    sample = extract(load(arguments.file), arguments.extract, seed=arguments.seed)
    write(sample, arguments.out)
    report = check(sample)
    if arguments.json:
        print(json.dumps(asdict(report) | {"complete": report.complete, "out": str(arguments.out)}))
        return 0
    print(t("cli.certify.extracted", **(asdict(report) | {"out": arguments.out})))
    return 0
