"""The judge is honest: it says the same thing about two games a seat cannot tell apart.

Two records are built for each game that agree on everything one seat saw up to its last
decision (every event shown to it, its view with perfect recall at each of its decisions)
but differ in cards hidden from it:

* Mamma Mia! and Mottainai: both games start from a scenario dealt from the same seed; in the
  second, a card in an opponent's hand is swapped with one deep in the supply / deck. The first
  game is played by bots and its actions are replayed in the second; the swap is searched for
  among the opponents' cards until one stays hidden from the seat all the way (the opponents'
  actions must stay legal, and no event shown to the seat may change).
* Sweet Nose: an opponent sets its sweetness cards differently (face down) in the last round.

The review of that seat must be identical in both, decision for decision, with the hidden
parts really different at those decisions (the test counts them). The control: a judge that
searched the real cards instead of sampled worlds tells the same two games apart, so the
difference is one the judge would notice if it could see it. A second test does the same at
single positions for every game, against ``determinize``'s own worlds.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from parlor import games
from parlor.bots import make_bot
from parlor.core import Rng, for_seat
from parlor.review import Judge, Reviewing, review
from parlor.review.search import JudgeSearch

BUDGET = 24  # iterations per decision: enough to make the numbers depend on the worlds sampled


def canon(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False)


def play(game: Any, state: Any, seed: int) -> list[list[Any]]:
    """Play ``state`` to the end with the heuristic and the noisy level; the actions, as in a record."""
    bots = [make_bot("medium" if p % 2 else "easy", game, seed * 10 + p) for p in range(state.players)]
    while state.to_move:
        seat = state.to_move[0]
        state.apply(seat, bots[seat].choose(state, seat))
    return [[seat, action.to_json()] for seat, action in state.history()]


def start_of(record: dict[str, Any]) -> Any:
    game = games.get(record["game"])
    if record.get("scenario") is not None:
        return game.scenario(record["scenario"])
    return game.new_game(record["players"], record["seed"], record.get("options"))


def compare(record_a: dict[str, Any], record_b: dict[str, Any], seat: int) -> int | None:
    """None if the seat could tell the games apart before its last decision (or an action does
    not replay in B); else the number of its decisions at which the hidden parts differ."""
    a, b = start_of(record_a), start_of(record_b)
    actions, actions_b = record_a["actions"], record_b["actions"]
    mine = [i for i, (s, _) in enumerate(actions) if s == seat]
    if not mine or len(actions_b) < len(actions) or any(actions_b[i] != actions[i] for i in mine):
        return None
    differing = 0
    for index, (actor, _) in enumerate(actions):
        if index > mine[-1]:
            break
        if actor == seat:
            if canon(a.view(seat, True)) != canon(b.view(seat, True)):
                return None
            if a.legal_actions(seat) != b.legal_actions(seat):
                return None
            differing += canon(a.to_json()["state"]) != canon(b.to_json()["state"])
        if actions_b[index][0] != actor:
            return None
        action, action_b = (a.game.action_from_json(x[1]) for x in (actions[index], actions_b[index]))
        if action_b not in b.legal_actions(actor):
            return None
        seen_a = [e.to_json() for e in for_seat(a.apply(actor, action), seat)]
        seen_b = [e.to_json() for e in for_seat(b.apply(actor, action_b), seat)]
        if index < mine[-1] and canon(seen_a) != canon(seen_b):
            return None
    return differing


# ---------------------------------------------------------------------- the deals, as scenarios
def mamma_mia_deal(players: int, seed: int) -> dict[str, Any]:
    from parlor.games.mamma_mia.data import DECKS, KINDS, MAMMA_MIA_CARD, ORDERS

    s = games.get("mamma-mia").new_game(players, seed).to_json()["state"]
    n = len(KINDS)
    counts = s["hand_toppings"]

    def card(c: int) -> str:
        return "mamma_mia" if c == MAMMA_MIA_CARD else KINDS[c]

    return {
        "players": players,
        "seed": seed,
        "decks": [KINDS[DECKS[d].own] for d in s["decks"]],
        "start_player": s["start_player"],
        "active": s["active"],
        "hands": [
            {
                "toppings": {KINDS[k]: counts[p * n + k] for k in range(n) if counts[p * n + k]},
                "orders": [ORDERS[o].name for o in s["hand_orders"][p]],
            }
            for p in range(players)
        ],
        "waiters": [[ORDERS[o].name for o in w] for w in s["waiters"]],
        "supply": [card(c) for c in reversed(s["supply"])],  # top first
    }


def mamma_mia_swaps(deal: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Deals with an order in an opponent's hand swapped with one of its waiter's hidden orders,
    or one of its hand's toppings with a different one deep in the supply."""
    out = []
    for p, hand in enumerate(deal["hands"]):
        if p == seat:
            continue
        for h in range(len(hand["orders"])):
            for w in range(len(deal["waiters"][p])):
                swapped = json.loads(json.dumps(deal))
                orders, waiter = swapped["hands"][p]["orders"], swapped["waiters"][p]
                orders[h], waiter[w] = waiter[w], orders[h]
                out.append(swapped)
    supply = deal["supply"]
    for p, hand in enumerate(deal["hands"]):
        if p == seat:
            continue
        for kind in sorted(hand["toppings"]):
            for depth in range(1, 8):
                i = len(supply) - depth
                other = supply[i]
                if other in (kind, "mamma_mia"):
                    continue
                swapped = json.loads(json.dumps(deal))
                toppings = swapped["hands"][p]["toppings"]
                toppings[kind] -= 1
                toppings[other] = toppings.get(other, 0) + 1
                swapped["hands"][p]["toppings"] = {k: v for k, v in toppings.items() if v}
                swapped["supply"][i] = kind
                out.append(swapped)
    return out


def mottainai_deal(players: int, seed: int) -> dict[str, Any]:
    from parlor.games.mottainai.data import CARD_IDS

    s = games.get("mottainai").new_game(players, seed).to_json()["state"]
    return {
        "players": players,
        "seed": seed,
        "active": s["active"],
        "start_player": s["start_player"],
        "start": "noon",
        "hands": [[CARD_IDS[c] for c in hand] for hand in s["hands"]],
        "tasks": [
            None if t < 0 else (CARD_IDS[t] if up else {"face_down": CARD_IDS[t]})
            for t, up in zip(s["tasks"], s["task_up"])
        ],
        "floor": [CARD_IDS[c] for c in s["floor"]],
        "deck": [CARD_IDS[c] for c in reversed(s["deck"])],  # top first
    }


def mottainai_swaps(deal: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Deals with one card of an opponent's hand swapped with a different card deep in the deck."""
    out = []
    deck = deal["deck"]
    for p, hand in enumerate(deal["hands"]):
        if p == seat:
            continue
        for h, card in enumerate(hand):
            for depth in range(1, 6):
                i = len(deck) - depth
                if deck[i] == card:
                    continue
                swapped = json.loads(json.dumps(deal))
                swapped["hands"][p][h], swapped["deck"][i] = deck[i], card
                out.append(swapped)
    return out


def scenario_record(name: str, deal: dict[str, Any], actions: list[Any]) -> dict[str, Any]:
    state = games.get(name).scenario(deal)
    record = state.record()
    record["actions"] = actions
    return record


def twin_by_swap(name: str, deal: dict[str, Any], swaps: Any, seat: int, seed: int) -> tuple[dict, dict, int]:
    game = games.get(name)
    actions = play(game, game.scenario(deal), seed)
    record_a = scenario_record(name, deal, actions)
    best: tuple[dict, int] | None = None
    for swapped in swaps(deal, seat):  # the swap that stays hidden the longest
        record_b = scenario_record(name, swapped, actions)
        differing = compare(record_a, record_b, seat)
        if differing and (best is None or differing > best[1]):
            best = record_b, differing
    assert best is not None, f"{name}: no hidden swap kept the two games alike for seat {seat}"
    return record_a, best[0], best[1]


def twin_by_secret_choice(seat: int, seed: int) -> tuple[dict, dict, int]:
    """Sweet Nose: an opponent's face-down sweetness cards in the last round set otherwise."""
    game = games.get("sweet-nose")
    state = game.new_game(3, seed)
    play(game, state, seed)
    record_a = state.record()
    actions = record_a["actions"]
    last = max(i for i, (s, a) in enumerate(actions) if s != seat and a["type"] == "assign_sweetness")
    record_b = json.loads(json.dumps(record_a))
    values = record_b["actions"][last][1]["values"]
    record_b["actions"][last][1]["values"] = values[1:] + values[:1]  # every card moved
    differing = compare(record_a, record_b, seat)
    assert differing, "Sweet Nose: the twin games are not alike for the seat"
    return record_a, record_b, differing


class Peeking:
    """A position whose ``determinize`` hands out the real cards: what a dishonest judge would search."""

    def __init__(self, state: Any) -> None:
        self.state = state

    def __getattr__(self, name: str) -> Any:
        return getattr(self.state, name)

    def determinize(self, seat: int, rng: Any) -> Any:
        rng.random()
        return self.state.clone()


class PeekingSearch(JudgeSearch):
    def explore(self, state: Any, *args: Any, **kwargs: Any) -> Any:
        return super().explore(Peeking(state), *args, **kwargs)

    def measure(self, state: Any, *args: Any, **kwargs: Any) -> Any:
        return super().measure(Peeking(state), *args, **kwargs)


def peeking_review(record: dict[str, Any], seat: int) -> Any:
    reviewing = Reviewing(record, seat, budget=BUDGET, seed=3)
    judge = reviewing.judge
    judge.search = PeekingSearch(judge.game, min_visits=judge.min_visits, policy=judge.search.policy)
    for _ in reviewing.decisions():
        pass
    return reviewing.review()


TWINS = {
    "mamma-mia": lambda: twin_by_swap("mamma-mia", mamma_mia_deal(2, 3), mamma_mia_swaps, 0, 3),
    "mottainai": lambda: twin_by_swap("mottainai", mottainai_deal(3, 1), mottainai_swaps, 0, 1),
    "sweet-nose": lambda: twin_by_secret_choice(1, 5),
}


@pytest.mark.parametrize("name", sorted(TWINS))
def test_two_games_the_seat_cannot_tell_apart_get_the_same_review(name: str) -> None:
    record_a, record_b, differing = TWINS[name]()
    seat = 0 if name != "sweet-nose" else 1
    assert record_a != record_b
    first = review(record_a, seat, budget=BUDGET, seed=3)
    second = review(record_b, seat, budget=BUDGET, seed=3)
    assert first.complete and second.complete and first.decisions_total >= 10
    assert first.record_digest != second.record_digest
    # The hidden parts differ at several of the seat's decisions (not only after them)...
    assert differing >= 5, differing
    # ... and the judge says the same, decision for decision, number for number.
    assert [d.to_json() for d in first.decisions] == [d.to_json() for d in second.decisions]
    # The control: a judge that searched the real cards would tell the two games apart.
    peek_a, peek_b = peeking_review(record_a, seat), peeking_review(record_b, seat)
    assert [d.to_json() for d in peek_a.decisions] != [d.to_json() for d in peek_b.decisions]


# (game, players, options, continuation: None for the game's own). The heuristic continuation
# reads the simulated seats' views of the sampled worlds, so it is checked as well.
POSITION_CASES = [
    ("mamma-mia", 3, {}, None),
    ("sweet-nose", 3, {}, None),
    ("sweet-nose", 4, {"shop_tiles_visible": False}, None),
    ("mottainai", 3, {}, None),
    ("mamma-mia", 3, {}, "heuristic"),
    ("mottainai", 3, {}, "heuristic"),
]


@pytest.mark.parametrize(("name", "players", "options", "playouts"), POSITION_CASES)
def test_a_position_and_any_world_the_seat_cannot_tell_from_it_are_judged_alike(
    name: str, players: int, options: dict[str, Any], playouts: str | None
) -> None:
    """At positions of seeded play, the judge's numbers for the seat to move are the same on the
    real state and on worlds ``determinize`` deals for that seat (its hidden cards redealt)."""
    game = games.get(name)
    judge = Judge(game, budget=BUDGET, seed=11, playouts=playouts)
    positions = 6 if playouts is None else 2  # the heuristic's playouts cost 3-10 times more
    rnd = random.Random(players)
    checked = 0
    for seed in range(40):
        if checked >= positions:
            break
        state = game.new_game(players, seed, options)
        while state.to_move and checked < positions:
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            if len(legal) > 1 and rnd.random() < 0.1:
                world = state.determinize(seat, Rng(rnd.getrandbits(64)))
                if canon(world.to_json()["state"]) != canon(state.to_json()["state"]):
                    step = len(state.history())
                    played = legal[rnd.randrange(len(legal))]
                    real = judge.judge_decision(state, seat, played, step, "phase")
                    assert real == judge.judge_decision(world, seat, played, step, "phase")
                    assert judge.top_moves(state, seat, step, 3) == judge.top_moves(world, seat, step, 3)
                    checked += 1
            state.apply(seat, legal[rnd.randrange(len(legal))])
    assert checked == positions


class Recording:
    """A position that notes every attribute the judge reads from it."""

    def __init__(self, state: Any) -> None:
        self._state = state
        self.read: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        self.read.add(name)
        return getattr(self._state, name)


@pytest.mark.parametrize("name", ["mamma-mia", "sweet-nose", "mottainai"])
def test_the_judge_reads_a_position_only_through_the_seat_s_moves_and_its_sampled_worlds(name: str) -> None:
    game = games.get(name)
    judge = Judge(game, budget=BUDGET)
    state = game.new_game(3, 9)
    bot = make_bot("medium", game, 9)
    while len(state.history()) < 12 or len(state.legal_actions(state.to_move[0])) < 2:  # a real choice, mid-game
        seat = state.to_move[0]
        state.apply(seat, bot.choose(state, seat))
    seat, step = state.to_move[0], len(state.history())
    position = Recording(state)
    judge.judge_decision(position, seat, state.legal_actions(seat)[0], step, "phase")  # type: ignore[arg-type]
    judge.top_moves(position, seat, step, 3)  # type: ignore[arg-type]
    assert position.read == {"legal_actions", "determinize"}
