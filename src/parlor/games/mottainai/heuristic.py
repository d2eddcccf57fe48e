"""A Mottainai bot that prices every legal move in points and takes the dearest one.

It reads only ``state.view(seat, recall=True)``, ``state.legal_actions(seat)``, the options
and the static card data (never hidden state), and breaks ties with its own seeded Rng.

Plan:

* **Score as the rules count it.** Each seat's final score is estimated as if the game ended
  now: works, covered sales (Quilt, Pillar, Go Set included), work bonuses (Scroll, Bench,
  Tapestry, Haniwa, Teapot) and backorders: our own hand exactly, an opponent's hidden hand at
  the expected value of the cards we have not seen yet. Completing, selling or moving a card
  is valued by how much it changes our estimate, plus what it does for the rest of the game.
* **Engine.** A helper is worth the extra actions it brings over the rounds left, with later
  actions of one task worth less, and roles weighted (Smith actions, which complete works,
  count most; Clerk and Tailor least). Gallery works are worth the cover they give helpers.
  Craft-bench cards are worth most when they let a hand card be crafted.
* **Tasks feed everyone.** Every opponent performs our task with their own helpers, so a task
  is worth what our actions on it bring, less what the opponents' actions bring them, less the
  hand card it costs; taking no task (a single Prayer that feeds nobody) often wins, but never
  with a full hand, where the table could otherwise loop for ever. Doll and Sketch are priced
  the same way. We do not hand a Smith, Clerk or craftable task to a leading opponent who is
  one work short of ending the game.
* **Cards.** A drawn card is worth little once the hand is full (it is only returned
  tomorrow); a kept card is worth its backorder value and the support it gives.
* **The end.** The game ends at a fifth work in a wing, an empty deck or Cup. We end it (a
  last work, the last card drawn, Cup) only when our lead survives the uncertainty of the
  opponents' hidden hands, and avoid it otherwise; near the end of the deck we welcome draws
  when ahead and avoid them when behind, and when clearly ahead we fill the fuller wing.
  Future gains (helpers, bench, effects) fade out as the rounds left run short.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from parlor.core.actions import Action
from parlor.core.rng import Rng

from . import actions as A
from . import cards as C
from .data import CARD_INDEX, MAT, VAL

WING_OF = {"gallery": 0, "gift_shop": 1}


_MAT_OF = {c: MAT[i] for c, i in CARD_INDEX.items()}
_VAL_OF = {c: VAL[i] for c, i in CARD_INDEX.items()}


def _mat(card: str) -> int:
    return _MAT_OF[card]


def _val(card: str) -> int:
    return _VAL_OF[card]


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
# ``expert`` looks further: with 4x the iterations of ``hard`` at the same depth it only
# found the same moves (0.475 against ``hard`` over 40 games at 2 players); at depth 40 it
# scores 0.69 over 80 (docs/strength.md).
EXPERT_PLAYOUT_DEPTH = 40


def evaluate(state: Any) -> list[float]:
    """Search's judgement of an unfinished (determinized) position: the score each seat
    would have if the game ended now (works, covered sales, backorders, bonuses; partners
    added in team play), turned into rewards by the lead over the best opponent."""
    from parlor.bots.ismcts import margin_rewards

    return margin_rewards(C.final_result(state).scores, scale=4.0)


# Weights, in points unless said otherwise (tuned by head-to-head play against the previous
# version of this bot, with the seats rotated).
W: dict[str, float] = {
    "card": 0.5,  # a card drawn early in the game (it fades with ``fresh``)
    "card_full": 0.2,  # share of a drawn card's worth left once the hand is already full
    "keep0": 0.6,  # a hand card's worth beyond its backorder value
    "keep_sup": 0.35,  # ... per other hand card of its material (support, a work in the making)
    "act": 0.5,  # one future action of a task
    "sat": 0.2,  # further actions of the same task are worth less: the k-th is 1 / (1 + sat k)
    "r_clerk": 0.4,  # how much an action of each role is worth, relative to the others
    "r_monk": 1.0,
    "r_tailor": 0.4,
    "r_potter": 1.0,
    "r_smith": 2.5,
    "opp_act": 0.6,  # one action an opponent gets from our task ...
    "opp_w": 2.5,  # ... and how much we mind it
    "opp_div": 0.5,  # with more opponents each one's gain matters less: divide by (n-1)^this
    "bench": 1.0,  # a craft-bench card
    "craft_enable": 3.0,  # ... that lets a hand card be crafted
    "effect": 1.0,  # scale of the lasting effects of works (table _EFFECT)
    "sell": 1.0,  # a sale, beyond the points it makes now
    "sell_future": 0.5,  # ... per material value, early in the game
    "round_per_work": 2.5,  # rounds the leader needs for one more work in a wing
    "horizon": 6.0,  # rounds left below which future gains fade out
    "race": 0.3,  # when clearly ahead, per work of difference: fill the fuller wing
    "feed_end": 4.0,  # our task would let a leading opponent complete a game-ending work
    "end_z": 1.0,  # standard deviations of opponents' hidden backorders to keep in hand when we end
    "late_deck": 6,  # deck size below which each draw is weighed against the deck running out
    "late_draw": 2.0,
}

_ROLE_W = ("r_clerk", "r_monk", "r_tailor", "r_potter", "r_smith")

_COPIES = (12, 11, 11, 10, 10)
_CARDS = 54

# Rough worth of a work's lasting effect over a whole game (scaled by what is left of it).
_EFFECT = {
    "crane": 1.0, "curtain": 1.5, "deck_of_cards": 1.0, "doll": 1.0, "fan": 0.5, "pinwheel": 1.0,
    "plane": 0.5, "poem": 0.5, "sketch": 0.5, "straw": 1.0, "amulet": 1.5, "daitoro": 1.0,
    "fountain": 1.0, "frog": 0.0, "go_set": 1.0, "pillar": 0.0, "statue": 0.0, "stool": 1.5,
    "tablet": 0.0, "tower": 1.5, "cloak": 0.5, "flag": 1.5, "handkerchief": 0.5, "kite": 0.5,
    "mask": 1.5, "puppet": 0.3, "quilt": 0.0, "robe": 1.0, "socks": 1.0, "tapestry": 0.0,
    "umbrella": 1.0, "bangle": 2.0, "bowl": 2.0, "brick": 1.0, "cup": 0.5, "dice": 0.5,
    "figurine": 1.5, "haniwa": 0.0, "jar": 0.0, "teapot": 0.0, "vase": 0.0, "bell": 1.0,
    "chopsticks": 1.5, "coin": 0.0, "flute": 1.0, "gong": 1.0, "pin": 1.0, "ring": 1.0,
    "shuriken": 0.0, "sword": 1.0, "turtle": 0.0,
}  # fmt: skip


def _counts(cards: list[str]) -> list[int]:
    out = [0, 0, 0, 0, 0]
    for c in cards:
        out[_MAT_OF[c]] += 1
    return out


def _score(
    gal: list[str],
    gift: list[str],
    sales: list[int],
    helpers: list[str],
    bench: list[str],
    hand: list[str],
    unknown: int,
    opp_max: list[int],
    unseen: list[float] | None = None,
    var_out: list[float] | None = None,
) -> float:
    """Final score of one tableau if the game ended now; ``unknown`` hidden hand cards count
    at their expected backorder value."""
    works = gal + gift
    total = float(sum(_VAL_OF[c] for c in works))
    go_set = "go_set" in works
    quilt = "quilt" in works
    base = []
    for m in range(5):
        n = sales[m]
        if not n:
            base.append(0)
            continue
        if quilt and m <= 2:
            ok = n
        else:
            cap = sum(_VAL_OF[c] for c in gift if _MAT_OF[c] == m)
            if go_set and m == 1:
                cap += sum(_VAL_OF[c] for c in gal if _MAT_OF[c] == 1)
            ok = n if n <= cap else 0
        base.append(ok * VAL_OF_MATERIAL[m])
    total += sum(base)
    if "pillar" in works and any(sales):
        top = max(sales)
        total += max(sales[m] * VAL_OF_MATERIAL[m] - base[m] for m in range(5) if sales[m] == top)
    if "scroll" in works:
        total += 3 * works.count("scroll")
    if "bench" in works:
        total += works.count("bench") * 2 * sum(1 for c in works if _MAT_OF[c] == 1)
    if "tapestry" in works:
        for wing, other in ((gal, gift), (gift, gal)):
            k = wing.count("tapestry")
            if k:
                total += k * (len(wing) + (sum(1 for c in other if _MAT_OF[c] == 1) if go_set else 0))
    if "haniwa" in works:
        total += works.count("haniwa") * 3 * max(_counts(helpers))
    if "teapot" in works:
        total += works.count("teapot") * 3 * max(_counts(bench))
    lamp = "lampshade" in works
    mats = [
        m
        for m in range(5)
        if sales[m] > opp_max[m] or (((m >= 3 and lamp) or (m <= 2 and quilt)) and sales[m] >= opp_max[m])
    ]
    if mats:
        coin = 1 + works.count("coin")
        total += coin * sum(_VAL_OF[c] for c in hand if _MAT_OF[c] in mats)
        if unknown:
            share = unseen or [c / _CARDS for c in _COPIES]
            mean = sum(share[m] * VAL_OF_MATERIAL[m] for m in mats)
            total += coin * unknown * mean
            if var_out is not None:
                sq = sum(share[m] * VAL_OF_MATERIAL[m] ** 2 for m in mats)
                var_out.append(coin * coin * unknown * max(0.0, sq - mean * mean))
    return total


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); plug-in bots may extend it
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
        infos = view["players_info"]
        self.infos = infos
        self.n = n = view["players"]
        self.me = me = infos[seat]
        self.hand: list[str] = me.get("hand", [])
        self.decision = view["decision"] or {}
        self.kind = self.decision.get("kind", "")
        self.threshold = 6 if options.extended_game else 5
        self.deck = view["deck_size"]
        self.sales_n = [_counts(p["sales"]) for p in infos]
        self.opps = [q for q in range(n) if q != seat]
        if options.team_play and n == 4:
            self.opps = [q for q in self.opps if q != (seat + 2) % 4]
        self.gal = me["works_as"]["gallery"]
        self.gift = me["works_as"]["gift_shop"]
        self.works = self.gal + self.gift
        self.helpers = me["helpers"]
        self.bench = me["craft_bench"]
        self.h_n = _counts(self.helpers)
        self.b_n = _counts(self.bench)
        self.hand_n = _counts(self.hand)
        self._bo: list[int] | None = None
        self.unseen = self._unseen()
        self.opp_max = [self._opp_max(p) for p in range(n)]
        self.var: list[list[float]] = [[] for _ in range(n)]
        self.est = [self._estimate(p) for p in range(n)]
        best_other = max(self.est[q] for q in self.opps) if self.opps else 0.0
        mine = self.est[seat]
        if options.team_play and n == 4:  # partners' totals add up
            mine += self.est[(seat + 2) % 4]
            best_other = self.est[(seat + 1) % 4] + self.est[(seat + 3) % 4]
        self.lead = mine - best_other
        # the lead we can count on: hidden hands may hold more backorders than expected
        z = W["end_z"]
        self.safe_lead = min(
            (self.est[seat] - self.est[q] - z * sum(self.var[q]) ** 0.5 for q in self.opps), default=0.0
        )
        if options.team_play and n == 4:
            self.safe_lead = min(self.safe_lead, self.lead)
        self.base = self.est[seat]
        # How much game is left, in rounds: the deck drains about n/2 cards a turn; a wing
        # fills about one work every few rounds.
        wings = [self._wing_counts(p) for p in range(n)]
        self.wings = wings
        top = max(max(w) for w in wings)
        r_deck = self.deck / max(1.0, 0.55 * n * n)
        r_wing = (self.threshold - top) * W["round_per_work"]
        self.rounds = max(0.0, min(r_deck, r_wing))
        self.fresh = min(1.0, self.rounds / W["horizon"])  # 1 early, 0 at the very end

    # ------------------------------------------------------------------ the table
    def _opp_max(self, p: int) -> list[int]:
        out = [0, 0, 0, 0, 0]
        for q in range(self.n):
            if q == p or (self.options.team_play and self.n == 4 and q == (p + 2) % 4):
                continue
            s = self.sales_n[q]
            for m in range(5):
                if s[m] > out[m]:
                    out[m] = s[m]
        return out

    def _unseen(self) -> list[float]:
        """Share of each material among the cards we cannot see (hands, deck, waiting areas)."""
        decks = 1 if self.n <= 3 else 2
        left = [decks * c for c in _COPIES]
        seen: list[str] = list(self.view["floor"]) + self.hand
        for info in self.infos:
            seen += info["helpers"] + info["craft_bench"] + info["sales"] + info["gallery"] + info["gift_shop"]
            seen += info["revealed_in_hand"] if info["seat"] != self.seat else []
            task = info["task"]
            if task and task.get("card"):
                seen.append(task["card"])
        for _, c in self.view.get("deck_known", []):
            seen.append(c)
        for c in seen:
            left[MAT[CARD_INDEX[c]]] -= 1
        left = [max(0, x) for x in left]
        total = sum(left) or 1
        return [x / total for x in left]

    def _estimate(self, p: int) -> float:
        info = self.infos[p]
        hand = info.get("hand")
        if hand is None:
            hand = info["revealed_in_hand"]
            unknown = max(0, info["hand_size"] - len(hand))
        else:
            unknown = 0
        return _score(
            info["works_as"]["gallery"], info["works_as"]["gift_shop"], self.sales_n[p], info["helpers"],
            info["craft_bench"], hand, unknown, self.opp_max[p], self.unseen, self.var[p],
        )  # fmt: skip

    def _wing_counts(self, p: int) -> tuple[int, int]:
        info = self.infos[p]
        gal, gift = info["works_as"]["gallery"], info["works_as"]["gift_shop"]
        if "go_set" in gal or "go_set" in gift:
            sg = sum(1 for c in gal if _mat(c) == 1)
            ss = sum(1 for c in gift if _mat(c) == 1)
            return len(gal) + ss, len(gift) + sg
        return len(gal), len(gift)

    def my_score(self, gal=None, gift=None, sales=None, helpers=None, bench=None, hand=None) -> float:  # type: ignore[no-untyped-def]
        return _score(
            self.gal if gal is None else gal,
            self.gift if gift is None else gift,
            self.sales_n[self.seat] if sales is None else sales,
            self.helpers if helpers is None else helpers,
            self.bench if bench is None else bench,
            self.hand if hand is None else hand,
            0,
            self.opp_max[self.seat],
        )

    def backorder_mats(self) -> list[int]:
        if self._bo is None:
            self._bo = self._backorder_mats()
        return self._bo

    def _backorder_mats(self) -> list[int]:
        mine = self.sales_n[self.seat]
        opp = self.opp_max[self.seat]
        lamp = "lampshade" in self.works
        quilt = "quilt" in self.works
        return [
            m for m in range(5) if mine[m] > opp[m] or (((m >= 3 and lamp) or (m <= 2 and quilt)) and mine[m] >= opp[m])
        ]

    # ------------------------------------------------------------------ values
    def card_value(self, nth: int = 0) -> float:
        """The ``nth`` further card drawn now (it reaches the hand tonight); past a hand of
        five it is only a choice of what to return tomorrow."""
        mats = self.backorder_mats()
        bo = sum(self.unseen[m] * VAL_OF_MATERIAL[m] for m in mats)
        full = len(self.hand) + self.me["waiting_size"] + nth >= 5
        if full:
            return W["card_full"] * (W["card"] * self.fresh + bo)
        return W["card"] * self.fresh + bo

    def keep(self, card: str) -> float:
        """What a hand card is worth to keep."""
        m = _mat(card)
        v = 0.0
        if m in self.backorder_mats():
            v += VAL_OF_MATERIAL[m]
        return v + self.fresh * (W["keep0"] + W["keep_sup"] * (self.hand_n[m] - 1) * VAL_OF_MATERIAL[m] / 2)

    def gallery_cap(self, m: int, gal: list[str] | None = None, gift: list[str] | None = None) -> int:
        gal = self.gal if gal is None else gal
        gift = self.gift if gift is None else gift
        cap = sum(_val(c) for c in gal if _mat(c) == m)
        if m == 1 and "go_set" in gal + gift:
            cap += sum(_val(c) for c in gift if _mat(c) == 1)
        return cap

    def bonus_actions(self, m: int, helpers: int, cap: int) -> int:
        if m == 1 and "bangle" in self.works:
            return 2 * helpers
        return 2 * helpers if helpers <= cap else helpers

    def tasks_ahead(self, m: int) -> float:
        """Tasks of role ``m`` we expect to perform in the rest of the game."""
        own = 0.25 + 0.1 * min(self.hand_n[m], 3)
        return self.rounds * (own + 0.2 * (self.n - 1))

    def actions_worth(self, m: int, actions: int) -> float:
        """Worth of one task of role ``m`` giving ``actions`` actions: each further action
        is worth less (there is only so much to complete, hire, collect or sell)."""
        sat = W["sat"]
        return sum(1.0 / (1.0 + sat * k) for k in range(actions))

    def engine_value(self, m: int, helpers: int, cap: int) -> float:
        worth = self.actions_worth(m, 1 + self.bonus_actions(m, helpers, cap))
        return worth * self.tasks_ahead(m) * W["act"] * W[_ROLE_W[m]]

    def helper_value(self, m: int, delta: int = 1) -> float:
        n = self.h_n[m]
        cap = self.gallery_cap(m)
        return self.engine_value(m, n + delta, cap) - self.engine_value(m, n, cap)

    def cover_value(self, m: int, new_cap: int) -> float:
        """Future actions gained when the Gallery capacity for ``m`` becomes ``new_cap``."""
        n = self.h_n[m]
        if not n:
            return 0.0
        cap = self.gallery_cap(m)
        return self.engine_value(m, n, new_cap) - self.engine_value(m, n, cap)

    def ends_game(self, wing: str, card: str) -> bool:
        g, s = self.wings[self.seat]
        k = g if wing == "gallery" else s
        if k + 1 >= self.threshold:
            return True
        if _mat(card) == 1 and "go_set" in self.works:
            return max(g, s) + 1 >= self.threshold
        return False

    def turtle_win(self, card: str) -> bool:
        if "turtle" not in self.works and card != "turtle":
            return False
        mats = {_mat(c) for c in self.works} | {_mat(card)}
        return len(mats) == 5

    def end_value(self, delta: float) -> float:
        """Ending the game now with our score changed by ``delta``: win or lose."""
        return 60.0 if self.safe_lead + delta >= 0 else -60.0

    def draw_end(self, draws: int) -> float:
        """Drawing brings the deck's end nearer: welcome when ahead, feared when behind."""
        if draws <= 0:
            return 0.0
        if self.deck <= draws:
            return self.end_value(0)
        if self.deck > draws + W["late_deck"]:
            return 0.0
        sign = 1.0 if self.safe_lead >= 0 else -1.0
        return sign * W["late_draw"] * draws / (self.deck - draws)

    def complete_value(self, card: str, wing: str) -> float:
        """Completing ranks above the other uses of an action (hence the 10)."""
        return 10 + self.complete_net(card, wing)

    def complete_net(self, card: str, wing: str) -> float:
        m = _mat(card)
        hand = list(self.hand)
        if card in hand:
            hand.remove(card)
        gal = [*self.gal, card] if wing == "gallery" else self.gal
        gift = [*self.gift, card] if wing == "gift_shop" else self.gift
        after = self.my_score(gal=gal, gift=gift, hand=hand)
        delta = after - self.base
        if self.turtle_win(card):
            return 100.0
        if self.ends_game(wing, card):
            return 10 + delta + self.end_value(delta)
        value = delta
        if wing == "gallery" or (m == 1 and "go_set" in self.works):
            value += self.cover_value(m, self.gallery_cap(m, gal, gift))
        value += W["effect"] * _EFFECT.get(card, 0.0) * self.fresh
        # keep the wings apart from the end line: a fourth work in a wing gives the table the
        # chance to end; prefer the emptier wing a little
        g, s = self.wings[self.seat]
        here, other = (g, s) if wing == "gallery" else (s, g)
        value += 0.15 * (other - here)
        if self.lead >= 2:  # clearly ahead: bring the end nearer
            value += W["race"] * (here - other)
        # the work leaves the hand: its support role goes (its backorder worth is in delta)
        value -= self.fresh * W["keep_sup"] * (self.hand_n[m] - 1) * VAL_OF_MATERIAL[m] / 2
        return value

    # ------------------------------------------------------------------ scoring actions
    def score(self, a: Action) -> float:
        t = type(a)
        if t is A.ChooseTask:
            return self.task_value(a.card)  # type: ignore[attr-defined]
        if t is A.NoTask:
            if len(self.hand) >= 5:
                return -50.0  # a full hand must take a task, or the table may loop forever
            return self.card_value() + self.draw_end(1)
        if t is A.Complete or t is A.Craft or t is A.FreeComplete:
            return self.complete_value(a.card, a.wing)  # type: ignore[attr-defined]
        if t is A.PickWing:
            return 0.0
        if t is A.Sell:
            return self.sell_value(a.card)  # type: ignore[attr-defined]
        if t is A.SellTop or t is A.SellAll:
            return 3.0
        if t is A.Hire or t is A.TakeHelper:
            m = _mat(a.card)  # type: ignore[attr-defined]
            v = self.helper_value(m) + 0.3
            if "haniwa" in self.works:
                v += 3 if self.h_n[m] + 1 > max(self.h_n) else 0
            return v
        if t is A.Collect or t is A.TakeMaterial or t is A.CollectTop:
            if t is A.CollectTop:
                return self.card_value()
            return self.collect_value(a.card)  # type: ignore[attr-defined]
        if t is A.TakeTask:
            if self.kind == "choose_task":
                task = self.infos[a.player]["task"]  # type: ignore[attr-defined]
                return self.task_value(task["card"], "doll") if task and task.get("card") else -5.0
            return 2.0
        if t is A.TaskFromHelper:
            return self.task_value(a.card, "sketch")  # type: ignore[attr-defined]
        if t is A.TakeWork:
            return 3 + _val(a.card)  # type: ignore[attr-defined]
        if t is A.TakeSale:
            return 1 + _val(a.card)  # type: ignore[attr-defined]
        if t is A.Refill:
            draws = max(0, 5 - len(self.hand) - self.me["waiting_size"])
            return sum(self.card_value(k) for k in range(draws)) + self.draw_end(draws)
        if t is A.Pray:
            return self.card_value() + self.draw_end(1)
        if t is A.Pass:
            return -1.0
        if t is A.ReturnCard:
            if self.kind == "tailor_return":
                return self.card_value() - self.keep(a.card) - 0.2  # type: ignore[attr-defined]
            return -self.keep(a.card)  # type: ignore[attr-defined]
        if t is A.DiscardToFloor:
            return -self.keep(a.card)  # type: ignore[attr-defined]
        if self.kind == "support":
            return self.support_cost(a)
        if t is A.Reveal or (t is A.Done and self.kind == "reveal_bonus"):
            return 1.0 if t is A.Reveal else 0.0
        if t is A.SkipTask:
            return -2.0
        if t is A.UseEffect:
            return self.effect_score(a.card)  # type: ignore[attr-defined]
        if t is A.PickCard:
            return self.pick_value(a.card)  # type: ignore[attr-defined]
        if t is A.PickMaterial:
            return 3 if a.material in ("metal", "clay") else 1  # type: ignore[attr-defined]
        if t is A.PickOption:
            return 1.0 if a.option == "restock_floor" else 0.0  # type: ignore[attr-defined]
        if t is A.KiteCopy:
            return _val(a.card)  # type: ignore[attr-defined]
        if t is A.KiteGive:
            return -_val(a.card)  # type: ignore[attr-defined]
        if t is A.SwapHands:
            return -1.0
        if t is A.MoveWork:
            return -0.5
        return 0.0  # Done / Decline

    def support_cost(self, a: Action) -> float:
        """Support for a work: a revealed card stays in hand but tells the table about it (free if
        it is already shown), a Paper card Crane sends leaves the craft bench for good."""
        t = type(a)
        if t is A.Reveal:
            if a.card in self.me["revealed_in_hand"]:  # type: ignore[attr-defined]
                return 0.0
            return -0.2 - 0.05 * _val(a.card)  # type: ignore[attr-defined]
        if t is A.SendPaper:
            return -0.1 - max(0.0, self.bench_card_value(a.card))  # type: ignore[attr-defined]
        return 0.0  # Done: the rest is counted in the craft bench

    def pick_value(self, card: str) -> float:
        """A card picked for an effect; what happens to it depends on the effect."""
        kind = self.kind
        if kind in ("fan_order", "floor_return"):  # which card goes under the deck first
            return 0.0
        if kind == "pinwheel":  # a hand card to the bottom of the deck
            return -self.keep(card)
        if kind == "amulet":  # craft bench to sales
            return self.sell_value(card)
        if kind == "umbrella":  # one of our helpers to our sales
            m = _mat(card)
            sales = list(self.sales_n[self.seat])
            sales[m] += 1
            helpers = list(self.helpers)
            helpers.remove(card)
            delta = self.my_score(sales=sales, helpers=helpers) - self.base
            return delta + self.helper_value(m, -1) + W["sell_future"] * self.fresh * VAL_OF_MATERIAL[m]
        if kind == "take_floor":
            if self.decision.get("to") == "sales":
                m = _mat(card)
                sales = list(self.sales_n[self.seat])
                sales[m] += 1
                return 1.0 + self.my_score(sales=sales) - self.base
            return 1.0 + self.collect_value(card)
        return _val(card)

    def sell_value(self, card: str) -> float:
        m = _mat(card)
        sales = list(self.sales_n[self.seat])
        sales[m] += 1
        bench = list(self.bench)
        bench.remove(card)
        delta = self.my_score(sales=sales, bench=bench) - self.base
        # a sale keeps paying: later hand cards of the material, later cover
        value = W["sell"] + delta + W["sell_future"] * self.fresh * VAL_OF_MATERIAL[m]
        value -= self.bench_card_value(card)
        return value

    def bench_card_value(self, card: str) -> float:
        """What a craft-bench card of this material does for us (support for crafting)."""
        m = _mat(card)
        have = self.b_n[m]
        v = W["bench"] * self.fresh
        # does it let a hand card of this material be crafted (support v - 1)?
        for c in self.hand:
            if _mat(c) == m and _val(c) - 1 == have:
                v += W["craft_enable"] * self.fresh
                break
        return v

    def collect_value(self, card: str) -> float:
        m = _mat(card)
        v = W["bench"] * self.fresh
        have = self.b_n[m] + 1
        for c in self.hand:
            if _mat(c) == m and _val(c) - 1 <= have and _val(c) - 1 > self.b_n[m]:
                v += W["craft_enable"] * self.fresh
                break
        if "teapot" in self.works and self.b_n[m] + 1 > max(self.b_n):
            v += 3
        return v + 0.1 * VAL_OF_MATERIAL[m]

    def action_count(self, p: int, m: int) -> int:
        info = self.infos[p]
        helpers = _counts(info["helpers"])[m]
        gal = info["works_as"]["gallery"]
        gift = info["works_as"]["gift_shop"]
        cap = sum(_val(c) for c in gal if _mat(c) == m)
        works = gal + gift
        if m == 1 and "go_set" in works:
            cap += sum(_val(c) for c in gift if _mat(c) == 1)
        if m == 1 and "bangle" in works:
            return 1 + 2 * helpers
        return 1 + (2 * helpers if helpers <= cap else helpers)

    def my_action_values(self, card: str, from_hand: bool = True) -> list[float]:
        """What each action of our own task with ``card`` would bring, best first."""
        m = _mat(card)
        hand = list(self.hand)
        if from_hand:
            hand.remove(card)
        out: list[float] = []
        pray = self.card_value(len(hand) - len(self.hand))
        # crafts of material m (support from the bench); Smith: support from the hand
        counts = _counts(hand)
        for c in hand:
            if (_mat(c) == m and self.b_n[m] >= _val(c) - 1) or (m == 4 and counts[_mat(c)] >= _val(c)):
                out.append(max(self.complete_net(c, "gallery"), self.complete_net(c, "gift_shop")))
        if m == 1:
            for c in self.view["floor"]:
                out.append(self.helper_value(_mat(c)) + 0.3)
        elif m == 3:
            for c in self.view["floor"]:
                out.append(self.collect_value(c))
        elif m == 0:
            for c in set(self.bench):
                out.append(self.sell_value(c))
        elif m == 2:
            draws = max(0, 5 - len(hand))
            out.append(draws * pray)
        out = [max(v, pray) for v in out]
        out.sort(reverse=True)
        return out

    def task_value(self, card: str, source: str = "hand") -> float:
        """Our own task with ``card``: what our actions bring, less what every opponent's
        actions on it bring them, less the card's worth where it came from. ``source``:
        ``hand``, ``doll`` (an opponent's task, one action more, and we no longer perform it
        as theirs) or ``sketch`` (one of our helpers)."""
        m = _mat(card)
        actions = self.action_count(self.seat, m) + (1 if source == "doll" else 0)
        values = self.my_action_values(card, from_hand=source == "hand")
        # actions beyond the useful ones pray: a card each, until the hand is full
        k = -1
        while len(values) < actions:
            k += 1
            values.append(self.card_value(k - 1))
        values.sort(reverse=True)
        mine = sum(values[:actions])
        # a leading opponent one work short of the end may use our task to complete it
        for q in self.opps:
            close = max(self.wings[q]) >= self.threshold - 1 and self.est[q] > self.est[self.seat]
            if close and (m in (0, 4) or _counts(self.infos[q]["craft_bench"])[m] >= VAL_OF_MATERIAL[m] - 1):
                mine -= W["feed_end"]
        opp = sum(self.action_count(q, m) for q in self.opps) * W["opp_act"] * self.fresh
        if self.n > 2:
            opp /= (self.n - 1) ** W["opp_div"]
        if source == "hand":
            cost = self.keep(card)
        elif source == "doll":  # we would have performed it anyway as the opponent's task
            cost = sum(values[: actions - 1])
        else:
            cost = self.helper_value(m, -1) * -1.0
        return mine - W["opp_w"] * opp - cost

    def effect_score(self, card: str) -> float:
        """Using a work's effect now (the decision's kind says which moment)."""
        kind = self.kind
        if card == "cup":
            return 30.0 if self.safe_lead >= 0 else -5.0
        if card == "gong":
            # three cards, but the Gong work itself goes back to the hand
            hand = [*self.hand, "gong"]
            gal, gift = list(self.gal), list(self.gift)
            if "gong" in gal:
                gal.remove("gong")
            elif "gong" in gift:
                gift.remove("gong")
            delta = self.my_score(gal=gal, gift=gift, hand=hand) - self.base
            return delta + sum(self.card_value(k) for k in range(3)) + self.draw_end(3) - W["effect"] * self.fresh
        if card == "poem":
            # a Paper work for the deck's top card as a work; never on a tiny deck, where two
            # Paper cards could swap places for ever
            return 1.0 + self.draw_end(1) if self.deck > 3 else -1.0
        if card == "cloak":
            # the work just completed goes back to the deck; a Metal card from hand may replace it
            work = self.decision.get("work", "")
            metal = max((_val(c) for c in self.hand if _mat(c) == 4), default=0)
            return (metal - _val(work) if work else 0) - (0.5 if not metal else 0)
        if card in ("stool", "deck_of_cards") or (card == "pinwheel" and kind == "pinwheel_draw"):
            return self.card_value() + self.draw_end(1)
        if card in ("umbrella", "bowl"):
            return 1.0 + self.draw_end(1)
        if card == "daitoro":
            k = max(0, 3 - len(self.view["floor"]))
            return 0.5 + self.draw_end(k)
        if card == "pinwheel":
            return 0.5
        return 1.0
