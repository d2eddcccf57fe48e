"""OpenSpiel: the games load in pyspiel, serialize, pickle, resample, and OpenSpiel's own
IS-MCTS bot plays Parlor's hard bot through ``evaluate_bots``."""

from __future__ import annotations

import pickle

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

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
