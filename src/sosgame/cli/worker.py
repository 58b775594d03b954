"""``sosgame worker``: computer moves for the server processes that share a database and
Redis (``sosgame serve --redis``)."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from sosgame.cli.language import subcommand, t
from sosgame.cli.serve import add_store_options, check_settings, check_store_options
from sosgame.errors import SosError
from sosgame.extras import require

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``worker`` subcommand."""
    parser = subcommand(commands, "worker")
    add_store_options(parser, redis_help=t("cli.worker.redis"))
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    """Make computer moves until interrupted."""
    require("web", "sosgame worker")
    import logging

    from sosgame.web.network.bus import BusError
    from sosgame.web.network.serving import run_worker

    check_settings(pools=False)
    check_store_options(arguments)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")
    try:
        asyncio.run(run_worker(arguments.database, arguments.redis))
    except BusError as error:
        raise SosError(t("cli.serve.unreachable", error=error)) from None
    return 0
