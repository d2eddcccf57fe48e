"""The native vector env: the same games as the single-seat Gymnasium env, in batches."""

from __future__ import annotations

import numpy as np
import pytest

from parlor import games
from parlor.bots import RandomBot
from parlor.core.errors import IllegalAction
from parlor.rl import encoding
from parlor.rl.gym import ParlorSingleSeatEnv
from parlor.rl.vector import ParlorVectorEnv


def masked_random(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


@pytest.mark.parametrize("name", games.names())
def test_rows_are_each_games_observation_and_episodes_reset_themselves(name: str) -> None:
    game = games.get(name)
    enc = encoding(game)
    env = ParlorVectorEnv(name, num_envs=5, players=3, opponents="random", seed=11)
    obs, info = env.reset()
    assert obs.shape == (5, enc.LAYOUT.size) and obs.dtype == np.float32
    assert info["action_mask"].shape == (5, game.num_actions) and info["action_mask"].dtype == np.int8
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        for i, state in enumerate(env.states()):
            seat = int(info["seat"][i])
            assert seat in state.to_move
            assert obs[i].tobytes() == enc.encode_from_view(state, seat).tobytes()
            assert sorted(np.flatnonzero(info["action_mask"][i])) == sorted(
                game.action_id(a) for a in state.legal_actions(seat)
            )
        before, seats = env.states(), info["seat"].copy()  # the same objects: a finished game stays in `before`
        obs, rewards, terminated, truncated, info = env.step(masked_random(rng, info["action_mask"]))
        assert not truncated.any() and not info["illegal_action"].any()
        if terminated.any():
            finished += int(terminated.sum())
            assert info["_final_obs"][terminated].all() and not info["_final_obs"][~terminated].any()
            for i in np.flatnonzero(terminated):  # the finished game's last observation
                assert before[i].is_over and env.states()[i] is not before[i]
                assert info["final_obs"][i].tobytes() == enc.encode_from_view(before[i], int(seats[i])).tobytes()
            assert set(rewards[terminated].tolist()) <= {-1.0, 0.0, 1.0}  # 3 players: +1, 0, -1
        assert (rewards[~terminated] == 0).all()
    assert finished >= 2 and env.episodes == finished


def test_seeded_runs_repeat_and_envs_differ() -> None:
    def run(seed: int) -> list[bytes]:
        env = ParlorVectorEnv("sweet-nose", num_envs=4, players=3, opponents="medium", seed=seed)
        obs, info = env.reset()
        rng = np.random.default_rng(5)
        seen = [obs.tobytes()]
        for _ in range(60):
            obs, rewards, *_rest, info = env.step(masked_random(rng, info["action_mask"]))
            seen.append(obs.tobytes() + rewards.tobytes())
        return seen

    assert run(3) == run(3)
    assert run(3) != run(4)
    env = ParlorVectorEnv("sweet-nose", num_envs=4, players=3, seed=3)
    obs, _ = env.reset()
    assert len({obs[i].tobytes() for i in range(4)}) == 4  # each env its own game
    env.reset(seed=[7, 7, 7, 7])
    assert len({s.to_json_text() for s in env.states()}) == 1  # per-env seeds


def test_an_illegal_action_loses_that_env_only_or_raises() -> None:
    env = ParlorVectorEnv("mamma-mia", num_envs=3, players=2, seed=1, seat=0)
    _, info = env.reset()
    before = [s.to_json_text() for s in env.states()]
    actions = np.array([int(np.flatnonzero(m)[0]) for m in info["action_mask"]])
    actions[1] = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    _obs, rewards, terminated, _, info = env.step(actions)
    assert terminated.tolist() == [False, True, False] and rewards[1] == -1.0 and info["illegal_action"][1]
    unchanged = games.get("mamma-mia").load_state(before[1])  # nothing was played in env 1
    assert info["final_obs"][1].tobytes() == encoding("mamma-mia").encode(unchanged, 0).tobytes()
    strict = ParlorVectorEnv("mamma-mia", num_envs=2, players=2, seed=1, illegal_action="raise")
    _, info = strict.reset()
    with pytest.raises(IllegalAction, match="env 0"):
        strict.step(np.array([10_000, 0]))
    # An illegal action in env 1 raises before env 0's legal one is played: nothing changes.
    before = [s.to_json_text() for s in strict.states()]
    legal0 = int(np.flatnonzero(info["action_mask"][0])[0])
    illegal1 = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalAction, match="env 1"):
        strict.step(np.array([legal0, illegal1]))
    assert [s.to_json_text() for s in strict.states()] == before


def test_opponents_as_objects_factories_and_a_self_play_policy() -> None:
    game = games.get("mottainai")
    calls: list[int] = []

    def policy(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        calls.append(len(obs))
        assert obs.shape[1] == encoding(game).LAYOUT.size and masks.any(axis=1).all()
        return masks.argmax(axis=1)

    for kwargs in ({"opponents": RandomBot(game, 2)}, {"opponents": RandomBot}, {"opponent_policy": policy}):
        env = ParlorVectorEnv("mottainai", num_envs=4, players=3, seat=1, seed=2, **kwargs)
        _, info = env.reset()
        for _ in range(30):
            _, _, _, _, info = env.step(info["action_mask"].argmax(axis=1))
            assert all(1 in s.to_move for s in env.states())
    assert calls and max(calls) > 1  # the policy saw batches
    with pytest.raises(TypeError, match="opponents must be"):
        ParlorVectorEnv("mottainai", opponents=3)


@pytest.mark.parametrize("name", ["sweet-nose", "mottainai"])
def test_random_opponents_play_the_moves_of_randombots_choose(name: str) -> None:
    """``random`` opponents draw their moves in compiled code from the bot's own generator;
    a subclass of ``RandomBot`` is played through its ``choose`` method. Same seeds, same
    learner actions: the same games, byte for byte (vector env and Gymnasium env)."""

    class ChoosingRandomBot(RandomBot):  # a subclass: not drawn in compiled code
        pass

    def vector_run(opponents: object) -> list[bytes]:
        env = ParlorVectorEnv(name, num_envs=4, players=4, opponents=opponents, seed=9)
        obs, info = env.reset()
        rng = np.random.default_rng(3)
        seen = [obs.tobytes()]
        for _ in range(120):
            obs, rewards, terminated, _, info = env.step(masked_random(rng, info["action_mask"]))
            seen.append(obs.tobytes() + rewards.tobytes() + terminated.tobytes() + info["action_mask"].tobytes())
        return seen

    assert vector_run("random") == vector_run(ChoosingRandomBot)

    def gym_run(opponents: object) -> list[bytes]:
        env = ParlorSingleSeatEnv(name, players=4, opponents=opponents, seat=None)
        rng = np.random.default_rng(4)
        seen = []
        for seed in range(3):
            obs, info = env.reset(seed=seed)
            done = False
            while not done:
                obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
                seen.append(obs.tobytes() + info["action_mask"].tobytes() + np.float32(reward).tobytes())
        return seen

    assert gym_run("random") == gym_run(ChoosingRandomBot)


def test_stable_baselines3_takes_it_as_a_vec_env() -> None:
    # SB3's own VecEnv base class and wrappers, and sb3-contrib's MaskablePPO (the [train] extra,
    # which scripts/test installs with torch's CPU build): not a stand-in for them.
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.logger import Logger
    from stable_baselines3.common.vec_env import VecCheckNan, VecEnv, VecMonitor

    size, n_actions = encoding("sweet-nose").LAYOUT.size, games.get("sweet-nose").num_actions
    venv = ParlorVectorEnv("sweet-nose", num_envs=3, players=3, seed=0).sb3()
    assert isinstance(venv, VecEnv) and venv.num_envs == 3 and is_masking_supported(venv)
    assert venv.observation_space.shape == (size,) and venv.render_mode is None
    venv.seed(4)
    first = venv.reset()
    venv.seed(4)
    assert np.array_equal(venv.reset(), first)  # seeded resets repeat
    checked = VecMonitor(VecCheckNan(venv, raise_exception=True))
    obs = checked.reset()
    assert obs.shape == (3, size)
    ends = 0
    for _ in range(300):
        masks = get_action_masks(checked)
        assert masks.dtype == bool and masks.shape == (3, n_actions) and masks.any(axis=1).all()
        obs, rewards, dones, infos = checked.step(masks.argmax(axis=1))
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].shape == (size,)
            assert -1.0 <= infos[i]["episode"]["r"] <= 1.0 and rewards[i] == infos[i]["episode"]["r"]
            ends += 1
    assert ends > 0 and checked.get_attr("players") == [3, 3, 3]
    # An action outside the mask ends that env's episode with -1, flagged in its info.
    _, rewards, dones, infos = venv.step(np.array([-1, *get_action_masks(venv)[1:].argmax(axis=1)]))
    assert dones[0] and rewards[0] == -1.0 and infos[0]["illegal_action"]

    torch.set_num_threads(1)
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=24, n_epochs=1, seed=0, device="cpu")
    model.set_logger(Logger(folder=None, output_formats=[]))  # (the default makes a folder in /tmp)
    model.learn(total_timesteps=96)
    action, _ = model.predict(venv.reset(), action_masks=get_action_masks(venv), deterministic=True)
    assert get_action_masks(venv)[np.arange(3), action].all()  # masked actions only


# Seeds whose first deal of 4-player Mottainai the other seats finish before the learner's first
# decision (a game can end in its first round): found by searching resets; each test checks that
# its deal really is such a deal before it looks at what the env handed out.
BOTS_FINISH_THE_DEAL = 15923  # `random` opponents (the same first deal in the Gymnasium env)
POLICY_FINISHES_THE_DEAL = 1769  # self-play, the policy that plays each seat's first legal action


def first_legal(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    return masks.argmax(axis=1)


def finished_before_the_learner(seed: int, policy: object = None) -> bool:
    """Whether the first deal of ``seed`` (as the env draws it) ends before its learner decides."""
    rng = np.random.default_rng(seed)
    game = games.get("mottainai")
    game_seed = int(rng.integers(0, 2**31 - 1))
    seat = int(rng.integers(4))
    state = game.new_game(4, game_seed, game.default_options(4))
    enc = encoding(game)
    bots = {s: RandomBot(game, game_seed + 7919 * (s + 1)) for s in range(4) if s != seat}
    while state.to_move and seat not in state.to_move:
        mover = state.to_move[0]
        if policy is None:
            move = bots[mover].choose(state, mover)
        else:
            row = enc.ENCODER.action_mask(state, mover)[None, :]
            move = game.action_from_id(int(first_legal(row, row)[0]))
        state.apply(mover, move)
    return state.is_over


@pytest.mark.parametrize("policy", [None, first_legal], ids=["bots", "self-play"])
def test_a_deal_finished_before_the_learner_decides_is_dealt_again(policy: object) -> None:
    seed = POLICY_FINISHES_THE_DEAL if policy else BOTS_FINISH_THE_DEAL
    assert finished_before_the_learner(seed, policy)  # (the case this test is about)
    env = ParlorVectorEnv("mottainai", num_envs=1, players=4, seed=seed, opponent_policy=policy)  # type: ignore[arg-type]
    obs, info = env.reset()
    state = env.states()[0]
    assert not state.is_over and int(info["seat"][0]) in state.to_move
    assert info["action_mask"][0].sum() > 0 and obs[0].any()
    # and the next step plays on from there as any step does
    info = env.step(np.array([int(info["action_mask"][0].argmax())]))[4]
    assert not info["illegal_action"][0]


def test_the_gymnasium_env_never_resets_into_a_finished_game() -> None:
    assert finished_before_the_learner(BOTS_FINISH_THE_DEAL)
    env = ParlorSingleSeatEnv("mottainai", players=4, opponents="random")
    _obs, info = env.reset(seed=BOTS_FINISH_THE_DEAL)
    assert not env.state.is_over and info["action_mask"].sum() > 0
    info = env.step(int(info["action_mask"].argmax()))[4]
    assert "illegal_action" not in info


MOTTAINAI_TABLES = [(n, None) for n in range(2, 7)] + [
    (3, {"setup_facedown_tasks": "all_but_start_player", "waiting_area_visible_to_owner": True}),
    (4, {"team_play": True, "extended_game": True}),
    (3, {"waiting_area_scores": True}),
]


def _zones(state: object, p: int) -> tuple:
    s = state
    return tuple(
        getattr(s, z)[p]
        for z in (
            "hands", "known", "waiting", "tasks", "task_up", "doll_task",
            "helpers", "bench", "sales", "gallery", "gift", "kite",
        )
    )  # fmt: skip


@pytest.mark.parametrize(("players", "options"), MOTTAINAI_TABLES)
def test_mottainai_counts_every_change_to_a_seats_zones(players: int, options: dict | None) -> None:
    """``zone_changes[p]`` moves whenever one of seat ``p``'s zones changed (what the vector
    env's in-place rewrite relies on to leave a player block alone): checked at every
    decision of random games, every seat."""
    game = games.get("mottainai")
    rng = np.random.default_rng(players)
    for seed in range(6):
        opts = game.options_from_json(options) if options else game.default_options(players)
        state = game.new_game(players, seed, opts)
        before = [(_zones(state, p), state.zone_changes[p]) for p in range(players)]
        while state.to_move:
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[int(rng.integers(len(legal)))])
            now = [(_zones(state, p), state.zone_changes[p]) for p in range(players)]
            for p in range(players):
                if now[p][0] != before[p][0]:
                    assert now[p][1] != before[p][1], f"seat {p}'s zones changed, its count did not"
            before = now


@pytest.mark.parametrize(("players", "options"), MOTTAINAI_TABLES)
def test_rows_rewritten_in_place_are_whole_observations(players: int, options: dict | None) -> None:
    """Mottainai's rows are rewritten in place, each player block only when that seat's zones
    changed: every row, at every step, through episode ends, is the full observation."""
    enc = encoding("mottainai")
    env = ParlorVectorEnv("mottainai", num_envs=6, players=players, options=options, seed=players)
    obs, info = env.reset()
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(250):
        before, seats = env.states(), info["seat"].copy()
        obs, _, terminated, _, info = env.step(masked_random(rng, info["action_mask"]))
        for i, state in enumerate(env.states()):
            assert obs[i].tobytes() == enc.encode(state, int(info["seat"][i])).tobytes()
        for i in np.flatnonzero(terminated):
            assert info["final_obs"][i].tobytes() == enc.encode(before[i], int(seats[i])).tobytes()
        ended += int(terminated.sum())
    assert ended >= 1


def test_observations_and_masks_are_handed_out_read_only() -> None:
    """The observation and mask rows are the env's buffers, rewritten in place by the next
    step (Mottainai's observations only where the state changed, every mask only where it
    was set): handed out read-only, so a write into them is an error instead of a row that
    silently stays wrong. Copies are the caller's."""
    for name in games.names():
        env = ParlorVectorEnv(name, num_envs=2, players=3, seed=0)
        obs, info = env.reset()
        for _ in range(2):
            assert not obs.flags.writeable and not info["action_mask"].flags.writeable
            with pytest.raises(ValueError, match="read-only"):
                obs[0, 0] = 1.0
            with pytest.raises(ValueError, match="read-only"):
                info["action_mask"][0, 0] = 1
            mine = obs.copy()
            mine[0, 0] = 1.0  # a copy is the caller's
            obs, *_rest, info = env.step(info["action_mask"].argmax(axis=1))
