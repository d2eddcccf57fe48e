"""The engine contract under every rule option of every game.

The variants come from each game's ``Options`` dataclass, with no list to keep up to date: for
every option with a finite set of values (a bool or a ``Literal``), each non-default value on
its own. Each variant plays seeded random games at a player count it allows and checks what
``test_contract`` checks at the defaults: the game ends, same seed + same actions give the
same states and events, the record replays, saved states load back, an illegal action
changes nothing, and a determinization looks the same to its seat.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from parlor import games
from parlor.core import IllegalAction, ParlorError, Rng, replay
from parlor.core.options import option_fields

MAX_DECISIONS = 20_000


def variants() -> list[Any]:
    out = []
    for name in games.names():
        game = games.get(name)
        for field, (base, allowed, default) in option_fields(game.Options).items():
            values = list(allowed) if allowed is not None else ([True, False] if base is bool else [])
            for value in values:
                if value != default and value is not None:
                    out.append(pytest.param(name, {field: value}, id=f"{name}-{field}={value}"))
    return out


def canon(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False)


def start(game: Any, options: dict[str, Any], seed: int) -> Any:
    """A new game at the first player count (from a seeded shuffle) the options allow."""
    counts = list(range(game.min_players, game.max_players + 1))
    random.Random(seed).shuffle(counts)
    for players in counts:
        try:
            return game.new_game(players, seed, options)
        except ParlorError as exc:
            assert str(exc)  # a refusal says why
    pytest.fail(f"no player count allows {options}")


@pytest.mark.parametrize(("name", "options"), variants())
def test_contract_holds_under_option(name, options):
    game = games.get(name)
    probes = 0
    for seed in (11, 12):
        rnd = random.Random(seed)
        state = start(game, options, seed)
        players = state.players
        probe_at = rnd.randrange(1, 60)
        decisions, events = [], []
        while not state.is_over:
            assert len(decisions) < MAX_DECISIONS, "the game does not end"
            seat = rnd.choice(state.to_move)
            legal = state.legal_actions(seat)
            assert legal
            if len(decisions) == probe_at:
                probes += 1
                before = canon(state.to_json())
                with pytest.raises(IllegalAction):
                    state.apply(seat, "not an action")
                others = [s for s in range(players) if s not in state.to_move]
                if others:
                    with pytest.raises(IllegalAction):
                        state.apply(others[0], legal[0])
                assert canon(state.to_json()) == before
                assert canon(game.load_state(json.loads(before)).to_json()) == before
                guess = state.determinize(seat, Rng(seed))
                assert guess.view(seat) == state.view(seat)
                assert guess.view(seat, recall=True) == state.view(seat, recall=True)
                assert [a.to_json() for a in guess.legal_actions(seat)] == [a.to_json() for a in legal]
            action = rnd.choice(legal)
            events.append(canon([e.to_json() for e in state.apply(seat, action)]))
            decisions.append((seat, action))
        state.result()
        again = game.new_game(players, seed, options)
        for (seat, action), expected in zip(decisions, events):
            assert canon([e.to_json() for e in again.apply(seat, action)]) == expected
        assert canon(again.to_json()) == canon(state.to_json())
        assert canon(replay(json.loads(json.dumps(state.record()))).to_json()) == canon(state.to_json())
    assert probes, "no game lasted long enough to probe"
