"""The ISMCTS bot: legal, deterministic under its seed, and blind to hidden cards."""

from __future__ import annotations

import random

import pytest

from parlor import games
from parlor.bots import make_bot
from parlor.bots.ismcts import ISMCTSBot
from parlor.core import Rng


def mid_game_positions(name: str, players: int, count: int, seed: int = 0):
    game = games.get(name)
    rnd = random.Random(seed)
    out = []
    state = game.new_game(players, seed)
    while len(out) < count:
        if state.is_over:
            seed += 1
            state = game.new_game(players, seed)
            continue
        seat = state.to_move[0]
        if len(state.legal_actions(seat)) > 1 and rnd.random() < 0.15:
            out.append(state.clone())
        state.apply(seat, rnd.choice(state.legal_actions(seat)))
    return out


@pytest.mark.parametrize("players", [2, 4])
def test_decision_ignores_hidden_cards(players):
    """Scramble everything the bot's seat cannot see: the decision must not change."""
    game = games.get("mamma-mia")
    changed_hidden = 0
    for i, state in enumerate(mid_game_positions("mamma-mia", players, 10, seed=players)):
        seat = state.to_move[0]
        scrambled = state.determinize(seat, Rng(1000 + i))
        if scrambled.to_json()["state"] != state.to_json()["state"]:
            changed_hidden += 1
        real_choice = ISMCTSBot(game, seed=i, iterations=40).choose(state, seat)
        blind_choice = ISMCTSBot(game, seed=i, iterations=40).choose(scrambled, seat)
        assert real_choice == blind_choice
    assert changed_hidden >= 8  # the scrambling really moved hidden cards


def test_moves_are_legal_and_deterministic():
    game = games.get("mamma-mia")
    records = []
    for _ in range(2):
        state = game.new_game(3, 11)
        bots = [ISMCTSBot(game, seed=5, iterations=25), make_bot("random", game, 1), make_bot("random", game, 2)]
        while not state.is_over:
            seat = state.to_move[0]
            action = bots[seat].choose(state, seat)
            assert action in state.legal_actions(seat)
            state.apply(seat, action)
        records.append(state.record())
    assert records[0] == records[1]


def test_beats_random_play():
    game = games.get("mamma-mia")
    wins = 0.0
    n = 12
    for g in range(n):
        state = game.new_game(2, 100 + g)
        me = g % 2
        bots = {me: ISMCTSBot(game, seed=g, iterations=80), 1 - me: make_bot("random", game, g)}
        while not state.is_over:
            seat = state.to_move[0]
            state.apply(seat, bots[seat].choose(state, seat))
        result = state.result()
        wins += (me in result.winners) / len(result.winners)
    assert wins / n >= 0.75
