"""Why the better move is better: what it keeps, scores or denies, in words the rules use.

For a flagged decision (an inaccuracy, a mistake or a blunder) the judge named a better move.
This module says what that move does that the move played does not, from the engine itself:
both moves are played from the position **as the seat knew it**, in ``WORLDS`` worlds dealt by
the game's own ``determinize`` (the function the judge deals with), each followed by what comes
of it alone (the seat's forced moves), up to the point where the table's turn leaves the seat,
the seat has a real choice again or the game ends. Nothing another seat would choose is played:
the reason is what the move itself does, not a guess at the replies. The game's own quantities
are then compared branch against branch (``GAMES``): Mamma Mia!'s baked orders and topping cards
in hand, Mottainai's points for works, sales, backorders and bonuses as the table stands (and the
other players' points), Sweet Nose's sweetness as it stands (lower is better). A reason is given
only when the better move's difference is **the same number, in its favour, in at least
``AGREEMENT`` of the worlds**; otherwise nothing is said.

**What the seat could not know never shows through.** The position is read through
``determinize(seat, rng)`` only, with a generator seeded from the judge's seed and the decision's
step; every game's ``determinize`` depends only on what the seat knows and on the generator, so
two positions the seat cannot tell apart get the same reasons (tests/review/test_explain.py).
A quantity that depends on hidden cards (an opponent's sweetness values, the next draw) is said
only where it comes out the same in (nearly) every world the seat thought possible, which is
what the seat could have known.

Reasons are language-neutral: a key and whole-number parameters (``{"key": "mottainai.sales",
"n": 2}``), worded by the interfaces from their catalogs (``review.why.<key>`` in
``src/parlor/web/i18n/*.json``; the terminal says them in English with ``reason_words``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from parlor.core.game import State
from parlor.core.rng import FastRng, derive_seed

# Worlds each explanation is played in; a reason must hold in at least AGREEMENT of them.
WORLDS = 32
AGREEMENT = 0.9
# At most this many reasons per decision, the most telling first (each game's order in GAMES).
MAX_REASONS = 2
# A stream of the judge's generator apart from its search's (derive_seed(seed, step, STREAM)).
STREAM = 0x57485921
# A horizon longer than this is cut (every seat gets a real decision long before).
MAX_HORIZON_STEPS = 400

FLAGGED = ("inaccuracy", "mistake", "blunder")

# A quantity of one seat in a world: its name -> a whole number.
Measures = Callable[[State, int], dict[str, int]]
# A measure of where the game is: two branches that reached different parts of the game (one move
# ended the round, the other did not) are not compared in that world.
PART = "part"


@dataclass(frozen=True, slots=True)
class Measure:
    """One quantity the reasons compare: ``name`` in the game's measures, worded by ``key``;
    ``higher_is_better`` False for what the other players get (the better move denies it)."""

    name: str
    key: str
    higher_is_better: bool = True


# ------------------------------------------------------------------------------ the games' quantities
def _mamma_mia(world: Any, seat: int) -> dict[str, int]:
    """Orders baked (the score) and topping cards in hand, the seat's and the others'. Orders are
    baked when the oven opens: a move that opens it (the last card of the supply drawn) bakes now
    what the other move bakes later, so the two are compared only in the same round and part of
    it (``PART``)."""
    others = [p for p in range(world.players) if p != seat]
    return {
        PART: world.round * 2 + (world.opener >= 0),
        "pizzas": len(world.completed[seat]),
        "hand": world.topping_count(seat),
        "others_pizzas": sum(len(world.completed[p]) for p in others),
    }


def _mottainai(world: Any, seat: int) -> dict[str, int]:
    """The seat's points as the table stands (the final scoring applied now), part by part."""
    from parlor.games.mottainai.cards import final_scores

    rows = final_scores(world)
    mine = rows[seat]
    return {
        "works": mine["works"],
        "sales": mine["sales"],
        "backorders": mine["backorders"],
        "bonus": mine["bonus"],
        "others": sum(row["total"] for p, row in enumerate(rows) if p != seat),
    }


def _sweet_nose(world: Any, seat: int) -> dict[str, int]:
    """The seat's sweetness as it stands: its points, plus what its sweets count this round as
    they lie now while the round is not scored yet (once its sweetness cards are placed; before,
    there is nothing to count). Counting the round as it stands makes a move that ends the round
    (and scores it) comparable with one that does not."""
    placed = len(world.sweetness[seat]) == len(world.market)
    unscored = len(world.past) < world.round
    return {"sweetness": world.scores[seat] + (world.round_score(seat) if placed and unscored else 0)}


GAMES: dict[str, tuple[Measures, tuple[Measure, ...]]] = {
    "mamma-mia": (
        _mamma_mia,
        (
            Measure("pizzas", "mamma-mia.pizzas"),
            Measure("others_pizzas", "mamma-mia.others_pizzas", higher_is_better=False),
            Measure("hand", "mamma-mia.hand"),
        ),
    ),
    "mottainai": (
        _mottainai,
        (
            Measure("works", "mottainai.works"),
            Measure("sales", "mottainai.sales"),
            Measure("backorders", "mottainai.backorders"),
            Measure("bonus", "mottainai.bonus"),
            Measure("others", "mottainai.others", higher_is_better=False),
        ),
    ),
    "sweet-nose": (
        _sweet_nose,
        (
            # Sweet Nose's lowest total sweetness wins: less is what a move gains.
            Measure("sweetness", "sweet-nose.sweetness", higher_is_better=False),
        ),
    ),
}


# ------------------------------------------------------------------------------ following a move
def _settle(world: State, seat: int, action: Any) -> State:
    """``world`` after ``seat`` plays ``action`` and whatever follows from it alone: the seat's
    forced moves, until another seat is to move, the seat has a real choice again or the game is
    over. (Nothing another seat chooses is counted: both moves are compared at the point where
    the table's turn leaves the seat, so a reason is what the move itself does.)"""
    world.apply(seat, action)
    for _ in range(MAX_HORIZON_STEPS):
        to_move = world.to_move
        if seat not in to_move or len(to_move) != 1:
            break
        legal = world.legal_actions(seat)
        if len(legal) > 1:
            break
        world.apply(seat, legal[0])  # a forced move of the seat's that the engine asks for (hidden)
    return world


def _agreed(differences: list[int], worlds: int) -> int:
    """The difference found in at least ``AGREEMENT`` of all ``worlds`` (a world where the two
    moves could not be compared counts against it), or 0."""
    counts: dict[int, int] = {}
    for d in differences:
        counts[d] = counts.get(d, 0) + 1
    for value, count in counts.items():
        if count >= AGREEMENT * worlds:
            return value  # (at most one value can hold in more than half of the worlds)
    return 0


def explain(
    position: State,
    seat: int,
    better: Any,
    played: Any,
    *,
    step: int,
    seed: int = 0,
    worlds: int = WORLDS,
) -> tuple[dict[str, Any], ...]:
    """The reasons ``better`` beats ``played`` for ``seat`` at ``position`` (decision ``step`` of
    the game), each ``{"key": ..., "n": ...}``; empty where nothing holds in ``AGREEMENT`` of the
    worlds (or the game has no measures). Reads the position through ``determinize`` only."""
    spec = GAMES.get(position.game.name)
    if spec is None or better == played:
        return ()
    measures_of, wanted = spec
    rng = FastRng(derive_seed(seed, step, STREAM))
    differences: dict[str, list[int]] = {m.name: [] for m in wanted}
    for _ in range(worlds):
        world = position.determinize(seat, rng)
        after_better = measures_of(_settle(world.clone(), seat, better), seat)
        after_played = measures_of(_settle(world, seat, played), seat)
        if after_better.get(PART) != after_played.get(PART):
            continue
        for m in wanted:
            if m.name in after_better and m.name in after_played:
                differences[m.name].append(after_better[m.name] - after_played[m.name])
    reasons: list[dict[str, Any]] = []
    for m in wanted:
        gain = _agreed(differences[m.name], worlds) * (1 if m.higher_is_better else -1)
        if gain > 0:
            reasons.append({"key": m.key, "n": gain})
        if len(reasons) == MAX_REASONS:
            break
    return tuple(reasons)


def explain_decision(decision: Any, position: State, *, seed: int) -> tuple[dict[str, Any], ...]:
    """The reasons for a judged decision (a ``DecisionReview``): only a flagged one, whose better
    move the verdict names, is explained."""
    if decision.label not in FLAGGED or decision.best == decision.played:
        return ()
    game = position.game
    return explain(
        position,
        decision.seat,
        game.action_from_json(decision.best),
        game.action_from_json(decision.played),
        step=decision.step,
        seed=seed,
    )


# ------------------------------------------------------------------------------ words, for the terminal
@functools.lru_cache(maxsize=4)
def _catalog(lang: str) -> Mapping[str, str]:
    text = resources.files("parlor.web").joinpath("i18n", f"{lang}.json").read_text(encoding="utf-8")
    return json.loads(text)


def _plural_form(lang: str, n: int) -> str:
    """The CLDR plural category of a whole number ``n`` in the catalogs' languages (the page asks
    the browser's Intl.PluralRules; for whole numbers these are its answers): Czech has "one" and
    "few", English "one", Chinese and Japanese none."""
    if lang == "cs":
        return "one" if n == 1 else ("few" if 2 <= n <= 4 else "other")
    if lang == "en":
        return "one" if n == 1 else "other"
    return "other"


def reason_words(reason: Mapping[str, Any], lang: str = "en") -> str:
    """A reason in words, from the web's catalog (the same sentences the replay page shows), in the
    plural form the count asks for; English "point(s)" follows the count, as on the page. An unknown
    key is said as it is."""
    catalog = _catalog(lang)
    key = f"review.why.{reason.get('key')}"
    n = reason.get("n")
    text = catalog.get(f"{key}#{_plural_form(lang, n)}") if isinstance(n, int) else None
    text = text or catalog.get(key)
    if text is None:
        return str(reason.get("key"))
    for name, value in reason.items():
        if name != "key":
            text = text.replace("{" + name + "}", str(value))
    if lang == "en" and isinstance(n, int):
        text = text.replace("(s)", "" if n == 1 else "s")
    return text


def why_heading(lang: str = "en") -> str:
    """The words before the reasons ("Why it is better (true in at least 90% of the deals ...):")."""
    return _catalog(lang)["review.why"].replace("{p}", f"{round(AGREEMENT * 100)}%")
