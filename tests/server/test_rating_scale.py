"""The number players read (``ratings.display``): over random rated results of 2 to 5 players (ties
included, as absent seats tie last), a player placed first never reads a lower number after the game,
and one placed last never a higher one; a new player reads 1500."""

from __future__ import annotations

import random

from openskill.models import PlackettLuce

from parlor.server.ratings import PROVISIONAL_GAMES, display, new_ratings, shown


def test_a_new_player_reads_1500_provisional() -> None:
    assert shown(25.0, 25.0 / 3, 0) == {"display": 1500, "uncertainty": 350, "provisional": True}
    assert shown(25.0, 2.0, PROVISIONAL_GAMES)["provisional"] is False


def test_the_winner_never_reads_less_and_the_last_never_more() -> None:
    model, rng = PlackettLuce(), random.Random(20261202)
    for _ in range(3000):
        n = rng.randint(2, 5)
        before = [(rng.uniform(-20.0, 70.0), rng.uniform(0.5, 25.0 / 3)) for _ in range(n)]
        places = [rng.randint(1, n) for _ in range(n)]
        after = new_ratings(model, before, places)
        if min(places) == max(places):
            continue  # everyone tied: nobody won or lost
        for (mu0, _), (mu, _), place in zip(before, after, places, strict=True):
            if place == min(places):
                assert display(mu) >= display(mu0), (before, places)
            if place == max(places):
                assert display(mu) <= display(mu0), (before, places)
