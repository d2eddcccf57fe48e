"""The three games as OpenSpiel Python games (extra ``[rl]``).

``register()`` registers ``parlor_mamma_mia``, ``parlor_sweet_nose`` and ``parlor_mottainai``
with pyspiel; then ``pyspiel.load_game("parlor_sweet_nose", {"players": 4, "seed": 7})``.

- **Imperfect information, sequential.** The current player is the lowest seat the game
  waits for; Sweet Nose's secret sweetness phase is played as sub-turns (each seat sees its
  own information state, in which the others' placed cards stay hidden).
- **Chance lives in the state.** Every shuffle and draw comes from the Parlor state's own
  seeded generator, which is part of the state (``serialize`` carries it), so a state and an
  action fix the next state: OpenSpiel's chance mode ``DETERMINISTIC``. The deal is the
  game's ``seed`` parameter, advanced by one for each ``new_initial_state()``, so sampling
  algorithms (outcome-sampling MCCFR, IS-MCTS, RL) meet a new deal every episode. Explicit
  chance nodes would have to list deck orders (up to 54! outcomes); ``SAMPLED_STOCHASTIC``
  would need a game-level RNG state, which OpenSpiel cannot ask a Python game for
  (``GetRNGState`` is C++-only), so ``serialize_game_and_state`` failed with it.
- ``information_state_tensor`` / ``observation_tensor``: the game's encoding (docs/rl.md;
  the seat's view with recall, so both are the same tensor), strings: the information-state
  text of the encoding. Perfect recall: equal information states have equal legal actions
  (``tests/rl/test_recall.py``).
- ``resample_from_infostate(player, sampler)`` is ``state.determinize(player, rng)`` with the
  rng seeded from the sampler.
- ``serialize()`` / ``game.deserialize_state(text)`` and pickling carry the whole Parlor state
  (``to_json``, RNG included).
- Returns: as in ``parlor.rl.pettingzoo.return_of`` (+1 first ... -1 last).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from parlor import games
from parlor.core.game import State
from parlor.core.rng import Rng
from parlor.rl import encoding
from parlor.rl.pettingzoo import return_of

SHORT_NAMES = {"mamma-mia": "parlor_mamma_mia", "sweet-nose": "parlor_sweet_nose", "mottainai": "parlor_mottainai"}
MAX_GAME_LENGTH = 5000  # decisions; no real game comes near it


def _game_type(name: str) -> pyspiel.GameType:
    game = games.get(name)
    return pyspiel.GameType(
        short_name=SHORT_NAMES[name],
        long_name=f"Parlor {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": game.min_players, "seed": 0},
    )


class ParlorGame(pyspiel.Game):
    parlor_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.parlor = games.get(self.parlor_name)
        params = dict(params or {})
        players = int(params.get("players", self.parlor.min_players))
        self.parlor.check_players(players)
        self._seed = int(params.get("seed", 0))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.parlor.num_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_game_type(self.parlor_name), info, {"players": players, "seed": self._seed})
        self.players = players
        self._next = 0

    def new_initial_state(self, parlor_state: State | None = None) -> "ParlorSpielState":
        if parlor_state is None:
            seed = self._seed + self._next
            self._next += 1
            parlor_state = self.parlor.new_game(self.players, seed, self.parlor.default_options(self.players))
        return ParlorSpielState(self, parlor_state)

    def deserialize_state(self, text: str) -> "ParlorSpielState":
        return ParlorSpielState(self, self.parlor.load_state(text))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "ParlorObserver":
        return ParlorObserver(self)


class ParlorSpielState(pyspiel.State):
    def __init__(self, game: ParlorGame, parlor_state: State) -> None:
        super().__init__(game)
        self.parlor = parlor_state

    def current_player(self) -> int:
        if self.parlor.is_over:
            return pyspiel.PlayerId.TERMINAL
        return self.parlor.to_move[0]

    def _legal_actions(self, player: int) -> list[int]:
        game = self.parlor.game
        return sorted(game.action_id(a) for a in self.parlor.legal_actions(player))

    def _apply_action(self, action: int) -> None:
        seat = self.parlor.to_move[0]
        self.parlor.apply(seat, self.parlor.game.action_from_id(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.parlor.game.action_from_id(int(action)))

    def is_terminal(self) -> bool:
        return self.parlor.is_over

    def returns(self) -> list[float]:
        if not self.parlor.is_over:
            return [0.0] * self.parlor.players
        return return_of(self.parlor)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "ParlorSpielState":
        rng = Rng(int(probability_sampler() * (1 << 62)))
        return ParlorSpielState(self.get_game(), self.parlor.determinize(player_id, rng))

    def clone(self) -> "ParlorSpielState":
        return ParlorSpielState(self.get_game(), self.parlor.clone())

    def __deepcopy__(self, memo: Any) -> "ParlorSpielState":
        return self.clone()

    def serialize(self) -> str:
        return self.parlor.to_json_text()

    def __getstate__(self) -> dict[str, Any]:
        return {"game": self.parlor.game.name, "players": self.parlor.players, "state": self.serialize()}

    def __setstate__(self, data: dict[str, Any]) -> None:
        game = pyspiel.load_game(SHORT_NAMES[data["game"]], {"players": data["players"]})
        pyspiel.State.__init__(self, game)
        self.parlor = games.get(data["game"]).load_state(data["state"])

    def __str__(self) -> str:
        return encoding(self.parlor.game).information_state(self.parlor, self.parlor.to_move[0]) if (
            self.parlor.to_move
        ) else str(self.parlor.result().to_json())


class ParlorObserver:
    """Both OpenSpiel observation kinds are the seat's encoding (its view with recall)."""

    def __init__(self, game: ParlorGame) -> None:
        self.encoding = encoding(game.parlor)
        self.tensor = np.zeros(self.encoding.LAYOUT.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ParlorSpielState, player: int) -> None:
        self.encoding.encode(state.parlor, player, self.tensor)

    def string_from(self, state: ParlorSpielState, player: int) -> str:
        return self.encoding.information_state(state.parlor, player)


class ParlorSpielBot(pyspiel.Bot):
    """A Parlor bot (any bot spec: ``hard``, ``medium``, ``file.py:Class`` ...) as a pyspiel bot."""

    def __init__(self, game: ParlorGame, player: int, spec: str = "hard", seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        from parlor.bots import make_bot

        self.player = player
        self.bot = make_bot(spec, game.parlor, seed)

    def step(self, state: ParlorSpielState) -> int:
        action = self.bot.choose(state.parlor, self.player)
        return state.parlor.game.action_id(action)

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass


_REGISTERED = False


def register() -> None:
    """Register the three games with pyspiel (once; calling again is harmless)."""
    global _REGISTERED
    if _REGISTERED:
        return
    for name, short in SHORT_NAMES.items():
        cls = type(f"Parlor{short.title().replace('_', '')}", (ParlorGame,), {"parlor_name": name})
        pyspiel.register_game(_game_type(name), cls)
    _REGISTERED = True
