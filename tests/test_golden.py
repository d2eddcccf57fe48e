"""Golden playthroughs: a fixed seeded game per game and variant, with a fingerprint of every
seat's view and events at every step, committed in tests/golden/.

Any change in behaviour, however small (an event's wording, a view field, a shuffle), shows up
as a diff at the first step that differs. When a change is intended, regenerate with
``PARLOR_UPDATE_GOLDEN=1 pytest tests/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from parlor import games
from parlor.core import Rng, for_seat

GOLDEN = Path(__file__).parent / "golden"

# (game, players, options) per golden file; every game adds its variants here.
CASES = {
    "mamma-mia-2p-default": ("mamma-mia", 2, {}),
    "mamma-mia-4p-default": ("mamma-mia", 4, {}),
    "mamma-mia-3p-cs1999": ("mamma-mia", 3, {"ruleset": "cs1999"}),
    "mamma-mia-5p-options": (
        "mamma-mia",
        5,
        {
            "owner_may_decline_when_table_suffices": True,
            "minimale_excludes_pictured": False,
            "minimale_when_no_candidate": "any_kind",
            "monotoni_joker": "table_first",
            "show_oven_history": True,
        },
    ),
    "sweet-nose-3p-default": ("sweet-nose", 3, {}),
    "sweet-nose-4p-ascension": ("sweet-nose", 4, {"ascension": True}),
    "sweet-nose-5p-shopkeeper-hidden-tiles": ("sweet-nose", 5, {"shopkeeper": True, "shop_tiles_visible": False}),
    "mottainai-2p-default": ("mottainai", 2, {}),
    "mottainai-3p-v084": ("mottainai", 3, {"ruleset": "v0.84"}),
    "mottainai-4p-team-extended": ("mottainai", 4, {"team_play": True, "extended_game": True}),
    "mottainai-5p-options": (
        "mottainai",
        5,
        {"cover_mode": "partial", "allow_pass_action": True, "return_order": "random", "trigger_order": "card_order"},
    ),
}


def digest(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def playthrough(name: str, players: int, options: dict) -> dict:
    game = games.get(name)
    state = game.new_game(players, 2026, options)
    rng = Rng(99)
    seats = [None, *range(players)]
    steps = [{"views": [digest(state.view(s)) for s in seats]}]
    while not state.is_over:
        seat = state.to_move[0]
        action = rng.choice(state.legal_actions(seat))
        events = state.apply(seat, action)
        steps.append(
            {
                "seat": seat,
                "action": action.to_json(),
                "events": [digest([e.to_json() for e in for_seat(events, s)]) for s in seats],
                "views": [digest(state.view(s)) for s in seats],
            }
        )
    return {"game": name, "players": players, "options": options, "result": state.result().to_json(), "steps": steps}


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden_playthrough(case):
    name, players, options = CASES[case]
    if name not in games.names():
        pytest.fail(f"golden case {case} names a game that is not registered")
    got = playthrough(name, players, options)
    path = GOLDEN / f"{case}.json"
    if os.environ.get("PARLOR_UPDATE_GOLDEN") == "1":
        path.write_text(json.dumps(got, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}; run with PARLOR_UPDATE_GOLDEN=1 once"
    want = json.loads(path.read_text(encoding="utf-8"))
    for i, (a, b) in enumerate(zip(got["steps"], want["steps"])):
        assert a == b, f"{case}: first difference at step {i}: got {a}, golden {b}"
    assert len(got["steps"]) == len(want["steps"])
    assert got["result"] == want["result"]
