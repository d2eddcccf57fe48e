"""Sweet Nose's learned belief (``parlor.games.sweet_nose.belief``), master's way of dealing the
other players' secret placements: it reads public facts only, so its deals and master's moves are
the same in every world the seat cannot tell apart; it follows its weights; the shipped weights
read real games better than the uniform deal; the fit script makes weights master accepts; bad
weight files are refused with one line."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from parlor import games
from parlor.bots import make_bot
from parlor.core import ParlorError, Rng
from parlor.games.sweet_nose import belief
from parlor.games.sweet_nose.actions import PERMUTATIONS, AssignSweetness
from parlor.games.sweet_nose.rules import EXCHANGE

from .test_all_games import sweet_nose_twin

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "sweet_nose_belief.py"
GAME = games.get("sweet-nose")


def trading_positions(count: int, players: int = 3, seed: int = 7, bot: str = "random") -> list:
    """Positions in the middle of trading (some in round 2 or 3), with trades behind them, from
    games of ``bot`` against itself."""
    rnd = random.Random(seed)
    out = []
    state = GAME.new_game(players, seed)
    bots = [make_bot(bot, GAME, seed + s) for s in range(players)]
    while len(out) < count:
        if state.is_over:
            seed += 1
            state = GAME.new_game(players, seed)
            continue
        seat = state.to_move[0]
        if state.step == EXCHANGE and not state.revealed and state.phase_turns > 3 and rnd.random() < 0.1:
            out.append(state.clone())
        state.apply(seat, bots[seat].choose(state, seat))
    return out


@pytest.mark.parametrize("players", [3, 4])
def test_the_belief_reads_no_hidden_placement(players: int) -> None:
    """Replays that differ only in the others' placements of this round give the same facts, the
    same deals and the same master move; the real placements do differ between them."""
    for i, state in enumerate(trading_positions(6, players=players)):
        seat = state.to_move[0]
        twins = [sweet_nose_twin(state, seat, random.Random(100 * i + k)) for k in range(3)]
        assert any(t.sweetness != state.sweetness for t in twins), "the twins hide nothing different"
        deal = belief.BeliefSampler()(state, seat)
        dealt = [deal(Rng(5)).sweetness for _ in range(1)]
        move = make_bot("master:iterations=60", GAME, i).choose(state, seat)
        for twin in twins:
            assert twin.view(seat, recall=True) == state.view(seat, recall=True)
            assert np.array_equal(belief.facts(twin), belief.facts(state))
            again = belief.BeliefSampler()(twin, seat)
            assert [again(Rng(5)).sweetness for _ in range(1)] == dealt
            assert make_bot("master:iterations=60", GAME, i).choose(twin, seat) == move


def test_the_deal_keeps_the_seats_own_placement_and_follows_the_weights() -> None:
    state = trading_positions(1, seed=11)[0]
    seat = state.to_move[0]
    others = [p for p in range(3) if p != seat]
    facts = belief.facts(state)
    # Sharp weights: every deal is a placement the weights rank first (kinds with the same facts tie).
    sharp = belief.shipped_weights() * 10_000

    def favourites(p: int) -> set:
        w = belief.log_weights(sharp, facts[p])
        return {PERMUTATIONS[j] for j in np.flatnonzero(w >= w.max() - 1e-6)}

    best = {p: favourites(p) for p in others}
    assert all(len(b) < 10 for b in best.values())
    deal = belief.BeliefSampler(sharp)(state, seat)
    for k in range(20):
        world = deal(Rng(k))
        assert world.sweetness[seat] == state.sweetness[seat]
        assert all(world.sweetness[p] in best[p] for p in others)
    # No weights at all: the uniform deal, so placements vary freely.
    flat = belief.BeliefSampler(np.zeros(2 * len(belief.FACTS)))(state, seat)
    seen = {flat(Rng(k)).sweetness[others[0]] for k in range(200)}
    assert len(seen) > 60


def test_the_deal_is_the_same_under_a_seed_and_master_is_deterministic() -> None:
    state = trading_positions(2, seed=12)[1]
    seat = state.to_move[0]
    deal = belief.BeliefSampler()(state, seat)
    assert deal(Rng(3)).to_json() == deal(Rng(3)).to_json()
    runs = [make_bot("master:iterations=80", GAME, 4).choose(state, seat) for _ in range(2)]
    assert runs[0] == runs[1]


def log_loss(theta: np.ndarray, positions: list) -> float:
    """The mean log-loss of the real placements at ``positions`` under the belief ``theta``."""
    losses = []
    for state in positions:
        w = belief.log_weights(theta, belief.facts(state))
        w = w - w.max(axis=1, keepdims=True)
        log_p = w - np.log(np.exp(w).sum(axis=1, keepdims=True))
        for p in range(state.players):
            losses.append(-log_p[p, PERMUTATIONS.index(tuple(state.sweetness[p]))])
    return float(np.mean(losses))


@pytest.mark.parametrize("players", [3, 4])
def test_the_shipped_belief_reads_unseen_games_better_than_the_uniform_deal(players: int) -> None:
    """Log-loss of the real placements at trading positions of games of ``medium`` (not the games
    the weights were fitted on, nor their player, ``hard``) against ln 120, the uniform deal's."""
    positions = trading_positions(60, players=players, seed=501, bot="medium")
    assert log_loss(belief.shipped_weights(players), positions) < math.log(120) - 0.1


def test_each_player_count_gets_its_own_shipped_belief() -> None:
    """At 4 (and 5) players master deals from the belief fitted on 4-player games, which reads them
    better than the 3-player one; at 3 from the 3-player one. The games read are ``medium``'s: not
    the player the weights were fitted on, and quick to play (``hard``'s took half a minute; the
    4-player belief's lead was 0.14 nats there, 0.6 on these)."""
    assert belief.shipped_file(3) == "belief.json"
    assert belief.shipped_file(4) == belief.shipped_file(5) == "belief_4p.json"
    four, three = belief.shipped_weights(4), belief.shipped_weights(3)
    assert not np.array_equal(four, three)
    positions = trading_positions(60, players=4, seed=601, bot="medium")
    assert log_loss(four, positions) < log_loss(three, positions)
    state = positions[0]
    seat = state.to_move[0]

    def deals(sampler: belief.BeliefSampler) -> list:
        deal = sampler(state, seat)
        return [deal(Rng(r)).sweetness for r in range(20)]

    by_default = deals(belief.BeliefSampler())  # the default follows the table's count
    assert by_default == deals(belief.BeliefSampler(four))
    assert by_default != deals(belief.BeliefSampler(three))


def test_master_deals_by_the_belief_in_sweet_nose_only() -> None:
    bot = make_bot("master", GAME, 1)
    assert isinstance(bot.sampler, belief.BeliefSampler) and bot.prior is None
    plain = make_bot("master:belief=0", GAME, 1)
    assert plain.sampler is None and plain.prior is not None  # the network prior, as elsewhere
    assert make_bot("master", games.get("mamma-mia"), 1).sampler is None
    with pytest.raises(ParlorError, match="no learned belief for mamma-mia"):
        make_bot("master:belief=1", games.get("mamma-mia"), 1)
    with pytest.raises(ParlorError, match="belief must be a whole number from 0 to 1"):
        make_bot("master:belief=2", GAME, 1)


def test_bad_belief_files_are_refused_with_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.json"
    with pytest.raises(ParlorError, match="cannot read belief weights"):
        make_bot(f"master:belief_weights={missing}", GAME, 1)
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(ParlorError, match="is not JSON"):
        make_bot(f"master:belief_weights={broken}", GAME, 1)
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": 1, "game": "mamma-mia", "facts": list(belief.FACTS), "theta": [0] * 18}))
    with pytest.raises(ParlorError, match="not a Sweet Nose belief file"):
        make_bot(f"master:belief_weights={other}", GAME, 1)
    short = tmp_path / "short.json"
    short.write_text(json.dumps({"format": 1, "game": "sweet-nose", "facts": list(belief.FACTS), "theta": [0] * 5}))
    with pytest.raises(ParlorError, match="no 18 numbers"):
        make_bot(f"master:belief_weights={short}", GAME, 1)
    with pytest.raises(ParlorError, match="belief_weights needs belief=1"):
        make_bot(f"master:belief=0:belief_weights={short}", GAME, 1)


def test_the_script_collects_fits_and_reports(tmp_path: Path) -> None:
    data, weights = tmp_path / "belief.npz", tmp_path / "belief.json"

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        return done.stdout

    run("collect", "4", "--bot", "medium", "--seed", "3", "--out", str(data))
    rows = np.load(data)
    assert rows["x"].shape[1:] == (5, len(belief.FACTS)) and len(rows["x"]) == len(rows["y"]) > 0
    # Each row's label is a real placement, and its facts are the facts of a real position.
    assert all(0 <= y < 120 for y in rows["y"])
    run("fit", str(data), "--out", str(weights))
    theta = belief.load_weights(str(weights))
    assert theta.shape == (2 * len(belief.FACTS),) and np.any(theta != 0)
    assert "log-loss" in run("report", str(data), str(weights))
    bot = make_bot(f"master:belief_weights={weights}:iterations=30", GAME, 1)
    state = trading_positions(1, seed=13)[0]
    assert bot.choose(state, state.to_move[0]) in state.legal_actions(state.to_move[0])
    report_missing = [sys.executable, str(SCRIPT), "report", str(tmp_path / "no.npz"), str(weights)]
    wrong = subprocess.run(report_missing, capture_output=True, text=True, timeout=600)
    assert wrong.returncode != 0 and "Traceback" not in wrong.stderr and "no.npz" in wrong.stderr


def test_a_placement_still_to_be_made_is_not_dealt() -> None:
    """In phase 1 a player who has not placed yet has nothing hidden; the deal leaves them be."""
    state = GAME.new_game(3, 21)
    state.apply(0, AssignSweetness(values=PERMUTATIONS[7]))
    deal = belief.BeliefSampler()(state, 1)
    world = deal(Rng(2))
    assert world.sweetness[2] == () and world.sweetness[1] == ()
    assert world.sweetness[0] in PERMUTATIONS


def test_the_strength_tables_belief_rows_are_their_match_files() -> None:
    """docs/strength.md's rows for the belief (and its bound) give the score and interval their
    tournament JSON holds, for the bot the row names."""
    docs = Path(__file__).resolve().parents[2] / "docs"
    text = (docs / "strength.md").read_text(encoding="utf-8")
    section = text[text.index("### A learned belief about the others' sweetness") :]
    rows = [line for line in section.splitlines() if line.startswith("|") and line.rstrip(" |").endswith(".json`")]
    assert len(rows) >= 4
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        name = cells[-1].strip("`")
        match = json.loads((docs / "strength" / "evaluator" / name).read_text(encoding="utf-8"))
        first = match["head_to_head"][0]
        assert first["b"].startswith("expert:seconds=0.1"), name
        shown = [float(x) for x in cells[-2].strip("[]").split(", ")]
        for written, exact in zip([float(cells[-3]), *shown], [first["score"], *first["ci95"]]):
            assert abs(written - exact) <= 0.0005 + 1e-9, f"{name}: {written} is not {exact} to 3 places"
        assert int(cells[-4]) == first["games"] == match["games_planned"], name
