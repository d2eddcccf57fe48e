"""``python -m parlor.server [--host H] [--port P] [--database-url URL] [--bot-delay S]``."""

from __future__ import annotations

import argparse
import logging
import sys

from .db import default_database_url


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
) -> None:
    import uvicorn

    from .app import create_app

    url = database_url or default_database_url()
    app = create_app(url, bot_delay=bot_delay, seat_timeout=seat_timeout, rate_per_second=rate_per_second, burst=burst)
    shown = "localhost" if host in ("0.0.0.0", "::", "127.0.0.1") else host
    print(
        f"Parlor server: open http://{shown}:{port}/  (database: {_hide_password(app.state.database_url)})", flush=True
    )
    logging.basicConfig(level=logging.INFO if log_level == "info" else logging.WARNING)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=1 << 20,  # the app answers frames over its own 16 KiB limit with a clear error
        ws_per_message_deflate=False,  # frames are small; compressing them costs more CPU than it saves
        access_log=False,
    )


def _hide_password(url: str) -> str:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m parlor.server", description="Run the Parlor multiplayer server.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--database-url", default=None, help="SQLAlchemy URL; default SQLite in ~/.local/share/parlor")
    parser.add_argument("--bot-delay", type=float, default=0.8, help="seconds a bot waits before moving")
    parser.add_argument("--seat-timeout", type=float, default=120.0, help="default seconds before a bot takes a seat")
    parser.add_argument("--rate", type=float, default=20.0, help="frames a second per connection")
    parser.add_argument("--burst", type=int, default=40, help="frames at once per connection")
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    args = parser.parse_args(argv)
    run(
        args.host,
        args.port,
        args.database_url,
        bot_delay=args.bot_delay,
        seat_timeout=args.seat_timeout,
        rate_per_second=args.rate,
        burst=args.burst,
        log_level=args.log_level,
    )


if __name__ == "__main__":
    sys.exit(main())
