"""Mamma Mia! in words: names, actions, events and a seat's table, for the terminal.

Everything here works from what a seat may know: a view (``state.view(seat)``) and the
events already filtered for that seat (``parlor.core.for_seat``). Nothing in this module
reads a game state, so it cannot show a hidden card.

The terminal (``parlor.cli``) finds this module by convention (``parlor.games.<pkg>.text``)
and uses: ``describe_action``, ``Narrator`` (events -> lines, with the phase 2 counter),
``render_view``, ``render_hand``, ``render_result``, ``decision_words``, ``player_name``, ``RULES``,
``HELP``, ``INTRO``, ``LEGEND``, ``SCORE_LABEL``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .data import DECKS, KINDS, ORDER_INDEX, ORDERS, ROUNDS, TOPPING_NAMES

HAND_LIMIT = 7
SCORE_LABEL = "orders completed"

# Terminal colours; the data file's hex colours are for light backgrounds (olive is near black).
TOPPING_STYLE = {
    "salami": "bold red",
    "pineapple": "bold yellow",
    "mushroom": "bold dark_orange3",
    "pepper": "bold green",
    "olive": "bold medium_purple1",
}
DECK_STYLE = {
    "red": "red",
    "yellow": "yellow",
    "green": "green",
    "brown": "dark_orange3",
    "purple": "medium_purple1",
}

STEP_WORDS = {
    "toppings": "put toppings in the oven",
    "order": "put an order in the oven (optional)",
    "refill": "refill your hand",
    "joker": "choose the Monotoni topping",
    "rarest": "choose the Minimale topping",
    "top_up": "complete the order from your hand, or not",
    "over": "the game is over",
}


# ---------------------------------------------------------------------------- names
def topping(kind: str) -> str:
    """``"salami"`` -> ``"Salami"``."""
    return TOPPING_NAMES.get(kind, {}).get("en", kind.replace("_", " ").title())


def toppings(kind: str, n: int) -> str:
    """``("olive", 2)`` -> ``"2 olives"``; salami stays salami."""
    word = topping(kind).lower()
    if n != 1 and not word.endswith(("s", "i")):
        word += "s"
    return f"{n} {word}"


def styled_toppings(kind: str, n: int) -> str:
    return f"[{TOPPING_STYLE.get(kind, 'bold')}]{toppings(kind, n)}[/]"


def counts_words(counts: Mapping[str, int], *, styled: bool = True, empty: str = "nothing") -> str:
    """``{"salami": 2, "olive": 1}`` -> ``"2 salami, 1 olive"`` (topping order)."""
    fn = styled_toppings if styled else toppings
    parts = [fn(k, counts[k]) for k in KINDS if counts.get(k)]
    parts += [f"{n} {k}" for k, n in counts.items() if k not in KINDS and n]  # e.g. {"any": 2}
    return ", ".join(parts) if parts else empty


def _order(name: str):  # type: ignore[no-untyped-def]
    return ORDERS[ORDER_INDEX[name]]


def counted(n: object, noun: str) -> str:
    """``"1 card"``, ``"2 cards"``; a count the event lacks (``"?"``) takes the plural."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def order_label(name: str, *, short: bool = False) -> str:
    """The order's picture in words: ``"Pepper + 4 Salami"``, ``"Pizza Monotoni (...)"``."""
    if name not in ORDER_INDEX:
        return name
    o = _order(name)
    kind = o.kind_name
    own = topping(KINDS[o.own])
    if short:
        if kind != "normal":
            return kind.title()
        if name.endswith("_mixed"):
            return "Mixed"
        other = next(KINDS[k] for k, n in enumerate(o.need) if n == 4)
        return f"4 {topping(other)}"
    if kind == "bombastica":
        return "Bombastica (15+ toppings)"
    if kind == "monotoni":
        return f"Monotoni ({own} + 6 of a kind)"
    if kind == "minimale":
        return f"Minimale ({own} + 3 of the rarest)"
    if name.endswith("_mixed"):
        return "Mixed (one of each topping)"
    return o.label


def order_needs(name: str) -> str:
    """What an order asks for, in words."""
    o = _order(name)
    own = KINDS[o.own]
    if o.kind_name == "bombastica":
        return f"at least {o.min_total} toppings of any kinds on the counter, takes them all"
    if o.kind_name == "monotoni":
        return f"1 {topping(own).lower()} + {o.joker_count} of one other kind, chosen by the owner"
    if o.kind_name == "minimale":
        return f"1 {topping(own).lower()} + exactly {o.rarest_count} of the rarest other kind on the counter"
    if name.endswith("_mixed"):
        return "one of each of the five toppings"
    parts = [toppings(own, o.need[o.own])] + [toppings(KINDS[k], n) for k, n in enumerate(o.need) if n and k != o.own]
    return " + ".join(parts)


def deck_colour(name: str) -> str:
    return DECKS[_order(name).deck].colour


def owner_word(name: str, you_colour: str | None) -> str:
    colour = deck_colour(name)
    if colour == you_colour:
        return "your"
    return f"{colour.title()}'s"


def order_phrase(name: str, you_colour: str | None = None, *, short: bool = False) -> str:
    """``"Green's Pepper + 4 Salami"`` (styled in the deck colour)."""
    if name not in ORDER_INDEX:
        return name
    colour = deck_colour(name)
    return f"[{DECK_STYLE.get(colour, 'bold')}]{owner_word(name, you_colour)} {order_label(name, short=short)}[/]"


def player_name(seat: int | None, you: int | None = None, colour: str | None = None) -> str:
    """``"You"`` for the viewer, else ``"Seat 2"`` (styled in the seat's colour when known)."""
    if seat is None or seat < 0:
        return "Nobody"
    if you is not None and seat == you:
        return "[bold]You[/]"
    colour = colour or (DECKS[seat].colour if seat < len(DECKS) else None)
    return f"[{DECK_STYLE.get(colour or '', 'bold')}]Seat {seat + 1}[/]"


def _colour_of_seat(view: Mapping[str, Any] | None, seat: int) -> str | None:
    if view:
        for p in view.get("players_info", []):
            if p["seat"] == seat:
                return p["deck"]
    return DECKS[seat].colour if 0 <= seat < len(DECKS) else None


def _you_colour(view: Mapping[str, Any]) -> str | None:
    you = view.get("you")
    return None if you is None else _colour_of_seat(view, you)


def _me(view: Mapping[str, Any]) -> Mapping[str, Any] | None:
    you = view.get("you")
    for p in view.get("players_info", []):
        if p["seat"] == you:
            return p
    return None


# ---------------------------------------------------------------------------- actions
def _hand_toppings(view: Mapping[str, Any]) -> Mapping[str, int]:
    me = _me(view)
    return (me or {}).get("hand", {}).get("toppings", {})


def _hand_size(view: Mapping[str, Any]) -> int:
    me = _me(view)
    if not me:
        return 0
    return me["toppings_in_hand"] + me["orders_in_hand"]


def _special_outcome(view: Mapping[str, Any], order: str, kind: str, count: int) -> str:
    """For a Monotoni/Minimale choice: what the counter covers and whether the hand can add the rest."""
    counter = view.get("counter", {}) or {}
    hand = _hand_toppings(view)
    own = KINDS[_order(order).own]
    need = {own: 1}
    need[kind] = need.get(kind, 0) + count
    short = {k: n - counter.get(k, 0) for k, n in need.items() if n > counter.get(k, 0)}
    if not short:
        return "the counter covers it: completed"
    missing = counts_words(short, styled=False)
    if all(hand.get(k, 0) >= n for k, n in short.items()):
        return f"short {missing}: you can add them from hand"
    return f"short {missing}: you cannot cover that, it fails"


def describe_action(action: Any, view: Mapping[str, Any]) -> str:
    """One legal action in words, for the seat whose view is given (Rich markup)."""
    kind = action.TYPE
    if kind == "play_toppings":
        return f"Put {styled_toppings(action.kind, action.count)} in the oven"
    if kind == "skip_toppings":
        return "Put no toppings in the oven"
    if kind == "play_order":
        phrase = order_phrase(action.order, _you_colour(view))
        return f"Put {phrase} in the oven  [dim](needs {order_needs(action.order)})[/]"
    if kind == "no_order":
        return "Put no order in the oven this turn"
    if kind in ("draw", "draw_count"):
        gap = max(0, HAND_LIMIT - _hand_size(view))
        want = gap if kind == "draw" else action.count
        if kind == "draw_count" and want == 0:
            return f"Draw nothing this turn [dim](choosing the {action.source})[/]"
        if action.source == "supply":
            available = view.get("supply_size", 0) - (1 if view.get("mamma_mia_in_supply") else 0)
            n = min(want, available)
            text = f"Draw {counted(n, 'card')} from the supply"
            if n < want:
                text += f" [dim](only {available} left)[/]"
            if n >= available:
                text += " [bold]- empties the supply: the oven opens[/]"
            return text
        me = _me(view) or {}
        available = me.get("waiter_size", 0)
        n = min(want, available)
        text = f"Draw {counted(n, 'order')} from your waiter"
        if n < want:
            text += f" [dim](only {available} there)[/]"
        return text
    pending = view.get("pending") or {}
    order = pending.get("order", "")
    if kind in ("choose_joker", "choose_rarest"):
        special, count = ("Monotoni", 6) if kind == "choose_joker" else ("Minimale", 3)
        own = KINDS[_order(order).own]
        return (
            f"{special} with {topping(action.kind).lower()}: needs {toppings(own, 1)} + {toppings(action.kind, count)}"
            f"  [dim]({_special_outcome(view, order, action.kind, count)})[/]"
        )
    if kind == "complete_from_hand":
        label = order_label(order) if order else "the order"
        bombastica = bool(order) and _order(order).kind_name == "bombastica"
        added = dict(action.toppings) if action.toppings or bombastica else pending.get("shortfall", {})
        added = {k: n for k, n in added.items() if n}
        if not added:
            return f"Accept: complete {label} from the counter"
        return f"Complete {label}: add {counts_words(added)} from your hand"
    if kind == "decline":
        return "Decline: the order goes face down to the bottom of your waiter"
    return str(action)


# ---------------------------------------------------------------------------- events
class Narrator:
    """Turns the events one seat may see into lines of text, in order.

    Keeps the phase 2 counter (rebuilt from the public events) so every revealed card can
    be shown with the counter as it stands. ``seat=None`` narrates for a spectator.
    """

    def __init__(self, seat: int | None, players: int | None = None, colours: Mapping[int, str] | None = None) -> None:
        self.seat = seat
        self.players = players
        self.colours = dict(colours or {})
        self.counter: dict[str, int] = {}

    # names ------------------------------------------------------------------------------
    def who(self, seat: int | None, obj: bool = False) -> str:
        if seat is None or seat < 0:
            return "nobody" if obj else "Nobody"
        if obj and seat == self.seat:
            return "[bold]you[/]"
        return player_name(seat, self.seat, self.colours.get(seat))

    def _you_colour(self) -> str | None:
        if self.seat is None:
            return None
        return self.colours.get(self.seat) or (DECKS[self.seat].colour if self.seat < len(DECKS) else None)

    def order(self, name: str) -> str:
        return order_phrase(name, self._you_colour())

    def _verb(self, seat: int | None, you: str, other: str) -> str:
        return you if seat == self.seat else other

    def counter_words(self) -> str:
        return counts_words(self.counter, empty="empty")

    # the events -------------------------------------------------------------------------
    def pause(self, event: Any) -> float:
        """How long a step-by-step display should dwell after this event (relative units)."""
        return {
            "toppings_revealed": 0.4,
            "topping_revealed": 0.2,
            "order_revealed": 1.0,
            "order_completed": 1.0,
            "order_failed": 1.0,
            "oven_opened": 1.0,
            "round_ended": 1.5,
        }.get(event.kind, 0.0)

    def lines(self, event: Any) -> list[str]:
        d = event.data
        k = event.kind
        seat = d.get("seat")
        if k == "toppings_played":
            return [f"{self.who(seat)} put {styled_toppings(d['kind'], d['count'])} in the oven."]
        if k == "toppings_skipped":
            return [f"{self.who(seat)} put no toppings in the oven."]
        if k == "order_played":
            return [f"{self.who(seat)} put an order in the oven: {self.order(d['order'])}."]
        if k == "drew":
            n = d.get("count", 0)
            if d.get("source") == "waiter":
                noun = "order" if n == 1 else "orders"
                whose = "your" if seat == self.seat else "their"
                line = f"{self.who(seat)} drew {n} {noun} from {whose} waiter."
                known = d.get("known") or []
                if known and seat != self.seat:
                    line += " Among them, returned earlier: " + ", ".join(self.order(o) for o in known) + "."
                return [line]
            noun = "card" if n == 1 else "cards"
            return [f"{self.who(seat)} drew {n} {noun} from the supply."]
        if k == "drew_cards":
            parts = []
            if d.get("toppings"):
                parts.append(counts_words(d["toppings"]))
            parts += [self.order(o) for o in d.get("orders", [])]
            if not parts:
                return []
            return [f"  [dim]({self._verb(seat, 'You', self.who(seat))} got: {', '.join(parts)})[/]"]
        if k == "mamma_mia_drawn":
            return [
                f"[bold magenta]Mamma Mia![/] {self.who(seat)} drew the Mamma Mia! card: "
                f"{self._verb(seat, 'you', 'they')} will open the oven this round."
            ]
        if k == "phase_one_ended":
            why = (
                "The supply is empty"
                if d.get("reason") == "supply_empty"
                else "Nobody could play or draw for a full lap"
            )
            opener = d.get("opener")
            verb = self._verb(opener, "open", "opens")
            return ["", f"[bold]{why}: the oven is full.[/] {self.who(opener)} {verb} it."]
        if k == "oven_opened":
            self.counter = {}
            return [
                f"[bold]The oven is opened[/] ({counted(d.get('size', '?'), 'card')}): the cards come out in the "
                "order they went in. Each order is checked the moment it shows, against the toppings on the "
                "counter then."
            ]
        if k in ("toppings_revealed", "topping_revealed"):
            kind, n = d["kind"], d.get("count", 1)
            self.counter[kind] = self.counter.get(kind, 0) + n
            shown = styled_toppings(kind, n)
            pad = " " * max(1, 14 - Text.from_markup(shown).cell_len)
            return [f"  + {shown}{pad}[dim]counter:[/] {self.counter_words()}"]
        if k == "order_revealed":
            name = d["order"]
            return [f"  [bold]order[/] {self.order(name)}  [dim]needs {order_needs(name)}[/]"]
        if k == "joker_chosen":
            return [f"    {self.who(seat)} chose {topping(d['kind']).lower()} for the Monotoni."]
        if k == "rarest_chosen":
            return [f"    {self.who(seat)} chose {topping(d['kind']).lower()} as the rarest kind for the Minimale."]
        if k == "rarest_kind":
            return [f"    The rarest kind on the counter is {topping(d['kind']).lower()}: the Minimale needs 3 of it."]
        if k == "order_completed":
            used = d.get("used", {})
            from_hand = {kk: n for kk, n in d.get("from_hand", {}).items() if n}
            for kind, n in used.items():
                took = n - from_hand.get(kind, 0)
                self.counter[kind] = max(0, self.counter.get(kind, 0) - took)
            self.counter = {kk: n for kk, n in self.counter.items() if n}
            line = f"    [bold green]✔ baked[/] for {self.who(seat, obj=True)}"
            if from_hand:
                line += f", with {counts_words(from_hand)} from hand"
            line += f".  [dim]counter:[/] {self.counter_words()}"
            return [line]
        if k == "order_declined":
            return [f"    {self.who(seat)} did not add toppings from hand."]
        if k == "order_failed":
            whose = "your" if seat == self.seat else f"{Text.from_markup(self.who(seat)).plain}'s"
            return [f"    [bold red]✘ not baked[/]: the order goes back under {whose} waiter."]
        if k == "round_ended":
            left = d.get("leftovers", {})
            used = d.get("used", {})
            last = d.get("round", ROUNDS) >= ROUNDS
            used_words = counted(sum(used.values()), "topping")
            lines = [f"[bold]Round {d.get('round')} is over.[/] Used by baked orders: {used_words}."]
            if left:
                lines.append(
                    f"  Left on the counter: {counts_words(left)}"
                    + ("." if last else " - they stay at the bottom of the next oven.")
                )
            return lines
        if k == "round_started":
            start = d.get("start_player")
            return [
                "",
                f"[bold]Round {d.get('round')} of {ROUNDS} begins.[/] {self.who(start)} "
                f"{self._verb(start, 'start', 'starts')}. The new supply: {counted(d.get('supply', '?'), 'card')} "
                "(the used toppings and the Mamma Mia! card, shuffled). Hands are not refilled now.",
            ]
        if k == "game_over":
            return ["", "[bold]The game is over after three rounds.[/]"]
        return [f"{k}: {d}"]


def describe_event(event: Any, seat: int | None) -> str:
    """One event as seen by ``seat`` (no phase 2 counter context), as plain text."""
    lines = Narrator(seat).lines(event)
    return Text.from_markup("\n".join(lines)).plain.strip()


# ---------------------------------------------------------------------------- the table
def _card_words(card: Mapping[str, Any] | None, view: Mapping[str, Any]) -> str:
    if not card:
        return "nothing (empty)"
    if card.get("type") == "topping":
        return f"[{TOPPING_STYLE.get(card['kind'], 'bold')}]{topping(card['kind'])}[/]"
    if card.get("type") == "order":
        return order_phrase(card["order"], _you_colour(view))
    return "the Mamma Mia! card"


def _completed_words(names: list[str]) -> str:
    if not names:
        return "-"
    return ", ".join(order_label(n, short=True) for n in names)


def render_players(view: Mapping[str, Any]) -> RenderableType:
    """Every player's public facts: score, cards in hand (counts only), waiter, completed orders."""
    you = view.get("you")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, header_style="bold", show_edge=False)
    table.add_column("Player", no_wrap=True)
    table.add_column("Own", no_wrap=True)
    table.add_column("Score", justify="right")
    table.add_column("Toppings", justify="right")
    table.add_column("Orders", justify="right")
    table.add_column("Waiter", justify="right")
    table.add_column("Baked")
    to_move = view.get("to_move", [])
    notes = []
    for p in view.get("players_info", []):
        seat = p["seat"]
        name = player_name(seat, you, p["deck"]) + f" [dim]{p['deck']}[/]"
        if p.get("has_mamma_mia"):
            name += " [bold magenta]MM![/]"
        if seat in to_move and view.get("phase") != "over":
            name += " [bold]◀[/]"
        who = "Your" if seat == you else Text.from_markup(player_name(seat)).plain + "'s"
        if p.get("waiter_known_bottom"):
            notes.append(
                f"{who} waiter: the bottom cards are known (failed orders, last at the bottom): "
                + ", ".join(order_label(o, short=True) for o in p["waiter_known_bottom"])
            )
        if p.get("known_orders_in_hand") and seat != you:
            notes.append(
                f"{who} hand holds these known orders: "
                + ", ".join(order_label(o, short=True) for o in p["known_orders_in_hand"])
            )
        table.add_row(
            name,
            f"[{TOPPING_STYLE.get(p['own_topping'], '')}]{topping(p['own_topping'])}[/]",
            str(p["score"]),
            str(p["toppings_in_hand"]),
            str(p["orders_in_hand"]),
            str(p["waiter_size"]),
            _completed_words(p.get("completed", [])),
        )
    if not notes:
        return table
    return Group(table, Text.from_markup("[dim]" + "\n".join(notes) + "[/]"))


def render_hand(view: Mapping[str, Any]) -> RenderableType:
    """The viewer's own hand in full (nothing for a spectator)."""
    me = _me(view)
    if not me or "hand" not in me:
        return Text("")
    hand = me["hand"]
    you_colour = _you_colour(view)
    lines = [
        f"[bold]Your hand[/] ({me['toppings_in_hand'] + me['orders_in_hand']}/7): "
        f"{counts_words(hand.get('toppings', {}), empty='no toppings')}"
    ]
    for o in hand.get("orders", []):
        lines.append(f"  order {order_phrase(o, you_colour)}  [dim]needs {order_needs(o)}[/]")
    if not hand.get("orders"):
        lines.append("  [dim]no orders in hand[/]")
    return Text.from_markup("\n".join(lines))


def render_oven(view: Mapping[str, Any]) -> str:
    oven = view.get("oven", {})
    size = oven.get("size", 0)
    if view.get("opener") is not None:
        words = f"[bold]Oven[/]: {counted(size, 'card')} still to reveal"
    else:
        words = f"[bold]Oven[/]: {counted(size, 'card')}, top card {_card_words(oven.get('top'), view)}"
    return words


def render_oven_history(view: Mapping[str, Any]) -> str | None:
    """With ``show_oven_history``: this round's plays, one group per turn, and a tally by kind."""
    oven = view.get("oven", {})
    if "plays" not in oven:
        return None
    you = view.get("you")
    groups: list[tuple[int, list[str]]] = []
    tally: dict[str, int] = dict(oven.get("leftovers") or {})
    for play in oven["plays"]:
        if play.get("type") == "topping":
            words = styled_toppings(play["kind"], play.get("count", 1))
            tally[play["kind"]] = tally.get(play["kind"], 0) + play.get("count", 1)
        elif play.get("type") == "order":
            words = "[bold]" + order_phrase(play["order"], _you_colour(view), short=True) + "[/]"
        else:
            continue
        if groups and groups[-1][0] == play["seat"]:
            groups[-1][1].append(words)
        else:
            groups.append((play["seat"], [words]))
    lines = []
    if oven.get("leftovers"):
        lines.append(f"  leftovers from last round: {counts_words(oven['leftovers'])}")
    turns = [f"{player_name(seat, you)}: {', '.join(words)}" for seat, words in groups]
    lines.append("  " + (" | ".join(turns) if turns else "no plays yet this round"))
    lines.append(f"  toppings in the oven: {counts_words(tally, empty='none')}")
    return "[dim]In the oven, bottom first (show_oven_history):[/]\n" + "\n".join(lines)


def render_view(view: Mapping[str, Any]) -> RenderableType:
    """The table as ``view``'s seat sees it: public facts, every player's counts, your hand."""
    you = view.get("you")
    phase = view.get("phase")
    rnd = view.get("round")
    holder = view.get("mamma_mia_holder")
    if phase == "over":
        head = f"[bold]Mamma Mia![/] · game over after round {rnd}"
    elif view.get("opener") is not None:
        head = f"[bold]Mamma Mia![/] · Round {rnd} of {ROUNDS} · Phase 2: opening the oven"
    else:
        head = f"[bold]Mamma Mia![/] · Round {rnd} of {ROUNDS} · Phase 1: filling the oven"
    supply = view.get("supply_size", 0)
    mm = (
        "the Mamma Mia! card is still in it"
        if view.get("mamma_mia_in_supply")
        else f"Mamma Mia! card held by {'you' if holder == you else player_name(holder, you)}"
        if holder is not None
        else "no Mamma Mia! card"
    )
    lines = [head, f"[bold]Supply[/]: {counted(supply, 'card')} ({mm})", render_oven(view)]
    history = render_oven_history(view)
    if history:
        lines.append(history)
    parts: list[RenderableType] = [Text.from_markup("\n".join(lines)), render_players(view)]
    if view.get("opener") is not None and phase != "over":
        pending = view.get("pending") or {}
        p2 = [f"[bold]Counter[/]: {counts_words(view.get('counter', {}), empty='empty')}"]
        if pending:
            p2.append(
                f"[bold]Being checked[/]: {order_phrase(pending['order'], _you_colour(view))} "
                f"[dim](needs {order_needs(pending['order'])})[/]"
            )
            # The requirement is fixed only once a Monotoni/Minimale kind is chosen.
            if pending.get("decision") == "top_up" and pending.get("requirement"):
                p2.append(f"  requirement: {counts_words(pending['requirement'])}")
                if pending.get("shortfall") is not None:
                    p2.append(f"  missing from the counter: {counts_words(pending['shortfall'], empty='nothing')}")
        parts.append(Text.from_markup("\n".join(p2)))
    hand = render_hand(view)
    if you is not None:
        parts.append(hand)
    return Group(*parts)


def decision_words(view: Mapping[str, Any]) -> str:
    """What the viewer is asked now, e.g. "Step A: put toppings in the oven"."""
    step = view.get("step", "")
    prefix = {"toppings": "Step 1 of 3", "order": "Step 2 of 3", "refill": "Step 3 of 3"}.get(step, "Oven")
    return f"{prefix}: {STEP_WORDS.get(step, step)}"


def render_result(view: Mapping[str, Any]) -> RenderableType:
    """The final table: places, scores, the tie-break (toppings in hand), the winners."""
    result = view.get("result")
    you = view.get("you")
    if not result:
        return Text("The game is not over.")
    info = {p["seat"]: p for p in view.get("players_info", [])}
    table = Table(title="Final result", header_style="bold", title_style="bold", box=box.SIMPLE_HEAD)
    table.add_column("Place", justify="right")
    table.add_column("Player", no_wrap=True)
    table.add_column("Orders", justify="right")
    table.add_column("Tie-break", justify="right")
    table.add_column("Baked")
    order = sorted(range(len(result["scores"])), key=lambda s: (result["places"][s], s))
    for s in order:
        p = info.get(s, {})
        table.add_row(
            str(result["places"][s]),
            player_name(s, you, p.get("deck")) + (f" [dim]{p.get('deck', '')}[/]" if p else ""),
            str(result["scores"][s]),
            str(result["tiebreaks"][s]),
            _completed_words(p.get("completed", [])),
        )
    table.caption = "Orders: completed orders. Tie-break: topping cards in hand."
    winners = result["winners"]
    names = " and ".join(Text.from_markup(player_name(w, you)).plain for w in winners)
    best = max(result["scores"])
    tied_on_score = [s for s, sc in enumerate(result["scores"]) if sc == best]
    if len(winners) > 1:
        line = f"Shared win: {names} (same orders and same toppings in hand)."
    elif len(tied_on_score) > 1:
        line = (
            f"Winner: {names}. {len(tied_on_score)} players completed {counted(best, 'order')}; "
            f"the tie-break (most toppings in hand) decided it."
        )
    else:
        line = f"Winner: {names}, with {counted(best, 'order')} completed."
    if you is not None and you in winners:
        line += " [bold green]Congratulations![/]"
    return Group(table, Text.from_markup(f"[bold]{line}[/]"))


# ---------------------------------------------------------------------------- help texts
INTRO = (
    "Goal: bake the most of your orders in three rounds. Each turn: put toppings of one kind in the "
    "shared oven, maybe one of your orders on top, then refill. When the oven is opened, an order is "
    "baked if enough of its toppings went in [italic]before[/] it (you may add missing ones from hand). "
    "Only the top card of the oven stays visible: remember what goes in."
)
LEGEND = (
    "[dim]Toppings / Orders: cards in each hand (you see only the counts of others). Own: the topping "
    "pictured on all of that player's orders. Baked: completed orders, 1 point each (4 Salami = own "
    "topping + 4 salami). MM! holds the Mamma Mia! card. ◀ is to move.[/]"
)

HELP = (
    """\
Type the number of a move and press Enter. Other keys: [bold]h[/] help, [bold]r[/] rules summary,
[bold]t[/] show the table again, [bold]q[/] quit (offers to save).

A turn has three steps: put toppings of one kind in the oven, then optionally one of your orders,
then refill to 7 cards from the supply or your own waiter. The oven shows only its top card:
remember what went in. When the supply runs out the Mamma Mia! holder opens the oven and each
order is checked against the toppings revealed before it; you may add missing toppings from hand.
Add --option show_oven_history=true to see the plays in the oven (a memory aid).
"""
    + LEGEND
)

RULES = """\
# Mamma Mia! in short

**Goal.** Bake the most pizzas. Each player has a deck of 8 orders in their own colour; every
completed order is one point. Three rounds.

**Setup.** Every player gets an own deck of orders (its "own" topping is pictured on every card),
shuffles it face down: that pile is the *waiter*. Toppings come in five kinds (salami, pineapple,
mushroom, pepper, olive). With fewer than five players some of each kind stay in the box. Each
player gets 6 toppings plus the top order of their waiter. The rest of the toppings, with the
Mamma Mia! card mixed in, form the face-down *supply*.

**A turn, in three steps.**
1. *Toppings*: put one or more toppings of **one** kind face up on the shared oven pile. You must,
   if you hold any.
2. *Order* (optional): put one of your orders on top. Only allowed if you played toppings.
3. *Refill*: draw up to 7 cards, either from the supply or from your own waiter, never both.

Only the oven's top card stays visible. Every play is announced, so the game is about
remembering what is in there.

**The Mamma Mia! card.** Whoever draws it lays it down and keeps drawing. When the last supply
card is drawn, the round's first phase ends at once, and the Mamma Mia! holder opens the oven.

**Opening the oven.** The pile is turned over and revealed from the first card played. Toppings
go to a shared *counter*. An order is checked the moment it appears, using only the toppings
revealed before it. If the counter holds what it needs, it is completed (those toppings are
used up). If not, the owner may add exactly the missing toppings from hand; otherwise it goes
face down under their waiter. Three special orders per deck:
- *Bombastica*: 15 or more toppings of any kinds; takes the whole counter.
- *Monotoni*: 1 own topping + 6 of one other kind that the owner names.
- *Minimale*: 1 own topping + exactly 3 of the rarest other kind on the counter (owner picks on a tie).

**Between rounds.** Toppings left on the counter stay at the bottom of the next oven; the used
toppings and the Mamma Mia! card become the new supply. The holder starts the next round. Hands
are not re-dealt.

**End.** After the third round the most completed orders wins; a tie goes to the player with the
most topping cards in hand; if still tied, the win is shared.

**Options** (`--option name=value`): `ruleset` (revised | cs1999), `topping_play_required`,
`recipe_requires_topping_play`, `refill_mode` (fill | up_to), `allow_empty_source_choice`,
`owner_may_decline_when_table_suffices`, `bombastica_hand_topup`, `minimale_excludes_pictured`,
`minimale_when_no_candidate` (fail | any_kind), `monotoni_joker` (free | table_first),
`start_player` (random | a seat number), `end_early_when_no_orders_left`, `show_oven_history`
(shows the plays in the oven: a memory aid), `mamma_mia_card_setup` (after_dealing |
before_dealing: the second Chinese rulebook's setup). See `parlor games` for defaults.
"""
