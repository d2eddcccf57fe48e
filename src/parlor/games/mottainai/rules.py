"""Mottainai rules, in rulebook order (spec: ``docs/rules/mottainai.md``).

Setup (§3) -> turns (§4): ``morning`` (hand limit, morning effects, clear the task slot,
choose a task — in the order ``morning_order`` says), ``noon`` (perform every opponent's
task clockwise, then your own or one Prayer: ``perform_task``), ``night`` (night effects,
pick up the waiting area) -> game end (§12) -> scoring (§13, in ``cards.py``).

The turn is driven by a small stack of *frames* (plain tuples, so a clone copies one list):
a flow frame does its step and moves on; a decision frame waits for the active player's
action. Every player action happens on the active player's turn, so ``to_move`` is always
the active seat. Card effects live in ``cards.py`` and plug into the same stack.

Cards are card types 0..53 (two decks hold two copies of each); per-player zones are
tuples (copy on write).

Layout for speed (this module is compiled with mypyc):

* frames keep their readable string kind (``("perform", owner, step, role)``), but the turn's
  own frames are dispatched by direct calls (``flow_step``, ``decision_legal``,
  ``decision_act``), not through the ``FLOW`` / ``DECIDE`` tables, which stay the complete
  list of frames and serve the card effects' rarer frames;
* every name the hot code reads is a compiled ``Final``: card ids and materials are literal
  ints (``data.py``), action objects and classes come from ``tables.py``;
* ``s.o`` (``RuleOptions``) holds the options read during play as fields of a compiled
  object; ``wmask`` (a bitmask of each seat's works) lets ``has`` answer "none" at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from parlor.core.actions import Action
from parlor.core.events import RawEvent
from parlor.core.game import Result, State
from parlor.core.options import OptionError
from parlor.core.rng import AnyRng

from . import cards as C
from . import tables as A  # the actions, laid out for compiled code (see tables.py)
from .data import (
    BANGLE,
    BELL,
    BRICK,
    CARD_IDS,
    CHOPSTICKS,
    CLAY,
    CLERK,
    CLOTH,
    CRANE,
    CUP,
    CURTAIN,
    DICE,
    DOLL,
    FAN,
    FIGURINE,
    FLAG,
    FLUTE,
    FOUNTAIN,
    GALLERY,
    GIFT_SHOP,
    GO_SET,
    GONG,
    HAND_DEALT,
    HAND_LIMIT,
    HANDKERCHIEF,
    KITE,
    MASK,
    MAT,
    MATERIALS,
    MONK,
    NAMES,
    NUM_TYPES,
    PAPER,
    PINWHEEL,
    PLANE,
    POTTER,
    PUPPET,
    RING,
    ROBE,
    SKETCH,
    SMITH,
    SOCKS,
    STONE,
    STRAW,
    SWORD,
    TAILOR,
    TOWER,
    TURTLE,
    VAL,
    WINGS,
    decks_for,
)

# add_each / add_each_of: legal actions straight from a card mask. Events are raw tuples
# ``(A.EV_..., (values...), seats)`` (tables.py: made into Events only when read; seats None:
# public, else the one seat that sees it); the most frequent ones come made (``A.drew(p, n)``).
from .tables import LOW_BIT, add_each, add_each_of, card_mask, card_mask_of
from .tables import distinct as _uniq  # sorted(set(cards)), without the set

CARD: Final = CARD_IDS
WING_INDEX: Final[dict[str, int]] = {w: i for i, w in enumerate(WINGS)}
MATERIAL_OF: Final[dict[str, int]] = {m: i for i, m in enumerate(MATERIALS)}
CARD_OF: Final[dict[str, int]] = {c: i for i, c in enumerate(CARD_IDS)}
# deck_info: who knows the card at that deck position
NOBODY: Final = -1
EVERYONE: Final = -2

# The turn's own frames, made once: a frame is never changed in place, only replaced, so a
# step can put a shared tuple where it would make a new one (``TURN_FRAME[step][idx]`` is
# ``("turn", step, idx)``, and so on; seats 0-5, the five roles).
TURN_FRAME: Final[tuple[tuple[tuple, ...], ...]] = tuple(
    tuple(("turn", step, idx) for idx in range(6)) for step in range(8)
)
PERFORM_FRAME: Final[tuple[tuple, ...]] = tuple(("perform", q, 0) for q in range(6))
PERFORM_STEP: Final[tuple[tuple[tuple[tuple, ...], ...], ...]] = tuple(
    tuple(tuple(("perform", q, step, role) for role in range(5)) for step in range(4)) for q in range(6)
)
ACTIONS_FRAME: Final[tuple[tuple[tuple, ...], ...]] = tuple(
    tuple(("actions", q, role) for role in range(5)) for q in range(6)
)
ACTION_FRAME: Final[tuple[tuple[tuple, ...], ...]] = tuple(
    tuple(("action", q, role, False) for role in range(5)) for q in range(6)
)
# Typed plain ``tuple`` (``tuple[int, ...]`` for ``to_move``): with a fixed-length tuple type,
# compiled code keeps a constant as a C struct and builds a new tuple from it at every use.
SEAT_TUPLE: Final[tuple[tuple[int, ...], ...]] = tuple((p,) for p in range(6))  # to_move
HAND_LIMIT_FRAME: Final[tuple] = ("hand_limit", False)
HAND_LIMIT_AGAIN: Final[tuple] = ("hand_limit", True)
MORNING_EFFECTS_FRAME: Final[tuple] = ("morning_effects",)
CLEAR_TASK_FRAME: Final[tuple] = ("clear_task",)
CHOOSE_TASK_FRAME: Final[tuple] = ("choose_task",)
NIGHT_EFFECTS_FRAME: Final[tuple] = ("night_effects",)
PRAYER_FRAME: Final[tuple] = ("prayer",)
TAILOR_RETURN_FRAME: Final[tuple] = ("tailor_return", 0)
BEFORE_TAILOR_FRAME: Final[tuple] = ("before_tailor", (), 0)

# Frame handlers: FLOW[kind](state, frame) advances; DECIDE[kind] = (legal, act).
FlowFn = Callable[["MottainaiState", tuple], None]
LegalFn = Callable[["MottainaiState", tuple], list[Action]]
ActFn = Callable[["MottainaiState", tuple, Action], None]
FLOW: Final[dict[str, FlowFn]] = {}
# The cards with an "In the morning" effect, as a mask like ``wmask``.
MORNING_MASK: Final = sum(1 << c for c in C.MORNING)
DECIDE: Final[dict[str, tuple[LegalFn, ActFn]]] = {}


class RuleOptions:
    """The options the rules read during play, copied out of ``Options`` into a compiled
    object: ``s.o.team_play`` reads a C struct field where ``s.options.team_play`` is a Python
    attribute lookup (a few per move). Made with the state; clones share it (options never
    change during a game). Options read only at setup or scoring stay on ``s.options``."""

    def __init__(self, options: Any = None) -> None:
        if options is None:  # unpickling makes an empty one first, then sets the fields
            from .options import Options

            options = Options()
        self.team_play: bool = options.team_play
        self.return_order: str = options.return_order
        self.deck_out_trigger: str = options.deck_out_trigger
        self.waiting_area_visible_to_owner: bool = options.waiting_area_visible_to_owner
        self.short_deck_effects: str = options.short_deck_effects
        self.reveal_gate_per: str = options.reveal_gate_per
        self.pin_action_convertible: bool = options.pin_action_convertible
        self.wing_end_trigger: str | None = options.wing_end_trigger
        self.extended_game: bool = options.extended_game
        self.turtle_precedence: bool = options.turtle_precedence
        self.revealed_cards_stay_public: bool = options.revealed_cards_stay_public
        self.morning_order: str | None = options.morning_order
        self.cover_mode: str = options.cover_mode
        self.fountain_counts_for_cover: bool = options.fountain_counts_for_cover
        self.doll_bonus_scope: str = options.doll_bonus_scope
        self.allow_pass_action: bool = options.allow_pass_action
        self.mask_forces_role_action: bool = options.mask_forces_role_action
        self.hand_limit_counts_waiting_area: bool = options.hand_limit_counts_waiting_area
        self.handkerchief_discard: str = options.handkerchief_discard
        self.chopsticks_on_start_card: bool = options.chopsticks_on_start_card
        self.tailor_always_legal: bool = options.tailor_always_legal
        self.flute_task_scope: str = options.flute_task_scope
        self.resolve_triggers_of_final_work: bool = options.resolve_triggers_of_final_work
        self.trigger_order: str = options.trigger_order
        self.self_trigger_on_completion: bool = options.self_trigger_on_completion
        self.count_works_after_placing: bool = options.count_works_after_placing


class MottainaiState(State):
    __slots__ = (
        "deck",
        "deck_info",
        "floor",
        "box",
        "hands",
        "known",
        "waiting",
        "tasks",
        "task_up",
        "doll_task",
        "helpers",
        "bench",
        "sales",
        "gallery",
        "gift",
        "kite",
        "active",
        "start_player",
        "extra_turns",
        "turns",
        "stack",
        "over",
        "end_reason",
        "turtle_winner",
        "t_left",
        "t_bonus",
        "t_fountain",
        "t_skip",
        "used_fx",
        "ret_batch",
        "pending",
        "ev",
        "o",
        "wmask",
        "zone_changes",
    )

    deck: list[int]  # top = last
    deck_info: list[int]  # parallel to deck: NOBODY, EVERYONE or the one seat that knows the card
    floor: tuple[int, ...]
    box: tuple[int, ...]  # out of play (scenarios only)
    hands: list[tuple[int, ...]]
    known: list[tuple[int, ...]]  # revealed cards still in that hand (public)
    waiting: list[tuple[int, ...]]
    tasks: list[int]  # -1: empty slot
    task_up: list[bool]  # False: a face-down starting card
    doll_task: list[bool]  # the task in that slot was taken with Doll
    helpers: list[tuple[int, ...]]
    bench: list[tuple[int, ...]]
    sales: list[tuple[int, ...]]
    gallery: list[tuple[int, ...]]
    gift: list[tuple[int, ...]]
    kite: list[tuple[int, ...]]  # the works each Kite copies this turn (Kites in wing order)
    active: int
    start_player: int
    extra_turns: int
    turns: int
    stack: list[tuple]
    over: bool
    end_reason: str
    turtle_winner: int
    t_left: int  # actions left in the task being performed
    t_bonus: int  # Flag / Figurine extra actions for it
    t_fountain: int  # Fountain's revealed Stone cards for it
    t_skip: bool  # the task is skipped (Curtain / Tower)
    used_fx: tuple[int, ...]  # morning / night effects used in this step
    ret_batch: int  # cards returned together so far (random return order)
    pending: list[Action] | None
    ev: list[RawEvent]
    o: RuleOptions  # the options read during play (``options``, laid out for compiled code)
    # Per seat, a bitmask of the card types among its works and Kite copies (bit c: type c may
    # be there; it may also be stale after a work left): ``has`` answers 0 from it at once.
    wmask: list[int]
    # Per seat, a count of the changes to its own zones (hand, revealed cards, waiting area,
    # task slot, helpers, craft bench, sales, works, Kite copies), raised by every rule that
    # replaces one of them (``add``, ``take``, ``changed``). It plays no part in the game: the
    # vector env's observation writer (``observation.write_changed``) reads it to leave alone
    # the player blocks of seats whose zones did not change since it last wrote that row.
    zone_changes: list[int]

    # ------------------------------------------------------------------ cloning
    def clone(self) -> "MottainaiState":
        c = MottainaiState.__new__(MottainaiState)
        self._copy_base_into(c)
        c.deck = self.deck[:]
        c.deck_info = self.deck_info[:]
        c.floor = self.floor
        c.box = self.box
        c.hands = self.hands[:]
        c.known = self.known[:]
        c.waiting = self.waiting[:]
        c.tasks = self.tasks[:]
        c.task_up = self.task_up[:]
        c.doll_task = self.doll_task[:]
        c.helpers = self.helpers[:]
        c.bench = self.bench[:]
        c.sales = self.sales[:]
        c.gallery = self.gallery[:]
        c.gift = self.gift[:]
        c.kite = self.kite[:]
        c.active = self.active
        c.start_player = self.start_player
        c.extra_turns = self.extra_turns
        c.turns = self.turns
        c.stack = self.stack[:]
        c.over = self.over
        c.end_reason = self.end_reason
        c.turtle_winner = self.turtle_winner
        c.t_left = self.t_left
        c.t_bonus = self.t_bonus
        c.t_fountain = self.t_fountain
        c.t_skip = self.t_skip
        c.used_fx = self.used_fx
        c.ret_batch = self.ret_batch
        c.pending = self.pending
        c.ev = []
        c.o = self.o
        c.wmask = self.wmask[:]
        c.zone_changes = self.zone_changes[:]
        return c

    # ------------------------------------------------------------------ small helpers
    def emit(self, event: A.Raw) -> None:  # a RawEvent (typed as one object: see tables.Raw)
        self.ev.append(event)

    def opponents(self, p: int) -> list[int]:
        """Every other player clockwise from ``p``'s left; in team play not the partner."""
        n = self.players
        out = [(p + i) % n for i in range(1, n)]
        if self.o.team_play:
            out.remove((p + 2) % n)
        return out

    def is_opponent(self, p: int, q: int) -> bool:
        return p != q and not (self.o.team_play and (p + 2) % self.players == q)

    def wings_of(self, p: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(Gallery, Gift Shop) as effective card types: a Kite that copies shows the copy."""
        if not self.kite[p]:
            return self.gallery[p], self.gift[p]
        copies = list(self.kite[p])
        out = []
        for wing in (self.gallery[p], self.gift[p]):
            eff = []
            for c in wing:
                if c == KITE and copies:
                    c = copies.pop(0)
                eff.append(c)
            out.append(tuple(eff))
        return out[0], out[1]

    def works_of(self, p: int) -> tuple[int, ...]:
        g, s = self.wings_of(p)
        return g + s

    def works_changed(self, p: int) -> None:
        """Rebuild ``wmask[p]``; called whenever ``p``'s works or Kite copies change."""
        mask = 0
        for zone in (self.gallery[p], self.gift[p], self.kite[p]):
            for c in zone:
                mask |= 1 << c
        self.wmask[p] = mask

    def has(self, p: int, card: int) -> int:
        """How many works ``card`` (an effect) ``p`` owns now."""
        if not (self.wmask[p] >> card) & 1:
            return 0  # the usual answer, from the bitmask
        if self.kite[p]:
            return self.works_of(p).count(card)
        # Plain loops, not tuple.count: compiled, they compare machine ints (asked ~6 times a move).
        n = 0
        for c in self.gallery[p]:
            if c == card:
                n += 1
        for c in self.gift[p]:
            if c == card:
                n += 1
        return n

    def capacity(self, p: int, material: int, wing: int) -> int:
        """Cover capacity of ``p``'s wing for ``material`` (Go Set: Stone works count in both)."""
        wings = self.wings_of(p)
        total = sum(VAL[c] for c in wings[wing] if MAT[c] == material)
        if material == STONE and self.has(p, GO_SET):
            total += sum(VAL[c] for c in wings[1 - wing] if MAT[c] == STONE)
        return total

    def covered(self, n: int, cap: int) -> int:
        """How many of ``n`` helpers (or sales) a capacity covers (§8, option ``cover_mode``)."""
        if self.o.cover_mode == "partial":
            return min(n, cap)
        return n if n <= cap else 0

    def wing_count(self, p: int, wing: int) -> int:
        n = len(self.gallery[p] if wing == GALLERY else self.gift[p])  # a Kite copy is one card too
        if self.has(p, GO_SET):
            wings = self.wings_of(p)
            n += sum(1 for c in wings[1 - wing] if MAT[c] == STONE)
        return n

    def changed(self, p: int) -> None:
        """Seat ``p``'s zones changed (``zone_changes``): every rule that replaces one calls it."""
        self.zone_changes[p] += 1

    def add(self, zone: list[tuple[int, ...]], p: int, card: int) -> None:
        zone[p] = zone[p] + (card,)
        self.zone_changes[p] += 1

    def take(self, zone: list[tuple[int, ...]], p: int, card: int) -> None:
        t = zone[p]
        n = len(t)
        i = 0
        while i < n and t[i] != card:  # t.index(card), as a compiled loop
            i += 1
        if i == n:
            raise ValueError(f"card {card} not in {t}")
        self.zone_changes[p] += 1
        if i == 0:
            zone[p] = t[1:]
        elif i == n - 1:
            zone[p] = t[:i]
        else:
            zone[p] = t[:i] + t[i + 1 :]

    def take_from_hand(self, p: int, card: int) -> None:
        """A card leaves the hand. A revealed copy is the one that goes: the table cannot tell it
        from an unrevealed twin, so what it sees must not depend on whether there is one."""
        self.take(self.hands, p, card)
        if card in self.known[p]:
            self.take(self.known, p, card)

    def reveal(self, p: int, card: int, nth: int = 1) -> None:
        """Show a hand card to everyone; it stays known while it stays in that hand.

        ``nth``: this decision's how-many-th copy of the card. A copy already known is the one
        shown again (the table cannot tell it from a twin), so only a copy beyond those becomes known."""
        known = self.known[p].count(card)
        if self.o.revealed_cards_stay_public and known < min(nth, self.hands[p].count(card)):
            self.add(self.known, p, card)
        self.emit((A.EV_REVEAL, (p, CARD[card]), None))

    def take_floor(self, card: int) -> None:
        f = self.floor
        i = f.index(card)
        self.floor = f[:i] + f[i + 1 :]

    def to_floor(self, card: int) -> None:
        self.floor = (*self.floor, card)

    def take_work(self, p: int, card: int, wing: int) -> None:
        self.take(self.gallery if wing == GALLERY else self.gift, p, card)
        if card == KITE and self.kite[p]:
            self.kite[p] = ()  # a Kite leaving its wings stops being a copy
            self.changed(p)
        self.works_changed(p)

    def put_work(self, p: int, card: int, wing: int) -> None:
        self.add(self.gallery if wing == GALLERY else self.gift, p, card)
        self.works_changed(p)

    def find_work(self, p: int, card: int) -> int:
        """The wing holding ``card`` (raw type), Gallery first; -1 if none."""
        if card in self.gallery[p]:
            return GALLERY
        if card in self.gift[p]:
            return GIFT_SHOP
        return -1

    def effect_work(self, p: int, card: int) -> tuple[int, int]:
        """(physical card, wing) of a work giving ``card``'s effect: the card, or a Kite copying it."""
        wing = self.find_work(p, card)
        if wing >= 0:
            return card, wing
        return KITE, self.find_work(p, KITE)

    # ------------------------------------------------------------------ the deck (§10)
    def take_top(self) -> int | None:
        """Take the deck's top card (the caller puts it somewhere, then calls ``after_take``)."""
        if not self.deck:
            if self.o.deck_out_trigger == "on_failed_draw":
                self.end_game("deck")
            return None
        self.deck_info.pop()
        return self.deck.pop()

    def after_take(self) -> None:
        if not self.deck and self.o.deck_out_trigger == "when_empty":
            self.end_game("deck")

    def draw(self, p: int) -> bool:
        """Top card face down into ``p``'s waiting area (nobody sees it, by default)."""
        card = self.take_top()
        if card is None:
            return False
        self.add(self.waiting, p, card)
        self.emit(A.drew(p, len(self.deck)))
        if self.o.waiting_area_visible_to_owner:
            self.emit((A.EV_DRAWN_CARD, (p, CARD[card]), p))
        self.after_take()
        return True

    def return_card(self, card: int, knower: int) -> None:
        """Put a card on the bottom of the deck; ``knower`` is who saw which card it was."""
        if self.o.return_order == "random" and self.ret_batch:
            i = self.rng.below(self.ret_batch + 1)
        else:
            i = 0
        self.deck.insert(i, card)
        self.deck_info.insert(i, knower)
        self.ret_batch += 1

    def return_from_hand(self, p: int, card: int) -> None:
        self.take_from_hand(p, card)
        self.return_card(card, p)
        self.emit(A.returned(p, len(self.hands[p])))
        self.emit(A.returned_card(p, card))

    def deck_usable(self, needed: int) -> bool:
        """Option ``short_deck_effects``: may an effect needing ``needed`` cards be used now?"""
        if self.o.short_deck_effects == "unusable":
            return len(self.deck) >= needed
        return len(self.deck) > 0

    # ------------------------------------------------------------------ game end (§12)
    def end_game(self, reason: str) -> None:
        if self.over:
            return
        self.over = True
        self.end_reason = reason
        self.stack.clear()
        self.to_move = ()
        self.emit((A.EV_GAME_OVER, (reason, self.active), None))

    def works_end_reason(self, completion: bool) -> str | None:
        """Turtle, or five (six) works in one wing (§12 items 2 and 4)."""
        threshold = 6 if self.o.extended_game else 5
        wing_hit = False
        # ``completion``: a player made a work arrive in a wing (completed, or moved / placed by
        # Plane or Shuriken): v0.84's "makes a fifth work in a wing" counts these too.
        n = self.players
        if completion or self.o.wing_end_trigger == "any_change":
            for p in range(n):
                if self.wing_count(p, GALLERY) >= threshold or self.wing_count(p, GIFT_SHOP) >= threshold:
                    wing_hit = True
                    break
        # The first Turtle owner clockwise from the active player with all five materials.
        for i in range(n):
            p = (self.active + i) % n
            if self.has(p, TURTLE) and len({MAT[c] for c in self.works_of(p)}) == 5:
                if self.o.turtle_precedence or not wing_hit:
                    self.turtle_winner = p
                    return "turtle"
                break
        return "wing" if wing_hit else None

    def check_works_end(self, completion: bool = False) -> bool:
        """End the game on a Turtle or a full wing; ``completion``: a work arrived in a wing."""
        reason = self.works_end_reason(completion)
        if reason:
            self.end_game(reason)
            return True
        return False

    # ------------------------------------------------------------------ completing works (§7)
    def support_needed(self, p: int, card: int, smith: bool) -> int:
        """v - 1 cards of the work's material (§7.1); Straw: one fewer for Cloth / Clay by Smith."""
        need = VAL[card] - 1
        if smith and MAT[card] in (CLOTH, CLAY) and self.has(p, STRAW):
            need -= 1
        return max(0, need)

    def brick_support(self, material: int) -> int:
        n = 0
        for q in range(self.players):
            c = self.tasks[q]
            if c >= 0 and MAT[c] == material and (self.task_up[q] or self.options.brick_counts_start_cards):
                n += 1
        return n

    def smith_cost(self, p: int, card: int) -> int | None:
        """Crane cards to spend to complete ``card`` with Smith, or None if impossible (§6.5)."""
        need = self.support_needed(p, card, True)
        if need == 0:
            return 0
        m = MAT[card]
        have = sum(1 for c in self.hands[p] if MAT[c] == m) - 1
        if self.has(p, BRICK):
            have += self.brick_support(m)
        if have >= need:
            return 0
        if self.has(p, CRANE):
            paper = sum(1 for c in self.bench[p] if MAT[c] == PAPER)
            if have + paper >= need:
                return need - have
        return None

    def craft_cost(self, p: int, card: int) -> int | None:
        """Crane cards to spend to Craft ``card`` (support counted in the craft bench, §6.6)."""
        need = self.support_needed(p, card, False)
        if need == 0:
            return 0
        m = MAT[card]
        have = sum(1 for c in self.bench[p] if MAT[c] == m)
        if have >= need:
            return 0
        if self.has(p, CRANE) and m != PAPER:
            paper = sum(1 for c in self.bench[p] if MAT[c] == PAPER)
            if have + paper >= need:
                return need - have
        return None

    def complete_work(self, p: int, card: int, wing: int, how: str) -> None:
        """Place a work, check the game end first, then queue the triggered effects (§7.2)."""
        self.put_work(p, card, wing)
        self.emit((A.EV_WORK_COMPLETED, (p, CARD[card], WINGS[wing], how), None))
        reason = self.works_end_reason(True)
        if reason is None and not self.deck and self.o.deck_out_trigger == "when_empty":
            reason = "deck"
        if reason:
            if not self.o.resolve_triggers_of_final_work or reason == "deck":
                self.end_game(reason)
                return
            self.stack.append(("end_now", reason))
        entries = C.completion_triggers(self, p, card, how)
        if entries:
            self.stack.append(("triggers", entries, card, wing))

    # ================================================================== a turn (§4)
    def start_turn(self, p: int) -> None:
        self.active = p
        self.turns += 1
        self.stack.append(TURN_FRAME[0][0])

    def run(self) -> None:
        """Advance through flow frames until the active player must decide (or the game ends)."""
        self.pending = None
        stack = self.stack
        while stack and not self.over:
            frame = stack[-1]
            if flow_step(self, frame):
                continue
            legal = decision_legal(self, frame)
            if legal is None:  # a card effect's flow frame
                FLOW[frame[0]](self, frame)
                continue
            if legal:
                self.pending = legal
                self.to_move = SEAT_TUPLE[self.active]
                return
            stack.pop()
        self.to_move = ()
        if not self.over:  # nothing left to do can only mean a broken scenario
            self.end_game("stalled")

    # ------------------------------------------------------------------ the protocol
    def _forced_move_is_public(self, seat: int) -> bool:
        """A single option is played without asking only if everyone can tell it is the only one.

        Where the options come from the active hand (Smith's completable works, a card to
        craft, to reveal for Curtain / Tower / Flag / Figurine / Fountain / Cloak, to choose as
        support, to return...), the seat is asked even with one option while it holds cards:
        skipping the question would tell the table that the hand lacked the others."""
        if not self.stack or not self.hands[self.active]:
            return True
        frame = self.stack[-1]
        kind = frame[0]
        if kind == "action":
            return not action_depends_on_hand(self, frame)
        if kind == "support":
            return frame[3] != "smith"
        return kind not in HAND_DECISIONS

    def _legal_actions(self, seat: int) -> list[Action]:
        if self.pending is None:
            if not self.stack or self.over:
                return []
            frame = self.stack[-1]
            self.pending = decision_legal(self, frame) or []
        return self.pending

    def _apply(self, seat: int, action: Action) -> list[RawEvent]:
        self.ev = events = []  # type: ignore[var-annotated]
        t = type(action)
        if t is not A.ReturnCard and t is not A.SendPaper and t is not A.Reveal:  # _RETURN_BATCH_ACTIONS
            self.ret_batch = 0
        decision_act(self, self.stack[-1], action)
        self.run()
        self.ev = []
        return events

    # ------------------------------------------------------------------ the end (§13)
    def result(self) -> Result:
        return C.final_result(self)

    def _view(self, seat: int | None, recall: bool) -> dict[str, Any]:
        from .views import view

        return view(self, seat, recall)

    def _determinize(self, seat: int, rng: AnyRng) -> "MottainaiState":
        from .views import determinize

        return determinize(self, seat, rng)

    def _state_json(self) -> dict[str, Any]:
        def frame_json(x: Any) -> Any:
            return [frame_json(v) for v in x] if isinstance(x, tuple) else x

        return {
            "deck": list(self.deck),
            "deck_info": list(self.deck_info),
            "floor": list(self.floor),
            "box": list(self.box),
            "hands": [list(h) for h in self.hands],
            "known": [list(h) for h in self.known],
            "waiting": [list(h) for h in self.waiting],
            "tasks": list(self.tasks),
            "task_up": list(self.task_up),
            "doll_task": list(self.doll_task),
            "helpers": [list(h) for h in self.helpers],
            "bench": [list(h) for h in self.bench],
            "sales": [list(h) for h in self.sales],
            "gallery": [list(h) for h in self.gallery],
            "gift_shop": [list(h) for h in self.gift],
            "kite": [list(h) for h in self.kite],
            "active": self.active,
            "start_player": self.start_player,
            "extra_turns": self.extra_turns,
            "turns": self.turns,
            "stack": [frame_json(f) for f in self.stack],
            "over": self.over,
            "end_reason": self.end_reason,
            "turtle_winner": self.turtle_winner,
            "t_left": self.t_left,
            "t_bonus": self.t_bonus,
            "t_fountain": self.t_fountain,
            "t_skip": self.t_skip,
            "used_fx": list(self.used_fx),
            "ret_batch": self.ret_batch,
        }


def empty_state(game: Any, players: int, seed: int, options: Any) -> MottainaiState:
    s = MottainaiState.__new__(MottainaiState)
    s._init_base(game, players, seed, options)
    s.o = RuleOptions(options)
    n = players
    s.deck, s.deck_info, s.floor, s.box = [], [], (), ()
    s.hands = [()] * n
    s.known = [()] * n
    s.waiting = [()] * n
    s.tasks = [-1] * n
    s.task_up = [False] * n
    s.doll_task = [False] * n
    s.helpers = [()] * n
    s.bench = [()] * n
    s.sales = [()] * n
    s.gallery = [()] * n
    s.gift = [()] * n
    s.kite = [()] * n
    s.wmask = [0] * n
    s.zone_changes = [0] * n
    s.active = s.start_player = 0
    s.extra_turns = s.turns = 0
    s.stack = []
    s.over = False
    s.end_reason = ""
    s.turtle_winner = -1
    s.t_left = s.t_bonus = s.t_fountain = 0
    s.t_skip = False
    s.used_fx = ()
    s.ret_batch = 0
    s.pending = None
    s.ev = []
    return s


# ====================================================================== setup (§3)
def name_key(card: int, order: str) -> str:
    name = NAMES[card].lower()
    return name.replace(" ", "") if order == "letter_by_letter" else name


def setup(s: MottainaiState) -> None:
    """Shuffle, deal hands, face-down starting cards and floor cards, find the start player."""
    o, n = s.options, s.players
    deck = [t for _ in range(decks_for(n)) for t in range(NUM_TYPES)]
    s.rng.shuffle(deck)
    s.deck = deck
    s.deck_info = [NOBODY] * len(deck)
    for p in range(n):
        for _ in range(HAND_DEALT):
            s.add(s.hands, p, s.deck.pop())
            s.deck_info.pop()
        s.emit((A.EV_DEALT, (p, [CARD[c] for c in s.hands[p]]), p))
    all_players = o.setup_facedown_tasks == "all_players"
    if all_players:
        deal_start_cards(s, range(n))
    for p in range(n):
        card = s.deck.pop()
        s.deck_info.pop()
        s.to_floor(card)
        s.emit((A.EV_FLOOR_CARD, (p, CARD[card]), None))
    chosen = s.options.start_player
    if chosen == "random":
        s.start_player = choose_start_player(s, s.floor)
    elif chosen < n:
        s.start_player = chosen
    else:
        raise OptionError(f"start_player is Seat {chosen + 1}, but there are only {n} seats")
    s.emit((A.EV_START_PLAYER, (s.start_player,), None))
    if not all_players:
        deal_start_cards(s, [p for p in range(n) if p != s.start_player])
    s.start_turn(s.start_player)


def deal_start_cards(s: MottainaiState, seats: Any) -> None:
    for p in seats:
        s.tasks[p] = s.deck.pop()
        s.deck_info.pop()
        s.task_up[p] = False
        s.changed(p)
        s.emit((A.EV_START_CARD_DEALT, (p,), None))


def choose_start_player(s: MottainaiState, floor: tuple[int, ...]) -> int:
    """The floor card whose name comes first alphabetically (§3.1 step 5; §17 items 4, 5)."""
    order = s.options.start_player_name_order
    keys = {p: name_key(floor[p], order) for p in range(s.players)}
    while True:
        best = min(keys.values())
        tied = [p for p in sorted(keys) if keys[p] == best]
        if len(tied) == 1 or s.options.start_player_tie == "seat_order":
            return tied[0]
        if len(s.deck) <= 1:  # cannot happen with real decks; never empty the deck in setup
            return tied[0]
        keys = {}
        for p in tied:
            card = s.deck.pop()
            s.deck_info.pop()
            s.to_floor(card)
            s.emit((A.EV_FLOOR_CARD_TIE, (p, CARD[card], True), None))
            keys[p] = name_key(card, order)


# ====================================================================== the turn flow
def turn(s: MottainaiState, frame: tuple) -> None:
    """One day: Morning (M1-M4), Noon (N1, N2), Night (E1, E2), then the next player."""
    step: int = frame[1]  # typed: compiled, the comparisons below are on machine ints
    if step < 4:
        morning(s, step)
    elif step == 4:
        noon(s, frame[2])
    elif step < 7:
        night(s, step)
    else:
        end_of_turn(s)


def morning(s: MottainaiState, step: int) -> None:
    """M1 hand limit; M2 morning effects and M3 clear the task slot (order: ``morning_order``);
    M4 choose a new task.

    A step that has nothing to ask (no Handkerchief and not over the limit, no morning effect
    to use) is passed over here rather than pushed and popped again: the frames a player can see
    waiting for a decision are the same."""
    stack = s.stack
    effects_first = s.o.morning_order == "effects_then_discard"
    while True:
        stack[-1] = TURN_FRAME[step + 1][0]
        if step == 0:
            s.emit((A.EV_TURN_START, (s.active, s.turns), None))
            if morning_hand_limit_legal(s, HAND_LIMIT_FRAME):
                stack.append(HAND_LIMIT_FRAME)
                return
        elif step == 1 or step == 2:
            if step == 1:
                s.used_fx = ()
            if (step == 1) == effects_first:
                if morning_effects_legal(s, MORNING_EFFECTS_FRAME):
                    stack.append(MORNING_EFFECTS_FRAME)
                    return
            else:
                depth = len(stack)
                clear_task_slot(s)
                if len(stack) != depth or s.over:  # Chopsticks asks
                    return
        else:
            stack.append(CHOOSE_TASK_FRAME)
            return
        step += 1


def night(s: MottainaiState, step: int) -> None:
    """E1 night effects (Pinwheel); E2 pick up the waiting area."""
    s.stack[-1] = TURN_FRAME[step + 1][0]
    if step == 5:
        s.used_fx = ()
        if night_effects_legal(s, NIGHT_EFFECTS_FRAME):
            s.stack.append(NIGHT_EFFECTS_FRAME)
            return
        s.stack[-1] = TURN_FRAME[7][0]  # nothing to use: pick up at once
    night_pickup(s, s.active)


def end_of_turn(s: MottainaiState) -> None:
    """Kite copies end; Frog's extra turns come first, then the next player clockwise."""
    p = s.active
    s.stack.pop()
    if s.kite[p]:
        s.kite[p] = ()
        s.works_changed(p)
        s.changed(p)
    s.used_fx = ()
    if s.extra_turns > 0:
        s.extra_turns -= 1
        s.emit((A.EV_EXTRA_TURN, (p,), None))
        s.start_turn(p)
    else:
        s.start_turn((p + 1) % s.players)


FLOW["turn"] = turn


def noon(s: MottainaiState, idx: int) -> None:
    """N1: every other player's face-up task clockwise from the left; N2: your own, or a Prayer."""
    p, n = s.active, s.players
    while idx < n - 1:
        idx += 1
        q = (p + idx) % n
        if s.tasks[q] >= 0 and s.task_up[q]:
            s.stack[-1] = TURN_FRAME[4][idx]
            s.stack.append(PERFORM_FRAME[q])
            return
    s.stack[-1] = TURN_FRAME[5][0]
    if s.tasks[p] >= 0 and s.task_up[p]:
        s.stack.append(PERFORM_FRAME[p])
    else:
        s.emit((A.EV_NO_TASK_PRAYER, (p,), None))
        s.stack.append(PRAYER_FRAME)


def night_pickup(s: MottainaiState, p: int) -> None:
    cards = s.waiting[p]
    s.hands[p] = s.hands[p] + cards
    s.waiting[p] = ()
    s.changed(p)
    s.emit(A.picked_up(p, len(cards)))
    if cards:
        s.emit((A.EV_PICKED_UP, (p, [CARD[c] for c in cards]), p))


# ------------------------------------------------------------------ Morning
def morning_hand_limit_legal(s: MottainaiState, frame: tuple) -> list[Action]:
    """M1: return down to five; Handkerchief may replace this step (at or under the limit too)."""
    p = s.active
    hand = s.hands[p]
    size = len(hand) + (len(s.waiting[p]) if s.o.hand_limit_counts_waiting_area else 0)
    over = size > HAND_LIMIT
    legal: list[Action] = []
    if s.has(p, HANDKERCHIEF) and not frame[1]:
        add_each(legal, A.DISCARD_TO_FLOOR, hand)
        if s.o.handkerchief_discard == "zero_or_one" and over:
            legal.append(A.USE_EFFECT[HANDKERCHIEF])
        if not over and legal:
            legal.append(A.DONE)
    if over and hand:
        add_each(legal, A.RETURN_CARD, hand)
    return legal


def morning_hand_limit_act(s: MottainaiState, frame: tuple, action: Action) -> None:
    p = s.active
    t = type(action)
    if t is A.ReturnCard:
        s.return_from_hand(p, CARD_OF[action.card])  # type: ignore[attr-defined]
        s.stack[-1] = HAND_LIMIT_AGAIN
        return
    s.stack.pop()
    if t is A.DiscardToFloor:
        card = CARD_OF[action.card]  # type: ignore[attr-defined]
        s.take_from_hand(p, card)
        s.to_floor(card)
        s.emit((A.EV_HANDKERCHIEF, (p, CARD[card]), None))
    elif t is A.UseEffect:
        s.emit((A.EV_HANDKERCHIEF, (p, None), None))


DECIDE["hand_limit"] = (morning_hand_limit_legal, morning_hand_limit_act)


def morning_effects_legal(s: MottainaiState, frame: tuple) -> list[Action]:
    """M2: each "In the morning" effect at most once, in any order."""
    p = s.active
    legal: list[Action] = []
    if not s.wmask[p] & MORNING_MASK:
        return legal  # the usual answer: no work with a morning effect
    for card in C.MORNING:
        if s.has(p, card) > s.used_fx.count(card) and C.MORNING[card][0](s, p):
            legal.append(A.USE_EFFECT[card])
    if legal:
        legal.append(A.DONE)
    return legal


def morning_effects_act(s: MottainaiState, frame: tuple, action: Action) -> None:
    if type(action) is A.Done:
        s.stack.pop()
        return
    card = CARD_OF[action.card]  # type: ignore[attr-defined]
    s.used_fx = (*s.used_fx, card)
    s.emit((A.EV_USE_EFFECT, (s.active, CARD[card]), None))
    C.MORNING[card][1](s, s.active)


DECIDE["morning_effects"] = (morning_effects_legal, morning_effects_act)


def clear_task(s: MottainaiState, frame: tuple) -> None:
    """M3 as a frame (the turn runs it directly: ``clear_task_slot``)."""
    s.stack.pop()
    clear_task_slot(s)


def clear_task_slot(s: MottainaiState) -> None:
    """M3: the card in the task slot goes face up to the floor (Chopsticks: to sales)."""
    p = s.active
    card = s.tasks[p]
    if card < 0:
        return
    if s.has(p, CHOPSTICKS) and (s.task_up[p] or s.o.chopsticks_on_start_card):
        s.stack.append(("chopsticks",))
        return
    discard_old_task(s, p, to_sales=False)


def discard_old_task(s: MottainaiState, p: int, to_sales: bool) -> None:
    card = s.tasks[p]
    s.tasks[p] = -1
    s.task_up[p] = False
    s.doll_task[p] = False
    s.changed(p)
    if to_sales:
        s.add(s.sales, p, card)
    else:
        s.to_floor(card)
    s.emit(A.old_task(p, card, "sales" if to_sales else "floor"))


FLOW["clear_task"] = clear_task


def choose_task_legal(s: MottainaiState, frame: tuple) -> list[Action]:
    """M4: a hand card as the new task, or none (Doll / Sketch may replace this step)."""
    p = s.active
    legal: list[Action] = []
    add_each(legal, A.CHOOSE_TASK, s.hands[p])
    legal.append(A.NO_TASK)
    if s.has(p, DOLL):
        legal.extend(A.TAKE_TASK[q] for q in s.opponents(p) if s.tasks[q] >= 0 and s.task_up[q])
    if s.has(p, SKETCH):
        add_each(legal, A.TASK_FROM_HELPER, s.helpers[p])
    return legal


def choose_task_act(s: MottainaiState, frame: tuple, action: Action) -> None:
    p = s.active
    s.stack.pop()
    t = type(action)
    if t is A.NoTask:
        s.emit((A.EV_NO_TASK, (p,), None))
        return
    if t is A.ChooseTask:
        card = CARD_OF[action.card]  # type: ignore[attr-defined]
        s.take_from_hand(p, card)
        how = "hand"
    elif t is A.TakeTask:
        q = action.player  # type: ignore[attr-defined]
        card = s.tasks[q]
        s.tasks[q] = -1
        s.task_up[q] = False
        s.doll_task[q] = False
        s.changed(q)
        how = f"doll:{q}"
    else:
        card = CARD_OF[action.card]  # type: ignore[attr-defined]
        s.take(s.helpers, p, card)
        how = "sketch"
    s.tasks[p] = card
    s.task_up[p] = True
    s.doll_task[p] = t is A.TakeTask
    s.changed(p)
    s.emit(A.task(p, card, how))


DECIDE["choose_task"] = (choose_task_legal, choose_task_act)


# ------------------------------------------------------------------ Noon: performing a task (§5)
def gate_applies(s: MottainaiState, owner: int, role: int) -> bool:
    """Curtain (Tailor, Smith) and Tower (Clerk, Monk, Potter) of an opponent whose task it is."""
    if not s.is_opponent(s.active, owner):
        return False
    if role in (TAILOR, SMITH):
        return s.has(owner, CURTAIN) > 0
    return s.has(owner, TOWER) > 0


def perform_task(s: MottainaiState, frame: tuple) -> None:
    """Gate, before-task effects, count the actions once, then resolve them one by one.

    Each step that asks nothing goes straight on to the next (the frame records the step
    to come back to only when something was pushed above it)."""
    owner: int = frame[1]
    step: int = frame[2]
    p = s.active
    stack = s.stack
    if step == 0:
        role: int = MAT[s.tasks[owner]]
        s.t_skip = False
        s.t_bonus = 0
        s.t_fountain = 0
        s.t_left = 0
        stack[-1] = PERFORM_STEP[owner][1][role]
        s.emit(A.performs(p, owner, role))
        if gate_applies(s, owner, role) and s.o.reveal_gate_per == "task":
            stack.append(("gate", owner, role, False))
            return
        step = 1
    else:
        role = frame[3]
    if step == 1:
        if s.t_skip:
            stack.pop()
            s.emit((A.EV_TASK_SKIPPED, (p, owner), None))
            return
        stack[-1] = PERFORM_STEP[owner][2][role]
        depth = len(stack)
        # Before-task effects, pushed so that Fountain is asked first, then Flag, then Figurine.
        if s.is_opponent(p, owner) and s.has(p, FIGURINE):
            stack.append(("reveal_bonus", FIGURINE, role, s.has(p, FIGURINE), ()))
        if owner == p and s.has(p, FLAG):
            stack.append(("reveal_bonus", FLAG, role, s.has(p, FLAG), ()))
        if role == CLERK and s.has(p, FOUNTAIN):
            stack.append(("reveal_bonus", FOUNTAIN, STONE, -1, ()))
        if len(stack) > depth:
            return
        step = 2
    if step == 2:
        s.t_left = count_actions(s, owner, role)
        s.emit(A.actions_counted(p, owner, role, s.t_left))
        stack[-1] = PERFORM_STEP[owner][3][role]
        stack.append(ACTIONS_FRAME[owner][role])
        return
    stack.pop()


FLOW["perform"] = perform_task


def count_actions(s: MottainaiState, owner: int, role: int) -> int:
    """1 + helpers (2 each if covered) + Fountain + Flag/Figurine + Doll (§5 step 4)."""
    p = s.active
    o = s.o
    total = 1 + s.t_bonus
    if not (s.is_opponent(p, owner) and s.has(owner, BANGLE)):
        n = 0  # helpers of the role
        for c in s.helpers[p]:
            if MAT[c] == role:
                n += 1
        fountain = s.t_fountain
        if o.fountain_counts_for_cover:
            n += fountain
            fountain = 0
        covered = 0  # no helpers: nothing to cover, whatever the capacity
        if n:
            always = role == MONK and s.has(p, BANGLE) > 0
            covered = n if always else s.covered(n, s.capacity(p, role, GALLERY))
        total += n + covered + fountain
    if s.doll_task[owner] and (o.doll_bonus_scope == "everyone" or owner == p):
        total += 1
    return total


def gate_legal(s: MottainaiState, frame: tuple) -> list[Action]:
    role = frame[2]
    hand = s.hands[s.active]
    legal: list[Action] = []
    add_each_of(legal, A.REVEAL, hand, role)
    legal.append(A.SKIP_TASK)
    return legal


def gate_act(s: MottainaiState, frame: tuple, action: Action) -> None:
    owner, per_action = frame[1], frame[3]
    s.stack.pop()
    if type(action) is A.Reveal:
        s.reveal(s.active, CARD_OF[action.card])
        return
    if per_action:
        s.stack.pop()  # this action is lost
        s.emit((A.EV_ACTION_SKIPPED, (s.active, owner), None))
    else:
        s.t_skip = True


DECIDE["gate"] = (gate_legal, gate_act)


def reveal_bonus_legal(s: MottainaiState, frame: tuple) -> list[Action]:
    """Fountain (any number of Stone cards), Flag, Figurine (one matching card each)."""
    material, remaining, revealed = frame[2], frame[3], frame[4]
    if remaining == 0:
        return []
    hand = s.hands[s.active]
    legal: list[Action] = [A.REVEAL[c] for c in _uniq(hand) if MAT[c] == material and hand.count(c) > revealed.count(c)]
    legal.append(A.DONE)  # always offered: whether a card fits depends on a hidden hand
    return legal


def reveal_bonus_act(s: MottainaiState, frame: tuple, action: Action) -> None:
    _, effect, material, remaining, revealed = frame
    if type(action) is A.Done:
        s.stack.pop()
        return
    card = CARD_OF[action.card]  # type: ignore[attr-defined]
    s.reveal(s.active, card, revealed.count(card) + 1)
    if effect == FOUNTAIN:
        s.t_fountain += 1
    else:
        s.t_bonus += 1
    s.emit((A.EV_USE_EFFECT, (s.active, CARD[effect]), None))
    s.stack[-1] = ("reveal_bonus", effect, material, remaining - 1, (*revealed, card))


DECIDE["reveal_bonus"] = (reveal_bonus_legal, reveal_bonus_act)


def resolve_actions(s: MottainaiState, frame: tuple) -> None:
    """Resolve the counted actions one at a time."""
    owner: int = frame[1]
    role: int = frame[2]
    if s.t_left <= 0:
        s.stack.pop()
        return
    s.t_left -= 1
    s.stack.append(ACTION_FRAME[owner][role])
    if s.o.reveal_gate_per == "action" and gate_applies(s, owner, role):
        s.stack.append(("gate", owner, role, True))


FLOW["actions"] = resolve_actions


# ------------------------------------------------------------------ the actions (§6)
def role_options(s: MottainaiState, role: int) -> list[Action]:
    """Every way to take the role action now (with the boosters of §6)."""
    p = s.active
    out: list[Action] = []
    if role == CLERK:
        bench = s.bench[p]
        add_each(out, A.SELL, bench)
        if s.has(p, BELL) and s.deck:
            out.append(A.SELL_TOP)
        if s.has(p, ROBE):
            for m in range(5):
                if sum(1 for c in bench if MAT[c] == m) >= 2:
                    out.append(A.SELL_ALL[m])
    elif role in (MONK, POTTER):
        add_each(out, A.HIRE if role == MONK else A.COLLECT, s.floor)
        if role == POTTER and s.has(p, SOCKS) and s.deck:
            out.append(A.COLLECT_TOP)
        if s.has(p, FLUTE):
            paper_only = s.o.flute_task_scope == "paper_only"
            for q in s.opponents(p):
                task = s.tasks[q]
                if task >= 0 and s.task_up[q] and (not paper_only or MAT[task] == PAPER):
                    out.append(A.TAKE_TASK[q])
            for q in s.opponents(p):
                for w, wing in enumerate((s.gallery[q], s.gift[q])):
                    out.extend(A.TAKE_WORK[q][c][w] for c in _uniq(wing) if MAT[c] == PAPER)
        if s.has(p, SWORD):
            mine = s.helpers if role == MONK else s.bench
            table = A.TAKE_HELPER if role == MONK else A.TAKE_MATERIAL
            for q in s.opponents(p):
                if len(mine[q]) > len(mine[p]):
                    out.extend(table[q][c] for c in _uniq(mine[q]))
    elif role == TAILOR:
        if tailor_possible(s, p):
            out.append(A.REFILL)
    else:
        hand = s.hands[p]
        counts = [0, 0, 0, 0, 0]  # hand cards per material
        for c in hand:
            m = MAT[c]
            counts[m] = counts[m] + 1  # not ``+=``: compiled, that is a generic operation on a list item
        mask = card_mask(hand)
        while mask:  # each distinct hand card, ascending (``_uniq(hand)`` without the list)
            low = mask & -mask
            mask ^= low
            c = LOW_BIT[low % 67]
            # Enough of its material in hand besides itself: free, whatever Straw / Brick / Crane add.
            if VAL[c] <= counts[MAT[c]] or s.smith_cost(p, c) is not None:
                out.extend(A.COMPLETE[c])
    return out


def tailor_possible(s: MottainaiState, p: int) -> bool:
    gap = HAND_LIMIT - len(s.hands[p]) - len(s.waiting[p])
    if s.o.short_deck_effects == "unusable" and gap > len(s.deck):
        return False
    return s.o.tailor_always_legal or bool(s.hands[p]) or gap > 0


def craft_options(s: MottainaiState, role: int) -> list[Action]:
    out: list[Action] = []
    add_craft_options(s, role, out)
    return out


def add_craft_options(s: MottainaiState, role: int, out: list[Action]) -> None:
    """``craft_options`` appended to ``out`` (the action's legal list: no list in between)."""
    p = s.active
    hand = s.hands[p]
    if not hand:
        return
    have = 0  # craft bench cards of the role's material
    for c in s.bench[p]:
        if MAT[c] == role:
            have += 1
    mask = card_mask_of(hand, role)
    while mask:  # each distinct hand card of the material, ascending (``distinct_of`` without the list)
        low = mask & -mask
        mask ^= low
        c = LOW_BIT[low % 67]
        # The bench covers the support: free; otherwise ``craft_cost`` settles it (Crane).
        if VAL[c] - 1 <= have or s.craft_cost(p, c) is not None:
            out.extend(A.CRAFT[c])


def action_legal(s: MottainaiState, frame: tuple) -> list[Action]:
    """One action of a task: the role action, Craft, or Prayer (Mask and Pin restrict this)."""
    owner: int = frame[1]
    role: int = frame[2]
    pin: bool = frame[3]
    p = s.active
    o = s.o
    legal = role_options(s, role)
    if pin and not o.pin_action_convertible:
        return legal
    masked = owner >= 0 and s.is_opponent(p, owner) and s.has(owner, MASK) > 0
    if not masked:
        add_craft_options(s, role, legal)
        legal.append(A.PRAY)
    if o.allow_pass_action or (masked and not (o.mask_forces_role_action and legal)):
        legal.append(A.PASS)
    return legal


def action_depends_on_hand(s: MottainaiState, frame: tuple) -> bool:
    """Could the hidden hand change this action's options (Smith's works, a work to Craft)?"""
    _, owner, role, pin = frame
    if role == SMITH:
        return True
    if pin and not s.o.pin_action_convertible:
        return False
    return not (owner >= 0 and s.is_opponent(s.active, owner) and s.has(owner, MASK) > 0)


# Actions that continue a batch of cards going under the deck (``return_order="random"``
# shuffles a batch); a batch of support starts afresh in ``start_support``.
_RETURN_BATCH_ACTIONS: Final = frozenset({A.ReturnCard, A.SendPaper, A.Reveal})

# Decisions whose options are cards of the active hand (``action`` and ``support`` are
# settled case by case in ``MottainaiState._forced_move_is_public``).
HAND_DECISIONS: Final = frozenset(
    {"gate", "reveal_bonus", "cloak", "hand_limit", "tailor_return", "choose_task", "kite", "pinwheel"}
)


def action_act(s: MottainaiState, frame: tuple, action: Action) -> None:
    role: int = frame[2]
    s.stack.pop()
    p = s.active
    t = type(action)
    if t is A.Pray:
        s.stack.append(PRAYER_FRAME)
    elif t is A.Pass:
        s.emit((A.EV_PASS, (p,), None))
    elif t is A.Craft or t is A.Complete:
        card = CARD_OF[action.card]  # type: ignore[attr-defined]
        wing = WING_INDEX[action.wing]  # type: ignore[attr-defined]
        start_support(s, p, card, wing, "smith" if t is A.Complete else "craft")
    elif role == CLERK:
        clerk(s, p, action)
    elif role == MONK:
        monk(s, p, action)
    elif role == TAILOR:
        tailor(s, p)
    elif role == POTTER:
        potter(s, p, action)


DECIDE["action"] = (action_legal, action_act)


# ------------------------------------------------------------------ support (§7.1)
def start_support(s: MottainaiState, p: int, card: int, wing: int, how: str) -> None:
    """The work's support is chosen one card at a time (the work stays in hand until then).

    Brick's task cards count first (public, and they cost nothing). Smith: the player reveals
    hand cards of the work's material or, with Crane, sends Paper cards from the craft bench.
    Craft: the craft bench is only counted, so the player is asked only when Crane could send
    Paper instead."""
    smith_action = how == "smith"
    need = s.support_needed(p, card, smith_action)
    if smith_action and need and s.has(p, BRICK):
        need = max(0, need - s.brick_support(MAT[card]))
    s.ret_batch = 0
    if card not in s.known[p]:  # everyone saw which card is becoming a work
        s.add(s.known, p, card)
    s.stack.append(("support", card, wing, how, need, ()))
    settle_support(s, p)


def settle_support(s: MottainaiState, p: int) -> None:
    """Complete the work once nothing is left to choose (support frame on top)."""
    frame = s.stack[-1]
    if support_legal(s, frame):
        return
    card: int = frame[1]
    wing: int = frame[2]
    how: str = frame[3]
    s.stack.pop()
    s.take_from_hand(p, card)
    if how == "smith":
        smith(s, p, card, wing)
    else:
        craft(s, p, card, wing)


def crane_paper(s: MottainaiState, p: int, card: int, how: str) -> list[int]:
    """Paper cards Crane may send for this work (none for a Paper Craft: it needs no support)."""
    if not s.has(p, CRANE) or (how == "craft" and MAT[card] == PAPER):
        return []
    return _uniq(tuple(c for c in s.bench[p] if MAT[c] == PAPER))


def support_legal(s: MottainaiState, frame: tuple) -> list[Action]:
    _, card, _wing, how, remaining, revealed = frame
    if remaining <= 0:
        return []
    p = s.active
    m = MAT[card]
    legal: list[Action] = []
    if how == "smith":
        hand = s.hands[p]
        legal.extend(
            A.REVEAL[c]
            for c in _uniq(hand)
            if MAT[c] == m and hand.count(c) - (c == card) > revealed.count(c)  # not the work itself
        )
    paper = crane_paper(s, p, card, how)
    legal.extend(A.SEND_PAPER[c] for c in paper)
    if how == "craft":
        if not paper:
            return []  # nothing to choose: the craft bench is counted
        if sum(1 for c in s.bench[p] if MAT[c] == m) >= remaining:
            legal.append(A.DONE)
    return legal


def support_act(s: MottainaiState, frame: tuple, action: Action) -> None:
    _, card, wing, how, remaining, revealed = frame
    p = s.active
    t = type(action)
    if t is A.Reveal:
        shown = CARD_OF[action.card]  # type: ignore[attr-defined]
        s.reveal(p, shown, revealed.count(shown) + 1 + (shown == card))  # the work is a copy too
        revealed = (*revealed, shown)
        remaining -= 1
    elif t is A.SendPaper:
        sent = CARD_OF[action.card]  # type: ignore[attr-defined]
        s.take(s.bench, p, sent)
        s.return_card(sent, EVERYONE)
        s.emit((A.EV_CRANE_RETURN, (p, CARD[sent]), None))
        remaining -= 1
    else:  # Done: the rest is counted in the craft bench
        remaining = 0
    s.stack[-1] = ("support", card, wing, how, remaining, revealed)
    settle_support(s, p)


DECIDE["support"] = (support_legal, support_act)


def clerk(s: MottainaiState, p: int, action: Action) -> None:
    """Sell: craft bench -> sales (Bell: deck top; Robe: all of one material). After: Ring."""
    before = len(s.sales[p])
    t = type(action)
    if t is A.Sell:
        card = CARD_OF[action.card]  # type: ignore[attr-defined]
        s.take(s.bench, p, card)
        s.add(s.sales, p, card)
        s.emit((A.EV_SELL, (p, CARD[card]), None))
    elif t is A.SellTop:
        top = s.take_top()
        if top is None:
            return
        card = top
        s.add(s.sales, p, card)
        s.emit((A.EV_SELL_FROM, (p, CARD[card], "deck"), None))
        s.after_take()
        if s.over:
            return
    else:
        m = MATERIAL_OF[action.material]  # type: ignore[attr-defined]
        for card in [c for c in s.bench[p] if MAT[c] == m]:
            s.take(s.bench, p, card)
            s.add(s.sales, p, card)
            s.emit((A.EV_SELL_FROM, (p, CARD[card], "robe"), None))
    if s.has(p, RING):
        base = before if s.options.steal_comparison_moment == "before_action" else -1
        s.stack.append(("ring", s.has(p, RING), base))


def monk(s: MottainaiState, p: int, action: Action) -> None:
    """Hire: floor -> helpers (Flute: an opponent's task or Paper work; Sword: their helper)."""
    card = take_source(s, p, action)
    s.add(s.helpers, p, card)
    s.emit(A.hired(p, card, action.TYPE))


def potter(s: MottainaiState, p: int, action: Action) -> None:
    """Collect: floor -> craft bench (Socks: deck top; Flute; Sword). After: Plane."""
    if type(action) is A.CollectTop:
        card = s.take_top()
        if card is None:
            return
        s.add(s.bench, p, card)
        s.emit((A.EV_COLLECT, (p, CARD[card], "deck"), None))
        s.after_take()
        if s.over:
            return
    else:
        card = take_source(s, p, action)
        s.add(s.bench, p, card)
        s.emit(A.collected(p, card, action.TYPE))
        if s.over:
            return
    if s.has(p, PLANE):
        s.stack.append(("plane", s.has(p, PLANE)))


def take_source(s: MottainaiState, p: int, action: Action) -> int:
    """Remove the card a Monk / Potter action names from where it is; returns it."""
    t = type(action)
    if t is A.Hire or t is A.Collect:
        card = CARD_OF[action.card]  # type: ignore[attr-defined]
        s.take_floor(card)
    elif t is A.TakeTask:
        q = action.player  # type: ignore[attr-defined]
        card = s.tasks[q]
        s.tasks[q] = -1
        s.task_up[q] = False
        s.doll_task[q] = False
        s.changed(q)
    elif t is A.TakeWork:
        q = action.player  # type: ignore[attr-defined]
        card = CARD_OF[action.card]  # type: ignore[attr-defined]
        s.take_work(q, card, WING_INDEX[action.wing])  # type: ignore[attr-defined]
        s.check_works_end()
    elif t is A.TakeHelper:
        card = CARD_OF[action.card]  # type: ignore[attr-defined]
        s.take(s.helpers, action.player, card)  # type: ignore[attr-defined]
    else:
        card = CARD_OF[action.card]  # type: ignore[attr-defined]
        s.take(s.bench, action.player, card)  # type: ignore[attr-defined]
    return card


def tailor(s: MottainaiState, p: int) -> None:
    """Refill: before-Tailor effects, return any cards, draw until hand + waiting area = 5."""
    s.emit((A.EV_REFILL, (p,), None))
    s.stack.append(TAILOR_RETURN_FRAME)  # ("tailor_return", 0)
    s.stack.append(BEFORE_TAILOR_FRAME)  # ("before_tailor", (), 0)


def before_tailor_legal(s: MottainaiState, frame: tuple) -> list[Action]:
    _, used, _dice = frame
    p = s.active
    legal: list[Action] = []
    if s.has(p, FAN) > used.count(FAN) and s.deck_usable(3):
        legal.append(A.USE_EFFECT[FAN])
    if s.has(p, DICE) > used.count(DICE) and s.deck_usable(1):
        legal.append(A.USE_EFFECT[DICE])
    if s.has(p, PUPPET):
        legal.extend(A.SWAP_HANDS[q] for q in s.opponents(p))
    if legal:
        legal.append(A.DONE)
    return legal


def before_tailor_act(s: MottainaiState, frame: tuple, action: Action) -> None:
    _, used, dice = frame
    p = s.active
    t = type(action)
    if t is A.Done:
        s.stack.pop()
        s.stack[-1] = ("tailor_return", dice)
        return
    if t is A.SwapHands:
        C.puppet(s, p, action.player)  # type: ignore[attr-defined]
        return
    card = CARD_OF[action.card]  # type: ignore[attr-defined]
    s.stack[-1] = ("before_tailor", (*used, card), dice)
    s.emit((A.EV_USE_EFFECT, (p, CARD[card]), None))
    if card == FAN:
        C.fan(s, p)
    elif C.dice(s, p):
        s.stack[-1] = ("before_tailor", (*used, card), dice + 1)


DECIDE["before_tailor"] = (before_tailor_legal, before_tailor_act)


def tailor_return_legal(s: MottainaiState, frame: tuple) -> list[Action]:
    legal: list[Action] = []
    add_each(legal, A.RETURN_CARD, s.hands[s.active])
    legal.append(A.DONE)
    return legal


def tailor_return_act(s: MottainaiState, frame: tuple, action: Action) -> None:
    p = s.active
    if type(action) is A.ReturnCard:
        s.return_from_hand(p, CARD_OF[action.card])  # type: ignore[attr-defined]
        return
    s.stack[-1] = ("tailor_draw",)
    if frame[1]:
        C.dice_after_return(s, p)


DECIDE["tailor_return"] = (tailor_return_legal, tailor_return_act)


def tailor_draw(s: MottainaiState, frame: tuple) -> None:
    s.stack.pop()
    p = s.active
    while len(s.hands[p]) + len(s.waiting[p]) < HAND_LIMIT and not s.over:
        if not s.draw(p):
            break


FLOW["tailor_draw"] = tailor_draw


def smith(s: MottainaiState, p: int, card: int, wing: int) -> None:
    """Complete any work from hand, support revealed from hand (§6.5). After: Deck of Cards."""
    s.complete_work(p, card, wing, "smith")


def craft(s: MottainaiState, p: int, card: int, wing: int) -> None:
    """Complete a work of the action's material, support counted in the craft bench (§6.6)."""
    s.complete_work(p, card, wing, "craft")


def prayer(s: MottainaiState, frame: tuple) -> None:
    """Draw one card. After: Gong, Cup (§6.7)."""
    s.stack.pop()
    p = s.active
    s.emit(A.prayed(p))
    if not s.draw(p) and s.over:
        return
    if s.over:
        return
    if s.has(p, GONG) or s.has(p, CUP):
        s.stack.append(("after_prayer", ()))


FLOW["prayer"] = prayer


def end_now(s: MottainaiState, frame: tuple) -> None:
    s.end_game(frame[1])


FLOW["end_now"] = end_now


# ------------------------------------------------------------------ triggered effects
def triggers_legal(s: MottainaiState, frame: tuple) -> list[Action]:
    """Effects triggered by a completion; the active player picks the order (§17 item 28)."""
    _, entries, card, wing = frame
    p = s.active
    usable = [t for t in sorted(set(entries)) if C.TRIGGERS[t][0](s, p, card, wing)]
    if not usable:
        return []
    if s.o.trigger_order == "card_order":
        return [A.USE_EFFECT[usable[0]], A.DECLINE]
    return [*(A.USE_EFFECT[t] for t in usable), A.DONE]


def triggers_act(s: MottainaiState, frame: tuple, action: Action) -> None:
    _, entries, card, wing = frame
    p = s.active
    if type(action) is A.Done:
        s.stack.pop()
        return
    if type(action) is A.Decline:
        first = next(t for t in sorted(set(entries)) if C.TRIGGERS[t][0](s, p, card, wing))
        rest = list(entries)
        rest.remove(first)
        s.stack[-1] = ("triggers", tuple(rest), card, wing)
        return
    t = CARD_OF[action.card]  # type: ignore[attr-defined]
    rest = list(entries)
    rest.remove(t)
    s.stack[-1] = ("triggers", tuple(rest), card, wing)
    s.emit((A.EV_USE_EFFECT, (p, CARD[t]), None))
    C.TRIGGERS[t][1](s, p, card, wing)


DECIDE["triggers"] = (triggers_legal, triggers_act)


# ------------------------------------------------------------------ Night
def night_effects_legal(s: MottainaiState, frame: tuple) -> list[Action]:
    p = s.active
    if s.has(p, PINWHEEL) > s.used_fx.count(PINWHEEL) and s.hands[p]:
        return [A.USE_EFFECT[PINWHEEL], A.DONE]
    return []


def night_effects_act(s: MottainaiState, frame: tuple, action: Action) -> None:
    if type(action) is A.Done:
        s.stack.pop()
        return
    s.used_fx = (*s.used_fx, PINWHEEL)
    s.emit((A.EV_USE_EFFECT, (s.active, CARD[PINWHEEL]), None))
    s.stack.append(("pinwheel",))


DECIDE["night_effects"] = (night_effects_legal, night_effects_act)

FLOW.update(C.FLOW)
DECIDE.update(C.DECIDE)
FRAME_KINDS = frozenset(FLOW) | frozenset(DECIDE)


# ------------------------------------------------------------------ dispatch
# ``FLOW`` and ``DECIDE`` name every frame's handlers. The frames of every turn are also
# called directly here, most frequent first: compiled, that is a C call, where a handler
# taken from a table is a Python call (about a dozen frames are run per decision). Card
# effects' frames, a few per game, go through the tables.
def flow_step(s: MottainaiState, frame: tuple) -> bool:
    """Advance one of the turn's flow frames; False for any other frame."""
    kind: str = frame[0]
    if kind == "turn":
        turn(s, frame)
    elif kind == "perform":
        perform_task(s, frame)
    elif kind == "actions":
        resolve_actions(s, frame)
    elif kind == "prayer":
        prayer(s, frame)
    elif kind == "clear_task":
        clear_task(s, frame)
    elif kind == "tailor_draw":
        tailor_draw(s, frame)
    else:
        return False  # a decision, or a card effect's flow frame
    return True


def decision_legal(s: MottainaiState, frame: tuple) -> list[Action] | None:
    """The legal actions of a decision frame (empty: nothing to decide); None for a flow frame."""
    kind: str = frame[0]
    if kind == "action":
        return action_legal(s, frame)
    if kind == "hand_limit":
        return morning_hand_limit_legal(s, frame)
    if kind == "morning_effects":
        return morning_effects_legal(s, frame)
    if kind == "choose_task":
        return choose_task_legal(s, frame)
    if kind == "night_effects":
        return night_effects_legal(s, frame)
    if kind == "support":
        return support_legal(s, frame)
    if kind == "gate":
        return gate_legal(s, frame)
    if kind == "reveal_bonus":
        return reveal_bonus_legal(s, frame)
    if kind == "triggers":
        return triggers_legal(s, frame)
    if kind == "tailor_return":
        return tailor_return_legal(s, frame)
    if kind == "before_tailor":
        return before_tailor_legal(s, frame)
    decide = DECIDE.get(kind)
    return None if decide is None else decide[0](s, frame)


def decision_act(s: MottainaiState, frame: tuple, action: Action) -> None:
    """Carry out the answer to a decision frame."""
    kind: str = frame[0]
    if kind == "action":
        action_act(s, frame, action)
    elif kind == "hand_limit":
        morning_hand_limit_act(s, frame, action)
    elif kind == "morning_effects":
        morning_effects_act(s, frame, action)
    elif kind == "choose_task":
        choose_task_act(s, frame, action)
    elif kind == "night_effects":
        night_effects_act(s, frame, action)
    elif kind == "support":
        support_act(s, frame, action)
    elif kind == "gate":
        gate_act(s, frame, action)
    elif kind == "reveal_bonus":
        reveal_bonus_act(s, frame, action)
    elif kind == "triggers":
        triggers_act(s, frame, action)
    elif kind == "tailor_return":
        tailor_return_act(s, frame, action)
    elif kind == "before_tailor":
        before_tailor_act(s, frame, action)
    else:
        DECIDE[kind][1](s, frame, action)


def _card_rules() -> dict[str, Callable[..., Any]]:
    """Every card id -> the function that carries out its effect (cards.py or the rule it changes)."""
    st = MottainaiState
    return {
        # Paper
        "crane": st.smith_cost, "curtain": gate_applies, "deck_of_cards": C.draw_one, "doll": choose_task_act,
        "fan": C.fan, "lampshade": C.backorder_materials, "pinwheel": C.pinwheel_act, "plane": C.plane_act,
        "poem": C.poem, "scroll": C.SCORING[C.SCROLL], "sketch": choose_task_act, "straw": st.support_needed,
        # Stone
        "amulet": C.amulet_act, "bench": C.bench_bonus, "daitoro": C.daitoro, "fountain": count_actions,
        "frog": C.frog, "go_set": st.capacity, "pillar": C.sales_points, "statue": C.statue, "stool": C.draw_one,
        "tablet": C.tablet_act, "tower": gate_applies,
        # Cloth
        "cloak": C.cloak, "flag": reveal_bonus_act, "handkerchief": morning_hand_limit_act, "kite": C.kite_copy_act,
        "mask": action_legal, "puppet": C.puppet, "quilt": C.sales_points, "robe": clerk, "socks": potter,
        "tapestry": C.tapestry_bonus, "umbrella": C.umbrella,
        # Clay
        "bangle": count_actions, "bowl": C.bowl, "brick": st.brick_support, "cup": C.after_prayer_act,
        "dice": C.dice, "figurine": reveal_bonus_act, "haniwa": C.SCORING[C.HANIWA], "jar": C.jar_act,
        "teapot": C.SCORING[C.TEAPOT], "vase": C.vase,
        # Metal
        "bell": clerk, "chopsticks": C.chopsticks_act, "coin": C.final_scores, "flute": take_source,
        "gong": C.after_prayer_act, "pin": C.pin, "ring": C.ring_act, "shuriken": C.shuriken_act,
        "sword": take_source, "turtle": st.works_end_reason,
    }  # fmt: skip


CARD_RULES = _card_rules()
