"""The learned evaluator (``master``): weights files, training, and a search that stays blind."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from parlor import games
from parlor.bots import _heuristic_module, make_bot, make_builtin_bot, search_settings
from parlor.bots.evaluator import (
    FORMAT_VERSION,
    BlendedEvaluator,
    LeafEvaluator,
    MasterBot,
    NetworkPrior,
    ValueNet,
    WeightsError,
    shipped_net,
)
from parlor.bots.ismcts import ISMCTSBot
from parlor.cli.main import app
from parlor.core.errors import ParlorError
from parlor.rl import encoding
from parlor.training import TrainSettings, generate_positions, train, value_mse

from .test_all_games import PEEK_CASES, scrambled_positions


def small_net(game: str = "sweet-nose", seed: int = 3) -> ValueNet:
    return ValueNet.initial(game, encoding(game).LAYOUT.size, (8,), seed)


def test_weights_round_trip(tmp_path: Path) -> None:
    net = small_net()
    net.save(tmp_path / "w.npz")
    back = ValueNet.load(tmp_path / "w.npz", game="sweet-nose", input_size=net.input_size)
    x = np.random.default_rng(0).random((5, net.input_size), np.float32)
    assert np.array_equal(net(x), back(x))
    assert ((net(x) > 0) & (net(x) < 1)).all()


def test_weights_of_another_version_game_or_size_or_corrupt_are_refused(tmp_path: Path) -> None:
    net = small_net()
    good = tmp_path / "good.npz"
    net.save(good)
    with pytest.raises(WeightsError, match="not 'mamma-mia'"):
        ValueNet.load(good, game="mamma-mia")
    with pytest.raises(WeightsError, match="encoding changed"):
        ValueNet.load(good, game="sweet-nose", input_size=net.input_size + 1)
    with np.load(good) as data:
        arrays = dict(data)
    header = json.loads(bytes(arrays["header"]).decode())
    header["format_version"] = FORMAT_VERSION + 1
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
    np.savez(tmp_path / "future.npz", **arrays)
    with pytest.raises(WeightsError, match=f"format version {FORMAT_VERSION + 1}"):
        ValueNet.load(tmp_path / "future.npz")
    broken = tmp_path / "broken.npz"
    broken.write_bytes(good.read_bytes()[: len(good.read_bytes()) // 2])
    with pytest.raises(WeightsError, match="not a readable"):
        ValueNet.load(broken)
    with pytest.raises(WeightsError, match="no evaluator weights"):
        ValueNet.load(tmp_path / "missing.npz")


@pytest.mark.parametrize("name", games.names())
def test_shipped_weights_fit_the_games_encoding(name: str) -> None:
    net = shipped_net(name)
    assert net.game == name and net.input_size == encoding(name).LAYOUT.size
    assert net.meta["held_out_mse"] < net.meta["constant_mse"], "shipped weights no better than a constant"


@pytest.mark.parametrize(("name", "players"), [("mamma-mia", (2, 4)), ("sweet-nose", (3, 4)), ("mottainai", (2, 3))])
def test_shipped_weights_beat_a_constant_on_games_they_never_saw(name: str, players: tuple[int, ...]) -> None:
    """Recomputed, not read from the header: positions of fresh `medium` games (seed 1000; the
    shipped weights were trained on seed 1's), judged against the best constant for these very
    positions (their mean), which is a harder bar than the training set's mean."""
    fresh = generate_positions(TrainSettings(game=name, players=players, games=30, sample=0.2, seed=1000))
    assert len(fresh.target) > 500
    constant_mse = float(np.mean((fresh.target - fresh.target.mean()) ** 2))
    assert value_mse(shipped_net(name), fresh.obs, fresh.target) < constant_mse


def tiny(seed: int = 4, epochs: int = 6) -> TrainSettings:
    return TrainSettings(game="mamma-mia", players=(2,), games=10, sample=0.3, hidden=(16,), epochs=epochs, seed=seed)


def test_training_fits_the_outcomes_and_is_reproducible_and_resumable(tmp_path: Path) -> None:
    first = train(tiny(), tmp_path / "a")
    history = first.history
    assert history[-1]["train_bce"] < history[0]["train_bce"]
    assert history[-1]["train_mse"] < history[0]["train_mse"]
    assert (tmp_path / "a" / "positions.parquet").is_file() and (tmp_path / "a" / "report.md").is_file()
    assert (tmp_path / "a" / "loss.png").is_file()

    # Interrupted after two epochs, then run again: the same weights as the uninterrupted run.
    class Stop(Exception):
        pass

    def stop_after_two(stage: str, done: int, total: int) -> None:
        if stage == "epochs" and done == 2:
            raise Stop

    with pytest.raises(Stop):
        train(tiny(), tmp_path / "b", stop_after_two)
    resumed = train(tiny(), tmp_path / "b")
    for (w1, b1), (w2, b2) in zip(first.net.layers, resumed.net.layers):
        assert np.array_equal(w1, w2) and np.array_equal(b1, b2)
    assert resumed.history == first.history
    other = train(tiny(seed=5), tmp_path / "c")
    assert not np.array_equal(other.net.layers[0][0], first.net.layers[0][0])


def test_playout_targets_judge_the_same_positions_by_the_searchs_leaf_value(tmp_path: Path) -> None:
    """--playouts K: the same games and observations as the outcome target (the worlds are dealt
    from their own generator), each target the mean of K of expert's leaf judgements, so
    fractional where outcomes are 0, 0.6 or 1; reproducible; a run of it trains and reports it."""
    outcome = generate_positions(tiny())
    judged = generate_positions(replace(tiny(), playouts=4))
    again = generate_positions(replace(tiny(), playouts=4))
    assert np.array_equal(judged.obs, outcome.obs) and np.array_equal(judged.seat, outcome.seat)
    assert np.array_equal(judged.target, again.target)
    assert ((judged.target >= 0) & (judged.target <= 1)).all()
    assert set(np.round(outcome.target, 4)) <= {0.0, 0.6, 1.0}
    assert len(set(np.round(judged.target, 4)) - {0.0, 0.6, 1.0}) > 10
    result = train(replace(tiny(epochs=2), playouts=2), tmp_path)
    assert result.net.meta["trained"]["playouts"] == 2
    assert '"playouts": 2' in (tmp_path / "report.md").read_text()
    assert "playouts" not in tiny().key()  # outcome runs keep their settings (and checkpoints) as before


def test_a_checkpoint_of_other_settings_is_refused(tmp_path: Path) -> None:
    train(tiny(epochs=1), tmp_path)
    with pytest.raises(Exception, match="epochs differ"):
        train(tiny(epochs=2), tmp_path)


def test_parlor_train_command(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app, ["train", "mamma-mia", "--out", str(out), "-n", "4", "--epochs", "1", "--hidden", "8", "--seed", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "held out" in result.output
    net = ValueNet.load(out / "mamma_mia.npz", game="mamma-mia")
    assert net.layers[0][0].shape == (encoding("mamma-mia").LAYOUT.size, 8)
    bad = CliRunner().invoke(app, ["train", "mamma-mia", "--out", str(tmp_path / "x"), "-n", "1"])
    assert bad.exit_code != 0 and not (tmp_path / "x" / "positions.parquet").exists()
    negative = CliRunner().invoke(app, ["train", "mamma-mia", "--out", str(tmp_path / "y"), "--playouts", "-1"])
    assert negative.exit_code != 0 and "--playouts" in negative.output and not (tmp_path / "y").exists()


def mid_game(name: str, players: int, seed: int, steps: int):  # type: ignore[no-untyped-def]
    game = games.get(name)
    state = game.new_game(players, seed=seed)
    for _ in range(steps):
        if not state.to_move:
            break
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[(seed + len(legal)) % len(legal)])
    return state


@pytest.mark.parametrize("name", games.names())
@pytest.mark.parametrize("extra", [0, 1])
def test_the_leaf_evaluator_reads_each_seats_own_observation(name: str, extra: int) -> None:
    """The sparse first layer gives the dense network's values on each seat's own observation."""
    game = games.get(name)
    players = game.player_range()[0] + extra
    enc = encoding(name)
    evaluate = LeafEvaluator(game)
    for steps in (0, 7, 25):
        state = mid_game(name, players, 3, steps)
        values = evaluate(state)
        net = evaluate.net_for(players)
        expected = [float(v) for v in net(np.stack([enc.encode(state, s) for s in range(players)]))]
        assert values == pytest.approx(expected, abs=1e-5)


def test_one_row_for_two_reads_the_searching_seats_row_and_gives_the_other_the_rest() -> None:
    game = games.get("mamma-mia")
    evaluate = LeafEvaluator(game, one_row_for_two=True)
    state = mid_game("mamma-mia", 2, 4, 20)
    net = evaluate.net_for(2)
    v0, v1 = (float(net(encoding("mamma-mia").encode(state, s)[None, :])[0]) for s in range(2))
    assert v0 != pytest.approx(v1, abs=1e-4)  # the two rows differ, so the test tells them apart
    assert evaluate(state) == pytest.approx([v0, 1.0 - v0], abs=1e-5)  # not told: seat 0
    evaluate.set_observer(1)
    assert evaluate(state) == pytest.approx([1.0 - v1, v1], abs=1e-5)
    evaluate.set_observer(0)
    assert evaluate(state) == pytest.approx([v0, 1.0 - v0], abs=1e-5)
    four = mid_game("mamma-mia", 4, 4, 20)
    assert len(evaluate(four)) == 4  # more players: every seat's own row, as without it


def test_a_network_trained_at_one_player_count_is_used_at_that_count() -> None:
    two = shipped_net("mamma-mia", 2)
    assert two.meta["trained"]["players"] == [2]
    assert shipped_net("mamma-mia", 4) is shipped_net("mamma-mia")  # no 4-player file: the general one
    assert shipped_net("mamma-mia").meta["trained"]["players"] != [2]
    assert LeafEvaluator(games.get("mamma-mia")).net_for(2) is two


@pytest.mark.parametrize(("name", "players"), PEEK_CASES)
def test_master_decisions_ignore_hidden_cards(name: str, players: int) -> None:
    """Two worlds that agree on what the seat saw (the real one and a redeal of everything it
    cannot see) give the same move; the evaluator sees leaf observations of the search's own worlds."""
    game = games.get(name)
    for i, (state, seat, scrambles) in enumerate(scrambled_positions(name, players, 6)):
        before = state.to_json_text()
        real = make_builtin_bot("master", game, i, iterations=30).choose(state, seat)
        assert real in state.legal_actions(seat)
        assert state.to_json_text() == before
        for k, scrambled in enumerate(scrambles):
            again = make_builtin_bot("master", game, i, iterations=30).choose(scrambled, seat)
            assert again == real, f"position {i}, scramble {k}: the decision changed"


def judged_mottainai_position():  # type: ignore[no-untyped-def]
    """Mottainai (its evaluate judges every position, never None), its evaluate, a 2-player position."""
    game = games.get("mottainai")
    state = game.new_game(2, seed=5)
    for _ in range(12):
        seat = state.to_move[0]
        state.apply(seat, state.legal_actions(seat)[0])
    return game, _heuristic_module(game).evaluate, state


def test_master_blends_the_hand_written_judgement_with_the_network() -> None:
    game, hand_written, state = judged_mottainai_position()
    h, n = hand_written(state), LeafEvaluator(game)(state)
    assert h != pytest.approx(n)
    assert BlendedEvaluator(game, 0.0, hand_written)(state) == h
    assert BlendedEvaluator(game, 0.0, hand_written).network is None  # the network is never run
    assert BlendedEvaluator(game, 1.0, hand_written)(state) == pytest.approx(n)
    blended = BlendedEvaluator(game, 0.25, hand_written)(state)
    assert blended == pytest.approx([0.75 * a + 0.25 * b for a, b in zip(h, n)])


def test_master_keeps_playing_out_where_the_hand_written_judgement_declines() -> None:
    game = games.get("mamma-mia")  # its evaluate declines mid-round
    hand_written = _heuristic_module(game).evaluate
    state = game.new_game(2, seed=5)
    seat = state.to_move[0]
    state.apply(seat, state.legal_actions(seat)[0])
    assert hand_written(state) is None
    assert BlendedEvaluator(game, 0.5, hand_written)(state) is None


@pytest.mark.parametrize("blend", [-0.1, 1.5, "half"])
def test_master_refuses_a_blend_outside_0_to_1(blend: object) -> None:
    with pytest.raises(ParlorError, match="blend"):
        make_builtin_bot("master", games.get("sweet-nose"), 1, blend=blend)
    assert make_builtin_bot("master", games.get("sweet-nose"), 1, blend=1).choose  # the bounds are allowed


def test_master_takes_a_weights_file_of_ones_own(tmp_path: Path) -> None:
    game = games.get("sweet-nose")
    own = small_net("sweet-nose", seed=9)
    own.save(tmp_path / "own.npz")
    bot = make_builtin_bot("master", game, 1, weights=str(tmp_path / "own.npz"), blend=1, playout_depth=0)
    state = mid_game("sweet-nose", 3, 2, 5)
    expected = [float(v) for v in own(np.stack([encoding("sweet-nose").encode(state, s) for s in range(3)]))]
    assert bot.evaluate(state) == pytest.approx(expected, abs=1e-5)
    small_net("mamma-mia").save(tmp_path / "other.npz")
    with pytest.raises(WeightsError, match="not 'sweet-nose'"):
        make_builtin_bot("master", game, 1, weights=str(tmp_path / "other.npz"))
    with pytest.raises(WeightsError, match="no evaluator weights"):
        make_builtin_bot("master", game, 1, weights=str(tmp_path / "missing.npz"))


def test_the_search_refines_each_judged_leaf_once_and_backs_up_the_refined_values() -> None:
    game = games.get("mottainai")  # its evaluate judges every position after the playout's depth
    settings = search_settings(game, "expert")
    hand_written = settings["evaluate"]
    refined: list[list[float]] = []

    def refine(world, values):  # type: ignore[no-untyped-def]
        assert values == hand_written(world)  # type: ignore[operator]
        refined.append(values)
        return [1.0] * world.players

    state = mid_game("mottainai", 2, 3, 7)
    seat = state.to_move[0]
    bot = RootKeeper(game, 4, iterations=64, refine=refine, **settings)  # type: ignore[arg-type]
    bot.choose(state, seat)
    # At most one judged leaf per iteration (a playout that ends the game is judged by its result).
    assert bot.last_iterations // 2 < len(refined) <= bot.last_iterations
    # The refined 1.0 is what was backed up: only the unrefined iterations may fall short of it.
    shortfall = sum(child.visits - child.reward for child in bot.root.children.values())
    assert -1e-9 <= shortfall <= bot.last_iterations - len(refined) + 1e-9
    assert ISMCTSBot(game, 4, refine=refine).refine is None  # nothing to refine without an evaluate


def test_master_tells_its_leaf_whose_decision_it_is() -> None:
    game = games.get("mamma-mia")
    bot = make_bot("master:prior_depth=0:blend=0.3:one_row=1:iterations=40", game, 2)
    assert isinstance(bot, MasterBot) and isinstance(bot.leaf, BlendedEvaluator)
    for seat in (1, 0):
        state = mid_game("mamma-mia", 2, 5, 9)
        while seat not in state.to_move or len(state.legal_actions(seat)) < 2:
            mover = state.to_move[0]
            state.apply(mover, state.legal_actions(mover)[0])
        bot.choose(state, seat)
        assert bot.leaf.network is not None and bot.leaf.network.observer == seat


def test_every_kth_leaf_gets_the_network_at_k_times_the_weight() -> None:
    game, hand_written, state = judged_mottainai_position()
    h, n = hand_written(state), LeafEvaluator(game)(state)
    every = BlendedEvaluator(game, 0.25, hand_written, every=3)
    blended = pytest.approx([0.25 * a + 0.75 * b for a, b in zip(h, n)])
    assert [every(state) for _ in range(6)] == [h, h, blended, h, h, blended]
    every(state)
    every.set_observer(0)  # a new decision counts from the start
    assert [every(state) for _ in range(3)] == [h, h, blended]
    with pytest.raises(ValueError, match="every"):
        BlendedEvaluator(game, 0.5, hand_written, every=3)


@pytest.mark.parametrize(("every", "blend"), [(0, 0.3), (-1, 0.3), (1.5, 0.3), ("x", 0.3), (4, 0.3), (2, 1)])
def test_master_refuses_a_bad_every(every: object, blend: object) -> None:
    with pytest.raises(ParlorError, match="every"):
        make_builtin_bot("master", games.get("mamma-mia"), 1, blend=blend, every=every)
    assert make_builtin_bot("master", games.get("mamma-mia"), 1, blend=0.3, every=3).leaf.every == 3


@pytest.mark.parametrize(("name", "players"), [("mamma-mia", 2), ("mottainai", 2)])
def test_the_cheaper_blended_leaf_ignores_hidden_cards(name: str, players: int) -> None:
    """The one-row, every-K-th blended leaf reads the searching seat's row of the search's own
    worlds only: a redeal of everything the seat cannot see gives the same move."""
    game = games.get(name)
    spec = "master:prior_depth=0:blend=0.3:one_row=1:every=2:iterations=30"
    for i, (state, seat, scrambles) in enumerate(scrambled_positions(name, players, 4)):
        real = make_bot(spec, game, i).choose(state, seat)
        for k, scrambled in enumerate(scrambles):
            assert make_bot(spec, game, i).choose(scrambled, seat) == real, f"position {i}, scramble {k}"


@pytest.mark.parametrize("name", ["refine", "leaf", "policy", "prior"])
def test_a_spec_cannot_set_the_searchs_functions(name: str) -> None:
    with pytest.raises(ParlorError, match=f"'master' bot's {name} is set in code"):
        make_bot(f"master:{name}=3", games.get("mamma-mia"), 1)
    with pytest.raises(ParlorError, match=f"'expert' bot's {name} is set in code"):
        make_bot(f"expert:{name}=yes", games.get("mamma-mia"), 1)


@pytest.mark.parametrize("one_row", [-1, 2, 0.5, "yes"])
def test_master_refuses_a_one_row_other_than_0_or_1(one_row: object) -> None:
    with pytest.raises(ParlorError, match="one_row"):
        make_builtin_bot("master", games.get("mamma-mia"), 1, one_row=one_row)
    assert make_builtin_bot("master", games.get("mamma-mia"), 1, one_row=1).choose


# ---------------------------------------------------------------- the network as a prior near the root
class RootKeeper(ISMCTSBot):
    """The search, keeping its last decision's root so a test can read the visit counts."""

    def iterate(self, root, state, observer, rng):  # type: ignore[no-untyped-def]
        self.root = root
        super().iterate(root, state, observer, rng)


def test_master_reads_prior_depth_and_prior_visits_from_its_spec() -> None:
    game = games.get("mamma-mia")
    bot = make_bot("master:prior_depth=2:prior_visits=4:blend=0", game, 1)
    assert isinstance(bot.prior, NetworkPrior)
    assert (bot.prior_depth, bot.prior_visits) == (2, 4)
    assert bot.evaluate is _heuristic_module(game).evaluate  # blend 0: expert's own leaf
    default = make_bot("master", game, 1)  # the prior on the root's children, expert's leaf
    assert (default.prior_depth, default.prior_visits) == (1, 8) and default.evaluate is bot.evaluate
    off = make_bot("master:prior_depth=0:blend=0.3", game, 1)
    assert off.prior is None and off.prior_depth == 0
    # The search asks expert's own judgement at compiled speed; the blend refines what it judged.
    assert off.evaluate is bot.evaluate and isinstance(off.leaf, BlendedEvaluator)
    assert off.refine == off.leaf.refine


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("prior_depth", -1),
        ("prior_depth", 5),
        ("prior_depth", 1.5),
        ("prior_depth", "two"),
        ("prior_visits", 0),
        ("prior_visits", -3),
        ("prior_visits", 2.5),
        ("prior_visits", "many"),
    ],
)
def test_master_refuses_a_bad_prior_depth_or_prior_visits(name: str, value: object) -> None:
    with pytest.raises(ParlorError, match=f"'master' bot's {name} must be a whole number"):
        make_builtin_bot("master", games.get("mamma-mia"), 1, **{name: value})


def test_the_network_prior_is_the_networks_value_of_the_movers_own_observation() -> None:
    game = games.get("mamma-mia")
    state = mid_game("mamma-mia", 2, 3, 7)
    prior = NetworkPrior(game)
    net = shipped_net("mamma-mia", 2)
    for seat in range(2):
        expected = float(net(encoding("mamma-mia").encode(state, seat)[None, :])[0])
        assert prior(state, seat) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("depth", [1, 2])
def test_the_prior_seeds_each_new_node_near_the_root_once(depth: int) -> None:
    game = games.get("mamma-mia")
    state = mid_game("mamma-mia", 2, 3, 7)
    seat = state.to_move[0]
    calls: list[int] = []

    def prior(world, mover):  # type: ignore[no-untyped-def]
        calls.append(mover)
        return 0.5

    bot = RootKeeper(
        game, 4, iterations=120, prior=prior, prior_depth=depth, prior_visits=6, **search_settings(game, "expert")
    )  # type: ignore[arg-type]
    bot.choose(state, seat)
    root = bot.root
    assert bot.last_priors == len(calls) > 0
    # Every root child was judged once, by the searching seat's value, and starts 6 visits up.
    assert all(child.visits >= 7 for child in root.children.values())
    assert sum(c.visits for c in root.children.values()) == root.visits + 6 * len(root.children)
    grandchildren = sum(len(c.children) for c in root.children.values())
    assert len(calls) == len(root.children) + (grandchildren if depth == 2 else 0)
    if depth == 1:
        assert set(calls) == {seat}  # the root's children are the searching seat's moves


def test_a_strong_prior_decides_the_move_and_none_leaves_the_search_as_it_was() -> None:
    game = games.get("mamma-mia")
    state = mid_game("mamma-mia", 2, 3, 7)
    seat = state.to_move[0]
    settings = search_settings(game, "expert")
    plain = RootKeeper(game, 4, iterations=200, **settings)  # type: ignore[arg-type]
    plain_move = plain.choose(state, seat)
    first: list[object] = []

    def favour_the_first(world, mover):  # type: ignore[no-untyped-def]
        first.append(mover)
        return 1.0 if len(first) == 1 else 0.0

    biased = RootKeeper(game, 4, iterations=200, prior=favour_the_first, prior_depth=1, prior_visits=1000, **settings)  # type: ignore[arg-type]
    move = biased.choose(state, seat)
    favoured = max(biased.root.children.values(), key=lambda c: c.reward)
    assert move == favoured.action and favoured.reward >= 1000
    assert len(plain.root.children) > 1 and biased.last_priors == len(biased.root.children)
    assert plain.last_priors == 0 and all(c.visits < 1000 for c in plain.root.children.values())
    assert plain_move in state.legal_actions(seat)


def test_master_with_the_prior_is_deterministic_under_a_seed() -> None:
    game = games.get("sweet-nose")
    for i in range(3):
        state = mid_game("sweet-nose", 3, i, 4 + i)
        seat = state.to_move[0]
        runs = []
        for _ in range(2):
            bot = make_bot("master:prior_depth=2:prior_visits=8:iterations=80", game, 11)
            runs.append((bot.choose(state, seat), bot.last_iterations, bot.last_priors))
        assert runs[0] == runs[1] and runs[0][2] > 0
