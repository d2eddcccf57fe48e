"""Records fit for datasets: who played, with which Parlor, and rows for learning.

:func:`annotate` adds to a record what a data set needs beyond the moves: the bot at each seat
(``bots``) and the package version that played it (``parlor_version``). Both are information
only: replay ignores them, and the record's ``engine_version`` (see docs/engine.md, "Record
format version") decides whether a record still replays.
"""

from __future__ import annotations

from typing import Any


def annotate(record: dict[str, Any], bots: list[str]) -> dict[str, Any]:
    from parlor import __version__

    out = dict(record)
    out["bots"] = list(bots)
    out["parlor_version"] = __version__
    return out
