"""Every bot on every game: legal moves, reproducible games, decisions blind to hidden cards.

Written against the engine protocol and ``parlor.games.names()``, so a newly registered game is
covered without a line of change. Three properties:

* **Legality.** Under every rule option variant (the defaults and each non-default finite value,
  enumerated exactly as ``tests/test_contract_options.py`` does) and every player count the
  variant allows, a whole game is played by a mix of bots (ISMCTS on a tiny budget in one seat,
  the heuristic, the noisy ``easy`` level and random play in the others); every chosen action
  must be among the seat's legal actions, and choosing must not change the state. ``hard`` and
  ``expert`` are slow, so they choose only at a few positions.
* **Determinism.** The same seeds and bots give byte-identical records and states, in this
  process and in another one with a different string-hash seed.
* **No peeking.** Mid-game, the state is scrambled with ``determinize`` for the seat to move
  (everything that seat cannot see is redealt); the same bot with the same seed must choose the
  same action on the real and on the scrambled state.

The ``stress``-marked variants run longer and only with ``PARLOR_STRESS=1``; the unmarked tests
are their short version.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest

from parlor import games
from parlor.bots import make_bot, search_settings
from parlor.bots.ismcts import ISMCTSBot
from parlor.core import ParlorError, Rng

from ..test_contract_options import variants

STRESS = os.environ.get("PARLOR_STRESS") == "1"
stress_only = pytest.mark.skipif(not STRESS, reason="long run: set PARLOR_STRESS=1")
MAX_DECISIONS = 20_000  # a game that takes longer than this counts as "never ends"
LIGHT = ("medium", "easy", "random")  # the cheap bots; ``medium`` is the heuristic
ROOT = Path(__file__).resolve().parents[2]


def canon(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False)


def salt(text: str) -> int:
    """A seed from a case's id: stable across runs and interpreters (unlike ``hash``)."""
    return zlib.crc32(text.encode())


def make(kind: str, game: Any, seed: int, budget: tuple[int, int] = (4, 20)) -> Any:
    """A bot by ``make_bot`` kind, except ``ismcts``: the search on a tiny ``budget`` of (iterations,
    playout steps; a longer playout is cut and scores 0 for everyone)."""
    if kind == "ismcts":
        iterations, steps = budget
        return ISMCTSBot(game, seed, iterations=iterations, max_playout_steps=steps)
    return make_bot(kind, game, seed)


def lineup(players: int, turn: int) -> list[str]:
    """ISMCTS in one seat, the light bots in the others; ``turn`` rotates the seat and the mix."""
    kinds = [LIGHT[(turn + i) % len(LIGHT)] for i in range(players - 1)]
    kinds.insert(turn % players, "ismcts")
    return kinds


def play_checked(state: Any, bots: list[Any], rnd: random.Random, check_state: bool = False, label: str = "") -> int:
    """Play to the end with ``bots``, asserting every choice is legal. Returns the decisions made.

    The seat to decide is drawn among ``state.to_move`` (Sweet Nose has a simultaneous phase, and
    the server asks its bots in any order; there ISMCTS, asked for a later seat, searches the
    first seat's decision and is legal only because both seats have the same actions).
    ``check_state``: also assert that choosing leaves the state as it was (costs a ``to_json`` per
    decision). ``label`` starts every failure message.
    """
    decisions = 0
    while not state.is_over:
        assert decisions < MAX_DECISIONS, f"{label}the game does not end"
        seat = rnd.choice(state.to_move)
        legal = state.legal_actions(seat)
        before = state.to_json_text() if check_state else None
        action = bots[seat].choose(state, seat)
        who = f"{label}decision {decisions}: {bots[seat].name} (seat {seat})"
        assert action in legal, f"{who} chose illegal {action!r}"
        if check_state:
            assert state.to_json_text() == before, f"{who} changed the state"
        state.apply(seat, action)
        decisions += 1
    return decisions


def mid_game_positions(name: str, players: int, count: int, seed: int = 0) -> list[Any]:
    """``count`` seeded positions from random games, each with more than one choice for the seat to move."""
    game = games.get(name)
    rnd = random.Random(seed)
    out = []
    state = game.new_game(players, seed)
    while len(out) < count:
        if state.is_over:
            seed += 1
            state = game.new_game(players, seed)
            continue
        seat = state.to_move[0]
        if len(state.legal_actions(seat)) > 1 and rnd.random() < 0.15:
            out.append(state.clone())
        state.apply(seat, rnd.choice(state.legal_actions(seat)))
    return out


def two_counts(name: str) -> tuple[int, int]:
    game = games.get(name)
    return game.min_players, game.max_players


# ---------------------------------------------------------------------------------------- legality


def option_cases() -> list[Any]:
    """(game, options, players) for every option variant of ``test_contract_options`` plus the
    defaults, at every player count the variant allows."""
    cases = []
    defaults = [pytest.param(n, None, id=f"{n}-default") for n in games.names()]  # None: as for new_game(n, seed)
    for variant in defaults + variants():
        name, options = variant.values
        game = games.get(name)
        for players in range(game.min_players, game.max_players + 1):
            try:
                game.new_game(players, 0, options)
            except ParlorError:
                continue  # e.g. Mottainai at 6 needs max_players=6 or the v0.84 rules
            cases.append(pytest.param(name, options, players, id=f"{variant.id}-{players}p"))
    return cases


OPTION_CASES = option_cases()


def test_every_option_variant_is_played():
    played = {case.id.rsplit("-", 1)[0] for case in OPTION_CASES}
    assert {v.id for v in variants()} <= played
    assert {f"{n}-default" for n in games.names()} <= played
    for name in games.names():  # the defaults at every player count
        low, high = two_counts(name)
        assert {f"{name}-default-{p}p" for p in range(low, high + 1)} <= {c.id for c in OPTION_CASES}


@pytest.mark.parametrize(("name", "options", "players"), OPTION_CASES)
def test_bots_play_legally_under_every_option(request, name, options, players):
    """A whole game by the mixed lineup; the seed, the lineup and its seats come from the case's id."""
    game = games.get(name)
    seed = salt(request.node.callspec.id)
    kinds = lineup(players, seed)
    bots = [make(kind, game, seed + seat) for seat, kind in enumerate(kinds)]
    state = game.new_game(players, seed, options)
    assert play_checked(state, bots, random.Random(seed)) > 0
    assert len(state.result().places) == players


@pytest.mark.stress
@stress_only
@pytest.mark.parametrize("name", games.names())
def test_stress_every_seat_searches_under_every_option(name):
    """Long version: ISMCTS with complete playouts in every seat, two seeds per case, and choosing
    must leave the state unchanged."""
    game = games.get(name)
    for case in OPTION_CASES:
        case_name, options, players = case.values
        if case_name != name:
            continue
        for k in range(2):
            seed = salt(f"{case.id}/{k}")
            bots = [make("ismcts", game, seed + seat, budget=(8, MAX_DECISIONS)) for seat in range(players)]
            state = game.new_game(players, seed, options)
            play_checked(state, bots, random.Random(seed), check_state=True, label=f"{case.id}, seed {seed}: ")


def positions_along(name: str, players: int, fractions: tuple[float, ...], seed: int) -> list[Any]:
    """Positions of a seeded random game at the given fractions of its decisions that offer a choice
    (late positions keep the full-budget searches affordable: their playouts are short)."""
    game = games.get(name)
    state, rnd, positions = game.new_game(players, seed), random.Random(seed), []
    while not state.is_over:
        seat = state.to_move[0]
        if len(state.legal_actions(seat)) > 1:
            positions.append(state.clone())
        state.apply(seat, rnd.choice(state.legal_actions(seat)))
    return [positions[int(f * len(positions))] for f in fractions]


def assert_search_levels_legal(name: str, players: int, plan: dict[str, tuple[float, ...]]) -> None:
    game = games.get(name)
    for kind, fractions in plan.items():
        for f, state in zip(fractions, positions_along(name, players, fractions, seed=100 + players)):
            seat = state.to_move[0]
            before = state.to_json_text()
            action = make_bot(kind, game, players).choose(state, seat)
            assert action in state.legal_actions(seat), f"{kind} at {f:.0%} of the game chose illegal {action!r}"
            assert state.to_json_text() == before, f"{kind} at {f:.0%} of the game changed the state"


@pytest.mark.parametrize(
    ("name", "players"), [pytest.param(n, p, id=f"{n}-{p}p") for n in games.names() for p in two_counts(n)]
)
def test_hard_and_expert_choose_legal_moves(name, players):
    """The search levels at their full budgets, at a few positions (they are slow)."""
    assert_search_levels_legal(name, players, {"hard": (0.4, 0.7), "expert": (0.9,)})


@pytest.mark.stress
@stress_only
@pytest.mark.parametrize("name", games.names())
def test_stress_hard_and_expert_choose_legal_moves(name):
    game = games.get(name)
    spread = tuple(i / 10 for i in range(10))
    for players in range(game.min_players, game.max_players + 1):
        assert_search_levels_legal(name, players, {"hard": spread, "expert": spread})


# ------------------------------------------------------------------------------------- determinism

DETERMINISM_KINDS = ("ismcts", "easy", "medium", "random")


def seeded_game(name: str, players: int, seed: int) -> Any:
    """One game by ISMCTS (small budget), easy, medium and random bots, all seeded from ``seed``."""
    game = games.get(name)
    kinds = [DETERMINISM_KINDS[seat % len(DETERMINISM_KINDS)] for seat in range(players)]
    bots = [make(kind, game, seed * 10 + seat, budget=(8, 40)) for seat, kind in enumerate(kinds)]
    state = game.new_game(players, seed)
    play_checked(state, bots, random.Random(seed))
    return state


def determinism_texts() -> dict[str, str]:
    """The record and final state of one seeded game per game and extreme player count, as text."""
    out = {}
    for name in games.names():
        for players in two_counts(name):
            state = seeded_game(name, players, 7)
            out[f"{name}-{players}p"] = canon(state.record()) + "\n" + state.to_json_text()
    return out


@pytest.mark.parametrize("name", games.names())
def test_same_seeds_same_game(name):
    for players in two_counts(name):
        first, second = seeded_game(name, players, 3), seeded_game(name, players, 3)
        assert canon(first.record()) == canon(second.record())
        assert first.to_json_text() == second.to_json_text()
        assert canon(seeded_game(name, players, 4).record()) != canon(first.record())  # the seed matters


def test_same_seeds_same_game_in_another_process():
    """String hashing differs between processes: nothing a bot does may depend on it."""
    here = determinism_texts()
    hash_seed = "1" if os.environ.get("PYTHONHASHSEED") != "1" else "2"
    script = (
        "import json; from tests.bots.test_all_games import determinism_texts; print(json.dumps(determinism_texts()))"
    )
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    there = json.loads(done.stdout)
    assert there.keys() == here.keys()
    for key in here:
        assert there[key] == here[key], f"{key} differs under PYTHONHASHSEED={hash_seed}"


# -------------------------------------------------------------------------------------- no peeking

PEEK_CASES = [pytest.param(n, p, id=f"{n}-{p}p") for n in games.names() for p in two_counts(n)]
SCRAMBLES = 2  # scrambled copies per position


def sweet_nose_twin(state: Any, seat: int, rng: random.Random) -> Any:
    """The same Sweet Nose game replayed with the other players' hidden placements of this round
    redrawn: a world ``seat`` cannot tell from the real one that, unlike ``determinize``'s, keeps
    the real past (``master``'s belief reads the public part of it)."""
    from parlor.games.sweet_nose.actions import PERMUTATIONS, AssignSweetness

    history = state.history()
    last = max((i for i, (_, a) in enumerate(history) if type(a) is AssignSweetness), default=-1)
    first = last
    while first > 0 and type(history[first - 1][1]) is AssignSweetness:
        first -= 1
    twin = state.game.new_game(state.players, state.seed, state.options)
    for i, (who, action) in enumerate(history):
        # Only this round's placements still hidden: made (not empty) and not yet revealed.
        if first <= i <= last and who != seat and state.sweetness[who] and not state.revealed:
            action = AssignSweetness(values=rng.choice(PERMUTATIONS))
        twin.apply(who, action)
    return twin


def scrambled_positions(name: str, players: int, count: int) -> list[tuple[Any, int, list[Any]]]:
    """(real state, seat to move, scrambled copies for that seat) at ``count`` mid-game positions
    (the first positions are the same whatever ``count``). Sweet Nose's copies are replays with the
    hidden placements redrawn, so they keep the public past as well."""
    out = []
    for i, state in enumerate(mid_game_positions(name, players, count, seed=players)):
        seat = state.to_move[0]
        if name == "sweet-nose":
            scrambles = [sweet_nose_twin(state, seat, random.Random(1000 * k + i)) for k in range(1, SCRAMBLES + 1)]
        else:
            scrambles = [state.determinize(seat, Rng(1000 * k + i)) for k in range(1, SCRAMBLES + 1)]
        out.append((state, seat, scrambles))
    return out


@pytest.mark.parametrize(("name", "players"), PEEK_CASES)
def test_scrambling_changes_hidden_state_only(name, players):
    """The scrambled copies look the same to the seat, yet mostly really differ (else the peek tests prove
    nothing). Not always: in Sweet Nose nothing is hidden before anyone has set their sweetness cards nor
    once they are revealed at the round's end (about a fifth of these positions)."""
    changed = total = 0
    for state, seat, scrambles in scrambled_positions(name, players, 30):
        for scrambled in scrambles:
            assert scrambled.view(seat, recall=True) == state.view(seat, recall=True)
            assert scrambled.legal_actions(seat) == state.legal_actions(seat)
            changed += scrambled.to_json()["state"] != state.to_json()["state"]
            total += 1
    assert changed >= 2 / 3 * total, f"only {changed} of {total} scrambles moved a hidden card"


def assert_blind(kind: str, name: str, players: int, positions: int, iterations: int = 24) -> None:
    game = games.get(name)

    def bot(seed: int) -> Any:
        if kind == "ismcts":
            return ISMCTSBot(game, seed, iterations=iterations)
        if kind == "search":  # the levels' search: the game's evaluator, truncation and root candidates
            return ISMCTSBot(game, seed, iterations=iterations, **search_settings(game))
        return make_bot(kind, game, seed)

    for i, (state, seat, scrambles) in enumerate(scrambled_positions(name, players, positions)):
        before = state.to_json_text()
        real = bot(i).choose(state, seat)
        assert state.to_json_text() == before, f"position {i}: choosing changed the state"
        for k, scrambled in enumerate(scrambles):
            assert bot(i).choose(scrambled, seat) == real, f"position {i}, scramble {k}: the decision changed"


@pytest.mark.parametrize("kind", ["medium", "easy"])
@pytest.mark.parametrize(("name", "players"), PEEK_CASES)
def test_heuristic_decisions_ignore_hidden_cards(kind, name, players):
    assert_blind(kind, name, players, 30)


@pytest.mark.parametrize(("name", "players"), PEEK_CASES)
def test_ismcts_decisions_ignore_hidden_cards(name, players):
    """A small budget, complete playouts: a decision that read a hidden card would differ somewhere."""
    assert_blind("ismcts", name, players, 10)


@pytest.mark.parametrize(("name", "players"), PEEK_CASES)
def test_level_search_decisions_ignore_hidden_cards(name, players):
    """As the hard and expert levels search: evaluator, truncated playouts, root candidates."""
    assert_blind("search", name, players, 10, iterations=40)


@pytest.mark.stress
@stress_only
@pytest.mark.parametrize(("name", "players"), PEEK_CASES)
def test_stress_search_decisions_ignore_hidden_cards(name, players):
    assert_blind("ismcts", name, players, 40, iterations=100)
    assert_blind("hard", name, players, 8)
