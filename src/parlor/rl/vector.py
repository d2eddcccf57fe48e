"""A native vector env: N games of one learning seat each, stepped together (extra ``[rl]``).

::

    from parlor.rl.vector import ParlorVectorEnv
    env = ParlorVectorEnv("mamma-mia", num_envs=64, players=4, opponents="random", seed=0)
    obs, info = env.reset()                      # obs: float32 (64, size); info["action_mask"]: int8 (64, A)
    obs, rewards, terminated, truncated, info = env.step(actions)   # actions: int (64,)

It is a ``gymnasium.vector.VectorEnv`` (autoreset mode ``SAME_STEP``); ``.sb3()`` gives the
same games as a Stable-Baselines3 ``VecEnv`` (``action_masks`` for sb3-contrib's MaskablePPO).

- **Each env is one Parlor game** in which the learning seat (``seat``: a number, or None to
  draw one per episode; ``info["seat"]``) plays against ``opponents``: a bot spec, a bot
  object or a factory (``parlor.rl.opponents``), or, for self-play, ``opponent_policy``: a
  function ``(observations, masks) -> action ids`` called on a batch of every env whose
  opponent is to move (each row that opponent's own observation).
- **Arrays, not dicts.** Observations and masks are written straight from the states
  (``Encoder``, the game's compiled ``observation.py``) into preallocated arrays; the arrays
  returned by ``reset`` and ``step`` are those same buffers, overwritten by the next call
  (copy them to keep them). The observations and masks are read-only views: the next call
  rewrites their rows in place, and only where something changed (Mottainai's player blocks
  only for seats whose zones changed, a mask only at the entries it had set), so a write into
  them would leave later rows wrong; copy them to change them. Observations are float32
  ``(num_envs, LAYOUT.size)``, masks int8 ``(num_envs, num_actions)``, rewards float32, flags
  bool. Memory per env: ``4 * size + num_actions`` bytes for the arrays (Mamma Mia! 5.4 kB,
  Sweet Nose 3.2 kB, Mottainai 20.4 kB, the observation once more for ``final_obs``) plus one
  game state (a few kB).
- **Auto-reset, same step.** When an episode ends (the game is over, or the learner chose an
  action outside its mask, with ``illegal_action="lose"``: reward -1, nothing played) the
  env starts its next game at once: the returned row is the new game's first observation,
  ``info["final_obs"]`` holds the last one of the finished game and ``info["_final_obs"]``
  says which rows did. ``illegal_action="raise"`` raises ``IllegalAction`` instead.
- **Seeds per env.** ``reset(seed=s)`` seeds env ``i`` with ``s + i`` (or ``seed`` may be a
  list, one per env); each env draws its games' seeds (and its bots' seeds and its seat)
  from its own generator, so a seeded run repeats exactly whatever the batch does.
- Rewards are the return at the end (+1 first ... -1 last, ``rewards.return_of``), 0 before;
  ``reward="score_margin"``: the learner's score margin over the best other seat divided by
  ``reward_scale`` (``parlor.rl.rewards``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from parlor import games
from parlor.core.errors import IllegalAction
from parlor.core.game import Game, State
from parlor.rl import encoding, native
from parlor.rl.opponents import deal, opponent_factory
from parlor.rl.pettingzoo import OBS_HIGH, legal_move
from parlor.rl.rewards import reward_function

Policy = Callable[[np.ndarray, np.ndarray], Any]


class ParlorVectorEnv(gymnasium.vector.VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        game: str | Game,
        num_envs: int = 64,
        players: int | None = None,
        opponents: Any = "random",
        seat: int | None = None,
        options: Any = None,
        seed: int | None = None,
        illegal_action: str = "lose",
        opponent_policy: Policy | None = None,
        reward: str = "rank",
        reward_scale: float | None = None,
    ) -> None:
        self.game = games.get(game) if isinstance(game, str) else game
        if type(num_envs) is not int or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        self.num_envs = num_envs
        self.players = self.game.check_players(players if players is not None else self.game.min_players)
        if seat is not None and not (type(seat) is int and 0 <= seat < self.players):
            raise ValueError(f"seat must be None or 0..{self.players - 1}, got {seat!r}")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        if opponent_policy is not None and not callable(opponent_policy):
            raise TypeError("opponent_policy must be a function (observations, masks) -> action ids")
        self.final_rewards = reward_function(self.game, reward, reward_scale)
        self.factory = None if opponent_policy is not None else opponent_factory(opponents)
        self.opponent_policy = opponent_policy
        self.options = self.game.options_from_json(options) if isinstance(options, dict) else options
        self.fixed_seat = seat
        self.illegal_action = illegal_action
        self.encoding = encoding(self.game)
        self.encoder = self.encoding.ENCODER
        size, n_actions = self.encoder.size, self.game.num_actions
        self.single_observation_space = spaces.Box(0.0, OBS_HIGH, (size,), np.float32)
        self.single_action_space = spaces.Discrete(n_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        # The observations are handed out read-only: a view of the env's own buffer, whose rows
        # the next step rewrites in place (Mottainai's only where its state changed, so a row
        # written into by the caller would silently stay wrong; read-only, that is an error).
        self._obs_buffer = np.zeros((num_envs, size), np.float32)
        self.obs = self._obs_buffer.view()
        self.obs.flags.writeable = False
        # the masks too: rows are cleared where they were set, not zeroed (native.write_mask_row)
        self._mask_buffer = np.zeros((num_envs, n_actions), np.int8)
        self.masks = self._mask_buffer.view()
        self.masks.flags.writeable = False
        self.final_obs = np.zeros((num_envs, size), np.float32)
        self.rewards = np.zeros(num_envs, np.float32)
        self.terminated = np.zeros(num_envs, bool)
        self.truncated = np.zeros(num_envs, bool)
        self.illegal = np.zeros(num_envs, bool)
        self.seats = np.zeros(num_envs, np.int64)
        self._obs_view = memoryview(self._obs_buffer).cast("B").cast("f")
        self._mask_view = memoryview(self._mask_buffer).cast("B").cast("b")
        # one row of zeros each, copied over a row just before it is written (native.write_env_rows);
        # for the observations only as far as this table's player blocks reach: the blocks of
        # seats it does not have are never written (Layout), so they stay zero from the start
        layout = self.encoding.LAYOUT
        used = layout.table_size + self.players * layout.player_size
        self._obs_zeros = memoryview(np.zeros(used, np.float32)).cast("B").cast("f")
        self._mask_zeros = memoryview(np.zeros(n_actions, np.int8)).cast("B").cast("b")
        # each row as a view of its own, written from offset 0 (native.write_env_rows)
        self._obs_rows = [self._obs_view[i * size : (i + 1) * size] for i in range(num_envs)]
        self._mask_rows = [self._mask_view[i * n_actions : (i + 1) * n_actions] for i in range(num_envs)]
        # the game's in-place row rewrite (Mottainai's: the player blocks of seats whose zones
        # did not change are left as they are), with a record per row of what it holds
        self._write_changed = self.encoder.write_changed
        self._rows: list[Any] | None = None
        if self._write_changed is not None and self.encoder.row is not None:
            self._rows = [self.encoder.row() for _ in range(num_envs)]
        # per row, the list of legal actions its mask was last written from (None: unknown)
        self._mask_lists: list[Any] = [None] * num_envs
        self._actions = self.game.actions.actions
        self._states: list[State] = []
        self._bots: list[list[Any] | None] = []
        self._seat_list: list[int] = []
        self._rngs: list[np.random.Generator] = []
        self._initial_seed = seed
        self.episodes = 0  # finished episodes, all envs together

    # ---- episodes ------------------------------------------------------------------------
    def _new_game(self, i: int) -> None:
        state, seat, bots = deal(self.game, self.players, self._rngs[i], self.fixed_seat, self.options, self.factory)
        self._states[i] = state
        self._bots[i] = bots
        self._seat_list[i] = seat
        self.seats[i] = seat

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is None:
            seed = self._initial_seed
        if seed is None:
            seeds: list[Any] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds for {self.num_envs} envs")
        self._rngs = [np.random.default_rng(s) for s in seeds]
        self._states = [None] * self.num_envs  # type: ignore[list-item]
        self._bots = [None] * self.num_envs
        self._seat_list = [0] * self.num_envs
        self._deal(list(range(self.num_envs)))
        self._observe()
        return self.obs, {"action_mask": self.masks, "seat": self.seats}

    def _deal(self, envs: list[int]) -> None:
        """New games in ``envs``, each played on to its learner's first decision; with self-play,
        a game the policy's seats finish before it is dealt again (as ``_new_game`` does with bots)."""
        for i in envs:
            self._new_game(i)
        again = envs
        while again and self.opponent_policy is not None:
            self._self_play(again)
            again = [i for i in again if self._states[i].is_over]
            for i in again:
                self._new_game(i)

    def _self_play(self, envs: list[int]) -> None:
        """Self-play: the policy moves every other seat, batch by batch, until each env in
        ``envs`` waits for its learner (or is over)."""
        policy = self.opponent_policy
        if policy is None:
            return
        states, seats = self._states, self._seat_list
        while True:
            waiting = [i for i in envs if states[i].to_move and seats[i] not in states[i].to_move]
            if not waiting:
                return
            batch = [states[i] for i in waiting]
            movers = [s.to_move[0] for s in batch]
            obs = self.encoder.encode_batch(batch, movers)
            masks = self.encoder.action_mask_batch(batch, movers)
            choices = np.asarray(policy(obs, masks)).reshape(-1)
            for k, state in enumerate(batch):
                state.apply(movers[k], self.game.action_from_id(int(choices[k])))

    def _observe(self) -> None:
        self._obs_buffer.fill(0.0)
        if self._rows is not None:  # written whole here: the rows' records no longer hold
            for row in self._rows:
                row.forget()
        self._mask_buffer.fill(0)
        self._mask_lists = [None] * self.num_envs
        native.write_batch(self.encoder.write, self._states, self._seat_list, self._obs_view, self.encoder.size)
        native.write_mask_batch(self._states, self._seat_list, self.encoder.ids, self._mask_view, self.masks.shape[1])

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._states:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions).reshape(-1)
        if actions.shape[0] != self.num_envs:
            raise ValueError(f"{actions.shape[0]} actions for {self.num_envs} envs")
        self.rewards.fill(0.0)
        self.terminated.fill(False)
        self.illegal.fill(False)
        states, seats = self._states, self._seat_list
        ids = actions.tolist()
        if self.illegal_action == "raise":  # check every env before any plays: an error changes nothing
            for i, a in enumerate(ids):
                if type(a) is not int or legal_move(states[i], seats[i], a) is None:
                    raise IllegalAction(f"env {i}: action id {a!r} is not legal for seat {seats[i]} now")
        if self.opponent_policy is not None:
            return self._step_self_play(ids)
        # One compiled pass: each env plays and its rows are written while its state is warm.
        enc = self.encoder
        obs_rows, mask_rows, obs_zeros, mask_zeros = self._obs_rows, self._mask_rows, self._obs_zeros, self._mask_zeros
        results = native.step_and_write(
            states,
            seats,
            self._bots,
            ids,
            self._actions,
            enc.write,
            obs_rows,
            obs_zeros,
            enc.ids,
            mask_rows,
            mask_zeros,
            self._write_changed,
            self._rows,
            self._mask_lists,
        )
        info: dict[str, Any] = {"action_mask": self.masks, "seat": self.seats, "illegal_action": self.illegal}
        if results.count(0) == len(results):  # the usual step: no game ended
            return self.obs, self.rewards, self.terminated, self.truncated, info
        done = np.zeros(self.num_envs, bool)
        for i, result in enumerate(results):
            if result == 0:
                continue
            if result == -1:
                self.illegal[i] = True
                self.rewards[i] = -1.0
            else:
                self.rewards[i] = self.final_rewards(states[i])[seats[i]]
            self.terminated[i] = True
            self.final_obs[i] = self.obs[i]  # the row holds the finished game's last observation
            done[i] = True
            self._new_game(i)
            native.write_env_rows(
                states[i],
                seats[i],
                enc.write,
                obs_rows[i],
                obs_zeros,
                enc.ids,
                mask_rows[i],
                mask_zeros,
                self._write_changed,
                self._rows,
                self._mask_lists,
                i,
            )
            self.episodes += 1
        info["final_obs"] = self.final_obs
        info["_final_obs"] = done
        return self.obs, self.rewards, self.terminated, self.truncated, info

    def _step_self_play(self, ids: list[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """A step when a policy moves the other seats: the learners' actions, then the policy's
        batches until every env waits for its learner, then every row written."""
        states, seats = self._states, self._seat_list
        results = native.step_envs(states, seats, self._bots, ids, self._actions)
        for i, result in enumerate(results):
            if result == -1:
                self.illegal[i] = True
                self.rewards[i] = -1.0
        self._self_play([i for i in range(self.num_envs) if not self.illegal[i]])
        ended = [i for i in range(self.num_envs) if self.illegal[i] or not states[i].to_move]
        info: dict[str, Any] = {"action_mask": self.masks, "seat": self.seats, "illegal_action": self.illegal}
        if ended:
            rows = self.encoder.encode_batch([states[i] for i in ended], [seats[i] for i in ended])
            done = np.zeros(self.num_envs, bool)
            for k, i in enumerate(ended):
                if not self.illegal[i]:
                    self.rewards[i] = self.final_rewards(states[i])[seats[i]]
                self.terminated[i] = True
                self.final_obs[i] = rows[k]
                done[i] = True
            self.episodes += len(ended)
            self._deal(ended)
            info["final_obs"] = self.final_obs
            info["_final_obs"] = done
        self._observe()
        return self.obs, self.rewards, self.terminated, self.truncated, info

    def action_masks(self) -> np.ndarray:
        """The boolean masks (the name sb3-contrib's MaskablePPO looks for)."""
        return self.masks.astype(bool)

    def states(self) -> list[State]:
        """The Parlor state of each env (read-only use: for inspection and tests)."""
        return list(self._states)

    def sb3(self) -> Any:
        """These games as a Stable-Baselines3 ``VecEnv`` (needs stable-baselines3)."""
        from stable_baselines3.common.vec_env import VecEnv

        cls = type("ParlorSB3VecEnv", (SB3Face, VecEnv), {})
        return cls(self)

    def close(self, **kwargs: Any) -> None:
        self._states = []


class SB3Face:
    """The Stable-Baselines3 ``VecEnv`` protocol over a :class:`ParlorVectorEnv`.

    A mixin: ``ParlorVectorEnv.sb3()`` puts it before SB3's ``VecEnv`` base class (so this
    module imports without SB3), whose ``__init__``, ``seed`` and ``set_options`` it uses.
    ``reset`` -> obs (the seeds ``seed(s)`` set: env ``i`` gets ``s + i``), ``step_async`` /
    ``step_wait`` -> obs, rewards, dones, infos with ``terminal_observation`` (and
    ``illegal_action`` where the learner's action was not legal), ``env_method("action_masks")``
    -> one boolean mask per env (what sb3-contrib's MaskablePPO asks for).
    """

    def __init__(self, env: ParlorVectorEnv) -> None:
        self.env = env
        self._actions: Any = None
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)  # type: ignore[call-arg]

    def reset(self) -> np.ndarray:
        seeds: list[int | None] = self._seeds  # type: ignore[attr-defined]
        obs, _ = self.env.reset(seed=None if all(s is None for s in seeds) else [s or 0 for s in seeds])
        self._reset_seeds()  # type: ignore[attr-defined]
        self._reset_options()  # type: ignore[attr-defined]
        return obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, rewards, terminated, truncated, info = self.env.step(self._actions)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if "final_obs" in info:
            for i in np.flatnonzero(info["_final_obs"]):
                infos[i]["terminal_observation"] = info["final_obs"][i].copy()
                infos[i]["TimeLimit.truncated"] = False
                if self.env.illegal[i]:
                    infos[i]["illegal_action"] = True
        return obs.copy(), rewards.copy(), terminated | truncated, infos

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        self.step_async(actions)
        return self.step_wait()

    def close(self) -> None:
        self.env.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self.env, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.env, attr_name, value)

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        if method_name == "action_masks":
            masks = self.env.action_masks()
            return [masks[i] for i in self._indices(indices)]
        result = getattr(self.env, method_name)(*args, **kwargs)
        return [result for _ in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def get_images(self) -> list[Any]:
        return []

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)
