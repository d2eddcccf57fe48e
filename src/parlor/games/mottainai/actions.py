"""Mottainai actions, named after the rules' verbs, and the game's action space.

Cards are named by card id (``"poem"``), players by seat, wings by ``"gallery"`` /
``"gift_shop"``, so the space is finite. Every decision is one small action; a card effect
that asks several things asks them one at a time.

Morning: ``ReturnCard`` (hand limit), ``DiscardToFloor`` (Handkerchief), ``UseEffect`` /
``Done`` (morning effects), ``ChooseTask``, ``NoTask``, ``TakeTask`` (Doll), ``TaskFromHelper``
(Sketch). Noon: ``Reveal`` / ``SkipTask`` (Curtain, Tower, Fountain, Flag, Figurine), then per
action the role action — ``Sell`` / ``SellTop`` / ``SellAll`` (Clerk), ``Hire`` (Monk),
``Refill`` (Tailor, followed by ``ReturnCard``... ``Done``), ``Collect`` / ``CollectTop``
(Potter), ``Complete`` (Smith), the boosters ``TakeTask`` / ``TakeWork`` / ``TakeHelper`` /
``TakeMaterial`` — or ``Craft``, ``Pray``, ``Pass``. Effects: ``UseEffect``, ``Decline``,
``PickCard``, ``PickWing``, ``PickMaterial``, ``PickOption``, ``MoveWork``, ``TakeSale``,
``SwapHands``, ``KiteGive``, ``KiteCopy``, ``FreeComplete``.

Support for ``Complete`` (Smith) is chosen afterwards one card at a time: ``Reveal`` a hand card
of the work's material, or ``SendPaper`` (Crane) a Paper card from the craft bench; a ``Craft``
with Crane offers ``SendPaper`` / ``Done``. Cards returned together in the order the player
chooses (Tablet's floor, Fan's two other cards) are picked one by one with ``PickCard``.

Action ids (``ACTION_SPACE``) are stable: a new action type is appended at the end
(``SendPaper`` came last, ids ``num_actions - 54`` onwards).
"""

from __future__ import annotations

from dataclasses import dataclass

from parlor.core.actions import Action, ActionSpace

from .data import CARD_IDS, MATERIALS, WINGS

MAX_SEATS = 6


@dataclass(frozen=True, slots=True)
class ReturnCard(Action):
    """Put a hand card on the bottom of the deck (hand limit, Tailor, Pinwheel)."""

    TYPE = "return_card"
    card: str


@dataclass(frozen=True, slots=True)
class DiscardToFloor(Action):
    """Handkerchief: instead of the hand limit, put this hand card on the floor."""

    TYPE = "discard_to_floor"
    card: str


@dataclass(frozen=True, slots=True)
class UseEffect(Action):
    """Use the effect of one of your works (or pick which pending effect resolves next)."""

    TYPE = "use_effect"
    card: str


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Do not use the effect on offer."""

    TYPE = "decline"


@dataclass(frozen=True, slots=True)
class Done(Action):
    """Finish a step that may repeat (morning effects, returns, reveals, picks)."""

    TYPE = "done"


@dataclass(frozen=True, slots=True)
class ChooseTask(Action):
    TYPE = "choose_task"
    card: str


@dataclass(frozen=True, slots=True)
class NoTask(Action):
    """Take no task this morning: at noon you pray once instead."""

    TYPE = "no_task"


@dataclass(frozen=True, slots=True)
class TakeTask(Action):
    """Take an opponent's face-up task card (Doll: as your task; Flute: as a helper/material)."""

    TYPE = "take_task"
    player: int


@dataclass(frozen=True, slots=True)
class TaskFromHelper(Action):
    """Sketch: one of your helpers becomes your task."""

    TYPE = "task_from_helper"
    card: str


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    TYPE = "reveal"
    card: str


@dataclass(frozen=True, slots=True)
class SkipTask(Action):
    """Do not reveal for Curtain / Tower: skip that opponent's task."""

    TYPE = "skip_task"


@dataclass(frozen=True, slots=True)
class Sell(Action):
    """Clerk: craft bench card to sales."""

    TYPE = "sell"
    card: str


@dataclass(frozen=True, slots=True)
class SellTop(Action):
    """Clerk with Bell: the deck's top card to sales."""

    TYPE = "sell_top"


@dataclass(frozen=True, slots=True)
class SellAll(Action):
    """Clerk with Robe: every craft bench card of one material to sales."""

    TYPE = "sell_all"
    material: str


@dataclass(frozen=True, slots=True)
class Hire(Action):
    """Monk: floor card to helpers."""

    TYPE = "hire"
    card: str


@dataclass(frozen=True, slots=True)
class Refill(Action):
    """Tailor: return any cards (``ReturnCard``... ``Done``), then draw up to five."""

    TYPE = "refill"


@dataclass(frozen=True, slots=True)
class Collect(Action):
    """Potter: floor card to craft bench."""

    TYPE = "collect"
    card: str


@dataclass(frozen=True, slots=True)
class CollectTop(Action):
    """Potter with Socks: the deck's top card to craft bench."""

    TYPE = "collect_top"


@dataclass(frozen=True, slots=True)
class TakeWork(Action):
    """Take an opponent's work from their wing (Flute: a Paper work; Shuriken: any)."""

    TYPE = "take_work"
    player: int
    card: str
    wing: str


@dataclass(frozen=True, slots=True)
class TakeHelper(Action):
    """Monk with Sword."""

    TYPE = "take_helper"
    player: int
    card: str


@dataclass(frozen=True, slots=True)
class TakeMaterial(Action):
    """Potter with Sword."""

    TYPE = "take_material"
    player: int
    card: str


@dataclass(frozen=True, slots=True)
class TakeSale(Action):
    """Ring."""

    TYPE = "take_sale"
    player: int
    card: str


@dataclass(frozen=True, slots=True)
class Complete(Action):
    """Smith: complete a hand card, support revealed from hand."""

    TYPE = "complete"
    card: str
    wing: str


@dataclass(frozen=True, slots=True)
class Craft(Action):
    """Craft: complete a hand card of the action's material, support counted in the craft bench."""

    TYPE = "craft"
    card: str
    wing: str


@dataclass(frozen=True, slots=True)
class FreeComplete(Action):
    """Complete a hand card for free (Cloak)."""

    TYPE = "free_complete"
    card: str
    wing: str


@dataclass(frozen=True, slots=True)
class Pray(Action):
    TYPE = "pray"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Leave this action unused (``allow_pass_action``, or under an opponent's Mask)."""

    TYPE = "pass"


@dataclass(frozen=True, slots=True)
class PickCard(Action):
    """Pick a card for the effect being resolved (from the zone it names)."""

    TYPE = "pick_card"
    card: str


@dataclass(frozen=True, slots=True)
class PickWing(Action):
    TYPE = "pick_wing"
    wing: str


@dataclass(frozen=True, slots=True)
class PickMaterial(Action):
    TYPE = "pick_material"
    material: str


@dataclass(frozen=True, slots=True)
class PickOption(Action):
    """Tablet: ``"return_floor"`` or ``"restock_floor"``."""

    TYPE = "pick_option"
    option: str


@dataclass(frozen=True, slots=True)
class MoveWork(Action):
    """Plane: move one of your works from ``wing`` to the other wing."""

    TYPE = "move_work"
    card: str
    wing: str


@dataclass(frozen=True, slots=True)
class SwapHands(Action):
    """Puppet: return Puppet, swap hands with this opponent."""

    TYPE = "swap_hands"
    player: int


@dataclass(frozen=True, slots=True)
class KiteGive(Action):
    """Kite: put this hand card into that player's craft bench."""

    TYPE = "kite_give"
    card: str
    player: int


@dataclass(frozen=True, slots=True)
class KiteCopy(Action):
    """Kite: become a copy of this work of the player chosen."""

    TYPE = "kite_copy"
    card: str


@dataclass(frozen=True, slots=True)
class SendPaper(Action):
    """Crane: send this Paper card from your craft bench to the bottom of the deck as one support."""

    TYPE = "send_paper"
    card: str


TABLET_OPTIONS = ("return_floor", "restock_floor")
_C = CARD_IDS
_P = range(MAX_SEATS)

# Prebuilt, indexed by ints, so legal-move generation allocates nothing.
RETURN_CARD: list[ReturnCard] = [ReturnCard(c) for c in _C]
DISCARD_TO_FLOOR: list[DiscardToFloor] = [DiscardToFloor(c) for c in _C]
USE_EFFECT: list[UseEffect] = [UseEffect(c) for c in _C]
DECLINE: Decline = Decline()
DONE: Done = Done()
CHOOSE_TASK: list[ChooseTask] = [ChooseTask(c) for c in _C]
NO_TASK: NoTask = NoTask()
TAKE_TASK: list[TakeTask] = [TakeTask(p) for p in _P]
TASK_FROM_HELPER: list[TaskFromHelper] = [TaskFromHelper(c) for c in _C]
REVEAL: list[Reveal] = [Reveal(c) for c in _C]
SKIP_TASK: SkipTask = SkipTask()
SELL: list[Sell] = [Sell(c) for c in _C]
SELL_TOP: SellTop = SellTop()
SELL_ALL: list[SellAll] = [SellAll(m) for m in MATERIALS]
HIRE: list[Hire] = [Hire(c) for c in _C]
REFILL: Refill = Refill()
COLLECT: list[Collect] = [Collect(c) for c in _C]
COLLECT_TOP: CollectTop = CollectTop()
TAKE_WORK: list[list[list[TakeWork]]] = [
    [[TakeWork(p, c, w) for w in WINGS] for c in _C] for p in _P
]  # [p][card][wing]
TAKE_HELPER: list[list[TakeHelper]] = [[TakeHelper(p, c) for c in _C] for p in _P]
TAKE_MATERIAL: list[list[TakeMaterial]] = [[TakeMaterial(p, c) for c in _C] for p in _P]
TAKE_SALE: list[list[TakeSale]] = [[TakeSale(p, c) for c in _C] for p in _P]
COMPLETE: list[list[Complete]] = [[Complete(c, w) for w in WINGS] for c in _C]
CRAFT: list[list[Craft]] = [[Craft(c, w) for w in WINGS] for c in _C]
FREE_COMPLETE: list[list[FreeComplete]] = [[FreeComplete(c, w) for w in WINGS] for c in _C]
PRAY: Pray = Pray()
PASS: Pass = Pass()
PICK_CARD: list[PickCard] = [PickCard(c) for c in _C]
PICK_WING: list[PickWing] = [PickWing(w) for w in WINGS]
PICK_MATERIAL: list[PickMaterial] = [PickMaterial(m) for m in MATERIALS]
PICK_OPTION: list[PickOption] = [PickOption(o) for o in TABLET_OPTIONS]
MOVE_WORK: list[list[MoveWork]] = [[MoveWork(c, w) for w in WINGS] for c in _C]
SWAP_HANDS: list[SwapHands] = [SwapHands(p) for p in _P]
KITE_GIVE: list[list[KiteGive]] = [[KiteGive(c, p) for p in _P] for c in _C]
KITE_COPY: list[KiteCopy] = [KiteCopy(c) for c in _C]
SEND_PAPER: list[SendPaper] = [SendPaper(c) for c in _C]


def _flat(x: object) -> list[Action]:
    if isinstance(x, Action):
        return [x]
    return [a for item in x for a in _flat(item)]  # type: ignore[attr-defined]


ACTION_SPACE = ActionSpace(
    _flat(
        [
            RETURN_CARD, DISCARD_TO_FLOOR, USE_EFFECT, DECLINE, DONE, CHOOSE_TASK, NO_TASK, TAKE_TASK,
            TASK_FROM_HELPER, REVEAL, SKIP_TASK, SELL, SELL_TOP, SELL_ALL, HIRE, REFILL, COLLECT, COLLECT_TOP,
            TAKE_WORK, TAKE_HELPER, TAKE_MATERIAL, TAKE_SALE, COMPLETE, CRAFT, FREE_COMPLETE, PRAY, PASS,
            PICK_CARD, PICK_WING, PICK_MATERIAL, PICK_OPTION, MOVE_WORK, SWAP_HANDS, KITE_GIVE, KITE_COPY,
            # Added later: new actions go at the end, so every older action keeps its id.
            SEND_PAPER,
        ]
    )
)  # fmt: skip
