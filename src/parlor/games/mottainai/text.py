"""Mottainai in words: cards, actions, events and a seat's table, for the terminal.

Everything here works from what a seat may know: a view (``state.view(seat)``) and the
events already filtered for that seat. Nothing in this module reads a game state, so it
cannot show a hidden card. The terminal finds it by convention (``parlor.games.<pkg>.text``)
and uses the same names as every game's text module: ``describe_action``, ``Narrator``,
``describe_event``, ``render_view``, ``render_hand``, ``render_result``, ``decision_words``,
``player_name``, ``RULES``, ``HELP``, ``INTRO``, ``LEGEND``, ``SCORE_LABEL``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .data import CARD_INDEX, EFFECT_TEXT, MAT, MATERIALS, NAMES, ROLES, VAL

SCORE_LABEL = "points"
MATERIAL_STYLE = {"paper": "white", "stone": "grey62", "cloth": "magenta", "clay": "dark_orange3", "metal": "cyan"}
ROLE_VERB = {
    "clerk": "Clerk (sell)",
    "monk": "Monk (hire)",
    "tailor": "Tailor (refill)",
    "potter": "Potter (collect)",
    "smith": "Smith (complete)",
}
WING_WORDS = {"gallery": "Gallery", "gift_shop": "Gift Shop"}
LEGEND = (
    "Cards show Name material/value; in tables Name + material code + value (Pa paper, St stone, "
    "Cl cloth, Cy clay, Me metal: Bowl Cy3). Paper 1 = Clerk, Stone 2 = Monk, Cloth 2 = Tailor, "
    "Clay 3 = Potter, Metal 3 = Smith. Gallery works cover helpers, Gift Shop works cover sales."
)
SHORT = {"paper": "Pa", "stone": "St", "cloth": "Cl", "clay": "Cy", "metal": "Me"}
INTRO = "Mottainai: waste nothing. Every card is a task, a helper, a material, a sale or a work."
HELP = "Type the number of a move. h help, r rules, t table, q quit."
RULES = """\
# Mottainai (summary)

**Your turn** has three parts.

* **Morning** — return cards above 5 in hand to the deck bottom; use "in the morning" effects;
  your previous task goes to the floor; put a hand card in your task slot as your new task
  (its material gives the role), or take no task.
* **Noon** — perform every other player's face-up task, clockwise from your left, using your own
  helpers; then your own task (or one Prayer if you have none). A task gives 1 action, plus 1 per
  helper of its role — 2 per helper if your Gallery works of that material cover them all.
  Each action is the role action, a **Craft** (complete a work of that material from hand,
  support counted in your craft bench) or a **Prayer** (draw a card).
* **Night** — "at night" effects, then the cards drawn this turn (face down) join your hand.

**Roles**: Clerk sells a craft-bench card; Monk hires a floor card as helper; Tailor returns any
cards and refills hand + waiting area to 5; Potter collects a floor card into the craft bench;
Smith completes any work with support revealed from hand. A work of value v needs v-1 support
cards of its material: you choose the work, then the support cards to reveal, one at a time
(with Crane you may send Paper cards from your craft bench instead, each one support).
Whenever you hold cards you are asked, even with a single option, so that nobody learns what
your hand lacks from whether you were asked.

**End**: the deck runs out, or someone has 5 works in a wing. Score works, sales covered by Gift
Shop works, and backorders (hand cards of each material you lead in sales). Ties go to the
current player, then clockwise.
"""


# ---------------------------------------------------------------------------- names
def card_name(card: str) -> str:
    return NAMES[CARD_INDEX[card]] if card in CARD_INDEX else str(card)


def card_label(card: str, *, styled: bool = True) -> str:
    """``"poem"`` -> ``Poem paper/1`` (coloured by material)."""
    if card not in CARD_INDEX:
        return str(card)
    i = CARD_INDEX[card]
    material = MATERIALS[MAT[i]]
    text = f"{NAMES[i]} {material}/{VAL[i]}"
    return f"[{MATERIAL_STYLE[material]}]{text}[/]" if styled else text


def card_effect(card: str) -> str:
    return EFFECT_TEXT[CARD_INDEX[card]] if card in CARD_INDEX else ""


def short_label(card: str) -> str:
    """``"poem"`` -> ``Poem Pa1`` (material code and value), for the crowded table."""
    if card not in CARD_INDEX:
        return str(card)
    i = CARD_INDEX[card]
    material = MATERIALS[MAT[i]]
    return f"[{MATERIAL_STYLE[material]}]{NAMES[i]} {SHORT[material]}{VAL[i]}[/]"


def cards_words(cards: list[str], empty: str = "—", *, short: bool = False) -> str:
    label = short_label if short else card_label
    return ", ".join(label(c) for c in cards) if cards else empty


def player_name(seat: int | None, you: int | None = None, colour: str | None = None) -> str:
    if seat is None:
        return "Nobody"
    return "[bold]You[/]" if seat == you else f"Seat {seat}"


def role_of(card: str) -> str:
    return ROLES[MAT[CARD_INDEX[card]]]


# ---------------------------------------------------------------------------- actions
def describe_action(action: Any, view: Mapping[str, Any]) -> str:
    """One legal action in plain words."""
    d = action.to_json()
    t = d.pop("type")
    you = view.get("you")
    c = d.get("card")
    label = card_label(c) if c else ""
    wing = WING_WORDS.get(d.get("wing", ""), "")
    who = player_name(d.get("player"), you) if "player" in d else ""
    words = {
        "choose_task": lambda: f"Task: {label} — {ROLE_VERB[role_of(c)]}",
        "no_task": lambda: "Take no task (you will pray once at noon)",
        "return_card": lambda: f"Return {label} to the bottom of the deck",
        "discard_to_floor": lambda: f"Handkerchief: put {label} on the floor",
        "use_effect": lambda: f"Use {card_name(c)}: {card_effect(c)}",
        "decline": lambda: "Decline the effect",
        "done": lambda: "Done",
        "take_task": lambda: f"Take {who}'s task card",
        "task_from_helper": lambda: f"Sketch: your helper {label} becomes your task",
        "reveal": lambda: f"Reveal {label} from your hand",
        "skip_task": lambda: "Skip this task (reveal nothing)",
        "sell": lambda: f"Sell {label} (craft bench → sales)",
        "sell_top": lambda: "Bell: sell the deck's top card",
        "sell_all": lambda: f"Robe: sell every {d['material']} card of your craft bench",
        "hire": lambda: f"Hire {label} from the floor",
        "refill": lambda: "Tailor: return cards, then refill hand + waiting area to 5",
        "collect": lambda: f"Collect {label} from the floor into your craft bench",
        "collect_top": lambda: "Socks: collect the deck's top card",
        "take_work": lambda: f"Take {who}'s work {label} from their {wing}",
        "take_helper": lambda: f"Sword: hire {who}'s helper {label}",
        "take_material": lambda: f"Sword: collect {label} from {who}'s craft bench",
        "take_sale": lambda: f"Ring: take {who}'s sale {label}",
        "complete": lambda: f"Smith: complete {label} into your {wing}",
        "craft": lambda: f"Craft: complete {label} into your {wing} (support from the craft bench)",
        "free_complete": lambda: f"Complete {label} for free into your {wing}",
        "pray": lambda: "Pray (draw a card face down)",
        "pass": lambda: "Let this action go unused",
        "pick_card": lambda: f"Pick {label}",
        "pick_wing": lambda: f"Put it in your {wing}",
        "pick_material": lambda: f"Name {d['material']}",
        "pick_option": lambda: {
            "return_floor": "Return every floor card to the deck bottom",
            "restock_floor": "Turn cards onto the floor until it shows Stone and Metal",
        }[d["option"]],
        "move_work": lambda: f"Plane: move {label} from your {wing} to the other wing",
        "swap_hands": lambda: f"Puppet: swap hands with {who}",
        "kite_give": lambda: f"Kite: put {label} into {who}'s craft bench",
        "kite_copy": lambda: f"Kite: become a copy of {label}",
        "send_paper": lambda: f"Crane: send {label} from your craft bench to the deck bottom as support",
    }
    fn = words.get(t)
    return fn() if fn else str(action)


DECISION_WORDS = {
    "hand_limit": "Morning: hand limit",
    "morning_effects": "Morning: use your morning effects",
    "chopsticks": "Morning: your old task — Chopsticks?",
    "choose_task": "Morning: choose your new task",
    "gate": "This task is guarded: reveal a matching card or skip it",
    "reveal_bonus": "Before the task: reveal cards for extra actions",
    "action": "Noon: choose an action",
    "before_tailor": "Before the Tailor action",
    "tailor_return": "Tailor: return cards (then Done to refill)",
    "triggers": "Effects triggered by your new work",
    "after_prayer": "After your Prayer",
    "night_effects": "Night: your night effects",
    "fan_order": "Fan: pick the card that goes under the deck first (the other goes under it)",
    "floor_return": "Tablet: pick the next floor card to go under the deck",
}


def decision_words(view: Mapping[str, Any]) -> str:
    d = view.get("decision") or {}
    kind = d.get("kind", "")
    if kind == "action":
        if d.get("pin"):
            return "Pin: one Tailor action"
        owner = d.get("owner")
        whose = "your" if owner == view.get("you") else f"Seat {owner}'s"
        return f"Noon: {whose} {d.get('role', '').title()} task — action ({d.get('actions_left')} left)"
    if kind == "support":
        how = "to reveal from hand" if d.get("how") == "smith" else "from the craft bench"
        return f"Support for {card_name(d.get('work', ''))}: {d.get('remaining')} more card(s) {how}"
    return DECISION_WORDS.get(kind, kind.replace("_", " ").capitalize() or "Your decision")


# ---------------------------------------------------------------------------- events
class Narrator:
    """Events (already filtered for ``seat``) -> lines of text."""

    def __init__(self, seat: int | None, players: int | None = None, colours: Mapping[int, str] | None = None) -> None:
        self.seat = seat

    def who(self, seat: Any) -> str:
        return player_name(seat, self.seat) if isinstance(seat, int) else "Someone"

    def pause(self, event: Any) -> float:
        return 0.3 if event.kind in ("work_completed", "game_over", "task") else 0.0

    def lines(self, event: Any) -> list[str]:
        d = event.data
        k = event.kind
        seat = d.get("seat")
        w = self.who(seat)
        mine = seat == self.seat

        def says(verb: str, rest: str = "") -> str:
            """``You draw`` / ``Seat 2 draws``."""
            if not mine:
                verb = verb[:-1] + "ies" if verb.endswith("y") and verb[-2] not in "aeiou" else verb + "s"
                verb = {"haves": "has", "takes": "takes"}.get(verb, verb)
            return f"{w} {verb}{' ' + rest if rest else ''}"

        c = card_label(d["card"]) if isinstance(d.get("card"), str) else ""
        owner = d.get("owner")
        whose = "their own" if owner == seat and not mine else "your own" if owner == seat else ""
        whose = whose or (f"{self.who(owner)}'s" if owner != self.seat else "your")
        table = {
            "turn_start": lambda: f"— {says('begin', 'a turn')} —",
            "task": lambda: says("choose", f"the task {c} ({ROLE_VERB[d['role']]})"),
            "no_task": lambda: says("take", "no task today"),
            "old_task": lambda: f"{w}: old task {c} goes to the {d['to']}",
            "perform_task": lambda: says("perform", f"{whose} {d['role']} task"),
            "actions_counted": lambda: f"  {d['actions']} action(s)",
            "task_skipped": lambda: "  " + says("skip", "the task"),
            "sell": lambda: "  " + says("sell", c),
            "hire": lambda: "  " + says("hire", c),
            "collect": lambda: "  " + says("collect", c),
            "refill": lambda: "  " + says("refill", "(Tailor)"),
            "pray": lambda: "  " + says("pray"),
            "draw": lambda: "  " + says("draw", f"a card face down ({d['deck_size']} left in the deck)"),
            "work_completed": lambda: "  " + says("complete", f"{c} in the {WING_WORDS[d['wing']]}"),
            "reveal": lambda: "  " + says("reveal", c),
            "return": lambda: "  " + says("return", "a card to the deck bottom"),
            "returned_card": lambda: f"  (you returned {c})",
            "crane_return": lambda: "  " + says("send", f"{c} under the deck (Crane support)"),
            "fan_bottom": lambda: f"  {c} goes under the deck (Fan)",
            "floor_returned": lambda: f"  {cards_words(d['cards'])} go(es) under the deck (Tablet)",
            "pickup": lambda: says("pick", f"up {d['count']} card(s) at night"),
            "picked_up": lambda: f"  (you picked up {cards_words(d['cards'])})",
            "use_effect": lambda: "  " + says("use", card_name(d["card"])),
            "flip_to_floor": lambda: f"  {c} is turned onto the floor",
            "game_over": lambda: f"The game is over ({d['reason']}).",
            "extra_turn": lambda: says("take", "an extra turn (Frog)"),
            "floor_card": lambda: says("turn", f"{c} onto the floor"),
            "start_player": lambda: says("start") + ".",
        }
        fn = table.get(k)
        if fn is not None:
            return [fn()]
        parts = ", ".join(
            f"{key}={card_label(v) if isinstance(v, str) and v in CARD_INDEX else v}"
            for key, v in d.items()
            if key != "seat"
        )
        return [f"  {w}: {k.replace('_', ' ')}" + (f" ({parts})" if parts else "")]


def describe_event(event: Any, seat: int | None) -> str:
    return "\n".join(Narrator(seat).lines(event))


# ---------------------------------------------------------------------------- the table
def _task_words(task: Any) -> str:
    if task is None:
        return "—"
    if task.get("face_down"):
        return "(face-down card)"
    return f"{short_label(task['card'])} {task['role']}"


def render_view(view: Mapping[str, Any]) -> RenderableType:
    you = view.get("you")
    table = Table(box=box.SIMPLE, title=f"Deck {view['deck_size']} · Floor: {cards_words(view['floor'])}")
    for col in ("Player", "Hand", "Task", "Helpers", "Craft bench", "Sales", "Gallery", "Gift Shop"):
        table.add_column(col)
    for p in view["players_info"]:
        marker = " ◀" if p["seat"] == view.get("active") else ""
        hand = str(p["hand_size"])
        if p["revealed_in_hand"]:
            hand += f" (shown: {cards_words(p['revealed_in_hand'], short=True)})"
        if p["waiting_size"]:
            hand += f" +{p['waiting_size']} waiting"
        table.add_row(
            player_name(p["seat"], you) + marker,
            hand,
            _task_words(p["task"]),
            cards_words(p["helpers"], short=True),
            cards_words(p["craft_bench"], short=True),
            cards_words(p["sales"], short=True),
            cards_words(p["works_as"]["gallery"], short=True),
            cards_words(p["works_as"]["gift_shop"], short=True),
        )
    parts: list[RenderableType] = [table]
    if view.get("deck_top"):
        parts.append(Text.from_markup(f"Top of the deck (revealed): {card_label(view['deck_top'])}"))
    return Group(*parts)


def render_hand(view: Mapping[str, Any]) -> RenderableType:
    you = view.get("you")
    if you is None:
        return Text("")
    me = view["players_info"][you]
    lines = [f"[bold]Your hand[/] ({len(me.get('hand', []))}):"]
    for c in me.get("hand", []):
        lines.append(f"  {card_label(c)} — {ROLE_VERB[role_of(c)]}; as a work: {card_effect(c)}")
    return Text.from_markup("\n".join(lines))


def render_result(view: Mapping[str, Any]) -> RenderableType:
    result = view.get("result")
    if not result:
        return Text("The game is not over.")
    you = view.get("you")
    table = Table(title="Final result", box=box.SIMPLE)
    for col in ("Place", "Player", "Works", "Sales", "Backorders", "Bonus", "Total"):
        table.add_column(col)
    rows = view.get("scores") or []
    for s in sorted(range(len(result["scores"])), key=lambda s: result["places"][s]):
        r = rows[s] if s < len(rows) else {}
        table.add_row(
            str(result["places"][s]),
            player_name(s, you),
            str(r.get("works", "")),
            str(r.get("sales", "")),
            str(r.get("backorders", "")),
            str(r.get("bonus", "")),
            str(result["scores"][s]),
        )
    winners = ", ".join(player_name(w, you) for w in result["winners"])
    extra = " (Turtle)" if view.get("turtle_winner") is not None else ""
    return Group(table, Text.from_markup(f"Winner(s): {winners}{extra} · ended by: {view.get('end_reason')}"))
