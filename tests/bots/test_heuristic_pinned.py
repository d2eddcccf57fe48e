"""The heuristic (``medium``) bots play exactly the games they played before their speed
work (the bots stopped building ``state.view`` for every decision): a sha256 over every move of
seeded games, in several option variants and at every player count, pinned from the code
before that change (main at 503e0bf) and checked the same in the pure and compiled builds.

A change to the bots' play must show up here: update the digests only for a change meant to
alter the bots' decisions, and say so in its commit.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from parlor import games
from parlor.bots import make_bot

SEEDS = 8
CASES = {
    "mamma-mia": (
        (2, 3, 4, 5),
        [
            {},
            {"ruleset": "cs1999"},
            {
                "owner_may_decline_when_table_suffices": True,
                "bombastica_hand_topup": False,
                "minimale_excludes_pictured": False,
                "minimale_when_no_candidate": "any_kind",
                "monotoni_joker": "table_first",
            },
            {"allow_empty_source_choice": True, "refill_mode": "up_to", "end_early_when_no_orders_left": True},
        ],
    ),
    "sweet-nose": (
        (3, 4, 5),
        [{}, {"market_bonus": "flat", "l2_market_to_bowl_mode": "extra", "l5_ignore_market_scope": "all"}],
    ),
    "mottainai": ((2, 3, 4, 5), [{}, {"extended_game": True}, {"team_play": True}]),
}
PINNED = {
    "mamma-mia": "c1a7d43af056fccbbbbcd65d3bb12c6af3d7d672a5abb9bb5f378052fbe60400",
    "sweet-nose": "0c996c81ddbac6ae218b5504627e91d93ec97f4681ad85b4921caf5be48a4a81",
    "mottainai": "95270f4f5f91e9fbf4cf4a3d7df1abd282617566aa7820f4979a205d85ae51e6",
}


def moves_digest(name: str) -> tuple[str, int]:
    """(sha256 over every (seat, move) and each result, number of moves) of the seeded games."""
    game = games.get(name)
    counts, variants = CASES[name]
    h = hashlib.sha256()
    moves = 0
    for variant in variants:
        options = game.options_from_json(variant)
        for players in counts:
            if variant.get("team_play") and players != 4:
                continue
            for seed in range(SEEDS):
                state = game.new_game(players, seed, options)
                bots = [make_bot("medium", game, 10 * seed + p) for p in range(players)]
                while state.to_move:
                    seat = state.to_move[0]
                    action = bots[seat].choose(state, seat)
                    h.update(json.dumps([seat, action.to_json()], sort_keys=True).encode())
                    state.apply(seat, action)
                    moves += 1
                h.update(json.dumps(state.result().to_json(), sort_keys=True).encode())
    return h.hexdigest(), moves


@pytest.mark.parametrize("name", list(CASES))
def test_medium_bots_play_the_pinned_games(name):
    digest, moves = moves_digest(name)
    assert moves > 1000  # real games were played
    assert digest == PINNED[name]
