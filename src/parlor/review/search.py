"""The judge's search: every legal move of one seat, judged by the real ends of sampled games.

It is information-set MCTS (the algorithm of ``parlor.bots.ismcts``: one tree over the seat's
information set, a fresh determinization per iteration, UCB counting availability), changed
where a judge needs something a bot does not:

* **Playouts go to the end of the game** and are scored by the game's own result, so the
  numbers it reports are outcomes (a win share, a final score, a place), not a heuristic
  judgement of an unfinished position.
* **Every legal move is estimated.** Each root move gets at least ``min_visits`` iterations
  before UCB takes over, so even a move the search would never play has an estimate and an
  uncertainty (the standard error of its mean).
* **Then the moves that matter are measured** (``measure``): played again on fresh sampled
  worlds, a fixed number of times each, the same worlds and playout seeds for all of them.
  Exploring is adaptive, and an adaptive sampler gives few samples to a move after unlucky
  ones, so its mean for such a move leans low; a fixed, paired measurement does not, and it
  shows the difference between two moves with far less noise than two separate means.
* **The root is scored by win share**, the quantity the review reports; deeper nodes (the
  opponents' replies, the seat's later moves) use the bots' reward (a win share plus a little
  for rank) so the simulated players still care about their place in a lost game.

It reads the real state only through ``legal_actions(seat)``, ``to_move`` and
``determinize(seat, rng)``; with the games' determinizations, which depend only on what the
seat knows and on the generator, two states the seat cannot tell apart give the same numbers.

The bots' tree code is reused, not copied: ``Node``, UCB selection and the action keys come
from a helper ``ISMCTSBot`` (compiled with the engine); this module does not change how the
bots search.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from parlor.bots.ismcts import ISMCTSBot, Node, Policy, random_policy, result_rewards
from parlor.core.actions import Action
from parlor.core.game import Game, State
from parlor.core.rng import FastRng, Rng

# A playout longer than this is a bug in a game (every game ends); the iteration then counts
# as a loss for everyone, as in the bots.
MAX_PLAYOUT_STEPS = 20_000


@dataclass(slots=True)
class MoveStats:
    """The running sums of one root move's outcomes, for the observing seat."""

    action: Action
    visits: int = 0
    win: float = 0.0
    win_sq: float = 0.0
    score: float = 0.0
    score_sq: float = 0.0
    place: float = 0.0
    place_sq: float = 0.0

    def add(self, win: float, score: float, place: float) -> None:
        self.visits += 1
        self.win += win
        self.win_sq += win * win
        self.score += score
        self.score_sq += score * score
        self.place += place
        self.place_sq += place * place

    @staticmethod
    def _mean_se(total: float, squares: float, n: int) -> tuple[float, float]:
        if n == 0:
            return 0.0, math.inf
        mean = total / n
        if n < 2:
            return mean, math.inf
        variance = max(0.0, (squares - n * mean * mean) / (n - 1))
        return mean, math.sqrt(variance / n)

    def win_estimate(self) -> tuple[float, float]:
        return self._mean_se(self.win, self.win_sq, self.visits)

    def score_estimate(self) -> tuple[float, float]:
        return self._mean_se(self.score, self.score_sq, self.visits)

    def place_estimate(self) -> tuple[float, float]:
        return self._mean_se(self.place, self.place_sq, self.visits)


class JudgeSearch:
    """The search of one game's decisions: ``explore`` a decision, then ``measure`` the moves
    that matter on fresh samples (see the module docstring)."""

    def __init__(
        self,
        game: Game,
        *,
        min_visits: int = 8,
        exploration: float = 0.7,
        policy: Policy | None = None,
    ) -> None:
        self.game = game
        self.min_visits = min_visits
        self.policy = policy or random_policy
        # The bots' tree helpers: action keys and UCB selection (never its ``choose``).
        self.tree = ISMCTSBot(game, 0, exploration=exploration)
        self.root = Node(None, None, 0)

    def explore(
        self,
        state: State,
        seat: int,
        rng: FastRng,
        iterations: int,
        *,
        stop: Callable[[], bool] | None = None,
    ) -> list[MoveStats]:
        """Search ``seat``'s decision in ``state`` for ``iterations`` iterations, or one per legal
        move if there are more moves (fewer if ``stop`` says so; it is asked every 64
        iterations), in a new tree. The moves in legal order, each with a sample at least."""
        legal = state.legal_actions(seat)
        iterations = max(iterations, len(legal))
        tree = self.tree
        tree.key_by_id, tree.key_by_action, tree.keyed = {}, {}, []
        stats = {tree.key(a): MoveStats(a) for a in legal}
        self.root = root = Node(None, None, seat)
        # Every root move is measured: at least ``min_visits`` each, within the budget.
        floor = min(self.min_visits, max(1, iterations // max(1, len(legal))))
        for done in range(iterations):
            if stop is not None and done % 64 == 63 and stop():
                break
            world = state.determinize(seat, rng)
            self._iterate(root, world, seat, rng, stats, floor)
        return [stats[tree.key(a)] for a in legal]

    def most_visited(self, moves: list[MoveStats]) -> MoveStats:
        """The search's choice, as a bot's: the most visited move (then the higher win share)."""
        return max(moves, key=lambda m: (m.visits, m.win))

    def measure(
        self,
        state: State,
        seat: int,
        rng: FastRng,
        actions: list[Action],
        samples: int,
        *,
        stop: Callable[[], bool] | None = None,
    ) -> tuple[list[MoveStats], list[list[float]], list[list[float]]]:
        """Each of ``actions`` played ``samples`` times more, on fresh sampled worlds shared by
        all of them (the same world and the same playout generator's seed for each): estimates
        free of the exploration's choices, and paired, so their differences are sharp. Goes on
        in the explored tree. Returns the statistics and, per action, the win share and the final
        score of each sample (paired: sample ``i`` of every action met the same world)."""
        tree = self.tree
        keys = [tree.key(a) for a in actions]
        stats = {k: MoveStats(a) for k, a in zip(keys, actions)}
        wins: list[list[float]] = [[] for _ in actions]
        scores: list[list[float]] = [[] for _ in actions]
        for done in range(samples):
            if stop is not None and done % 32 == 31 and stop():
                break
            world = state.determinize(seat, rng)
            seed = rng.below(1 << 62)
            for k, win_column, score_column in zip(keys, wins, scores):
                # The sample's score is what this iteration added to the move's sum (scores are
                # whole numbers, so the difference is exact).
                before = stats[k].score
                win_column.append(self._iterate(self.root, world.clone(), seat, FastRng(seed), stats, 0, forced=k))
                score_column.append(stats[k].score - before)
        return [stats[k] for k in keys], wins, scores

    def _iterate(
        self,
        root: Node,
        world: State,
        observer: int,
        rng: Rng | FastRng,
        stats: dict[int, MoveStats],
        floor: int,
        forced: int = -1,
    ) -> float:
        """One iteration; its first move is ``forced`` (a key) if given. Returns the observer's win share."""
        tree = self.tree
        node = root
        first: MoveStats | None = None
        while world.to_move:
            to_move = world.to_move
            # In a simultaneous step the observer moves first: the root holds its own moves.
            mover = observer if observer in to_move else to_move[0]
            legal = world.legal_actions(mover)
            keys = [tree.key(a) for a in legal]
            children = node.children
            if node is root and forced >= 0:
                for k in keys:
                    child = children.get(k)
                    if child is not None:
                        child.available += 1
                child = children.get(forced)
                if child is None:
                    child = Node(node, legal[keys.index(forced)], mover)
                    child.available = 1
                    children[forced] = child
                first = stats[forced]
                world.apply(mover, child.action)  # type: ignore[arg-type]  # children hold actions
                node = child
                if child.visits == 0:
                    break
                continue
            untried: list[int] = []
            for i, k in enumerate(keys):
                child = children.get(k)
                if child is None:
                    untried.append(i)
                else:
                    child.available += 1
            if untried:
                i = untried[rng.below(len(untried))]
                child = Node(node, legal[i], mover)
                child.available = 1
                children[keys[i]] = child
                world.apply(mover, legal[i])
                node = child
                if first is None:
                    first = stats[keys[i]]
                break
            if node is root:
                chosen = self._select_root(root, keys, floor)
                node = chosen if chosen is not None else tree.select(root, keys)
                first = stats[tree.key(node.action)]  # type: ignore[arg-type]
            else:
                node = tree.select(node, keys)
            world.apply(mover, node.action)  # type: ignore[arg-type]
        policy = self.policy
        steps = 0
        while world.to_move and steps < MAX_PLAYOUT_STEPS:
            mover = world.to_move[0]
            world.apply(mover, policy(world, mover, rng))
            steps += 1
        if world.to_move:
            values = [0.0] * world.players
            win = score = 0.0
            place = float(world.players)
        else:
            result = world.result()
            values = result_rewards(result)
            win = 1.0 / len(result.winners) if observer in result.winners else 0.0
            score = float(result.scores[observer])
            place = float(result.places[observer])
        if first is not None:
            first.add(win, score, place)
        # Backpropagation: a root move is scored by the observer's win share (what the
        # review reports); every other node by the bots' reward for the seat that chose it.
        while node is not root and node is not None:
            node.visits += 1
            node.reward += win if node.parent is root else values[node.seat]
            node = node.parent  # type: ignore[assignment]
        root.visits += 1
        return win

    @staticmethod
    def _select_root(root: Node, keys: list[int], floor: int) -> Node | None:
        """The least visited root move while some move has fewer than ``floor`` visits."""
        least: Node | None = None
        for k in keys:
            child = root.children[k]
            if child.visits < floor and (least is None or child.visits < least.visits):
                least = child
        return least
