"""Sweet Nose as tensors for learning agents (``parlor.rl``; needs the ``[rl]`` extra).

The observation holds what ``view(seat, recall=True)`` shows and nothing else (docs/rl.md lists every
slice); action ids are ``GAME.action_id``; the information state is the view as text.
Earlier rounds' revealed sweetness and this round's public swaps go into each player's block.
"""

from __future__ import annotations

from typing import Any

from parlor.rl.tensor import (
    Encoder,
    Layout,
    counts,
    flag,
    information_state_string,
    observe,
    one_hot,
    scalar,
    seat,
    seats,
)

from . import observation
from .data import KINDS, LEVELS, ROUNDS, TILES
from .game import GAME
from .rules import STEP_NAMES

MAX_PLAYERS = 5
TILE_IDS = [t.id for t in TILES]
LEVEL_NAMES = [str(lv) for lv in LEVELS]


def prepare(view: dict[str, Any]) -> None:
    """Copy what the view lists per round or per swap into the players' blocks (private keys)."""
    infos = view["players_info"]
    for past in view.get("past_rounds", ()):
        r = past["round"]
        for p, values in enumerate(past["sweetness"]):
            infos[p][f"_past{r}"] = values
            infos[p][f"_past{r}_score"] = past["round_scores"][p]
    for swap in view.get("swaps", ()):
        infos[swap["seat"]].setdefault("_swaps", []).extend(swap["kinds"])


def _first_pick(v: dict[str, Any]) -> int | None:
    picks = v.get("picks")
    return picks[0]["max_level"] if picks else None


def _shop_levels(v: dict[str, Any]) -> list[str]:
    return [str(x) for x in v.get("shop_levels", ())]


def _tile(p: dict[str, Any]) -> dict[str, Any]:
    return p["tile"] or {}


_PAST = []
for _r in range(1, ROUNDS + 1):
    _PAST.append(
        counts(
            f"past_sweetness_r{_r}", lambda p, r=_r: p.get(f"_past{r}"), KINDS, 5, f"revealed sweetness of round {_r}"
        )
    )
    _PAST.append(scalar(f"past_score_r{_r}", lambda p, r=_r: p.get(f"_past{r}_score"), 50, f"score of round {_r}"))

LAYOUT = Layout(
    "sweet-nose",
    MAX_PLAYERS,
    table=[
        scalar("round", lambda v: v["round"], ROUNDS, "round number"),
        one_hot("phase", lambda v: v["phase"], STEP_NAMES, "phase / step"),
        seats("to_move", lambda v: v["to_move"], MAX_PLAYERS, "seats to move"),
        seat("active", lambda v: v["active"], MAX_PLAYERS, "active player"),
        seat("start_player", lambda v: v["start_player"], MAX_PLAYERS, "start player"),
        counts("market", lambda v: v["market"], KINDS, 3, "sweets in the market"),
        counts("supply", lambda v: v["supply"], KINDS, 9, "sweets in the supply"),
        flag("revealed", lambda v: v["revealed"], "sweetness cards are revealed"),
        counts("shop", lambda v: v.get("shop"), TILE_IDS, 1, "tiles in the shop"),
        counts(
            "shop_levels",
            lambda v: [str(x) for x in v.get("shop_levels", ())],
            LEVEL_NAMES,
            2,
            "shop levels (hidden tiles)",
        ),
        flag("exchanged", lambda v: v.get("exchanged"), "someone exchanged this exchange phase"),
        scalar("phase_turns", lambda v: v.get("phase_turns"), 20, "turns in this exchange phase"),
        scalar("quiet_turns", lambda v: v.get("quiet_turns"), 5, "turns in a row without a trade"),
        seats("pickers", lambda v: [p["seat"] for p in v.get("picks", ())], MAX_PLAYERS, "seats still to pick a tile"),
        scalar("next_pick_max_level", _first_pick, 5, "highest tile level the next picker may take"),
    ],
    player=[
        counts("tray", lambda p: p["tray"], KINDS, 8, "sweets on the tray"),
        counts("bowl", lambda p: p["bowl"], KINDS, 8, "sweets in the bowl"),
        scalar("tray_size", lambda p: p["tray_size"], 8, "tray size"),
        scalar("score", lambda p: p["score"], 100, "score"),
        scalar("round_score", lambda p: p["round_score"], 50, "this round's score"),
        flag("sweetness_set", lambda p: p["sweetness_set"], "sweetness cards placed"),
        counts("sweetness", lambda p: p["sweetness"], KINDS, 5, "sweetness value per kind (own, or all once revealed)"),
        one_hot("tile", lambda p: _tile(p).get("id"), TILE_IDS, "tile held"),
        scalar("tile_level", lambda p: _tile(p).get("level"), 5, "level of the tile held"),
        flag("ignoring_market", lambda p: p["ignoring_market"], "ignores the market this round"),
        flag("in_auction", lambda p: p.get("in_auction"), "still in the auction (shopkeeper variant)"),
        *_PAST,
        counts("swaps", lambda p: p.get("_swaps"), KINDS, 2, "kinds swapped by Change Taste this round"),
    ],
    prepare=prepare,
)


ENCODER = Encoder(LAYOUT, observation.write, observation.SIZE, GAME)


def encode(state: Any, seat: int, out: Any = None) -> Any:
    """The float32 observation of ``seat`` (``LAYOUT.size`` floats), written into ``out`` if given.

    Written straight from the state (``observation.py``); the same bytes as
    ``encode_from_view`` (``LAYOUT`` applied to ``state.view(seat, recall=True)``)."""
    return ENCODER.encode(state, seat, out)


def encode_batch(states: Any, seats: Any, out: Any = None) -> Any:
    """float32 ``(len(states), LAYOUT.size)``: row ``i`` is ``encode(states[i], seats[i])``."""
    return ENCODER.encode_batch(states, seats, out)


def encode_from_view(state: Any, seat: int, out: Any = None) -> Any:
    """The reference encoder: ``LAYOUT`` slice by slice over the seat's recall view (slow)."""
    return observe(LAYOUT, state, seat, out)


def action_mask(state: Any, seat: int, out: Any = None) -> Any:
    """1 for each action id ``seat`` may play now (``GAME.num_actions`` entries)."""
    return ENCODER.action_mask(state, seat, out)


def action_mask_batch(states: Any, seats: Any, out: Any = None) -> Any:
    """int8 ``(len(states), GAME.num_actions)``: row ``i`` is ``action_mask(states[i], seats[i])``."""
    return ENCODER.action_mask_batch(states, seats, out)


def information_state(state: Any, seat: int) -> str:
    """What ``seat`` knows, as readable text (its recall view, keys sorted)."""
    return information_state_string(state.view(seat, recall=True))
