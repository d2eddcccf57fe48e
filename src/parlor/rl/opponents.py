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

from parlor.bots import RandomBot
from parlor.bots.spec import BotFactory, parse_bot_spec


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


def random_bots_as_rngs(bot: Any) -> Any:
    """A ``RandomBot`` as its generator, any other bot as itself.

    ``native.play_others`` draws a random bot's move from its generator in compiled code (the
    same ``rng.choice(state.legal_actions(seat))`` as ``RandomBot.choose``, so the same moves
    from the same seed) instead of calling the bot's Python method for every move. Only the
    class itself: a subclass may choose otherwise."""
    return bot.rng if type(bot) is RandomBot else bot
