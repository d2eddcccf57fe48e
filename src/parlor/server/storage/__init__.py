"""The storage layer: the schema, the one fenced path every write takes, the group-commit writer, and
the site's lease rows. It imports nothing of the server above it (``table``, ``edge``)."""

from .database import CHAT_PAGE, DamagedDatabase, Database, default_database_url, normalize_url, now
from .site import SiteRows
from .writer import Writer
from .writes import (
    AddChat,
    AppendDecision,
    ClaimSeat,
    CloseUnplayed,
    CreateTable,
    CreationLimits,
    CreationRefused,
    LeaseLost,
    MarkBroken,
    NewLink,
    RemoveDecision,
    SetClock,
    SetSeat,
    StoreReplay,
    Touch,
    VersionConflict,
    Write,
)

__all__ = [
    "CHAT_PAGE",
    "AddChat",
    "AppendDecision",
    "ClaimSeat",
    "CloseUnplayed",
    "CreateTable",
    "CreationLimits",
    "CreationRefused",
    "DamagedDatabase",
    "Database",
    "LeaseLost",
    "MarkBroken",
    "NewLink",
    "RemoveDecision",
    "SetClock",
    "SetSeat",
    "SiteRows",
    "StoreReplay",
    "Touch",
    "VersionConflict",
    "Write",
    "Writer",
    "default_database_url",
    "normalize_url",
    "now",
]
