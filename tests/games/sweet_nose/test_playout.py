"""The search's help (``playout.py``): the greedy playout policy and the judgement of a world.

The policy plays a move of the highest level, uniformly among the moves of that level: that is
the choice the former policy made by adding a half point of noise to every move's value (an
exchange's gain in card value is a whole number, so the noise only broke ties), drawn now with
one number instead of one per legal move. Checked here against that rule written out plainly.
"""

from __future__ import annotations

from collections import Counter

from parlor.bots import search_settings
from parlor.bots.ismcts import margin_rewards
from parlor.core import Rng
from parlor.core.rng import FastRng
from parlor.games.sweet_nose import actions as A
from parlor.games.sweet_nose import heuristic, playout
from parlor.games.sweet_nose.data import KIND_INDEX, TILES
from parlor.games.sweet_nose.rules import ASSIGN, EXCHANGE, NO_TILE

from .helpers import G
from .test_heuristic import VARIANTS


def level(state, seat, action) -> float:
    """The former policy's value of a move without its noise."""
    if type(action) in (A.ExchangeWithPlayer, A.ExchangeWithMarket):
        cards = state.sweetness[seat]
        return cards[KIND_INDEX[action.give]] - cards[KIND_INDEX[action.take]]
    return 0.0 if action is A.END_TURN else -0.5


def exchange_positions(limit: int = 400):
    """(state, seat) at exchange decisions of playouts by the policy itself, in every variant."""
    out = []
    rng = FastRng(11)
    for i, options in enumerate(VARIANTS):
        for players in (3, 4, 5):
            state = G.new_game(players, 100 + 7 * i + players, options)
            while state.to_move and len(out) < limit * (i + 1) // len(VARIANTS):
                seat = state.to_move[0]
                if state.step == EXCHANGE and len(state.legal_actions(seat)) > 1:
                    out.append((state.clone(), seat))
                state.apply(seat, playout.playout_policy(state, seat, rng))
    return out


def test_search_settings_name_the_compiled_helpers():
    settings = search_settings(G)
    assert settings["policy"] is playout.playout_policy is heuristic.playout_policy
    assert settings["evaluate"] is playout.evaluate is heuristic.evaluate


def test_the_policy_plays_legal_moves_of_the_highest_level_but_for_the_noise():
    positions = exchange_positions()
    assert len(positions) >= 300
    rng = FastRng(5)
    greedy = 0
    for state, seat in positions:
        legal = state.legal_actions(seat)
        action = playout.playout_policy(state, seat, rng)
        assert action in legal
        assert any(action is a for a in legal)  # the engine's own object: apply finds it by identity
        greedy += level(state, seat, action) == max(level(state, seat, a) for a in legal)
    # A random move 10% of the time, and a random move may happen to be a best one.
    assert greedy >= 0.85 * len(positions)


def test_ties_are_drawn_uniformly():
    # A position with several best moves of different sorts, played many times over.
    checked = 0
    for state, seat in exchange_positions(200):
        legal = state.legal_actions(seat)
        levels = [level(state, seat, a) for a in legal]
        best = [a for a, v in zip(legal, levels) if v == max(levels)]
        if not 3 <= len(best) <= 6:
            continue
        rng = FastRng(len(best) + checked)
        runs = 600 * len(best)
        counts = Counter(playout.playout_policy(state, seat, rng) for _ in range(runs))
        noise = sum(n for a, n in counts.items() if a not in best)
        assert noise < 0.15 * runs  # the 10% random moves that missed the best ones
        expected = runs * 0.9 / len(best)
        for a in best:
            assert 0.8 * expected < counts[a] < 1.25 * expected, (a, counts[a], expected)
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_the_policy_is_deterministic_under_its_seed_and_places_cards_by_the_rule():
    def play(seed: int):
        state = G.new_game(4, 3)
        rng = FastRng(seed)
        moves = []
        while state.to_move and len(moves) < 300:
            seat = state.to_move[0]
            action = playout.playout_policy(state, seat, rng)
            if state.step == ASSIGN:
                held = state.held_sweets(seat)
                values = action.values
                # The highest values go to the kinds held fewest of.
                assert all(values[a] > values[b] for a in range(5) for b in range(5) if held[a] < held[b])
            moves.append(action)
            state.apply(seat, action)
        return moves

    assert play(1) == play(1)
    assert play(1) != play(2)


def test_evaluate_judges_only_a_rounds_start():
    state = G.new_game(4, 9)
    assert state.step == ASSIGN
    values = playout.evaluate(state)
    tiles = [0.5 * TILES[t].level if t != NO_TILE else 0.0 for t in state.held]
    assert values == margin_rewards([tile - score for score, tile in zip(state.scores, tiles)], scale=4.0)
    rng = Rng(2)
    while state.step == ASSIGN:
        seat = state.to_move[0]
        state.apply(seat, playout.playout_policy(state, seat, rng))
        assert playout.evaluate(state) is None  # a card is placed: mid-round
