"""``python -m parlor.server [--host H] [--port P] [--database-url URL] [--public-url URL] [--bot-delay S]``.

Start-up checks come first and each failure is one line naming the problem (``StartupError``):
the port is validated and bound *before* the database is touched (a second server on a used port
must not migrate or restore anything), then the database URL is parsed, its dialect and driver
checked, and a connection tried. Only then is the app built and served on the bound socket.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import logging
import os
import socket
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from parlor.core.errors import ParlorError

from .accounts import ACCOUNT_FLAGS
from .storage import default_database_url, normalize_url

SUPPORTED_DIALECTS = ("sqlite", "postgresql")


class StartupError(ParlorError):
    """The server cannot start: a bad port or address, a bad or unreachable database."""


def check_port(port: object) -> int:
    if type(port) is not int or not 1 <= port <= 65535:
        raise StartupError(f"--port must be a whole number from 1 to 65535, got {port!r}")
    return port


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``, or a StartupError saying why not."""
    check_port(port)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise StartupError(f"cannot listen on host {host!r}: {getattr(exc, 'strerror', None) or exc}") from None
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: restart after TIME_WAIT
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        reason = "it is already in use" if exc.errno == 98 else exc.strerror or str(exc)
        raise StartupError(f"cannot listen on {host}:{port}: {reason}") from None
    sock.set_inheritable(True)
    return sock


def relay_listener(advertise: str | None) -> tuple[socket.socket, str]:
    """The socket where the site's other processes relay requests to this one, and the address they
    reach it at: ``advertise`` (``HOST:PORT``, port 0 = any free one) on a site of several hosts, else a
    free loopback port."""
    host, port = parse_address(advertise) if advertise else ("127.0.0.1", 0)
    sock = bind(host, port) if port else _bind_any(host)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    return sock, f"{shown}:{bound}"


def _bind_any(host: str) -> socket.socket:
    try:
        infos = socket.getaddrinfo(host, 0, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _name, address = infos[0]
        sock = socket.socket(family, kind, proto)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        raise StartupError(f"cannot listen for relayed requests on {host}: {exc.strerror or exc}") from None
    return sock


def parse_address(text: str, flag: str = "--advertise-address", lowest: int = 0) -> tuple[str, int]:
    """``HOST:PORT`` (``[v6]:PORT`` for IPv6) -> (host, port); a StartupError if it is not one."""
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not lowest <= int(port) <= 65535:
        raise StartupError(f"{flag} must be HOST:PORT (a port from {lowest} to 65535), got {text!r}")
    return host, int(port)


def start_metrics(address: str, registry: Any = None, folder: str | None = None) -> None:
    """``--metrics-address``: /metrics served there in a thread (``server/metrics.py``): this process's
    own ``registry``, or (``folder``) the sum over the workers' files in multiprocess mode."""
    from .metrics import serve_metrics, serve_site_metrics

    host, port = parse_address(address, "--metrics-address", lowest=1)
    try:
        if folder is not None:
            serve_site_metrics(host, port, folder)
        else:
            serve_metrics(host, port, registry)
    except OSError as exc:
        reason = "it is already in use" if exc.errno == 98 else exc.strerror or str(exc)
        raise StartupError(f"cannot serve metrics on {address}: {reason}") from None


def setup_logging(log_level: str, log_format: str) -> None:
    level = {"debug": logging.DEBUG, "info": logging.INFO}.get(log_level, logging.WARNING)
    if log_format == "json":
        from .edge.logs import use_json_logs

        use_json_logs(level)
    else:
        logging.basicConfig(level=logging.INFO if log_level == "info" else logging.WARNING)
    if log_level != "debug":  # Alembic's plugin and migration lines say nothing a player needs
        logging.getLogger("alembic").setLevel(logging.WARNING)


def announce(text: str, log_format: str) -> None:
    """A line for the operator: printed, or with JSON logs a log record like every other line."""
    if log_format == "json":
        logging.getLogger("parlor.server").info(text)  # (info: a start is no warning to alert on)
    else:
        print(text, flush=True)


def check_public_url(url: str) -> str:
    """The site's public address (``--public-url``, ``$PARLOR_PUBLIC_URL``) as the server uses it:
    ``scheme://host[:port]``, lower-case, no trailing slash; a StartupError if it is not an absolute
    http(s) address of a site's root (the pages and the API live at the root of their address)."""
    shown = url if len(url) <= 200 else url[:200] + "…"
    try:
        if any(c.isspace() or not c.isprintable() for c in url.strip()):
            raise ValueError("a space or control character")
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 (raises ValueError for a port that is not a number from 0 to 65535)
    except ValueError:
        parts = None
    if parts is None or parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise StartupError(
            f"--public-url must be an absolute http:// or https:// address such as https://games.example.org, "
            f"got {shown!r}"
        )
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        raise StartupError(
            f"--public-url must be the site's own address, scheme, host and port only (such as "
            f"https://games.example.org): Parlor serves its pages at the root of it, got {shown!r}"
        )
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def check_database(url: str) -> str:
    """The URL as the server will use it, after checking it parses, names a supported dialect,
    has its driver installed and can be connected to."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    shown = hide_password(url)
    try:
        parsed = make_url(normalize_url(url))
    except (ArgumentError, ValueError):
        raise StartupError(
            f"cannot parse the database URL {shown!r}: give e.g. sqlite:///path/parlor.db or "
            "postgresql://user:password@host/dbname"
        ) from None
    dialect = parsed.get_backend_name()
    if dialect not in SUPPORTED_DIALECTS:
        raise StartupError(f"database {dialect!r} is not supported: use sqlite or postgresql ({shown})")
    try:
        parsed.get_dialect().import_dbapi()
    except (ImportError, NoSuchModuleError):
        if dialect == "postgresql":
            from parlor.extras import install_line

            hint = f"install its driver (psycopg 3, the postgres extra): {install_line('postgres')}"
        else:
            hint = "install the driver this URL names"
        raise StartupError(f"the {dialect} driver for {shown} is not installed: {hint}") from None
    if dialect == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            folder = Path(parsed.database).expanduser().resolve().parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StartupError(f"cannot create the database folder {folder}: {exc.strerror}") from None
            if not os.access(folder, os.W_OK):
                raise StartupError(f"cannot write the database in {folder}: permission denied")
            check_sqlite_file(url)
        return url
    engine = create_engine(parsed, connect_args={"connect_timeout": 5})
    try:
        with engine.connect() as connection:
            connection.execute(text("select 1"))
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        raise StartupError(
            f"cannot reach the database {shown}: {reason[0] if reason else type(exc).__name__}"
        ) from None
    finally:
        engine.dispose()
    return url


def check_sqlite_file(url: str) -> None:
    """A damaged or foreign SQLite file is refused here, in one line, before the app starts (the
    app's own start-up check would end in uvicorn's lifespan traceback)."""
    from .storage import DamagedDatabase, Database

    db = Database(url)
    try:
        db.check_integrity()
    except DamagedDatabase as exc:
        raise StartupError(str(exc)) from None
    finally:
        db.close()


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    database_url: str | None = None,
    *,
    bot_delay: float = 0.8,
    seat_timeout: float | None = 120.0,
    rate_per_second: float = 20.0,
    burst: int = 40,
    log_level: str = "info",
    tables_per_minute: float | None = None,
    max_unfinished_tables: int | None = None,
    max_decisions: int | None = None,
    unjoined_table_ttl: float | None = None,
    header_timeout: float = 10.0,
    max_http_connections_per_address: int = 256,
    bot_processes: int | None = None,
    workers: int = 1,
    cluster: bool = False,
    fd: int | None = None,
    lease_seconds: float = 10.0,
    max_websockets_per_address: int | None = None,
    advertise_address: str | None = None,
    forwarded_allow_ips: str | None = None,
    min_turn_time: float | None = None,
    rated_turn_time: float | None = None,
    relink_after: float | None = None,
    body_timeout: float | None = None,
    review_budget: int | None = None,
    review_workers: int | None = None,
    review_queue: int | None = None,
    secure_cookies: bool = False,
    account_options: dict[str, float] | None = None,
    sit_open_within: float | None = None,
    metrics_address: str | None = None,
    log_format: str = "text",
    public_url: str | None = None,
    smtp_host: str | None = None,
    smtp_port: int = 25,
    smtp_from: str | None = None,
    smtp_user: str | None = None,
    smtp_starttls: bool = False,
    vapid_key: str | None = None,
) -> None:
    """Serve until stopped. ``workers`` > 1: that many server processes as one site (PostgreSQL);
    ``cluster``: this process is one of them (``fd``: the site's listening socket, inherited).
    ``advertise_address``: where the site's other processes (on other hosts too) reach this one.
    ``account_options``: the account limits by flag (``accounts.ACCOUNT_FLAGS``; None: the default).
    ``metrics_address``: ``HOST:PORT`` to serve /metrics on (``server/metrics.py``; None: none).
    ``log_format``: ``text`` or ``json`` (one JSON object per line, ``edge/logs.py``).
    ``public_url``: the address players reach the site at (behind a proxy); every link uses it, and an
    https one makes the cookies Secure (as ``secure_cookies``).
    ``smtp_*``: the mail server the notifications' e-mails go through (none: no e-mail); its password
    is read from ``$PARLOR_SMTP_PASSWORD`` only (a flag would show in the process list), and the user
    from ``$PARLOR_SMTP_USER`` when not given. ``vapid_key``: a PEM file with Web Push's VAPID private
    key (default: one made at first start and kept in the database)."""
    import uvicorn

    from .accounts import account_limits
    from .edge.app import create_app
    from .limits import Limits

    account_options = {k: v for k, v in (account_options or {}).items() if v is not None}
    try:
        accounts, account_creation = account_limits(account_options)
    except ValueError as exc:
        raise StartupError(str(exc)) from None

    if bot_delay < 0:
        raise StartupError(f"--bot-delay must be 0 or more seconds, got {bot_delay}")
    if tables_per_minute is not None and not 0 < tables_per_minute <= 1e6:
        raise StartupError(f"--tables-per-minute must be more than 0, got {tables_per_minute}")
    if max_unfinished_tables is not None and max_unfinished_tables < 1:
        raise StartupError(f"--max-unfinished-tables must be 1 or more, got {max_unfinished_tables}")
    if not 0 < header_timeout <= 3600:
        raise StartupError(f"--header-timeout must be more than 0 and at most 3600 seconds, got {header_timeout}")
    if max_http_connections_per_address < 1:
        got = max_http_connections_per_address
        raise StartupError(f"--max-http-connections-per-address must be 1 or more, got {got}")
    if max_decisions is not None and max_decisions < 1:
        raise StartupError(f"--max-decisions must be 1 or more, got {max_decisions}")
    if unjoined_table_ttl is not None and not 0 < unjoined_table_ttl < float("inf"):
        raise StartupError(f"--unjoined-table-ttl must be a number of seconds above 0, got {unjoined_table_ttl}")
    if bot_processes is not None and not 1 <= bot_processes <= 64:
        raise StartupError(f"--bot-processes must be from 1 to 64, got {bot_processes}")
    if max_websockets_per_address is not None and max_websockets_per_address < 1:
        raise StartupError(f"--max-websockets-per-address must be 1 or more, got {max_websockets_per_address}")
    if review_budget is not None and not 1 <= review_budget <= 1_000_000:
        raise StartupError(f"--review-budget must be from 1 to 1000000 iterations, got {review_budget}")
    if review_workers is not None and not 1 <= review_workers <= 64:
        raise StartupError(f"--review-workers must be from 1 to 64, got {review_workers}")
    if review_queue is not None and not 0 <= review_queue <= 100_000:
        raise StartupError(f"--review-queue must be from 0 to 100000 reviews, got {review_queue}")
    if not 1 <= workers <= 64:
        raise StartupError(f"--workers must be from 1 to 64, got {workers}")
    if not 1 <= lease_seconds <= 3600:
        raise StartupError(f"--lease-seconds must be from 1 to 3600, got {lease_seconds}")
    if min_turn_time is not None and not 0 < min_turn_time <= 86400:
        raise StartupError(f"--min-turn-time must be more than 0 and at most 86400 seconds, got {min_turn_time}")
    if rated_turn_time is not None and not 0 <= rated_turn_time <= 86400:
        raise StartupError(f"--rated-turn-time must be from 0 (no clock) to 86400 seconds, got {rated_turn_time}")
    if body_timeout is not None and not 0 < body_timeout <= 3600:
        raise StartupError(f"--body-timeout must be more than 0 and at most 3600 seconds, got {body_timeout}")
    if relink_after is not None and not 0 <= relink_after <= 86400:
        raise StartupError(f"--relink-after must be from 0 to 86400 seconds, got {relink_after}")
    if seat_timeout is not None and not 0 <= seat_timeout <= Limits().max_seat_timeout:
        most = Limits().max_seat_timeout
        raise StartupError(f"--seat-timeout must be from 0 to {most:g} seconds, got {seat_timeout:g}")
    if sit_open_within is not None and not 0 < sit_open_within <= 86400:
        raise StartupError(f"--sit-open-within must be more than 0 and at most 86400 seconds, got {sit_open_within}")
    if advertise_address is not None:
        parse_address(advertise_address)
    if log_format not in ("text", "json"):
        raise StartupError(f"--log-format must be text or json, got {log_format!r}")
    if metrics_address is not None:
        _metrics_host, metrics_port = parse_address(metrics_address, "--metrics-address", lowest=1)
        if metrics_port == port and fd is None:
            raise StartupError(f"--metrics-address must not be the site's own address ({host}:{port})")
    setup_logging(log_level, log_format)
    if public_url is not None:
        public_url = check_public_url(public_url)
        # Served over TLS by the proxy: the cookies must never travel over plain HTTP.
        secure_cookies = secure_cookies or public_url.startswith("https://")
    url = database_url or default_database_url()
    several = workers > 1 or cluster or advertise_address is not None
    if several and make_url_backend(url) == "sqlite":
        raise StartupError(
            "several server processes need PostgreSQL (--database-url postgresql://…): SQLite has no server "
            "to share one database between processes. Use one process with SQLite."
        )
    if several:  # the processes relay requests to each other over HTTP (edge/relay.py)
        from parlor.extras import require

        require("httpx", "postgres", "several server processes")
    sock = socket.socket(fileno=fd) if fd is not None else bind(host, port)  # before the database
    try:
        check_database(url)
        if workers > 1:
            child_args = ["--host", host, "--port", str(port), "--bot-delay", str(bot_delay)]
            child_args += ["--rate", str(rate_per_second), "--burst", str(burst), "--log-level", log_level]
            child_args += ["--log-format", log_format]
            child_args += ["--header-timeout", str(header_timeout), "--lease-seconds", str(lease_seconds)]
            child_args += ["--max-http-connections-per-address", str(max_http_connections_per_address)]
            if forwarded_allow_ips is not None:
                child_args += ["--forwarded-allow-ips", forwarded_allow_ips]
            if secure_cookies:
                child_args += ["--secure-cookies"]
            if public_url is not None:
                child_args += ["--public-url", public_url]
            if smtp_starttls:
                child_args += ["--smtp-starttls"]
            child_args += ["--smtp-port", str(smtp_port)]
            for flag, text in (("--smtp-host", smtp_host), ("--smtp-from", smtp_from), ("--smtp-user", smtp_user),
                               ("--vapid-key", vapid_key)):  # fmt: skip
                if text is not None:
                    child_args += [flag, text]
            for flag, value in (
                ("--body-timeout", body_timeout),
                ("--min-turn-time", min_turn_time),
                ("--rated-turn-time", rated_turn_time),
                ("--relink-after", relink_after),
                ("--sit-open-within", sit_open_within),
                ("--seat-timeout", seat_timeout),
                ("--tables-per-minute", tables_per_minute),
                ("--max-unfinished-tables", max_unfinished_tables),
                ("--max-decisions", max_decisions),
                ("--unjoined-table-ttl", unjoined_table_ttl),
                ("--bot-processes", bot_processes),
                ("--review-budget", review_budget),
                ("--review-workers", review_workers),
                ("--review-queue", review_queue),
                ("--max-websockets-per-address", max_websockets_per_address),
            ):
                if value is not None:
                    child_args += [flag, str(value)]
            for flag, value in account_options.items():
                child_args += [flag, repr(value)]
            return run_site(
                workers, sock, url, host, port, child_args, advertise_address, public_url, metrics_address, log_format
            )
        from dataclasses import replace

        from .table import SiteConfig

        # One of several processes: a listener for the requests the others relay here.
        relay, relay_address = relay_listener(advertise_address) if several else (None, "")

        limits = Limits()  # the per-address creation limits (docs/protocol.md, "Limits")
        if tables_per_minute is not None:
            limits = replace(limits, tables_per_address_per_minute=tables_per_minute)
        if max_unfinished_tables is not None:
            limits = replace(limits, max_unfinished_tables_per_address=max_unfinished_tables)
        if max_decisions is not None:
            limits = replace(limits, max_decisions=max_decisions)
        if unjoined_table_ttl is not None:
            limits = replace(limits, unjoined_table_ttl=unjoined_table_ttl)
        if max_websockets_per_address is not None:
            limits = replace(limits, max_connections_per_address=max_websockets_per_address)
        if min_turn_time is not None:
            limits = replace(limits, min_turn_time=min_turn_time)
        if rated_turn_time is not None:  # (0: rated tables have no clock)
            limits = replace(limits, rated_turn_time=rated_turn_time or None)
        if relink_after is not None:
            limits = replace(limits, relink_after=relink_after)
        if sit_open_within is not None:
            limits = replace(limits, sit_open_within=sit_open_within)
        if body_timeout is not None:
            limits = replace(limits, body_timeout=body_timeout)
        limits = replace(limits, **account_creation)  # the per-account creation limits
        app = create_app(
            url,
            bot_delay=bot_delay,
            seat_timeout=seat_timeout,
            rate_per_second=rate_per_second,
            burst=burst,
            limits=limits,
            bot_processes=bot_processes,
            review_budget=review_budget,
            review_processes=review_workers or 1,
            review_queue=review_queue,
            secure_cookies=secure_cookies,
            public_url=public_url,
            notify_config=notify_config(
                host, port, public_url, smtp_host, smtp_port, smtp_from, smtp_user, smtp_starttls, vapid_key
            ),
            account_limits=accounts,
            site=SiteConfig(relay_address, lease_seconds, relay.getsockname()[:2]) if relay else None,
            access_log=log_format == "json",
        )
        if metrics_address is not None:
            start_metrics(metrics_address, app.state.metrics.registry)
        if fd is None:
            shown = hide_password(app.state.database_url)
            metrics_note = f"; metrics: http://{metrics_address}/metrics" if metrics_address else ""
            announce(
                f"Parlor server: open {site_address(sock, public_url)}  (database: {shown}{metrics_note})", log_format
            )
        from .edge.guard import guarded_protocol

        # (create_app raised the open-files limit: every connection holds a file descriptor.)
        # X-Forwarded-For is believed only from the proxies the operator names (--forwarded-allow-ips):
        # otherwise any local process could name its own address for the per-address limits.
        # With JSON logs, uvicorn's own logging set-up is skipped: its records go to the JSON handler.
        uvicorn_logging: dict[str, Any] = {"log_config": None} if log_format == "json" else {}
        config = uvicorn.Config(
            app,
            log_level=log_level,
            **uvicorn_logging,
            http=guarded_protocol(header_timeout, max_http_connections_per_address),
            ws_max_size=1 << 20,  # the app answers frames over its own 16 KiB limit with a clear error
            ws_per_message_deflate=False,  # frames are small; compressing them costs more CPU than it saves
            access_log=False,
            proxy_headers=bool(forwarded_allow_ips),
            forwarded_allow_ips=forwarded_allow_ips or "",
        )
        if relay is None:
            uvicorn.Server(config).run(sockets=[sock])
        else:
            relayed = uvicorn.Config(
                app,
                log_level=log_level,
                **uvicorn_logging,
                lifespan="off",
                access_log=False,
                ws_max_size=1 << 20,
                ws_per_message_deflate=False,
                http=guarded_protocol(header_timeout, max_http_connections_per_address),
                proxy_headers=False,  # the relayed request names its client (with the site's key)
            )
            asyncio.run(serve_with_relay(uvicorn.Server(config), sock, uvicorn.Server(relayed), relay))
    finally:
        sock.close()


async def serve_with_relay(public: Any, sock: socket.socket, relayed: Any, relay_sock: socket.socket) -> None:
    """The public server, and beside it the listener the site's other processes relay to (no lifespan
    of its own: both serve the one app and its hub)."""
    relaying = asyncio.get_running_loop().create_task(relayed.serve(sockets=[relay_sock]))
    try:
        await public.serve(sockets=[sock])
    finally:
        relayed.should_exit = True
        await relaying


def site_address(sock: socket.socket, public_url: str | None = None) -> str:
    """The address to open: the public URL when there is one (and where the server listens behind it),
    else from the socket as bound (``http://127.0.0.1:8000/``). A socket on every address (0.0.0.0 or
    ::) is reached from other machines at this machine's own addresses, named here."""
    host, port = sock.getsockname()[:2]
    if public_url is not None:
        shown = f"[{host}]" if ":" in host else host
        return f"{public_url}/  (listening on {shown}:{port})"
    if host in ("0.0.0.0", "::"):
        addresses = network_addresses(ipv6=host == "::")
        if not addresses:
            return f"http://127.0.0.1:{port}/ or http://<this machine's address>:{port}/"
        links = " or ".join(f"http://{f'[{a}]' if ':' in a else a}:{port}/" for a in addresses)
        return f"{links}  (on this machine also http://127.0.0.1:{port}/)"
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def network_addresses(ipv6: bool = False) -> list[str]:
    """This machine's own addresses that other machines may reach it at: no loopback, no link-local.

    Found with the standard library alone (a dependency such as psutil, compiled, only for one start-up
    line is not worth it): the address a UDP socket would send from towards other networks (``connect``
    on UDP picks the route and sends nothing), then the addresses the machine's own name resolves to."""
    found: list[str] = []
    probes = [(socket.AF_INET, "192.0.2.1")] + ([(socket.AF_INET6, "2001:db8::1")] if ipv6 else [])
    for family, probe in probes:  # (TEST-NET addresses: never reached, only routed)
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))
                found.append(udp.getsockname()[0])
        except OSError:
            pass  # no route to other networks
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, type=socket.SOCK_STREAM)
        found += [str(info[4][0]) for info in infos if ipv6 or info[0] == socket.AF_INET]
    except (OSError, UnicodeError):
        pass
    usable: list[str] = []
    for text in found:
        try:
            address = ipaddress.ip_address(text.split("%", 1)[0])
        except ValueError:
            continue
        if not (address.is_loopback or address.is_link_local or address.is_unspecified) and str(address) not in usable:
            usable.append(str(address))
    return usable


def make_url_backend(url: str) -> str:
    from sqlalchemy.engine import make_url

    try:
        return make_url(normalize_url(url)).get_backend_name()
    except Exception:
        return "?"  # check_database names what is wrong with it


def run_site(
    workers: int,
    sock: socket.socket,
    url: str,
    host: str,
    port: int,
    child_args: list[str],
    advertise: str | None = None,
    public_url: str | None = None,
    metrics_address: str | None = None,
    log_format: str = "text",
) -> None:
    """``--workers N``: migrate once, then run N server processes on the one listening socket, each
    started again if it dies, until Ctrl-C or SIGTERM stops them all. With ``advertise`` (``HOST:PORT``)
    worker i is reached by the others at ``HOST:PORT+i`` (``HOST:0``: each at a free port).
    ``metrics_address``: this process serves /metrics there, summed over the workers (prometheus-client's
    multiprocess mode: the workers write their values to files in a folder made for this run)."""
    import shutil
    import tempfile

    from .metrics import MULTIPROCESS_ENV

    folder: str | None = None
    if metrics_address is not None:
        folder = tempfile.mkdtemp(prefix="parlor-metrics-")
        os.environ[MULTIPROCESS_ENV] = folder  # (the workers inherit it: their metrics go to files there)
        try:
            start_metrics(metrics_address, folder=folder)
        except StartupError:
            shutil.rmtree(folder, ignore_errors=True)
            raise
    try:
        _run_workers(workers, sock, url, child_args, advertise, public_url, folder, log_format)
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


def _run_workers(
    workers: int,
    sock: socket.socket,
    url: str,
    child_args: list[str],
    advertise: str | None,
    public_url: str | None,
    folder: str | None,
    log_format: str,
) -> None:
    import signal
    import subprocess
    import time

    from .metrics import worker_ended
    from .storage import Database

    db = Database(url)
    db.migrate()
    db.close()
    cmd = [sys.executable, "-m", "parlor.server", "--cluster", "--fd", str(sock.fileno()), "--database-url", url]
    cmd += child_args

    def start(i: int) -> subprocess.Popen[bytes]:
        extra: list[str] = []
        if advertise is not None:
            relay_host, relay_port = parse_address(advertise)
            shown = f"[{relay_host}]" if ":" in relay_host else relay_host
            extra = ["--advertise-address", f"{shown}:{relay_port + i if relay_port else 0}"]
        return subprocess.Popen(cmd + extra, pass_fds=[sock.fileno()])

    children = [start(i) for i in range(workers)]
    pids = ", ".join(str(c.pid) for c in children)
    shown = hide_password(url)
    announce(
        f"Parlor server: open {site_address(sock, public_url)}  ({workers} processes: {pids}; database: {shown})",
        log_format,
    )
    if log_format != "json":
        print("", flush=True)
    stopping = False

    def stop(signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not stopping:
        time.sleep(0.2)
        for i, child in enumerate(children):
            if child.poll() is not None and not stopping:
                if folder is not None:
                    worker_ended(folder, child.pid)
                announce(f"server process {child.pid} ended ({child.returncode}); starting another", log_format)
                children[i] = start(i)
                announce(f"server process {children[i].pid} started", log_format)
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    for child in children:
        try:
            child.wait(30)
        except subprocess.TimeoutExpired:
            child.kill()


def hide_password(url: str) -> str:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url


def notify_config(
    host: str, port: int, public_url: str | None, smtp_host: str | None, smtp_port: int, smtp_from: str | None,
    smtp_user: str | None, smtp_starttls: bool, vapid_key: str | None,
) -> Any:  # fmt: skip
    """The notifications' e-mail and push settings from the flags (``server/notify``)."""
    from .notify import MailSettings, NotifyConfig

    if vapid_key is not None and not os.path.isfile(vapid_key):
        raise StartupError(f"--vapid-key: no file {vapid_key!r} (a PEM file with the VAPID private key)")
    if not 0 < smtp_port < 65536:
        raise StartupError(f"--smtp-port must be a port number, got {smtp_port}")
    site_url = public_url or f"http://{'127.0.0.1' if host in ('0.0.0.0', '::', '') else host}:{port}"
    mail = None
    if smtp_host:
        sender = smtp_from or f"parlor@{urlsplit(site_url).hostname or 'localhost'}"
        user = smtp_user or os.environ.get("PARLOR_SMTP_USER") or None
        mail = MailSettings(smtp_host, smtp_port, sender, user, os.environ.get("PARLOR_SMTP_PASSWORD"), smtp_starttls)
    return NotifyConfig(site_url=site_url.rstrip("/"), smtp=mail, vapid_private_key=vapid_key)


def build_parser() -> argparse.ArgumentParser:
    """The flags of ``python -m parlor.server``; ``parlor serve`` takes the same ones (a test holds them together)."""
    parser = argparse.ArgumentParser(prog="python -m parlor.server", description="Run the Parlor multiplayer server.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--database-url", default=None, help="SQLAlchemy URL; default SQLite in ~/.local/share/parlor")
    parser.add_argument(
        "--public-url",
        default=os.environ.get("PARLOR_PUBLIC_URL") or None,
        help="the address players reach the site at, e.g. https://games.example.org (behind a proxy): every "
        "link uses it; https makes the cookies Secure (default $PARLOR_PUBLIC_URL, else the address served)",
    )
    parser.add_argument("--bot-delay", type=float, default=0.8, help="seconds a bot waits before moving")
    parser.add_argument("--seat-timeout", type=float, default=120.0, help="default seconds before a bot takes a seat")
    parser.add_argument("--rate", type=float, default=20.0, help="frames a second per connection")
    parser.add_argument("--burst", type=int, default=40, help="frames at once per connection")
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    parser.add_argument(
        "--tables-per-minute", type=float, default=None, help="new tables a minute from one address (default 30)"
    )
    parser.add_argument(
        "--max-unfinished-tables", type=int, default=None, help="unfinished tables per address (default 50)"
    )
    parser.add_argument(
        "--max-decisions", type=int, default=None, help="decisions after which a game ends as abandoned (default 5000)"
    )
    parser.add_argument(
        "--unjoined-table-ttl",
        type=float,
        default=None,
        help="seconds before a table whose players never came is closed (default 86400)",
    )
    parser.add_argument(
        "--header-timeout",
        type=float,
        default=10.0,
        help="seconds a connection may take to send a whole request head (default 10)",
    )
    parser.add_argument(
        "--max-http-connections-per-address",
        type=int,
        default=256,
        help="open HTTP connections one client address may hold (default 256)",
    )
    parser.add_argument(
        "--bot-processes",
        type=int,
        default=None,
        help="worker processes for searching bots (hard, expert); default: the cores less one, at least 1",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes serving one site (PostgreSQL only; default 1)",
    )
    parser.add_argument(
        "--max-websockets-per-address",
        type=int,
        default=None,
        help="open WebSockets one client address may hold (default 256)",
    )
    parser.add_argument(
        "--advertise-address",
        default=None,
        help="HOST:PORT where the site's processes on other hosts reach this one (several hosts, one "
        "PostgreSQL; with --workers N, PORT to PORT+N-1; port 0 = any free port)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default=None,
        help="comma-separated addresses of reverse proxies whose X-Forwarded-For is believed (default: none)",
    )
    parser.add_argument(
        "--body-timeout",
        type=float,
        default=None,
        help="seconds a request body may take to arrive, here and through the relay (default 10)",
    )
    parser.add_argument(
        "--min-turn-time", type=float, default=None, help="the shortest turn clock a table may have (default 5 s)"
    )
    parser.add_argument(
        "--rated-turn-time",
        type=float,
        default=None,
        help="seconds per decision at every rated table, whatever its creator asks (default 120; 0: no clock)",
    )
    parser.add_argument(
        "--relink-after",
        type=float,
        default=None,
        help="seconds a seat's player must be gone before the host may give the seat a new link (default 60)",
    )
    parser.add_argument(
        "--sit-open-within",
        type=float,
        default=None,
        help="seconds a seat sat down in has to be opened before it is freed or a bot plays it (default 30)",
    )
    parser.add_argument(
        "--review-budget",
        type=int,
        default=None,
        help="the judge's search iterations per decision for game reviews and hints (default: each game's own)",
    )
    parser.add_argument(
        "--review-workers",
        type=int,
        default=None,
        help="worker processes for game reviews and hints; as many reviews run at once, one per player (default 1)",
    )
    parser.add_argument(
        "--review-queue",
        type=int,
        default=None,
        help="reviews that may wait for a review worker; more are refused (default 100)",
    )
    parser.add_argument(
        "--secure-cookies",
        action="store_true",
        help="the site is served over TLS only: Secure cookies with the __Host- prefix (docs/protocol.md)",
    )
    parser.add_argument(
        "--smtp-host", default=None, help="the mail server for the notifications' e-mails (default: no e-mail)"
    )
    parser.add_argument("--smtp-port", type=int, default=25, help="its port (default 25)")
    parser.add_argument(
        "--smtp-from", default=None, help="the e-mails' sender address (default parlor@<the site's host>)"
    )
    parser.add_argument(
        "--smtp-user",
        default=None,
        help="the mail server's user (default $PARLOR_SMTP_USER; the password: $PARLOR_SMTP_PASSWORD)",
    )
    parser.add_argument("--smtp-starttls", action="store_true", help="talk to the mail server over STARTTLS")
    parser.add_argument(
        "--vapid-key",
        default=None,
        help="PEM file with Web Push's VAPID private key (default: made once, kept in the database)",
    )
    for spec in ACCOUNT_FLAGS:
        parser.add_argument(
            spec.flag, type=int if spec.whole else float, default=None, help=f"{spec.help} (default {spec.default:g})"
        )
    parser.add_argument(
        "--metrics-address",
        default=None,
        help="HOST:PORT to serve Prometheus metrics on at /metrics (a private address, not the site's; default: off)",
    )
    parser.add_argument(
        "--log-format",
        default="text",
        choices=["text", "json"],
        help="json: every log line a JSON object, with a line per request (default: text)",
    )
    parser.add_argument("--cluster", action="store_true", help=argparse.SUPPRESS)  # one of a site's processes
    parser.add_argument("--fd", type=int, default=None, help=argparse.SUPPRESS)  # the site's inherited socket
    parser.add_argument(
        "--lease-seconds",
        type=float,
        default=10.0,
        help="with several processes: seconds after which a silent process's tables are taken over (default 10)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        run(
            args.host,
            args.port,
            args.database_url,
            bot_delay=args.bot_delay,
            seat_timeout=args.seat_timeout,
            rate_per_second=args.rate,
            burst=args.burst,
            log_level=args.log_level,
            tables_per_minute=args.tables_per_minute,
            max_unfinished_tables=args.max_unfinished_tables,
            max_decisions=args.max_decisions,
            unjoined_table_ttl=args.unjoined_table_ttl,
            header_timeout=args.header_timeout,
            max_http_connections_per_address=args.max_http_connections_per_address,
            bot_processes=args.bot_processes,
            workers=args.workers,
            cluster=args.cluster,
            fd=args.fd,
            lease_seconds=args.lease_seconds,
            max_websockets_per_address=args.max_websockets_per_address,
            advertise_address=args.advertise_address,
            forwarded_allow_ips=args.forwarded_allow_ips,
            min_turn_time=args.min_turn_time,
            rated_turn_time=args.rated_turn_time,
            relink_after=args.relink_after,
            body_timeout=args.body_timeout,
            review_budget=args.review_budget,
            sit_open_within=args.sit_open_within,
            review_workers=args.review_workers,
            review_queue=args.review_queue,
            secure_cookies=args.secure_cookies,
            metrics_address=args.metrics_address,
            log_format=args.log_format,
            public_url=args.public_url,
            smtp_host=args.smtp_host,
            smtp_port=args.smtp_port,
            smtp_from=args.smtp_from,
            smtp_user=args.smtp_user,
            smtp_starttls=args.smtp_starttls,
            vapid_key=args.vapid_key,
            account_options={spec.flag: getattr(args, spec.flag[2:].replace("-", "_")) for spec in ACCOUNT_FLAGS},
        )
    except StartupError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
