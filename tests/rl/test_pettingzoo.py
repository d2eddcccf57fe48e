"""PettingZoo's own compliance suites, for every game at every player count."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test

from parlor import games
from parlor.core.errors import IllegalAction
from parlor.rl import encoding
from parlor.rl.pettingzoo import env, parallel_env

CASES = [(g.name, n) for g in games.all_games() for n in range(g.min_players, g.max_players + 1)]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_aec_api(name: str, players: int) -> None:
    api_test(env(name, players=players), num_cycles=300)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_seeded_runs_repeat(name: str, players: int) -> None:
    seed_test(lambda: env(name, players=players), num_cycles=100)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_parallel_api(name: str, players: int) -> None:
    parallel_api_test(parallel_env(name, players=players), num_cycles=200)


@pytest.mark.parametrize("name", games.names())
def test_a_full_game_ends_with_the_documented_returns(name: str) -> None:
    e = env(name, players=3, render_mode="ansi")
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    steps = 0
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.any() and e.state.to_move[0] == int(agent.split("_")[1])
        e.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    result = e.state.result()
    expected = {f"player_{s}": 1.0 - (p - 1) for s, p in enumerate(result.places)}  # 3 players: +1, 0, -1
    assert totals == expected
    assert steps > 10
    text = e.render()
    assert isinstance(text, str) and len(text) > 50


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    e = env("mamma-mia", players=2)
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.state.to_json_text()
    with pytest.raises(IllegalAction):
        e.step(illegal)
    assert e.state.to_json_text() == before


def test_secret_sweetness_sub_turns_do_not_leak() -> None:
    """In Sweet Nose's simultaneous phase a seat acting later sees the same whatever the
    earlier seats secretly chose."""
    observed = []
    for choice in (0, -1):
        e = env("sweet-nose", players=3)
        e.reset(seed=2)
        while len(e.state.to_move) < 2:  # play on (first legal move) to the secret assignment
            e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
        first = e.agent_selection
        legal = np.flatnonzero(e.observe(first)["action_mask"])
        assert len(legal) > 1
        e.step(int(legal[choice]))
        later = e.agent_selection
        assert later != first
        obs = e.observe(later)
        observed.append((later, obs["observation"].tobytes(), obs["action_mask"].tobytes()))
        views = encoding("sweet-nose").information_state(e.state, int(later.split("_")[1]))
        observed[-1] += (views,)
    assert observed[0] == observed[1]
