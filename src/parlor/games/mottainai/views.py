"""What a seat may see (spec §14). The only place that turns a Mottainai state into
something a player, a spectator, a bot or a UI receives — and the only place that decides
what a determinization may change.

Public: the floor, every task card once face up, helpers, craft benches, sales, both
wings, Kite copies, the sizes of deck, hands and waiting areas, cards revealed from a hand
(they stay known while they stay there), cards revealed on top of the deck.
Private: a hand (to its owner); the cards a seat returned to the deck (to that seat, in
``recall``). Nobody: the deck's order, face-down starting cards, every waiting area (its
owner's included, unless ``waiting_area_visible_to_owner``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlor.core.rng import AnyRng

from .data import CARD_IDS, MAT, MATERIALS, PAPER, ROLES, WINGS

if TYPE_CHECKING:
    from .rules import MottainaiState

CARD = CARD_IDS
NOBODY, EVERYONE = -1, -2


def _cards(cards: Any) -> list[str]:
    return [CARD[c] for c in sorted(cards)]


def _player(s: "MottainaiState", p: int, seat: int | None) -> dict[str, Any]:
    task = s.tasks[p]
    if task < 0:
        task_json: Any = None
    elif s.task_up[p]:
        task_json = {"card": CARD[task], "role": ROLES[MAT[task]], "doll": s.doll_task[p]}
    else:
        task_json = {"face_down": True}
    gallery, gift = s.wings_of(p)
    out: dict[str, Any] = {
        "seat": p,
        "hand_size": len(s.hands[p]),
        "revealed_in_hand": _cards(s.known[p]),
        "waiting_size": len(s.waiting[p]),
        "task": task_json,
        "helpers": _cards(s.helpers[p]),
        "craft_bench": _cards(s.bench[p]),
        "sales": _cards(s.sales[p]),
        "gallery": [CARD[c] for c in s.gallery[p]],
        "gift_shop": [CARD[c] for c in s.gift[p]],
        "kite_copies": [CARD[c] for c in s.kite[p]],
        "works_as": {"gallery": [CARD[c] for c in gallery], "gift_shop": [CARD[c] for c in gift]},
    }
    if s.over:  # hands are shown for the final scoring
        out["final_hand"] = _cards(s.hands[p])
        if s.options.waiting_area_scores:
            out["final_waiting"] = _cards(s.waiting[p])
    if seat == p:
        out["hand"] = _cards(s.hands[p])
        if s.options.waiting_area_visible_to_owner:
            out["waiting"] = _cards(s.waiting[p])
    return out


# Public fields of a decision frame (frames never hold hidden cards except where listed).
def _decision(s: "MottainaiState") -> dict[str, Any] | None:
    if not s.stack or s.over:
        return None
    frame = s.stack[-1]
    kind = frame[0]
    out: dict[str, Any] = {"kind": kind}
    if kind in ("gate", "perform", "actions"):
        out["owner"] = frame[1]
    if kind == "action":
        out["owner"] = frame[1]
        out["role"] = ROLES[frame[2]]
        out["pin"] = bool(frame[3])
        out["actions_left"] = 0 if frame[3] else s.t_left + 1
    elif kind == "gate":
        out["role"] = ROLES[frame[2]]
    elif kind == "reveal_bonus":
        out["effect"] = CARD[frame[1]]
        out["material"] = MATERIALS[frame[2]]
    elif kind == "fan":
        out["revealed"] = [CARD[c] for c in frame[1]]
    elif kind == "triggers":
        out["effects"] = _cards(frame[1])
        out["work"] = CARD[frame[2]]
    elif kind in ("umbrella",):
        out["material"] = MATERIALS[frame[1]]
    elif kind == "kite_copy":
        out["player"] = frame[1]
    elif kind == "take_floor":
        out["to"] = frame[1]
        out["remaining"] = frame[2]
    elif kind == "place_work":
        out["work"] = CARD[frame[1]]
    elif kind == "support":
        out["work"] = CARD[frame[1]]
        out["wing"] = WINGS[frame[2]]
        out["how"] = frame[3]
        out["remaining"] = frame[4]
        out["revealed"] = [CARD[c] for c in frame[5]]
    elif kind == "fan_order":
        out["cards"] = [CARD[c] for c in frame[1]]
    return out


def view(s: "MottainaiState", seat: int | None, recall: bool = False) -> dict[str, Any]:
    """What ``seat`` sees now; ``recall=True`` adds the deck cards it knows by position."""
    top_known = bool(s.deck) and s.deck_info[-1] == EVERYONE
    out: dict[str, Any] = {
        "game": "mottainai",
        "you": seat,
        "players": s.players,
        "active": s.active,
        "start_player": s.start_player,
        "turn": s.turns,
        "to_move": list(s.to_move),
        "deck_size": len(s.deck),
        "deck_top": CARD[s.deck[-1]] if top_known else None,
        "floor": _cards(s.floor),
        "extra_turns": s.extra_turns,
        "decision": _decision(s),
        "players_info": [_player(s, p, seat) for p in range(s.players)],
    }
    if s.options.team_play:  # public: partners sit opposite (seat p with p + 2) and add their totals
        out["partners"] = [(p + 2) % s.players for p in range(s.players)]
    if recall:
        # Deck cards this seat knows, by position from the bottom (0 = bottom).
        out["deck_known"] = [[i, CARD[c]] for i, (c, k) in enumerate(zip(s.deck, s.deck_info)) if k in (EVERYONE, seat)]
        # Perfect recall: what was announced in this step and decides the legal moves.
        # Morning and night effects already used (each works once a step), and the cards
        # revealed so far for Fountain / Flag / Figurine with the reveals still allowed:
        # revealing a card that everyone already knew leaves the table unchanged, not the choice.
        out["used_effects"] = [CARD[c] for c in s.used_fx]
        decision = out["decision"]
        if decision is not None and decision["kind"] == "reveal_bonus":
            frame = s.stack[-1]
            decision["revealed"] = [CARD[c] for c in frame[4]]
            decision["remaining"] = frame[3] if frame[3] >= 0 else None  # None: Fountain, no limit
    if s.over:
        from .cards import final_scores

        out["over"] = True
        out["end_reason"] = s.end_reason
        out["turtle_winner"] = s.turtle_winner if s.turtle_winner >= 0 else None
        out["scores"] = final_scores(s)
        out["result"] = s.result().to_json()
    return out


def determinize(s: "MottainaiState", seat: int, rng: AnyRng) -> "MottainaiState":
    """A full state ``seat`` cannot tell apart from this one (§14).

    Unknown to ``seat``: other hands (minus their revealed cards), every waiting area (its own
    too unless visible by option), face-down starting cards, and every deck position it did
    not see. These cards are shuffled among those same places, sizes kept.
    """
    d = s.clone()
    d.rng = rng.fork()
    d._legal = None
    d.pending = None
    if s.over:  # the final scoring showed every hand: nothing that matters is hidden any more
        return d
    pinned = [list(k) for k in s.known]  # hand cards every seat knows about
    must_hold = (-1, 0)  # (material, count): hidden cards the active hand is known to hold
    frame = s.stack[-1] if s.stack else ()
    if frame and frame[0] == "support" and s.active != seat:
        pinned[s.active], must_hold = _support_knowledge(s, frame, pinned[s.active])
    elif frame and frame[0] == "reveal_bonus" and s.active != seat:  # cards shown for it stay in hand
        pinned[s.active] = _with(pinned[s.active], frame[4])
    pool: list[int] = []
    hand_slots: list[tuple[int, int]] = []
    for p in range(s.players):
        if p != seat:
            hidden = list(s.hands[p])
            for c in pinned[p]:
                hidden.remove(c)
            pool.extend(hidden)
            hand_slots.append((p, len(hidden)))
    wait_players = [p for p in range(s.players) if p != seat or not s.options.waiting_area_visible_to_owner]
    for p in wait_players:
        pool.extend(s.waiting[p])
    start_cards = [p for p in range(s.players) if s.tasks[p] >= 0 and not s.task_up[p]]
    pool.extend(s.tasks[p] for p in start_cards)
    deck_slots = [i for i, k in enumerate(s.deck_info) if k not in (EVERYONE, seat)]
    pool.extend(s.deck[i] for i in deck_slots)
    # Sorted first, so the sample depends only on what the seat knows and on ``rng``,
    # never on where the hidden cards really lie.
    pool.sort()
    rng.shuffle(pool)
    material, count = must_hold
    held = [c for c in pool if MAT[c] == material][:count]  # set aside before any slot is filled
    for c in held:
        pool.remove(c)
    for p, n in hand_slots:
        chosen = held if p == s.active else []
        rest = n - len(chosen)
        d.hands[p] = tuple(sorted(pinned[p] + chosen + pool[:rest]))
        del pool[:rest]
    for p in wait_players:
        n = len(s.waiting[p])
        d.waiting[p] = tuple(pool[:n])
        del pool[:n]
    for p in start_cards:
        d.tasks[p] = pool.pop()
    for i in deck_slots:
        d.deck[i] = pool.pop()
    for p in range(d.players):  # hands, waiting areas and tasks redrawn (``zone_changes``)
        d.changed(p)
    return d


def _with(known: list[int], shown: tuple[int, ...]) -> list[int]:
    """``known`` plus the copies of ``shown`` it does not hold yet."""
    from collections import Counter

    return list(known) + list((Counter(shown) - Counter(known)).elements())


def _support_knowledge(s: "MottainaiState", frame: tuple, known: list[int]) -> tuple[list[int], tuple[int, int]]:
    """While a Smith's support is being chosen everyone knows the work and the cards revealed
    for it are in hand, and that the hand can supply the rest (what Crane cannot)."""
    _, work, _wing, how, remaining, revealed = frame
    pinned = _with(known, (work, *revealed))
    if how != "smith":
        return pinned, (-1, 0)
    m = MAT[work]
    spare_known = sum(1 for c in pinned if MAT[c] == m) - 1 - len(revealed)
    paper = 0
    from .data import CRANE

    if s.has(s.active, CRANE):
        paper = sum(1 for c in s.bench[s.active] if MAT[c] == PAPER)
    return pinned, (m, max(0, remaining - paper - spare_known))
