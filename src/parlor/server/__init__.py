"""Parlor's multiplayer server: FastAPI + uvicorn, SQLAlchemy persistence, bots in empty seats.

``create_app(database_url=...)`` builds the ASGI app; ``python -m parlor.server`` or ``parlor serve``
runs it. The wire protocol is ``docs/protocol.md``.
"""

from .app import PROTOCOL, create_app

__all__ = ["PROTOCOL", "create_app", "main", "run"]


def run(*args, **kwargs):  # type: ignore[no-untyped-def]
    from .__main__ import run as _run

    return _run(*args, **kwargs)


def main(argv=None):  # type: ignore[no-untyped-def]
    from .__main__ import main as _main

    return _main(argv)
