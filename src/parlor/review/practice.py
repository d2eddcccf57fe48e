"""Practice from a mistake: a decision of a finished game set up again, to play on from there.

    from parlor.review.practice import information_set, practice_deal
    known = information_set(record, seat=1, step=42)   # what seat 1 knew at decision 42
    state = practice_deal(known, seed=7)               # a game to play on from there

The position is set up from what the seat knew at that decision, never from the real game:
the cards it could not see are dealt afresh among the places they could be, by the game's own
``determinize`` (the function the search bots and the judge deal their worlds with; every
game's sorts its pool of unseen cards before shuffling it, so a deal depends only on what the
seat knows and on the seed). The future draws are unknown too (the deal's generator is forked
from the seed's, not the real game's). So the better move the judge named can be tried, and
the game played on, without the real hidden cards showing through.

``practice_deal`` takes an :class:`InformationSet`, which answers only what the seat knew: its
legal moves, its view with perfect recall, and worlds dealt from them. Two games that differ
only in what the seat could not see give the same practice deals for the same seed
(tests/review/test_practice.py).

The game returned starts from a scenario holding the dealt position (``{"saved_state": ...}``),
so its record replays from there like any record (``parlor.core.replay``), and the server can
store a practice table as it stores any other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlor.core import ParlorError, Rng, State, replay_iter
from parlor.core.rng import derive_seed


class InformationSet:
    """What ``seat`` knew at decision ``step`` of a game: its moves, its view (with perfect
    recall) and worlds dealt from that knowledge. The position it was made from stays private:
    nothing here hands out its hidden cards."""

    __slots__ = ("_position", "seat", "step")

    def __init__(self, position: State, seat: int, step: int) -> None:
        if not position.legal_actions(seat):
            raise ParlorError(f"seat {seat} has no decision to make at step {step}")
        self._position = position.clone()
        self.seat = seat
        self.step = step

    @property
    def game(self) -> Any:
        return self._position.game

    @property
    def players(self) -> int:
        return self._position.players

    def legal_actions(self) -> list[Any]:
        return self._position.legal_actions(self.seat)

    def view(self) -> dict[str, Any]:
        """What the seat saw, with what it could remember (as the bots and the judge do)."""
        return self._position.view(self.seat, True)

    def deal(self, rng: Rng) -> State:
        """A full position the seat cannot tell from the real one, its hidden cards (and the
        future draws) dealt from ``rng``: the game's ``determinize`` for this seat."""
        return self._position.determinize(self.seat, rng)


def decision_steps(record: Mapping[str, Any], seat: int) -> list[int]:
    """The steps (indices into the record's ``actions``) at which ``seat`` decided."""
    return [i for i, e in enumerate(record["actions"]) if isinstance(e, (list, tuple)) and e and e[0] == seat]


def nearest(steps: list[int], step: Any, *, base: int = 0) -> str:
    """Where to look instead, as " (its nearest decisions: steps 4, 7, 9)", counted from ``base``."""
    if not steps:
        return " (it made no decision in this game)"
    at = step if type(step) is int else 0
    near = sorted(sorted(steps, key=lambda i: abs(i - at))[:3])
    return f" (its nearest decisions: steps {', '.join(str(i + base) for i in near)})"


def information_set(record: Mapping[str, Any], seat: int, step: int) -> InformationSet:
    """What ``seat`` (0-based) knew at decision ``step`` (an index into the record's ``actions``,
    as in a review) of the game of ``record``. A step that is not one of the seat's decisions is
    refused with a one-line ``ParlorError``."""
    start = next(replay_iter(record))  # a clear RecordError for a bad record
    if type(seat) is not int or not 0 <= seat < start.players:
        raise ParlorError(f"no seat {seat!r} in this {start.players}-player game (seats are 0-{start.players - 1})")
    mine = decision_steps(record, seat)
    if step not in mine or type(step) is not int:
        raise ParlorError(f"step {step!r} is not a decision of Seat {seat + 1}{nearest(mine, step)}")
    for index, state in enumerate(replay_iter(record)):
        if index == step:
            return InformationSet(state, seat, step)
    raise ParlorError(f"step {step} does not replay")  # (replay_iter yields every step: not reached)


def practice_deal(known: InformationSet, seed: int = 0) -> State:
    """A game to play on from ``known``'s decision: the position dealt from what the seat knew,
    its generator seeded from ``seed`` and the decision's step (same information and seed: the
    same deal, byte for byte). Its record replays from that position."""
    if type(seed) is not int:
        raise ParlorError(f"a practice seed must be an integer, got {seed!r}")
    world = known.deal(Rng(derive_seed(seed, known.step))).to_json()
    # The practice game starts here: no past of its own (a game's determinize may keep the real
    # game's decisions, and the opponents' among them may be ones the seat never saw).
    world["history"] = []
    # A scenario of the dealt position: the game remembers it, so state.record() replays from here.
    return known.game.scenario({"saved_state": world})


def practice_position(record: Mapping[str, Any], seat: int, step: int, seed: int = 0) -> State:
    """``practice_deal(information_set(record, seat, step), seed)``."""
    return practice_deal(information_set(record, seat, step), seed)
