"""Who plays the other seats of a single-seat env (``parlor.rl.gym``, ``parlor.rl.vector``).

``opponents`` may be

- a bot spec (text): ``"random"``, ``"medium"``, ``"hard:iterations=200"``, ``"file.py:MyBot"``
  (``parlor.bots.parse_bot_spec``); each seat gets its own bot, seeded from the episode;
- a bot object (anything with ``choose(state, seat)``): it plays every other seat;
- a factory ``(game, seed) -> bot`` (a bot class such as ``parlor.bots.RandomBot`` is one).

Anything else is refused at once with a ``TypeError`` that says what is accepted.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parlor.bots import RandomBot
from parlor.bots.spec import BotFactory, parse_bot_spec
from parlor.core.game import Game, State
from parlor.core.rng import Rng
from parlor.rl import native


def opponent_factory(opponents: Any) -> BotFactory:
    """A ``(game, seed) -> bot`` for ``opponents`` (see the module docstring)."""
    if isinstance(opponents, str) and opponents == "random":
        # the bot the spec makes (``make_builtin_bot``: ``RandomBot(game, seed)``), without
        # parsing it at every episode (a single-seat env makes its bots at every reset)
        return RandomBot
    if isinstance(opponents, str):
        return parse_bot_spec(opponents)  # fails now on an unknown bot
    if callable(getattr(opponents, "choose", None)) and not isinstance(opponents, type):
        bot = opponents
        return lambda game, seed: bot
    if callable(opponents):
        return opponents
    raise TypeError(
        "opponents must be a bot spec such as 'medium', a bot (an object with choose(state, seat)) "
        f"or a factory (game, seed) -> bot; got {type(opponents).__name__} {opponents!r}"
    )


def seat_bots(factory: BotFactory, game: Game, game_seed: int, seat: int, players: int) -> list[Any]:
    """The bots of every seat but ``seat`` (``None`` there) for the game dealt from ``game_seed``:
    seat ``s`` gets ``factory(game, game_seed + 7919 * (s + 1))``, a ``RandomBot`` as its
    generator (``random_bots_as_rngs``). The plain ``RandomBot`` factory makes the generator
    itself: ``RandomBot(game, seed).rng`` is ``Rng(seed)``, without the bot object around it
    (a single-seat env makes these at every episode)."""
    seeds = [game_seed + 7919 * (s + 1) for s in range(players)]
    if factory is RandomBot:
        return [None if s == seat else Rng(seeds[s]) for s in range(players)]
    return [None if s == seat else random_bots_as_rngs(factory(game, seeds[s])) for s in range(players)]


def deal(
    game: Game, players: int, rng: np.random.Generator, fixed_seat: int | None, options: Any, factory: BotFactory | None
) -> tuple[State, int, list[Any] | None]:
    """A single-seat episode (``parlor.rl.gym``, ``parlor.rl.vector``): the game's seed and the
    learner's seat (``fixed_seat``, else drawn) from ``rng``, the deal, and with ``factory``
    the other seats' bots (``seat_bots``), who play on to the learner's first decision. A deal
    they finish before it (rare: a Mottainai game can end in its first round) is no episode for
    the learner: it is dealt again. Without ``factory`` (self-play) nobody moves here.
    Returns the state, the learner's seat and the bots (None without ``factory``)."""
    opts = options if options is not None else game.default_options(players)
    while True:
        game_seed = int(rng.integers(0, 2**31 - 1))
        seat = fixed_seat if fixed_seat is not None else int(rng.integers(players))
        state = game.new_game(players, game_seed, opts)
        if factory is None:
            return state, seat, None
        bots = seat_bots(factory, game, game_seed, seat, players)
        native.play_others(state, seat, bots)
        if not state.is_over:
            return state, seat, bots


def random_bots_as_rngs(bot: Any) -> Any:
    """A ``RandomBot`` as its generator, any other bot as itself.

    ``native.play_others`` draws a random bot's move from its generator in compiled code (the
    same ``rng.choice(state.legal_actions(seat))`` as ``RandomBot.choose``, so the same moves
    from the same seed) instead of calling the bot's Python method for every move. Only the
    class itself: a subclass may choose otherwise."""
    return bot.rng if type(bot) is RandomBot else bot
