"""Sweet Nose's help for search, compiled with the rules: the greedy playout policy and the
judgement of a sampled world at a round's start (``heuristic.py`` names them for
``parlor.bots.search_settings``; the measurements behind them are told there).

A hard decision runs about twenty playout moves per iteration and asks ``evaluate`` after
each, so both sit on the search's hot path. They read the sampled world through the same
accessors as before: the step, the cards, the sweets a seat holds, the tiles and scores, and
the legal actions (never a tray's layout).
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import i64

from parlor.bots.ismcts import margin_rewards
from parlor.core.actions import Action

from . import actions as A
from .data import KIND_INDEX, NUM_KINDS, TILES
from .rules import ASSIGN, EXCHANGE, NO_TILE, SweetNoseState

TILE_POINT: Final = 0.5  # a held shop tile, per level, in points of sweetness
PLAYOUT_NOISE: Final = 0.1  # share of random moves in a greedy playout

_TILE_VALUE: Final[tuple[float, ...]] = tuple(TILE_POINT * t.level for t in TILES)
_NONE: Final = NO_TILE
_ExchangeWithPlayer: Final = A.ExchangeWithPlayer
_ExchangeWithMarket: Final = A.ExchangeWithMarket
_EndTurn: Final = A.EndTurn
_ASSIGN_BY_VALUES: Final = A.ASSIGN
_K: Final = range(NUM_KINDS)

# Levels of the exchange step's moves, doubled to stay whole: an exchange 2 * (gain in card
# value), ending the turn 0, a shop tile -1 (rarely worth it blind). A move's code indexes a
# row of levels: give * 5 + take for an exchange, then the end of the turn, then the rest.
_END_CODE: Final = NUM_KINDS * NUM_KINDS
_OTHER_CODE: Final = _END_CODE + 1


def _levels(cards: tuple[int, ...]) -> list[int]:
    row = [2 * (cards[give] - cards[take]) for give in _K for take in _K]
    row.append(0)  # end of turn
    row.append(-1)  # a shop tile
    return row


# The row of levels for each placement of the cards (every seat's cards are a permutation).
_LEVELS_BY_CARDS: Final[dict[tuple[int, ...], list[int]]] = {cards: _levels(cards) for cards in A.PERMUTATIONS}
# The code of each action met, by identity (the engine hands out prebuilt actions). The table
# keeps every action it keys, so an id is not reused while keyed; it is bounded all the same.
_CODE_BY_ID: Final[dict[int, int]] = {}
_KEYED: Final[list[Action]] = []


def _code(action: Action) -> int:
    kind = type(action)
    if kind is _ExchangeWithPlayer or kind is _ExchangeWithMarket:
        code = KIND_INDEX[action.give] * NUM_KINDS + KIND_INDEX[action.take]  # type: ignore[attr-defined]
    elif kind is _EndTurn:
        code = _END_CODE
    else:
        code = _OTHER_CODE
    if len(_KEYED) >= 1 << 14:
        _CODE_BY_ID.clear()
        _KEYED.clear()
    _CODE_BY_ID[id(action)] = code
    _KEYED.append(action)
    return code


def evaluate(state: SweetNoseState) -> list[float] | None:
    """Search's judgement of a sampled world, only at the start of a round (no card placed
    yet): the lead in total sweetness (lower is better), a held tile counting a little.

    A playout asks after every move, so the usual answer (mid-round: None) comes first."""
    if state.step != ASSIGN:
        return None
    for cards in state.sweetness:
        if cards:
            return None
    held = state.held
    scores = state.scores
    provisional: list[float] = []
    for p in range(state.players):
        tile = held[p]
        provisional.append((_TILE_VALUE[tile] if tile != _NONE else 0.0) - scores[p])
    return margin_rewards(provisional, scale=4.0)


def playout_policy(state: SweetNoseState, seat: int, rng: Any) -> Action:
    """A cheap greedy player for playouts, acting on the sampled world's cards: it places
    its cards by the rearrangement rule and makes the exchange that sends away its sweetest
    kind for its mildest, with a little noise; other decisions are random.

    In the exchange step (but for the noise) it plays a move of the highest level (see
    ``_END_CODE``), uniformly among the moves of that level: the best exchange if one
    gains, else the end of the turn, else a shop tile, else the least bad exchange."""
    step = state.step
    if step == ASSIGN:
        return assign_by_rearrangement(state.held_sweets(seat), rng)
    legal = state.legal_actions(seat)
    if step != EXCHANGE or rng.random() < PLAYOUT_NOISE:
        return legal[rng.below(len(legal))]
    cards = state.sweetness[seat]
    row = _LEVELS_BY_CARDS.get(cards)
    if row is None:
        row = _levels(cards)
    codes = _CODE_BY_ID
    levels: list[int] = []
    best: i64 = -1000
    ties: i64 = 0
    for action in legal:
        code = codes.get(id(action))
        level: i64 = row[code if code is not None else _code(action)]
        levels.append(level)
        if level > best:
            best, ties = level, 1
        elif level == best:
            ties += 1
    pick: i64 = rng.below(ties) if ties > 1 else 0
    for i in range(len(levels)):
        if levels[i] == best:
            if pick == 0:
                return legal[i]
            pick -= 1
    raise AssertionError("no legal move")


def assign_by_rearrangement(held: list[int], rng: Any) -> Action:
    """The rearrangement rule: the highest values on the kinds held fewest of (ties at random)."""
    noise = [rng.random() for _ in _K]
    order = sorted(_K, key=lambda k: (held[k], noise[k]))
    values = [0] * NUM_KINDS
    for rank, k in enumerate(order):
        values[k] = 5 - rank
    return _ASSIGN_BY_VALUES[tuple(values)]
