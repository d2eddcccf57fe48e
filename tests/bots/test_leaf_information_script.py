"""scripts/leaf_information.py (docs/strength.md, "What the network knows beyond the score"): at
the positions the search judges it keeps the game's own judgement, the network's and the final
reward, the same under a seed; its provisional scores are the ones each game's ``evaluate``
reads; the report comes from the file alone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from parlor.bots.ismcts import margin_rewards

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "leaf_information.py"
# The scale of each game's hand-written evaluate (its heuristic.py).
EVALUATE_SCALE = {"sweet-nose": 4.0, "mamma-mia": 1.5, "mottainai": 4.0}


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(("game", "players"), [("sweet-nose", 3), ("mamma-mia", 2), ("mottainai", 2)])
def test_the_scores_kept_are_the_ones_the_games_evaluate_reads(tmp_path: Path, game: str, players: int) -> None:
    out = tmp_path / "rows.npz"
    run(game, str(players), "2", "--bot", "medium", "--every", "5", "--out", str(out))
    data = np.load(out)
    rows = data["rows"]
    assert len(rows) >= 2 * players and int(data["players"]) == players
    scores = rows[:, 6 : 6 + players]
    for row, own_first in zip(rows, scores):
        # the judgement kept is evaluate's reward of these scores, for the row's own seat
        assert row[3] == pytest.approx(margin_rewards(list(own_first), EVALUATE_SCALE[game])[0])
        assert 0.0 < row[4] < 1.0  # the network's value
    for g in np.unique(rows[:, 0]):  # a seat's final reward is the same at every stage of its game
        mine = rows[rows[:, 0] == g]
        for seat in range(players):
            assert len(set(mine[mine[:, 2] == seat, 5])) == 1


def test_rows_are_the_same_under_a_seed_and_the_report_reads_the_file(tmp_path: Path) -> None:
    first, second = tmp_path / "a.npz", tmp_path / "b.npz"
    small = ["sweet-nose", "3", "16", "--bot", "medium", "--seed", "4"]
    run(*small, "--out", str(first))
    run(*small, "--out", str(second))
    assert np.array_equal(np.load(first)["rows"], np.load(second)["rows"])
    out = run("--report", str(first))
    assert "sweet-nose, 3 players, 16 games of medium" in out
    table = [line for line in out.splitlines() if line.startswith("| 2 ") or line.startswith("| 3 ")]
    assert len(table) == 2  # the starts of rounds 2 and 3 (round 1's leads are all 0)
    for line in table:
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert int(cells[1]) == 16 * 3  # rows: one round start per game, three seats
        assert all(np.isfinite(float(c)) and float(c) <= 1.0 for c in cells[2:5])  # held-out R²
    done = subprocess.run([sys.executable, str(SCRIPT), "mamma-mia"], capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "GAME PLAYERS GAMES" in done.stderr


def test_the_rescaled_leaf_bots_judge_a_round_start_with_their_own_scale() -> None:
    from parlor import games
    from parlor.bots import make_bot
    from parlor.bots.spec import parse_bot_spec

    game = games.get("sweet-nose")
    spec = str(SCRIPT.parent / "leaf_scale_bots.py") + ":FittedScale:iterations=60"
    bot = parse_bot_spec(spec)(game, 3)
    state = game.new_game(3, seed=5)
    players = [make_bot("medium", game, s) for s in range(3)]
    while state.round < 2:  # play round 1 to the start of round 2
        seat = state.to_move[0]
        state.apply(seat, players[seat].choose(state, seat))
    from parlor.games.sweet_nose.playout import _NONE, _TILE_VALUE, evaluate

    judged = evaluate(state)
    assert judged is not None and state.round == 2
    lead = [(_TILE_VALUE[h] if h != _NONE else 0.0) - s for h, s in zip(state.held, state.scores)]
    assert judged == pytest.approx(margin_rewards(lead, 4.0))  # expert's leaf
    rescaled = bot.refine(state, judged)
    assert rescaled == pytest.approx(margin_rewards(lead, 10.0)) and rescaled != judged
    seat = state.to_move[0]
    assert bot.choose(state, seat) in state.legal_actions(seat)


def test_a_wrong_path_a_corrupt_file_or_an_unknown_game_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.npz"
    corrupt.write_text("not numpy")
    out = tmp_path / "never.npz"
    scripts, missing = SCRIPT.parent, str(tmp_path / "missing.npz")
    cases = [
        ([str(SCRIPT), "--report", missing], "no such file"),
        ([str(SCRIPT), "--report", str(corrupt)], "is not a file written by this script"),
        ([str(SCRIPT), "mama-mia", "2", "3", "--out", str(out)], "unknown game 'mama-mia'"),
        ([str(scripts / "root_moves.py"), "--report", missing], "no such file"),
        ([str(scripts / "policy_fit.py"), "mamma-mia", missing, "--out", str(out)], "no such file"),
    ]
    for args, message in cases:
        done = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120)
        assert done.returncode != 0 and message in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_the_oracle_bound_searches_the_real_state_and_plays() -> None:
    from parlor import games
    from parlor.bots.spec import parse_bot_spec

    game = games.get("mamma-mia")
    oracle = parse_bot_spec(str(SCRIPT.parent / "oracle_bots.py") + ":OracleExpert:iterations=40")(game, 1)
    state = game.new_game(2, seed=9)
    seat = state.to_move[0]
    worlds = [oracle.sampler(state, seat)(None) for _ in range(3)]
    assert all(w.to_json() == state.to_json() for w in worlds)  # every world is the real one
    assert state.determinize(seat, oracle.rng).to_json() != state.to_json()  # what a fair search would deal
    assert oracle.choose(state, seat) in state.legal_actions(seat)


def test_the_hands_known_bound_keeps_the_real_hands_and_reshuffles_the_rest() -> None:
    from parlor import games
    from parlor.bots.spec import parse_bot_spec
    from parlor.core.rng import FastRng

    game = games.get("mamma-mia")
    bot = parse_bot_spec(str(SCRIPT.parent / "oracle_bots.py") + ":HandsKnownExpert:iterations=40")(game, 1)
    state = game.new_game(2, seed=9)
    seat = state.to_move[0]
    world = bot.sampler(state, seat)(FastRng(5))
    assert world.hand_toppings == state.hand_toppings and world.hand_orders == state.hand_orders
    assert sorted(world.supply) == sorted(state.supply) and world.supply != state.supply
    assert bot.choose(state, seat) in state.legal_actions(seat)


def test_the_hands_known_bound_in_mottainai_keeps_the_hands_and_deals_the_rest_among_themselves() -> None:
    from collections import Counter

    from parlor import games
    from parlor.bots import make_builtin_bot
    from parlor.bots.spec import parse_bot_spec
    from parlor.core.rng import FastRng

    game = games.get("mottainai")
    state = game.new_game(2, seed=5)
    players = [make_builtin_bot("medium", game, s) for s in range(2)]
    for _ in range(40):  # into the game, so that cards have moved about
        mover = state.to_move[0]
        state.apply(mover, players[mover].choose(state, mover))
    seat = state.to_move[0]

    def every_card(s: object) -> Counter[int]:
        cards: Counter[int] = Counter(c for hand in s.hands for c in hand)  # type: ignore[attr-defined]
        cards.update(c for place in s.waiting for c in place)  # type: ignore[attr-defined]
        cards.update(s.deck)  # type: ignore[attr-defined]
        cards.update(t for t in s.tasks if t >= 0)  # type: ignore[attr-defined]
        return cards

    bot = parse_bot_spec(str(SCRIPT.parent / "oracle_bots.py") + ":HandsKnownExpert:iterations=40")(game, 1)
    deal = bot.sampler(state, seat)
    worlds = [deal(FastRng(r)) for r in range(4)]
    assert all(w.hands == state.hands for w in worlds)  # the other hand as it really is
    assert all(every_card(w) == every_card(state) for w in worlds)  # no card made or lost
    assert any(w.deck != state.deck for w in worlds)  # the deck's unseen order is dealt afresh
    seen = [i for i, k in enumerate(state.deck_info) if k in (-2, seat)]  # EVERYONE or the seat saw it
    assert all(w.deck[i] == state.deck[i] for w in worlds for i in seen)
    assert bot.choose(state, seat) in state.legal_actions(seat)
