"""Sweet Nose in words: names, actions, events and a seat's table, for the terminal.

Everything here works from what a seat may know: a view (``state.view(seat)``) and the
events already filtered for that seat (``parlor.core.for_seat``). Nothing in this module
reads a game state, so it cannot show a hidden sweetness card.

The terminal (``parlor.cli``) finds this module by convention (``parlor.games.<pkg>.text``)
and uses: ``describe_action``, ``Narrator``, ``render_view``, ``render_hand``,
``render_result``, ``decision_words``, ``player_name``, ``RULES``, ``HELP``, ``INTRO``,
``LEGEND``, ``SCORE_LABEL``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .data import KINDS, SHOPKEEPER_LEVELS, TILE_INDEX, TILES, max_level

SCORE_LABEL = "sweetness (lowest wins)"

SHORT = {
    "mung_bean_cake": "Mung",
    "longevity_peach_bun": "Peach",
    "peanut_brittle": "Brittle",
    "zhuangyuan_cake": "Zhuangyuan",
    "candied_haws": "Haws",
}
SWEET_STYLE = {
    "mung_bean_cake": "bold green",
    "longevity_peach_bun": "bold magenta",
    "peanut_brittle": "bold dark_orange3",
    "zhuangyuan_cake": "bold yellow",
    "candied_haws": "bold red",
}
SEAT_STYLE = ("red", "hot_pink", "blue", "green", "purple")

PHASE_WORDS = {
    "auction": "Shopkeeper auction: bid sweetness for a shop tile, or pass",
    "set_sweetness": "Phase 1: set your sweetness cards (secret)",
    "exchange": "Phase 2: exchange a sweet (and use your shop tile if you like)",
    "change_taste": "Change of Taste: swap two of your cards before the reveal, or not",
    "declare_ignore_market": "Ignore the Market: drop the market bonus from your score, or not",
    "choose_shop": "Phase 4: choose a shop tile for next round",
    "over": "the game is over",
}


# ---------------------------------------------------------------------------- names
def sweet(kind: str) -> str:
    """``"candied_haws"`` -> ``"Haws"`` in its colour."""
    return f"[{SWEET_STYLE.get(kind, 'bold')}]{SHORT.get(kind, kind)}[/]"


def counts_words(counts: Mapping[str, int], *, empty: str = "nothing") -> str:
    """``{"candied_haws": 2, "mung_bean_cake": 1}`` -> ``"1 Mung, 2 Haws"`` (kind order)."""
    parts = [f"{counts[k]} {sweet(k)}" for k in KINDS if counts.get(k)]
    return ", ".join(parts) if parts else empty


def tile_name(tile_id: str) -> str:
    t = TILES[TILE_INDEX[tile_id]]
    return f"[bold]{t.name}[/] (level {t.level})"


def player_name(seat: int | None, you: int | None = None, colour: str | None = None) -> str:
    """``"You"`` for the viewer, else ``"Seat 2"`` in the seat's colour."""
    if seat is None or seat < 0:
        return "Nobody"
    if you is not None and seat == you:
        return "[bold]You[/]"
    style = SEAT_STYLE[seat] if 0 <= seat < len(SEAT_STYLE) else "bold"
    return f"[{style}]Seat {seat + 1}[/]"


def _me(view: Mapping[str, Any]) -> Mapping[str, Any] | None:
    you = view.get("you")
    if you is None:
        return None
    return view["players_info"][you]


def estimate(view: Mapping[str, Any], cards: Mapping[str, int], held: Mapping[str, int]) -> int:
    """The viewer's score if the round were scored now with these cards (per-sweet bonus)."""
    market = view.get("market", {})
    return sum((cards[k] + market.get(k, 0)) * held.get(k, 0) for k in KINDS)


def _held(p: Mapping[str, Any]) -> dict[str, int]:
    return {k: p["tray"].get(k, 0) + p["bowl"].get(k, 0) for k in KINDS}


# ---------------------------------------------------------------------------- the menu
SHORTLIST = 8
# How often a value was typed, for the placement errors ("1 appears three times").
_TIMES = {2: "twice", 3: "three times", 4: "four times", 5: "five times"}


def _and_list(values: list[int]) -> str:
    """2 | 2 and 4 | 2, 3 and 4."""
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def shortlist(legal: list[Any], view: Mapping[str, Any]) -> tuple[list[int], str] | None:
    """Phase 1 has 120 placements and phase 2 up to about 60 trades: list the few that score lowest
    now (the rest can be typed, or all listed with ``a``). The Shopkeeper auction offers passing
    first and the lowest bid; any other bid is typed as its space (``b 12``)."""
    if any(a.TYPE == "bid" for a in legal):
        return _auction_shortlist(legal, view)
    if legal and all(a.TYPE != "assign_sweetness" for a in legal):
        return _trade_shortlist(legal, view)
    if not legal or any(a.TYPE != "assign_sweetness" for a in legal):
        return None
    me = _me(view)
    if me is None or len(legal) <= SHORTLIST:
        return None
    held = _held(me)
    ranked = sorted(range(len(legal)), key=lambda i: (estimate(view, dict(zip(KINDS, legal[i].values)), held), i))
    order = " ".join(SHORT[k] for k in KINDS)
    note = (
        f"[dim]Your {SHORTLIST} lowest-scoring placements for now. To place the cards any other way, type "
        f"the five values in sweet order ({order}), e.g. 3 1 5 2 4, or [bold]a[/] to list all {len(legal)}.[/]"
    )
    return ranked[:SHORTLIST], note


TRADES = ("exchange_with_player", "exchange_with_market")
# A phase-2 menu this long or shorter is shown whole.
LONGEST_FULL_MENU = 16


def score_after_trade(view: Mapping[str, Any], action: Any) -> int:
    """The viewer's score if the round were scored right after this trade (a hint, as in phase 1)."""
    me = _me(view)
    assert me is not None and me["sweetness"] is not None
    held = _held(me)
    held[action.take] += 1
    held[action.give] -= 1
    market = dict(view.get("market", {}))
    if action.TYPE == "exchange_with_market":  # the sweet given goes to the market, the one taken leaves it
        market[action.give] = market.get(action.give, 0) + 1
        market[action.take] = market.get(action.take, 0) - 1
    return estimate({**view, "market": market}, me["sweetness"], held)


def _trade_shortlist(legal: list[Any], view: Mapping[str, Any]) -> tuple[list[int], str] | None:
    """Phase 2: the trades that lower the viewer's score most, and every other move (ending the
    turn, the shop tile's uses) as they come."""
    me = _me(view)
    trades = [i for i, a in enumerate(legal) if a.TYPE in TRADES]
    if me is None or me.get("sweetness") is None or len(legal) <= LONGEST_FULL_MENU or len(trades) <= SHORTLIST:
        return None
    best = sorted(trades, key=lambda i: (score_after_trade(view, legal[i]), i))[:SHORTLIST]
    others = [i for i, a in enumerate(legal) if a.TYPE not in TRADES]
    note = (
        f"[dim]Your {SHORTLIST} trades that leave you the lowest score for now, of {len(trades)}. "
        f"Type [bold]a[/] to list all {len(legal)} moves.[/]"
    )
    return sorted(best) + others, note


# ---------------------------------------------------------------------------- the Shopkeeper auction
def _auction_shortlist(legal: list[Any], view: Mapping[str, Any]) -> tuple[list[int], str]:
    """Pass first (it is final), then the lowest bid; the note says what a bid costs, who is still
    in, and how to type any other bid. The rule stays the rulebook's: the auction ends only when
    everyone has passed, so the last player still in is asked until they pass too."""
    you = view.get("you")
    bids = sorted((i for i, a in enumerate(legal) if a.TYPE == "bid"), key=lambda i: legal[i].space)
    passing = [i for i, a in enumerate(legal) if a.TYPE == "pass"]
    spaces = [legal[i].space for i in bids]
    players = view["players_info"]
    others_in = [p["seat"] for p in players if p["seat"] != you and p.get("in_auction")]
    markers = ", ".join(
        f"{player_name(p['seat'], you)} {p['score']}{'' if p.get('in_auction') else ' (passed)'}" for p in players
    )
    levels = ", ".join(f"1-{lv}" for lv in SHOPKEEPER_LEVELS[: len(players)])
    lines = [
        f"[dim]Markers: {markers}. A bid moves your marker forward to a free space: that much sweetness "
        f"counts against you now (lowest total wins). When everyone has passed, markers off 0 pick tiles, "
        f"highest first (levels {levels}).[/]",
        f"[dim]To bid another space, type [bold]b[/] and the space, e.g. [bold]b {spaces[min(4, len(spaces) - 1)]}[/] "
        f"(free spaces {_spans(spaces)}).[/]",
    ]
    if not others_in:
        mine = players[you]["score"] if you is not None else 0
        rank = 1 + sum(1 for p in players if p["score"] > mine)
        if mine > 0 and rank == 1:
            why = "Your marker is already the highest: another bid only costs sweetness."
        elif mine > 0:
            why = f"Your marker is number {rank}: another bid only helps to rank higher, and costs sweetness."
        else:
            why = "Your marker is on 0: pass now and you take no tile."
        lines.append(f"[yellow]Everyone else has passed: the auction ends when you pass. {why}[/]")
    return passing + bids[:1], "\n".join(lines)


def whole_menu(legal: list[Any], view: Mapping[str, Any]) -> list[int] | None:
    """The order of the whole list (``a``) where the engine's would renumber the shortlist's moves: in
    the Shopkeeper auction, passing stays number 1 (the shortlist and the rules page promise it, and a
    1 typed out of habit must not bid), then the bids by space. Elsewhere the engine's order."""
    if not any(a.TYPE == "bid" for a in legal):
        return None
    passing = [i for i, a in enumerate(legal) if a.TYPE == "pass"]
    bids = sorted((i for i, a in enumerate(legal) if a.TYPE == "bid"), key=lambda i: legal[i].space)
    rest = [i for i in range(len(legal)) if i not in passing and i not in bids]
    return passing + bids + rest


def _spans(values: list[int]) -> str:
    """``[1, 2, 3, 5, 6, 9]`` -> ``"1-3, 5-6, 9"``."""
    out: list[str] = []
    for v in values:
        if out and v == int(out[-1].rsplit("-", 1)[-1]) + 1:
            out[-1] = f"{out[-1].split('-')[0]}-{v}"
        else:
            out.append(str(v))
    return ", ".join(out)


def _typed_bid(entry: str) -> int | None:
    """``"b 12"``, ``"bid 12"``, ``"b12"`` -> 12; None for anything else."""
    words = entry.replace("bid", "b", 1).replace("b", "b ", 1).split()
    if len(words) == 2 and words[0] == "b" and words[1].lstrip("-").isdigit():
        return int(words[1])
    return None


def _explain_bid(entry: str, legal: list[Any], view: Mapping[str, Any]) -> str | None:
    typed = _typed_bid(entry)
    if typed is None:
        if entry.strip().isdigit():
            return f"{entry.strip()} is not on the list: to bid space {entry.strip()}, type b {entry.strip()}"
        if entry.strip().startswith("b"):  # "b x", "bid", "b": a bid without its space (no other word starts so)
            return f"{entry.strip()!r} is not a bid: type b N, N the space to bid as a number, e.g. b 5"
        return None
    you = view.get("you")
    players = view["players_info"]
    mine = players[you]["score"] if you is not None else 0
    highest = max(a.space for a in legal if a.TYPE == "bid")
    holder = next((p["seat"] for p in players if p["seat"] != you and p["score"] == typed and typed > 0), None)
    if typed <= mine:
        return f"a bid moves your marker forward: your marker is on {mine}, so bid above it"
    if holder is not None:
        return f"space {typed} is taken by {Text.from_markup(player_name(holder, you)).plain}'s marker"
    if typed > highest:
        return f"the highest bid allowed is {highest}"
    return f"you cannot bid {typed} now"


def typed_move_hint(legal: list[Any]) -> str:
    """What the prompt adds when the menu is a shortlist: placements can be typed as values, bids
    as their space."""
    if any(a.TYPE == "bid" for a in legal):
        return " or b N to bid N"
    return " or five values" if legal and legal[0].TYPE == "assign_sweetness" else ""


def explain_move(entry: str, legal: list[Any], view: Mapping[str, Any]) -> str | None:
    """Why a typed placement (or bid) is not one (None when the entry does not look like one)."""
    if any(a.TYPE == "bid" for a in legal):
        return _explain_bid(entry, legal, view)
    if not legal or any(a.TYPE != "assign_sweetness" for a in legal):
        return None
    digits = [c for c in entry if c.isdigit()]
    if not digits or not all(c in " ,/-" or c.isdigit() for c in entry):
        return None
    order = " ".join(SHORT[k] for k in KINDS)
    if len(digits) == 1 or (len(digits) <= 3 and " " not in entry.strip()):
        return (
            f"{entry.strip()} is not a number on the list: type 1-{SHORTLIST} for a listed placement, "
            f"or five values in sweet order ({order}), e.g. 3 1 5 2 4"
        )
    if len(digits) != len(KINDS):
        typed = f"{len(digits)} value{'' if len(digits) == 1 else 's'}"
        return f"a placement is five values, one per sweet ({order}); you typed {typed}"
    values = [int(c) for c in digits]
    wrong = sorted({v for v in values if not 1 <= v <= len(KINDS)})
    if wrong:
        return f"values go from 1 to {len(KINDS)}; {', '.join(map(str, wrong))} is not one"
    repeated = sorted({v for v in values if values.count(v) > 1})
    if repeated:
        missing = sorted(set(range(1, len(KINDS) + 1)) - set(values))
        uses = ", ".join(f"{v} appears {_TIMES[values.count(v)]}" for v in repeated)
        gone = f"{_and_list(missing)} {'is' if len(missing) == 1 else 'are'} missing"
        return f"each value 1-{len(KINDS)} is used once: {uses}; {gone}"
    return None


def parse_move(entry: str, legal: list[Any], view: Mapping[str, Any]) -> int | None:
    """A placement typed as five values in sweet order ("3 1 5 2 4" or "31524"), or a bid typed
    as its space ("b 12"; "pass" passes)."""
    if any(a.TYPE == "bid" for a in legal):
        if entry.strip() in ("p", "pass"):
            return next(i for i, a in enumerate(legal) if a.TYPE == "pass")
        typed = _typed_bid(entry)
        return next((i for i, a in enumerate(legal) if a.TYPE == "bid" and a.space == typed), None)
    digits = [c for c in entry if c.isdigit()]
    if len(digits) != len(KINDS) or not all(c in " ,/-" or c.isdigit() for c in entry):
        return None
    values = tuple(int(c) for c in digits)
    for i, action in enumerate(legal):
        if action.TYPE == "assign_sweetness" and tuple(action.values) == values:
            return i
    return None


# ---------------------------------------------------------------------------- actions
def describe_action(action: Any, view: Mapping[str, Any]) -> str:
    """One legal action in words, for the menu."""
    kind = action.TYPE
    you = view.get("you")
    d = action.to_json()

    def them(seat: int) -> str:
        return player_name(seat, you)

    if kind == "assign_sweetness":
        cards = dict(zip(KINDS, d["values"]))
        words = " ".join(f"{SHORT[k][:5]}={v}" for k, v in cards.items())
        me = _me(view)
        now = f"  [dim](now {estimate(view, cards, _held(me))})[/]" if me else ""
        return words + now
    if kind in TRADES:
        me = _me(view)
        then = f"  [dim](then {score_after_trade(view, action)})[/]" if me and me.get("sweetness") else ""
        if kind == "exchange_with_player":
            return f"Trade with {them(d['target'])}: take their {sweet(d['take'])}, give your {sweet(d['give'])}{then}"
        return f"Trade with the market: give {sweet(d['give'])}, take {sweet(d['take'])}{then}"
    if kind == "end_turn":
        return "End your turn"
    if kind == "use_stash":
        return f"Shop Stash: your {sweet(d['kind'])} from tray to bowl"
    if kind == "use_twin_trade":
        return f"Shop Twin Trade with {them(d['target'])}: take their {sweet(d['take'])}, give your {sweet(d['give'])}"
    if kind == "use_take_back":
        return f"Shop Take Back: your {sweet(d['kind'])} from bowl to tray"
    if kind == "use_market_to_bowl":
        return f"Shop Straight to the Bowl: give {sweet(d['give'])} to the market, {sweet(d['take'])} into your bowl"
    if kind == "use_bowl_swap":
        return f"Shop Bowl Swap with {them(d['target'])}: your {sweet(d['give'])} for their {sweet(d['take'])}"
    if kind == "use_send_back":
        return f"Shop Send Back: {them(d['target'])}'s {sweet(d['kind'])} from bowl to tray"
    if kind == "use_rearrange":
        return f"Shop Rearrange: bowl {sweet(d['from_bowl'])} to tray, tray {sweet(d['from_tray'])} to bowl"
    if kind == "use_double_trade":
        give = "+".join(SHORT[k] for k in d["give"])
        take = "+".join(SHORT[k] for k in d["take"])
        return f"Shop Double Trade with {them(d['target'])}: give {give}, take {take}"
    if kind == "use_change_taste":
        me = _me(view)
        cards = (me or {}).get("sweetness") or {}
        values = f" ({cards.get(d['first'])} and {cards.get(d['second'])})" if cards else ""
        return f"Shop Change of Taste: swap your cards on {sweet(d['first'])} and {sweet(d['second'])}{values}"
    if kind == "use_ignore_market":
        return "Shop Ignore the Market: no market bonus for you this round"
    if kind == "choose_shop":
        return f"Take {tile_name(d['tile'])}: {TILES[TILE_INDEX[d['tile']]].text}"
    if kind == "choose_shop_level":
        return f"Take a level {d['level']} tile (you will see which)"
    if kind == "decline":
        phase = view.get("phase")
        if phase == "change_taste":
            return "Keep your cards as they are"
        if phase == "declare_ignore_market":
            return "Keep the market bonus"
        return "Take no tile"
    if kind == "bid":
        me = _me(view)
        now = me["score"] if me else 0
        return f"Bid {d['space']}: your marker to {d['space']}, so {d['space']} sweetness now (+{d['space'] - now})"
    if kind == "pass":
        me = _me(view)
        where = f"; your marker stays on {me['score']}" if me else ""
        return f"Pass: out of the auction for good{where}"
    return str(action)


# ---------------------------------------------------------------------------- events
class Narrator:
    """Turns the events one seat may see into lines of text, in order (``seat=None``: a spectator)."""

    def __init__(self, seat: int | None, players: int | None = None, colours: Mapping[int, str] | None = None) -> None:
        self.seat = seat
        self.players = players

    def who(self, seat: int | None, obj: bool = False) -> str:
        if obj and seat is not None and seat == self.seat:
            return "[bold]you[/]"
        return player_name(seat, self.seat)

    def _verb(self, seat: int | None, you: str, other: str) -> str:
        return you if seat == self.seat else other

    def pause(self, event: Any) -> float:
        return {"sweetness_revealed": 1.0, "round_scored": 1.0, "exchange_phase_ended": 0.6}.get(event.kind, 0.3)

    def lines(self, event: Any) -> list[str]:
        k, d = event.kind, event.data
        s = d.get("seat")
        if k == "setup":
            return [f"Setup: 8 sweets in every tray; the market shows {counts_words(d['market'])}."]
        if k == "auction_started":
            return [f"[bold]Shopkeeper auction[/]: {self.who(d['start_player'])} bids first."]
        if k == "bid":
            return [f"{self.who(s)} {self._verb(s, 'move', 'moves')} to {d['space']} on the score track."]
        if k == "passed":
            return [f"{self.who(s)} {self._verb(s, 'pass', 'passes')} (marker on {d['space']})."]
        if k == "auction_ended":
            order = ", ".join(self.who(p, True) for p in d["pick_order"]) or "nobody"
            return [f"The auction is over. Tiles are taken by: {order}."]
        if k == "round_started":
            of = f" of {d['rounds']}" if d.get("rounds") else " (Ascension)"
            holds = self._verb(d["start_player"], "hold", "holds")
            return ["", f"[bold]Round {d['round']}{of}[/]: {self.who(d['start_player'])} {holds} the Thunder God."]
        if k == "sweets_redealt":
            return [f"The sweets are dealt again; the market shows {counts_words(d['market'])}."]
        if k == "sweetness_set":
            return [f"{self.who(s)} {self._verb(s, 'have', 'has')} placed the sweetness cards."]
        if k == "sweetness_chosen":
            return [f"Your cards: {_cards_words(d['values'])}."]
        if k == "exchange_phase_started":
            return [f"[bold]Phase 2[/]: trading starts with {self.who(d['start_player'], True)}."]
        if k == "turn_skipped":
            return [f"{self.who(s)} can do nothing this turn."]
        if k == "turn_ended":
            return []
        if k == "exchanged_with_player":
            return [
                f"{self.who(s)} {self._verb(s, 'take', 'takes')} {sweet(d['took'])} from "
                f"{self.who(d['target'], True)} and {self._verb(s, 'give', 'gives')} {sweet(d['gave'])} back."
            ]
        if k == "exchanged_with_market":
            where = "bowl" if d.get("into_bowl") else "tray"
            return [
                f"{self.who(s)} {self._verb(s, 'put', 'puts')} {sweet(d['gave'])} in the market and "
                f"{self._verb(s, 'take', 'takes')} {sweet(d['took'])} into the {where}."
            ]
        if k == "shop_used":
            return [f"{self.who(s)} {self._verb(s, 'use', 'uses')} {tile_name(d['tile'])}{_use_words(d, self)}."]
        if k == "sweetness_swapped":
            return [f"Your cards now: {_cards_words(d['values'])}."]
        if k == "exchange_phase_ended":
            why = {
                "tray_empty": "a tray is empty",
                "stalemate": "a full lap passed without an exchange",
                "turn_limit": "the turn limit was reached",
                "deadlock": "nobody can do anything",
            }.get(d["reason"], d["reason"])
            return [f"[bold]Phase 2 ends[/]: {why}."]
        if k == "sweetness_revealed":
            out = ["[bold]The sweetness cards are revealed:[/]"]
            for p, values in enumerate(d["values"]):
                out.append(f"  {self.who(p)}: {_cards_words(values)}")
            return out
        if k == "round_scored":
            parts = [f"{self.who(p)} +{r} = {t}" for p, (r, t) in enumerate(zip(d["round_scores"], d["totals"]))]
            return [f"[bold]Round {d['round']} scores[/]: " + "; ".join(parts)]
        if k == "shop_returned":
            return [f"{self.who(s)} {self._verb(s, 'return', 'returns')} the unused {tile_name(d['tile'])}."]
        if k == "start_player":
            return [f"{self.who(s)} will start round {d['round']}."]
        if k == "shop_phase_started":
            order = ", ".join(self.who(p, True) for p in d["pick_order"]) or "nobody (all scored 16 or less)"
            return [f"[bold]Phase 4[/]: tiles are chosen by {order}."]
        if k == "shop_none_left":
            return [f"No tile up to level {d['max_level']} is left for {self.who(s, True)}."]
        if k == "shop_chosen":
            what = tile_name(d["tile"]) if "tile" in d else f"a level {d['level']} tile"
            return [f"{self.who(s)} {self._verb(s, 'take', 'takes')} {what}."]
        if k == "shop_drawn":
            return [f"It is {tile_name(d['tile'])}."]
        if k == "shop_declined":
            return [f"{self.who(s)} {self._verb(s, 'take', 'takes')} no tile."]
        if k == "shop_kept":
            return [f"{self.who(s)} {self._verb(s, 'leave', 'leaves')} the tile unused."]
        if k == "game_over":
            return ["", "[bold]The game is over.[/]"]
        return [f"{k}: {d}"]


def _cards_words(values: Mapping[str, int]) -> str:
    return ", ".join(f"{sweet(k)} {values[k]}" for k in KINDS if k in values)


def _use_words(d: Mapping[str, Any], n: Narrator) -> str:
    if "kinds" in d:
        return f": swaps the cards on {sweet(d['kinds'][0])} and {sweet(d['kinds'][1])}"
    if "target" in d and "took" in d:
        took = d["took"] if isinstance(d["took"], list) else [d["took"]]
        gave = d["gave"] if isinstance(d["gave"], list) else [d["gave"]]
        return (
            f" with {n.who(d['target'], True)}: takes {', '.join(sweet(x) for x in took)}, "
            f"gives {', '.join(sweet(x) for x in gave)}"
        )
    if "target" in d:
        return f" on {n.who(d['target'], True)}'s {sweet(d['kind'])}"
    if "kind" in d:
        return f" on {sweet(d['kind'])}"
    if "from_bowl" in d:
        return f": {sweet(d['from_bowl'])} to the tray, {sweet(d['from_tray'])} to the bowl"
    if "took" in d:
        return f": gives {sweet(d['gave'])} to the market, {sweet(d['took'])} into the bowl"
    return ""


def describe_event(event: Any, seat: int | None) -> str:
    """One event as seen by ``seat``, as plain text."""
    return Text.from_markup("\n".join(Narrator(seat).lines(event))).plain.strip()


# ---------------------------------------------------------------------------- the table
def _tile_words(tile: Mapping[str, Any] | None) -> str:
    if not tile:
        return "-"
    if "id" not in tile:
        return f"level {tile['level']} (hidden)"
    return f"{tile['name']} ({tile['level']})"


def render_players(view: Mapping[str, Any]) -> RenderableType:
    you = view.get("you")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, header_style="bold", show_edge=False)
    for col, justify in (
        ("Player", "left"),
        ("Total", "right"),
        ("Last", "right"),
        ("Tray", "left"),
        ("Bowl", "left"),
        ("Cards", "left"),
        ("Tile", "left"),
    ):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    to_move = view.get("to_move", [])
    for p in view.get("players_info", []):
        seat = p["seat"]
        name = player_name(seat, you)
        if seat == view.get("start_player"):
            name += " [bold yellow]⚡[/]"
        if seat in to_move and view.get("phase") != "over":
            name += " [bold]◀[/]"
        if p["sweetness"]:
            cards = " ".join(f"{v}" for v in (p["sweetness"][k] for k in KINDS))
        else:
            cards = "set" if p["sweetness_set"] else "-"
        if p.get("ignoring_market"):
            cards += " [dim](no market)[/]"
        last = "" if p["round_score"] is None else str(p["round_score"])
        table.add_row(
            name,
            str(p["score"]),
            last,
            counts_words(p["tray"], empty="[dim]empty[/]"),
            counts_words(p["bowl"], empty="-"),
            cards,
            _tile_words(p["tile"]),
        )
    return table


def render_hand(view: Mapping[str, Any]) -> RenderableType:
    """The viewer's own position: cards, tray, bowl and the score as things stand."""
    me = _me(view)
    if me is None:
        return Text("")
    lines = [
        f"[bold]Your tray[/]: {counts_words(me['tray'], empty='empty')}   "
        f"[bold]bowl[/]: {counts_words(me['bowl'], empty='empty')}"
    ]
    if me["sweetness"]:
        cards = me["sweetness"]
        lines.append(
            f"[bold]Your cards[/]: {_cards_words(cards)}   [dim](score now: {estimate(view, cards, _held(me))})[/]"
        )
    if me["tile"]:
        lines.append(f"[bold]Your tile[/]: {_tile_words(me['tile'])}")
    return Text.from_markup("\n".join(lines))


def render_view(view: Mapping[str, Any]) -> RenderableType:
    """The table as ``view``'s seat sees it."""
    phase = view.get("phase")
    rnd = view.get("round")
    rounds = view.get("rounds")
    if phase == "over":
        head = f"[bold]Sweet Nose[/] · game over after round {rnd}"
    elif phase == "auction" or rnd == 0:
        head = "[bold]Sweet Nose[/] · Shopkeeper auction before round 1"
    else:
        of = f" of {rounds}" if rounds else " (Ascension: until someone reaches 100)"
        head = f"[bold]Sweet Nose[/] · Round {rnd}{of} · {PHASE_WORDS.get(phase, phase)}"
    lines = [head, f"[bold]Market[/]: {counts_words(view.get('market', {}))}   [dim](each adds +1 to its kind)[/]"]
    if "shop" in view:
        lines.append("[bold]Shop[/]: " + (", ".join(_tile_words(_tile_of(t)) for t in view["shop"]) or "empty"))
    else:
        lines.append("[bold]Shop[/]: levels " + (", ".join(str(lv) for lv in view.get("shop_levels", [])) or "none"))
    if view.get("picks"):
        lines.append(
            "Choosing: "
            + ", ".join(
                f"{player_name(p['seat'], view.get('you'))} (up to level {p['max_level']})" for p in view["picks"]
            )
        )
    parts: list[RenderableType] = [Text.from_markup("\n".join(lines)), render_players(view)]
    if view.get("you") is not None:
        parts.append(render_hand(view))
    return Group(*parts)


def _tile_of(tile_id: str) -> dict[str, Any]:
    t = TILES[TILE_INDEX[tile_id]]
    return {"id": t.id, "level": t.level, "name": t.name}


def decision_words(view: Mapping[str, Any]) -> str:
    return PHASE_WORDS.get(view.get("phase", ""), "Your decision")


def render_result(view: Mapping[str, Any]) -> RenderableType:
    """The final table: places by lowest total sweetness; ties share."""
    result = view.get("result")
    you = view.get("you")
    if not result:
        return Text("The game is not over.")
    table = Table(title="Final result", header_style="bold", title_style="bold", box=box.SIMPLE_HEAD)
    table.add_column("Place", justify="right")
    table.add_column("Player", no_wrap=True)
    table.add_column("Sweetness", justify="right")
    for s in sorted(range(len(result["scores"])), key=lambda s: (result["places"][s], s)):
        table.add_row(str(result["places"][s]), player_name(s, you), str(result["scores"][s]))
    table.caption = "Lowest total sweetness wins; equal totals share the place."
    names = " and ".join(Text.from_markup(player_name(w, you)).plain for w in result["winners"])
    best = min(result["scores"])
    line = f"{'Shared win' if len(result['winners']) > 1 else 'Winner'}: {names}, with {best} sweetness."
    if you is not None and you in result["winners"]:
        line += " [bold green]Congratulations![/]"
    return Group(table, Text.from_markup(f"[bold]{line}[/]"))


# ---------------------------------------------------------------------------- help texts
INTRO = (
    "Goal: the least sweetness after three rounds. Each round you secretly rate the five sweets 1-5 "
    "for yourself; then trade sweets, pushing the ones you rated high onto others. A round scores "
    "(your card + market sweets of that kind) x sweets you hold."
)
LEGEND = (
    "[dim]Total: sweetness so far (low is good). Last: last round's score. Cards: sweetness values in "
    "sweet order Mung Peach Brittle Zhuangyuan Haws (others' stay hidden until scoring). ⚡ holds the "
    "Thunder God (starts the round). ◀ is to move.[/]"
)
RULES = f"""\
# Sweet Nose (好鼻師)

**Goal**: the lowest total sweetness after three rounds (ties share the win).

**Setup**: every player gets 8 random sweets in their tray; the market holds 3.

**Each round**
1. **Set sweetness** (all at once, secret): put your cards 1-5 on the five sweet kinds.
2. **Trade**, in turn from the start player (who holds the Thunder God ⚡): each turn make one
   exchange — **trade A**, *with a player*: take a sweet from their tray into your bowl and give
   one of a **different** kind from your tray into their bowl; or **trade B**, *with the market*:
   swap one of your tray's sweets for a market sweet of a different kind. You may also use your
   shop tile ("this turn" on a tile means a turn of the round you use it in), before or after
   the exchange. The moment any tray is empty, trading stops.
3. **Score**: the cards are revealed. Each kind scores (card + market sweets of that kind) x the
   sweets of it you hold, tray and bowl together.
4. **Shop**: bowls go back into trays. The highest scorer starts next round. From the highest
   score down, players take a tile: 31+ any level, 26-30 up to 4, 22-25 up to 3, 19-21 up to 2,
   17-18 level 1, 16 or less none. A tile is used once in the next round, then goes back.

**Tiles**: {"; ".join(f"{t.name} ({t.level})" for t in TILES)}.

**Variants**: `--option ascension=true` plays until someone reaches 100;
`--option shopkeeper=true` opens with an auction of tiles paid in sweetness.
Example check of the shop threshold: a round score of 26 allows up to level {max_level(26)}.
"""
HELP = (
    """\
Type the number of a move and press Enter. Other keys: [bold]h[/] help, [bold]r[/] rules summary,
[bold]t[/] show the table again, [bold]q[/] quit (offers to save).

Phase 1 lists your best ways to place your five cards (value per sweet, in sweet order) with the
score you would get if the round ended now; to place them any other way, type the five values in
sweet order, e.g. [bold]3 1 5 2 4[/]. In phase 2 pick one exchange; shop tile uses start "Shop".
When there are many trades, the list shows those that leave you the lowest score now (ties in the
order of the full list); [bold]a[/] lists every move. In the Shopkeeper auction [bold]1[/] passes (for
good) and [bold]b 12[/] bids space 12: your marker moves there, and that is sweetness you keep.
"""
    + LEGEND
)
