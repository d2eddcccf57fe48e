"""Parlor's multiplayer server: FastAPI + uvicorn, SQLAlchemy persistence, bots in empty seats.

Three layers, each importing only the ones below it:

* ``edge``    (``edge/``): HTTP routes, WebSocket frames, parsing, limits, authentication, the relay
  between the processes of a site; ``__main__`` starts the processes;
* ``table``   (``table/``): one live object per table, which changes only through ``LiveTable.change``;
  the hub of every live table of this process; bots, clocks, frames, replays;
* ``storage`` (``storage/``): the schema, the one fenced path every write takes, the group commit.

``wire`` (the protocol's JSON and refusal) and ``limits`` lie below all three. ``create_app(...)``
builds the ASGI app; ``python -m parlor.server`` or ``parlor serve`` runs it. The wire protocol and the
layout are in ``docs/protocol.md``.
"""

from .edge.app import PROTOCOL, create_app

__all__ = ["PROTOCOL", "create_app", "main", "run"]


def run(*args, **kwargs):  # type: ignore[no-untyped-def]
    from .__main__ import run as _run

    return _run(*args, **kwargs)


def main(argv=None):  # type: ignore[no-untyped-def]
    from .__main__ import main as _main

    return _main(argv)
