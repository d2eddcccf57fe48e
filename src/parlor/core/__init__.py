"""Parlor's shared engine core: the game protocol, actions, events, RNG and records."""

from .actions import Action, ActionSpace
from .errors import IllegalAction, ParlorError, RecordError, ScenarioError, StateError
from .events import Event, EventKind, EventList, RawEvent, for_seat, private, public, raw_private, raw_public
from .game import ENGINE_VERSION, Game, Result, State
from .options import OptionError
from .record import load_record, replay, replay_iter, save_record
from .rng import Rng

__all__ = [
    "ENGINE_VERSION",
    "Action",
    "ActionSpace",
    "Event",
    "EventKind",
    "EventList",
    "Game",
    "IllegalAction",
    "OptionError",
    "ParlorError",
    "RecordError",
    "Result",
    "RawEvent",
    "Rng",
    "ScenarioError",
    "State",
    "StateError",
    "for_seat",
    "load_record",
    "private",
    "public",
    "raw_private",
    "raw_public",
    "replay",
    "replay_iter",
    "save_record",
]
