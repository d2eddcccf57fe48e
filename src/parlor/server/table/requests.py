"""A request for a new table (``POST /api/tables``, and quick play's own), parsed into a typed value
before the hub sees it. The edge (``edge/tables.py``) and the lobby's quick play parse the JSON body
with :func:`parse_new_table`, which checks it field by field and answers the first fault as a
``ServerError`` naming its field; the hub takes the parsed :class:`NewTableRequest` and only makes
the table's secrets and stores it. (It lives in the table layer, not in the edge, because the lobby
below the edge opens tables too, and a service never imports the edge above it.)"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from parlor import games as registry
from parlor.core import Game, ParlorError
from parlor.core.options import OptionError
from parlor.server.limits import Limits
from parlor.server.wire import ServerError

from .bots import BOT_LEVELS
from .clocks import MAX_TURN_TIME
from .seats import clean_name

MAX_FILL_AFTER = 3600.0  # seconds a public table may wait for players before bots fill its seats
KNOWN_FIELDS = (
    "game",
    "players",
    "options",
    "seats",
    "seat_timeout",
    "substitute_level",
    "turn_time",
    "bots_before_join",
    "hints",
    "public",
    "rated",
    "fill_bots_after",
    "days_per_move",
)
MAX_DAYS_PER_MOVE = 14  # a turn-based table's longest time for one decision, in days


@dataclass(frozen=True)
class SeatRequest:
    """One seat as asked for: a human's (its link is made by the hub) or a bot's at ``level``."""

    kind: Literal["human", "bot"]
    level: str | None
    name: str | None


@dataclass(frozen=True)
class NewTableRequest:
    """A checked request for a new table. ``options``: the game's own options value. The clock and
    substitute settings are the creator's; the hub replaces them on a rated table (``Hub.rated_settings``)."""

    game: Game
    players: int
    options: Any
    seats: tuple[SeatRequest, ...]
    seat_timeout: float | None
    substitute_level: str
    turn_time: float | None
    bots_before_join: bool
    hints: bool
    public: bool
    rated: bool
    fill_bots_after: float | None
    # A tournament's table (``server/tournaments``): its clock is the tournament's (checked there
    # against the site's limits), even when rated, and a bot plays a seat whose player never came, so
    # that every round ends.
    tournament: bool = False
    days_per_move: int | None = None  # a turn-based table: days each decision may take (None: live)


def parse_new_table(body: Any, limits: Limits, default_seat_timeout: float | None) -> NewTableRequest:
    """A create request checked field by field; ``default_seat_timeout``: the server's, for a request
    that gives none."""
    if not isinstance(body, dict):
        raise ServerError("bad_request", "the body must be a JSON object")
    known = set(KNOWN_FIELDS)
    unknown = sorted(k for k in body if k not in known)
    if unknown:
        raise ServerError(
            "bad_request", f"unknown field {unknown[0]!r}; known: {', '.join(sorted(known))}", field=unknown[0]
        )
    name = body.get("game", "")
    if not isinstance(name, str):
        raise ServerError("unknown_game", "'game' must be a game's name", field="game")
    try:
        game = registry.get(name)
    except (ParlorError, ImportError) as exc:
        raise ServerError("unknown_game", str(exc), field="game") from None
    players = body.get("players", game.min_players)
    raw_options = body.get("options")
    if raw_options is not None and not isinstance(raw_options, dict):
        raise ServerError("bad_options", "'options' must be a JSON object", field="options")
    for option, value in (raw_options or {}).items():
        if type(value) is int and abs(value) > limits.max_option_int:
            raise ServerError(
                "bad_options",
                f"option {option!r} must lie within ±{limits.max_option_int}, got {value}",
                field=f"options.{option}",
            )
    try:  # the one check of player counts under the options chosen (Game.player_range)
        options = game.options_for(players, raw_options or {})
    except OptionError as exc:
        bad = next((n for n in (raw_options or {}) if repr(n) in str(exc) or str(n) in str(exc)), None)
        raise ServerError("bad_options", str(exc), field=f"options.{bad}" if bad else "options") from None
    except ParlorError as exc:
        raise ServerError("bad_players", str(exc), field="players") from None
    except (TypeError, ValueError) as exc:
        raise ServerError("bad_options", str(exc), field="options") from None
    try:  # the options together with the player count (a seat number in range, teams at 4, …)
        game.new_game(players, 0, options)
    except (ParlorError, TypeError, ValueError) as exc:
        raise ServerError(
            "bad_options", f"these options do not work at {players} players: {exc}", field="options"
        ) from None
    seats_in = body.get("seats")
    if seats_in is None:
        seats_in = [{"kind": "human"}] + [{"kind": "bot", "level": "medium"}] * (players - 1)
    if not isinstance(seats_in, list) or len(seats_in) != players:
        raise ServerError("bad_seats", f"'seats' must be a list of {players} seats", field="seats")
    timeout = body.get("seat_timeout", default_seat_timeout)
    if timeout is not None and (type(timeout) not in (int, float) or not 0 <= timeout <= limits.max_seat_timeout):
        raise ServerError(
            "bad_request",
            f"'seat_timeout' must be a number of seconds from 0 to {limits.max_seat_timeout:g}, or null",
            field="seat_timeout",
        )
    substitute = body.get("substitute_level", "medium")
    if substitute not in BOT_LEVELS:
        raise ServerError(
            "bad_request", f"'substitute_level' must be one of {', '.join(BOT_LEVELS)}", field="substitute_level"
        )
    turn_time = body.get("turn_time")
    if turn_time is not None and (
        type(turn_time) not in (int, float) or not limits.min_turn_time <= turn_time <= MAX_TURN_TIME
    ):
        raise ServerError(
            "bad_request",
            f"'turn_time' must be a number of seconds from {limits.min_turn_time:g} to {MAX_TURN_TIME:g}, or null",
            field="turn_time",
        )
    bots_before_join = body.get("bots_before_join", False)
    if type(bots_before_join) is not bool:
        raise ServerError("bad_request", "'bots_before_join' must be true or false", field="bots_before_join")
    hints = body.get("hints", False)
    if type(hints) is not bool:
        raise ServerError("bad_request", "'hints' must be true or false", field="hints")
    public, rated = body.get("public", False), body.get("rated", False)
    for flag, value in (("public", public), ("rated", rated)):
        if type(value) is not bool:
            raise ServerError("bad_request", f"'{flag}' must be true or false", field=flag)
    fill_after = body.get("fill_bots_after")
    if fill_after is not None and (type(fill_after) not in (int, float) or not 0 <= fill_after <= MAX_FILL_AFTER):
        raise ServerError(
            "bad_request",
            f"'fill_bots_after' must be a number of seconds from 0 to {MAX_FILL_AFTER:g}, or null",
            field="fill_bots_after",
        )
    if fill_after is not None and not public:
        raise ServerError("bad_request", "only a public table fills its seats with bots", field="fill_bots_after")
    days = body.get("days_per_move")
    if days is not None and (type(days) is not int or not 1 <= days <= MAX_DAYS_PER_MOVE):
        raise ServerError(
            "bad_request",
            f"'days_per_move' must be a whole number of days from 1 to {MAX_DAYS_PER_MOVE}, or null",
            field="days_per_move",
        )
    if days is not None and turn_time is not None:  # one clock or the other, never both
        raise ServerError(
            "bad_request", "a turn-based table ('days_per_move') has no 'turn_time'", field="days_per_move"
        )
    if days is not None:  # a player away for hours is normal here: only the days per move hand a seat to a bot
        timeout = None
    if hints and rated:  # a hint is the judge's help: a rated game is played without it
        raise ServerError("bad_request", "a rated table gives no hints", field="hints")
    seats: list[SeatRequest] = []
    for i, spec in enumerate(seats_in):
        if not isinstance(spec, dict) or spec.get("kind") not in ("human", "bot"):
            raise ServerError(
                "bad_seats",
                f"seat {i}: give {{'kind': 'human'}} or {{'kind': 'bot', 'level': …}}",
                field=f"seats[{i}]",
            )
        seat_name = clean_name(spec.get("name"), i)
        if spec["kind"] == "bot":
            level = spec.get("level", "medium")
            if level not in BOT_LEVELS:
                raise ServerError(
                    "bad_seats",
                    f"seat {i}: bot level must be one of {', '.join(BOT_LEVELS)}",
                    field=f"seats[{i}].level",
                )
            seats.append(SeatRequest("bot", level, seat_name))
        else:
            seats.append(SeatRequest("human", None, seat_name))
    return NewTableRequest(
        game=game,
        players=players,
        options=options,
        seats=tuple(seats),
        seat_timeout=None if timeout is None else float(timeout),
        substitute_level=substitute,
        turn_time=None if turn_time is None else float(turn_time),
        bots_before_join=bots_before_join,
        hints=hints,
        public=public,
        rated=rated,
        fill_bots_after=None if fill_after is None else float(fill_after),
        days_per_move=days,
    )
