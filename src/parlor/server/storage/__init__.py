"""The storage layer: the schema, the one fenced path every write takes, the group-commit writer, and
the site's lease rows. It imports nothing of the server above it (``table``, ``edge``)."""

from .accounts import AccountStore, Attempt, LimitReached, NameTaken
from .database import CHAT_PAGE, DamagedDatabase, Database, default_database_url, normalize_url, now, record_of
from .friends import FriendStore, Refused
from .listings import Listings
from .moderation import AlreadyReported, LogLine, ModerationStore
from .notifications import NotificationStore
from .ratings import RatingStore
from .site import SiteRows
from .tournaments import TournamentStore
from .turns import TurnStore, VacationRefused
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
    FreeSeat,
    HideChat,
    LeaseLost,
    LeaveSeat,
    LogModeration,
    MarkBroken,
    NewLink,
    RemoveDecision,
    SeatLimits,
    SeatsRefused,
    SeatsToBots,
    SetClock,
    SetSeat,
    SetTurn,
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
    "AlreadyReported",
    "HideChat",
    "LogLine",
    "LogModeration",
    "ModerationStore",
    "Attempt",
    "AddChat",
    "AddHint",
    "AppendDecision",
    "ClaimSeat",
    "CloseUnplayed",
    "CreateTable",
    "CreationLimits",
    "CreationRefused",
    "FreeSeat",
    "FriendStore",
    "DamagedDatabase",
    "Database",
    "LeaseLost",
    "LimitReached",
    "Listings",
    "MarkBroken",
    "NameTaken",
    "NotificationStore",
    "LeaveSeat",
    "NewLink",
    "RatingStore",
    "Refused",
    "RemoveDecision",
    "SeatsToBots",
    "SetClock",
    "SetSeat",
    "SetTurn",
    "SiteRows",
    "TurnStore",
    "VacationRefused",
    "StoreReplay",
    "StoreReview",
    "SeatLimits",
    "SeatsRefused",
    "TakeSeat",
    "Touch",
    "TournamentStore",
    "VersionConflict",
    "Write",
    "Writer",
    "default_database_url",
    "normalize_url",
    "now",
    "record_of",
]
