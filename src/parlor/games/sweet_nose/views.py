"""What a seat may see (spec §8). The only place that turns a Sweet Nose state into
something a player, a spectator, a bot or a UI receives.

Public: every tray and bowl and the market (by kind), the supply, scores and round
scores, the start player and turn order, who has set their sweetness, every tile in
front of a player and in the shop (with ``shop_tiles_visible``, the default), the
auction. Private until the phase 3 reveal: a player's sweetness cards (to their owner).
With hidden tiles (A14) another player's tile shows only its level.

``recall=True`` adds what a seat remembers from public events: earlier rounds' revealed
cards and scores, and this round's public card swaps (``l5_change_taste``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .data import KINDS, PLAYER_COLOURS, ROUNDS, TILES

if TYPE_CHECKING:
    from .rules import SweetNoseState


def _counts(counts: Any) -> dict[str, int]:
    return {KINDS[k]: n for k, n in enumerate(counts) if n}


def _values(values: tuple[int, ...]) -> dict[str, int]:
    return {KINDS[k]: v for k, v in enumerate(values)}


def tile_json(tile: int) -> dict[str, Any]:
    t = TILES[tile]
    return {"id": t.id, "level": t.level, "name": t.name}


def _player(state: "SweetNoseState", p: int, seat: int | None) -> dict[str, Any]:
    from .rules import NO_TILE

    tray, bowl = state.tray(p), state.bowl(p)
    values = state.sweetness[p]
    tile = state.held[p]
    if tile == NO_TILE:
        tile_out = None
    elif state.options.shop_tiles_visible or seat == p:
        tile_out = tile_json(tile)
    else:
        tile_out = {"level": TILES[tile].level}  # A14: the level side only
    out: dict[str, Any] = {
        "seat": p,
        "colour": PLAYER_COLOURS[p],
        "tray": _counts(tray),
        "bowl": _counts(bowl),
        "tray_size": sum(tray),
        "score": state.scores[p],
        "round_score": state.round_scores[p] if state.round_scores else None,
        "sweetness_set": bool(values),
        # The cards lie face down until phase 3: their owner alone knows them.
        "sweetness": _values(values) if values and (state.revealed or seat == p) else None,
        "tile": tile_out,
        "ignoring_market": state.ignoring[p],
    }
    if state.options.shopkeeper:
        out["in_auction"] = state.in_auction[p]
    return out


def view(state: "SweetNoseState", seat: int | None, recall: bool = False) -> dict[str, Any]:
    """What ``seat`` (``None``: a spectator) sees now."""
    from .rules import ASSIGN, EXCHANGE, OVER, SHOP, STEP_NAMES

    options = state.options
    in_shop = state.tiles_in_shop()
    out: dict[str, Any] = {
        "game": "sweet-nose",
        "you": seat,
        "players": state.players,
        "round": state.round,
        "rounds": None if options.ascension else ROUNDS,
        "phase": STEP_NAMES[state.step],
        "to_move": list(state.to_move),
        "active": None if state.step in (ASSIGN, OVER) else state.active,
        "start_player": state.start_player,
        "turn_order": state.turn_order(),
        "market": _counts(state.market),
        "supply": _counts(state.supply),
        "revealed": state.revealed,
        "players_info": [_player(state, p, seat) for p in range(state.players)],
    }
    if options.shop_tiles_visible:
        out["shop"] = [TILES[t].id for t in in_shop]
    else:
        out["shop_levels"] = sorted(TILES[t].level for t in in_shop)
    if state.step == EXCHANGE:
        out["exchanged"] = state.exchanged
        out["phase_turns"] = state.phase_turns
        out["quiet_turns"] = state.quiet_turns
    if state.step == SHOP:
        out["picks"] = [{"seat": s, "max_level": lv} for s, lv in state.picks]
    if recall:
        out["past_rounds"] = [
            {"round": r, "sweetness": [_values(v) for v in cards], "round_scores": list(scores)}
            for r, cards, scores in state.past
        ]
        out["swaps"] = [{"seat": s, "kinds": [KINDS[a], KINDS[b]]} for s, a, b in state.swaps]
    if state.step == OVER:
        out["result"] = state.result().to_json()
    return out
