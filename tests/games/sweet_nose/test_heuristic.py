"""The heuristic bot: legal, deterministic under its seed, blind to hidden information,
and clearly better than random play."""

from __future__ import annotations

from parlor.bots import RandomBot, make_bot
from parlor.core import Rng
from parlor.games.sweet_nose.heuristic import HeuristicBot

from .helpers import G

VARIANTS = (
    {},
    {"ascension": True},
    {"shopkeeper": True},
    {"shop_tiles_visible": False, "l5_change_taste_timing": "phase_end", "l5_ignore_market_timing": "scoring"},
    {"exchange_required": False, "l2_market_to_bowl_mode": "extra", "l4_double_trade_short": True},
)


def play(players, seed, options=None, bots=None):
    state = G.new_game(players, seed, options)
    bots = bots or [HeuristicBot(G, seed * 10 + s) for s in range(players)]
    while state.to_move:
        seat = state.to_move[0]
        action = bots[seat].choose(state, seat)
        assert action in state.legal_actions(seat)
        state.apply(seat, action)
    return state


def test_registered_and_named():
    bot = make_bot("heuristic", G, 3)
    assert isinstance(bot, HeuristicBot) and bot.name == "heuristic"


def test_legal_and_deterministic_in_every_variant():
    for i, options in enumerate(VARIANTS):
        for players in (3, 4, 5):
            a = play(players, i * 5 + players, options)
            b = play(players, i * 5 + players, options)
            assert a.is_over and a.record() == b.record()


def test_same_choice_in_a_state_and_its_determinizations():
    checked = 0
    for seed, options in enumerate(VARIANTS):
        state = G.new_game(4, seed, options)
        bots = [HeuristicBot(G, s) for s in range(4)]
        step = 0
        while state.to_move:
            seat = state.to_move[0]
            if step % 3 == 0:
                mine = HeuristicBot(G, 99 + step).choose(state, seat)
                for r in range(3):
                    other = state.determinize(seat, Rng(step * 7 + r))
                    assert HeuristicBot(G, 99 + step).choose(other, seat) == mine
                checked += 1
            state.apply(seat, bots[seat].choose(state, seat))
            step += 1
    assert checked > 100


def test_beats_random_play():
    games, wins, margin = 0, 0.0, 0.0
    for players in (3, 4, 5):
        for g in range(70):
            hero = g % players
            bots = [HeuristicBot(G, g) if s == hero else RandomBot(G, 1000 + 7 * g + s) for s in range(players)]
            state = play(players, 5000 + g, bots=bots)
            result = state.result()
            games += 1
            if hero in result.winners:
                wins += 1 / len(result.winners)
            others = [state.scores[s] for s in range(players) if s != hero]
            margin += sum(others) / len(others) - state.scores[hero]
    # Random seats win 1/3 to 1/5 of the time; measured for the heuristic: about 0.9, margin about 24.
    assert wins / games > 0.7
    assert margin / games > 12
