"""One element per card, and every playable element plays (js/patch.js).

Each game (Mamma Mia!, Sweet Nose, and Mottainai at 6 players, where two decks shuffled together
hold two copies of every card) is played by the human seat by clicking what the table marks
playable until every usual kind of decision (USUAL_KINDS) was clicked through; the rest of the game
is played over the API and its end checked on the page opened again. The whole games with these
checks at every step are test_phone.py's (one per game, tapped on a phone); the whole games on a
desktop, with the hidden cards and a reload, are test_browser.py's and test_mottainai_web.py's. At
every step of every decision the test reads the page and the state frame it was drawn from in one
go (nothing can be drawn in between) and asserts:

* each card the frame puts on the table has exactly one element on the board: no stale copy left
  over from an earlier frame, none missing;
* every element marked playable (``data-act="pick"``) stands for a part of a legal move that fits
  the parts chosen so far (a "picked" one is one of those chosen), and the sentence list holds each
  legal move once;
* the element tapped (one sampled per step, at a point where it is the element a finger reaches)
  does what its marking promises: it plays its move, or joins the chosen parts on the way to one.

These games are also the games played on the cards (js/picks.js and each game's parts()): only
what the table marks playable, the pick bar's chips, Confirm and Sweet Nose's picker are clicked,
never the sentence list.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from parlor.games.sweet_nose.data import KINDS as SWEETS

from .conftest import Server, finish_over_the_api
from .test_browser import DESKTOP, PHONE, Seat

# Keeps the last state frame the page received, for the test to read with the page. The listener is
# added when the socket is made, before the page's own: the page draws a frame after it is kept.
# And notes where each click went.
KEEP_LAST_STATE = """(() => {
  if (!location.protocol.startsWith("http")) return;  // the blank page before the table's
  // The server sends a whole state first and deltas after it (protocol 2): keep the whole state each
  // gives, with the page's own frames.js, so the test reads exactly what the page drew from.
  let applyState = null;
  const pending = [];
  const keep = () => {
    for (const frame of pending.splice(0)) {
      const whole = applyState(window.__lastState || null, frame);
      if (whole) window.__lastState = whole;
    }
  };
  import(new URL("/static/js/frames.js", location.href).href).then((m) => { applyState = m.applyState; keep(); });
  const Native = window.WebSocket;
  // Every move the page sends, with the part of the element the test tapped to send it (two copies
  // of a Mottainai card in different places are different parts: the move must be the tapped one's).
  window.__sent = [];
  window.WebSocket = class extends Native {
    send(data) {
      try {
        const frame = JSON.parse(data);
        if (frame.type === "action") {
          window.__sent.push({ id: String(frame.id), tapped: window.__aim?.getAttribute?.("data-pick") ?? null });
        }
      } catch {
        /* not JSON */
      }
      return super.send(data);
    }
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (m) => {
        try {
          const frame = JSON.parse(m.data);
          if (frame.type === "state") {
            pending.push(frame);
            if (applyState) keep();
          }
        } catch {
          /* not JSON: the page ignores it too */
        }
      });
    }
  };
  // Whether the last click reached the element the test aimed at (SPOT), or its inner parts.
  window.__clicks = { n: 0, hit: false };
  document.addEventListener("click", (ev) => {
    const on = ev.target instanceof Element ? ev.target.closest("[data-act], .card-info") : null;
    window.__clicks = { n: window.__clicks.n + 1, hit: Boolean(on) && on === window.__aim };
  }, true);
})();"""

# The page and its frame in one task. Each card element is named by what it shows: a Mottainai card
# by its id; a Mamma Mia! order by its name, a topping by its kind (one per kind and place); a Sweet
# Nose tile by its id (a face-down one by its level), a sweet by its pile, a sweetness card by its
# owner and sweet. The legal moves come with their parts as the game's renderer names them.
SNAPSHOT = """async ({ file }) => {
  const renderer = (await import(`/static/games/${file}.js`)).default;
  const all = (sel) => Array.from(document.querySelectorAll(sel));
  const attr = (name) => (el) => el.getAttribute(name);
  const frame = window.__lastState || null;
  const body = document.body.dataset;
  // On a phone your hand lies in the dock (#moves), under the table.
  const on = (sel) => all(`:is(.board, #moves) ${sel}`);
  const cards = [
    ...on(".mt-card[data-card]").map((e) => `card:${e.dataset.card}`),
    ...on(".mm-card[data-order]").map((e) => `order:${e.dataset.order}`),
    ...on(".mm-card.topping").map((e) => `topping:${e.dataset.kind}`),
    ...on(".mm-card.mamma").map(() => "mamma"),
    ...on(".sn-tile[data-tile]").map((e) => `tile:${e.dataset.tile}`),
    ...on(".sn-tile.hidden-tile").map((e) => `hidden-tile:${e.querySelector(".lvl").textContent}`),
    ...on(".sweet-chip").map((e) => `sweet:${e.dataset.key}`),
    ...on(".sweetness[data-seat] .sn-card")
      .map((e) => `sweetness:${e.parentElement.dataset.seat}:${e.dataset.key}`),
  ];
  const hand = all("#my-hand [data-card], #my-hand .mm-card.topping, #my-hand .mm-card[data-order]").length;
  return {
    version: body.version,
    frameVersion: frame ? String(frame.version) : null,
    over: body.over === "1",
    view: frame && frame.view,
    legal: (frame ? frame.legal : []).map((e) => ({
      id: String(e.id),
      parts: renderer.parts ? renderer.parts(e.action, frame.view, { you: frame.view.you }) : null,
    })),
    cards,
    playable: all('[data-act="pick"][data-pick]')
      .map((e) => ({ key: e.dataset.pick, picked: e.classList.contains("picked") })),
    chosen: all("#moves .chosen-part").map(attr("data-key")),
    moveIds: all("button.move[data-id]").map(attr("data-id")),
    picker: Boolean(document.getElementById("sweetness-picker")),
    phone: body.layout === "phone",
    hand,
    confirm: all("#moves [data-act='confirm']:not([disabled])").length,
    turnBadges: all(".board .mt-turn").length,
  };
}"""

# Chooses one of the elements `sel` finds (r in [0, 1)), scrolls it into view and picks a point where
# it is the element hit (not something over it, not a card's own text button), as far as can be
# from anything else a tap could be drawn to: a phone's browser moves a tap that lands near a
# button onto that button. The `tries`-th best such point, for a try after a tap went elsewhere.
SPOT = """({ sel, r, tries, blocks }) => {
  const els = Array.from(document.querySelectorAll(sel));
  if (!els.length) return { version: document.body.dataset.version };
  const el = els[Math.floor(r * els.length)];
  window.__aim = el;
  const what = { key: el.getAttribute("data-pick"), html: el.outerHTML.slice(0, 300) };
  const others = Array.from(document.querySelectorAll("[data-act], .card-info"))
    .filter((o) => o !== el && !o.contains(el));
  const gap = (x, y, b) => Math.hypot(Math.max(b.left - x, 0, x - b.right), Math.max(b.top - y, 0, y - b.bottom));
  for (const block of blocks || ["center", "start", "end"]) {
    el.scrollIntoView({ block, inline: "nearest" });
    const box = el.getBoundingClientRect();
    const near = others.map((o) => o.getBoundingClientRect());
    const spots = [];
    for (let i = 1; i < 8; i++) {
      for (let j = 1; j < 8; j++) {
        const x = box.left + (box.width * j) / 8;
        const y = box.top + (box.height * i) / 8;
        const hit = document.elementFromPoint(x, y);
        if (hit && hit.closest("[data-act], .card-info") === el) {
          spots.push({ x, y, room: Math.min(...near.map((b) => gap(x, y, b))) });
        }
      }
    }
    if (spots.length) {
      spots.sort((a, b) => b.room - a.room);
      const { x, y } = spots[tries % spots.length];
      return { ...what, x, y, ignored: document.body.dataset.ignoredClicks || "0", clicks: window.__clicks.n };
    }
  }
  return what;
}"""

# What a click did: a new position (since the test looked), the click guard's refusal (a position
# drawn a moment before), a tap the browser gave to something else ("missed"), or the part joined
# the chosen ones / the picker shows the value.
OUTCOME = """({ version, ignored, clicks, key, value }) => {
  const body = document.body.dataset;
  if (body.version !== version) return "moved";
  if (window.__clicks.n > clicks && !window.__clicks.hit) return "missed";
  if ((body.ignoredClicks || "0") !== ignored) return "ignored";
  const chosen = Array.from(document.querySelectorAll("#moves .chosen-part"), (e) => e.dataset.key);
  if (key !== null && chosen.includes(key)) return "chosen";
  const shown = (row) => document.querySelector(`#sweetness-picker .assign-row[data-kind="${row}"] .value.on`);
  if (value && value.every(([row, v]) => shown(row)?.dataset.value === v)) return "set";
  return null;
}"""

CONFIRM = "#moves [data-act='confirm']:not([disabled])"
# What the page says after a tap that seemed to do nothing.
AFTERMATH = """() => ({ ...document.body.dataset, error: document.querySelector("p.error")?.textContent,
  chosen: Array.from(document.querySelectorAll("#moves .chosen-part"), (e) => e.dataset.key) })"""
# The game is over, or the seat is to move (and no move of its own is on its way).
YOUR_TURN_OR_OVER = "(b => b.over === '1' || (b.yourTurn === '1' && b.pending === '0'))(document.body.dataset)"


# ---------------------------------------------------------------------------- the cards a frame shows
def mottainai_cards(view: dict[str, Any]) -> Counter[str]:
    ids: list[str] = [*view["floor"], *([view["deck_top"]] if view.get("deck_top") else [])]
    decision = view.get("decision") or {}
    ids += decision.get("revealed", []) if decision.get("kind") == "fan" else []
    ids += decision.get("cards", []) if decision.get("kind") == "fan_order" else []
    for p in view["players_info"]:
        # Each hand is drawn once: your own in its box (the cards you showed from it and the hand
        # you ended with are the same cards; so are your waiting area and the one you ended with),
        # another's shown cards until the end shows the whole hand they are in.
        ids += p["hand"] if "hand" in p else p.get("final_hand", p["revealed_in_hand"])
        ids += p["waiting"] if "waiting" in p else p.get("final_waiting", [])
        if p["task"] and not p["task"].get("face_down"):
            ids.append(p["task"]["card"])
        for zone in ("helpers", "craft_bench", "sales", "kite_copies"):
            ids += p.get(zone, [])
        ids += p["works_as"]["gallery"] + p["works_as"]["gift_shop"]
    return Counter(f"card:{c}" for c in ids)


def mamma_mia_cards(view: dict[str, Any]) -> Counter[str]:
    out: Counter[str] = Counter()
    top = view["oven"]["top"] or {}
    name = {"order": f"order:{top.get('order')}", "topping": f"topping:{top.get('kind')}", "mamma_mia": "mamma"}
    if top:
        out[name[top["type"]]] += 1
    if view.get("pending"):
        out[f"order:{view['pending']['order']}"] += 1
    if view.get("opener") is not None:
        out.update(f"topping:{k}" for k, n in (view.get("counter") or {}).items() if n)
    for p in view["players_info"]:
        out.update(f"order:{o}" for o in p["completed"] + p["waiter_known_bottom"])
        if "hand" in p:
            out.update(f"order:{o}" for o in p["hand"]["orders"])
            out.update(f"topping:{k}" for k, n in p["hand"]["toppings"].items() if n)
    return out


def sweet_nose_cards(view: dict[str, Any]) -> Counter[str]:
    out: Counter[str] = Counter(f"tile:{t}" for t in view.get("shop", []))
    out.update(f"hidden-tile:{level}" for level in view.get("shop_levels", []))
    out.update(f"sweet:market:{k}" for k, n in view["market"].items() if n)
    for p in view["players_info"]:
        seat, tile = p["seat"], p["tile"]
        if tile:
            out[f"tile:{tile['id']}" if tile.get("id") else f"hidden-tile:{tile['level']}"] += 1
        out.update(f"sweet:{pile}:{seat}:{k}" for pile in ("tray", "bowl") for k, n in p[pile].items() if n)
        out.update(f"sweetness:{seat}:{k}" for k in SWEETS)
    return out


# game: (its renderer's file, the class of its board, the cards a frame shows)
GAMES: dict[str, tuple[str, str, Callable[[dict[str, Any]], Counter[str]]]] = {
    "mamma-mia": ("mamma_mia", "mm", mamma_mia_cards),
    "sweet-nose": ("sweet_nose", "sn", sweet_nose_cards),
    "mottainai": ("mottainai", "mt", mottainai_cards),
}


# The kinds of move (action types) a seat is offered in about nine random games of ten, at three
# players and at the game's largest table (a simulation of 40 seeded random games of each): a test
# that needs every usual kind of decision clicked through once, not a whole game, plays until all
# were offered. The rarer kinds (a Mottainai card's own effects, Sweet Nose's favours) are clicked
# when they come; the whole games of each game (test_browser.py, test_mottainai_web.py and
# test_phone.py's) meet them too.
USUAL_KINDS = {
    "mamma-mia": {"play_toppings", "play_order", "no_order", "draw", "decline", "choose_joker", "complete_from_hand"},
    "sweet-nose": {"assign_sweetness", "choose_shop", "exchange_with_player", "exchange_with_market", "end_turn"},
    "mottainai": {"choose_task", "no_task", "pray", "return_card", "hire", "refill", "collect", "done", "complete"},
}


def offered(seat: Seat) -> set[str]:
    """The kinds of move (action types) of the decisions the seat has been through: offered in the
    states it received before the one it looks at now (a move of the seat brings a new state)."""
    return {e["action"]["type"] for f in seat.states()[:-1] for e in f.get("legal") or []}


# ---------------------------------------------------------------------------- the checks
def check(snap: dict[str, Any], cards_of: Callable[[dict[str, Any]], Counter[str]]) -> None:
    """The board drawn from the frame has one element per card; what is marked playable fits a legal move."""
    assert snap["view"] is not None and snap["version"] == snap["frameVersion"], snap["version"]
    where = f"version {snap['version']}"
    want, got = cards_of(snap["view"]), Counter(snap["cards"])
    if snap["phone"]:
        # A phone draws the players as chips: their cards wait behind a closed chip (and your own
        # cards are drawn once, in the dock); none is drawn more often than the frame has it.
        assert not got - want, f"{where}: cards drawn too often: {dict(got - want)}"
    else:
        assert got == want, f"{where}: cards drawn too often: {dict(got - want)}; cards missing: {dict(want - got)}"
    moves = [e["parts"] or [f"move:{e['id']}"] for e in snap["legal"]]
    chosen = snap["chosen"]
    fitting = [m for m in moves if all(k in m for k in chosen)]
    assert fitting or not chosen, f"{where}: the chosen parts {chosen} fit no legal move"
    open_parts = {k for m in fitting for k in m if k not in chosen}
    for el in snap["playable"]:
        if el["picked"]:
            assert el["key"] in chosen, f"{where}: {el['key']} is marked chosen but is not among {chosen}"
        else:
            assert el["key"] in open_parts, f"{where}: {el['key']} is marked playable but is part of no legal move left"
    ids = [e["id"] for e in snap["legal"]]
    assert sorted(snap["moveIds"]) == sorted(ids), f"{where}: the sentence list {snap['moveIds']} is not {ids}"
    if snap["over"]:
        assert not snap["turnBadges"], f"{where}: the game is over, but someone's turn is still shown"


def check_sent(snap: dict[str, Any], sent: dict[str, Any]) -> None:
    """The move a tap sent is a legal one holding every part chosen before it and the tapped part:
    the copy of a card tapped plays its own move, never the one of another copy elsewhere."""
    where = f"version {snap['version']}"
    parts = {e["id"]: e["parts"] or [f"move:{e['id']}"] for e in snap["legal"]}
    assert sent["id"] in parts, f"{where}: the page sent move {sent['id']}, not a legal one"
    wanted = set(snap["chosen"]) | ({sent["tapped"]} if sent["tapped"] else set())
    assert wanted <= set(parts[sent["id"]]), (
        f"{where}: tapping {sent['tapped']} (chosen {snap['chosen']}) sent move {sent['id']} "
        f"made of {parts[sent['id']]}"
    )


def press(
    seat: Seat,
    sel: str,
    since: str,
    rng: random.Random,
    touch: bool,
    tries: int = 0,
    value: list[list[str]] | None = None,
    blocks: list[str] | None = None,
) -> str:
    """Taps (or clicks) one element ``sel`` finds, chosen by ``rng``, and waits for what it does:
    "moved" (a position after ``since``, the version the test looked at), "chosen" (its part joined
    the chosen ones), "set" (the picker shows ``value``) or "missed" (the browser gave the tap to
    something else nearby). A tap the click guard refuses (a position drawn a moment before) is made
    again; one that reached the element and did nothing fails the test. ``blocks``: how the element
    may be scrolled into view (["nearest"]: only if it is not in view already)."""
    page = seat.page
    r = rng.random()
    for _ in range(20):
        spot = page.evaluate(SPOT, {"sel": sel, "r": r, "tries": tries, "blocks": blocks})
        if "html" not in spot:
            # Gone: only another seat's move (a new position) may take it away.
            assert spot["version"] != since, f"version {since}: nothing matches {sel}"
            return "moved"
        assert "x" in spot, f"no tap reaches this playable element (something covers it): {spot['html']}"
        if touch:
            page.touchscreen.tap(spot["x"], spot["y"])
        else:
            page.mouse.click(spot["x"], spot["y"])
        args = {"version": since, "ignored": spot["ignored"], "clicks": spot["clicks"], "key": spot["key"]}
        try:
            outcome = page.wait_for_function(OUTCOME, arg={**args, "value": value}, timeout=20000).json_value()
        except Exception as exc:  # Playwright's TimeoutError
            state = page.evaluate(AFTERMATH)
            frames = [f"{f.get('type')}:{f.get('code', f.get('version'))}" for f in seat.frames[-5:]]
            raise AssertionError(
                f"tapping a playable element did nothing ({state}; last frames {frames}): {spot['html']}"
            ) from exc
        if outcome != "ignored":
            return outcome
    raise AssertionError(f"the click guard refused 20 taps in a row on {spot['html']}")


def sweetness(
    seat: Seat, since: str, rng: random.Random, touch: bool, tries: int, blocks: list[str] | None = None
) -> str:
    """Sweet Nose's own picker: one value tapped (it shows), then the placement confirmed (it is played)."""
    page = seat.page
    rows = page.evaluate(
        "Array.from(document.querySelectorAll('#sweetness-picker .assign-row'), (r) => r.dataset.kind)"
    )
    row = rows[rng.randrange(len(rows))]
    value = str(rng.randrange(1, 6))
    sel = f'#sweetness-picker .assign-row[data-kind="{row}"] .value[data-value="{value}"]'
    outcome = press(seat, sel, since, rng, touch, tries, value=[[row, value]], blocks=blocks)
    if outcome != "set":
        return outcome
    return press(seat, "#assign-confirm:not([disabled])", since, rng, touch, tries, blocks=blocks)


def play_checking(
    seat: Seat,
    game: str,
    rng: random.Random,
    touch: bool,
    check_page: Callable[[dict[str, Any]], None] | None = None,
    until: Callable[[], bool] | None = None,
) -> tuple[int, int, int]:
    """Plays the seat's every decision by tapping, checking the table before every tap and at the
    end (and with ``check_page(snapshot)`` too, if given); or, with ``until``, its decisions until
    ``until()`` holds at one (checked, not played). Returns (decisions, taps, taps the browser gave to
    something else). On a phone nothing is scrolled into view: what is playable is in view."""
    file, _, cards_of = GAMES[game]
    page = seat.page
    decided: set[str] = set()
    taps = missed = in_a_row = sent_moves = 0
    while True:
        page.wait_for_function(YOUR_TURN_OR_OVER, timeout=60000)
        snap = page.evaluate(SNAPSHOT, {"file": file})
        check(snap, cards_of)
        if check_page:
            check_page(snap)
        if snap["over"] or (until is not None and until()):
            assert sent_moves or not decided, "the seat decided, but no move it sent was checked"
            return len(decided), taps, missed
        blocks = ["nearest"] if snap["phone"] else None
        decided.add(snap["version"])
        taps += 1
        assert taps < 3000 and in_a_row < 20, f"the game did not end ({taps} taps, {in_a_row} missed in a row)"
        since = snap["version"]
        sent_before = page.evaluate("window.__sent.length")
        parts = [el for el in snap["playable"] if not el["picked"]]
        if snap["picker"]:
            outcome = sweetness(seat, since, rng, touch, in_a_row, blocks)
        elif snap["confirm"] and (not parts or rng.random() < 0.5):
            outcome = press(seat, CONFIRM, since, rng, touch, in_a_row, blocks=blocks)
            assert outcome in ("moved", "missed"), outcome
        else:
            assert parts, f"version {since}: your move, but nothing on the table to tap"
            playable = '[data-act="pick"][data-pick]:not(.picked)'
            outcome = press(seat, playable, since, rng, touch, in_a_row, blocks=blocks)
        in_a_row = in_a_row + 1 if outcome == "missed" else 0
        missed += outcome == "missed"
        for sent in page.evaluate("(n) => window.__sent.slice(n)", sent_before):
            check_sent(snap, sent)
            sent_moves += 1


# On a phone the same games are played, with the same checks, by test_phone.py (every game at its
# largest table, at two phone sizes, one of them whole). Here every usual kind of decision is clicked
# through, then the rest is played over the API (the game was played whole in the browser elsewhere:
# test_browser.py, test_mottainai_web.py) and the end checked on the page opened again.
@pytest.mark.parametrize(
    ("game", "players", "size"),
    [
        ("mamma-mia", 4, "desktop"),
        ("sweet-nose", 4, "desktop"),
        ("mottainai", 6, "desktop"),
    ],
)
def test_one_element_per_card_and_every_playable_element_plays(
    server: Server, browser: Any, game: str, players: int, size: str
) -> None:
    """Playing on the cards: only what the table marks playable is clicked (cards, sweets, the supply,
    tiles, the pick bar's chips), Confirm and Sweet Nose's picker, never the sentence list, with the
    checks above at every step, until every usual kind of decision (USUAL_KINDS) was clicked through.
    Your turn is noticed in a background tab too (the title and the icon say it). Then the seat's page
    is left, the rest of the game is played over the API, and the page opened again shows the end with
    its score breakdown. (What a spectator and the other seats receive of seat 0's hidden cards is
    checked over whole games: test_browser.py, test_mottainai_web.py.)"""
    rng = random.Random(f"{game}-{players}-{size}")
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
    table = server.create(game, players, seats)
    touch = size == "phone"
    seat = Seat(
        browser,
        server.url(table["seats"][0]["join_path"]),
        viewport=PHONE if touch else DESKTOP,
        init_script=KEEP_LAST_STATE,
        touch=touch,
    )

    def turn_noticed(snap: dict[str, Any]) -> None:
        if snap["over"]:
            return
        title, icon = seat.page.evaluate("[document.title, document.querySelector('link[rel=icon]').dataset.state]")
        assert title.startswith("●") and icon == "turn", (snap["version"], title, icon)

    try:
        seat.page.wait_for_selector(f".board.{GAMES[game][1]}")  # the game's own renderer has drawn

        def every_usual_kind() -> bool:
            return USUAL_KINDS[game] <= offered(seat)

        decisions, taps, missed = play_checking(seat, game, rng, touch, check_page=turn_noticed, until=every_usual_kind)
        print(f"{game} {players}p {size}: {decisions} decisions, {taps} taps ({missed} given to a neighbour)")
        assert decisions and taps - missed >= decisions, (decisions, taps, missed)
        assert USUAL_KINDS[game] <= offered(seat) or seat.over(), USUAL_KINDS[game] - offered(seat)
        assert seat.page.locator("#move-list[open]").count() == 0  # the sentence list was never opened
        if not seat.over():
            address = seat.leave()  # the seat's token is in its fragment once the page claimed the seat
            finish_over_the_api(server, table["table"]["id"], [address.split("#token=")[1]])
            seat.open(address)
            play_checking(seat, game, rng, touch)  # the finished table, checked as every step was
        seat.page.wait_for_selector("#result #breakdown")
        assert seat.page.locator("#breakdown tbody tr").count() == players
        if game == "mottainai":
            assert seat.page.locator("#end-reason").inner_text().strip()
        assert not seat.errors, seat.errors
    finally:
        seat.close()


# The cause itself, frame by frame: two siblings under one key (two copies of a Mottainai card).
PATCH_FRAMES = """async (frames) => {
  const { patch } = await import("/static/js/patch.js");
  const { h } = await import("/static/js/dom.js");
  const root = document.createElement("div");
  document.body.append(root);
  const seen = [];
  let before = [];
  for (const cards of frames) {
    patch(root, cards.map(([key, text]) => h("div", { "data-key": key }, text)));
    const now = Array.from(root.children);
    seen.push({
      drawn: now.map((e) => [e.dataset.key, e.textContent]),
      kept: now.filter((e) => before.includes(e)).length,
    });
    before = now;
  }
  root.remove();
  return seen;
}"""


def test_siblings_sharing_a_key_are_patched_one_for_one(server: Server, browser: Any) -> None:
    """patch() with two siblings under one key, frame after frame: the page holds exactly what the
    frame draws (no copy left over), and kept elements stay the same nodes."""
    frames = [
        [["fan", "fan 1"], ["fan", "fan 2"], ["bell", "bell"]],
        [["fan", "fan 1"], ["fan", "fan 2"], ["bell", "bell"]],
        [["bell", "bell"], ["fan", "fan 1"], ["fan", "fan 2"], ["fan", "fan 3"]],
        [["fan", "fan 1"]],
        [["fan", "fan 1"], ["fan", "fan 2"]],
    ]
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.base + "/")
        seen = page.evaluate(PATCH_FRAMES, frames)
        assert [s["drawn"] for s in seen] == frames
        # Every element the next frame still has is the same node (scroll, focus, open texts stay).
        assert [s["kept"] for s in seen] == [0, 3, 3, 1, 1]
    finally:
        context.close()
