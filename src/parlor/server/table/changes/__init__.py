"""Every kind of change to a table in play, one value type each, applied by ``LiveTable.change``.

A change has three steps, called under the table's lock:

* ``prepare(table)``: check it against the table as it is (refuse with a ``ServerError``, changing
  nothing) and return the writes that store it (``storage.writes``; ``[]`` for a change kept in memory
  only, such as a connection arriving at a seat already joined);
* ``apply(table, results)``: once the writes are committed, swap it in (no ``await``), and return what
  the caller gets back;
* ``announce(table)``: tell the connections (frames are derived from the table, see ``frames.py``).

``moves_play``: the change may move whose turn it is or who plays a seat, so the table resets its
clocks and gives its bots their turn after it.

**Adding a kind of change**: a value type here with those three methods, and, if it stores something,
a write in ``storage/writes.py``. The lock, the fence and the order come from ``LiveTable.change``.

The host (whoever created the table holds its host token) may help a table whose player is missing:
a **stand-in** (a bot plays a human seat now, until its player connects) or a **new link** (for a seat
that is *away*: never claimed, or without a connection for ``Limits.relink_after`` seconds).

The kinds, by family (every name is importable from this package):

* ``base.py``: ``Change`` and the check that the game still runs;
* ``game.py``: a decision, an undo, a hint, a chat line;
* ``seats.py``: connections arriving and leaving, names, claiming a link, sitting down and standing up,
  bots filling a public table, a deleted account forgotten;
* ``host.py``: the host's stand-in and new link;
* ``timers.py``: a turn clock run out, an away seat given to a bot, a link never opened, a table nobody
  joined closed;
* ``again.py``: "play again" (the next table and its links);
* ``moderation.py``: a moderator's: a chat line deleted, the table closed, a banned account's seat.
"""

from __future__ import annotations

from parlor.server.storage import CreationLimits

from .again import PlayAgain, announce_next, new_table_row
from .base import Change, playing
from .game import Decide, GiveHint, Say, Undo, hint_refusal
from .host import Relink, StandIn, check_host, host_seat
from .moderation import BanSeat, CloseTable, DeleteChat
from .seats import (
    Arrive,
    Claim,
    FillWithBots,
    ForgetAccount,
    Leave,
    Rename,
    SitDown,
    StandUp,
    leave,
    link_used,
    open_seat,
    seat_of_account,
    seat_of_claim,
)
from .timers import ClockRanOut, CloseUnjoined, SeatNotOpened, SeatTimedOut, TurnTimedOut, waits_for_players

__all__ = [
    "Arrive",
    "BanSeat",
    "CloseTable",
    "DeleteChat",
    "Change",
    "Claim",
    "ClockRanOut",
    "CloseUnjoined",
    "CreationLimits",
    "Decide",
    "FillWithBots",
    "ForgetAccount",
    "GiveHint",
    "Leave",
    "PlayAgain",
    "Relink",
    "Rename",
    "Say",
    "SeatNotOpened",
    "SeatTimedOut",
    "TurnTimedOut",
    "SitDown",
    "StandIn",
    "StandUp",
    "Undo",
    "announce_next",
    "check_host",
    "hint_refusal",
    "host_seat",
    "leave",
    "link_used",
    "new_table_row",
    "open_seat",
    "playing",
    "seat_of_account",
    "seat_of_claim",
    "waits_for_players",
]
