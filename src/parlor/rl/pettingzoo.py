"""PettingZoo environments for the three games (extra ``[rl]``).

``env(game, players=…, options=…, render_mode=None)`` is an AEC env: agents
``player_0`` … ``player_{n-1}`` (seat numbers), observation ``{"observation": float32 tensor
of the game's encoding, "action_mask": int8 mask over game.num_actions}``, action = the
game's action id. The agent selected is the lowest seat the game waits for; in Sweet Nose's
secret sweetness phase (several seats to move) that makes one sub-turn per seat, and each
seat's observation comes from its own view, in which the others' placed cards stay face
down until the phase resolves — so nothing leaks between sub-turns.

Rewards are 0 until the game ends; then each seat receives its **return**
``1 - 2 * (place - 1) / (players - 1)``: +1 for first place, -1 for last, evenly spaced in
between, tied seats sharing their place (``return_of``). With ``reward="score_margin"`` it is
instead ``(own score - best other score) / reward_scale`` in the game's direction
(``parlor.rl.rewards``). There is no truncation: every game ends by its rules.

``env.parlor`` is the Parlor state being played. ``env.state()`` (and ``state_space``) is
PettingZoo's global state for centralized critics: **privileged**, every seat's observation
(so every hidden hand) and the top of the face-down stacks (``parlor.rl.privileged``); for
training critics, never for a policy that is to play.

An action id outside the mask is never played. With ``illegal_action="lose"`` (the default,
as in the Gymnasium env, so that exploring or PettingZoo's own seed tests, which sample
unmasked actions, cannot crash a run) the game ends there: the seat that chose it gets -1,
every other seat 0, all agents terminate, and that seat's info has ``illegal_action=True``;
the Parlor state stays as it was. ``illegal_action="raise"`` raises ``IllegalAction``
instead, and changes nothing.

``render_mode="ansi"``: ``render()`` returns the spectator's text view; ``"human"`` prints it.

``parallel_env(...)`` (Sweet Nose has simultaneous steps; offered for every game) is the
same game as a ParallelEnv: each step takes one action per live agent; the actions of
agents that are not to move (their mask is all zero) are ignored, and the seats to move act
in seat order, each from its own view.

**Observations are written when read.** Each agent's observation is an
:class:`Observation`: a ``dict`` ``{"observation", "action_mask"}`` whose entries are written
from the state the first time they are read (then kept), so a loop that reads only the masks,
or only the agents it acts for, does not pay for the rest (the parallel env would otherwise
write every seat's observation at every step). They show the state as it was when they were
handed out, however late they are read: when a step changes the state, the observations
not yet fully read keep their place in a journal (a copy of the state taken at most
``REPLAY_SPAN`` steps earlier and the moves played since) and a late read rebuilds their
state from it, once for all of them. The arrays are fresh, owned by
the caller; nothing overwrites them. (The env's state changes only through ``step``; code
that applies moves to ``env.parlor`` itself bypasses this.) ``lazy_observations=False``
writes everything at once, as plain dicts.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from parlor import games
from parlor.core.errors import IllegalAction
from parlor.core.game import Game, State
from parlor.rl import encoding, native
from parlor.rl.privileged import PrivilegedState
from parlor.rl.rewards import REWARDS, return_of, reward_function

__all__ = [
    "REWARDS",
    "Observation",
    "ParlorAECEnv",
    "ParlorParallelEnv",
    "env",
    "parallel_env",
    "return_of",
]

OBS_HIGH = 16.0  # every slice is scaled so its values stay well under this


def legal_move(state: State, seat: int, action: Any) -> Any:
    """The action object of id ``action`` if ``seat`` may play it now, else None.

    The engine's legal actions are the action space's own objects, so legality is an identity
    test against a short list: no dataclass comparisons, no hashing (every env step asks)."""
    try:
        aid = int(action)
    except (TypeError, ValueError):
        return None
    actions = state.game.actions.actions
    if not 0 <= aid < len(actions):
        return None
    move = actions[aid]
    return move if native.is_legal(state, seat, move) else None


OBSERVATION_KEYS = ("observation", "action_mask")
_INT8 = np.dtype(np.int8)  # a mask's dtype, as the object (a name is parsed at every np.zeros)


# The journal of moves since a copy of the state, the moment observations read from, and the
# env's pair of them: compiled classes (``native``), so that the step, compiled too, reaches them
# directly.
REPLAY_SPAN = native.REPLAY_SPAN
Journal = native.Journal
Moment = native.Moment
Timeline = native.Timeline


class Observation(dict):
    """One agent's observation, ``{"observation": float32, "action_mask": int8}``, each entry
    written when first read, from the state as it was when the observation was handed out.

    A ``dict`` subclass, so spaces and PettingZoo's checks take it as the plain dict it stands
    for: every way of reading it (``[]``, ``get``, iteration, ``items``, ``copy``, ``==``,
    ``dict(...)``, pickling) sees both keys. Encoding is most of an env step's cost and most
    loops read only part of it (the masks, the agents they act for), so nothing is written
    before it is asked for. The env's state changes in place at the next step: an observation
    read after that reads the state of its :class:`Moment`, rebuilt from a copy taken at most
    ``REPLAY_SPAN`` steps earlier and the moves played since, so reading late gives the same
    bytes as reading at once. Once both entries are written the moment is let go."""

    __slots__ = ("_moment", "_seat")

    # No ``__init__``: made by ``native.new_observation(Observation, moment, seat)`` (and inline
    # in the parallel step), which calls the class with no argument (dict's own ``__new__`` and
    # ``__init__``, no Python call: the parallel env makes one per seat at every step) and
    # stores the two slots. (A seat not to move gets its all-zero mask when it is read, without
    # asking the rules: ``Encoder.action_mask``; most of those are never read.)
    _moment: Moment | None
    _seat: int

    def __missing__(self, key: str) -> np.ndarray:
        # the one way an entry gets written (``[]`` on a missing key, and every method below):
        # one compiled call (``native.observation_entry``; a loop reads a mask at every step)
        return native.observation_entry(self, key, self._moment, self._seat, np.zeros, _INT8)  # type: ignore[arg-type]

    def _fill(self) -> None:
        for key in OBSERVATION_KEYS:
            if not dict.__contains__(self, key):
                self.__missing__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        return self[key] if key in OBSERVATION_KEYS else dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        return key in OBSERVATION_KEYS or dict.__contains__(self, key)

    def __len__(self) -> int:
        self._fill()
        return dict.__len__(self)

    def __iter__(self) -> Any:
        self._fill()
        return dict.__iter__(self)

    def keys(self) -> Any:
        self._fill()
        return dict.keys(self)

    def values(self) -> Any:
        self._fill()
        return dict.values(self)

    def items(self) -> Any:
        self._fill()
        return dict.items(self)

    def copy(self) -> dict[str, np.ndarray]:
        self._fill()
        return dict(dict.items(self))

    def __eq__(self, other: object) -> bool:
        self._fill()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        self._fill()
        return dict.__ne__(self, other)

    __hash__ = None  # type: ignore[assignment]  # a dict: unhashable

    def __repr__(self) -> str:
        self._fill()
        return dict.__repr__(self)

    def __reduce__(self) -> Any:  # pickles (and deep-copies) as the plain dict it stands for
        return (dict, (self.copy(),))


def agent_name(seat: int) -> str:
    return f"player_{seat}"


RENDER_MODES = ["ansi", "human"]
ILLEGAL_ACTION_POLICIES = ("lose", "raise")


def check_render_and_illegal(render_mode: str | None, illegal_action: str) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
    if illegal_action not in ILLEGAL_ACTION_POLICIES:
        raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")


class _Table:
    """What both env kinds share: the game, the state, spaces, observations and rendering."""

    metadata = {"render_modes": RENDER_MODES, "is_parallelizable": True}

    def _setup(
        self,
        game: str | Game,
        players: int | None,
        options: Any,
        render_mode: str | None,
        illegal_action: str,
        reward: str,
        reward_scale: float | None,
        lazy_observations: bool,
    ) -> None:
        self.game = games.get(game) if isinstance(game, str) else game
        self.players = self.game.check_players(players if players is not None else self.game.min_players)
        self.options = self.game.options_from_json(options) if isinstance(options, dict) else options
        check_render_and_illegal(render_mode, illegal_action)
        self.final_rewards = reward_function(self.game, reward, reward_scale)
        self.reward = reward
        self.privileged = PrivilegedState(self.game, self.players)
        self.state_space = spaces.Box(0.0, OBS_HIGH, (self.privileged.size,), np.float32)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.encoding = encoding(self.game)
        self._space = self.game.actions.actions  # action id -> the action object the rules hand out
        self.metadata = {**self.metadata, "name": f"parlor_{self.game.name.replace('-', '_')}_v0"}
        self.possible_agents = [agent_name(s) for s in range(self.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        size = self.encoding.LAYOUT.size
        space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, OBS_HIGH, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.game.num_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents}
        self._next_seed: int | None = None
        self.parlor: State | None = None
        self.lazy_observations = lazy_observations
        # what observations handed out now read from, and the moves since a copy of the state
        # (while observations are unread)
        self._timeline: Timeline | None = None

    def state(self) -> np.ndarray:
        """The privileged state for a centralized critic: every seat's observation, hidden
        cards included, and the top of the face-down stacks (``parlor.rl.privileged``).
        Never give it to a policy that is to play a real table."""
        if self.parlor is None:
            raise RuntimeError("call reset() before state()")
        return self.privileged.encode(self.parlor)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _new_state(self, seed: int | None) -> State:
        if seed is None:
            # no seed: a fresh one from the OS, so unseeded resets differ
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        options = self.options if self.options is not None else self.game.default_options(self.players)
        return self.game.new_game(self.players, seed, options)

    def _new_moment(self) -> None:
        """A new state object (reset): observations of the old one keep it, it never changes."""
        self._timeline = Timeline(self.parlor, self.encoding.ENCODER)  # type: ignore[arg-type]

    def _observe_seat(self, seat: int) -> dict[str, np.ndarray]:
        if self.lazy_observations:
            return native.new_observation(Observation, self._timeline.moment, seat)  # type: ignore[union-attr,no-any-return]
        encoder = self.encoding.ENCODER  # the game's encoding.encode / action_mask, one call less
        return {"observation": encoder.encode(self.parlor, seat), "action_mask": encoder.action_mask(self.parlor, seat)}

    def _legal_move(self, seat: int, action: Any) -> Any:
        """The action of id ``action`` if ``seat`` may play it now, else None (or raise, by policy)."""
        move = legal_move(self.parlor, seat, action)  # type: ignore[arg-type]
        if move is None and self.illegal_action == "raise":
            raise IllegalAction(f"action id {action!r} is not a legal action for seat {seat} now")
        return move

    def render(self) -> str | None:
        if self.render_mode is None or self.parlor is None:
            return None
        text = render_text(self.parlor)
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    def close(self) -> None:
        pass


def render_text(state: State, seat: int | None = None) -> str:
    """The terminal text of ``games/<game>/text.py`` for ``seat``'s view (None: a spectator's), ANSI coloured."""
    import importlib
    import io

    from rich.console import Console

    text = importlib.import_module(f"parlor.games.{state.game.name.replace('-', '_')}.text")
    view = state.view(seat)
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100, color_system="standard")
    console.print(text.render_view(view))
    if state.is_over:
        console.print(text.render_result(view))
    return out.getvalue()


class ParlorAECEnv(_Table, AECEnv):
    """One Parlor game as a PettingZoo AEC env (see the module docstring)."""

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        options: Any = None,
        render_mode: str | None = None,
        illegal_action: str = "lose",
        reward: str = "rank",
        reward_scale: float | None = None,
        lazy_observations: bool = True,
    ) -> None:
        AECEnv.__init__(self)
        self._setup(game, players, options, render_mode, illegal_action, reward, reward_scale, lazy_observations)
        self.agents: list[str] = []
        self._forfeited = False

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.parlor = self._new_state(seed)
        self._new_moment()
        self._forfeited = False
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        state = self.parlor
        assert state is not None
        if state.is_over or self._forfeited:
            self.agent_selection = next(a for a in self.agents if self.terminations[a])
        else:
            self.agent_selection = self.possible_agents[state.to_move[0]]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self.lazy_observations:  # the hot path (``last()`` at every decision), compiled
            return native.new_observation(Observation, self._timeline.moment, self._seat[agent])  # type: ignore[union-attr]
        return self._observe_seat(self._seat[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            if self.agents:
                self._select()
            return
        state = self.parlor
        assert state is not None
        self._cumulative_rewards[agent] = 0.0
        seat = self._seat[agent]
        timeline = self._timeline
        assert timeline is not None
        # a plain int in range is the usual case (an identity scan of the legal actions);
        # anything else goes the long way round (conversion, the error by policy)
        move = native.checked_move(timeline.moment, state, seat, action, self._space)
        if move is None:
            move = self._legal_move(seat, action)
        if move is None:  # illegal_action="lose": the game ends here, the state as it was
            self.rewards = {a: 0.0 for a in self.agents}
            self._forfeited = True
            self.rewards[agent] = -1.0
            self.infos[agent] = {**self.infos[agent], "illegal_action": True}
            for a in self.agents:
                self.terminations[a] = True
            self._accumulate_rewards()
            self._select()
            return
        # the moment kept for unread observations, the move played and journaled: compiled
        native.aec_play(timeline, state, seat, move)
        if state.is_over:
            self.rewards = dict(zip(self.possible_agents, self.final_rewards(state)))
            for a in self.agents:
                self.terminations[a] = True
            self._accumulate_rewards()
            self._select()
        else:
            # every reward is 0 (terminal rewards only), as it has been since reset: rewards and
            # cumulative rewards need no rebuilding on the way (the hot path of every step)
            self.agent_selection = self.possible_agents[state.to_move[0]]


class ParlorParallelEnv(_Table, ParallelEnv):
    """One Parlor game as a PettingZoo ParallelEnv (see the module docstring)."""

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        options: Any = None,
        render_mode: str | None = None,
        illegal_action: str = "lose",
        reward: str = "rank",
        reward_scale: float | None = None,
        lazy_observations: bool = True,
    ) -> None:
        self._setup(game, players, options, render_mode, illegal_action, reward, reward_scale, lazy_observations)
        self.agents: list[str] = []
        # what the compiled step reads (lazy observations, a game in play), else None
        self._fast: native.ParallelStep | None = None
        # Every agent stays live until the game ends, so a step's zero rewards and False flags
        # are always these: copying a built dict is a fraction of the cost of dict.fromkeys.
        self._zero_rewards = dict.fromkeys(self.possible_agents, 0.0)
        self._all_false = dict.fromkeys(self.possible_agents, False)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.parlor = self._new_state(seed)
        self._new_moment()
        self.agents = self.possible_agents[:]
        self._fast = None
        if self.lazy_observations:
            live = [(a, self._seat[a]) for a in self.agents]
            timeline = self._timeline
            assert timeline is not None
            self._fast = native.ParallelStep(
                self.parlor, self.possible_agents, self._space, timeline, live, Observation, self.final_rewards
            )
        return {a: self._observe_seat(self._seat[a]) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, int]) -> tuple[dict, dict, dict, dict, dict]:
        state = self.parlor
        assert state is not None
        fast = self._fast
        if fast is not None:
            # the usual step (every seat to move sent a plain int id of a legal action) is one
            # compiled call; None: it changed nothing, some action needs the long way round below
            result = native.parallel_step(fast, actions)
            if result is not None:
                if not fast.live:  # the game ended
                    self.agents = []
                    self._fast = None
                return result  # type: ignore[no-any-return]
        timeline = self._timeline
        assert timeline is not None
        moves = []
        names = self.possible_agents
        space = self._space
        moment = timeline.moment
        for seat in state.to_move:  # the seats waited for now, in seat order (a tuple: no copy)
            agent = names[seat]
            if agent not in actions:
                raise ValueError(f"no action for {agent}, who is to move")
            # all checked before any is played; a plain int in range is the usual case (an
            # identity scan of the legal actions), anything else goes the long way round
            action = actions[agent]
            move = native.checked_move(moment, state, seat, action, space)
            if move is None:
                move = self._legal_move(seat, action)
                if move is None:  # illegal_action="lose": the game ends, the state as it was
                    return self._forfeit(agent)
            moves.append((seat, move))
        if moment.pending or moment.legal is not None:
            timeline.before_change()
        for seat, move in moves:
            state.apply(seat, move)
        if timeline.journal is not None:
            timeline.journal.moves += moves
        agents = self.agents
        obs = {a: self._observe_seat(self._seat[a]) for a in agents}
        if state.is_over:
            rewards = dict(zip(names, self.final_rewards(state)))
            terminations = dict.fromkeys(agents, True)
            self.agents = []
            self._fast = None
            truncations = dict.fromkeys(agents, False)
        else:
            rewards = self._zero_rewards.copy()
            terminations = self._all_false.copy()
            truncations = self._all_false.copy()
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}  # one dict each: callers may add to theirs
        return obs, rewards, terminations, truncations, infos

    def _forfeit(self, agent: str) -> tuple[dict, dict, dict, dict, dict]:
        agents = self.agents
        obs = {a: self._observe_seat(self._seat[a]) for a in agents}
        rewards = {a: (-1.0 if a == agent else 0.0) for a in agents}
        infos: dict[str, dict[str, Any]] = {a: ({"illegal_action": True} if a == agent else {}) for a in agents}
        self.agents = []
        self._fast = None
        return obs, rewards, dict.fromkeys(agents, True), dict.fromkeys(agents, False), infos


def env(
    game: str | Game,
    players: int | None = None,
    options: Any = None,
    render_mode: str | None = None,
    illegal_action: str = "lose",
    reward: str = "rank",
    reward_scale: float | None = None,
    lazy_observations: bool = True,
) -> ParlorAECEnv:
    """The AEC env of ``game`` (a name such as ``"sweet-nose"`` or a ``Game``)."""
    return ParlorAECEnv(game, players, options, render_mode, illegal_action, reward, reward_scale, lazy_observations)


def parallel_env(
    game: str | Game,
    players: int | None = None,
    options: Any = None,
    render_mode: str | None = None,
    illegal_action: str = "lose",
    reward: str = "rank",
    reward_scale: float | None = None,
    lazy_observations: bool = True,
) -> ParlorParallelEnv:
    """The parallel env of ``game``: one action per live agent per step (see the module docstring)."""
    return ParlorParallelEnv(
        game, players, options, render_mode, illegal_action, reward, reward_scale, lazy_observations
    )
