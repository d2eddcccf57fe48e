"""Perfect recall: every decision of a seat changes its information state, and equal
information states come with equal legal actions.

OpenSpiel's CFR family keys its tables on ``information_state_string`` and reuses the legal
actions it stored there; a seat whose information state is the same at two decisions with
different choices sends the C++ outcome-sampling MCCFR past the end of its action list.
The OpenSpiel information state holds the seat's own decisions (``parlor.rl.openspiel``),
so recall is perfect by construction; these tests check it where it used to break: on
positions built to reach every Mottainai card effect (a random game meets some of them once
in tens of thousands of decisions), with every legal action tried at every decision, and in
random games of all three games.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pyspiel
import pytest

from parlor import games
from parlor.rl import encoding
from parlor.rl.openspiel import SHORT_NAMES, register

register()
CARDS = json.loads((Path(games.__file__).parent / "mottainai" / "cards.json").read_text())
# Cards whose effect is a choice or a trigger during play (end-game and passive ones change
# scoring or limits, not the decisions).
EFFECT_CARDS = sorted(c["id"] for c in CARDS if c["timing"] not in ("end_game", "passive"))


class RecallChecker:
    """Walks OpenSpiel states, trying every legal action at every decision it visits."""

    def __init__(self) -> None:
        self.by_string: dict[str, tuple[int, ...]] = {}
        self.decisions = 0
        # Decisions where an action left the view-with-recall alone but changed the seat's
        # choices: the cases the own-decisions part of the information state is for.
        self.view_only_collisions = 0

    def check(self, state: pyspiel.State, view_text: str) -> None:
        seat = state.current_player()
        legal = tuple(state.legal_actions())
        string = state.information_state_string(seat)
        tensor = np.asarray(state.information_state_tensor(seat), np.float32).tobytes()
        assert self.by_string.setdefault(string, legal) == legal, f"two decisions share {string[-300:]}"
        self.decisions += 1
        for action in legal:
            child = state.child(action)
            assert child.information_state_string(seat) != string, f"{state.action_to_string(seat, action)}"
            assert np.asarray(child.information_state_tensor(seat), np.float32).tobytes() != tensor
            if not child.is_terminal() and child.current_player() == seat:
                child_view = encoding(child.parlor.game).information_state(child.parlor, seat)
                if child_view == view_text and tuple(child.legal_actions()) != legal:
                    self.view_only_collisions += 1

    def walk(self, state: pyspiel.State, pick: random.Random, steps: int, prefer: tuple[str, ...] = ()) -> None:
        """Check ``steps`` decisions, choosing actions whose text contains a ``prefer`` word
        two times in three (to steer into the effects), else at random."""
        for _ in range(steps):
            if state.is_terminal():
                return
            seat = state.current_player()
            self.check(state, encoding(state.parlor.game).information_state(state.parlor, seat))
            legal = state.legal_actions()
            steered = [a for a in legal if any(w in state.action_to_string(seat, a) for w in prefer)]
            state.apply_action(pick.choice(steered) if steered and pick.random() < 2 / 3 else pick.choice(legal))


def spiel_state(name: str, parlor_state: object) -> pyspiel.State:
    game = pyspiel.load_game(SHORT_NAMES[name], {"players": parlor_state.players})  # type: ignore[attr-defined]
    return game.new_initial_state(parlor_state)


MOTTAINAI = games.get("mottainai")
HAND = ["poem", "tower", "kite", "jar", "sword", "bell"]  # paper, stone, cloth, clay, metal, then a spare
OTHER_HANDS = ["cup", "frog", "gong"]
STEER = ("use_effect", "reveal", "refill", "pray", "pick_wing", "return_card")


def test_dice_revealing_a_known_top_card_changes_the_information_state() -> None:
    # Seat 0 performs Tailor tasks with Fan and Dice in its gallery: once the deck's top card
    # is public (an earlier Dice reveal), using Dice again shows the same card, so the view
    # with recall does not change while Dice is no longer among the choices.
    checker = RecallChecker()
    for seed in (3, 4):  # the steered walks of these deals meet that decision
        state = spiel_state("mottainai", MOTTAINAI.scenario({
            "players": 2, "seed": seed, "start": "noon", "active": 0, "tasks": ["kite", None],
            "helpers": [["flag"], []], "gallery": [["fan", "dice"], []], "hands": [["poem", "bell"], ["tower"]],
        }))  # fmt: skip
        checker.walk(state, random.Random(seed), 200, prefer=("dice",))
    assert checker.view_only_collisions > 0  # the walk did reach the reveal-again decision


@pytest.mark.parametrize("card", EFFECT_CARDS)
def test_every_mottainai_effect_keeps_recall(card: str) -> None:
    checker = RecallChecker()
    for players, start in ((2, "morning"), (2, "noon"), (3, "noon")):
        seed = len(checker.by_string) + players
        # The card is a work of seat 0, with a card of every material in hand (reveals,
        # matching materials, tasks to play).
        hand = [c for c in HAND if c != card][:5]
        others = [c for c in OTHER_HANDS if c != card]
        state = spiel_state("mottainai", MOTTAINAI.scenario({
            "players": players, "seed": seed, "start": start, "active": 0,
            "gallery": [[card]] + [[]] * (players - 1),
            "hands": [hand] + [[c] for c in others[: players - 1]],
        }))  # fmt: skip
        checker.walk(state, random.Random(seed), 45, prefer=(card, *STEER))
    assert checker.decisions >= 10  # (Cup can end the game after a prayer)


SAMPLED = {"mamma-mia": (2, 5), "sweet-nose": (3, 5), "mottainai": (2, 6)}


@pytest.mark.parametrize("name", SAMPLED)
def test_random_games_keep_recall_at_every_action(name: str) -> None:
    game = games.get(name)
    checker = RecallChecker()
    for players in SAMPLED[name]:
        for seed in range(2):
            state = spiel_state(name, game.new_game(players, seed))
            checker.walk(state, random.Random(seed), 250)
    assert checker.decisions > 200


@pytest.mark.parametrize("short", SHORT_NAMES.values())
def test_cpp_outcome_sampling_mccfr_runs_at_two_players(short: str) -> None:
    # OpenSpiel's C++ solver reuses the legal actions stored under an information state:
    # without perfect recall it read past the end of that list within 150 iterations for
    # some seeds on Mottainai. Two short runs here; benchmarks/mccfr.py runs the long version.
    min_players = {"parlor_sweet_nose": 3}.get(short, 2)
    for seed in range(2):
        game = pyspiel.load_game(short, {"players": min_players, "seed": seed})
        solver = pyspiel.OutcomeSamplingMCCFRSolver(game, seed=seed)
        for _ in range(25):
            solver.run_iteration()
