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

from .data import CARD_IDS, CARD_INDEX, EFFECT_TEXT, MAT, MATERIALS, NAMES, ROLES, VAL

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
    "Cards read Name material/value (in the table: Pa paper, St stone, Cl cloth, Cy clay, Me metal, "
    "e.g. Bowl Cy3). A card's material gives its role: Paper = Clerk, Stone = Monk, Cloth = Tailor, "
    "Clay = Potter, Metal = Smith. Gallery works cover helpers, Gift Shop works cover sales. "
    "Type c NAME to read any card (c bowl), r for the rules, t for the table."
)
SHORT = {"paper": "Pa", "stone": "St", "cloth": "Cl", "clay": "Cy", "metal": "Me"}
INTRO = (
    "Mottainai: waste nothing. Every card is a task, a helper, a material, a sale or a work. "
    "Most points at the end wins; r shows the rules, c NAME reads a card."
)
HELP = "Type the number of a move. c NAME reads a card (c poem), c lists every card, h help, r rules, t table, q quit."
RULES = """\
# Mottainai (summary)

**Goal**: the most points when the game ends. You score the values of your **works**, the bonuses
some works give, your **covered sales**, and **backorders**: at the end, for each material in
which you have more sales than every opponent, each hand card of that material scores its value.
Ties go to the current player, then clockwise. **Turtle** wins outright (see the end).

**Cards**: every card has a material and a value — Paper 1, Stone 2, Cloth 2, Clay 3, Metal 3 —
and the material gives a role: Paper **Clerk**, Stone **Monk**, Cloth **Tailor**, Clay
**Potter**, Metal **Smith**. Each card also has a work effect (type `c NAME` to read one).

**Zones**: the shared **deck** and the **floor** (face-up cards anyone may hire or collect).
Yours: the **hand** (hidden), the **task slot** (this turn's task), **helpers** (hired cards),
the **craft bench** (collected materials), **sales** (sold cards), and two **wings** of completed
works: the **Gallery** and the **Gift Shop**. Cards you draw go face down to your **waiting
area** and join your hand at night.

**Your turn**
* **Morning** — return hand cards above 5 to the bottom of the deck; use "in the morning" work
  effects; your old task goes to the floor; choose a hand card as your new task (its material is
  the role), or take no task.
* **Noon** — perform each opponent's task in turn (clockwise from your left), then your own (or
  pray once if you have none). A task gives 1 action plus 1 per helper of that role — 2 per
  helper when they are covered. Each action is the role's action, a **Craft** (complete a work
  of the task's material from your hand, its support from your craft bench) or a **Prayer**
  (draw a card).
* **Night** — "at night" effects, then your waiting area joins your hand.

**Roles**: Clerk sells a craft-bench card into your sales. Monk hires a floor card as a helper.
Tailor returns any hand cards, then refills hand + waiting area to 5. Potter collects a floor
card into your craft bench. Smith completes any work from your hand, support revealed from your
hand. A work of value v needs v-1 support cards of its material.

**Covering**: for each material, your Gallery works of it cover that many helpers of it (their
values added up), your Gift Shop works that many sales of it. All of a material are covered, or
none when there are more than the capacity. Only covered sales score.

**The end** comes at once when the deck runs out, when a player has 5 works in one wing (6 in
the Extended game), or when Cup is returned after a Prayer. **Turtle**: its owner wins outright
the moment they have works of all five materials.
"""


def command(entry: str, view: Mapping[str, Any]) -> RenderableType | None:
    """``c NAME`` reads a card (any card, by name or its start); ``c`` alone lists them all."""
    words = entry.strip().split(None, 1)
    if not words or words[0] not in ("c", "card"):
        return None
    if len(words) == 1:
        names = sorted(NAMES, key=str.lower)
        return Text("Cards: " + ", ".join(names) + ". Type c NAME to read one.")
    wanted = words[1].strip().lower().replace("_", " ")
    found = [i for i, n in enumerate(NAMES) if n.lower() == wanted]
    found = found or [i for i, n in enumerate(NAMES) if n.lower().startswith(wanted)]
    if not found:
        return Text(f"No card is called {words[1]!r}; type c to list them.")
    lines = [card_words(CARD_IDS[i]) for i in found]
    return Text.from_markup("\n".join(lines))


def card_words(card: str) -> str:
    """``Poem paper/1 — Clerk (sell) when a task. As a work: …``."""
    role = ROLE_VERB[role_of(card)]
    return f"{card_label(card)} — as a task: {role}. As a work: {card_effect(card)}"


# ---------------------------------------------------------------------------- names
def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


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
    return "[bold]You[/]" if seat == you else f"Seat {seat + 1}"


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
        whose = "your" if owner == view.get("you") else f"{player_name(owner)}'s"
        return f"Noon: {whose} {d.get('role', '').title()} task — action ({d.get('actions_left')} left)"
    if kind == "support":
        how = "to reveal from hand" if d.get("how") == "smith" else "from the craft bench"
        return f"Support for {card_name(d.get('work', ''))}: {plural(d.get('remaining', 0), 'more card')} {how}"
    return DECISION_WORDS.get(kind, kind.replace("_", " ").capitalize() or "Your decision")


# ---------------------------------------------------------------------------- events
class Narrator:
    """Events (already filtered for ``seat``) -> lines of text."""

    def __init__(self, seat: int | None, players: int | None = None, colours: Mapping[int, str] | None = None) -> None:
        self.seat = seat

    def who(self, seat: Any) -> str:
        return player_name(seat, self.seat) if isinstance(seat, int) else "Someone"

    def whose(self, seat: Any) -> str:
        return "your" if seat == self.seat else f"{self.who(seat)}'s"

    def zone(self, to: Any) -> str:
        return {"helpers": "helpers", "craft_bench": "craft bench", "sales": "sales", "hand": "hand"}.get(
            str(to), str(to).replace("_", " ")
        )

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
            "task": lambda: says("choose", f"the task {c}: {ROLE_VERB[d['role']]}"),
            "no_task": lambda: says("take", "no task today"),
            "old_task": lambda: f"{w}: old task {c} goes to the {d['to']}",
            "perform_task": lambda: says("perform", f"{whose} {d['role'].title()} task"),
            "actions_counted": lambda: f"  {plural(d['actions'], 'action')}",
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
            "floor_returned": lambda: f"  The floor cards go under the deck: {cards_words(d['cards'])}",
            "pickup": lambda: says("pick", f"up {plural(d['count'], 'card')} from the waiting area at night"),
            "picked_up": lambda: f"  (you picked up {cards_words(d['cards'])})",
            "use_effect": lambda: "  " + says("use", card_name(d["card"])),
            "flip_to_floor": lambda: f"  {c} is turned onto the floor",
            "game_over": lambda: f"The game is over: {END_WORDS.get(d['reason'], d['reason']).format(who='a player')}.",
            "action_skipped": lambda: "  " + says("let", "an action go unused"),
            "pass": lambda: "  " + says("let", "an action go unused"),
            "dealt": lambda: f"Your starting hand: {cards_words(d['hand'])}",
            "drawn_card": lambda: f"  (you drew {cards_words(d['cards'] if 'cards' in d else [d['card']])})",
            "hand_received": lambda: f"  (your new hand: {cards_words(d['cards'])})",
            "dice_reveal": lambda: "  " + says("reveal", f"the deck's top card with Dice: {c}"),
            "fan_reveal": lambda: "  " + says("reveal", f"the deck's top cards with Fan: {cards_words(d['cards'])}"),
            "fan_keep": lambda: "  " + says("keep", f"{c} from the Fan"),
            "floor_taken": lambda: "  " + says("take", f"{c} from the floor into {self.zone(d.get('to'))}"),
            "handkerchief": lambda: (
                "  "
                + (
                    says("put", f"{c} from hand on the floor (Handkerchief)")
                    if d.get("card")
                    else says("discard", "nothing")
                )
            ),
            "helper_to_sales": lambda: "  " + says("move", f"the helper {c} into sales"),
            "jar": lambda: (
                "  "
                + f"{self.who(d['giver'])} {'give' if d['giver'] == self.seat else 'gives'} "
                + f"{plural(d['count'], d['material'] + ' card')} to {self.who(d['seat']).replace('You', 'you')} (Jar)"
            ),
            "kite_copy": lambda: "  " + says("make", f"Kite a copy of {c}"),
            "kite_give": lambda: "  " + says("put", f"{c} into {self.whose(d['to'])} craft bench (Kite)"),
            "no_task_prayer": lambda: "  " + says("have", "no task to perform at noon"),
            "puppet": lambda: "  " + says("swap", f"hands with {self.who(d['target']).replace('You', 'you')} (Puppet)"),
            "start_card_dealt": lambda: f"{w} {'get' if mine else 'gets'} a face-down starting card",
            "take_sale": lambda: "  " + says("take", f"{c} from {self.whose(owner)} sales (Ring)"),
            "top_revealed": lambda: f"  The deck's top card is now revealed: {c}",
            "work_moved": lambda: "  " + says("move", f"the work {c} to the {WING_WORDS.get(d['to'], d['to'])}"),
            "work_placed": lambda: "  " + says("place", f"{c} in the {WING_WORDS.get(d['wing'], d['wing'])}"),
            "work_returned": lambda: (
                "  " + says("return", f"the work {c} to the bottom of the deck ({card_name(d['by'])})")
            ),
            "work_taken": lambda: "  " + says("take", f"the work {c} from {self.whose(owner)} wings"),
            "extra_turn": lambda: says("take", "an extra turn (Frog)"),
            "floor_card": lambda: says("turn", f"{c} onto the floor"),
            "start_player": lambda: says("start") + ".",
        }
        if k == "pickup" and not d.get("count"):
            return []  # nothing drawn this turn: nothing to say
        fn = table.get(k)
        if fn is not None:
            return [fn()]
        cards = [v for v in d.values() if isinstance(v, str) and v in CARD_INDEX]  # an event not worded yet
        return [f"  {w}: {k.replace('_', ' ')}" + (f" — {cards_words(cards)}" if cards else "")]


def describe_event(event: Any, seat: int | None) -> str:
    return "\n".join(Narrator(seat).lines(event))


# ---------------------------------------------------------------------------- the table
def _task_words(task: Any) -> str:
    if task is None:
        return "—"
    if task.get("face_down"):
        return "(face-down card)"
    return f"{short_label(task['card'])} {task['role']}"


def _partner_words(view: Mapping[str, Any], seat: int) -> str:
    """`` (your partner)`` / `` (partner of Seat 2)`` in team play, else nothing."""
    partners = view.get("partners")
    if not partners:
        return ""
    you = view.get("you")
    if you is not None and partners[seat] == you:
        return " [bold](your partner)[/]"
    if seat == you:
        return ""
    return f" [dim](partner of {player_name(partners[seat])})[/]"


def seat_intro(view: Mapping[str, Any]) -> str:
    """Said once at the start, after "You are Seat N": in team play, who plays with whom."""
    partners = view.get("partners")
    you = view.get("you")
    if not partners or you is None:
        return ""
    mate = partners[you]
    others = [s for s in range(len(partners)) if s not in (you, mate)]
    return (
        f"[bold]Team play[/]: your partner is {player_name(mate)}, sitting opposite you. Your totals add up "
        f"at the end, and {player_name(others[0])} and {player_name(others[1])} are the other team. "
        '"Opponent" on a card never means your partner.'
    )


def render_view(view: Mapping[str, Any]) -> RenderableType:
    """The table: deck and floor, then one short block per player (nothing cut at 80 columns),
    then your hand with every card's role and effect."""
    you = view.get("you")
    lines = [f"[bold]Deck[/] {view['deck_size']} cards · [bold]Floor[/]: {cards_words(view['floor'])}"]
    if view.get("deck_top"):
        lines.append(f"Top of the deck (revealed): {card_label(view['deck_top'])}")
    for p in view["players_info"]:
        marker = " ◀" if p["seat"] == view.get("active") else ""
        hand = f"{p['hand_size']} in hand"
        if p["revealed_in_hand"]:
            hand += f" (shown: {cards_words(p['revealed_in_hand'], short=True)})"
        if p["waiting_size"]:
            hand += f", {p['waiting_size']} waiting"
        team = _partner_words(view, p["seat"])
        lines.append(f"{player_name(p['seat'], you)}{team}{marker} · {hand} · task: {_task_words(p['task'])}")
        lines.append(
            f"   helpers: {cards_words(p['helpers'], short=True)} · craft bench: "
            f"{cards_words(p['craft_bench'], short=True)} · sales: {cards_words(p['sales'], short=True)}"
        )
        lines.append(
            f"   Gallery: {cards_words(p['works_as']['gallery'], short=True)} · "
            f"Gift Shop: {cards_words(p['works_as']['gift_shop'], short=True)}"
        )
    parts: list[RenderableType] = [Text.from_markup("\n".join(lines))]
    if you is not None and "hand" in view["players_info"][you]:
        parts.append(render_hand(view, effects=True))
    return Group(*parts)


def render_hand(view: Mapping[str, Any], *, effects: bool = False) -> RenderableType:
    """Your hand: each card's material, value and role as a task; with ``effects`` (the full
    table) also its effect as a work. The short form reminds of ``c NAME``."""
    you = view.get("you")
    if you is None:
        return Text("")
    me = view["players_info"][you]
    hand = me.get("hand", [])
    if not effects:
        cards = ", ".join(f"{card_label(c)} ({ROLE_VERB[role_of(c)].split()[0]})" for c in hand) or "empty"
        return Text.from_markup(f"[bold]Your hand[/] ({len(hand)}): {cards}  [dim](c NAME reads a card)[/]")
    lines = [f"[bold]Your hand[/] ({len(hand)}):"]
    for c in hand:
        lines.append(f"  {card_label(c)} — task: {ROLE_VERB[role_of(c)]}; work: {card_effect(c)}")
    if me.get("waiting"):
        lines.append(f"  [dim]waiting area (joins your hand at night): {cards_words(me['waiting'])}[/]")
    return Text.from_markup("\n".join(lines))


# Events of your own decisions that change little on the table: after them the terminal shows
# just your hand again, not the whole table (the other events redraw it).
OWN_TURN_EVENTS = {"return", "returned_card", "reveal", "use_effect", "crane_return", "fan_bottom"}


END_WORDS = {
    "deck": "the deck ran out",
    "wing": "a player filled a wing (5 works in the Gallery or the Gift Shop; 6 in the Extended game)",
    "cup": "Cup was returned after a Prayer",
    "turtle": "{who} owned Turtle with works of all five materials: an outright win, whatever the scores",
    "stalled": "no player could make progress any more (an engine safeguard)",
}


def end_words(view: Mapping[str, Any]) -> str:
    reason = view.get("end_reason") or ""
    who = player_name(view.get("turtle_winner"), view.get("you")) if view.get("turtle_winner") is not None else ""
    return END_WORDS.get(reason, reason or "the game ended").format(who=Text.from_markup(who).plain)


# What each column of the final table counts (the scoring of the rules summary, column by column).
RESULT_LEGEND = (
    "Works: the values of your completed works. Sales: your sales covered by your Gift Shop. "
    "Backorders: the values of your hand cards in each material you sold more of than every opponent. "
    "Bonus: what your works' own effects add."
)


def render_result(view: Mapping[str, Any]) -> RenderableType:
    result = view.get("result")
    if not result:
        return Text("The game is not over.")
    you = view.get("you")
    partners = view.get("partners")
    table = Table(title="Final result", box=box.SIMPLE)
    columns = ["Place", "Player", "Works", "Sales", "Backorders", "Bonus", "Total"]
    for col in columns + (["Team total"] if partners else []):
        table.add_column(col)
    rows = view.get("scores") or []
    for s in sorted(range(len(result["scores"])), key=lambda s: (result["places"][s], s)):
        r = rows[s] if s < len(rows) else {}
        cells = [
            str(result["places"][s]),
            player_name(s, you),
            str(r.get("works", "")),
            str(r.get("sales", "")),
            str(r.get("backorders", "")),
            str(r.get("bonus", "")),
        ]
        if partners:  # the result's scores are the teams': the partners' totals added
            cells += [str(r.get("total", "")), str(result["scores"][s])]
        else:
            cells.append(str(result["scores"][s]))
        table.add_row(*cells)
    winners = [player_name(w, you) for w in result["winners"]]
    verb = "win" if len(winners) > 1 or winners == ["[bold]You[/]"] else "wins"
    won = f"{' and '.join(winners)} {verb}"
    table.caption = RESULT_LEGEND
    table.caption_justify = "left"
    if partners:
        teams = [s for s in range(len(partners)) if s < partners[s]]
        pairs = "; ".join(f"{player_name(s, you)} and {player_name(partners[s], you)}" for s in teams)
        table.caption = f"{RESULT_LEGEND}\nTeams (partners add their totals): {pairs}."
    if view.get("end_reason") == "turtle":
        how = f"{won}: {end_words(view)}."
    else:
        most = "the most points" + (" as a team" if partners else "")
        how = f"{won} with {most}. The game ended because {end_words(view)}."
        tie = _tie_words(view)
        if tie:
            how += " " + tie
    return Group(table, Text.from_markup(how))


def _tie_words(view: Mapping[str, Any]) -> str:
    """Why equal totals stand in the order shown, or share a place: the tie-break, in words."""
    result = view["result"]
    scores, places = result["scores"], result["places"]
    you = view.get("you")
    partners = view.get("partners")
    # In team play both partners carry the team's total: a tie is between teams.
    groups: dict[int, list[int]] = {}
    for s in range(len(scores)):
        if not partners or s < partners[s]:
            groups.setdefault(scores[s], []).append(s)
    tied = [g for g in groups.values() if len(g) > 1]
    if not tied:
        return ""

    def name(s: int) -> str:
        plain = Text.from_markup(player_name(s, you)).plain
        return f"{plain} and {Text.from_markup(player_name(partners[s], you)).plain}" if partners else plain

    parts = []
    broken = False
    for group in tied:
        names = " and ".join(f"({name(s)})" if partners else name(s) for s in group)
        if len({places[s] for s in group}) == 1:
            parts.append(f"{names} share place {places[group[0]]} with {scores[group[0]]}.")
        else:
            broken = True
            order = ", then ".join(name(s) for s in sorted(group, key=lambda s: places[s]))
            parts.append(f"{names} are tied on {scores[group[0]]}, placed by the tie-break: {order}.")
    if broken:
        current = Text.from_markup(player_name(view.get("active"), you)).plain
        parts.append(
            f"Tie-break: the player whose turn it was when the game ended ({current}) wins a tie, then each "
            "player after them clockwise" + (" (a team counts its better-placed member)." if partners else ".")
        )
    return " ".join(parts)
