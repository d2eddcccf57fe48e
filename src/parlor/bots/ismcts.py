"""Information-set Monte Carlo tree search (single observer, with determinization).

Cowling, Powley & Whitehouse (2012), "Information Set Monte Carlo Tree Search": one tree
over the bot's information set. Each iteration samples a determinization — a complete
state consistent with everything the bot's seat has seen, from ``state.determinize`` —
and walks the tree using only the actions legal in that sample. Children are scored with
UCB where the exploration term counts how often a child was *available* rather than how
often its parent was visited, since in a hidden-information game not every action exists
in every sample.

The bot never reads hidden state: the real state is used only to ask for a
determinization and for the bot's own legal actions.

Speed: playouts may be cut short and judged by the game's ``evaluate`` (see
``parlor.bots.search_settings``), and the search stops once the most visited move can no
longer be overtaken within the budget. docs/strength.md has the measurements.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

from mypy_extensions import mypyc_attr

from parlor.core.actions import Action
from parlor.core.game import Game, Result, State
from parlor.core.rng import FastRng, Rng

# A playout policy picks an action for ``seat`` in a (determinized) state.
Policy = Callable[[State, int, Rng | FastRng], Action]
# An evaluator scores an unfinished (determinized) state, one reward per seat in [0, 1]
# like ``rewards``, or returns None where the position cannot be judged yet.
Evaluator = Callable[[State], "list[float] | None"]
# Candidates narrow the bot's own legal actions at the root to the ones worth searching
# (a game with 120 ways to do one thing cannot spread 400 iterations over all of them).
# Called with the real state, so it must read only what the seat may know, like a bot.
Candidates = Callable[[State, int, "list[Action]"], "list[Action]"]
# A sampler replaces ``state.determinize`` with a game's own belief about the hidden parts:
# called once per decision with the real state and the seat (so, like a bot, it may read
# only what the seat knows), it returns a function that deals one determinization.
Sampler = Callable[[State, int], Callable[[Rng | FastRng], State]]
# A refinement corrects ``evaluate``'s judgement of a leaf (a learned evaluator blended in):
# called once per leaf, only where ``evaluate`` judged the position, with its values. Kept apart
# from ``evaluate`` because that one is asked at every playout step until it judges (Mamma Mia!
# and Sweet Nose judge only between rounds), and a Python-level wrapper there costs every step.
Refine = Callable[[State, "list[float]"], "list[float]"]
# A prior judges a node of the tree once, when the search creates it: the value, in [0, 1],
# for ``seat`` (the seat whose move made the node) of the sampled world just after that move.
Prior = Callable[[State, int], float]
# A move prior (a learned policy) gives the searching seat's root moves probabilities, once per
# decision: called with the real state, the seat, the root's moves and the search's generator,
# so, like a bot, it may read only what the seat knows (it judges its own sampled worlds).
RootPolicy = Callable[[State, int, "list[Action]", Rng | FastRng], "list[float]"]


def random_policy(state: State, seat: int, rng: Rng | FastRng) -> Action:
    legal = state.legal_actions(seat)
    return legal[rng.below(len(legal))]


def heuristic_policy(game: Game, *, epsilon: float = 0.0, seed: int = 0) -> Policy:
    """Playouts by the game's heuristic, with a random legal move a fraction ``epsilon`` of
    the time (so playouts still explore). The heuristic reads only the determinized
    state's view for the mover, like any bot."""
    from parlor.bots import heuristic_bot

    bot = heuristic_bot(game, seed)

    def policy(state: State, seat: int, rng: Rng | FastRng) -> Action:
        if epsilon and rng.random() < epsilon:
            legal = state.legal_actions(seat)
            return legal[rng.below(len(legal))]
        return bot.choose(state, seat)

    return policy


def rewards(state: State) -> list[float]:
    """Per-seat reward of a finished game: a share of the win, plus a little for rank."""
    return result_rewards(state.result())


def result_rewards(result: Result) -> list[float]:
    """A share of the win, plus a little for rank (so a lost game still prefers 2nd to 4th)."""
    players = len(result.places)
    win_share = 1.0 / len(result.winners)
    out = []
    for seat, place in enumerate(result.places):
        rank_score = (players - place) / (players - 1)
        out.append(0.8 * (win_share if seat in result.winners else 0.0) + 0.2 * rank_score)
    return out


def margin_rewards(scores: Sequence[float], scale: float) -> list[float]:
    """Rewards for an unfinished game judged by provisional scores: the win part is a
    logistic of the lead over the best opponent (``scale`` points of lead ≈ 73%), the rank
    part as in ``result_rewards``."""
    players = len(scores)
    out = []
    for seat, mine in enumerate(scores):
        best_other = max(s for q, s in enumerate(scores) if q != seat)
        win = 1.0 / (1.0 + math.exp((best_other - mine) / scale))
        place = 1 + sum(1 for s in scores if s > mine)
        out.append(0.8 * win + 0.2 * (players - place) / (players - 1))
    return out


class Node:
    __slots__ = ("action", "available", "children", "parent", "reward", "seat", "visits")

    def __init__(self, parent: "Node | None", action: Action | None, seat: int) -> None:
        self.parent = parent
        self.action = action
        self.seat = seat  # the seat that took ``action`` to reach this node
        # By the search's key of the action (``ISMCTSBot.key``): a small int, hashed in C.
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0


@mypyc_attr(allow_interpreted_subclasses=True)
class ISMCTSBot:
    """ISMCTS with an iteration budget (deterministic under its seed) and an optional time cap."""

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        *,
        iterations: int = 1000,
        seconds: float | None = None,
        exploration: float = 0.7,
        policy: Policy | None = None,
        max_playout_steps: int = 10_000,
        playout_depth: int | None = None,
        evaluate: Evaluator | None = None,
        candidates: Candidates | None = None,
        sampler: Sampler | None = None,
        refine: Refine | None = None,
        prior: Prior | None = None,
        prior_depth: int = 1,
        prior_visits: int = 8,
        root_policy: RootPolicy | None = None,
        puct: float = 0.0,
        name: str = "ismcts",
    ) -> None:
        self.game = game
        # The search's own fast generator; the worlds it samples get records-grade ones (fork).
        self.rng: Rng | FastRng = FastRng(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.policy = policy or random_policy
        self.max_playout_steps = max_playout_steps
        # Truncated playouts: after ``playout_depth`` steps, stop as soon as ``evaluate``
        # can judge the position. Shorter playouts buy more iterations per second.
        self.playout_depth = playout_depth if evaluate is not None else None
        self.evaluate = evaluate
        self.refine = refine if evaluate is not None else None
        self.candidates = candidates
        self.sampler = sampler
        # Progressive bias: a node created at most ``prior_depth`` moves below the root starts
        # with ``prior_visits`` virtual visits at the prior's value, so an expensive judgement
        # (a network) is paid once per node near the root instead of at every leaf.
        self.prior = prior
        self.prior_depth = prior_depth if prior is not None else 0
        self.prior_visits = prior_visits
        # A PUCT-style bonus on the root's children: ``puct * P(move) * sqrt(available) / (1 + visits)``
        # added to the UCB score, P from ``root_policy`` (AlphaZero's selection, on top of UCB so
        # that ``puct`` 0 is the plain search). It fades as a move's own visits grow.
        self.root_policy = root_policy if puct > 0 else None
        self.puct = puct
        self.root_p: dict[int, float] | None = None
        self.last_priors = 0
        self.root_moves: set[Action] | None = None
        self.root_keys: set[int] | None = None
        # The search's keys of the actions met in this decision (see ``key``).
        self.key_by_id: dict[int, int] = {}
        self.key_by_action: dict[Action, int] = {}
        self.keyed: list[Action] = []
        self.name = name
        self.last_iterations = 0

    def choose(self, state: State, seat: int) -> Action:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        self.key_by_id, self.key_by_action, self.keyed = {}, {}, []
        self.root_moves = set(self.candidates(state, seat, legal)) if self.candidates is not None else None
        self.root_keys = {self.key(a) for a in self.root_moves} if self.root_moves is not None else None
        root = Node(None, None, seat)
        self.root_p = None
        if self.root_policy is not None:
            moves = [a for a in legal if self.root_moves is None or a in self.root_moves]
            probabilities = self.root_policy(state, seat, moves, self.rng)
            self.root_p = {self.key(a): p for a, p in zip(moves, probabilities)}
        sample = self.sampler(state, seat) if self.sampler is not None else None
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        rng = self.rng
        done = 0
        self.last_priors = 0
        budget = self.iterations
        while done < budget:
            if deadline is not None and done and time.perf_counter() > deadline:
                break
            world = sample(rng) if sample is not None else state.determinize(seat, rng)
            self.iterate(root, world, seat, rng)
            done += 1
            # Stop early once no other move can catch up with the most visited one in the
            # iterations left: the answer (most visits) can no longer change.
            if done % 16 == 0 and self.decided(root, budget - done):
                break
        self.last_iterations = done
        legal_keys = {self.key(a) for a in legal}
        best = max(
            (child for k, child in root.children.items() if k in legal_keys),
            key=lambda c: (c.visits, c.reward),
            default=None,
        )
        return best.action if best is not None else legal[rng.below(len(legal))]  # type: ignore[return-value]  # children hold actions

    def key(self, action: Action) -> int:
        """The search's key of an action, the same for equal actions: the tree's dicts are keyed
        by it, since an action's own hash is Python code (a dataclass's) and a tree lookup per
        legal action per level would pay it. Games hand out prebuilt actions, so the usual case
        is one lookup by identity; the objects met are kept, so no id is reused meanwhile."""
        found = self.key_by_id.get(id(action))
        if found is not None:
            return found
        k = self.key_by_action.get(action)
        if k is None:
            k = len(self.key_by_action)
            self.key_by_action[action] = k
        self.key_by_id[id(action)] = k
        self.keyed.append(action)
        return k

    @staticmethod
    def decided(root: Node, remaining: int) -> bool:
        first = second = 0
        for child in root.children.values():
            v = child.visits
            if v > first:
                first, second = v, first
            elif v > second:
                second = v
        return first - second > remaining

    def iterate(self, root: Node, state: State, observer: int, rng: Rng | FastRng) -> None:
        node = root
        depth = 0  # of ``node`` below the root
        # Selection and expansion: descend while every legal action has been tried.
        while state.to_move:
            # In a simultaneous step the observer moves first: the root's children must be
            # its own actions, whatever the seat order.
            to_move = state.to_move
            mover = observer if observer in to_move else to_move[0]
            legal = state.legal_actions(mover)
            keys = [self.key(a) for a in legal]
            root_keys = self.root_keys
            if node is root and root_keys is not None:
                legal = [a for a, k in zip(legal, keys) if k in root_keys]
                keys = [k for k in keys if k in root_keys]
            children = node.children
            untried: list[int] = []  # indices into legal
            for i in range(len(keys)):
                child = children.get(keys[i])
                if child is None:
                    untried.append(i)
                else:
                    child.available += 1
            if untried:
                i = untried[rng.below(len(untried))]
                action = legal[i]
                child = Node(node, action, mover)
                child.available = 1
                children[keys[i]] = child
                state.apply(mover, action)
                if depth < self.prior_depth:
                    # Judged from the world that first reaches the node (the seat's own
                    # observation of it, for a network): once, then it only counts visits.
                    weight = self.prior_visits
                    child.visits = weight
                    child.reward = weight * self.prior(state, mover)  # type: ignore[misc]
                    self.last_priors += 1
                node = child
                break
            node = self.select_root(node, keys) if node is root and self.root_p is not None else self.select(node, keys)
            depth += 1
            state.apply(mover, node.action)  # type: ignore[arg-type]
        # Playout with the policy.
        steps = 0
        policy = self.policy
        cut = self.playout_depth
        values = None
        while state.to_move and steps < self.max_playout_steps:
            if cut is not None and steps >= cut:
                values = self.evaluate(state)  # type: ignore[misc]
                if values is not None:
                    if self.refine is not None:
                        values = self.refine(state, values)
                    break
            mover = state.to_move[0]
            state.apply(mover, policy(state, mover, rng))
            steps += 1
        if values is None:
            values = rewards(state) if state.is_over else [0.0] * state.players
        # Backpropagation: each node scores for the seat that chose its action.
        while node is not root and node is not None:
            node.visits += 1
            node.reward += values[node.seat]
            node = node.parent  # type: ignore[assignment]
        root.visits += 1

    def select(self, node: Node, keys: list[int]) -> Node:
        """The child, among those of the actions legal here (by key), with the best UCB score."""
        c = self.exploration
        best, best_score = None, -1.0
        children = node.children
        for k in keys:
            child = children[k]
            score = child.reward / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best  # type: ignore[return-value]

    def select_root(self, node: Node, keys: list[int]) -> Node:
        """``select`` at the root with the move prior's PUCT bonus added to each child's score."""
        c = self.exploration
        puct = self.puct
        root_p: dict[int, float] = self.root_p  # type: ignore[assignment]
        best, best_score = None, -1.0
        children = node.children
        for k in keys:
            child = children[k]
            n = child.visits
            score = (
                child.reward / n
                + c * math.sqrt(math.log(child.available) / n)
                + puct * root_p.get(k, 0.0) * math.sqrt(child.available) / (1 + n)
            )
            if score > best_score:
                best, best_score = child, score
        return best  # type: ignore[return-value]
