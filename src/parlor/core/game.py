"""The protocol every game implements: :class:`Game` (the facts) and :class:`State`.

A game package subclasses both. The base classes own what is the same for every
game, so each game only writes its rules:

* legality checking, the action history and the legal-move cache (``apply``);
* playing forced moves automatically, but only where being forced is public
  (``_forced_move_is_public``: a seat is never asked to pick from one option unless
  skipping the question would tell the others something hidden);
* records, JSON round trips and the error types.

Subclasses provide ``_legal_actions``, ``_apply``, ``_view``, ``_determinize``,
``clone``, ``_state_json`` / ``_load_state_json`` and ``result``.

The rules make raw events (``raw_public`` / ``raw_private``, cheap tuples); ``apply`` returns
them as an :class:`~parlor.core.events.EventList`, which builds the ``Event`` objects only
when somebody reads it (see core/events.py).
"""

from __future__ import annotations

import json
import operator
from abc import ABC, ABCMeta, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from .actions import Action, ActionSpace
from .errors import IllegalAction, ParlorError, StateError
from .events import Event, EventList, RawEvent
from .options import OptionError, options_from_json, options_to_json
from .rng import AnyRng, FastRng, Rng

# Compiled, a name imported from a pure-Python module is a dict lookup at every use; a Final is not.
_EventList: Final = EventList

# The record and saved-state format version, written into every record and saved state.
# "2": single-option decisions whose forcedness is hidden are now asked and
# recorded, Sweet Nose's face-down tile holders are always asked, and the rule fixes of
# Mamma Mia! and Mottainai change which actions exist; a version-1 action list therefore
# does not replay, and older records and saved states are refused with a clear error.
ENGINE_VERSION = "2"


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game: per-seat scores, places (1 = best, ties share) and winners."""

    scores: tuple[int, ...]
    tiebreaks: tuple[int, ...]
    places: tuple[int, ...]
    winners: tuple[int, ...]

    @staticmethod
    def rank(scores: tuple[int, ...], tiebreaks: tuple[int, ...], *, higher_wins: bool = True) -> "Result":
        sign = 1 if higher_wins else -1
        keys = [(sign * s, t) for s, t in zip(scores, tiebreaks)]
        places = tuple(1 + sum(1 for k in keys if k > mine) for mine in keys)
        winners = tuple(i for i, p in enumerate(places) if p == 1)
        return Result(tuple(scores), tuple(tiebreaks), places, winners)

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "tiebreaks": list(self.tiebreaks),
            "places": list(self.places),
            "winners": list(self.winners),
        }


# ``metaclass=ABCMeta``, not ``ABC`` as a base: compiled, a Python base class would give every
# state a ``__dict__``, and CPython 3.11 then looks ``state.apply`` up the slow way on every call
# from Python (no specialized LOAD_METHOD for an object with a dict at an offset).
class State(metaclass=ABCMeta):
    """One position of one game. Mutable; ``clone`` it to explore."""

    __slots__ = (
        "game",
        "players",
        "options",
        "seed",
        "rng",
        "to_move",
        "_history",
        "_history_len",
        "_legal_seat",
        "_legal",
        "_scenario",
        "_autoplay",
    )

    # Play a seat's only legal action without asking (set False where a game wants every step shown).
    auto_play_forced: ClassVar[bool] = True

    game: "Game"
    players: int
    options: Any
    seed: int
    rng: Rng
    to_move: tuple[int, ...]
    # The decisions so far: the first ``_history_len`` entries of a list that clones share (a
    # flat list, not a linked one: a nested structure as deep as the game made deepcopy, pickle
    # and comparisons recurse once per decision). ``None``: no decision yet (or a sampled
    # position, which has no real past). See ``_record_decision``.
    _history: list[tuple[int, Action]] | None
    _history_len: int
    _legal_seat: int
    _legal: list[Action] | None
    _scenario: Any  # the scenario JSON this game was started from (None: from new_game)
    _autoplay: bool  # the class's auto_play_forced, read once: compiled, a class attribute is a dict lookup

    # ---- what every game writes -------------------------------------------------------------
    @abstractmethod
    def _legal_actions(self, seat: int) -> list[Action]: ...

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> list[RawEvent]:
        """Play a legal action; returns the raw events (``raw_public`` / ``raw_private``)."""

    @abstractmethod
    def _view(self, seat: int | None, recall: bool) -> dict[str, Any]:
        """What ``view`` returns, for a seat already checked (``None``: a spectator)."""

    @abstractmethod
    def _determinize(self, seat: int, rng: AnyRng) -> "State":
        """What ``determinize`` returns, for a seat and generator already checked."""

    @abstractmethod
    def clone(self) -> "State": ...

    @abstractmethod
    def result(self) -> Result: ...

    @abstractmethod
    def _state_json(self) -> dict[str, Any]: ...

    def _forced_move_is_public(self, seat: int) -> bool:
        """May the engine play ``seat``'s single legal action by itself here?

        The root rule for forced moves (docs/engine.md, "Forced moves"): a decision with
        one legal option may be auto-played **only where the fact that it is forced is
        public**, i.e. every other seat could work out from its own ``view`` that ``seat``
        has exactly one option. Whether a seat is asked shows in everyone's
        ``view(...)["to_move"]``, so auto-playing a move that is forced *because of hidden
        cards* (no matching card in hand, a face-down tile that allows nothing else...)
        would tell the others about those cards.

        Called only when ``seat`` is to move and has exactly one legal action (the
        engine's cached ``legal_actions(seat)``). Return ``False`` when the number of
        options this decision has depends on anything some other seat cannot see: the
        seat is then asked, and answers with its single option like any other decision
        (which goes into the record). Return ``True`` when the option count follows from
        public facts alone (the phase, counts everyone sees, public cards).

        The default, ``True``, is right for decisions built only from public facts; a game
        overrides it for the decisions where that is not so. ``tests/test_secrecy.py``
        checks every game: the same public action in worlds a seat cannot tell apart
        must leave that seat's view (``to_move`` included) identical.
        """
        return True

    @property
    def is_over(self) -> bool:
        return not self.to_move

    # ---- the shared machinery --------------------------------------------------------------
    def _init_base(self, game: "Game", players: int, seed: int, options: Any) -> None:
        self.game = game
        self.players = players
        self.options = options
        self.seed = seed
        self.rng = Rng(seed)
        self.to_move = ()
        self._history = None
        self._history_len = 0
        self._legal_seat = -1
        self._legal = None
        self._scenario = None
        self._autoplay = bool(type(self).auto_play_forced)

    def _copy_base_into(self, other: "State") -> None:
        other.game = self.game
        other.players = self.players
        other.options = self.options
        other.seed = self.seed
        other.rng = Rng(state=self.rng.state)
        other.to_move = self.to_move
        other._history = self._history
        other._history_len = self._history_len
        other._legal_seat = self._legal_seat
        other._legal = self._legal  # never mutated in place, so sharing is safe
        other._scenario = getattr(self, "_scenario", None)  # plain JSON, never mutated
        other._autoplay = self._autoplay

    def _cached_legal(self, seat: int) -> list[Action]:
        if self._legal is not None and self._legal_seat == seat:
            return self._legal
        legal = self._legal_actions(seat)
        self._legal_seat = seat
        self._legal = legal
        return legal

    def _is_to_move(self, seat: int) -> bool:
        to_move = self.to_move
        # One seat to move is the usual case: a compare of two ints, not a tuple search.
        return (len(to_move) == 1 and to_move[0] == seat) or seat in to_move

    # The public entry points take ``Any`` and check it themselves: compiled code would turn a
    # wrongly typed argument into a TypeError, and the engine promises its own errors.
    def legal_actions(self, seat: Any) -> list[Action]:
        """The actions ``seat`` may take now (empty if it is not that seat's turn)."""
        who: int = seat if type(seat) is int else _seat_number(seat)
        if not self._is_to_move(who):
            return []
        if self._legal_seat == who and self._legal is not None:
            return self._legal[:]
        return self._cached_legal(who)[:]

    def apply(self, seat: Any, action: Action) -> list[Event]:
        """Play ``action`` for ``seat``; returns the events. Illegal input raises and changes nothing.

        The events are an :class:`EventList`: a list of ``Event`` whose objects are built the
        first time it is used, so a caller that drops it (a playout) never pays for them.
        """
        who: int = seat if type(seat) is int else _seat_number(seat)
        if not self._is_to_move(who):
            if not self.to_move:
                raise IllegalAction("the game is over")
            # Seats as people count them, from 1 (an index that is no seat is named as given).
            name = f"Seat {who + 1}" if 0 <= who < self.players else f"seat index {who}"
            waiting = ", ".join(f"Seat {s + 1}" for s in self.to_move)
            raise IllegalAction(f"{name} is not to move (waiting for {waiting})")
        legal = self._legal if self._legal_seat == who and self._legal is not None else self._cached_legal(who)
        # Legal actions are prebuilt objects, so an identity scan settles the usual case.
        for candidate in legal:
            if candidate is action:
                break
        else:
            try:
                ok = action in legal
            except Exception:  # an object whose comparison fails is simply not a legal action
                ok = False
            if not ok:
                raise IllegalAction(f"{action} is not legal for Seat {who + 1} now; legal: {[str(a) for a in legal]}")
            action = legal[legal.index(action)]
        events = self._apply(who, action)
        self._record_decision(who, action)
        self._legal = None
        if self._autoplay:
            self._play_forced(events)
        return _EventList(events)  # type: ignore[arg-type]  # raw events, built into Events when read

    def __deepcopy__(self, memo: Any) -> "State":
        # ``copy.deepcopy`` (OpenSpiel copies a Python state's attributes with it) would walk
        # every object of the state; a clone is the same position and shares what is immutable.
        return self.clone()

    def _record_decision(self, seat: int, action: Action) -> None:
        """Append a decision to the history, sharing the list with clones while that is safe.

        Clones share one list and each knows its own length. A state whose length is the
        list's appends in place (O(1), nothing copied); one that lags (a clone already
        appended, or this state was cloned from an earlier position) copies its own prefix
        first. ``list.append`` is atomic, so two clones appending at once from two threads
        are told apart afterwards: the one whose entry did not land at its index copies.
        """
        # Boxed once: compiled, a ``tuple[int, Action]`` is an unboxed C pair that becomes a new
        # Python tuple at each use, so ``log[n] is not entry`` below was always true and every
        # decision copied the whole history (O(length) per decision, cold memory in a batch).
        entry: object = (seat, action)
        log: list[Any] | None = self._history
        n = self._history_len if log is not None else 0
        if log is not None and len(log) == n:
            log.append(entry)
            if log[n] is not entry:  # another clone's entry got there first (threads)
                log = log[:n]
                log.append(entry)
                self._history = log
        else:
            log = [] if log is None else log[:n]
            log.append(entry)
            self._history = log
        self._history_len = n + 1

    def _settle(self) -> list[Event]:
        """Play forced moves at the start of a game (called by ``new_game``)."""
        events: list[RawEvent] = []
        if self._autoplay:
            self._play_forced(events)
        return _EventList(events)  # type: ignore[arg-type]

    def _play_forced(self, events: list[RawEvent]) -> None:
        """Play every seat's only legal action until some seat has a real choice.

        A single option is played only where :meth:`_forced_move_is_public` allows it;
        otherwise the seat is asked. The legal actions computed here stay cached for the
        next ``legal_actions`` call.
        """
        while True:
            to_move = self.to_move
            if len(to_move) == 1:
                seat = to_move[0]
                legal = self._legal_actions(seat)
                self._legal_seat = seat
                self._legal = legal
                if len(legal) != 1 or not self._forced_move_is_public(seat):
                    return
                events.extend(self._apply(seat, legal[0]))
                self._legal = None
                continue
            for seat in to_move:
                legal = self._cached_legal(seat)
                if len(legal) == 1 and self._forced_move_is_public(seat):
                    events.extend(self._apply(seat, legal[0]))
                    self._legal = None
                    break
            else:
                return

    def view(self, seat: Any, recall: Any = False) -> dict[str, Any]:
        """Exactly what ``seat`` (``None``: a spectator) may know now, as plain JSON.

        ``recall=True`` adds what the seat could remember from public events it saw
        (perfect recall, allowed to bots); the default is what the table shows.
        A seat that is not at this table raises ``ParlorError``.
        """
        if seat is not None:
            seat = self._seat_at_table(seat)
        if type(recall) is not bool:
            raise ParlorError(f"recall is True or False, got {recall!r}")
        return self._view(seat, recall)

    def determinize(self, seat: Any, rng: Any) -> "State":
        """A full state ``seat`` cannot tell apart from this one, its hidden parts drawn from
        ``rng`` (an ``Rng`` or a ``FastRng``); used by search bots. Wrong input raises ``ParlorError``."""
        seat = self._seat_at_table(seat)
        if type(rng) is not Rng and type(rng) is not FastRng:
            raise ParlorError(f"determinize draws from a parlor.core Rng or FastRng, got {type(rng).__name__}")
        return self._determinize(seat, rng)

    def _seat_at_table(self, seat: Any) -> int:
        if type(seat) is not int:
            if isinstance(seat, bool) or not hasattr(type(seat), "__index__"):
                raise ParlorError(f"a seat is an integer, got {seat!r}")
            seat = operator.index(seat)
        if not 0 <= seat < self.players:
            raise ParlorError(f"no seat {seat!r} at this table of {self.players}")
        return seat

    def apply_json(self, seat: Any, data: Any) -> list[Event]:
        return self.apply(seat, self.game.actions.from_json(data))

    # ---- history and records ---------------------------------------------------------------
    def history(self) -> list[tuple[int, Action]]:
        """Every decision taken so far, oldest first (forced moves are not decisions)."""
        log = self._history
        if log is None:
            return []
        return log[: self._history_len]

    def record(self) -> dict[str, Any]:
        """The game as a record; one started from a scenario carries the scenario, so that the
        replay starts where it started (``replay`` builds it with ``game.scenario``)."""
        out = {
            "game": self.game.name,
            "engine_version": ENGINE_VERSION,
            "options": options_to_json(self.options),
            "players": self.players,
            "seed": self.seed,
            "actions": [[seat, action.to_json()] for seat, action in self.history()],
        }
        scenario = getattr(self, "_scenario", None)
        if scenario is not None:
            out["scenario"] = scenario
        return out

    def to_json(self) -> dict[str, Any]:
        """The complete state (RNG included) as plain JSON; ``game.load_state`` reads it back."""
        return {
            "game": self.game.name,
            "engine_version": ENGINE_VERSION,
            "players": self.players,
            "seed": self.seed,
            "options": options_to_json(self.options),
            "rng": self.rng.state,
            "to_move": list(self.to_move),
            "history": [[seat, action.to_json()] for seat, action in self.history()],
            "state": self._state_json(),
        }

    def to_json_text(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def __repr__(self) -> str:
        return f"<{self.game.name} state, {self.players} players, to move {list(self.to_move)}>"


# (game class, player count) -> the default Options (``Game.default_options``).
_DEFAULT_OPTIONS: dict[tuple[type, int], Any] = {}


def _seat_number(seat: Any) -> int:
    """A seat passed to a public entry point, as an ``int`` (NumPy integers too); else IllegalAction."""
    if isinstance(seat, bool) or not hasattr(type(seat), "__index__"):
        raise IllegalAction(f"a seat is an integer, got {seat!r}")
    return operator.index(seat)


def _remembering(build: Any) -> Any:
    """``build`` (a game's ``scenario``), remembering the JSON it was given (a module-level
    closure: mypyc cannot compile one inside ``__init_subclass__``)."""

    def scenario(self: "Game", data: Mapping[str, Any]) -> State:
        # {"saved_state": <State.to_json()>}: a game set up at any position (a practice deal,
        # parlor.review.practice), so that its record replays from there like any scenario's.
        if isinstance(data, Mapping) and set(data) == {"saved_state"}:
            state = self.load_state(data["saved_state"])
        else:
            state = build(self, data)
        state._scenario = json.loads(json.dumps(data))  # a private copy, plain JSON
        return state

    scenario.__doc__ = build.__doc__
    scenario._remembers = True  # type: ignore[attr-defined]
    return scenario


@mypyc_attr(native_class=False)  # games subclass it in plain Python; __init_subclass__ patches methods
class Game(ABC):
    """The facts of one game, stated once; subclasses fill in the class attributes."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type]
    actions: ClassVar[ActionSpace]
    summary: ClassVar[str] = ""

    # ---- what every game writes -------------------------------------------------------------
    @abstractmethod
    def _new_state(self, players: int, seed: int, options: Any) -> State: ...

    @abstractmethod
    def _load_state_json(self, state: State, data: Mapping[str, Any]) -> None: ...

    @abstractmethod
    def scenario(self, data: Mapping[str, Any]) -> State: ...

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Every game's ``scenario`` remembers the JSON it was given, so the game's record can
        # replay from the same start; the games themselves need not know.
        super().__init_subclass__(**kwargs)
        build = cls.__dict__.get("scenario")
        if build is None or getattr(build, "_remembers", False):
            return
        cls.scenario = _remembering(build)  # type: ignore[method-assign]

    # ---- shared --------------------------------------------------------------------------
    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def action_id(self, action: Action) -> int:
        return self.actions.id(action)

    def action_from_id(self, action_id: Any) -> Action:
        return self.actions.from_id(action_id)

    def action_from_json(self, data: Any) -> Action:
        return self.actions.from_json(data)

    def options_from_json(self, data: Mapping[str, Any] | None) -> Any:
        return options_from_json(self.Options, data)

    def player_range(self, options: Any = None) -> tuple[int, int]:
        """(fewest, most) players a game can start with under ``options``.

        ``options`` is this game's ``Options``, or a mapping of only the options a person chose
        (then a game may count the options it switches by itself for a player count, see
        :meth:`options_for`), or None for none chosen. The one truth about player counts: the
        CLI, the server's table creation and ``/api/games`` all ask here. A game whose range
        depends on its options overrides this.
        """
        return self.min_players, self.max_players

    def player_ranges_by_option(self) -> list[dict[str, Any]]:
        """The option values that change :meth:`player_range` when chosen alone, e.g.
        ``[{"option": "team_play", "value": True, "min_players": 4, "max_players": 4}]``."""
        from .options import describe_options

        base = self.player_range()
        out = []
        for info in describe_options(self.Options):
            for value in info["allowed"] or ():
                low, high = self.player_range({info["name"]: value})
                if (low, high) != base:
                    out.append({"option": info["name"], "value": value, "min_players": low, "max_players": high})
        return out

    def check_players(self, players: Any, options: Any = None) -> int:
        """``players`` if this game (under ``options``, when given) can seat them; else ParlorError."""
        low, high = self.player_range(options)
        if type(players) is not int or not low <= players <= high:
            count = f"{low}" if low == high else f"{low}-{high}"
            under = self._range_reason(options) if (low, high) != (self.min_players, self.max_players) else ""
            raise ParlorError(f"{self.title} is for {count} players{under}, got {players!r}")
        return players

    def _range_reason(self, options: Any) -> str:
        """Words for why ``options`` narrow the player range (``" with team_play=true"``)."""
        return " with these options"

    def options_for(self, players: Any, given: Mapping[str, Any] | None = None) -> Any:
        """The ``Options`` a ``players``-player game starts with when ``given`` are the options a
        person chose (a JSON mapping): a game may switch an option that count needs and that was
        not given (Mottainai: 6 players set ``max_players=6``). Raises ``OptionError`` for bad
        options and ``ParlorError`` when the count does not fit them."""
        self.check_players(players, dict(given or {}))
        options = self.options_from_json(given)
        self.check_players(players, options)
        return options

    def default_options(self, players: Any) -> Any:
        """The options a new game gets when none are given (the spec's defaults).

        Built once per game and player count, then shared: ``Options`` values are frozen, and
        checking a mapping against the option schema costs more than dealing a game.
        """
        key = (type(self), players) if type(players) is int else None
        if key is not None:
            cached = _DEFAULT_OPTIONS.get(key)
            if cached is not None:
                return cached
        options = self.options_for(players, {})
        if key is not None:
            _DEFAULT_OPTIONS[key] = options  # only a count that passed the checks
        return options

    def new_game(self, players: Any, seed: Any = 0, options: Any = None) -> State:
        if options is None:
            options = self.default_options(players)
        elif isinstance(options, Mapping):
            options = self.options_for(players, options)
        elif not isinstance(options, self.Options):
            raise OptionError(f"options must be {self.Options.__name__} or a JSON object, got {type(options).__name__}")
        if type(seed) is not int:
            raise ParlorError(f"seed must be an integer, got {seed!r}")
        players = self.check_players(players, options)
        state = self._new_state(players, seed, options)
        state._settle()
        return state

    def scenario_basics(self, data: Any, keys: set[str], default_players: int) -> tuple[int, Any, int]:
        """Check a scenario's top level (a JSON object with known keys) and read its player
        count, options and seed; every problem is a :class:`ScenarioError`."""
        from .errors import ScenarioError

        if not isinstance(data, Mapping):
            raise ScenarioError("a scenario must be a JSON object")
        unknown = set(data) - keys
        if unknown:
            known = ", ".join(sorted(keys))
            raise ScenarioError(f"unknown scenario key(s): {', '.join(sorted(unknown))}; known: {known}")
        try:
            options = self.options_from_json(data.get("options"))
            players = self.check_players(data.get("players", default_players), options)
        except ParlorError as exc:
            raise ScenarioError(str(exc)) from None
        seed = data.get("seed", 0)
        if type(seed) is not int:
            raise ScenarioError(f"seed must be an integer, got {seed!r}")
        return players, options, seed

    def load_state(self, data: Mapping[str, Any] | str) -> State:
        """Rebuild a state saved with ``to_json``; a damaged one raises :class:`StateError`."""
        try:
            if isinstance(data, str):
                data = json.loads(data)
            if not isinstance(data, Mapping):
                raise StateError("a saved state must be a JSON object")
            if data.get("game") != self.name:
                raise StateError(f"this is a saved {data.get('game')!r} state, not {self.name!r}")
            version = data.get("engine_version")
            if version != ENGINE_VERSION:
                raise StateError(
                    f"this state was saved by engine version {version!r}; this engine reads version"
                    f" {ENGINE_VERSION!r} only (docs/engine.md, 'Format versions')"
                )
            options = self.options_from_json(data["options"])
            players = self.check_players(data["players"], options)
            state = self._new_state(players, int(data["seed"]), options)
            rng_state = data["rng"]
            if type(rng_state) is not int or not 0 <= rng_state < 1 << 64:
                raise StateError("rng must be a 64-bit unsigned integer")
            state.rng = Rng(state=rng_state)
            history = [(int(seat), self.actions.from_json(action)) for seat, action in data["history"]]
            state._history = history
            state._history_len = len(history)
            state.to_move = tuple(int(s) for s in data["to_move"])
            self._load_state_json(state, data["state"])
            state._legal = None
            return state
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise StateError(f"saved state is damaged: {type(exc).__name__}: {exc}") from None
        except Exception as exc:  # IllegalAction, OptionError... all mean a damaged file
            raise StateError(f"saved state is damaged: {exc}") from None
