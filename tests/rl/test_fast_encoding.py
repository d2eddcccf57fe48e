"""The encoders in use write straight from the state; the view-based encoder is the reference.

At every decision of seeded random games (every game at every player count, and the
variants that change what a seat sees), every seat's ``encode`` must be byte-identical to
``encode_from_view`` (the layout applied to ``view(seat, recall=True)``), and the batch
functions must give the same rows as one call per state.
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

from parlor import games
from parlor.rl import encoding

STRESS = os.environ.get("PARLOR_STRESS") == "1"
# Every player count of every game: the writers index player blocks relative to the observer.
CASES = [(g.name, n, None) for g in games.all_games() for n in range(g.min_players, g.max_players + 1)]
VARIANTS = [
    ("mamma-mia", 3, {"ruleset": "cs1999", "show_oven_history": True}),
    ("sweet-nose", 4, {"shop_tiles_visible": False}),
    ("sweet-nose", 3, {"shopkeeper": True}),
    ("sweet-nose", 4, {"ascension": True}),
    ("mottainai", 3, {"setup_facedown_tasks": "all_but_start_player", "waiting_area_visible_to_owner": True}),
    ("mottainai", 4, {"team_play": True, "extended_game": True}),
    ("mottainai", 3, {"waiting_area_scores": True}),
]


@pytest.mark.parametrize(("name", "players", "options"), CASES + VARIANTS)
def test_fast_encoder_matches_the_view_encoder_and_masks_the_legal_actions(
    name: str, players: int, options: dict | None
) -> None:
    game = games.get(name)
    enc = encoding(game)
    buf = np.full(enc.LAYOUT.size, 3.0, np.float32)  # reused: zeroed by every call
    masks = np.full(game.num_actions, 3, np.int8)  # likewise
    checked = 0
    # the in-between table sizes one game each (the suite's time budget); PARLOR_STRESS=1: 12
    full = players in (game.min_players, 4, game.max_players) or options is not None
    for seed in range(12 if STRESS else 3 if full else 1):
        opts = game.options_from_json(options) if options else game.default_options(players)
        state = game.new_game(players, seed, opts)
        pick = random.Random(seed)
        while True:
            for seat in range(players):
                fast = enc.encode(state, seat, buf).tobytes()
                slow = enc.encode_from_view(state, seat).tobytes()
                if fast != slow:
                    a = np.frombuffer(fast, np.float32)
                    b = np.frombuffer(slow, np.float32)
                    wrong = [(int(i), float(a[i]), float(b[i])) for i in np.flatnonzero(a != b)[:8]]
                    raise AssertionError(f"{name} {players}p seed {seed}, seat {seat}: (offset, fast, view) {wrong}")
                mask = enc.action_mask(state, seat, masks)
                legal = sorted(game.action_id(a) for a in state.legal_actions(seat))
                assert list(np.flatnonzero(mask)) == legal and mask.max(initial=0) <= 1, (seed, seat)
                checked += 1
            if state.is_over:
                break
            mover = state.to_move[0]
            state.apply(mover, pick.choice(state.legal_actions(mover)))
    assert checked > 100


@pytest.mark.parametrize("name", games.names())
def test_batches_are_rows_of_single_calls(name: str) -> None:
    game = games.get(name)
    enc = encoding(game)
    states, seats = [], []
    for seed in range(6):
        state = game.new_game(game.min_players, seed)
        pick = random.Random(seed)
        for _ in range(seed * 7):
            if state.is_over:
                break
            state.apply(state.to_move[0], pick.choice(state.legal_actions(state.to_move[0])))
        states.append(state)
        seats.append(seed % game.min_players)
    obs = enc.encode_batch(states, seats)
    masks = enc.action_mask_batch(states, seats)
    assert obs.shape == (6, enc.LAYOUT.size) and obs.dtype == np.float32
    assert masks.shape == (6, game.num_actions) and masks.dtype == np.int8
    for i, (state, seat) in enumerate(zip(states, seats)):
        assert obs[i].tobytes() == enc.encode_from_view(state, seat).tobytes()
        legal = sorted(game.action_id(a) for a in state.legal_actions(seat))
        assert list(np.flatnonzero(masks[i])) == legal
    again = np.full_like(obs, 9.0)
    assert enc.encode_batch(states, seats, again) is again and np.array_equal(again, obs)
    with pytest.raises(ValueError, match="C-contiguous float32"):
        enc.encode_batch(states, seats, np.zeros((6, enc.LAYOUT.size), np.float64))
    with pytest.raises(ValueError, match="shape"):
        enc.action_mask(states[0], seats[0], np.zeros(3, np.int8))


@pytest.mark.parametrize("name", games.names())
def test_kept_mask_rows_are_the_masks_of_their_lists(name: str) -> None:
    """A list of legal actions the engine hands out again (the same object) has its mask row
    kept after two writes in a row and copied from then on (``native.KEEP_MIN``): every mask
    written that way, fresh, at an offset of a batch or into a dirty row of the vector env, is
    the reference mask; and Sweet Nose's 120 sweetness assignments do get kept."""
    from parlor.rl import native
    from parlor.rl.tensor import legal_action_mask

    game = games.get(name)
    enc = encoding(game).ENCODER
    ids = enc.ids
    n = game.num_actions
    copies = 0
    for seed in range(3):
        state = game.new_game(4 if game.max_players >= 4 else game.max_players, seed)
        pick = random.Random(seed)
        while not state.is_over:
            for seat in state.to_move:
                want = legal_action_mask(state, seat, n).tobytes()
                legal = native.legal_now(state, seat)
                for _ in range(3):  # the third write (at least) comes from a kept row if long enough
                    copies += ids.kept_row(legal) is not None
                    assert enc.action_mask(state, seat).tobytes() == want, (seed, seat)
                batch = enc.action_mask_batch([state, state], [seat, seat])
                assert batch[0].tobytes() == want and batch[1].tobytes() == want
                row = np.full(n, 7, np.int8)  # the vector env's row: dirty before it is written
                no_obs = memoryview(np.zeros(1, np.float32))
                native.write_rows(
                    state, seat, lambda *a: None, no_obs, no_obs, ids, memoryview(row), memoryview(np.zeros(n, np.int8))
                )
                assert row.tobytes() == want
            mover = state.to_move[0]
            state.apply(mover, pick.choice(state.legal_actions(mover)))
    assert len(ids.kept) <= native.KEEP_MAX
    if name == "sweet-nose":
        assert copies > 100
