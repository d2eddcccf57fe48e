"""The ISMCTS bot plays better than chance.

Its legality under every rule option, its determinism under a seed and its blindness to hidden
cards are checked with the other bots, on every game, in ``test_all_games.py``.
"""

from __future__ import annotations

import random

import pytest

from parlor import games
from parlor.bots import make_bot, search_settings
from parlor.bots.ismcts import ISMCTSBot, Node
from parlor.core import Rng
from parlor.games.sweet_nose import actions as SN
from parlor.games.sweet_nose.data import KINDS


def mid_game_position(name: str, players: int, steps: int, seed: int = 0):
    state = games.get(name).new_game(players, seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        seat = state.to_move[0]
        state.apply(seat, rnd.choice(state.legal_actions(seat)))
    return state


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


def test_in_a_simultaneous_step_the_tree_holds_the_asking_seats_moves():
    game = games.get("sweet-nose")
    state = game.new_game(3, 1)
    assert len(state.to_move) == 3  # everyone sets sweetness at once
    bot = ISMCTSBot(game, seed=0, iterations=30)
    root = Node(None, None, 2)
    rng = Rng(4)
    for _ in range(30):
        bot.iterate(root, state.determinize(2, rng), 2, rng)
    assert root.children and {child.seat for child in root.children.values()} == {2}


def test_search_stops_once_the_most_visited_move_cannot_be_caught():
    root = Node(None, None, 0)
    for action, visits in (("a", 10), ("b", 3), ("c", 1)):
        root.children[action] = Node(root, action, 0)  # type: ignore[arg-type]
        root.children[action].visits = visits
    assert ISMCTSBot.decided(root, 6) and not ISMCTSBot.decided(root, 7)


def test_truncated_playouts_are_judged_by_the_games_evaluator():
    game = games.get("mottainai")
    settings = search_settings(game)
    assert settings["playout_depth"] == 20
    judged = []

    def evaluate(state):
        judged.append(state.is_over)
        return settings["evaluate"](state)

    bot = ISMCTSBot(game, seed=1, iterations=50, playout_depth=20, evaluate=evaluate)
    state = mid_game_position("mottainai", 3, 30)
    action = bot.choose(state, state.to_move[0])
    assert action in state.legal_actions(state.to_move[0])
    assert judged and not any(judged)  # unfinished positions were judged
    values = settings["evaluate"](state)
    assert len(values) == 3 and all(0.0 <= v <= 1.0 for v in values)


def test_mamma_mia_positions_are_judged_only_between_rounds():
    game = games.get("mamma-mia")
    evaluate = search_settings(game)["evaluate"]
    state = game.new_game(3, 2)
    rnd = random.Random(2)
    judged_rounds, unjudged = set(), 0
    while state.to_move:
        values = evaluate(state)
        if values is None:
            unjudged += 1
        else:
            judged_rounds.add(state.round)
            assert all(seat == -1 for seat, _, _ in state.oven)  # nothing of this round played yet
            assert len(values) == 3
        seat = state.to_move[0]
        state.apply(seat, rnd.choice(state.legal_actions(seat)))
    assert {2, 3} <= judged_rounds and unjudged > 50


def test_root_candidates_limit_what_the_search_weighs():
    game = games.get("mamma-mia")
    state = mid_game_position("mamma-mia", 3, 12)
    seat = state.to_move[0]
    legal = state.legal_actions(seat)
    assert len(legal) > 2
    asked = []

    def two_last(s, mover, moves):
        asked.append(mover)
        return moves[-2:]

    bot = ISMCTSBot(game, seed=3, iterations=60, candidates=two_last)
    assert bot.choose(state, seat) in legal[-2:]
    assert asked == [seat]  # asked once, for the bot's own seat, with the real state


def test_a_sampler_replaces_determinize_for_the_whole_decision():
    game = games.get("sweet-nose")
    state = mid_game_position("sweet-nose", 3, 5)
    seat = state.to_move[0]
    calls, dealt = [], []

    def sampler(real, who):
        calls.append(who)

        def deal(rng):
            world = real.determinize(who, rng)
            dealt.append(world)
            return world

        return deal

    bot = ISMCTSBot(game, seed=2, iterations=40, sampler=sampler)
    assert bot.choose(state, seat) in state.legal_actions(seat)
    assert calls == [seat]  # built once per decision, for the asking seat
    assert len(dealt) == bot.last_iterations  # one sampled world per iteration


def test_the_expert_level_may_play_longer_playouts():
    mottainai = games.get("mottainai")
    hard, expert = search_settings(mottainai, "hard"), search_settings(mottainai, "expert")
    assert expert["playout_depth"] > hard["playout_depth"] == 20
    assert make_bot("expert", mottainai, 1).playout_depth == expert["playout_depth"]
    mamma_mia = games.get("mamma-mia")  # no expert setting of its own: the same as hard
    assert search_settings(mamma_mia, "expert")["playout_depth"] == search_settings(mamma_mia)["playout_depth"]


def test_sweet_nose_search_plays_greedy_playouts_to_the_end_of_the_round():
    game = games.get("sweet-nose")
    settings = search_settings(game)
    evaluate, policy = settings["evaluate"], settings["policy"]
    state = game.new_game(4, 7)
    assert evaluate(state) is not None  # a round's start (nothing placed) is judged
    rng = Rng(1)
    rounds_judged, exchanges, best_trades = set(), 0, 0
    trades = (SN.ExchangeWithPlayer, SN.ExchangeWithMarket)
    while state.to_move:
        seat = state.to_move[0]
        action = policy(state, seat, rng)
        assert action in state.legal_actions(seat)
        if type(action) in trades:
            cards = dict(zip(KINDS, state.sweetness[seat]))
            gain = [cards[a.give] - cards[a.take] for a in state.legal_actions(seat) if type(a) in trades]
            exchanges += 1
            best_trades += cards[action.give] - cards[action.take] == max(gain)
        state.apply(seat, action)
        values = evaluate(state)
        if values is not None:
            assert not any(state.sweetness) and len(values) == 4
            assert all(0.0 <= v <= 1.0 for v in values)
            scores = state.scores  # lower total sweetness is better; a held tile is worth < 3
            assert all(values[p] > values[q] for p in range(4) for q in range(4) if scores[p] + 3 <= scores[q])
            rounds_judged.add(state.round)
        else:
            assert state.is_over or any(state.sweetness)  # mid-round: not judged
    assert rounds_judged == {2, 3}
    # It mostly makes the trade that sends away the sweetest kind it can for the mildest.
    assert exchanges > 10 and best_trades >= 0.8 * exchanges


def test_the_search_draws_from_its_own_fast_generator() -> None:
    """FastRng: Rng's interface, deterministic for a seed, uniform bounded draws and permutations,
    and records-grade generators for the worlds it samples."""
    from collections import Counter

    from parlor.core.rng import FastRng

    a, b = FastRng(42), FastRng(42)
    assert [a.below(10) for _ in range(50)] == [b.below(10) for _ in range(50)]
    one = FastRng(1)
    counts = Counter(one.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6)) and all(9_000 < n < 11_000 for n in counts.values()), counts
    items = list(range(20))
    FastRng(3).shuffle(items)
    assert sorted(items) == list(range(20)) and items != list(range(20))
    # Its shuffle is random.Random's, draw for draw: the same permutations, the same stream after.
    import array
    import random

    for seed in range(30):
        for size in (0, 1, 2, 3, 7, 52, 300):
            mine, theirs = FastRng(seed), random.Random(seed)
            deck, expected = list(range(size)), list(range(size))
            mine.shuffle(deck)
            theirs.shuffle(expected)
            assert deck == expected, (seed, size)
            packed = array.array("i", range(size))  # not a list: the generic path
            mine.shuffle(packed)
            theirs.shuffle(expected := list(range(size)))
            assert list(packed) == expected, (seed, size)
            assert mine.random() == theirs.random()
    assert isinstance(FastRng(5).fork(), Rng) and FastRng(5).fork().state == FastRng(5).fork().state
    with pytest.raises(ValueError):
        FastRng(0).below(0)


def test_the_tree_keys_equal_actions_alike():
    """Children are keyed by a small int per action: equal actions share one even when they are
    different objects (a game may hand out copies), different actions never do."""
    import copy

    bot = ISMCTSBot(games.get("sweet-nose"), seed=0)
    end, trade = SN.END_TURN, SN.ExchangeWithMarket(KINDS[0], KINDS[1])
    same_trade = copy.copy(trade)
    assert same_trade is not trade and same_trade == trade
    keys = [bot.key(a) for a in (end, trade, same_trade, end, SN.ExchangeWithMarket(KINDS[1], KINDS[0]))]
    assert keys[1] == keys[2] and keys[0] == keys[3]
    assert len({keys[0], keys[1], keys[4]}) == 3
    # In a search, every legal action has its own key.
    state = mid_game_position("sweet-nose", 4, 30, seed=3)
    seat = state.to_move[0]
    legal = state.legal_actions(seat)
    assert bot.choose(state, seat) in legal
    assert len({bot.key(a) for a in legal}) == len(legal)
