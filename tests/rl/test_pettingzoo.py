"""PettingZoo's own compliance suites (the whole test module: api, seed, parallel api, parallel
seed, render), for every game at every player count."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, render_test, seed_test

from parlor import games
from parlor.core.errors import IllegalAction
from parlor.rl import encoding
from parlor.rl.pettingzoo import Observation, env, parallel_env

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


@pytest.mark.parametrize(("name", "players"), CASES)
def test_parallel_seeded_runs_repeat(name: str, players: int) -> None:
    # It samples unmasked actions, which raised IllegalAction before.
    parallel_seed_test(lambda: parallel_env(name, players=players), num_cycles=100)


@pytest.mark.parametrize("name", games.names())
def test_render_modes(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: env(name, render_mode=render_mode))
    printed = capsys.readouterr().out
    assert printed.count("\n") > 20  # "human" printed the text view (five times)


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
        assert mask.any() and e.parlor.to_move[0] == int(agent.split("_")[1])
        e.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    result = e.parlor.result()
    expected = {f"player_{s}": 1.0 - (p - 1) for s, p in enumerate(result.places)}  # 3 players: +1, 0, -1
    assert totals == expected
    assert steps > 10
    text = e.render()
    assert isinstance(text, str) and len(text) > 50


def test_an_illegal_action_loses_or_raises_and_changes_nothing() -> None:
    e = env("mamma-mia", players=2, illegal_action="raise")
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.parlor.to_json_text()
    with pytest.raises(IllegalAction):
        e.step(illegal)
    assert e.parlor.to_json_text() == before
    e = env("mamma-mia", players=2)  # the default: the offender loses, the game ends
    e.reset(seed=1)
    offender = e.agent_selection
    e.step(illegal)
    assert e.parlor.to_json_text() == before
    assert e.rewards == {offender: -1.0, next(a for a in e.possible_agents if a != offender): 0.0}
    assert all(e.terminations.values()) and e.infos[offender]["illegal_action"]
    for _agent in e.agent_iter():
        assert e.last()[2]  # every agent is told it terminated
        e.step(None)
    assert not e.agents
    p = parallel_env("sweet-nose", players=3)
    p.reset(seed=2)
    seat = p.parlor.to_move[0]
    actions = {a: 0 for a in p.agents}
    legal = {p.game.action_id(x) for x in p.parlor.legal_actions(seat)}
    actions[f"player_{seat}"] = next(i for i in range(p.game.num_actions) if i not in legal)
    before = p.parlor.to_json_text()
    _, rewards, terms, _, infos = p.step(actions)
    assert p.parlor.to_json_text() == before and not p.agents and all(terms.values())
    assert rewards[f"player_{seat}"] == -1.0 and infos[f"player_{seat}"] == {"illegal_action": True}
    with pytest.raises(ValueError, match="illegal_action"):
        env("mamma-mia", illegal_action="ignore")


def test_secret_sweetness_sub_turns_do_not_leak() -> None:
    """In Sweet Nose's simultaneous phase a seat acting later sees the same whatever the
    earlier seats secretly chose."""
    observed = []
    for choice in (0, -1):
        e = env("sweet-nose", players=3)
        e.reset(seed=2)
        while len(e.parlor.to_move) < 2:  # play on (first legal move) to the secret assignment
            e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
        first = e.agent_selection
        legal = np.flatnonzero(e.observe(first)["action_mask"])
        assert len(legal) > 1
        e.step(int(legal[choice]))
        later = e.agent_selection
        assert later != first
        obs = e.observe(later)
        observed.append((later, obs["observation"].tobytes(), obs["action_mask"].tobytes()))
        views = encoding("sweet-nose").information_state(e.parlor, int(later.split("_")[1]))
        observed[-1] += (views,)
    assert observed[0] == observed[1]


@pytest.mark.parametrize("name", games.names())
def test_observations_read_late_show_the_moment_they_were_handed_out(name: str) -> None:
    """Observations are written when read: read at once, or only after later steps (and a
    refused step), or never, they give the bytes the eager env (``lazy_observations=False``)
    gave at that step, for every seat; the AEC env's ``last()`` likewise. The games are longer
    than the journal's span (a late read rebuilds its state from a copy at most that many steps
    old), and now and then every observation is read in full (the journal is dropped)."""
    lazy, eager = parallel_env(name, players=3), parallel_env(name, players=3, lazy_observations=False)
    lazy_obs, _ = lazy.reset(seed=5)
    eager_obs, _ = eager.reset(seed=5)
    rng = np.random.default_rng(5)
    kept = []  # (lazy, eager) observations of earlier steps, read only at the end
    step = 0
    while eager.agents:
        assert all(type(o) is Observation for o in lazy_obs.values())
        if step % 2:  # every other step: read now (masks first, as a policy would)
            for agent, expected in eager_obs.items():
                assert lazy_obs[agent]["action_mask"].tobytes() == expected["action_mask"].tobytes()
        if step % 7 == 3:  # now and then every entry at once: nothing left for a late read
            for o in lazy_obs.values():
                o.copy()
        kept.append((lazy_obs, eager_obs))
        with pytest.raises(ValueError, match="no action"):
            lazy.step({})
        movers = {f"player_{s}" for s in eager.parlor.to_move}
        actions = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"]))) if a in movers else 0 for a, o in eager_obs.items()
        }
        lazy_obs, *_ = lazy.step(actions)
        eager_obs, *_ = eager.step(actions)
        step += 1
    assert step > 10
    for got_all, expected_all in kept:
        for agent, expected in expected_all.items():
            got = got_all[agent]
            assert dict(got).keys() == expected.keys()
            assert got["action_mask"].tobytes() == expected["action_mask"].tobytes()
            assert got.get("observation").tobytes() == expected["observation"].tobytes()

    aec_lazy, aec_eager = env(name, players=3), env(name, players=3, lazy_observations=False)
    aec_lazy.reset(seed=1)
    aec_eager.reset(seed=1)
    pairs = []
    for _ in range(30):
        if not aec_eager.agents:
            break
        got, *_ = aec_lazy.last()
        expected, _, term, trunc, _ = aec_eager.last()
        pairs.append((got, expected))
        action = None if term or trunc else int(np.flatnonzero(expected["action_mask"])[0])
        aec_lazy.step(action)
        aec_eager.step(action)
    for got, expected in pairs:
        assert got["observation"].tobytes() == expected["observation"].tobytes()
        assert got["action_mask"].tobytes() == expected["action_mask"].tobytes()


def _stale_action(e: Any, agent: str, earlier: dict[str, np.ndarray]) -> int | None:
    """An action id ``agent``'s mask allowed at its previous turn and the rules refuse now."""
    if agent not in earlier:
        return None
    seat = e.possible_agents.index(agent)
    now = {e.parlor.game.action_id(a) for a in e.parlor.legal_actions(seat)}
    stale = [int(i) for i in np.flatnonzero(earlier[agent]) if int(i) not in now]
    return stale[0] if stale else None


@pytest.mark.parametrize("name", games.names())
def test_an_action_legal_only_at_an_earlier_step_is_refused(name: str) -> None:
    """The envs check an action against the legal actions the seat's mask was written from,
    kept until the state changes: an action the seat's mask allowed at its previous turn but
    the rules refuse now, chosen without reading the new observations (every earlier one read
    in full, so nothing was kept for a late read), is refused as the env's policy says
    (``illegal_action="lose"``: a forfeit, not the engine's error), by the parallel env and
    the AEC env alike, and the state does not change."""
    rng = np.random.default_rng(3)
    par = parallel_env(name, players=3, illegal_action="lose")
    obs, _ = par.reset(seed=3)
    earlier: dict[str, np.ndarray] = {}
    while True:
        assert par.agents, "no stale action found before the game ended"
        movers = [par.possible_agents[s] for s in par.parlor.to_move]
        stale = {a: _stale_action(par, a, earlier) for a in movers}
        agent = next((a for a in movers if stale[a] is not None), None)
        if agent is not None:
            history = len(par.parlor.history())
            legal_now = {
                a: par.parlor.game.action_id(par.parlor.legal_actions(par.possible_agents.index(a))[0]) for a in movers
            }
            _, rewards, terminations, _, infos = par.step({**legal_now, agent: stale[agent]})
            assert rewards[agent] == -1.0 and infos[agent] == {"illegal_action": True}
            assert all(terminations.values()) and len(par.parlor.history()) == history
            break
        for o in obs.values():
            o.copy()  # every entry read
        earlier.update({a: obs[a]["action_mask"] for a in movers})
        obs, *_ = par.step({a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in movers})

    aec = env(name, players=3, illegal_action="lose")
    aec.reset(seed=3)
    earlier = {}
    for agent in aec.agent_iter():
        assert aec.agents, "no stale action found before the game ended"
        stale_id = _stale_action(aec, agent, earlier)
        if stale_id is not None:
            history = len(aec.parlor.history())
            aec.step(stale_id)
            assert aec.rewards[agent] == -1.0 and aec.infos[agent] == {"illegal_action": True}
            assert len(aec.parlor.history()) == history
            break
        o, *_ = aec.last()
        o.copy()  # every entry read
        earlier[agent] = o["action_mask"]
        aec.step(int(rng.choice(np.flatnonzero(o["action_mask"]))))
    else:
        raise AssertionError("no stale action found before the game ended")


def _parallel_run(name: str, numpy_ids_at: int) -> tuple[list[Any], list[Any]]:
    """A seeded 3-player game of the parallel env with masked random actions: every step's
    rewards, flags and infos, and every observation handed out, read only at the end (late,
    through the journal). Every ``numpy_ids_at``-th step sends numpy ints (0: never)."""
    rng = np.random.default_rng(5)
    e = parallel_env(name, players=3)
    obs, _ = e.reset(seed=5)
    handed = [obs]
    results = []
    step = 0
    while e.agents:
        movers = [e.possible_agents[s] for s in e.parlor.to_move]
        picks = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) if a in movers else 0 for a in obs}
        step += 1
        if numpy_ids_at and step % numpy_ids_at == 0:
            picks = {a: np.int64(i) for a, i in picks.items()}
        obs, rewards, terminations, truncations, infos = e.step(picks)
        handed.append(obs)
        results.append((rewards, terminations, truncations, infos))
    written = [{a: (o["observation"].tobytes(), o["action_mask"].tobytes()) for a, o in h.items()} for h in handed]
    return written, results


@pytest.mark.parametrize("name", games.names())
def test_the_parallel_step_is_the_same_whatever_type_the_action_ids_are(name: str) -> None:
    """Plain int ids take the compiled step (``native.parallel_step``), numpy ints the env's
    long way round (conversion, then the same checks); a game that mixes both, every third
    step numpy ints, gives the same observations (read late, rebuilt from the journal both
    paths keep), rewards, terminations, truncations and infos at every step as plain ints
    throughout."""
    plain = _parallel_run(name, numpy_ids_at=0)
    mixed = _parallel_run(name, numpy_ids_at=3)
    assert len(plain[1]) > 6
    assert mixed == plain
