"""Bots: every bot chooses an action for one seat from what that seat may know.

``make_bot("random", game, seed)`` / ``make_bot("heuristic", game, seed)``. A bot is
handed the real state (that is what the table holds) but reads it only through
``state.view(seat, recall=True)``, ``state.legal_actions(seat)`` and
``state.determinize(seat, rng)``: never the hidden parts.
"""

from __future__ import annotations

import importlib
from typing import Protocol

from parlor.core.actions import Action
from parlor.core.errors import ParlorError, did_you_mean
from parlor.core.game import Game, State
from parlor.core.rng import Rng


class Bot(Protocol):
    name: str

    def choose(self, state: State, seat: int) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: State, seat: int) -> Action:
        return self.rng.choice(state.legal_actions(seat))


class NoisyBot:
    """Another bot that, with probability ``noise``, plays a random legal move instead.

    The ``easy`` level: the heuristic's plan with human-like slips.
    """

    def __init__(self, inner: Bot, noise: float, seed: int, name: str) -> None:
        self.inner = inner
        self.noise = noise
        self.rng = Rng(seed ^ 0x5EED)
        self.name = name

    def choose(self, state: State, seat: int) -> Action:
        if self.rng.random() < self.noise:
            return self.rng.choice(state.legal_actions(seat))
        return self.inner.choose(state, seat)


# The same level names for every game. Search budgets are iterations (so a seeded game is
# reproducible); ``hard`` aims at well under a second per decision on one core.
HARD_ITERATIONS = 400
EXPERT_ITERATIONS = 1600
# ``master`` is ``expert``'s search with the learned evaluator (parlor.bots.evaluator): by default
# as a prior on the root's children (MASTER_PRIOR_DEPTH, MASTER_PRIOR_VISITS), paid once per node,
# with expert's own leaf below; a spec may also blend it into every leaf's judgement after the
# playout (``blend``, MASTER_BLEND the network's share, 0: not at all) and set ``playout_depth``.
MASTER_ITERATIONS = EXPERT_ITERATIONS
MASTER_BLEND = 0.0
MASTER_ONE_ROW = 0
# The network as a prior (progressive bias) on the nodes at most MASTER_PRIOR_DEPTH moves below
# the root: MASTER_PRIOR_VISITS virtual visits at its value, paid once per node; 0 turns it off.
MASTER_PRIOR_DEPTH = 1
MASTER_PRIOR_VISITS = 8
# With a blend: the network judges every MASTER_EVERY-th leaf, at that many times the weight.
MASTER_EVERY = 1
# A learned move prior (parlor.bots.policy) as a PUCT bonus on the root's children, at this
# weight; 0 turns it off.
MASTER_PUCT = 0.0
MAX_PRIOR_DEPTH = 4
# A learned belief about the hidden cards, dealt through the search's ``sampler`` (a game's
# ``belief.BeliefSampler``). Where one ships it is master's default, alone: the belief is what
# measured stronger than expert at equal time there (docs/strength.md), the network prior was not.
GAMES_WITH_BELIEF = frozenset({"sweet-nose"})
MASTER_GAME_DEFAULTS: dict[str, dict[str, int]] = {"sweet-nose": {"belief": 1, "prior_depth": 0}}
LEVELS = {
    "easy": "the heuristic, with a random move 30% of the time",
    "medium": "the game's heuristic",
    "hard": f"information-set MCTS, {HARD_ITERATIONS} iterations",
    "expert": f"information-set MCTS, {EXPERT_ITERATIONS} iterations",
    # Named "experimental" to players until it beats expert at equal time (docs/strength.md).
    "master": (
        "experimental: expert's search with learned parts; in Sweet Nose a learned reading of the others' "
        "secret sweetness (stronger than expert at 3 and 4 players), elsewhere a learned evaluator (not yet stronger)"
    ),
}
BOT_KINDS = ("random", "heuristic", *LEVELS, "ismcts")


def _heuristic_module(game: Game):  # type: ignore[no-untyped-def]
    return importlib.import_module(f"parlor.games.{game.name.replace('-', '_')}.heuristic")


def heuristic_bot(game: Game, seed: int = 0) -> Bot:
    return _heuristic_module(game).HeuristicBot(game, seed)


def search_settings(game: Game, level: str = "hard") -> dict[str, object]:
    """The game's help for search, from its heuristic module, each optional: an ``evaluate``
    of unfinished positions and the ``PLAYOUT_DEPTH`` after which a playout stops to use it
    (none: play to the end), with ``EXPERT_PLAYOUT_DEPTH`` for the ``expert`` level (a
    bigger budget is better spent on longer playouts where the short ones saturate);
    ``search_candidates``, the moves worth searching; ``playout_policy``, a cheap policy for
    playouts (default: uniformly random legal moves)."""
    module = _heuristic_module(game)
    settings: dict[str, object] = {}
    evaluate = getattr(module, "evaluate", None)
    if evaluate is not None:
        depth = getattr(module, "PLAYOUT_DEPTH", 0)
        if level == "expert":
            depth = getattr(module, "EXPERT_PLAYOUT_DEPTH", depth)
        settings.update(evaluate=evaluate, playout_depth=depth)
    candidates = getattr(module, "search_candidates", None)
    if candidates is not None:
        settings["candidates"] = candidates
    policy = getattr(module, "playout_policy", None)
    if policy is not None:
        settings["policy"] = policy
    return settings


def make_bot(kind: str, game: Game, seed: int = 0) -> Bot:
    """A bot by name (``random``, ``heuristic``, a level ``easy`` ... ``expert``, ``ismcts``) or by
    spec, with parameters or from your own code (``hard:iterations=800``,
    ``mypkg.bots:MyBot``, ``path/to/bot.py:MyBot``; see ``parlor.bots.spec``)."""
    if kind in BOT_KINDS:
        return make_builtin_bot(kind, game, seed)
    from .spec import parse_bot_spec

    return parse_bot_spec(kind)(game, seed)


# The search's numeric parameters a spec may set: name -> (whole numbers only, the least allowed,
# whether that least value itself is allowed).
_SEARCH_NUMBERS: dict[str, tuple[bool, float, bool]] = {
    "iterations": (True, 1, True),
    "seconds": (False, 0, False),
    "exploration": (False, 0, True),
    "max_playout_steps": (True, 1, True),
    "playout_depth": (True, 0, True),
    "puct": (False, 0, True),
}

# The search's settings that are functions (or, for ``master``, its blended leaf): code sets
# them (``ISMCTSBot`` keywords); a spec's value for one is a number or a word, never usable.
_SEARCH_FUNCTIONS = ("policy", "evaluate", "refine", "candidates", "sampler", "prior", "root_policy", "leaf")


def _check_number(
    kind: str, name: str, value: object, *, whole: bool = False, low: float = 0, low_ok: bool = True, high: float = 0
) -> None:
    """A bot parameter is a number in its range, or a one-line ParlorError (a negative budget would
    otherwise be accepted and play nonsense). ``high`` 0: no upper bound."""
    numeric = type(value) is int or (type(value) is float and not whole)
    fits = numeric and (value >= low if low_ok else value > low) and (not high or value <= high)  # type: ignore[operator]
    if not fits:
        what = "a whole number" if whole else "a number"
        span = f"from {low:g} to {high:g}" if high else f"{'of at least' if low_ok else 'above'} {low:g}"
        raise ParlorError(f"the {kind!r} bot's {name} must be {what} {span}, got {value!r}")


def _master_settings(game: Game, params: dict[str, object], hand_written: object) -> dict[str, object]:
    """``master``'s additions to ``expert``'s search, from its spec's parameters (taken out of
    ``params``): the network as a prior near the root (``prior_depth``, ``prior_visits``) and/or
    blended into the leaf's judgement after the playout (``blend``)."""
    from .evaluator import BlendedEvaluator, NetworkPrior

    kind = "master"
    defaults = MASTER_GAME_DEFAULTS.get(game.name, {})
    belief = params.pop("belief", defaults.get("belief", 0))
    _check_number(kind, "belief", belief, whole=True, low=0, high=1)
    if belief and game.name not in GAMES_WITH_BELIEF:
        only = ", ".join(sorted(GAMES_WITH_BELIEF))
        raise ParlorError(f"the {kind!r} bot has no learned belief for {game.name} (only for {only})")
    belief_weights = params.pop("belief_weights", None)
    if belief_weights is not None and not belief:
        raise ParlorError(f"the {kind!r} bot's belief_weights needs belief=1")
    blend = params.pop("blend", MASTER_BLEND)
    _check_number(kind, "blend", blend, low=0, high=1)
    one_row = params.pop("one_row", MASTER_ONE_ROW)
    _check_number(kind, "one_row", one_row, whole=True, low=0, high=1)
    # With the belief, the game's own defaults (the network prior off); without, master's usual.
    depth_default = defaults.get("prior_depth", MASTER_PRIOR_DEPTH) if belief else MASTER_PRIOR_DEPTH
    prior_depth = params.pop("prior_depth", depth_default)
    _check_number(kind, "prior_depth", prior_depth, whole=True, low=0, high=MAX_PRIOR_DEPTH)
    prior_visits = params.pop("prior_visits", MASTER_PRIOR_VISITS)
    _check_number(kind, "prior_visits", prior_visits, whole=True, low=1)
    every = params.pop("every", MASTER_EVERY)
    _check_number(kind, "every", every, whole=True, low=1)
    if blend * every > 1:  # type: ignore[operator]
        raise ParlorError(
            f"the {kind!r} bot's blend * every must be at most 1 (the K-th leaves weigh K times), got {blend} * {every}"
        )
    puct = params.pop("puct", MASTER_PUCT)
    _check_number(kind, "puct", puct, low=0)
    temperature = params.pop("temperature", 1.0)
    _check_number(kind, "temperature", temperature, low=0, low_ok=False)
    policy_weights = params.pop("move_prior", None)
    # A weights file of one's own (``parlor train``'s output) instead of the shipped ones.
    weights = params.pop("weights", None)
    net = None
    if weights is not None:
        from parlor.rl import encoding

        from .evaluator import ValueNet

        net = ValueNet.load(str(weights), game=game.name, input_size=encoding(game).LAYOUT.size)
    out: dict[str, object] = {}
    if belief:
        belief_module = importlib.import_module(f"parlor.games.{game.name.replace('-', '_')}.belief")
        theta = None if belief_weights is None else belief_module.load_weights(str(belief_weights))
        out["sampler"] = belief_module.BeliefSampler(theta)
    if policy_weights is not None and not puct:
        raise ParlorError(f"the {kind!r} bot's move_prior needs a puct weight above 0 (e.g. puct=1)")
    if puct:
        from .policy import PolicyPrior, load_policy, shipped_policy_counts

        if policy_weights is None and not shipped_policy_counts(game.name):
            raise ParlorError(
                f"the {kind!r} bot's puct needs move_prior=FILE: no move prior ships for {game.name} "
                "(scripts/policy_fit.py makes one)"
            )

        policy_net = None
        if policy_weights is not None:
            from parlor.rl import encoding

            policy_net = load_policy(str(policy_weights), game=game.name, input_size=encoding(game).LAYOUT.size)
        out.update(root_policy=PolicyPrior(game, policy_net, temperature=float(temperature)), puct=float(puct))  # type: ignore[arg-type]
    if prior_depth:
        out.update(prior=NetworkPrior(game, net), prior_depth=prior_depth, prior_visits=prior_visits)
    if blend or hand_written is None:
        # expert's playout policy, root candidates and playout depth; the leaf's judgement blended:
        # the search asks the hand-written judgement itself and the blend refines what it judged.
        leaf = BlendedEvaluator(
            game,
            float(blend),
            hand_written,
            net,
            one_row_for_two=bool(one_row),
            every=int(every),  # type: ignore[call-overload]
        )
        out["leaf"] = leaf
        if hand_written is None or blend >= 1:  # type: ignore[operator]
            out["evaluate"] = leaf
        else:
            out["refine"] = leaf.refine
    return out


def make_builtin_bot(kind: str, game: Game, seed: int = 0, **params: object) -> Bot:
    """A built-in bot; ``params`` go to the search (ISMCTSBot keywords) or, for ``easy``, ``noise``."""
    from .ismcts import ISMCTSBot

    def no_params() -> None:
        if params:
            raise ParlorError(f"the {kind!r} bot takes no parameters (got {', '.join(params)})")

    if kind == "random":
        no_params()
        return RandomBot(game, seed)
    if kind in ("heuristic", "medium"):
        no_params()
        bot = heuristic_bot(game, seed)
        if kind == "medium":
            bot.name = "medium"
        return bot
    if kind == "easy":
        noise = params.pop("noise", 0.3)
        _check_number(kind, "noise", noise, low=0, high=1)
        no_params()
        return NoisyBot(heuristic_bot(game, seed), float(noise), seed, "easy")  # type: ignore[arg-type]
    if kind in ("hard", "expert", "master", "ismcts"):
        settings: dict[str, object] = dict(search_settings(game, "hard" if kind in ("hard", "ismcts") else "expert"))
        if kind == "master":
            settings.update(_master_settings(game, params, settings.get("evaluate")))
            settings.setdefault("playout_depth", 0)
        elif "puct" in params:  # the move prior it weighs is master's; elsewhere it would do nothing
            raise ParlorError(f"the {kind!r} bot has no move prior: puct is a 'master' parameter")
        if kind != "ismcts":
            budget = {"hard": HARD_ITERATIONS, "expert": EXPERT_ITERATIONS, "master": MASTER_ITERATIONS}[kind]
            settings.update(iterations=budget, name=kind)
        for name, value in params.items():
            if name in _SEARCH_FUNCTIONS and not callable(value):
                raise ParlorError(f"the {kind!r} bot's {name} is set in code, not in a spec (got {value!r})")
            if name in _SEARCH_NUMBERS:
                whole, low, low_ok = _SEARCH_NUMBERS[name]
                _check_number(kind, name, value, whole=whole, low=low, low_ok=low_ok)
        settings.update(params)
        search = ISMCTSBot
        if kind == "master":
            from .evaluator import MasterBot as search  # tells its leaf whose decision it is
        try:
            return search(game, seed, **settings)  # type: ignore[arg-type]
        except TypeError as exc:
            raise ParlorError(f"bad parameter for the {kind!r} bot: {exc}") from None
    raise ParlorError(f"unknown bot {kind!r}{did_you_mean(kind, BOT_KINDS)}; choose from {', '.join(BOT_KINDS)}")
