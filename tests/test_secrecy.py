"""Exact secrecy: a seat learns nothing hidden from how the engine behaves.

The generic indistinguishability test, for every game and a spread of option sets: at
positions from seeded random play, take the real state and a world ``determinize(seat)``
builds for an observing seat. The seat cannot tell them apart (their ``view(seat)`` are
equal, and so are its own legal actions when it is to move). Apply the same action to
both: the observer's own, or another seat's that is legal in both worlds (a move the
observer could see being made in either). Then:

* if the events the observer may see are identical, its views must be identical too,
  ``to_move`` included: nothing was revealed, so nothing may have changed what it knows
  (this is where a forced move auto-played because of hidden cards shows: one world asks
  the seat, the other ends its turn by itself);
* if they differ, something was revealed to the observer (a card shown by the rules, or
  chance: a draw from a supply whose order it does not know), and the worlds may go apart.

The short version runs a few hundred positions per case; ``PARLOR_STRESS=1`` runs thousands.
Option sets include face-down shop tiles (Sweet Nose, with the deferred level-5 tiles),
Mamma Mia!'s Czech rules, and Mottainai's v0.84.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

from parlor import games
from parlor.core import Rng, for_seat

STRESS = os.environ.get("PARLOR_STRESS") == "1"

SWEET_NOSE_HIDDEN = {"shop_tiles_visible": False}
# (game, players, options): the defaults, the variants that change what is hidden or who is asked.
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("mamma-mia", 2, {}),
    ("mamma-mia", 4, {}),
    ("mamma-mia", 3, {"ruleset": "cs1999"}),
    ("mamma-mia", 3, {"ruleset": "cs1999", "allow_empty_source_choice": True}),
    ("mamma-mia", 5, {"owner_may_decline_when_table_suffices": True, "minimale_when_no_candidate": "any_kind"}),
    ("mamma-mia", 3, {"monotoni_joker": "table_first", "show_oven_history": True}),
    ("sweet-nose", 3, {}),
    ("sweet-nose", 4, {"shop_tiles_visible": True}),
    ("sweet-nose", 3, SWEET_NOSE_HIDDEN),
    ("sweet-nose", 5, {**SWEET_NOSE_HIDDEN, "shopkeeper": True}),
    ("sweet-nose", 3, {**SWEET_NOSE_HIDDEN, "l5_change_taste_timing": "phase_end"}),
    ("sweet-nose", 4, {**SWEET_NOSE_HIDDEN, "l5_ignore_market_timing": "scoring", "l5_ignore_market_scope": "all"}),
    (
        "sweet-nose",
        3,
        {
            **SWEET_NOSE_HIDDEN,
            "l5_change_taste_timing": "phase_end",
            "l5_ignore_market_timing": "scoring",
            "shop_tile_use": "mandatory_first_turn",
            "l5_change_taste_public": False,
        },
    ),
    ("sweet-nose", 3, {**SWEET_NOSE_HIDDEN, "l2_market_to_bowl_mode": "extra", "exchange_required": False}),
    ("sweet-nose", 4, {**SWEET_NOSE_HIDDEN, "end_phase_on_stalemate": False, "phase_end_timing": "end_of_turn"}),
    ("sweet-nose", 3, {**SWEET_NOSE_HIDDEN, "redeal_each_round": True, "shop_pick_required": False}),
]
# Mottainai joined once its forced moves and support choices became the player's.
MOTTAINAI_CASES: list[Any] = [
    ("mottainai", 2, {}),
    ("mottainai", 3, {}),
    ("mottainai", 2, {"ruleset": "v0.84"}),
    ("mottainai", 4, {"ruleset": "v0.84"}),  # a returned revealed card leaves the hand in every world
    ("mottainai", 4, {"team_play": True}),
    ("mottainai", 3, {"cover_mode": "partial", "allow_pass_action": True}),
]

# Checked positions per case: about 3,000 in all by default, tens of thousands under stress.
POSITIONS_PER_CASE = 2000 if STRESS else 140
CHECK_RATE = 0.35


def canon(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False)


def seen_events(events: list[Any], seat: int) -> list[dict[str, Any]]:
    return [e.to_json() for e in for_seat(events, seat)]


def check_pair(real: Any, world: Any, observer: int, actor: int, action: Any) -> str:
    """Apply ``action`` by ``actor`` in both worlds; assert the observer cannot tell them apart.

    Returns "quiet" (nothing revealed: views compared) or "revealed".
    """
    events_real = seen_events(real.apply(actor, action), observer)
    events_world = seen_events(world.apply(actor, action), observer)
    where = f"{real.game.name}: {action} by seat {actor}, observed by seat {observer}"
    if canon(events_real) == canon(events_world):
        view_real, view_world = real.view(observer), world.view(observer)
        assert view_real["to_move"] == view_world["to_move"], (
            f"{where}: whether a seat is asked depends on hidden cards: "
            f"{view_real['to_move']} in the real world, {view_world['to_move']} in a world the seat cannot tell apart"
        )
        if real.is_over:  # the end of a game shows everything (final hands, scores)
            return "revealed"
        assert canon(view_real) == canon(view_world), f"{where}: the views differ though nothing was revealed"
        return "quiet"
    # Something was revealed to the observer (by the rules, or by chance: a draw from a supply
    # whose order it does not know). What follows may differ; the tally makes sure quiet pairs,
    # where the strict check applies, are the bulk of the positions.
    return "revealed"


def run_case(name: str, players: int, options: dict[str, Any], positions: int) -> dict[str, int]:
    game = games.get(name)
    tally = {"positions": 0, "quiet": 0, "other_seat": 0, "hidden_holder": 0}
    for g in range(500):
        if tally["positions"] >= positions:
            break
        seed = 1000 * g + players
        rnd = random.Random(seed)
        state = game.new_game(players, seed, options)
        steps = 0
        while not state.is_over and steps < 3000:
            steps += 1
            actor = rnd.choice(state.to_move)
            legal = state.legal_actions(actor)
            if rnd.random() < CHECK_RATE:
                observer = rnd.randrange(players)
                world = state.determinize(observer, Rng(rnd.getrandbits(64)))
                assert canon(world.view(observer)) == canon(state.view(observer)), "determinize changed the view"
                assert world.to_move == state.to_move
                if observer in state.to_move:
                    assert world.legal_actions(observer) == state.legal_actions(observer), (
                        "the seat's own options differ in a world it cannot tell apart"
                    )
                mine = actor == observer
                shared = legal if mine else [a for a in world.legal_actions(actor) if a in legal]
                if shared:
                    action = rnd.choice(shared)
                    outcome = check_pair(state.clone(), world, observer, actor, action)
                    tally["positions"] += 1
                    tally["quiet"] += outcome == "quiet"
                    tally["other_seat"] += not mine
                    hides = getattr(state, "hides_tile", None)
                    tally["hidden_holder"] += bool(not mine and hides is not None and hides(actor))
            state.apply(actor, rnd.choice(legal))
    return tally


def case_id(case: tuple[str, int, dict[str, Any]]) -> str:
    name, players, options = case
    opts = ",".join(f"{k}={v}" for k, v in sorted(options.items())) or "default"
    return f"{name}-{players}p-{opts}"


def all_cases() -> list[Any]:
    return [*CASES, *MOTTAINAI_CASES]


@pytest.mark.stress
@pytest.mark.parametrize("case", all_cases(), ids=case_id)
def test_a_seat_cannot_tell_worlds_apart_by_behaviour(case):
    name, players, options = case
    tally = run_case(name, players, options, POSITIONS_PER_CASE)
    assert tally["positions"] >= POSITIONS_PER_CASE, tally
    assert tally["quiet"] >= tally["positions"] // 3, tally
    assert tally["other_seat"] >= tally["positions"] // 4, tally
    if name == "sweet-nose" and options.get("shop_tiles_visible") is False:
        # Decisions of a face-down tile holder, watched by another seat, are covered.
        assert tally["hidden_holder"] >= POSITIONS_PER_CASE // 20, tally


def sweet_nose_holder(tile: str, options: dict[str, Any], **extra: Any) -> Any:
    data = {
        "players": 3,
        "phase": "exchange",
        "round": 2,
        "start_player": 1,
        "options": {"shop_tiles_visible": False, **options},
        "bowls": [None, {"candied_haws": 2}, None],
        "tiles": [None, tile, None],
    }
    data.update(extra)
    return games.get("sweet-nose").scenario(data)


@pytest.mark.parametrize(
    ("first", "second"),
    [("l2_take_back", "l2_market_to_bowl"), ("l3_bowl_swap", "l3_send_back"), ("l4_rearrange", "l4_double_trade")],
)
def test_sweet_nose_holder_turn_does_not_end_by_itself_with_face_down_tiles(first, second):
    """The case that once leaked: the same exchange by a face-down tile holder looks the same."""
    a, b = sweet_nose_holder(first, {}), sweet_nose_holder(second, {})
    assert a.view(0) == b.view(0)
    act = {"type": "exchange_with_player", "target": 2, "take": "mung_bean_cake", "give": "longevity_peach_bun"}
    assert [e.to_json() for e in a.apply_json(1, act)] == [e.to_json() for e in b.apply_json(1, act)]
    assert a.view(0) == b.view(0) and a.view(0)["to_move"] == [1]
    # The holder is asked even when ending the turn is its only option, and ends it itself.
    for world in (a, b):
        assert {"type": "end_turn"} in [x.to_json() for x in world.legal_actions(1)]
    if second == "l2_market_to_bowl":  # the exchange used up Straight to the Bowl's only chance
        assert [x.to_json() for x in b.legal_actions(1)] == [{"type": "end_turn"}]
    assert [e.to_json() for e in a.apply_json(1, {"type": "end_turn"})] == [
        e.to_json() for e in b.apply_json(1, {"type": "end_turn"})
    ]
    assert a.view(0) == b.view(0)


@pytest.mark.parametrize(
    "options",
    [{"l5_change_taste_timing": "phase_end"}, {"l5_ignore_market_timing": "scoring"}],
)
def test_sweet_nose_deferred_level5_moment_does_not_name_the_tile(options):
    """Every face-down level-5 holder is asked at a deferred tile's moment, whichever it holds."""
    worlds = [sweet_nose_holder(tile, options, phase="score") for tile in ("l5_change_taste", "l5_ignore_market")]
    views = [w.view(0) for w in worlds]
    assert views[0] == views[1]
    assert views[0]["to_move"] == [1] and views[0]["phase"] in ("change_taste", "declare_ignore_market")
    # The holder whose tile has no use at this moment may only keep it: asked all the same.
    useless = worlds[1] if "l5_change_taste_timing" in options else worlds[0]
    assert [a.to_json() for a in useless.legal_actions(1)] == [{"type": "decline"}]
    events = [[e.to_json() for e in for_seat(w.apply_json(1, {"type": "decline"}), 0)] for w in worlds]
    assert events[0] == events[1]
    assert worlds[0].view(0)["phase"] == worlds[1].view(0)["phase"]


def test_sweet_nose_determinize_never_hands_out_a_tile_seen_used():
    """Two level-2 holders; one uses Take Back: the other must hold Straight to the Bowl in every world."""
    game = games.get("sweet-nose")
    state = game.scenario(
        {
            "players": 3,
            "phase": "exchange",
            "round": 2,
            "start_player": 1,
            "options": {"shop_tiles_visible": False},
            "bowls": [None, {"candied_haws": 2}, None],
            "tiles": [None, "l2_take_back", "l2_market_to_bowl"],
        }
    )
    state.apply_json(1, {"type": "use_take_back", "kind": "candied_haws"})
    assert state.view(0)["players_info"][2]["tile"] == {"level": 2}
    for i in range(40):
        world = state.determinize(0, Rng(i))
        assert world.view(0) == state.view(0)
        assert world.held[2] == state.held[2]
