"""Gymnasium environments: one learning seat against Parlor bots (extra ``[rl]``).

Importing this module registers ``parlor/MammaMia-v0``, ``parlor/SweetNose-v0`` and
``parlor/Mottainai-v0`` (or use ``gymnasium.make("parlor.rl.gym:parlor/SweetNose-v0")``)::

    env = gymnasium.make("parlor/SweetNose-v0", players=3, opponents="medium", seat=None)

The observation is the game's float32 tensor for the learning seat (games/<game>/encoding.py);
the action is a game action id; ``info["action_mask"]`` (int8 over ``num_actions``) says which
ids are legal, ``info["seat"]`` which seat you play (``seat=None``: drawn at each reset).
The other seats are Parlor bots: ``opponents`` is a bot spec (``random``, ``easy``,
``medium``, ``hard``, ``expert``, ``file.py:MyBot`` ... as in ``parlor.bots.parse_bot_spec``;
seeded from the episode's seed, so a seeded episode repeats exactly), a bot object, or a
factory ``(game, seed) -> bot`` (``parlor.rl.opponents``).

Reward: 0 until the end, then the seat's return (+1 first ... -1 last, as in
``parlor.rl.rewards.return_of``), or with ``reward="score_margin"`` its score margin over the
best other seat divided by ``reward_scale`` (``parlor.rl.rewards``). An action outside the mask is not played: with
``illegal_action="lose"`` (the default, so random exploration cannot crash a run) the episode
ends with reward -1 and ``info["illegal_action"] = True``; with ``"raise"`` it raises
``IllegalAction``. The game state is unchanged either way.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from parlor import games
from parlor.core.errors import IllegalAction
from parlor.core.game import Game, State
from parlor.rl import encoding, native
from parlor.rl.opponents import deal, opponent_factory
from parlor.rl.pettingzoo import (
    OBS_HIGH,
    RENDER_MODES,
    check_render_and_illegal,
    legal_move,
    render_text,
)
from parlor.rl.rewards import reward_function

# the arrays' dtypes as objects: a type or a name is converted at every np.zeros
_FLOAT32 = np.dtype(np.float32)
_INT8 = np.dtype(np.int8)

IDS = {"mamma-mia": "parlor/MammaMia-v0", "sweet-nose": "parlor/SweetNose-v0", "mottainai": "parlor/Mottainai-v0"}


class ParlorSingleSeatEnv(gymnasium.Env):
    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        opponents: Any = "medium",
        seat: int | None = None,
        options: Any = None,
        illegal_action: str = "lose",
        render_mode: str | None = None,
        reward: str = "rank",
        reward_scale: float | None = None,
    ) -> None:
        self.game = games.get(game) if isinstance(game, str) else game
        self.players = self.game.check_players(players if players is not None else self.game.min_players)
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.players):
            raise ValueError(f"seat must be None or 0..{self.players - 1}, got {seat!r}")
        check_render_and_illegal(render_mode, illegal_action)
        self.final_rewards = reward_function(self.game, reward, reward_scale)
        self.opponent_factory = opponent_factory(opponents)  # fails now on an unknown bot
        self.options = self.game.options_from_json(options) if isinstance(options, dict) else options
        self.fixed_seat = seat
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.encoding = encoding(self.game)
        self.encoder = self.encoding.ENCODER  # encode / action_mask without the module's wrapper call
        self.observation_space = spaces.Box(0.0, OBS_HIGH, (self.encoding.LAYOUT.size,), np.float32)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.state: State | None = None
        self.seat = 0
        self._space = self.game.actions.actions  # action id -> the action object the rules hand out
        self._bots: list[Any] = []

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.encoder.action_mask(self.state, self.seat), "seat": self.seat}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        self.state, self.seat, bots = deal(
            self.game, self.players, self.np_random, self.fixed_seat, self.options, self.opponent_factory
        )
        self._bots = bots or []
        return self.encoder.encode(self.state, self.seat), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        if state.is_over:
            raise RuntimeError("the episode is over; call reset()")
        seat = self.seat
        encoder = self.encoder
        # the observation and the mask: fresh arrays (the caller may keep them)
        obs = np.zeros(encoder.size, _FLOAT32)
        mask = np.zeros(encoder.num_actions, _INT8)
        # a plain int id of a legal action is the usual case: the moves and both writes in one
        # compiled call (what encoder.encode and encoder.action_mask would write); anything
        # else goes the long way round (conversion, refusal), nothing changed yet
        if not native.gym_step(
            state, seat, action, self._space, self._bots, encoder.write, encoder.ids, memoryview(obs), memoryview(mask)
        ):
            move = legal_move(state, seat, action)
            if move is None:
                if self.illegal_action == "raise":
                    raise IllegalAction(f"action id {action!r} is not a legal action for seat {self.seat} now")
                info = {**self._info(), "illegal_action": True}
                return encoder.encode(state, self.seat), -1.0, True, False, info
            state.apply(seat, move)
            native.play_others(state, seat, self._bots)
            write, ids = encoder.write, encoder.ids
            native.write_observation_and_mask(write, state, seat, memoryview(obs), ids, memoryview(mask))
        info = {"action_mask": mask, "seat": seat}
        if state.is_over:
            return obs, self.final_rewards(state)[seat], True, False, info
        return obs, 0.0, False, False, info

    def action_masks(self) -> np.ndarray:
        """The legal-action mask (the name sb3-contrib's MaskablePPO looks for)."""
        return self.encoder.action_mask(self.state, self.seat).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        text = render_text(self.state, self.seat)
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text


def register() -> None:
    """Register the three ids with Gymnasium (done on import; calling again is harmless)."""
    for name, env_id in IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="parlor.rl.gym:ParlorSingleSeatEnv", kwargs={"game": name})


register()
