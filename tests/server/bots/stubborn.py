"""A plug-in bot for the worker tests: it thinks far past any time budget and ignores clocks."""

import time


class StubbornBot:
    name = "stubborn"

    def __init__(self, game, seed=0):
        self.game = game

    def choose(self, state, seat):
        time.sleep(3600)
        return state.legal_actions(seat)[0]


class SlowBot:
    """Thinks a fifth of a second, then plays the first legal move."""

    name = "slow"

    def __init__(self, game, seed=0):
        self.game = game

    def choose(self, state, seat):
        time.sleep(0.2)
        return state.legal_actions(seat)[0]
