"""The three games as OpenSpiel Python games (extra ``[rl]``).

``register()`` registers ``parlor_mamma_mia``, ``parlor_sweet_nose`` and ``parlor_mottainai``
with pyspiel; then ``pyspiel.load_game("parlor_sweet_nose", {"players": 4, "seed": 7})``.

- **Imperfect information, sequential.** The current player is the lowest seat the game
  waits for; Sweet Nose's secret sweetness phase is played as sub-turns (each seat sees its
  own information state, in which the others' placed cards stay hidden).
- **Chance lives in the state** (``chance="deterministic"``, the default). Every shuffle and
  draw comes from the Parlor state's own seeded generator, which is part of the state
  (``serialize`` carries it), so a state and an action fix the next state: OpenSpiel's chance
  mode ``DETERMINISTIC``. The deal is the game's ``seed`` parameter, advanced by one for each
  ``new_initial_state()`` that is read (OpenSpiel's clones call it too, and neither deal nor
  use a seed), so sampling algorithms (outcome-sampling MCCFR, IS-MCTS, RL) meet a new deal
  every episode. ``SAMPLED_STOCHASTIC`` would need a game-level RNG state, which OpenSpiel
  cannot ask a Python game for (``GetRNGState`` is C++-only), so ``serialize_game_and_state``
  failed with it.
- **Explicit chance** (``chance="explicit"``, ``EXPLICIT_STOCHASTIC``): every uniform draw the
  rules make (a shuffle is its Fisher-Yates draws) is a chance node with outcomes
  ``0 .. n-1``, each ``1/n`` (``parlor.rl.chance``: the generator takes its draws from a
  script and stops the rules where the script runs out). The root is the deal's first draw.
  ``serialize`` is then the action history, chance outcomes included.
- ``options``: the game's options as a JSON object in text (``""``: the defaults).
- ``variant="tiny"``: a position small enough for exact solving (``parlor.rl.tiny``, one per
  game), with its own table size and options; Sweet Nose's also offers fewer sweetness
  placements than the rules allow (the variant's ``allow``).
- **Perfect recall by construction.** The information state of a seat (string and tensor) is
  its view with recall (the game's encoding, docs/rl.md) *plus the seat's own decisions so
  far*: the string ends with the action ids the seat has played, in order; the tensor ends
  with one float, the number of those decisions. So every decision of a seat changes its
  information state, whatever a card does to the view, and two histories with the same
  string agree on the seat's whole past. ``tests/rl/test_recall.py`` checks it on positions
  built to reach every card effect. The observation (``observation_string`` /
  ``observation_tensor``) is the view alone.
- ``resample_from_infostate(player, sampler)`` is ``state.determinize(player, rng)`` with the
  rng seeded from the sampler; the player keeps its own decisions, the other seats' decisions
  are kept as that many unknown entries (how many each seat took is public: ``to_move`` is).
- ``serialize()`` / ``game.deserialize_state(text)`` and pickling carry the whole Parlor state
  (``to_json``, RNG included).
- Returns: as in ``parlor.rl.rewards.return_of`` (+1 first ... -1 last); with the game
  parameter ``reward="score_margin"`` (and ``reward_scale``, 0.0 for the game's default) the
  score margin over the best other seat divided by the scale, clipped to [-1, 1] (the
  utility range the game declares).
"""

from __future__ import annotations

import json
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import orjson
import pyspiel

from parlor import games
from parlor.core.actions import Action
from parlor.core.game import Game, State
from parlor.core.rng import Rng
from parlor.rl import encoding
from parlor.rl.chance import try_apply, try_deal, try_deal_with
from parlor.rl.native import action_ids
from parlor.rl.rewards import reward_function
from parlor.rl.tensor import information_state_string
from parlor.rl.tiny import VARIANTS, TinyVariant

SHORT_NAMES = {"mamma-mia": "parlor_mamma_mia", "sweet-nose": "parlor_sweet_nose", "mottainai": "parlor_mottainai"}
MAX_GAME_LENGTH = 5000  # decisions; no real game comes near it
UNKNOWN_ACTION = -1  # another seat's decision in a resampled world: that it was taken is public, not which
OWN_DECISIONS_SCALE = 100.0  # the information-state tensor's last float: own decisions so far / this
_CHANCE = pyspiel.PlayerId.CHANCE
_TERMINAL = pyspiel.PlayerId.TERMINAL


CHANCE_MODES = ("deterministic", "explicit")
# Explicit chance: the largest bound of one draw (a shuffle's first draw is the deck size:
# 6-player Mottainai's two decks, 108 cards, are the largest). A larger draw is a clear error.
MAX_CHANCE_OUTCOMES = 128


def _game_type(name: str, chance: str = "deterministic") -> pyspiel.GameType:
    game = games.get(name)
    mode = pyspiel.GameType.ChanceMode
    return pyspiel.GameType(
        short_name=SHORT_NAMES[name],
        long_name=f"Parlor {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=mode.EXPLICIT_STOCHASTIC if chance == "explicit" else mode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": game.min_players,
            "seed": 0,
            "reward": "rank",
            "reward_scale": 0.0,
            "chance": "deterministic",
            "options": "",
            "variant": "",
        },
    )


class ParlorGame(pyspiel.Game):
    parlor_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.parlor = games.get(self.parlor_name)
        params = dict(params or {})
        tiny_players = (
            VARIANTS[self.parlor.name].players
            if params.get("variant") == "tiny" and self.parlor.name in VARIANTS
            else None
        )
        players = int(params.get("players", tiny_players or self.parlor.min_players))
        self.parlor.check_players(players)
        self._seed = int(params.get("seed", 0))
        self.reward = str(params.get("reward", "rank"))
        reward_scale = float(params.get("reward_scale", 0.0))
        # 0.0 stands for "the game's default scale" (OpenSpiel parameters have no None)
        payout = reward_function(self.parlor, self.reward, reward_scale or None)
        if self.reward == "rank":
            self.final_rewards = payout
        else:  # the game declares its utility range as [-1, 1]: the margin is clipped into it
            self.final_rewards = lambda st: [max(-1.0, min(1.0, m)) for m in payout(st)]
        self.chance = str(params.get("chance", "deterministic"))
        if self.chance not in CHANCE_MODES:
            raise ValueError(f"chance must be 'deterministic' or 'explicit', got {self.chance!r}")
        # the game's options as a JSON object (OpenSpiel parameters are flat): "" = the defaults
        options_text = str(params.get("options", ""))
        try:
            options_json = json.loads(options_text) if options_text else {}
        except json.JSONDecodeError as exc:
            raise ValueError(f"options must be a JSON object of the game's options: {exc}") from None
        if not isinstance(options_json, dict):
            raise ValueError(f"options must be a JSON object of the game's options, got {options_text!r}")
        self.variant = str(params.get("variant", ""))
        self.tiny: TinyVariant | None = None
        if self.variant:
            self.tiny = VARIANTS.get(self.parlor.name) if self.variant == "tiny" else None
            if self.tiny is None:
                known = "'tiny'" if self.parlor.name in VARIANTS else "none for this game yet"
                raise ValueError(f"unknown variant {self.variant!r} of {self.parlor.name} (variants: {known})")
            if players != self.tiny.players or options_json:
                raise ValueError(f"the tiny variant is {self.tiny.players} players with its own options")
        self.options = self.parlor.options_for(players, options_json)
        self.parlor.check_players(players, self.options)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.parlor.num_actions,
            max_chance_outcomes=MAX_CHANCE_OUTCOMES if self.chance == "explicit" else 0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(
            _game_type(self.parlor_name, self.chance),
            info,
            {
                "players": players,
                "seed": self._seed,
                "reward": self.reward,
                "reward_scale": reward_scale,
                "chance": self.chance,
                "options": options_text,
                "variant": self.variant,
            },
        )
        self.players = players
        self._next = 0
        self.tables = _Tables(self.parlor, self.tiny.allow if self.tiny else None, self.chance == "explicit")

    def new_initial_state(self, parlor_state: State | None = None) -> "ParlorSpielState":
        # Without a state, the deal is made when the state is first read: OpenSpiel clones a
        # Python state by calling this and then copying the original's attributes over, and
        # dealing there would cost a whole setup per clone and use up a deal seed.
        if self.chance == "explicit" and parlor_state is None:
            return ParlorSpielState(self, None, chance=_Chance(None, -1, -1, ()))
        return ParlorSpielState(self, parlor_state)

    def _next_deal(self) -> State:
        seed = self._seed + self._next
        self._next += 1
        if self.tiny is not None:
            return self.tiny.deal(Rng(seed))
        return self.parlor.new_game(self.players, seed, self.options)

    def deserialize_state(self, text: str) -> "ParlorSpielState":
        if self.chance == "explicit":  # the history of actions, chance outcomes included
            state = self.new_initial_state()
            for action in json.loads(text)["history"]:
                state.apply_action(int(action))
            return state
        return ParlorSpielState(self, self.parlor.load_state(text))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "ParlorObserver":
        # OpenSpiel asks for the information state with ``perfect_recall=True``; the
        # observation (``None`` or ``perfect_recall=False``) is the view alone.
        return ParlorObserver(self, recall=bool(iig_obs_type is not None and iig_obs_type.perfect_recall))


class _Tables:
    """What every state of one game reads at each step, held by the states (``get_game()`` is a
    call into C++). Copied as itself: OpenSpiel clones a Python state by deep-copying its
    attributes, and copying ``action_ids`` (thousands of entries) made every clone slow."""

    def __init__(self, parlor: Game, allow: Callable[[Action], bool] | None, explicit: bool) -> None:
        # id(action) -> action id for the engine's prebuilt actions: legal actions are those
        # objects, so listing their ids needs no hashing of dataclasses (parlor.rl.native)
        self.action_ids = action_ids(parlor)
        # the action ids a tiny variant offers when they are legal (None: every legal action)
        self.allowed = None if allow is None else frozenset(i for i, a in enumerate(parlor.actions.actions) if allow(a))
        self.explicit = explicit  # chance="explicit"

    def __deepcopy__(self, memo: Any) -> "_Tables":
        return self


def _own_decisions(parlor_state: State) -> list[tuple[int, ...]]:
    """Each seat's decisions (action ids, in order) read from the engine's history."""
    game = parlor_state.game
    own: list[list[int]] = [[] for _ in range(parlor_state.players)]
    for seat, action in parlor_state.history():
        own[seat].append(game.action_id(action))
    return [tuple(ids) for ids in own]


class _Undealt:
    """The table of a deal's chance node (explicit mode): made on demand, copied as itself."""

    def __deepcopy__(self, memo: Any) -> "_Undealt":
        return self


_UNDEALT = _Undealt()


class _PendingDeal:
    """The game's next deal, made the first time the state (or a copy of it) is read.

    A copy (``copy.deepcopy``, as OpenSpiel's clone does) makes the deal and shares it with
    the original, so a state and its clone always hold the same cards.
    """

    def __init__(self, game: ParlorGame) -> None:
        self.game = game
        self.state: State | None = None

    def get(self) -> State:
        if self.state is None:
            self.state = self.game._next_deal()
        return self.state

    def __deepcopy__(self, memo: Any) -> State:
        return self.get().clone()


@dataclass(frozen=True, slots=True)
class _Chance:
    """A chance node of the explicit mode: the draws chosen so far for one deal or decision.

    ``seat`` -1 is the deal (``base`` None); otherwise ``seat`` played ``action`` (an id) in
    ``base``, the state before it. ``bound``: the next draw is uniform over ``0 .. bound-1``
    (-1: not known yet, found on first use).
    """

    base: State | None
    seat: int
    action: int
    outcomes: tuple[int, ...]
    bound: int = -1


class ParlorSpielState(pyspiel.State):
    def __init__(
        self,
        game: ParlorGame,
        parlor_state: State | None,
        own: list[tuple[int, ...]] | None = None,
        chance: _Chance | None = None,
        own_text: list[str] | None = None,
    ) -> None:
        super().__init__(game)
        # explicit chance mode: the pending draws; None at a decision or the end
        self._chance = chance
        if chance is not None and chance.bound < 0:  # the deal: how many outcomes its first draw has
            reached = self._resolve(chance)
            if isinstance(reached, _Chance):
                self._chance = reached
            else:  # a deal without a single draw
                self._chance, parlor_state = None, reached
        elif chance is not None and chance.base is not None:
            parlor_state = chance.base
        self._parlor: State | _PendingDeal | _Undealt
        if self._chance is not None and self._chance.base is None:
            self._parlor = _UNDEALT
        else:
            self._parlor = _PendingDeal(game) if parlor_state is None else parlor_state
        # own[seat]: the action ids that seat played, in order: the part of its information
        # state that makes recall perfect whatever the view shows. Tuples, so clones share them.
        if own is None:
            own = [() for _ in range(game.players)] if parlor_state is None else _own_decisions(parlor_state)
        self.own = own
        # own_text[seat]: the same ids as the information state writes them, kept up to date
        # one decision at a time (joining the whole list at every decision made a game's
        # information states quadratic in its length)
        self.own_text = own_text if own_text is not None else [_own_text(ids) for ids in own]
        self._tables = game.tables  # bound once: get_game() is a call into C++

    @property
    def parlor(self) -> State:
        parlor = self._parlor
        if isinstance(parlor, _PendingDeal):
            parlor = self._parlor = parlor.get()
        elif parlor is _UNDEALT:  # made on demand: an undealt state cannot be cloned or copied
            return self._undealt(self.get_game())
        return parlor  # type: ignore[return-value]

    @staticmethod
    def _undealt(game: ParlorGame) -> State:
        """The table before the deal (what a deal chance node shows): no cards, nobody to move."""
        return game.parlor._new_state(game.players, 0, game.options, deal=False)  # type: ignore[attr-defined]

    def _resolve(self, chance: _Chance) -> "_Chance | State":
        """The deal or decision played with ``chance.outcomes``: the state reached, or the
        chance node of the next draw (its bound found)."""
        game = self.get_game()
        if chance.base is None and game.tiny is not None:
            reached = try_deal_with(game.tiny.deal, chance.outcomes)
        elif chance.base is None:
            reached = try_deal(game.parlor, game.players, game.options, chance.outcomes)
        else:
            move = game.parlor.action_from_id(chance.action)
            reached = try_apply(chance.base, chance.seat, move, chance.outcomes)
        if isinstance(reached, int):
            if reached > MAX_CHANCE_OUTCOMES:
                raise ValueError(
                    f"a chance draw below {reached}: more outcomes than the {MAX_CHANCE_OUTCOMES} declared"
                )
            return _Chance(chance.base, chance.seat, chance.action, chance.outcomes, reached)
        return reached

    def current_player(self) -> int:
        # Asked several times per node by the C++ solvers: the common case first.
        if self._chance is not None:
            return _CHANCE
        parlor = self._parlor
        if type(parlor) is _PendingDeal:
            parlor = self.parlor
        if parlor.is_over:  # type: ignore[union-attr]
            return _TERMINAL
        return parlor.to_move[0]  # type: ignore[union-attr]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next draw's outcomes, each equally likely (explicit chance mode only)."""
        chance = self._chance
        if chance is None:
            return []
        return [(k, 1.0 / chance.bound) for k in range(chance.bound)]

    def _legal_actions(self, player: int) -> list[int]:
        if self._chance is not None:
            return list(range(self._chance.bound))
        parlor = self.parlor
        tables = self._tables
        ids = tables.action_ids
        out = [ids.get(id(a), -1) for a in parlor.legal_actions(player)]
        if -1 in out:  # an action that is not a prebuilt object (no engine makes one): hash it
            out = [parlor.game.action_id(a) for a in parlor.legal_actions(player)]
        allowed = tables.allowed
        if allowed is not None:  # a tiny variant that narrows a choice (parlor.rl.tiny)
            out = [i for i in out if i in allowed]
        out.sort()
        return out

    def _apply_action(self, action: int) -> None:
        action = int(action)
        chance = self._chance
        if chance is not None:
            if not 0 <= action < chance.bound:
                raise ValueError(f"chance outcome {action} is not below {chance.bound}")
            self._advance(_Chance(chance.base, chance.seat, chance.action, (*chance.outcomes, action)))
            return
        parlor = self.parlor
        seat = parlor.to_move[0]
        allowed = self._tables.allowed
        if allowed is not None and action not in allowed:
            raise ValueError(f"{parlor.game.action_from_id(action)} is not one of the tiny variant's decisions")
        if self._tables.explicit:  # played on a clone: a draw may stop it half-way
            self._advance(_Chance(parlor, seat, action, ()))
        else:
            parlor.apply(seat, parlor.game.action_from_id(action))
        own = list(self.own)
        own[seat] = own[seat] + (action,)
        self.own = own
        own_text = list(self.own_text)
        own_text[seat] = f"{own_text[seat]},{action}" if own_text[seat] else str(action)
        self.own_text = own_text

    def _advance(self, chance: _Chance) -> None:
        reached = self._resolve(chance)
        if isinstance(reached, _Chance):
            self._chance = reached
        else:
            self._chance = None
            self._parlor = reached

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.parlor.game.action_from_id(int(action)))

    def is_terminal(self) -> bool:
        return self._chance is None and self.parlor.is_over

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.parlor.players
        return self.get_game().final_rewards(self.parlor)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "ParlorSpielState":
        rng = Rng(int(probability_sampler() * (1 << 62)))
        own = [ids if seat == player_id else (UNKNOWN_ACTION,) * len(ids) for seat, ids in enumerate(self.own)]
        return ParlorSpielState(self.get_game(), self.parlor.determinize(player_id, rng), own)

    def clone(self) -> "ParlorSpielState":
        _warn_if_mcts_clone()
        if self._chance is not None:  # a chance node's states are never changed in place
            return ParlorSpielState(self.get_game(), None, list(self.own), self._chance, list(self.own_text))
        return ParlorSpielState(self.get_game(), self.parlor.clone(), list(self.own), own_text=list(self.own_text))

    def __deepcopy__(self, memo: Any) -> "ParlorSpielState":
        return self.clone()

    def serialize(self) -> str:
        if self.get_game().chance == "explicit":  # the chance outcomes are not in the Parlor state
            return json.dumps({"history": self.history()})
        return self.parlor.to_json_text()

    def __getstate__(self) -> dict[str, Any]:
        game = self.get_game()
        return {"game": game.parlor.name, "params": game.get_parameters(), "state": self.serialize()}

    def __setstate__(self, data: dict[str, Any]) -> None:
        game = pyspiel.load_game(SHORT_NAMES[data["game"]], data["params"])
        pyspiel.State.__init__(self, game)
        self._tables = game.tables
        if game.chance == "explicit":
            copy = game.deserialize_state(data["state"])
            self._parlor, self.own, self._chance = copy._parlor, copy.own, copy._chance
            self.own_text = copy.own_text
            return
        self._parlor = games.get(data["game"]).load_state(data["state"])
        self.own = _own_decisions(self.parlor)
        self.own_text = [_own_text(ids) for ids in self.own]
        self._chance = None

    def __str__(self) -> str:
        chance = self._chance
        if chance is not None:
            what = "the deal" if chance.seat < 0 else f"seat {chance.seat}'s action {chance.action}"
            return f"chance: draws of {what} so far {list(chance.outcomes)}, next below {chance.bound}"
        return (
            encoding(self.parlor.game).information_state(self.parlor, self.parlor.to_move[0])
            if (self.parlor.to_move)
            else str(self.parlor.result().to_json())
        )


def _before_deal(state: ParlorSpielState) -> bool:
    """Explicit chance mode, at a draw of the deal: the table is not set up yet."""
    chance = state._chance
    return chance is not None and chance.base is None


class ParlorObserver:
    """The seat's encoding (its view with recall); with ``recall`` also its own decisions.

    The information state (``recall=True``): the string is the view's text, then
    ``" | own:"`` and the seat's action ids in order (``?`` for a decision of a resampled
    world's other seat); the tensor is the view's tensor, then one float, the seat's
    decisions so far divided by ``OWN_DECISIONS_SCALE``.
    """

    def __init__(self, game: ParlorGame, recall: bool = True) -> None:
        self.encoding = encoding(game.parlor)
        self.recall = recall
        size = self.encoding.LAYOUT.size
        self.tensor = np.zeros(size + 1 if recall else size, np.float32)
        self._view_part = self.tensor[:size]
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ParlorSpielState, player: int) -> None:
        if _before_deal(state):  # nothing on the table yet
            self.tensor.fill(0.0)
            return
        self.encoding.encode(state.parlor, player, self._view_part)
        if self.recall:
            self.tensor[-1] = len(state.own[player]) / OWN_DECISIONS_SCALE

    def string_from(self, state: ParlorSpielState, player: int) -> str:
        if _before_deal(state):
            return "before the deal"
        text = _view_text(state.parlor, player)
        if not self.recall:
            return text
        return f"{text} | own:{state.own_text[player]}"


def _view_text(parlor_state: State, seat: int) -> str:
    """``information_state(parlor_state, seat)`` of the game's encoding, the same text made by
    orjson (a server dependency already): the JSON encoding was most of the cost of an
    information state, which the C++ solvers ask for at every decision.
    ``tests/rl/test_openspiel.py`` checks the two agree."""
    view = parlor_state.view(seat, recall=True)
    try:
        return orjson.dumps(view, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:  # something orjson does not write as json does (a key that is not a str)
        return information_state_string(view)


def _own_text(ids: tuple[int, ...]) -> str:
    """A seat's decisions as its information state ends: ids, ``?`` for an unknown one."""
    return ",".join("?" if a == UNKNOWN_ACTION else str(a) for a in ids)


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


_MCTS_WARNED = False


def _warn_if_mcts_clone() -> None:
    """Warn once per process when OpenSpiel's plain MCTS clones a state.

    ``open_spiel.python.algorithms.mcts.MCTSBot`` searches clones of the true state, so its
    playouts see every hidden card: strong-looking play that a seat could not reproduce at a
    real table. It is recognised by its caller (a method of that class cloning); IS-MCTS and
    the MCCFR solvers resample or clone without reading hidden cards, and are not warned about.
    Only the Python MCTS is covered: the C++ ``MCTSBot`` does not run on Python games.
    """
    global _MCTS_WARNED
    if _MCTS_WARNED:
        return
    try:
        frame = sys._getframe(2)  # the frame that called ``clone``
    except ValueError:  # called from C++ with no Python caller
        return
    if frame.f_globals.get("__name__") != _MCTS_MODULE:
        return
    # The module's rollout evaluator clones too, for IS-MCTS as well (a resampled world):
    # only a clone made by an MCTSBot method is one of the true state.
    bot_class = frame.f_globals.get("MCTSBot")
    if bot_class is None or not isinstance(frame.f_locals.get("self"), bot_class):
        return
    _MCTS_WARNED = True
    warnings.warn(
        "OpenSpiel's MCTSBot searches clones of the true state, so it sees the other seats' hidden cards; "
        "use IS-MCTS (open_spiel.python.algorithms.ismcts) for play a seat could reproduce",
        ParlorHiddenInformationWarning,
        stacklevel=3,
    )


class ParlorHiddenInformationWarning(UserWarning):
    """An algorithm is reading hidden information through the true state."""


_MCTS_MODULE = "open_spiel.python.algorithms.mcts"
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
