"""``sosgame serve``: the browser app on a web server, one process or several."""

from __future__ import annotations

import argparse
import os
import socket
from typing import Any

from sosgame.cli.language import subcommand, t
from sosgame.errors import SosError
from sosgame.extras import require
from sosgame.i18n import system_reason
from sosgame.web.defaults import DEFAULT_DATABASE, LOOPBACK_HOSTS

__all__ = ["add_store_options", "check_store_options", "register"]


def add_store_options(parser: argparse.ArgumentParser, *, redis_help: str | None = None) -> None:
    """The options every server process takes: where games are stored and shared.

    ``redis_help``, for a process that cannot work without Redis, makes ``--redis`` required
    and says why.
    """
    parser.add_argument(
        "--database",
        default=DEFAULT_DATABASE,
        metavar="URL",
        help=t("cli.serve.database", default=DEFAULT_DATABASE),
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        required=redis_help is not None,
        help=t("cli.serve.redis") if redis_help is None else redis_help,
    )


def check_settings(*, pools: bool = True) -> None:
    """Refuse, in one line naming the variable, a ``SOSGAME_*`` setting of the environment
    that cannot be used: the limits (and the pools and scheduled tournaments if ``pools``)."""
    from sosgame.web.config import ServerLimits
    from sosgame.web.matchmaking.pools import pools_from_environment
    from sosgame.web.tournaments.schedule import schedule_from_environment

    try:
        ServerLimits.from_environment()
        if pools:
            pools_from_environment()
            schedule_from_environment()
    except ValueError as error:
        raise SosError(t("cli.serve.bad_setting", error=error)) from None


def check_store_options(arguments: argparse.Namespace) -> None:
    """Refuse a database or Redis URL that is not one, naming it."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        # Loading the dialect finds a URL of no database sosgame can use (bogus://x).
        make_url(arguments.database).get_dialect()
    except (ArgumentError, ImportError):
        raise SosError(t("cli.serve.bad_url", url=repr(arguments.database))) from None
    redis = arguments.redis
    if redis is None:
        return
    if not redis.startswith(("redis://", "rediss://", "unix://")):
        raise SosError(t("cli.serve.bad_redis", url=repr(redis)))
    from redis import Redis

    client = Redis.from_url(redis, socket_connect_timeout=5)
    try:
        client.ping()
    except Exception as error:
        raise SosError(t("cli.serve.no_redis", url=redis, error=error)) from None
    finally:
        client.close()


def register(commands: Any) -> None:
    """Add the ``serve`` subcommand."""
    parser = subcommand(commands, "serve")
    parser.add_argument("--host", default="127.0.0.1", help=t("cli.serve.host"))
    parser.add_argument("--port", type=int, default=8000, help=t("cli.serve.port"))
    parser.add_argument(
        "--allowed-hosts",
        default=",".join(LOOPBACK_HOSTS),
        metavar="HOSTS",
        help=t("cli.serve.allowed_hosts", default=",".join(LOOPBACK_HOSTS)),
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default="",
        metavar="ADDRESSES",
        help=t("cli.serve.forwarded_allow_ips"),
    )
    add_store_options(parser)
    parser.add_argument("--workers", type=int, default=1, metavar="N", help=t("cli.serve.workers"))
    parser.add_argument(
        "--no-computers",
        dest="computers",
        action="store_false",
        help=t("cli.serve.no_computers"),
    )
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    """Start the server and serve until interrupted."""
    if not 0 <= arguments.port <= 65535:
        raise SosError(t("cli.serve.bad_port", port=arguments.port))
    _check_address(arguments.host, arguments.port)
    if arguments.workers < 1:
        raise SosError(t("cli.serve.bad_workers", workers=arguments.workers))
    if arguments.workers > 1 and arguments.redis is None:
        raise SosError(t("cli.serve.workers_need_redis", workers=arguments.workers))
    if not arguments.computers and arguments.redis is None:
        raise SosError(t("cli.serve.no_computers_need_redis"))
    require("web", "sosgame serve")
    import uvicorn

    from sosgame.web.guards.deadlines import http_protocol
    from sosgame.web.live.protocol import MAX_MESSAGE_BYTES
    from sosgame.web.network.serving import app_from_environment, serving_environment

    check_settings()
    check_store_options(arguments)
    hosts = [host.strip() for host in arguments.allowed_hosts.split(",") if host.strip()]
    if not hosts:
        raise SosError(t("cli.serve.no_hosts"))
    proxies = ",".join(
        item.strip() for item in arguments.forwarded_allow_ips.split(",") if item.strip()
    )
    settings = serving_environment(
        arguments.database, arguments.redis, computers=arguments.computers, allowed_hosts=hosts
    )
    options: dict[str, Any] = {
        "host": arguments.host,
        "port": arguments.port,
        "ws_max_size": MAX_MESSAGE_BYTES,
        # Compressing small JSON messages costs more CPU than it saves on the wire.
        "ws_per_message_deflate": False,
        "log_level": "info",
        # Cuts off clients that send their request headers too slowly.
        "http": http_protocol(),
        # A client's address is the one it connects from, unless it connects from a proxy
        # the operator named (uvicorn would believe any client on 127.0.0.1).
        "proxy_headers": bool(proxies),
        "forwarded_allow_ips": proxies or None,
    }
    _check_database(arguments.database)
    if arguments.computers:
        from sosgame.kernel_cache import prepare
        from sosgame.web.live.hub import PREPARE_COMPUTERS

        prepare()  # the computers' workers then find their kernels compiled soonest
        os.environ.setdefault(PREPARE_COMPUTERS, "1")
    if arguments.workers > 1:
        # Each process builds its own app from the environment (uvicorn starts them).
        os.environ.update(settings)
        uvicorn.run(
            "sosgame.web.network.serving:app_from_environment",
            factory=True,
            workers=arguments.workers,
            **options,
        )
        return 0
    uvicorn.run(app_from_environment(settings), **options)
    return 0


def _check_address(host: str, port: int) -> None:
    """Refuse, in one line, an address the server could not listen on: a host name that
    names nothing, or a port that is taken or not allowed."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise SosError(t("cli.serve.bad_host", host=repr(host), error=reason)) from None
    family, kind, protocol, _, address = found[0]
    with socket.socket(family, kind, protocol) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            reason = system_reason(t, error.errno, error.strerror or str(error))
            raise SosError(
                t("cli.serve.cannot_listen", host=host, port=port, error=reason)
            ) from None


def _check_database(url: str) -> None:
    """Open the store once (migrating it) before serving, so a database that cannot be
    used is reported in one line (and once, not by every process)."""
    from sosgame.web.storage.store import Store

    try:
        Store(url).close()
    except Exception as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
        raise SosError(t("cli.serve.bad_database", url=repr(url), error=first)) from None
