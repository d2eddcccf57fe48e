"""A Mottainai bot with a coherent plan, reading only what its seat may see.

Plan: hire helpers of a few roles and cover them with Gallery works of the same material;
choose tasks those helpers amplify; complete works whenever possible (Smith from hand,
Craft from the craft bench), placing each where it covers helpers or sales; sell what the
Gift Shop covers. It watches the end: it completes a fifth work in a wing (or lets the deck
run out faster) only when it leads on visible points, and avoids it when behind. It never
prays instead of taking a task while its hand is full (the rules let a table of such players
loop forever).

It reads ``state.view(seat, recall=True)``, ``state.legal_actions(seat)``, the options and
the static card data — never hidden state — and breaks ties with its own seeded Rng.
"""

from __future__ import annotations

from typing import Any

from parlor.core.actions import Action
from parlor.core.rng import Rng

from . import actions as A
from . import cards as C
from .data import CARD_INDEX, CUP, GONG, MAT, MATERIAL_INDEX, MORNING_CARDS, POEM, VAL

WING_OF = {"gallery": 0, "gift_shop": 1}


def _mat(card: str) -> int:
    return MAT[CARD_INDEX[card]]


def _val(card: str) -> int:
    return VAL[CARD_INDEX[card]]


def _count(cards: list[str], m: int) -> int:
    return sum(1 for c in cards if _mat(c) == m)


def _capacity(info: dict[str, Any], m: int, wing: str) -> int:
    return sum(_val(c) for c in info["works_as"][wing] if _mat(c) == m)


def visible_points(info: dict[str, Any]) -> int:
    """Works plus covered sales, as far as the table shows."""
    works = info["works_as"]["gallery"] + info["works_as"]["gift_shop"]
    total = sum(_val(c) for c in works)
    for m in range(5):
        n = _count(info["sales"], m)
        if n and n <= _capacity(info, m, "gift_shop"):
            total += n * VAL_OF_MATERIAL[m]
    return total


VAL_OF_MATERIAL = (1, 2, 2, 3, 3)


# Search stops a playout after this many moves and judges the position with ``evaluate``.
PLAYOUT_DEPTH = 20


def evaluate(state: Any) -> list[float]:
    """Search's judgement of an unfinished (determinized) position: the score each seat
    would have if the game ended now (works, covered sales, backorders, bonuses; partners
    added in team play), turned into rewards by the lead over the best opponent."""
    from parlor.bots.ismcts import margin_rewards

    return margin_rewards(C.final_result(state).scores, scale=4.0)


class HeuristicBot:
    name = "heuristic"

    def __init__(self, game: Any, seed: int = 0) -> None:
        self.game = game
        self.rng = Rng(seed)

    def choose(self, state: Any, seat: int) -> Action:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        view = state.view(seat, recall=True)
        ctx = _Context(view, seat, state.options)
        best, best_score = legal[0], float("-inf")
        for action in legal:
            score = ctx.score(action) + self.rng.random() * 0.01
            if score > best_score:
                best, best_score = action, score
        return best


class _Context:
    def __init__(self, view: dict[str, Any], seat: int, options: Any) -> None:
        self.view = view
        self.seat = seat
        self.options = options
        self.me = view["players_info"][seat]
        self.hand: list[str] = self.me.get("hand", [])
        self.decision = view["decision"] or {}
        self.kind = self.decision.get("kind", "")
        points = [visible_points(p) for p in view["players_info"]]
        mine = points[seat]
        others = [p for q, p in enumerate(points) if q != seat]
        self.lead = mine - max(others) if others else 0
        self.threshold = 6 if options.extended_game else 5

    # ------------------------------------------------------------------ helpers
    def helpers_of(self, m: int) -> int:
        return _count(self.me["helpers"], m)

    def covered(self, m: int) -> bool:
        n = self.helpers_of(m)
        return n > 0 and n <= _capacity(self.me, m, "gallery")

    def task_actions(self, m: int) -> int:
        n = self.helpers_of(m)
        return 1 + n * (2 if self.covered(m) else 1)

    def completable(self, card: str, exclude: str | None = None) -> bool:
        """Could Smith complete ``card`` from this hand (roughly: support in hand)?"""
        m = _mat(card)
        need = _val(card) - 1
        have = _count(self.hand, m) - 1 - (1 if exclude is not None and _mat(exclude) == m and exclude != card else 0)
        return have >= need

    def craftable(self, card: str) -> bool:
        m = _mat(card)
        return _count(self.me["craft_bench"], m) >= _val(card) - 1

    def wing_score(self, card: str, wing: str) -> float:
        """Where a new work does most: cover helpers (Gallery) or sales (Gift Shop)."""
        m = _mat(card)
        v = _val(card)
        score = 0.0
        other = "gift_shop" if wing == "gallery" else "gallery"
        if wing == "gallery":
            need = self.helpers_of(m) - _capacity(self.me, m, "gallery")
            if need > 0 and need <= v:
                score += 3 * self.helpers_of(m)
            elif need > 0:
                score += 1
        else:
            need = _count(self.me["sales"], m) - _capacity(self.me, m, "gift_shop")
            if need > 0 and need <= v:
                score += 2 * _count(self.me["sales"], m) * VAL_OF_MATERIAL[m]
            elif need > 0:
                score += 1
        n_here = len(self.me["works_as"][wing])
        n_other = len(self.me["works_as"][other])
        score += 0.3 * (n_other - n_here)
        if n_here + 1 >= self.threshold:  # this work ends the game
            score += 20 if self.lead + v > 0 else -30
        return score

    # ------------------------------------------------------------------ scoring actions
    def score(self, a: Action) -> float:
        t = type(a)
        if t is A.ChooseTask:
            return self.task_score(a.card)
        if t is A.NoTask:
            # Taking no task just prays; with everyone doing it the game would never move on.
            # A prayer with a full hand is only returned again tomorrow: then take a task.
            if not self.hand:
                return 2.0
            return 0.5 if len(self.hand) < 5 else -1.0
        if t is A.Complete or t is A.Craft or t is A.FreeComplete:
            return 20 + 3 * _val(a.card) + self.wing_score(a.card, a.wing)
        if t is A.PickWing:
            return 0.0
        if t is A.Sell:
            m = _mat(a.card)
            n = _count(self.me["sales"], m) + 1
            ok = n <= _capacity(self.me, m, "gift_shop")
            return 6 + (4 if ok else 0) + VAL_OF_MATERIAL[m]
        if t is A.SellTop or t is A.SellAll:
            return 7.0
        if t is A.Hire or t is A.TakeHelper:
            m = _mat(a.card)
            n = self.helpers_of(m) + 1
            ok = n <= _capacity(self.me, m, "gallery")
            focus = 2 if self.helpers_of(m) else 0
            return 9 + (3 if ok else 0) + focus + (1 if t is A.TakeHelper else 0)
        if t is A.Collect or t is A.TakeMaterial or t is A.CollectTop:
            if t is A.CollectTop:
                return 7.0
            m = _mat(a.card)
            useful = 2 if any(_mat(c) == m for c in self.hand) else 0
            return 7 + VAL[CARD_INDEX[a.card]] + useful
        if t is A.TakeTask:
            return 8.0 if self.kind == "action" else 6.0
        if t is A.TakeWork:
            return 12 + _val(a.card)
        if t is A.TakeSale:
            return 5 + _val(a.card)
        if t is A.Refill:
            return 8 - 2 * len(self.hand) + (2 if self.view["deck_size"] > 10 else 0) + self.deck_end_bias(5)
        if t is A.Pray:
            return (2.0 if len(self.hand) < 5 else 0.5) + self.deck_end_bias(1)
        if t is A.Pass:
            return -1.0
        if t is A.ReturnCard:
            # Hand limit: return the least useful; Tailor: return only dead weight.
            if self.kind == "tailor_return":
                return -5.0
            return 10 - _val(a.card) - 2 * _count(self.hand, _mat(a.card))
        if t is A.DiscardToFloor:
            return 5 - _val(a.card)
        if t is A.Reveal or (t is A.Done and self.kind == "reveal_bonus"):
            return 1.0 if t is A.Reveal else 0.0
        if t is A.SkipTask:
            return -2.0
        if t is A.UseEffect:
            return self.effect_score(a.card)
        if t is A.PickCard:
            return _val(a.card)
        if t is A.PickMaterial:
            return _count(self.hand, MATERIAL_INDEX[a.material]) * 0 + (3 if a.material in ("metal", "clay") else 1)
        if t is A.PickOption:
            return 1.0 if a.option == "restock_floor" else 0.0
        if t is A.KiteCopy:
            return _val(a.card)
        if t is A.KiteGive:
            return -_val(a.card)
        if t is A.SwapHands:
            return -1.0
        if t is A.MoveWork:
            return -0.5
        return 0.0  # Done / Decline

    def deck_end_bias(self, draws: int) -> float:
        """Near the end of the deck, drawing hastens the end: good when leading, bad when behind."""
        deck = self.view["deck_size"]
        if deck > draws + 3:
            return 0.0
        return 15.0 if self.lead > 0 else -15.0

    def task_score(self, card: str) -> float:
        m = _mat(card)
        actions = self.task_actions(m)
        rest = list(self.hand)
        rest.remove(card)
        floor = self.view["floor"]
        bench = self.me["craft_bench"]
        if m == 0:  # clerk
            use = 1.0 if bench else 0.1
        elif m == 1:  # monk
            use = 1.0 if floor else 0.1
        elif m == 2:  # tailor
            use = 0.8 if len(rest) < 3 else 0.2
        elif m == 3:  # potter
            use = 0.9 if floor else 0.1
        else:  # smith
            use = 1.6 if any(self.completable(c, card) for c in rest) else 0.1
        craft = any(_mat(c) == m and self.craftable(c) for c in rest)
        if craft:
            use += 1.2
        return actions * use - 0.2 * _val(card)

    def effect_score(self, card: str) -> float:
        c = CARD_INDEX[card]
        if c == CUP:
            return 5.0 if self.lead > 0 else -5.0
        if c == GONG:
            return 2.0 if self.view["deck_size"] > 8 or self.lead > 0 else -1.0
        if c == POEM:
            return 1.0
        if c in MORNING_CARDS:
            return 1.0
        if self.kind == "chopsticks":
            return 1.0
        return 1.0
