"""The table layer: one live object per table in play (``live.py``), which changes only through its one
method, ``LiveTable.change``, taking the change values of the ``changes`` package; the hub of every
live table of this process (``hub.py``), which opens a table from a checked request
(``requests.py``); what the tables derive (frames, clocks, undo rules, replays); the bots; and this
process's membership of a site of several (``site.py``). It imports the storage layer below it,
never the edge above it."""

from .bots import BOT_LEVELS, bot_level_description
from .changes import (
    BanSeat,
    Change,
    Claim,
    CloseTable,
    Decide,
    DeleteChat,
    GiveHint,
    PlayAgain,
    Relink,
    Rename,
    Say,
    SitDown,
    StandIn,
    StandUp,
    Undo,
    hint_refusal,
    seat_of_claim,
)
from .connection import MOVED, Connection
from .hub import Hub, valid_table_id
from .live import FinishedTable, LiveTable
from .requests import NewTableRequest, SeatRequest, parse_new_table
from .seats import MAX_NAME, Seat, authenticate, hash_token, new_token
from .site import Site, SiteConfig

__all__ = [
    "BOT_LEVELS",
    "BanSeat",
    "CloseTable",
    "DeleteChat",
    "MAX_NAME",
    "MOVED",
    "NewTableRequest",
    "Change",
    "Claim",
    "Connection",
    "Decide",
    "FinishedTable",
    "GiveHint",
    "Hub",
    "LiveTable",
    "PlayAgain",
    "Relink",
    "Rename",
    "Say",
    "Seat",
    "Site",
    "SiteConfig",
    "SeatRequest",
    "SitDown",
    "StandIn",
    "StandUp",
    "Undo",
    "authenticate",
    "bot_level_description",
    "hash_token",
    "hint_refusal",
    "new_token",
    "parse_new_table",
    "seat_of_claim",
    "valid_table_id",
]
