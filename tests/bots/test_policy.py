"""The learned move prior (``master:puct=...``): its files, its fit, the PUCT bonus at the root,
and a search that stays blind with it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from parlor import games
from parlor.bots import make_bot
from parlor.bots.evaluator import ValueNet, WeightsError
from parlor.bots.policy import POLICY_KIND, PolicyPrior, load_policy, shipped_policy
from parlor.core.errors import ParlorError
from parlor.rl import encoding
from parlor.training.policy import fit_policy, group_softmax

from .test_all_games import PEEK_CASES, scrambled_positions

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def policy_file(tmp_path: Path, game: str = "sweet-nose", seed: int = 3) -> Path:
    net = ValueNet.initial(game, encoding(game).LAYOUT.size, (8,), seed)
    net.meta["kind"] = POLICY_KIND
    path = tmp_path / f"{game}-policy.npz"
    net.save(path)
    return path


def test_a_policy_file_is_checked_and_a_value_network_is_not_taken_for_one(tmp_path: Path) -> None:
    good = policy_file(tmp_path)
    size = encoding("sweet-nose").LAYOUT.size
    assert load_policy(good, game="sweet-nose", input_size=size).meta["kind"] == POLICY_KIND
    value = tmp_path / "value.npz"
    ValueNet.initial("sweet-nose", size, (8,), 1).save(value)
    with pytest.raises(WeightsError, match="not a move-prior"):
        load_policy(value, game="sweet-nose", input_size=size)
    with pytest.raises(WeightsError, match="not 'mamma-mia'"):
        load_policy(good, game="mamma-mia", input_size=encoding("mamma-mia").LAYOUT.size)
    broken = tmp_path / "broken.npz"
    broken.write_bytes(good.read_bytes()[:100])
    with pytest.raises(WeightsError, match="not a readable"):
        load_policy(broken, game="sweet-nose", input_size=size)
    with pytest.raises(ParlorError, match="not a move-prior"):
        make_bot(f"master:puct=1:move_prior={value}", games.get("sweet-nose"), 1)
    with pytest.raises(ParlorError, match="puct must be a number of at least 0"):
        make_bot("master:puct=-1", games.get("sweet-nose"), 1)


def test_the_fit_learns_which_sibling_the_teacher_visits_most() -> None:
    """Groups of 4 moves; the teacher's visits go to the move with the largest first feature."""
    rng = np.random.default_rng(0)
    groups, size = 300, 4
    x = rng.random((groups * size, 6)).astype(np.float32)
    starts = np.arange(0, groups * size, size)
    target = group_softmax(8.0 * x[:, 0].astype(np.float64), starts)
    first = fit_policy(x, target, starts, game="sweet-nose", epochs=60, lr=0.03, seed=1)
    again = fit_policy(x, target, starts, game="sweet-nose", epochs=60, lr=0.03, seed=1)
    assert all(np.array_equal(a, b) for (a, _), (b, _) in zip(first.layers, again.layers))  # seeded
    scores = first.logits(x)
    top1 = np.mean([np.argmax(scores[s : s + size]) == np.argmax(target[s : s + size]) for s in starts])
    assert top1 > 0.8  # a random scorer agrees a quarter of the time
    assert first.meta["kind"] == POLICY_KIND and first.meta["groups"] == groups


def test_the_prior_is_a_distribution_over_the_given_moves_and_the_same_under_a_seed(tmp_path: Path) -> None:
    from parlor.core.rng import FastRng

    game = games.get("sweet-nose")
    prior = PolicyPrior(game, load_policy(policy_file(tmp_path), game="sweet-nose", input_size=339))
    state = game.new_game(3, seed=2)
    seat = state.to_move[0]
    moves = state.legal_actions(seat)[:7]
    p = prior(state, seat, moves, FastRng(4))
    assert len(p) == 7 and abs(sum(p) - 1) < 1e-6 and min(p) > 0
    assert p == prior(state, seat, moves, FastRng(4))
    assert len(set(p)) > 1


def test_a_strong_move_prior_draws_the_roots_visits_and_puct_0_is_the_plain_search(tmp_path: Path) -> None:
    game = games.get("sweet-nose")
    state = game.new_game(3, seed=3)
    seat = state.to_move[0]
    favoured = state.legal_actions(seat)[-1]

    def certain(state, seat, moves, rng):  # type: ignore[no-untyped-def]
        return [1.0 if m == favoured else 0.0 for m in moves]

    biased = make_bot("master:prior_depth=0:belief=0:iterations=400", game, 5)
    biased.root_policy, biased.puct = certain, 50.0
    assert biased.choose(state, seat) == favoured
    plain = make_bot("master:prior_depth=0:belief=0:iterations=400", game, 5)
    expert = make_bot("expert:iterations=400", game, 5)
    assert plain.choose(state, seat) == expert.choose(state, seat) and plain.root_p is None


def test_master_with_the_move_prior_is_deterministic_under_a_seed(tmp_path: Path) -> None:
    game = games.get("sweet-nose")
    spec = f"master:prior_depth=0:puct=2:move_prior={policy_file(tmp_path)}:iterations=120"
    state = game.new_game(3, seed=4)
    for _ in range(5):
        seat = state.to_move[0]
        runs = []
        for _ in range(2):
            bot = make_bot(spec, game, 11)
            runs.append((bot.choose(state, seat), bot.last_iterations, bot.root_p))
        assert runs[0] == runs[1] and runs[0][2]
        state.apply(seat, runs[0][0])


@pytest.mark.parametrize(("name", "players"), PEEK_CASES)
def test_the_move_prior_ignores_hidden_cards(tmp_path: Path, name: str, players: int) -> None:
    """The prior reads the seat's observation in worlds the search deals itself: the real state and
    a redeal of everything the seat cannot see give the same move."""
    game = games.get(name)
    spec = f"master:puct=3:move_prior={policy_file(tmp_path, name)}:iterations=30"
    for i, (state, seat, scrambles) in enumerate(scrambled_positions(name, players, 4)):
        real = make_bot(spec, game, i).choose(state, seat)
        for k, scrambled in enumerate(scrambles):
            assert make_bot(spec, game, i).choose(scrambled, seat) == real, f"position {i}, scramble {k}"


def test_root_moves_policy_only_and_the_fit_script(tmp_path: Path) -> None:
    data, weights = tmp_path / "roots.npz", tmp_path / "policy.npz"
    collect = [sys.executable, str(SCRIPTS / "root_moves.py"), "sweet-nose", "3", "2", "--policy-only"]
    collect += ["--teacher", "60", "--sample", "0.3", "--bot", "medium", "--out", str(data)]
    done = subprocess.run(collect, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    roots = np.load(data)
    assert np.isnan(roots["net_v"]).all() and (roots["teacher_n"] > 0).all() and set(roots["game"]) == {0, 1}
    fit = [sys.executable, str(SCRIPTS / "policy_fit.py"), "sweet-nose", str(data), "--out", str(weights)]
    done = subprocess.run([*fit, "--epochs", "3", "--held-out", "0.5"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "held-out roots: policy top-1" in done.stdout
    assert load_policy(weights, game="sweet-nose", input_size=339).meta["rows"] > 0


def test_a_move_prior_spec_that_could_not_work_is_refused_when_the_bot_is_made(tmp_path: Path) -> None:
    """No move prior ships, so puct needs a file; a file needs puct; other levels have no prior.
    Each is refused when the spec is read, not at the first decision (or silently ignored)."""
    game = games.get("mottainai")
    with pytest.raises(ParlorError, match="puct needs move_prior=FILE: no move prior ships for mottainai"):
        make_bot("master:puct=1:iterations=20", game, 1)
    with pytest.raises(ParlorError, match="move_prior needs a puct weight"):
        make_bot(f"master:move_prior={policy_file(tmp_path)}", games.get("sweet-nose"), 1)
    for level in ("expert", "hard", "ismcts"):
        with pytest.raises(ParlorError, match="puct is a 'master' parameter"):
            make_bot(f"{level}:puct=1", game, 1)
    with pytest.raises(WeightsError, match="no move prior ships for mottainai at 2 players"):
        shipped_policy("mottainai", 2)
