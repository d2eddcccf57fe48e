"""The shared engine core: RNG, action spaces, records, saved states, scenarios and options.

Mamma Mia! serves as the concrete game where the core needs one.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlor import games
from parlor.core import (
    ENGINE_VERSION,
    Action,
    ActionSpace,
    IllegalAction,
    OptionError,
    ParlorError,
    RecordError,
    Rng,
    ScenarioError,
    StateError,
    load_record,
    replay,
    replay_iter,
    save_record,
)
from parlor.core.options import describe_options, options_from_json, parse_option_text
from parlor.games.mamma_mia import Draw, NoOrder, PlayOrder, PlayToppings, SkipToppings
from parlor.games.mamma_mia.data import ORDERS

G = games.get("mamma-mia")


def random_game(seed: int = 7, players: int = 3, choices: int = 1):
    rnd = random.Random(choices)
    s = G.new_game(players, seed)
    while not s.is_over:
        seat = s.to_move[0]
        s.apply(seat, rnd.choice(s.legal_actions(seat)))
    return s


# ------------------------------------------------------------------------------------ Rng


def test_rng_is_deterministic():
    a, b = Rng(42), Rng(42)
    assert [a.next64() for _ in range(100)] == [b.next64() for _ in range(100)]
    assert [Rng(1).next64() for _ in range(3)] != [Rng(2).next64() for _ in range(3)]
    assert Rng(1).next64() != Rng(2).next64()
    c = Rng(5)
    c.next64()
    d = Rng(state=c.state)
    assert [c.below(1000) for _ in range(50)] == [d.below(1000) for _ in range(50)]
    e = c.clone()
    assert c.next64() == e.next64()
    # A fork advances its parent and runs independently of it.
    f = Rng(9)
    before = f.state
    child = f.fork()
    assert f.state != before
    assert child.next64() != f.next64()
    # The generator is fully specified here, so its output is pinned: records replay forever.
    assert Rng(0).next64() == Rng(state=Rng(0).state).next64()
    assert [Rng(123).below(10) for _ in range(1)] == [Rng(123).below(10)]


def test_rng_below_range_and_uniformity():
    rng = Rng(2024)
    for n in (1, 2, 3, 7, 10, 1000, 2**40 + 3):
        for _ in range(200):
            assert 0 <= rng.below(n) < n
    assert all(rng.below(1) == 0 for _ in range(10))
    draws = Counter(rng.below(6) for _ in range(60_000))
    assert set(draws) == set(range(6))
    assert all(abs(draws[i] - 10_000) < 500 for i in range(6)), draws  # ~5 sigma
    # A bound that is not a power of two is not biased towards the low values.
    big = 3 * 2**62
    low = sum(rng.below(big) < 2**62 for _ in range(30_000))
    assert abs(low - 10_000) < 600
    for bad in (0, -1, 2**64 + 1):  # above 2**64 no 64-bit draw could be taken
        with pytest.raises(ValueError):
            rng.below(bad)
    assert 0 <= rng.below(2**64) < 2**64
    floats = [rng.random() for _ in range(10_000)]
    assert all(0.0 <= x < 1.0 for x in floats)
    assert 0.48 < sum(floats) / len(floats) < 0.52


def test_rng_shuffle_is_a_permutation():
    rng = Rng(3)
    items = list(range(50))
    seen = set()
    for _ in range(20):
        copy_ = items[:]
        rng.shuffle(copy_)
        assert sorted(copy_) == items
        seen.add(tuple(copy_))
    assert len(seen) == 20
    a, b = list(range(30)), list(range(30))
    Rng(8).shuffle(a)
    Rng(8).shuffle(b)
    assert a == b
    # Every position is reachable: first elements of many shuffles of 4 cover all 4.
    firsts = Counter()
    for i in range(4000):
        x = [0, 1, 2, 3]
        Rng(i).shuffle(x)
        firsts[x[0]] += 1
    assert all(800 < firsts[k] < 1200 for k in range(4)), firsts
    empty: list[int] = []
    rng.shuffle(empty)
    assert empty == []
    assert rng.choice([5]) == 5


# ------------------------------------------------------------------------------ ActionSpace


@dataclasses.dataclass(frozen=True, slots=True)
class Move(Action):
    TYPE = "move"
    to: int


@dataclasses.dataclass(frozen=True, slots=True)
class Pass(Action):
    TYPE = "pass"


def test_action_space_ids_are_stable_and_unique():
    space = ActionSpace([Move(i) for i in range(5)] + [Pass()])
    again = ActionSpace([Move(i) for i in range(5)] + [Pass()])
    assert len(space) == 6
    for i in range(6):
        assert space.id(space.from_id(i)) == i
        assert again.from_id(i) == space.from_id(i)
    assert space.id(Move(3)) == 3 and space.id(Pass()) == 5
    assert space.canonical(Move(2)) is space.from_id(2)
    with pytest.raises(ValueError, match="duplicate"):
        ActionSpace([Pass(), Pass()])
    for bad in (-1, 6, "1", None, True, 1.0):
        with pytest.raises(IllegalAction, match="out of range"):
            space.from_id(bad)
    with pytest.raises(IllegalAction, match="not an action of this game"):
        space.id(Move(99))
    with pytest.raises(IllegalAction):
        space.id([1, 2])  # unhashable


def test_mamma_mia_action_ids_are_pinned():
    # RL code and compact logs store these numbers: they may only ever grow at the end.
    assert G.action_id(PlayToppings("salami", 1)) == 0
    assert G.action_id(PlayToppings("salami", 7)) == 6
    assert G.action_id(PlayToppings("olive", 7)) == 34
    assert G.action_id(SkipToppings()) == 35
    assert G.action_id(PlayOrder(ORDERS[0].name)) == 36
    assert G.action_id(PlayOrder(ORDERS[39].name)) == 75
    assert G.action_id(NoOrder()) == 76
    assert G.action_id(Draw("supply")) == 77 and G.action_id(Draw("waiter")) == 78
    ids = [G.action_id(G.action_from_id(i)) for i in range(G.num_actions)]
    assert ids == list(range(G.num_actions))
    assert len({json.dumps(G.action_from_id(i).to_json(), sort_keys=True) for i in range(G.num_actions)}) == len(ids)


def test_action_from_json_errors_are_clear():
    space = ActionSpace([Move(i) for i in range(5)] + [Pass()])
    assert space.from_json({"type": "move", "to": 2}) is space.from_id(2)
    assert space.from_json({"type": "pass"}) == Pass()
    cases = [
        ([1, 2], "must be a JSON object"),
        ("move", "must be a JSON object"),
        (None, "must be a JSON object"),
        ({"type": "jump"}, "unknown action type 'jump'"),
        ({"to": 1}, "unknown action type None"),
        ({"type": "move"}, r"missing field\(s\) \['to'\]"),
        ({"type": "move", "to": 1, "speed": 2}, r"unexpected field\(s\) \['speed'\]"),
        ({"type": "move", "to": 99}, "no such action"),
        ({"type": "move", "to": "1"}, "no such action"),
    ]
    for data, message in cases:
        with pytest.raises(IllegalAction, match=message):
            space.from_json(data)
    with pytest.raises(IllegalAction, match="no such action"):
        G.action_from_json({"type": "play_toppings", "kind": "anchovy", "count": 1})
    with pytest.raises(IllegalAction, match="unknown topping"):
        G.action_from_json({"type": "complete_from_hand", "toppings": {"anchovy": 1}})


# ---------------------------------------------------------------------------------- records


def test_record_round_trip_and_files(tmp_path):
    s = random_game()
    record = s.record()
    assert record["engine_version"] == ENGINE_VERSION and record["game"] == "mamma-mia"
    assert set(record) == {"game", "engine_version", "options", "players", "seed", "actions"}
    path = tmp_path / "game.json"
    save_record(s, path)
    loaded = load_record(path)
    assert loaded == json.loads(json.dumps(record))
    assert replay(loaded).to_json() == s.to_json()
    assert len(list(replay_iter(loaded))) == len(record["actions"]) + 1


def test_corrupt_records_raise_record_error(tmp_path):
    good = random_game().record()

    def broken(**changes):
        r = copy.deepcopy(good)
        for k, v in changes.items():
            if v is KeyError:
                del r[k]
            else:
                r[k] = v
        return r

    cases = [
        (broken(game="chess"), "chess"),
        (broken(game=KeyError), "missing game"),
        (broken(actions=KeyError), "missing actions"),
        (broken(seed=KeyError, players=KeyError), "missing players, seed"),
        (broken(engine_version="0"), "engine version '0'"),
        (broken(engine_version="1"), r"engine version '1'; this engine is '2'"),
        (broken(seed="7"), "seed must be an integer"),
        (broken(players=9), "cannot start"),
        (broken(options={"no_such_option": True}), "no_such_option"),
        (broken(actions={"0": 1}), "must be a list"),
        ([1, 2, 3], "must be a JSON object"),
    ]
    for record, message in cases:
        with pytest.raises(RecordError, match=message):
            replay(record)
        with pytest.raises(RecordError, match=message):
            list(replay_iter(record))


def test_corrupt_record_names_the_step():
    good = random_game().record()
    n = len(good["actions"])
    k = n // 2
    seat, action = good["actions"][k]
    edits = {
        "bad seat": [99, action],
        "seat as text": [str(seat), action],
        "wrong seat": [(seat + 1) % good["players"], action],
        "garbage action": [seat, {"type": "teleport"}],
        "not a pair": [seat],
    }
    for what, entry in edits.items():
        r = copy.deepcopy(good)
        r["actions"][k] = entry
        with pytest.raises(RecordError, match=rf"step {k}\b"):
            replay(r)
        # replay_iter yields the states up to the bad step, then raises naming it.
        it = replay_iter(r)
        got = []
        with pytest.raises(RecordError, match=rf"step {k}\b"):
            for state in it:
                got.append(state)
        assert len(got) == k + 1, what
    # An edited history: a well-formed action that is not legal at that point.
    state = G.new_game(good["players"], good["seed"], good["options"])
    for s_, a in good["actions"][:k]:
        state.apply_json(s_, a)
    legal = state.legal_actions(seat)
    other = next(G.action_from_id(i) for i in range(G.num_actions) if G.action_from_id(i) not in legal)
    r = copy.deepcopy(good)
    r["actions"][k] = [seat, other.to_json()]
    with pytest.raises(RecordError, match=rf"step {k} .*does not replay"):
        replay(r)
    # Extra steps after the end of the game.
    r = copy.deepcopy(good)
    r["actions"].append(good["actions"][-1])
    with pytest.raises(RecordError, match=rf"step {n}\b"):
        replay(r)


def test_load_record_file_errors(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "mamma-mia", "actions": [', encoding="utf-8")
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record(bad)
    lst = tmp_path / "list.json"
    lst.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(RecordError, match="must be a JSON object"):
        load_record(lst)
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "missing.json")


# ---------------------------------------------------------------------------- saved states


def test_corrupt_state_raises_state_error():
    s = G.new_game(3, 11)
    for _ in range(20):
        seat = s.to_move[0]
        s.apply(seat, s.legal_actions(seat)[0])
    good = s.to_json()
    assert G.load_state(good).to_json() == good

    def broken(edit):
        d = copy.deepcopy(good)
        edit(d)
        return d

    cases = [
        "not json at all {",
        "[1, 2]",
        broken(lambda d: d.update(game="chess")),
        broken(lambda d: d.pop("rng")),
        broken(lambda d: d.update(rng=-5)),
        broken(lambda d: d.update(rng="x")),
        broken(lambda d: d.update(players=17)),
        broken(lambda d: d.update(options={"bogus": 1})),
        broken(lambda d: d.update(history=[[0, {"type": "teleport"}]])),
        broken(lambda d: d["state"].pop("supply")),
        broken(lambda d: d["state"].update(step="dancing")),
        broken(lambda d: d["state"].update(hand_toppings=[1, 2, 3])),
        broken(lambda d: d["state"].update(waiters=[[]])),
        broken(lambda d: d["state"].update(completed=[[999], [], []])),
        # Consistent shapes, broken rules: an extra salami appears in a hand (14 salami).
        broken(lambda d: d["state"]["hand_toppings"].__setitem__(0, d["state"]["hand_toppings"][0] + 1)),
    ]
    for data in cases:
        with pytest.raises(StateError):
            G.load_state(data)


def test_states_of_another_format_version_are_refused_by_name():
    good = G.new_game(2, 4).to_json()
    assert good["engine_version"] == ENGINE_VERSION == "2"
    for old in ("1", None):
        data = copy.deepcopy(good)
        data["engine_version"] = old
        with pytest.raises(StateError, match=f"saved by engine version {old!r}; this engine reads version '2'"):
            G.load_state(data)


# ------------------------------------------------------------------------------- scenarios


def test_bad_scenarios_raise_scenario_error():
    cases = [
        ({"players": 2, "teleporter": 1}, "unknown scenario key.*teleporter"),
        ({"hands": [{"toppings": {"anchovy": 1}}, {}]}, "unknown topping 'anchovy'"),
        ({"counter": {"anchovy": 1}, "phase": "oven"}, "anchovy"),
        ({"decks": ["pepper", "mushroom"], "hands": [{"orders": ["brown_mixed"]}, {}]}, "not in seat 0's deck"),
        ({"decks": ["pepper", "mushroom"], "waiters": [["green_mixed"], ["green_monotoni"]]}, "not in seat 1's deck"),
        ({"hands": [{"toppings": {"salami": 8}}, {}]}, "more than 7 cards"),
        ({"hands": [{"toppings": {"salami": 7}}, {"toppings": {"salami": 7}}], "supply": []}, "more than 13.*salami"),
        ({"supply": ["olive"] * 14}, "more than 13.*olive"),
        ({"decks": ["pepper", "pepper"]}, "same deck"),
        ({"decks": ["anchovy", "pepper"]}, "anchovy"),
        ({"players": 7}, "2-5 players"),
        ({"options": {"refill_mode": "sometimes"}}, "refill_mode"),
        ({"supply": ["green_mixed"]}, "supply"),
        ({"supply": ["mamma_mia", "mamma_mia"]}, "only one Mamma Mia"),
        ({"phase": "dessert"}, "phase"),
        ({"round": 4}, "round"),
        ({"active": 5}, "active"),
        ({"oven": ["mamma_mia"]}, "never goes in the oven"),
        ({"oven": ["purple_mixed"]}, "deck nobody plays"),
        ({"hands": [{"orders": ["red_mixed"]}, {}], "waiters": [["red_mixed"], []]}, "placed twice"),
        ({"counter": {"salami": 2}}, "only phase 2"),
        ({"hands": [{"topping": {"salami": 2}}, {}]}, r"hands\[0\]: unknown key\(s\) topping"),
        ({"waiter_known": ["x", 0]}, "waiter_known"),
        ({"waiters": [["red_mixed"], []], "waiter_known": [2, 0]}, "waiter_known"),
        ("not an object", "JSON object"),
    ]
    for data, message in cases:
        with pytest.raises(ScenarioError, match=message):
            G.scenario(data)


def test_scenario_defaults_build_a_consistent_game():
    from parlor.games.mamma_mia.invariants import check_invariants

    s = G.scenario({})
    assert check_invariants(s) == []
    assert s.players == 2 and s.round == 1


# --------------------------------------------------------------------------------- options


def test_options_errors():
    for data, message in [
        ({"no_such_option": 1}, "unknown rule option 'no_such_option'"),
        ({"refill_mode": "sometimes"}, "refill_mode"),
        ({"refill_mode": 1}, "refill_mode"),
        ({"topping_play_required": "yes"}, "true or false"),
        ({"topping_play_required": 1}, "true or false"),
        ({"ruleset": "de1999"}, "ruleset"),
    ]:
        with pytest.raises(OptionError, match=message):
            G.new_game(2, 0, data)
        with pytest.raises(OptionError):
            options_from_json(G.Options, data)
    with pytest.raises(OptionError, match="JSON object"):
        options_from_json(G.Options, [("refill_mode", "fill")])
    assert isinstance(OptionError("x"), ParlorError)
    with pytest.raises(OptionError, match="JSON object"):
        G.new_game(2, 0, 42)
    with pytest.raises(ParlorError, match="seed must be an integer"):
        G.new_game(2, "0")


def test_option_text_parsing():
    assert parse_option_text(G.Options, "refill_mode=up_to") == ("refill_mode", "up_to")
    assert parse_option_text(G.Options, "topping_play_required = false") == ("topping_play_required", False)
    for text, message in [
        ("refill_mode", "name=value"),
        ("colour=red", "unknown"),
        ("show_oven_history=maybe", "true"),
    ]:
        with pytest.raises(OptionError, match=message):
            parse_option_text(G.Options, text)
    opts = G.options_from_json({"refill_mode": "up_to", "show_oven_history": True})
    assert opts.refill_mode == "up_to" and opts.show_oven_history is True
    assert G.new_game(2, 0, opts).options is opts


def test_event_json_keeps_type_and_data_apart():
    from parlor.core import Event, private, public

    played = public("toppings_played", seat=0, kind="salami", count=2)
    assert played.to_json() == {"event": "toppings_played", "data": {"seat": 0, "kind": "salami", "count": 2}}
    drawn = private([2, 0], "cards_drawn", kind="olive", cards=["olive"])
    want = {"event": "cards_drawn", "data": {"kind": "olive", "cards": ["olive"]}, "visible_to": [0, 2]}
    assert drawn.to_json() == want
    for event in (played, drawn):
        assert Event.from_json(json.loads(json.dumps(event.to_json()))) == event


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        {"kind": "x"},
        {"event": 1, "data": {}},
        {"event": "x"},
        {"event": "x", "data": {}, "visible_to": "0"},
        {"event": "x", "data": {}, "extra": 1},
    ],
)
def test_event_from_json_refuses_malformed(bad):
    from parlor.core import Event

    with pytest.raises(ValueError):
        Event.from_json(bad)


def test_every_event_kind_survives_json_in_play():
    """Events whose data has a ``kind`` field (Mamma Mia!'s toppings) keep their type."""
    from parlor.core import Event

    for name in games.names():
        game = games.get(name)
        rng = Rng(5)
        state = game.new_game(game.min_players, 3)
        for _ in range(300):
            if state.is_over:
                break
            seat = state.to_move[0]
            for event in state.apply(seat, rng.choice(state.legal_actions(seat))):
                again = Event.from_json(json.loads(json.dumps(event.to_json())))
                assert again == event and again.kind == event.kind


def test_default_options_are_shared_per_player_count_and_equal_a_fresh_parse():
    import pytest

    from parlor import games
    from parlor.core import ParlorError

    for name in games.names():
        game = games.get(name)
        for players in range(game.min_players, game.max_players + 1):
            first = game.default_options(players)
            assert first is game.default_options(players)  # built once: Options are frozen
            assert first == game.options_for(players, {})
            assert game.new_game(players, 1).options is first
        with pytest.raises(ParlorError):
            game.default_options(game.max_players + 1)  # a bad count is refused every time
        with pytest.raises(ParlorError):
            game.default_options(game.max_players + 1)


def _plain_below(rng, n):
    """``Rng.below``'s definition on 64-bit draws: reject the top band that would bias ``x % n``."""
    mask = 2**64 - 1
    limit = mask - (mask + 1) % n
    while True:
        x = rng.next64()
        if x <= limit:
            return x % n


def _plain_shuffle(rng, items):
    """Fisher-Yates over ``below``, the definition ``Rng.shuffle`` computes in 32-bit halves."""
    for i in range(len(items) - 1, 0, -1):
        j = _plain_below(rng, i + 1)
        items[i], items[j] = items[j], items[i]


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    bounds=st.lists(
        st.one_of(st.integers(1, 64), st.integers(1, 2**32 - 1), st.integers(2**32 - 1000, 2**64)), max_size=20
    ),
)
def test_rng_below_in_machine_words_draws_like_its_definition(seed, bounds):
    from parlor.core import Rng

    reference, fast = Rng(state=seed), Rng(state=seed)
    for n in bounds:
        assert fast.below(n) == _plain_below(reference, n)
        assert fast.state == reference.state


def test_rng_below_near_the_top_of_the_range_rejects_like_its_definition():
    from parlor.core import Rng

    # Bounds with a wide rejected band (2**64 % n large) and states whose next draw is near 2**64.
    for state in (2**64 - 1, 2**64 - 0x9E3779B97F4A7C15, 2**63, 0):
        for n in (3, 7, 1000, 2**31 + 1, 2**32 - 1, 3 * 2**30):
            reference, fast = Rng(state=state), Rng(state=state)
            assert [fast.below(n) for _ in range(50)] == [_plain_below(reference, n) for _ in range(50)]
            assert fast.state == reference.state


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), n=st.integers(min_value=0, max_value=120))
def test_rng_shuffle_draws_exactly_like_fisher_yates_over_below(seed, n):
    from parlor.core import Rng

    reference, fast = Rng(state=seed), Rng(state=seed)
    a, b = list(range(n)), list(range(n))
    for _ in range(3):  # consecutive shuffles continue from the same state
        _plain_shuffle(reference, a)
        fast.shuffle(b)
        assert a == b
        assert fast.state == reference.state


def test_rng_shuffle_near_the_top_of_the_range_rejects_like_below():
    from parlor.core import Rng

    # States whose next draws land in the rejected top band for some bounds (and wrap the state).
    for state in (2**64 - 1, 2**64 - 0x9E3779B97F4A7C15, 2**63, 0):
        reference, fast = Rng(state=state), Rng(state=state)
        a, b = list(range(1000)), list(range(1000))
        _plain_shuffle(reference, a)
        fast.shuffle(b)
        assert a == b and fast.state == reference.state


@pytest.mark.parametrize("name", games.names())
def test_states_survive_pickling_with_their_options(name):
    """The server hands states to its bot worker processes pickled: a state (and the options
    the rules keep decoded beside it) must come back the same and play on the same."""
    import pickle

    game = games.get(name)
    rnd = random.Random(5)
    for options in (None, _some_non_default_options(game)):
        state = game.new_game(game.min_players + 1, 9, options)
        for _ in range(15):
            if state.is_over:
                break
            seat = state.to_move[0]
            state.apply(seat, rnd.choice(state.legal_actions(seat)))
        copy_ = pickle.loads(pickle.dumps(state))
        assert copy_.to_json() == state.to_json()
        while not state.is_over:
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            assert copy_.legal_actions(seat) == legal
            action = rnd.choice(legal)
            assert copy_.apply(seat, action) == state.apply(seat, action)
        assert copy_.result() == state.result()


def _some_non_default_options(game):
    """Options with every bool flipped that the player count and rules accept (one at a time)."""
    from parlor.core import ParlorError

    chosen = {}
    for entry in describe_options(game.Options):
        if entry["type"] != "bool" or entry["view_only"]:
            continue
        trial = {**chosen, entry["name"]: not entry["default"]}
        try:
            game.new_game(game.min_players + 1, 1, trial)
        except ParlorError:
            continue
        chosen = trial
    return chosen


def test_a_record_may_write_its_version_as_a_number_and_an_unknown_game_is_named_first():
    good = random_game().record()
    numbered = dict(good, engine_version=int(ENGINE_VERSION))  # 2 for "2", as a person might write it
    assert replay(numbered).to_json() == replay(good).to_json()
    with pytest.raises(RecordError, match="engine version 1;"):
        replay(dict(good, engine_version=1))  # another version as a number is still refused
    with pytest.raises(RecordError, match="unknown game 'chess'"):
        replay(dict(good, game="chess", engine_version=int(ENGINE_VERSION)))
    with pytest.raises(RecordError, match="unknown game 'chess'"):
        replay(dict(good, game="chess", engine_version="1"))
