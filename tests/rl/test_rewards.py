"""The score-margin reward: its definition on finished games, and every adapter paying it."""

from __future__ import annotations

import math

import numpy as np
import pyspiel
import pytest

from parlor import games
from parlor.core.game import State
from parlor.rl.gym import ParlorSingleSeatEnv
from parlor.rl.openspiel import register
from parlor.rl.pettingzoo import env, parallel_env
from parlor.rl.rewards import MARGIN_SCALE, margin_of, return_of
from parlor.rl.vector import ParlorVectorEnv


def _finished(name: str, players: int, seed: int) -> State:
    game = games.get(name)
    state = game.new_game(players, seed, None)
    rng = np.random.default_rng(seed)
    while not state.is_over:
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[int(rng.integers(len(legal)))])
    return state


@pytest.mark.parametrize("name", games.names())
def test_the_margin_is_the_lead_over_the_best_other_seat_in_the_game_direction(name: str) -> None:
    for seed in range(3):
        state = _finished(name, 3, seed)
        result = state.result()
        margins = margin_of(state, 1.0)
        for seat, margin in enumerate(margins):
            others = [s for i, s in enumerate(result.scores) if i != seat]
            lead = min(others) - result.scores[seat] if name == "sweet-nose" else result.scores[seat] - max(others)
            assert margin == lead
            if margin > 0:  # a lead on points is first place whatever the tie-breaks
                assert result.places[seat] == 1
        # a better margin never goes with a worse place, except between seats tied on points
        for a in range(3):
            for b in range(3):
                if margins[a] > margins[b]:
                    assert result.places[a] <= result.places[b]
        assert margin_of(state, 4.0) == [m / 4.0 for m in margins]


def _play_aec(e, seed: int) -> dict[str, float]:  # type: ignore[no-untyped-def]
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@pytest.mark.parametrize("name", games.names())
def test_pettingzoo_envs_pay_the_margin_at_the_end(name: str) -> None:
    e = env(name, players=3, reward="score_margin", reward_scale=2.0)
    totals = _play_aec(e, 4)
    assert list(totals.values()) == margin_of(e.parlor, 2.0)
    ranked = env(name, players=3)
    assert list(_play_aec(ranked, 4).values()) == return_of(ranked.parlor)  # the default stays ranks

    p = parallel_env(name, players=3, reward="score_margin")
    obs, _ = p.reset(seed=4)
    rng = np.random.default_rng(4)
    while p.agents:
        actions = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"]))) if o["action_mask"].any() else 0
            for a, o in obs.items()
        }
        obs, rewards, *_ = p.step(actions)
    assert list(rewards.values()) == margin_of(p.parlor, MARGIN_SCALE[name])


def test_gymnasium_and_vector_envs_pay_the_learners_margin() -> None:
    gym_env = ParlorSingleSeatEnv("mamma-mia", players=3, opponents="random", reward="score_margin")
    _, info = gym_env.reset(seed=1)
    rng = np.random.default_rng(1)
    done, reward = False, 0.0
    while not done:
        _, reward, done, _, info = gym_env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert reward == margin_of(gym_env.state, MARGIN_SCALE["mamma-mia"])[info["seat"]]

    vec = ParlorVectorEnv("sweet-nose", num_envs=4, players=3, opponents="random", seed=0, reward="score_margin")
    _, info = vec.reset()
    checked = 0
    while checked < 4:
        before, seats = vec.states(), info["seat"].copy()  # the finished games are these objects
        actions = [int(rng.choice(np.flatnonzero(m))) for m in info["action_mask"]]
        _, rewards, terminated, _, info = vec.step(actions)
        for i in np.flatnonzero(terminated):
            assert before[i].is_over
            assert rewards[i] == np.float32(margin_of(before[i], MARGIN_SCALE["sweet-nose"])[seats[i]])
            checked += 1


def test_openspiel_returns_the_clipped_margin() -> None:
    register()
    game = pyspiel.load_game(
        "parlor_mottainai", {"players": 2, "seed": 3, "reward": "score_margin", "reward_scale": 5.0}
    )
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.returns() == [max(-1.0, min(1.0, m)) for m in margin_of(state.parlor, 5.0)]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"reward": "points"}, "reward must be one of"),
        ({"reward": "score_margin", "reward_scale": 0}, "positive finite"),
        ({"reward": "score_margin", "reward_scale": -2.0}, "positive finite"),
        ({"reward": "score_margin", "reward_scale": math.nan}, "positive finite"),
        ({"reward": "score_margin", "reward_scale": math.inf}, "positive finite"),
        ({"reward": "score_margin", "reward_scale": True}, "positive finite"),
        ({"reward": "score_margin", "reward_scale": "8"}, "positive finite"),
        ({"reward_scale": 8.0}, "only to reward='score_margin'"),
    ],
)
def test_a_bad_reward_option_is_refused_by_every_adapter(kwargs: dict, message: str) -> None:
    for make in (
        lambda: env("mottainai", **kwargs),
        lambda: parallel_env("mottainai", **kwargs),
        lambda: ParlorSingleSeatEnv("mottainai", **kwargs),
        lambda: ParlorVectorEnv("mottainai", num_envs=2, **kwargs),
    ):
        with pytest.raises(ValueError, match=message):
            make()
    register()
    scale = kwargs.get("reward_scale", 1.0)
    # OpenSpiel's parameters are typed (a float scale) and 0.0 there means the game's default
    if not isinstance(scale, (str, bool)) and scale != 0:
        with pytest.raises(ValueError, match=message):
            pyspiel.load_game(
                "parlor_mottainai", {k: float(v) if k == "reward_scale" else v for k, v in kwargs.items()}
            )
