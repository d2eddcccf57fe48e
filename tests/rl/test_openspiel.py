"""OpenSpiel: the games load in pyspiel, serialize, pickle, resample, and OpenSpiel's own
IS-MCTS bot plays Parlor's hard bot through ``evaluate_bots``."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
from open_spiel.python.algorithms import outcome_sampling_mccfr as os_mccfr

from parlor.rl import encoding
from parlor.rl import openspiel as parlor_openspiel
from parlor.rl.openspiel import SHORT_NAMES, ParlorHiddenInformationWarning, ParlorSpielBot, register

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
        # The information state is the observation plus the seat's own decision count.
        assert len(tensor) == game.information_state_tensor_size() == len(state.observation_tensor(player)) + 1
        # The fast paths (orjson text, own decisions appended one at a time, legal ids found by
        # identity) give what the plain definitions give: the encoding's text, the ids in order.
        parlor = state.parlor
        own = ",".join(str(a) for a in state.own[player])
        expected = f"{encoding(parlor.game).information_state(parlor, player)} | own:{own}"
        assert state.information_state_string(player) == expected
        assert state.legal_actions() == sorted(parlor.game.action_id(a) for a in parlor.legal_actions(player))
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


def test_nfsp_learns_over_rl_environment() -> None:
    # OpenSpiel's PyTorch NFSP imports dm-tree, which OpenSpiel does not declare: the rl
    # extra does (torch comes with the train extra).
    pytest.importorskip("torch")
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import nfsp

    env = rl_environment.Environment("parlor_mamma_mia", players=2, seed=1)
    size = env.observation_spec()["info_state"][0]
    agents = [
        nfsp.NFSP(
            seat,
            size,
            env.action_spec()["num_actions"],
            [16],
            reservoir_buffer_capacity=200,
            anticipatory_param=0.9,
            batch_size=8,
            min_buffer_size_to_learn=8,
            learn_every=8,
            replay_buffer_capacity=200,
            epsilon_decay_duration=100,
        )
        for seat in range(2)
    ]
    np.random.seed(2)
    steps = 0
    for _ in range(2):
        time_step = env.reset()
        while not time_step.last():
            seat = time_step.observations["current_player"]
            action = agents[seat].step(time_step).action
            assert time_step.observations["legal_actions"][seat].count(action) == 1
            time_step = env.step([action])
            steps += 1
        for agent in agents:
            agent.step(time_step)
    # Both networks took learning steps (a loss is recorded once a batch was learned from).
    assert steps > 16 and all(None not in agent.loss for agent in agents)


def test_plain_mcts_is_warned_about_once_and_ismcts_not(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parlor_openspiel, "_MCTS_WARNED", False)
    game = pyspiel.load_game("parlor_mamma_mia", {"players": 2, "seed": 4})
    state = game.new_initial_state()
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        is_bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=5, random_state=np.random.RandomState(2))
        is_bot.step(state)
        state.clone()  # a caller outside OpenSpiel's MCTS
        assert [w for w in caught if w.category is ParlorHiddenInformationWarning] == []
        bot = mcts.MCTSBot(game, 2.0, 5, evaluator, random_state=np.random.RandomState(3))
        bot.step(state)
        bot.step(state)
    warned = [w for w in caught if w.category is ParlorHiddenInformationWarning]
    assert len(warned) == 1 and "hidden cards" in str(warned[0].message)
