"""The storage layer: the schema, the one fenced path every write takes, the group-commit writer, and
the site's lease rows. It imports nothing of the server above it (``table``, ``edge``)."""

from .accounts import AccountStore, Attempt, LimitReached, NameTaken
from .database import CHAT_PAGE, DamagedDatabase, Database, default_database_url, normalize_url, now, record_of
from .listings import Listings
from .ratings import RatingStore
from .site import SiteRows
from .writer import Writer
from .writes import (
    AddChat,
    AddHint,
    AppendDecision,
    ClaimSeat,
    CloseUnplayed,
    CreateTable,
    CreationLimits,
    CreationRefused,
    LeaseLost,
    LeaveSeat,
    MarkBroken,
    NewLink,
    RemoveDecision,
    SeatsToBots,
    SetClock,
    SetSeat,
    StoreReplay,
    StoreReview,
    TakeSeat,
    Touch,
    VersionConflict,
    Write,
)

__all__ = [
    "CHAT_PAGE",
    "AccountStore",
    "Attempt",
    "AddChat",
    "AddHint",
    "AppendDecision",
    "ClaimSeat",
    "CloseUnplayed",
    "CreateTable",
    "CreationLimits",
    "CreationRefused",
    "DamagedDatabase",
    "Database",
    "LeaseLost",
    "LimitReached",
    "Listings",
    "MarkBroken",
    "NameTaken",
    "LeaveSeat",
    "NewLink",
    "RatingStore",
    "RemoveDecision",
    "SeatsToBots",
    "SetClock",
    "SetSeat",
    "SiteRows",
    "StoreReplay",
    "StoreReview",
    "TakeSeat",
    "Touch",
    "VersionConflict",
    "Write",
    "Writer",
    "default_database_url",
    "normalize_url",
    "now",
    "record_of",
]
