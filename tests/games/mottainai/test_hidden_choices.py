"""Nothing hidden leaks through *behaviour*: whether a seat is asked, which decision shows.

A differential test: at random positions of random games, take a world the observer cannot
tell from the real one (``determinize``, with the top of the deck kept as it really is, so the
next draws and flips are the same chance outcomes), let the active seat take the same action
in both, and check that the observer's view and events stay identical — through every forced
move the engine plays afterwards.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from parlor.core import Rng, for_seat
from parlor.games.mottainai.invariants import check_invariants

from .helpers import G

STRESS = os.environ.get("PARLOR_STRESS") == "1"
EVERYONE = -2
TOP_KEPT = 12  # deck cards kept as they really are (a pair that takes more is skipped)


def _swap_slots(d: Any, s: Any, observer: int) -> list[tuple[str, int, int]]:
    """Places in ``d`` holding a card ``observer`` cannot see and may trade with the deck top."""
    slots: list[tuple[str, int, int]] = []
    for p in range(d.players):
        if p != observer:
            free = list(d.hands[p])
            for c in d.known[p]:
                free.remove(c)
            # Cards the table knows about for a support decision stay where they are.
            frame = d.stack[-1] if d.stack else ()
            if frame and frame[0] == "support" and p == d.active:
                continue
            slots.extend(("hand", p, d.hands[p].index(c)) for c in set(free))
        slots.extend(("waiting", p, i) for i in range(len(d.waiting[p])))
    return slots


def twin_world(s: Any, observer: int, rng: Rng) -> Any:
    """A determinization of ``s`` for ``observer`` whose chance cards match ``s``: the unseen
    top of the deck and the face-down starting cards (they turn up by themselves)."""
    d = s.determinize(observer, rng)
    d.rng = Rng(state=s.rng.state)
    top = range(max(0, len(s.deck) - TOP_KEPT), len(s.deck))
    for p in range(s.players):
        if s.tasks[p] >= 0 and not s.task_up[p] and d.tasks[p] != s.tasks[p]:
            if not _trade(d, observer, range(0), s.tasks[p], d.tasks[p]):
                return None
            d.tasks[p] = s.tasks[p]
    for i in top:
        if d.deck_info[i] not in (EVERYONE, observer) and d.deck[i] != s.deck[i]:
            if not _trade(d, observer, top, s.deck[i], d.deck[i]):
                return None
            d.deck[i] = s.deck[i]
    d._legal = None
    d.pending = None
    return d


def _trade(d: Any, observer: int, fixed: range, want: int, give: int) -> bool:
    """Find ``want`` in another unseen place of ``d`` (not a ``fixed`` deck position) and put
    ``give`` there; False if there is none (the pair is then skipped)."""
    for j in range(len(d.deck)):
        if j not in fixed and d.deck[j] == want and d.deck_info[j] not in (EVERYONE, observer):
            d.deck[j] = give
            return True
    for zone, p, k in _swap_slots(d, None, observer):
        cards = list(d.hands[p] if zone == "hand" else d.waiting[p])
        if cards[k] == want:
            cards[k] = give
            if zone == "hand":
                d.hands[p] = tuple(sorted(cards))
            else:
                d.waiting[p] = tuple(cards)
            return True
    return False


def compare_after_same_action(s: Any, observer: int, rng: Rng, pick: random.Random) -> bool:
    """True if a comparison was made (the twin accepted the action); asserts the views agree."""
    d = twin_world(s, observer, rng)
    if d is None or d.view(observer) != s.view(observer) or check_invariants(d):
        return False  # the swap could not keep the twin consistent: no pair here
    seat = s.to_move[0]
    legal_d = d.legal_actions(seat)
    if not legal_d:
        return False
    both = [a for a in s.legal_actions(seat) if a in legal_d]
    if not both:
        return False
    action = pick.choice(both)
    a, b = s.clone(), d.clone()
    ev_a = [e.to_json() for e in for_seat(a.apply(seat, action), observer)]
    ev_b = [e.to_json() for e in for_seat(b.apply(seat, action), observer)]
    if len(s.deck) - min(len(a.deck), len(b.deck)) > TOP_KEPT:
        return False  # chance went deeper than the cards kept alike (Tablet restocking the floor)
    if a.is_over or b.is_over:  # the final scoring shows every hand: only the ending must agree
        assert (a.is_over, a.end_reason, ev_a[:-1]) == (b.is_over, b.end_reason, ev_b[:-1]), action
        return True
    assert a.view(observer) == b.view(observer), (action, a.view(observer), b.view(observer))
    assert ev_a == ev_b, (action, ev_a, ev_b)
    return True


CASES = [(2, {}), (3, {}), (2, {"ruleset": "v0.84"}), (3, {"ruleset": "v0.84"}), (4, {"team_play": True}),
         (2, {"reveal_gate_per": "action", "allow_pass_action": True}), (3, {"return_order": "random"}),
         (2, {"revealed_cards_stay_public": False, "waiting_area_visible_to_owner": True})]  # fmt: skip


@pytest.mark.parametrize(("players", "options"), CASES, ids=[f"{p}p-{o}" for p, o in CASES])
def test_same_public_action_gives_the_observer_the_same_view(players, options):
    games = 12 if STRESS else 3
    compared = 0
    for seed in range(games):
        state = G.new_game(players, 1000 + seed, options)
        pick = random.Random(seed)
        step = 0
        while state.to_move:
            seat = state.to_move[0]
            for observer in range(players):
                if observer != seat:
                    compared += compare_after_same_action(state, observer, Rng(seed * 7919 + step), pick)
            state.apply(seat, pick.choice(state.legal_actions(seat)))
            step += 1
    assert compared > 25 * games


def test_the_issue_reproduction_gives_identical_views():
    base = dict(players=2, options={"ruleset": "v0.84"}, active=0, start="morning",
                hands=[["bell", "scroll"], ["cup", "dice", "jar"]],
                deck=["pin", "ring", "gong", "vase", "bowl"])  # fmt: skip
    a = G.scenario(base)
    b = G.scenario(dict(base, hands=[["bell", "tower"], ["cup", "dice", "jar"]]))
    assert a.view(1) == b.view(1)
    task = G.action_from_json({"type": "choose_task", "card": "bell"})
    a.apply(0, task)
    b.apply(0, task)
    assert a.view(1) == b.view(1) and a.view(1)["to_move"] == [0]
    assert [str(x) for x in b.legal_actions(0)] == ["pray()"]  # asked although prayer is all it has
