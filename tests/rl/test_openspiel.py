"""OpenSpiel: the games load in pyspiel, serialize, pickle, resample, and OpenSpiel's own
IS-MCTS bot plays Parlor's hard bot through ``evaluate_bots``."""

from __future__ import annotations

import pickle

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
from open_spiel.python.algorithms import outcome_sampling_mccfr as os_mccfr

from parlor.rl.openspiel import SHORT_NAMES, ParlorSpielBot, register

register()


@pytest.mark.parametrize("short", SHORT_NAMES.values())
def test_game_plays_serializes_pickles_and_resamples(short: str) -> None:
    game = pyspiel.load_game(short, {"players": 3, "seed": 5})
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    steps = 0
    while not state.is_terminal():
        player = state.current_player()
        tensor = state.information_state_tensor(player)
        assert len(tensor) == game.information_state_tensor_size() == len(state.observation_tensor(player))
        if steps % 25 == 0:
            for copy in (pickle.loads(pickle.dumps(state)), game.deserialize_state(state.serialize())):
                assert copy.serialize() == state.serialize()
            world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.legal_actions() == state.legal_actions()
        state.apply_action(int(rng.choice(state.legal_actions())))
        steps += 1
    returns = state.returns()
    assert max(returns) == 1.0 and min(returns) == -1.0


class RestartableISMCTS(ismcts.ISMCTSBot):
    """OpenSpiel's Python IS-MCTS keeps no state between moves but does not say so:
    evaluate_bots calls restart_at on every bot, so answer it (the search starts afresh anyway)."""

    def restart_at(self, state: pyspiel.State) -> None:
        self.reset()


def test_openspiel_ismcts_plays_parlor_hard_with_evaluate_bots() -> None:
    game = pyspiel.load_game("parlor_sweet_nose", {"players": 3, "seed": 11})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bots = [
        RestartableISMCTS(game, evaluator, uct_c=2.0, max_simulations=15, random_state=np.random.RandomState(2)),
        ParlorSpielBot(game, 1, "hard:iterations=25", seed=3),
        ParlorSpielBot(game, 2, "hard:iterations=25", seed=4),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert len(returns) == 3 and max(returns) == 1.0


@pytest.mark.parametrize("short", SHORT_NAMES.values())
def test_serialize_game_and_state_and_random_sim_test(short: str) -> None:
    # Both failed with "GetRNGState unimplemented" (a Python game cannot
    # give OpenSpiel a game-level RNG state; the chance mode is now DETERMINISTIC, docs/rl.md).
    game = pyspiel.load_game(short, {"players": 3, "seed": 2})
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    for _ in range(30):
        state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and state2.serialize() == state.serialize()
    assert state2.legal_actions() == state.legal_actions()
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("short", SHORT_NAMES.values())
def test_outcome_sampling_mccfr_runs(short: str) -> None:
    # MCCFR crashed on Mottainai, whose information states were not
    # perfect recall (tests/rl/test_recall.py is the direct check).
    game = pyspiel.load_game(short, {"players": 3, "seed": 3})
    solver = os_mccfr.OutcomeSamplingSolver(game)
    np.random.seed(4)  # the Python solver samples with numpy's global generator
    for _ in range(6):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    probs = policy.action_probabilities(state, state.current_player())
    assert set(probs) == set(state.legal_actions()) and abs(sum(probs.values()) - 1.0) < 1e-9
    cpp = pyspiel.OutcomeSamplingMCCFRSolver(game)
    for _ in range(3):
        cpp.run_iteration()
