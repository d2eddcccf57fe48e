"""Gymnasium: the registered ids pass Gymnasium's own checker and play full seeded episodes."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import parlor.rl.gym  # noqa: F401  (registers the ids)
from parlor import games
from parlor.core.errors import IllegalAction
from parlor.rl.gym import ParlorSingleSeatEnv

IDS = ["parlor/MammaMia-v0", "parlor/SweetNose-v0", "parlor/Mottainai-v0"]


@pytest.mark.parametrize("env_id", IDS)
def test_check_env(env_id: str) -> None:
    env = gymnasium.make(env_id, opponents="random")
    check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("env_id", IDS)
def test_masked_episode_against_medium_ends_with_a_return(env_id: str) -> None:
    def run(seed: int) -> tuple[list[int], float, int]:
        env = gymnasium.make(env_id, opponents="medium", seat=1, render_mode="ansi")
        obs, info = env.reset(seed=seed)
        assert info["seat"] == 1 and obs.shape == env.observation_space.shape
        rng = np.random.default_rng(seed)
        actions, reward, done = [], 0.0, False
        while not done:
            assert env.observation_space.contains(obs)
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            actions.append(action)
            obs, reward, done, truncated, info = env.step(action)
            assert not truncated
        assert "illegal_action" not in info
        assert isinstance(env.render(), str)
        return actions, reward, env.unwrapped.state.result().places[1]

    first = run(3)
    assert first == run(3)  # a seeded episode repeats exactly, bots included
    actions, reward, place = first
    assert len(actions) > 3
    assert reward == pytest.approx(1.0 - 2.0 * (place - 1) / (gymnasium.make(env_id).unwrapped.players - 1))


def test_illegal_actions_lose_or_raise_and_change_nothing() -> None:
    env = gymnasium.make("parlor/MammaMia-v0", opponents="random", seat=0).unwrapped
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.state.to_json_text()
    _, reward, done, _, info = env.step(illegal)
    assert (reward, done, info["illegal_action"]) == (-1.0, True, True)
    assert env.state.to_json_text() == before
    strict = gymnasium.make("parlor/MammaMia-v0", opponents="random", seat=0, illegal_action="raise").unwrapped
    strict.reset(seed=0)
    with pytest.raises(IllegalAction):
        strict.step(illegal)


def test_a_random_seat_is_drawn_per_episode() -> None:
    env = gymnasium.make("parlor/SweetNose-v0", players=4, opponents="random")
    seats = {env.reset(seed=s)[1]["seat"] for s in range(12)}
    assert len(seats) > 1 and seats <= {0, 1, 2, 3}


def test_opponents_may_be_a_spec_a_bot_or_a_factory_and_anything_else_is_refused() -> None:
    # A non-string `opponents` gave AttributeError: 'strip'.
    from parlor.bots import RandomBot

    game = games.get("sweet-nose")
    played = []

    class Recording(RandomBot):
        def choose(self, state, seat):
            played.append(seat)
            return super().choose(state, seat)

    for opponents in ("random", Recording(game, 1), RandomBot, lambda g, seed: Recording(g, seed)):
        e = gymnasium.make("parlor/SweetNose-v0", players=3, opponents=opponents, seat=0)
        _, info = e.reset(seed=3)
        done = False
        while not done:
            _, _, done, _, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert played and set(played) <= {1, 2}
    for bad in (7, None, ["random"]):
        with pytest.raises(TypeError, match="opponents must be a bot spec"):
            ParlorSingleSeatEnv("sweet-nose", players=3, opponents=bad)


def test_human_render_prints_the_text_view(capsys: pytest.CaptureFixture[str]) -> None:
    e = ParlorSingleSeatEnv("mamma-mia", players=2, opponents="random", render_mode="human")
    e.reset(seed=1)
    assert e.render() is None
    assert len(capsys.readouterr().out) > 50


def _gym_run(numpy_ids: bool) -> list[tuple[bytes, bytes, float, bool]]:
    e = ParlorSingleSeatEnv("sweet-nose", players=3, opponents="random", seat=1)
    rng = np.random.default_rng(2)
    obs, info = e.reset(seed=2)
    seen = [(obs.tobytes(), info["action_mask"].tobytes(), 0.0, False)]
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, done, _, info = e.step(np.int64(action) if numpy_ids else action)
        seen.append((obs.tobytes(), info["action_mask"].tobytes(), reward, done))
    return seen


def test_the_step_is_the_same_whatever_type_the_action_id_is() -> None:
    """Plain int ids take the compiled step (``native.gym_step``), numpy ints the long way
    round: the same game, observation, mask, reward and end either way."""
    plain = _gym_run(numpy_ids=False)
    assert len(plain) > 5
    assert _gym_run(numpy_ids=True) == plain
