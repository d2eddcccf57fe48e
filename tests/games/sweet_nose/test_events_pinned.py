"""Every event of fixed random games, to the key order of its data, pinned.

The engine's fast paths (events as tuples of values, prebuilt raw events, tables of legal
moves) must give readers exactly the events and legal lists the plain code gave. The digest
was computed on the engine before those changes; it changes only if the rules do.
"""

from __future__ import annotations

import hashlib
import random

from parlor import games

# One option set per ambiguity the per-move code reads, and a few mixed ones.
OPTION_SETS: list[dict] = [
    {},
    {"market_bonus": "flat"},
    {"exchange_required": False},
    {"end_phase_on_stalemate": False, "phase_end_timing": "end_of_turn"},
    {"phase2_turn_limit": 7},
    {"l1_twin_trade_kind_rule": "any", "l2_market_to_bowl_mode": "extra", "l4_double_trade_short": True},
    {"l5_change_taste_timing": "phase_end", "l5_change_taste_public": False},
    {"l5_ignore_market_scope": "all", "l5_ignore_market_timing": "scoring"},
    {"shop_tile_use": "mandatory_first_turn", "shop_pick_required": False},
    {"shop_tiles_visible": False},
    {"shop_pick_order": "start_player_first", "shop_pick_tie_break": "current_round_order"},
    {"top_tie_start_player": "random", "start_player": 2, "redeal_each_round": True},
    {"ascension": True, "ascension_target": 60},
    {"shopkeeper": True, "shopkeeper_max_bid": 12, "shopkeeper_bid_rule": "must_raise"},
]
EVENTS_DIGEST = "5d9e6cfeedc21c4ebba7544747164a5e0dde63cdaaf64d5f2bc4d5b235b1a158"  # engine of 68a96f9


def events_digest(games_per_set: int) -> str:
    game = games.get("sweet-nose")
    h = hashlib.sha256()
    for i, options in enumerate(OPTION_SETS):
        for players in (3, 4, 5):
            for seed in range(games_per_set):
                rng = random.Random(seed * 7 + players + 100 * i)
                state = game.new_game(players, seed, options=options) if options else game.new_game(players, seed)
                while not state.is_over:
                    seat = state.to_move[0] if len(state.to_move) == 1 else rng.choice(list(state.to_move))
                    legal = state.legal_actions(seat)
                    h.update(repr(legal).encode())
                    for e in state.apply(seat, rng.choice(legal)):
                        seats = None if e.visible_to is None else sorted(e.visible_to)
                        h.update(repr((e.kind, list(e.data.items()), seats)).encode())
                h.update(repr((players, seed, state.result().to_json())).encode())
    return h.hexdigest()


def test_events_and_legal_lists_of_fixed_games_are_unchanged():
    assert events_digest(3) == EVENTS_DIGEST
