"""Differential no-leak test: worlds a seat cannot tell apart give it byte-identical tensors.

At every step of seeded random games, each seat's observation, action mask and information
state are computed in the real state and in ``state.determinize(seat, rng)`` (hidden cards
redistributed); any difference means the encoding read something the seat cannot see.
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

from parlor import games
from parlor.core.rng import Rng
from parlor.rl import encoding

STRESS = os.environ.get("PARLOR_STRESS") == "1"
CASES = [(g.name, n, None) for g in games.all_games() for n in sorted({g.min_players, g.max_players})]
# variants that change what a seat sees: hidden shop tiles, the shopkeeper auction, face-down
# starting tasks, a waiting area its owner may look at
VARIANTS = [
    ("sweet-nose", 4, {"shop_tiles_visible": False}),
    ("sweet-nose", 3, {"shopkeeper": True}),
    ("mottainai", 3, {"setup_facedown_tasks": "all_but_start_player", "waiting_area_visible_to_owner": True}),
]


def _observed(enc, state, seat: int) -> tuple[bytes, bytes, str]:
    return (
        enc.encode(state, seat).tobytes(),
        enc.action_mask(state, seat).tobytes(),
        enc.information_state(state, seat),
    )


@pytest.mark.parametrize(("name", "players", "options"), CASES + VARIANTS)
def test_indistinguishable_worlds_encode_identically(name: str, players: int, options: dict | None) -> None:
    game = games.get(name)
    enc = encoding(game)
    seeds = range(4) if STRESS else range(1)
    for seed in seeds:
        opts = game.options_from_json(options) if options else game.default_options(players)
        state = game.new_game(players, seed, opts)
        pick = random.Random(seed)
        rng = Rng(seed + 99)
        steps = 0
        differs = 0
        while not state.is_over:
            for seat in range(players):
                real = _observed(enc, state, seat)
                world = state.determinize(seat, rng)
                assert _observed(enc, world, seat) == real, f"{name} seed {seed} step {steps}: seat {seat} leaks"
                if seat in state.to_move:
                    # the world can differ in what the seat cannot see: there the tensors are built alike
                    differs += any(_observed(enc, world, s)[0] != _observed(enc, state, s)[0] for s in range(players))
            mover = state.to_move[0]
            state.apply(mover, pick.choice(state.legal_actions(mover)))
            steps += 1
        assert steps > 10
        assert differs > 0, "determinize never changed another seat's tensor: the test would prove nothing"


@pytest.mark.parametrize("name", games.names())
def test_tensor_holds_the_own_hand_and_the_mask_the_legal_moves(name: str) -> None:
    game = games.get(name)
    enc = encoding(game)
    state = game.new_game(game.min_players, 5)
    seat = state.to_move[0]
    obs = enc.encode(state, seat)
    assert obs.dtype == np.float32 and obs.shape == (enc.LAYOUT.size,)
    buf = np.full(enc.LAYOUT.size, 7.0, dtype=np.float32)
    assert enc.encode(state, seat, buf) is buf and np.array_equal(buf, obs)  # the buffer is reused, zeroed first
    mask = enc.action_mask(state, seat)
    assert mask.shape == (game.num_actions,)
    assert sorted(np.flatnonzero(mask)) == sorted(game.action_id(a) for a in state.legal_actions(seat))
    other = (seat + 1) % state.players
    assert not enc.action_mask(state, other).any() or other in state.to_move
    # each seat sees itself in block 0: two seats' tensors differ (their hands differ)
    assert enc.encode(state, other).tobytes() != obs.tobytes()
    rows = enc.LAYOUT.describe()
    assert sum(size for _, size, name, _ in rows if not name.startswith("player[")) == enc.LAYOUT.table_size
    assert '"you":' in enc.information_state(state, seat)
