"""Scenarios: put a Sweet Nose game in a given position from JSON.

For tests, puzzles and bug reports. Every key is optional::

    {
      "players": 3, "seed": 0, "options": {"market_bonus": "flat"},
      "phase": "set_sweetness" | "exchange" | "score" | "choose_shop" | "auction",
      "round": 1,                                  # 1.. (the auction is always round 0)
      "start_player": 0,
      "active": 0,                                 # exchange: whose turn (default: start player)
      "trays": [{"mung_bean_cake": 2}, null, ...], # per seat, by kind
      "bowls": [{"candied_haws": 1}, null, ...],
      "market": {"zhuangyuan_cake": 3},
      "sweetness": [[4, 2, 5, 1, 3], {"mung_bean_cake": 5, ...}, null, ...],
      "scores": [0, 0, 0],                         # totals on the score track (auction: markers)
      "round_scores": [24, 31, 24],                # choose_shop: the round just scored
      "tiles": [null, "l3_send_back", null],       # the tile in front of each seat
      "ignoring": [false, false, false],           # l5_ignore_market activated this round
      "exchanged": false,                          # exchange: has the active seat exchanged?
      "in_auction": [true, true, true]             # auction: who has not passed
    }

Filling in: every player holds 8 sweets. A seat whose tray or bowl is not given has it
filled up to 8 from the sweets placed nowhere else (the kinds with most left first, so
the result is deterministic); a missing market is filled the same way; whatever is left
is the supply. At most 9 sweets of a kind may be placed.

Phases: ``set_sweetness`` starts phase 1 (seats with a ``sweetness`` entry have already
committed it); ``exchange`` is phase 2 at the start of ``active``'s turn; ``score`` is the
end of phase 2 (phase 3 runs at once, then phase 4); ``choose_shop`` is the moment after
phase 3 with ``round_scores`` (phase 4 runs); ``auction`` is the Shopkeeper auction with
``active`` to bid. Outside phase 1 a missing ``sweetness`` entry is ``[1, 2, 3, 4, 5]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlor.core.errors import ScenarioError
from parlor.core.events import RawEvent

from .actions import PERMUTATIONS
from .data import KIND_INDEX, KINDS, MARKET_SIZE, NUM_KINDS, SWEETS_PER_KIND, TILE_INDEX, TRAY_SIZE
from .rules import ASSIGN, AUCTION, EXCHANGE, NO_TILE, SHOP, SweetNoseState, pack

_KEYS = {
    "players",
    "seed",
    "options",
    "phase",
    "round",
    "start_player",
    "active",
    "trays",
    "bowls",
    "market",
    "sweetness",
    "scores",
    "round_scores",
    "tiles",
    "ignoring",
    "exchanged",
    "in_auction",
}
PHASES = ("set_sweetness", "exchange", "score", "choose_shop", "auction")


def _counts(data: Any, where: str) -> list[int] | None:
    if data is None:
        return None
    if not isinstance(data, Mapping):
        raise ScenarioError(f"{where}: expected {{kind: count}}, got {data!r}")
    out = [0] * NUM_KINDS
    for name, n in data.items():
        if name not in KIND_INDEX:
            raise ScenarioError(f"{where}: unknown sweet {name!r}; sweets are {', '.join(KINDS)}")
        if type(n) is not int or n < 0:
            raise ScenarioError(f"{where}: count of {name!r} must be a non-negative integer, got {n!r}")
        out[KIND_INDEX[name]] = n
    return out


def _seat_list(data: Any, players: int, where: str) -> list[Any]:
    if data is None:
        return [None] * players
    if not isinstance(data, list) or len(data) != players:
        raise ScenarioError(f"{where}: expected a list with one entry per seat ({players})")
    return data


def _seat(value: Any, players: int, where: str) -> int:
    if type(value) is not int or not 0 <= value < players:
        raise ScenarioError(f"{where}: expected a seat 0..{players - 1}, got {value!r}")
    return value


def _values(data: Any, where: str) -> tuple[int, ...]:
    if isinstance(data, Mapping):
        missing = [k for k in KINDS if k not in data]
        if missing or len(data) != NUM_KINDS:
            raise ScenarioError(f"{where}: give a value for each of the five sweets (missing {missing})")
        data = [data[k] for k in KINDS]
    if not isinstance(data, list) or tuple(data) not in PERMUTATIONS:
        raise ScenarioError(f"{where}: sweetness must be the values 1-5, each once, got {data!r}")
    return tuple(data)


def _fill(counts: list[int], size: int, pool: list[int], where: str) -> None:
    """Top ``counts`` up to ``size`` from ``pool`` (most plentiful kind first)."""
    while sum(counts) < size:
        k = max(range(NUM_KINDS), key=lambda i: (pool[i], -i))
        if pool[k] == 0:
            raise ScenarioError(f"{where}: not enough sweets left to fill it up to {size}")
        pool[k] -= 1
        counts[k] += 1


def build(game: Any, data: Mapping[str, Any]) -> SweetNoseState:
    players, options, seed = game.scenario_basics(data, _KEYS, default_players=3)
    phase = data.get("phase", "exchange")
    if phase not in PHASES:
        raise ScenarioError(f"phase must be one of {', '.join(PHASES)}, got {phase!r}")
    if phase == "auction" and not options.shopkeeper:
        raise ScenarioError("phase 'auction' needs the option shopkeeper=true")
    state = game._new_state(players, seed, options, deal=False)

    # The sweets: trays and bowls as given, the rest filled in, 9 of each kind at most.
    trays = [_counts(t, f"trays[{i}]") for i, t in enumerate(_seat_list(data.get("trays"), players, "trays"))]
    bowls = [_counts(b, f"bowls[{i}]") for i, b in enumerate(_seat_list(data.get("bowls"), players, "bowls"))]
    market = _counts(data.get("market"), "market")
    pool = [SWEETS_PER_KIND] * NUM_KINDS
    for where, counts in [
        *((f"trays[{i}]", t) for i, t in enumerate(trays)),
        *((f"bowls[{i}]", b) for i, b in enumerate(bowls)),
        ("market", market),
    ]:
        for k in range(NUM_KINDS):
            pool[k] -= counts[k] if counts else 0
            if pool[k] < 0:
                raise ScenarioError(f"{where}: more than {SWEETS_PER_KIND} {KINDS[k]} placed in all")
    for p in range(players):
        tray, bowl = trays[p], bowls[p]
        if tray is not None and bowl is not None:
            if sum(tray) + sum(bowl) != TRAY_SIZE:
                raise ScenarioError(f"seat {p} holds {sum(tray) + sum(bowl)} sweets in tray and bowl; it must hold 8")
            continue
        if (tray is not None and sum(tray) > TRAY_SIZE) or (bowl is not None and sum(bowl) > TRAY_SIZE):
            raise ScenarioError(f"seat {p} holds more than 8 sweets")
        if tray is None and bowl is None:
            tray, bowl = [0] * NUM_KINDS, [0] * NUM_KINDS
            _fill(tray, TRAY_SIZE, pool, f"trays[{p}]")
        elif tray is None:
            assert bowl is not None
            tray = [0] * NUM_KINDS
            _fill(tray, TRAY_SIZE - sum(bowl), pool, f"trays[{p}]")
        else:
            bowl = [0] * NUM_KINDS
            _fill(bowl, TRAY_SIZE - sum(tray), pool, f"bowls[{p}]")
        trays[p], bowls[p] = tray, bowl
    if market is None:
        market = [0] * NUM_KINDS
        _fill(market, MARKET_SIZE, pool, "market")
    elif sum(market) != MARKET_SIZE:
        raise ScenarioError(f"the market must hold exactly {MARKET_SIZE} sweets, got {sum(market)}")
    state.trays = [pack(t) for t in trays]
    state.bowls = [n for b in bowls for n in b]  # type: ignore[union-attr]
    state.market = market
    state.supply = tuple(pool)

    # Everything else.
    state.round = 0 if phase == "auction" else data.get("round", 1)
    if type(state.round) is not int or state.round < 0 or (phase != "auction" and state.round < 1):
        raise ScenarioError(f"round must be a positive integer, got {state.round!r}")
    limit = None if options.ascension else 3
    if limit is not None and state.round > limit:
        raise ScenarioError(f"round must be 1..{limit}, got {state.round!r}")
    state.start_player = _seat(data.get("start_player", 0), players, "start_player")
    state.active = _seat(data.get("active", state.start_player), players, "active")
    scores = _seat_list(data.get("scores"), players, "scores")
    state.scores = [0 if s is None else s for s in scores]
    if any(type(s) is not int or s < 0 for s in state.scores):
        raise ScenarioError(f"scores must be non-negative integers, got {scores!r}")
    cards = []
    for i, v in enumerate(_seat_list(data.get("sweetness"), players, "sweetness")):
        if v is None:
            cards.append(() if phase in ("set_sweetness", "auction") else (1, 2, 3, 4, 5))
        else:
            if phase == "auction":
                raise ScenarioError("sweetness: nobody has cards down before round 1")
            cards.append(_values(v, f"sweetness[{i}]"))
    state.sweetness = tuple(cards)
    held = []
    for i, t in enumerate(_seat_list(data.get("tiles"), players, "tiles")):
        if t is None:
            held.append(NO_TILE)
        elif t in TILE_INDEX:
            held.append(TILE_INDEX[t])
        else:
            raise ScenarioError(f"tiles[{i}]: unknown shop tile {t!r}; tiles are {', '.join(TILE_INDEX)}")
    if len(set(t for t in held if t != NO_TILE)) != len([t for t in held if t != NO_TILE]):
        raise ScenarioError("tiles: two seats cannot hold the same tile")
    state.held = tuple(held)
    state.spent = ()
    ignoring = _seat_list(data.get("ignoring"), players, "ignoring")
    state.ignoring = tuple(bool(f) for f in ignoring)
    state.revealed = False
    state.exchanged = False
    state.phase_turns = state.quiet_turns = state.idle_turns = 0
    state.picks = ()
    in_auction = data.get("in_auction")
    state.in_auction = (
        tuple(bool(f) for f in _seat_list(in_auction, players, "in_auction"))
        if in_auction
        else ((True,) * players if phase == "auction" else (False,) * players)
    )
    state.swaps = ()
    state.past = ()
    state.round_scores = ()

    events: list[RawEvent] = []
    if phase == "set_sweetness":
        state.step = ASSIGN
        state.to_move = tuple(p for p in range(players) if not state.sweetness[p])
        if not state.to_move:
            raise ScenarioError("set_sweetness: every seat has already set its sweetness")
    elif phase == "exchange":
        state.step = EXCHANGE
        if state.some_tray_empty():
            raise ScenarioError("exchange: a tray is empty, so phase 2 is already over")
        state.start_turn(events)
        if data.get("exchanged", False):
            state.exchanged = True
            state.after_action(events)
    elif phase == "score":
        state.step = EXCHANGE
        state.end_exchange_phase("scenario", events)
    elif phase == "choose_shop":
        round_scores = data.get("round_scores")
        if (
            not isinstance(round_scores, list)
            or len(round_scores) != players
            or any(type(s) is not int or s < 0 for s in round_scores)
        ):
            raise ScenarioError("choose_shop: round_scores must list one non-negative score per seat")
        state.round_scores = tuple(round_scores)
        state.revealed = True
        if state.game_ends():
            raise ScenarioError("choose_shop: there is no phase 4 after the last round")
        state.choose_shop(events)
    else:
        state.step = AUCTION
        if not any(state.in_auction):
            raise ScenarioError("auction: nobody is left in the auction")
        if not state.in_auction[state.active]:
            raise ScenarioError(f"auction: seat {state.active} has passed and cannot be to bid")
        state.to_move = (state.active,)
    if "round_scores" in data and phase != "choose_shop":
        raise ScenarioError("round_scores: only the choose_shop phase uses them")
    assert state.step != SHOP or state.picks or not state.to_move
    state._settle()
    return state
