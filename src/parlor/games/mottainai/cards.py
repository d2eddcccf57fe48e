"""Mottainai card effects (spec §11 and ``cards.json``): one small named function per card.

A work's effect lives here, registered by card id in the table matching its timing:

* ``MORNING[card] = (usable, use)`` — "In the morning" (Daitoro, Kite, Umbrella, Bowl, Pin);
* ``TRIGGERS[card] = (usable, use)`` — fired by a completion: the new work's own
  ``on_complete`` (Frog, Statue, Tablet, Jar, Vase, Shuriken), ``after_complete_work``
  (Poem, Amulet, Stool, Cloak) and Deck of Cards after a Smith action;
* before/after-action effects (Fan, Dice, Puppet before Tailor; Ring, Plane, Gong, Cup,
  Pinwheel after) are called from the action they belong to in ``rules.py``;
* boosters and restrictions (Crane, Straw, Robe, Socks, Brick, Bell, Flute, Sword, Curtain,
  Tower, Mask, Bangle, Go Set, Turtle, Handkerchief, Chopsticks, Doll, Sketch, Fountain,
  Flag, Figurine) are checked where the rule they change is, in ``rules.py``;
* ``SCORING[card]`` — end-game bonuses (Scroll, Bench, Tapestry, Haniwa, Teapot), and
  Pillar, Quilt, Lampshade, Coin inside ``final_scores``.

A decision inside an effect is a frame on the turn stack (``FLOW`` / ``DECIDE`` here).
``rules.CARD_RULES`` maps every one of the 54 card ids to the function carrying it out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from parlor.core.actions import Action
from parlor.core.game import Result

from . import tables as A  # the actions, laid out for compiled code (see tables.py)
from .data import (
    AMULET,
    BENCH,
    BOWL,
    CARD_IDS,
    CARD_INDEX,
    CHOPSTICKS,
    CLAY,
    CLOAK,
    CLOTH,
    COIN,
    CUP,
    DAITORO,
    DECK_OF_CARDS,
    FROG,
    GALLERY,
    GIFT_SHOP,
    GONG,
    HANIWA,
    JAR,
    KITE,
    LAMPSHADE,
    MAT,
    MATERIAL_INDEX,
    MATERIAL_VALUE,
    MATERIALS,
    METAL,
    MORNING_CARDS,
    PAPER,
    PILLAR,
    PIN,
    PINWHEEL,
    POEM,
    PUPPET,
    QUILT,
    SCROLL,
    SHURIKEN,
    STATUE,
    STONE,
    STOOL,
    TABLET,
    TAILOR,
    TAPESTRY,
    TEAPOT,
    UMBRELLA,
    VAL,
    VASE,
    WINGS,
)
from .tables import distinct as _uniq  # sorted(set(cards)), without the set
from .tables import private, public  # raw event tuples; Events are built only when read

if TYPE_CHECKING:  # annotations only (they stay strings in pure Python; mypyc reads them)
    from .rules import MottainaiState as S

CARD: Final = CARD_IDS
EVERYONE: Final = -2
WING_INDEX: Final[dict[str, int]] = {w: i for i, w in enumerate(WINGS)}
FLOW: Final[dict[str, Callable[..., None]]] = {}
DECIDE: Final[dict[str, tuple[Callable[..., list[Action]], Callable[..., None]]]] = {}


class _Decision:
    """A decision's legal-move function, with ``.act`` to register the handler of its answer
    (an object rather than an attribute set on the function: compiled functions take none)."""

    def __init__(self, kind: str, legal: Callable) -> None:
        self.kind = kind
        self.legal = legal

    def __call__(self, s: S, frame: tuple) -> list[Action]:
        return self.legal(s, frame)

    def act(self, act: Callable) -> Callable:
        DECIDE[self.kind] = (self.legal, act)
        return act


def _decide(kind: str) -> Callable[[Callable], _Decision]:
    def register(legal: Callable) -> _Decision:
        return _Decision(kind, legal)

    return register


def flip_to_floor(s: S) -> bool:
    """Turn the deck's top card face up onto the floor; False if the game ended / no card."""
    card = s.take_top()
    if card is None:
        return False
    s.to_floor(card)
    s.emit(public("flip_to_floor", card=CARD[card]))
    s.after_take()
    return not s.over


# ====================================================================== Morning effects
def daitoro(s: S, p: int) -> None:
    """Turn deck cards onto the floor until it holds three."""
    while len(s.floor) < 3 and flip_to_floor(s):
        pass


def bowl(s: S, p: int) -> None:
    """The deck's top card into your craft bench."""
    card = s.take_top()
    if card is None:
        return
    s.add(s.bench, p, card)
    s.emit(public("collect", seat=p, card=CARD[card], source="bowl"))
    s.after_take()


def umbrella(s: S, p: int) -> None:
    """The deck's top card to the floor; then maybe a helper of its material to your sales."""
    card = s.take_top()
    if card is None:
        return
    s.to_floor(card)
    s.emit(public("flip_to_floor", card=CARD[card]))
    s.after_take()
    if not s.over:
        s.stack.append(("umbrella", MAT[card]))


@_decide("umbrella")
def umbrella_legal(s: S, frame: tuple) -> list[Action]:
    m = frame[1]
    legal: list[Action] = [A.PICK_CARD[c] for c in _uniq(s.helpers[s.active]) if MAT[c] == m]
    if legal:
        legal.append(A.DECLINE)
    return legal


@umbrella_legal.act
def umbrella_act(s: S, frame: tuple, action: Any) -> None:
    s.stack.pop()
    if type(action) is A.PickCard:
        card = CARD_INDEX[action.card]
        s.take(s.helpers, s.active, card)
        s.add(s.sales, s.active, card)
        s.emit(public("helper_to_sales", seat=s.active, card=CARD[card]))


def pin(s: S, p: int) -> None:
    """One Tailor action (helpers do not add)."""
    s.stack.append(("action", -1, TAILOR, True))


def kite(s: S, p: int) -> None:
    """A hand card into any player's craft bench; then Kite copies one of that player's works."""
    s.stack.append(("kite",))


def kite_targets(s: S, p: int) -> list[int]:
    return [q for q in range(s.players) if any(c != KITE for c in s.works_of(q))]


@_decide("kite")
def kite_legal(s: S, frame: tuple) -> list[Action]:
    p = s.active
    targets = kite_targets(s, p)
    legal: list[Action] = [A.KITE_GIVE[c][q] for c in _uniq(s.hands[p]) for q in targets]
    if legal:
        legal.append(A.DECLINE)
    return legal


@kite_legal.act
def kite_act(s: S, frame: tuple, action: Any) -> None:
    s.stack.pop()
    if type(action) is A.Decline:
        return
    p, card, q = s.active, CARD_INDEX[action.card], action.player
    s.take_from_hand(p, card)
    s.add(s.bench, q, card)
    s.emit(public("kite_give", seat=p, card=CARD[card], to=q))
    s.stack.append(("kite_copy", q))


@_decide("kite_copy")
def kite_copy_legal(s: S, frame: tuple) -> list[Action]:
    return [A.KITE_COPY[c] for c in _uniq(s.works_of(frame[1])) if c != KITE]


@kite_copy_legal.act
def kite_copy_act(s: S, frame: tuple, action: Any) -> None:
    s.stack.pop()
    p, card = s.active, CARD_INDEX[action.card]
    if KITE not in s.works_of(p):  # the Kite left meanwhile (cannot happen in the morning)
        return
    s.kite[p] = (*s.kite[p], card)
    s.works_changed(p)
    s.changed(p)
    if card in MORNING_CARDS and not s.options.kite_copy_morning_effect:
        s.used_fx = (*s.used_fx, card)
    s.emit(public("kite_copy", seat=p, card=CARD[card]))
    s.check_works_end()


MORNING: Final[dict[int, tuple[Callable[[S, int], bool], Callable[[S, int], None]]]] = {
    DAITORO: (lambda s, p: len(s.floor) < 3 and s.deck_usable(3 - len(s.floor)), daitoro),
    KITE: (lambda s, p: bool(s.hands[p]) and bool(kite_targets(s, p)), kite),
    UMBRELLA: (lambda s, p: s.deck_usable(1), umbrella),
    BOWL: (lambda s, p: s.deck_usable(1), bowl),
    PIN: (lambda s, p: True, pin),
}


# ====================================================================== Morning "instead of"
@_decide("chopsticks")
def chopsticks_legal(s: S, frame: tuple) -> list[Action]:
    return [A.USE_EFFECT[CHOPSTICKS], A.DECLINE]


@chopsticks_legal.act
def chopsticks_act(s: S, frame: tuple, action: Any) -> None:
    """Chopsticks: the old task goes to your sales instead of the floor."""
    from .rules import discard_old_task

    s.stack.pop()
    discard_old_task(s, s.active, to_sales=type(action) is A.UseEffect)


# ====================================================================== before Tailor
def fan(s: S, p: int) -> None:
    """Reveal the top three; keep one on top, the others go to the bottom."""
    k = min(3, len(s.deck))
    for i in range(1, k + 1):
        s.deck_info[-i] = EVERYONE
    revealed = tuple(reversed(s.deck[-k:]))  # top first
    s.emit(public("fan_reveal", seat=p, cards=[CARD[c] for c in revealed]))
    s.stack.append(("fan", revealed))


@_decide("fan")
def fan_legal(s: S, frame: tuple) -> list[Action]:
    return [A.PICK_CARD[c] for c in _uniq(frame[1])]


@fan_legal.act
def fan_act(s: S, frame: tuple, action: Any) -> None:
    """Keep the chosen card on top; the others go to the bottom in the order the player picks."""
    s.stack.pop()
    keep = CARD_INDEX[action.card]
    others = list(frame[1])
    others.remove(keep)
    s.emit(public("fan_keep", seat=s.active, card=CARD[keep]))
    if len(set(others)) > 1 and s.o.return_order == "chooser":
        s.stack.append(("fan_order", tuple(others), keep))  # the cards stay on the deck meanwhile
        return
    fan_settle(s, len(frame[1]), keep, others)


def fan_settle(s: S, revealed: int, keep: int, bottom: list[int]) -> None:
    """Take Fan's cards off the top; ``bottom`` go under the deck in turn, ``keep`` back on top."""
    for _ in range(revealed):
        s.deck.pop()
        s.deck_info.pop()
    s.ret_batch = 0
    for c in bottom:
        s.return_card(c, EVERYONE)
        s.emit(public("fan_bottom", seat=s.active, card=CARD[c]))
    s.deck.append(keep)
    s.deck_info.append(EVERYONE)


@_decide("fan_order")
def fan_order_legal(s: S, frame: tuple) -> list[Action]:
    return [A.PICK_CARD[c] for c in _uniq(frame[1])]


@fan_order_legal.act
def fan_order_act(s: S, frame: tuple, action: Any) -> None:
    """The picked card goes to the bottom first; the other one under it."""
    s.stack.pop()
    _, others, keep = frame
    rest = list(others)
    first = CARD_INDEX[action.card]
    rest.remove(first)
    fan_settle(s, len(others) + 1, keep, [first, *rest])


def dice(s: S, p: int) -> bool:
    """Reveal the top card; if its value equals your hand size you may complete it for free.

    Returns True when the comparison waits until after the Tailor returns (option)."""
    s.deck_info[-1] = EVERYONE
    top = s.deck[-1]
    s.emit(public("dice_reveal", seat=p, card=CARD[top]))
    if s.options.dice_hand_size_moment == "after_return":
        return True
    if VAL[top] == dice_hand_size(s, p):
        s.stack.append(("dice",))
    return False


def dice_hand_size(s: S, p: int) -> int:
    """The hand Dice compares with; v0.84 counts the waiting area for card effects too."""
    return len(s.hands[p]) + (len(s.waiting[p]) if s.options.effects_count_waiting_area else 0)


def dice_after_return(s: S, p: int) -> None:
    if s.deck and s.deck_info[-1] == EVERYONE and VAL[s.deck[-1]] == dice_hand_size(s, p):
        s.stack.append(("dice",))


@_decide("dice")
def dice_legal(s: S, frame: tuple) -> list[Action]:
    return [*A.PICK_WING, A.DECLINE] if s.deck else []


@dice_legal.act
def dice_act(s: S, frame: tuple, action: Any) -> None:
    s.stack.pop()
    if type(action) is A.PickWing:
        complete_top_free(s, s.active, WING_INDEX[action.wing], "dice")


def complete_top_free(s: S, p: int, wing: int, how: str) -> None:
    card = s.take_top()
    if card is None:
        return
    s.complete_work(p, card, wing, how)


def puppet(s: S, p: int, q: int) -> None:
    """Return Puppet; ``q`` takes your hand, their hand goes face down to your waiting area."""
    work, wing = s.effect_work(p, PUPPET)
    s.take_work(p, work, wing)
    s.return_card(work, EVERYONE)
    mine, theirs = s.hands[p], s.hands[q]
    s.hands[q] = mine
    s.known[q] = s.known[p]
    s.hands[p] = ()
    s.known[p] = ()
    s.waiting[p] = s.waiting[p] + theirs
    s.changed(p)
    s.changed(q)
    s.emit(public("puppet", seat=p, target=q, gave=len(mine), received=len(theirs)))
    s.emit(private(q, "hand_received", seat=q, cards=[CARD[c] for c in mine]))
    if s.o.waiting_area_visible_to_owner:
        s.emit(private(p, "drawn_card", seat=p, cards=[CARD[c] for c in theirs]))
    s.check_works_end()


# ====================================================================== completion triggers
AFTER_COMPLETE: Final[dict[int, tuple[int, ...]]] = {
    POEM: (PAPER,),
    AMULET: (0, 1, 2, 3, 4),
    STOOL: (STONE, CLAY, METAL),
    CLOAK: (0, 1, 2, 3, 4),
}
ON_COMPLETE: Final = frozenset((FROG, STATUE, TABLET, JAR, VASE, SHURIKEN))


def completion_triggers(s: S, p: int, card: int, how: str) -> tuple[int, ...]:
    """Effects fired by completing ``card`` (§7.2): its own, "after you complete", Deck of Cards."""
    out: list[int] = []
    if card in ON_COMPLETE:
        out.append(card)
    works = list(s.works_of(p))
    if not s.o.self_trigger_on_completion and card in works:
        works.remove(card)
    m = MAT[card]
    for w in works:
        mats = AFTER_COMPLETE.get(w)
        if mats is not None and m in mats:
            out.append(w)
    if how == "smith" and m == PAPER:
        out.extend([DECK_OF_CARDS] * works.count(DECK_OF_CARDS))
    return tuple(out)


def work_present(s: S, p: int, card: int, wing: int) -> bool:
    return card in (s.gallery[p] if wing == GALLERY else s.gift[p])


def works_count(s: S, p: int) -> int:
    return len(s.gallery[p]) + len(s.gift[p])


def frog_ok(s: S, p: int, card: int, wing: int) -> bool:
    mine = works_count(s, p) - (0 if s.o.count_works_after_placing else 1)
    return all(works_count(s, q) >= mine for q in s.opponents(p))


def frog(s: S, p: int, card: int, wing: int) -> None:
    """Fewest works (or tied): take another turn after this one."""
    s.extra_turns += 1


def statue(s: S, p: int, card: int, wing: int) -> None:
    """Up to two floor cards into your craft bench."""
    s.stack.append(("take_floor", "bench", 2))


def vase(s: S, p: int, card: int, wing: int) -> None:
    """Up to two floor cards into your sales."""
    s.stack.append(("take_floor", "sales", 2))


@_decide("take_floor")
def take_floor_legal(s: S, frame: tuple) -> list[Action]:
    if frame[2] == 0 or not s.floor:
        return []
    legal: list[Action] = [A.PICK_CARD[c] for c in _uniq(s.floor)]
    if not s.options.move_two_exact:
        legal.append(A.DONE)
    return legal


@take_floor_legal.act
def take_floor_act(s: S, frame: tuple, action: Any) -> None:
    if type(action) is A.Done:
        s.stack.pop()
        return
    card = CARD_INDEX[action.card]
    s.take_floor(card)
    s.add(s.bench if frame[1] == "bench" else s.sales, s.active, card)
    s.emit(public("floor_taken", seat=s.active, card=CARD[card], to=frame[1]))
    s.stack[-1] = ("take_floor", frame[1], frame[2] - 1)


def tablet(s: S, p: int, card: int, wing: int) -> None:
    s.stack.append(("tablet",))


@_decide("tablet")
def tablet_legal(s: S, frame: tuple) -> list[Action]:
    return list(A.PICK_OPTION)


@tablet_legal.act
def tablet_act(s: S, frame: tuple, action: Any) -> None:
    """Return the whole floor, or restock it until it shows a Stone and a Metal card."""
    s.stack.pop()
    s.ret_batch = 0
    if action.option == "return_floor":
        if len(set(s.floor)) > 1 and s.o.return_order == "chooser":
            s.stack.append(("floor_return",))
            return
        return_floor(s, sorted(s.floor))
        return
    while not ({STONE, METAL} <= {MAT[c] for c in s.floor}) and flip_to_floor(s):
        pass


def return_floor(s: S, cards: list[int]) -> None:
    """Floor cards to the bottom of the deck, each under the one before."""
    for c in cards:
        s.take_floor(c)
        s.return_card(c, EVERYONE)
    s.emit(public("floor_returned", cards=[CARD[c] for c in cards]))


@_decide("floor_return")
def floor_return_legal(s: S, frame: tuple) -> list[Action]:
    return [A.PICK_CARD[c] for c in _uniq(s.floor)] if len(set(s.floor)) > 1 else []


@floor_return_legal.act
def floor_return_act(s: S, frame: tuple, action: Any) -> None:
    """Tablet: the picked floor card goes under the deck next; the last kind goes by itself."""
    return_floor(s, [CARD_INDEX[action.card]])
    if len(set(s.floor)) <= 1:
        s.stack.pop()
        return_floor(s, sorted(s.floor))


def jar(s: S, p: int, card: int, wing: int) -> None:
    s.stack.append(("jar",))


@_decide("jar")
def jar_legal(s: S, frame: tuple) -> list[Action]:
    return list(A.PICK_MATERIAL)


@jar_legal.act
def jar_act(s: S, frame: tuple, action: Any) -> None:
    """Every opponent hands you all their hand cards of the named material (face down)."""
    s.stack.pop()
    p, m = s.active, MATERIAL_INDEX[action.material]
    for q in s.opponents(p):
        given = [c for c in s.hands[q] if MAT[c] == m]
        for c in given:
            s.take_from_hand(q, c)
            s.add(s.waiting, p, c)
        s.emit(public("jar", seat=p, giver=q, material=MATERIALS[m], count=len(given)))


def shuriken_victims(s: S, p: int) -> list[int]:
    mine = works_count(s, p) - (0 if s.o.count_works_after_placing else 1)
    return [q for q in s.opponents(p) if works_count(s, q) > mine]


def shuriken(s: S, p: int, card: int, wing: int) -> None:
    s.stack.append(("shuriken",))


@_decide("shuriken")
def shuriken_legal(s: S, frame: tuple) -> list[Action]:
    legal: list[Action] = []
    for q in shuriken_victims(s, s.active):
        for w, wing in enumerate((s.gallery[q], s.gift[q])):
            legal.extend(A.TAKE_WORK[q][c][w] for c in _uniq(wing))
    if legal:
        legal.append(A.DECLINE)
    return legal


@shuriken_legal.act
def shuriken_act(s: S, frame: tuple, action: Any) -> None:
    """Take a work of an opponent with more works than you into a wing of yours."""
    s.stack.pop()
    if type(action) is A.Decline:
        return
    card = CARD_INDEX[action.card]
    s.emit(public("work_taken", seat=s.active, owner=action.player, card=CARD[card]))
    s.stack.append(("place_work", card, action.player, WING_INDEX[action.wing]))


@_decide("place_work")
def place_work_legal(s: S, frame: tuple) -> list[Action]:
    return list(A.PICK_WING)


@place_work_legal.act
def place_work_act(s: S, frame: tuple, action: Any) -> None:
    s.stack.pop()
    _, card, owner, from_wing = frame
    s.take_work(owner, card, from_wing)  # the work stays with its owner until it is placed
    s.put_work(s.active, card, WING_INDEX[action.wing])
    s.emit(public("work_placed", seat=s.active, card=CARD[frame[1]], wing=action.wing))
    s.check_works_end(completion=True)


def poem_ok(s: S, p: int, card: int, wing: int) -> bool:
    return work_present(s, p, card, wing)


def poem(s: S, p: int, card: int, wing: int) -> None:
    """Return the Paper work just completed; the deck's top card becomes a free work."""
    s.take_work(p, card, wing)
    s.return_card(card, EVERYONE)
    s.emit(public("work_returned", seat=p, card=CARD[card], by="poem"))
    if s.check_works_end():
        return
    s.deck_info[-1] = EVERYONE
    s.emit(public("top_revealed", card=CARD[s.deck[-1]]))
    s.stack.append(("poem_wing",))


@_decide("poem_wing")
def poem_wing_legal(s: S, frame: tuple) -> list[Action]:
    return list(A.PICK_WING) if s.deck else []


@poem_wing_legal.act
def poem_wing_act(s: S, frame: tuple, action: Any) -> None:
    s.stack.pop()
    complete_top_free(s, s.active, WING_INDEX[action.wing], "poem")


def amulet(s: S, p: int, card: int, wing: int) -> None:
    s.stack.append(("amulet",))


@_decide("amulet")
def amulet_legal(s: S, frame: tuple) -> list[Action]:
    return [A.PICK_CARD[c] for c in _uniq(s.bench[s.active])]


@amulet_legal.act
def amulet_act(s: S, frame: tuple, action: Any) -> None:
    """A craft bench card to your sales."""
    s.stack.pop()
    card = CARD_INDEX[action.card]
    s.take(s.bench, s.active, card)
    s.add(s.sales, s.active, card)
    s.emit(public("sell", seat=s.active, card=CARD[card], source="amulet"))


def draw_one(s: S, p: int, card: int, wing: int) -> None:
    """Stool / Deck of Cards: draw a card into your waiting area."""
    s.draw(p)


def cloak(s: S, p: int, card: int, wing: int) -> None:
    """Return the work just completed; then a Metal card from hand may become a free work."""
    s.take_work(p, card, wing)
    s.return_card(card, EVERYONE)
    s.emit(public("work_returned", seat=p, card=CARD[card], by="cloak"))
    if s.check_works_end():
        return
    s.stack.append(("cloak",))


@_decide("cloak")
def cloak_legal(s: S, frame: tuple) -> list[Action]:
    legal: list[Action] = [a for c in _uniq(s.hands[s.active]) if MAT[c] == METAL for a in A.FREE_COMPLETE[c]]
    legal.append(A.DECLINE)  # always offered: whether a Metal card is in hand is hidden
    return legal


@cloak_legal.act
def cloak_act(s: S, frame: tuple, action: Any) -> None:
    s.stack.pop()
    if type(action) is A.Decline:
        return
    card = CARD_INDEX[action.card]
    s.take_from_hand(s.active, card)
    s.complete_work(s.active, card, WING_INDEX[action.wing], "cloak")


def _always(s: S, p: int, card: int, wing: int) -> bool:
    return True


TRIGGERS: Final[dict[int, tuple[Callable[..., bool], Callable[..., None]]]] = {
    FROG: (frog_ok, frog),
    STATUE: (lambda s, p, c, w: bool(s.floor), statue),
    TABLET: (_always, tablet),
    JAR: (_always, jar),
    VASE: (lambda s, p, c, w: bool(s.floor), vase),
    SHURIKEN: (lambda s, p, c, w: bool(shuriken_victims(s, p)), shuriken),
    POEM: (lambda s, p, c, w: poem_ok(s, p, c, w) and s.has(p, POEM) > 0, poem),
    AMULET: (lambda s, p, c, w: bool(s.bench[p]) and s.has(p, AMULET) > 0, amulet),
    STOOL: (lambda s, p, c, w: s.has(p, STOOL) > 0 and s.deck_usable(1), draw_one),
    CLOAK: (lambda s, p, c, w: work_present(s, p, c, w) and s.has(p, CLOAK) > 0, cloak),
    DECK_OF_CARDS: (lambda s, p, c, w: s.has(p, DECK_OF_CARDS) > 0 and s.deck_usable(1), draw_one),
}


# ====================================================================== after-action effects
@_decide("ring")
def ring_legal(s: S, frame: tuple) -> list[Action]:
    _, remaining, base = frame
    p = s.active
    if remaining <= 0:
        return []
    mine = base if base >= 0 else len(s.sales[p])
    legal: list[Action] = [
        A.TAKE_SALE[q][c] for q in s.opponents(p) if len(s.sales[q]) > mine for c in _uniq(s.sales[q])
    ]
    if legal:
        legal.append(A.DECLINE)
    return legal


@ring_legal.act
def ring_act(s: S, frame: tuple, action: Any) -> None:
    """Ring: after a sale, take a sale of an opponent who has more sales than you."""
    if type(action) is A.Decline:
        s.stack.pop()
        return
    card = CARD_INDEX[action.card]
    s.take(s.sales, action.player, card)
    s.add(s.sales, s.active, card)
    s.emit(public("take_sale", seat=s.active, owner=action.player, card=CARD[card]))
    s.stack[-1] = ("ring", frame[1] - 1, frame[2])


@_decide("plane")
def plane_legal(s: S, frame: tuple) -> list[Action]:
    p = s.active
    if frame[1] <= 0:
        return []
    legal: list[Action] = [A.MOVE_WORK[c][GALLERY] for c in _uniq(s.gallery[p])]
    legal.extend(A.MOVE_WORK[c][GIFT_SHOP] for c in _uniq(s.gift[p]))
    if legal:
        legal.append(A.DECLINE)
    return legal


@plane_legal.act
def plane_act(s: S, frame: tuple, action: Any) -> None:
    """Plane: after a real collection, switch one of your works to the other wing."""
    if type(action) is A.Decline:
        s.stack.pop()
        return
    p, card, wing = s.active, CARD_INDEX[action.card], WING_INDEX[action.wing]
    copies = s.kite[p]
    s.take_work(p, card, wing)
    s.kite[p] = copies
    s.works_changed(p)
    s.changed(p)
    s.put_work(p, card, 1 - wing)
    s.emit(public("work_moved", seat=p, card=CARD[card], to=WINGS[1 - wing]))
    s.stack[-1] = ("plane", frame[1] - 1)
    s.check_works_end(completion=True)  # the work arrives in the other wing


@_decide("after_prayer")
def after_prayer_legal(s: S, frame: tuple) -> list[Action]:
    p, used = s.active, frame[1]
    legal: list[Action] = []
    if s.has(p, GONG) > used.count(GONG) and s.deck_usable(3):
        legal.append(A.USE_EFFECT[GONG])
    if s.has(p, CUP):
        legal.append(A.USE_EFFECT[CUP])
    if legal:
        legal.append(A.DONE)
    return legal


@after_prayer_legal.act
def after_prayer_act(s: S, frame: tuple, action: Any) -> None:
    """Gong: three more cards, Gong goes to your waiting area. Cup: return Cup, end the game."""
    p = s.active
    if type(action) is A.Done:
        s.stack.pop()
        return
    card = CARD_INDEX[action.card]
    s.emit(public("use_effect", seat=p, card=CARD[card]))
    if card == CUP:
        work, wing = s.effect_work(p, CUP)
        s.take_work(p, work, wing)
        s.return_card(work, EVERYONE)
        s.end_game("cup")
        return
    s.stack[-1] = ("after_prayer", (*frame[1], GONG))
    work, wing = s.effect_work(p, GONG)
    s.take_work(p, work, wing)
    s.add(s.waiting, p, work)
    if s.check_works_end():
        return
    for _ in range(3):
        if not s.draw(p) or s.over:
            return


# ====================================================================== Night
@_decide("pinwheel")
def pinwheel_legal(s: S, frame: tuple) -> list[Action]:
    return [A.PICK_CARD[c] for c in _uniq(s.hands[s.active])]


@pinwheel_legal.act
def pinwheel_act(s: S, frame: tuple, action: Any) -> None:
    """Pinwheel: return a hand card; then you may draw one."""
    s.stack.pop()
    s.return_from_hand(s.active, CARD_INDEX[action.card])
    s.stack.append(("pinwheel_draw",))


@_decide("pinwheel_draw")
def pinwheel_draw_legal(s: S, frame: tuple) -> list[Action]:
    return [A.USE_EFFECT[PINWHEEL], A.DECLINE] if s.deck_usable(1) else []


@pinwheel_draw_legal.act
def pinwheel_draw_act(s: S, frame: tuple, action: Any) -> None:
    s.stack.pop()
    if type(action) is A.UseEffect:
        s.draw(s.active)


# ====================================================================== scoring (§13)
def bench_bonus(s: S, p: int) -> int:
    return 2 * sum(1 for c in s.works_of(p) if MAT[c] == STONE)


def tapestry_bonus(s: S, p: int) -> int:
    wings = s.wings_of(p)
    total = 0
    for w in (GALLERY, GIFT_SHOP):
        total += wings[w].count(TAPESTRY) * s.wing_count(p, w)
    return total


def most_of(cards: tuple[int, ...]) -> int:
    return max((sum(1 for c in cards if MAT[c] == m) for m in range(5)), default=0)


SCORING: Final[dict[int, Callable[[S, int], int]]] = {
    SCROLL: lambda s, p: 3 * s.has(p, SCROLL),
    BENCH: lambda s, p: s.has(p, BENCH) * bench_bonus(s, p),
    TAPESTRY: tapestry_bonus,
    HANIWA: lambda s, p: s.has(p, HANIWA) * 3 * most_of(s.helpers[p]),
    TEAPOT: lambda s, p: s.has(p, TEAPOT) * 3 * most_of(s.bench[p]),
}


def sales_points(s: S, p: int) -> int:
    """Covered sales (§9); Pillar covers the most-sold material, Quilt Paper/Stone/Cloth."""
    if not s.sales[p]:
        return 0
    counts = [sum(1 for c in s.sales[p] if MAT[c] == m) for m in range(5)]
    base = []
    for m in range(5):
        n = counts[m]
        cov = n if (s.has(p, QUILT) and m in (PAPER, STONE, CLOTH)) else s.covered(n, s.capacity(p, m, GIFT_SHOP))
        base.append(cov * MATERIAL_VALUE[m])
    total = sum(base)
    if s.has(p, PILLAR) and any(counts):
        top = max(counts)
        total += max(counts[m] * MATERIAL_VALUE[m] - base[m] for m in range(5) if counts[m] == top)
    return total


def sales_by_material(s: S) -> list[list[int]]:
    """Every player's sales, counted per material."""
    return [[sum(1 for c in s.sales[q] if MAT[c] == m) for m in range(5)] for q in range(s.players)]


def backorder_materials(s: S, p: int, sales: list[list[int]] | None = None) -> list[int]:
    """Materials whose hand cards score for ``p`` (§9; Lampshade, Quilt, option ``sales_tie_cards``).

    ``sales``: ``sales_by_material(s)``, when the caller already has it."""
    out = []
    if sales is None:
        sales = sales_by_material(s)
    opps = s.opponents(p)
    exclusive = s.options.sales_tie_cards == "win_ties_exclusive"

    def tie_card(q: int, m: int) -> bool:
        return bool((m in (CLAY, METAL) and s.has(q, LAMPSHADE)) or (m in (PAPER, STONE, CLOTH) and s.has(q, QUILT)))

    for m in range(5):
        mine = sales[p][m]
        strict = all(mine > sales[q][m] for q in opps)
        tied = (
            not strict
            and all(mine >= sales[q][m] for q in opps)
            and tie_card(p, m)
            and (not exclusive or (mine >= 1 and not any(sales[q][m] == mine and tie_card(q, m) for q in opps)))
        )
        if strict or tied:
            out.append(m)
    return out


def final_scores(s: S) -> list[dict[str, int]]:
    out = []
    sales_table = sales_by_material(s)  # counted once: every player's backorders compare all sales
    for p in range(s.players):
        hand = s.hands[p] + (s.waiting[p] if s.options.waiting_area_scores else ())
        owned = s.works_of(p)
        works = sum(VAL[c] for c in owned)
        sales = sales_points(s, p)
        mats = backorder_materials(s, p, sales_table) if hand else ()
        back = sum(VAL[c] for c in hand if MAT[c] in mats)
        coins = s.has(p, COIN)
        if coins:
            if s.options.coin_mode == "double_backorders":
                back *= 1 + coins
            else:
                back += coins * sum(VAL[c] for c in hand)
        # Only cards the player owns score a bonus (each function is 0 without its card).
        bonus = sum(fn(s, p) for card, fn in SCORING.items() if card in owned)
        out.append({"works": works, "sales": sales, "backorders": back, "bonus": bonus,
                    "total": works + sales + back + bonus})  # fmt: skip
    return out


def final_result(s: S) -> Result:
    """Totals (partners added in team play), Turtle's win, and the tie-break (§13)."""
    n = s.players
    totals = [row["total"] for row in final_scores(s)]
    if s.o.team_play:
        totals = [totals[p] + totals[(p + 2) % n] for p in range(n)]
    current = s.active
    if s.options.tie_breaker == "shared":
        tb = [0] * n
    else:
        tb = [n - ((p - current) % n) for p in range(n)]
        if s.o.team_play:
            tb = [max(tb[p], tb[(p + 2) % n]) for p in range(n)]
    turtle = [0] * n
    if s.turtle_winner >= 0:
        turtle[s.turtle_winner] = 1
        if s.o.team_play:
            turtle[(s.turtle_winner + 2) % n] = 1
    keys = [(turtle[p], totals[p], tb[p]) for p in range(n)]
    places = tuple(1 + sum(1 for k in keys if k > mine) for mine in keys)
    winners = tuple(p for p in range(n) if places[p] == 1)
    return Result(tuple(totals), tuple(tb), places, winners)
