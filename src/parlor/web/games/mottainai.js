// Mottainai on the page: every player's temple (task slot, helpers, craft bench, sales, Gallery and
// Gift Shop works), the floor, the deck, your hand face up, whose turn, the part of the day and the
// decision on hand. It draws only what the view holds (views.py): other hands and every waiting
// area are counts. The 54 card names and effect texts come in the reader's language from
// i18n/mottainai_cards.<lang>.json (English, from mottainai_cards.js, until they load); materials, roles, zones, phases and all sentences are in
// the catalogs under "mt.".
import { h } from "../js/dom.js";
import { effectNow, loadCardTexts, nameNow } from "../js/card_text.js";
import { currentLang, setCardNamer } from "../js/i18n.js";
import { fitPopovers } from "../js/popover.js";
import { CARDS } from "./mottainai_cards.js";

// The page's language is known before a game module is loaded: have its card texts ready for the
// first drawing (a later language change redraws when they arrive, see card_text.js).
await loadCardTexts(currentLang());

export const MATERIALS = ["paper", "stone", "cloth", "clay", "metal"];
const ROLE_OF = { paper: "clerk", stone: "monk", cloth: "tailor", clay: "potter", metal: "smith" };
const MORNING = new Set(["hand_limit", "morning_effects", "chopsticks", "choose_task", "clear_task", "umbrella", "kite", "kite_copy"]);
const NIGHT = new Set(["night_effects", "pinwheel", "pinwheel_draw"]);

// ---- words ------------------------------------------------------------------------------------
function info(id) {
  const c = CARDS[id];
  // The effect in the reader's language once its texts are loaded (i18n/mottainai_cards.*.json),
  // English until then.
  if (!c) return { name: String(id), material: "", value: "", effect: "" };
  return { name: nameNow(id, currentLang()) || c[0], material: c[1], value: c[2], effect: effectNow(id, currentLang()) || c[3] };
}

// Catalog texts that name a card ("{card:fan}") word it like the table does.
setCardNamer((id) => info(id).name);

function mat(ctx, m) {
  return ctx.tMaybe(`mt.mat.${m}`, m);
}

function role(ctx, r) {
  return ctx.tMaybe(`mt.role.${r}`, r);
}

function wing(ctx, w) {
  return ctx.tMaybe(`mt.zone.${w}`, w);
}

/** "Bowl (clay 3)" in the reader's language. */
export { info as cardInfo, ROLE_OF };

export function cardLabel(ctx, id) {
  if (!id) return "?";
  const c = info(id);
  return ctx.t("mt.card_label", { name: c.name, material: mat(ctx, c.material), value: c.value });
}

function cardsText(ctx, ids) {
  return ids && ids.length ? ids.map((c) => cardLabel(ctx, c)).join(", ") : "—";
}

function whoOf(ctx, seat, object = false) {
  if (seat === null || seat === undefined) return ctx.t("mt.someone");
  return ctx.seatName(seat, object ? { object: true } : {});
}

export function partOfDay(decision) {
  if (!decision) return null;
  if (MORNING.has(decision.kind)) return "morning";
  if (NIGHT.has(decision.kind)) return "night";
  return "noon";
}

function decisionText(ctx, view) {
  const d = view.decision;
  if (!d) return "";
  if (d.kind === "action") {
    if (d.pin) return ctx.t("mt.dec.pin");
    if (d.owner === ctx.you) return ctx.t("mt.dec.action_own", { role: role(ctx, d.role), n: d.actions_left });
    return ctx.t("mt.dec.action", { role: role(ctx, d.role), owner: whoOf(ctx, d.owner), n: d.actions_left });
  }
  const params = {
    role: d.role ? role(ctx, d.role) : "",
    material: d.material ? mat(ctx, d.material) : "",
    card: d.effect ? info(d.effect).name : d.work ? info(d.work).name : "",
    cards: (d.revealed || d.cards || []).map((c) => info(c).name).join(", "),
    who: d.player !== undefined ? whoOf(ctx, d.player) : d.owner !== undefined ? whoOf(ctx, d.owner) : "",
    n: d.remaining ?? "",
  };
  return ctx.tMaybe(`mt.dec.${d.kind}`, ctx.t("mt.dec.other"), params);
}

// ---- pictures ---------------------------------------------------------------------------------
// Every card face names the place it lies in (its zone): "hand", "floor", "deck", "revealed" (a
// Fan's cards), "waiting", or a player's "task.<seat>", "helpers.<seat>", "bench.<seat>",
// "sales.<seat>", "gallery.<seat>", "gift_shop.<seat>", "kite.<seat>", "known.<seat>" (shown from
// their hand), "final.<seat>", "final_waiting.<seat>". Its part is "card:<zone>:<id>", and a move's
// parts name the zone its card is taken from (parts() below): at 4-6 players two decks are shuffled
// together, so two copies of a card may lie on the table, and only the copy in the move's place
// plays it.

// Cards whose text the reader opened stay open while the table changes around them, and as the
// card moves from place to place. A card is remembered by its id and which copy of it this is on
// the table, counted in the order the table is drawn (copies: Map id -> copies drawn so far, reset
// by each drawing): opening one of two copies opens only it.
const openCards = new Set();
let copies = new Map();

function toggleOpen(ev, key) {
  // A card lying in a clickable place (a wing to choose) lets the click choose the place; its ⓘ still opens it.
  const own = ev.currentTarget.classList.contains("card-info");
  if (!own && ev.currentTarget.parentElement && ev.currentTarget.parentElement.closest(".pickable, .picked")) return;
  ev.stopPropagation();
  if (openCards.has(key)) openCards.delete(key);
  else openCards.add(key);
  for (const el of document.querySelectorAll(".mt-card[data-open-key]")) {
    if (el.getAttribute("data-open-key") !== key) continue;
    el.classList.toggle("open", openCards.has(key));
    el.setAttribute("aria-expanded", openCards.has(key) ? "true" : "false");
    fitPopovers(el);
  }
}

/** A card's title line: "Fan — paper 1 · Clerk". */
function cardTitle(ctx, id) {
  const c = info(id);
  return `${c.name} — ${mat(ctx, c.material)} ${c.value} · ${role(ctx, ROLE_OF[c.material])}`;
}

/**
 * One card face: name, material colour, value; the effect on hover, focus or tap (a tap keeps it
 * open). opts: {zone, big, cls}. On a phone the face is
 * smaller and has no ⓘ: a tap (on a card that plays nothing) or a long press opens its text in the
 * sheet (js/phone.js).
 */
function cardFace(ctx, id, opts = {}) {
  const c = info(id);
  const effect = c.effect;
  const zone = opts.zone || "table";
  const copy = copies.get(id) || 0;
  copies.set(id, copy + 1);
  const openKey = `${id}|${copy}`;
  const title = cardTitle(ctx, id);
  if (ctx.phone) {
    return h(
      "div",
      {
        class: `mt-card mat-${c.material}${opts.big ? " hand-card" : ""}${opts.cls ? ` ${opts.cls}` : ""}`,
        "data-card": id,
        "data-key": id,
        "data-flip": `mt:${id}`,
        "data-pick": `card:${zone}:${id}`,
        "data-info": title,
      },
      h("span", { class: "mt-name" }, c.name),
      h("span", { class: "mt-meta" }, h("span", { class: "mt-mat" }, mat(ctx, c.material)), h("b", { class: "mt-val" }, String(c.value))),
      h("span", { class: "info-text", hidden: true }, effect),
    );
  }
  const open = openCards.has(openKey);
  return h(
    "div",
    {
      class: `mt-card mat-${c.material}${opts.big ? " big" : ""}${opts.cls ? ` ${opts.cls}` : ""}${open ? " open" : ""}`,
      "data-card": id,
      "data-key": id,
      "data-flip": `mt:${id}`,
      "data-pick": `card:${zone}:${id}`,
      "data-open-key": opts.big ? null : openKey,
      tabindex: "0",
      "aria-expanded": opts.big ? null : open ? "true" : "false",
      title: `${title}\n${effect}`,
      onclick: (e) => toggleOpen(e, openKey),
    },
    h("span", { class: "mt-name" }, c.name),
    h("span", { class: "mt-meta" }, h("span", { class: "mt-mat" }, mat(ctx, c.material)), h("b", { class: "mt-val" }, String(c.value))),
    opts.big ? h("span", { class: "mt-role" }, role(ctx, ROLE_OF[c.material])) : null,
    opts.big ? null : h("span", { class: "card-info", role: "button", tabindex: "0", "aria-label": ctx.t("mt.card_text"), onclick: (e) => toggleOpen(e, openKey) }, "i"),
    h("span", { class: `mt-effect${opts.big ? " shown" : " popover"}` }, effect),
  );
}

/** The faces of the cards of one zone. */
function faces(ctx, ids, zone, opts = {}) {
  return ids.map((c) => cardFace(ctx, c, { ...opts, zone }));
}

function backCard(label, cls = "") {
  return h("div", { class: `mt-card back ${cls}` }, h("span", { class: "mt-name" }, label));
}

function row(ctx, key, content, cls = "", pick = null) {
  return h("div", { class: `mt-row ${cls}`, "data-pick": pick }, h("small", { class: "mt-zone" }, ctx.t(key)), h("div", { class: "mt-cards" }, content));
}

function cardsRow(ctx, key, ids, zone, cls = "", pick = null) {
  return row(ctx, key, ids && ids.length ? faces(ctx, ids, zone) : h("span", { class: "muted" }, "—"), cls, pick);
}

/** Helpers (or another pile) grouped by material, each group with its role and count. */
function grouped(ctx, key, ids, zone, cls) {
  if (!ids || !ids.length) return row(ctx, key, h("span", { class: "muted" }, "—"), cls);
  const groups = MATERIALS.map((m) => [m, ids.filter((c) => info(c).material === m)]).filter(([, list]) => list.length);
  return row(
    ctx,
    key,
    groups.map(([m, list]) =>
      h(
        "div",
        { class: `mt-group mat-${m}`, "data-material": m },
        h("small", { class: "mt-group-head" }, ctx.t("mt.group_head", { material: mat(ctx, m), role: role(ctx, ROLE_OF[m]), n: list.length })),
        h("div", { class: "mt-cards" }, faces(ctx, list, zone)),
      ),
    ),
    cls,
  );
}

function taskSlot(ctx, p) {
  const t = p.task;
  // Taking a player's task, swapping hands, giving by Kite: on a phone these are buttons of the
  // dock (the players are chips there).
  const pick = ctx.phone ? null : `player:${p.seat}`;
  if (!t) return row(ctx, "mt.zone.task", h("span", { class: "muted" }, ctx.t("mt.no_task")), "task", pick);
  if (t.face_down) return row(ctx, "mt.zone.task", backCard(ctx.t("mt.face_down"), "start"), "task", pick);
  return row(
    ctx,
    "mt.zone.task",
    // The badge names the Doll card in the reader's language: the task was taken with it.
    [cardFace(ctx, t.card, { cls: "task-card", zone: `task.${p.seat}` }), h("span", { class: "mt-task-role" }, role(ctx, t.role)), t.doll ? h("span", { class: "badge doll-badge" }, info("doll").name) : null],
    "task",
    pick,
  );
}

/**
 * A player's zones, as rows; `only` (a set of zone names) keeps those rows alone. On a phone the
 * zones in `docked` are drawn in the dock instead (dockPicks): their row here says so.
 */
function templeRows(ctx, view, p, only = null, docked = null) {
  const me = p.seat === ctx.you;
  const z = (name) => `${name}.${p.seat}`;
  // Every card is drawn once: your hand (and your waiting area when you may look at it) has its
  // own box (the dock on a phone), where the cards you showed are marked; your temple leaves them
  // out, and so the hand the game ended with. At the end a hand is shown whole, its shown cards in it.
  const dropHand = me && Array.isArray(p.hand);
  const dropShown = dropHand || Array.isArray(p.final_hand);
  const dropWaiting = me && Array.isArray(p.waiting);
  const wing = (name) => (me && !ctx.phone ? `wing:${name}` : null);
  const rows = [
    ["known", () => (!dropShown && p.revealed_in_hand && p.revealed_in_hand.length ? cardsRow(ctx, "mt.zone.revealed", p.revealed_in_hand, z("known")) : null)],
    ["task", () => taskSlot(ctx, p)],
    ["helpers", () => grouped(ctx, "mt.zone.helpers", p.helpers, z("helpers"), "helpers")],
    ["bench", () => grouped(ctx, "mt.zone.craft_bench", p.craft_bench, z("bench"), "bench")],
    ["sales", () => grouped(ctx, "mt.zone.sales", p.sales, z("sales"), "sales")],
    ["gallery", () => cardsRow(ctx, "mt.zone.gallery", p.works_as.gallery, z("gallery"), "gallery", wing("gallery"))],
    ["gift_shop", () => cardsRow(ctx, "mt.zone.gift_shop", p.works_as.gift_shop, z("gift_shop"), "gift-shop", wing("gift_shop"))],
    ["kite", () => (p.kite_copies && p.kite_copies.length ? cardsRow(ctx, "mt.zone.kite", p.kite_copies, z("kite")) : null)],
    ["final", () => (!dropHand && p.final_hand ? cardsRow(ctx, "mt.zone.final_hand", p.final_hand, z("final")) : null)],
    ["final_waiting", () => (!dropWaiting && p.final_waiting ? cardsRow(ctx, "mt.zone.final_waiting", p.final_waiting, z("final_waiting")) : null)],
  ];
  return rows.map(([name, draw]) => {
    if (only && !only.has(name)) return null;
    if (docked && docked.has(name)) return row(ctx, LIVE_ZONES[name].key, h("span", { class: "muted" }, ctx.t("mt.in_dock")), "docked");
    return draw();
  });
}

// Team play: partners sit opposite and add their totals; every temple says whose partner it is.
function partnerBadge(ctx, view, seat) {
  if (!view.partners) return null;
  const mate = view.partners[seat];
  const text = mate === ctx.you ? ctx.t("mt.partner_yours") : ctx.t("mt.partner_of", { who: ctx.seatName(mate) });
  return h("span", { class: "badge mt-partner", "data-partner": mate }, text);
}

function temple(ctx, view, p) {
  const me = p.seat === ctx.you;
  // A finished game has no player whose turn it is.
  const active = view.active === p.seat && !view.over;
  const moving = view.to_move.includes(p.seat);
  const hand = ctx.t("mt.hand_n", { n: p.hand_size });
  return h(
    "section",
    { class: `card player mt-temple${me ? " me" : ""}${moving ? " moving" : ""}${active ? " active" : ""}`, "data-seat": p.seat },
    h(
      "h3",
      {},
      ctx.seatName(p.seat),
      active ? h("span", { class: "badge mt-turn" }, ctx.t("mt.their_turn")) : null,
      view.start_player === p.seat ? h("span", { class: "badge mt-start" }, ctx.t("mt.start_player")) : null,
      partnerBadge(ctx, view, p.seat),
      h("small", { class: "mt-counts muted" }, hand, " · ", ctx.t("mt.waiting_n", { n: p.waiting_size })),
    ),
    templeRows(ctx, view, p),
  );
}

/** Your hand's cards, those the others have seen (shown from your hand) marked so, copy by copy. */
function handFaces(ctx, p) {
  const shown = new Map();
  for (const id of p.revealed_in_hand || []) shown.set(id, (shown.get(id) || 0) + 1);
  const label = ctx.t("mt.shown_mark");
  return faces(ctx, p.hand, "hand", { big: true }).map((el) => {
    const id = el.getAttribute("data-card");
    if (!shown.get(id)) return el;
    shown.set(id, shown.get(id) - 1);
    el.classList.add("shown-card");
    // On a phone the card's edge says it (the words are for screen readers: the dock has no room).
    const mark = h("span", { class: `shown-mark${ctx.phone ? " sr-only" : ""}`, title: ctx.t("mt.zone.revealed") }, label);
    const role = el.querySelector(".mt-role");
    if (role) role.after(mark);
    else el.append(mark);
    return el;
  });
}

function myHand(ctx, p) {
  if (ctx.phone) {
    // The dock's row: your hand, then your waiting area when you may look at it.
    const cards = handFaces(ctx, p);
    return h(
      "section",
      { class: "mt-hand hand-dock", id: "my-hand", "aria-label": ctx.t("mt.your_hand", { n: p.hand.length }) },
      h(
        "div",
        { class: "hand-row", "data-flip-frame": "" },
        p.hand.length ? cards : h("span", { class: "muted" }, ctx.t("mt.empty")),
        p.waiting && p.waiting.length ? [h("small", { class: "row-label" }, ctx.t("mt.your_waiting", { n: p.waiting.length })), faces(ctx, p.waiting, "waiting")] : null,
      ),
    );
  }
  return h(
    "section",
    { class: "card mt-hand", id: "my-hand" },
    h("h2", {}, ctx.t("mt.your_hand", { n: p.hand.length })),
    h("div", { class: "mt-cards hand" }, p.hand.length ? handFaces(ctx, p) : h("span", { class: "muted" }, ctx.t("mt.empty"))),
    p.waiting
      ? h("div", { class: "mt-waiting" }, h("h3", {}, ctx.t("mt.your_waiting", { n: p.waiting.length })), h("div", { class: "mt-cards" }, faces(ctx, p.waiting, "waiting")))
      : null,
  );
}

// Cards a decision turns face up for everyone (Fan's three from the deck, then the order of the
// two going under it) lie on the table, where the player picks them like any other card.
function revealedZone(ctx, view) {
  const d = view.decision;
  const cards = d && (d.kind === "fan" ? d.revealed : d.kind === "fan_order" ? d.cards : null);
  if (!cards || !cards.length) return null;
  return h(
    "section",
    { class: "card mt-revealed", id: "revealed", "data-key": "revealed" },
    h("h2", {}, decisionText(ctx, view)),
    h("div", { class: "mt-cards" }, faces(ctx, cards, "revealed")),
  );
}

function statusBar(ctx, view) {
  const part = partOfDay(view.decision);
  const who = ctx.seatName(view.active);
  return h(
    "div",
    { class: "card info-bar mt-status" },
    h("span", { class: "round" }, ctx.t("mt.turn", { n: view.turn, who })),
    part ? h("span", { class: `mt-part part-${part}`, "data-part": part }, ctx.t(`mt.part.${part}`)) : null,
    view.decision && !ctx.phone
      ? h("span", { class: "step" }, ctx.t("mt.pending", { who: view.to_move.map((s) => ctx.seatName(s)).join(", ") || "—", what: decisionText(ctx, view) }))
      : null,
    view.decision && ctx.phone && !view.to_move.includes(ctx.you)
      ? h("span", { class: "step" }, decisionText(ctx, view))
      : null,
    view.extra_turns ? h("span", {}, ctx.t("mt.extra_turns", { n: view.extra_turns })) : null,
  );
}

function deckAndFloor(ctx, view) {
  return [
    h(
      "section",
      { class: "card mt-deck" },
      h("h2", {}, ctx.t("mt.zone.deck")),
      h("div", { class: "mt-cards" }, backCard(String(view.deck_size), "deck"), view.deck_top ? cardFace(ctx, view.deck_top, { cls: "deck-top", zone: "deck" }) : null),
      ctx.phone ? null : h("p", { class: "muted small" }, ctx.t("mt.deck_n", { n: view.deck_size })),
    ),
    h(
      "section",
      { class: "card mt-floor" },
      h("h2", {}, ctx.t("mt.zone.floor")),
      h("div", { class: "mt-cards" }, view.floor.length ? faces(ctx, view.floor, "floor") : h("span", { class: "muted" }, ctx.t("mt.empty"))),
    ),
  ];
}

// The zones of a player that may hold a card to pick: their cards, and the words naming them.
const LIVE_ZONES = {
  known: { key: "mt.zone.revealed", cards: (p) => p.revealed_in_hand },
  task: { key: "mt.zone.task", cards: (p) => (p.task && p.task.card ? [p.task.card] : []) },
  helpers: { key: "mt.zone.helpers", cards: (p) => p.helpers },
  bench: { key: "mt.zone.craft_bench", cards: (p) => p.craft_bench },
  sales: { key: "mt.zone.sales", cards: (p) => p.sales },
  gallery: { key: "mt.zone.gallery", cards: (p) => p.works_as.gallery },
  gift_shop: { key: "mt.zone.gift_shop", cards: (p) => p.works_as.gift_shop },
  kite: { key: "mt.zone.kite", cards: (p) => p.kite_copies },
};

/** The zones of seat p holding something playable now (a part on offer or chosen). */
function liveZones(ctx, p) {
  const out = new Set();
  if (!ctx.live) return out;
  for (const [name, zone] of Object.entries(LIVE_ZONES)) {
    if ((zone.cards(p) || []).some((id) => ctx.live(`card:${name}.${p.seat}:${id}`))) out.add(name);
  }
  return out;
}

/** On a phone, the zones of another player whose cards are drawn in the dock (dockPicks). */
function dockedZones(ctx, p) {
  return ctx.phone && p.seat !== ctx.you ? liveZones(ctx, p) : new Set();
}

/**
 * On a phone: the other players' cards the decision lets you pick (their paper works for a Flute,
 * their helpers or craft bench for a Sword, their sales for a Ring...), whole zones, in a row of
 * the dock above your hand, beside Confirm. A table of six has no room above the dock to open so
 * many players' areas at once; the dock always has room for one more row you can swipe.
 */
function dockPicks(ctx, view) {
  if (!ctx.phone || !ctx.live || ctx.you === null || ctx.you === undefined) return null;
  const n = view.players;
  const others = view.players_info.filter((p) => p.seat !== ctx.you).sort((a, b) => ((a.seat - ctx.you + n) % n) - ((b.seat - ctx.you + n) % n));
  const groups = [];
  for (const p of others) {
    for (const name of dockedZones(ctx, p)) {
      const zone = LIVE_ZONES[name];
      groups.push(
        h(
          "div",
          { class: "dock-group", "data-key": `${name}.${p.seat}`, "data-seat": p.seat },
          h("small", { class: "row-label" }, ctx.t("mt.dock_from", { who: ctx.seatName(p.seat), zone: ctx.t(zone.key) })),
          h("div", { class: "dock-cards" }, faces(ctx, zone.cards(p), `${name}.${p.seat}`)),
        ),
      );
    }
  }
  if (!groups.length) return null;
  return h("section", { class: "hand-dock dock-picks", id: "dock-picks", "data-key": "dock-picks", "aria-label": ctx.t("mt.dock_picks") }, h("div", { class: "hand-row", "data-flip-frame": "" }, groups));
}

// ---- where a move's card lies ------------------------------------------------------------------
// The zone each kind of move takes its card from (views.py names them in every seat's view).
const FROM_HAND = new Set(["return_card", "discard_to_floor", "choose_task", "reveal", "complete", "craft", "free_complete", "kite_give"]);
const FROM_OWN = { task_from_helper: "helpers", sell: "bench", send_paper: "bench" };
const FROM_FLOOR = new Set(["hire", "collect"]);
const FROM_THEIRS = { take_helper: "helpers", take_material: "bench", take_sale: "sales" };
// A card picked for an effect lies where the effect takes it from.
const PICKED_FROM = { umbrella: "helpers", amulet: "bench", pinwheel: "hand", fan: "revealed", fan_order: "revealed", take_floor: "floor", floor_return: "floor" };

/** The wing (or Kite copies) of seat p that holds work `id`: its zone there. */
function workZone(view, p, id) {
  const info = view.players_info.find((x) => x.seat === p);
  if (!info) return null;
  if ((info.gallery || []).includes(id)) return `gallery.${p}`;
  if ((info.gift_shop || []).includes(id)) return `gift_shop.${p}`;
  if ((info.kite_copies || []).includes(id)) return `kite.${p}`;
  if (info.works_as.gallery.includes(id)) return `gallery.${p}`;
  if (info.works_as.gift_shop.includes(id)) return `gift_shop.${p}`;
  return null;
}

/** The zone of the card a move names, or null (then the part is a button of the move panel). */
function zoneOf(a, view, me) {
  if (FROM_HAND.has(a.type)) return "hand";
  if (FROM_FLOOR.has(a.type)) return "floor";
  if (FROM_OWN[a.type]) return `${FROM_OWN[a.type]}.${me}`;
  if (FROM_THEIRS[a.type]) return `${FROM_THEIRS[a.type]}.${a.player}`;
  if (a.type === "take_work") return `${a.wing}.${a.player}`;
  if (a.type === "move_work") return `${a.wing}.${me}`;
  if (a.type === "use_effect") return workZone(view, me, a.card);
  if (a.type === "kite_copy") return workZone(view, view.decision ? view.decision.player : me, a.card);
  if (a.type === "pick_card") {
    const from = view.decision && PICKED_FROM[view.decision.kind];
    if (!from) return null;
    return ["hand", "floor", "revealed"].includes(from) ? from : `${from}.${me}`;
  }
  return null;
}

/** A column of the score breakdown: its name, in a short form on a phone (the whole name its title),
 * so that six columns fit a phone's width with no word cut in two. */
function scoreHead(ctx, col) {
  const full = ctx.t(`mt.score.${col}`);
  const short = ctx.t(`mt.score_short.${col}`);
  return ctx.phone && short !== full ? h("abbr", { title: full }, short) : full;
}

// Events about another player's things, with the field naming that player: worded for the reader
// when it is theirs (mt.ev.<event>_you).
const YOURS = { work_taken: "owner", take_sale: "owner", kite_give: "to", jar: "giver" };

// ---- the module -------------------------------------------------------------------------------
export default {
  renderTable(view, ctx) {
    copies = new Map();
    const me = ctx.you !== null && ctx.you !== undefined ? view.players_info.find((p) => p.seat === ctx.you) : null;
    if (ctx.phone) {
      // The phone's table: the players as chips, the deck and the floor, a Fan's cards; your hand
      // goes to the dock (table.js).
      return h(
        "div",
        { class: "mt mt-phone" },
        statusBar(ctx, view),
        ctx.playerChips ? ctx.playerChips() : null,
        h("div", { class: "mt-top" }, deckAndFloor(ctx, view)),
        revealedZone(ctx, view),
        dockPicks(ctx, view),
        me && me.hand ? myHand(ctx, me) : null,
      );
    }
    // Your own temple first, then the others clockwise from your left.
    const order = view.players_info.slice();
    if (me) order.sort((a, b) => ((a.seat - me.seat + view.players) % view.players) - ((b.seat - me.seat + view.players) % view.players));
    return h(
      "div",
      { class: "mt" },
      statusBar(ctx, view),
      h("div", { class: "mt-top" }, deckAndFloor(ctx, view)),
      revealedZone(ctx, view),
      me && me.hand ? myHand(ctx, me) : null,
      h("div", { class: "players mt-players" }, order.map((p) => temple(ctx, view, p))),
      h("p", { class: "muted small legend" }, MATERIALS.map((m) => h("span", { class: `legend-item mt-legend mat-${m}` }, ctx.t("mt.legend_item", { material: mat(ctx, m), role: role(ctx, ROLE_OF[m]) })))),
      h("p", { class: "muted small" }, ctx.t("mt.tap_hint")),
    );
  },

  // ---- the phone's player chips (js/phone.js)
  seatSummary(seat, view, ctx) {
    const p = view.players_info.find((x) => x.seat === seat);
    if (!p) return null;
    const task = p.task ? (p.task.face_down ? ctx.t("mt.face_down") : role(ctx, p.task.role)) : ctx.t("mt.no_task");
    const works = p.works_as.gallery.length + p.works_as.gift_shop.length;
    return [
      h("span", { class: "sum-task" }, task),
      h("span", { class: "sum-counts" }, ctx.t("mt.chip_counts", { hand: p.hand_size, works })),
      partnerBadge(ctx, view, seat),
      view.active === seat && !view.over ? h("span", { class: "badge mt-turn" }, ctx.t("mt.their_turn")) : null,
    ];
  },

  // Your own playable things under your chip; another player's are in the dock (dockPicks).
  seatLive(seat, view, ctx) {
    const p = view.players_info.find((x) => x.seat === seat);
    const zones = p && seat === ctx.you ? liveZones(ctx, p) : new Set();
    return zones.size ? h("div", { class: "mt-live" }, templeRows(ctx, view, p, zones)) : null;
  },

  seatDetails(seat, view, ctx) {
    const p = view.players_info.find((x) => x.seat === seat);
    return p ? h("div", { class: "mt-temple-rows" }, templeRows(ctx, view, p, null, dockedZones(ctx, p))) : null;
  },

  scoreLabel(ctx) {
    return ctx.t("mt.score_label");
  },

  moveHint(view, ctx) {
    return decisionText(ctx, view);
  },

  // The parts of a move on the table (picks.js): a card in the place the move takes it from, one of
  // your wings, a player's task slot; materials and options become buttons of the pick bar.
  parts(a, view, ctx) {
    const me = view && view.you !== undefined && view.you !== null ? view.you : ctx.you;
    const parts = [];
    if (a.card) parts.push(`card:${zoneOf(a, view, me) || "any"}:${a.card}`);
    // A work moved by Plane leaves the wing its card lies in: the card says it.
    if (a.wing && a.type !== "move_work" && a.type !== "take_work") parts.push(`wing:${a.wing}`);
    if (a.player !== undefined && a.player !== null && !FROM_THEIRS[a.type] && a.type !== "take_work") parts.push(`player:${a.player}`);
    if (a.material) parts.push(`mat:${a.material}`);
    if (a.type === "pick_option") parts.push(`opt:${a.option}`);
    return parts.length ? parts : null;
  },

  partLabel(key, view, ctx) {
    const [kind, value, id] = key.split(":");
    if (kind === "card") return cardLabel(ctx, id);
    if (kind === "wing") return wing(ctx, value);
    if (kind === "player") return whoOf(ctx, Number(value));
    if (kind === "mat") return mat(ctx, value);
    if (kind === "opt") return ctx.tMaybe(`mt.act.pick_option.${value}`, value);
    return null;
  },

  // Equal totals go to the player whose turn it was at the end, then on clockwise (the tie_breaker
  // option's default): the end screen says so when that decided the winner (not Turtle's win, which
  // the end reason tells, nor a shared win).
  resultNote(result, ctx) {
    if (result.abandoned || !result.winners.length) return null;
    const best = Math.max(...result.winners.map((w) => result.scores[w]));
    if (result.winners.some((w) => result.scores[w] !== best) || best !== Math.max(...result.scores)) return null;
    const beaten = result.scores.some((score, seat) => score === best && !result.winners.includes(seat));
    if (!beaten) return null;
    return ctx.t("mt.tiebreak_won", { n: best, who: result.winners.map((w) => ctx.seatName(w)).join(", ") });
  },

  // The end screen: works, sales, backorders and bonuses per player, and why the game ended.
  resultDetails(view, log, ctx) {
    if (!view.scores) return null;
    const cols = ["works", "sales", "backorders", "bonus", "total"];
    const why = view.end_reason ? ctx.tMaybe(`mt.end.${view.end_reason}`, ctx.tMaybe(`mt.why.${view.end_reason}`, view.end_reason), { who: whoOf(ctx, view.turtle_winner) }) : "";
    return h(
      "div",
      { class: "breakdown-box" },
      why ? h("p", { class: "end-reason", id: "end-reason" }, why) : null,
      h(
        "table",
        { class: "breakdown", id: "breakdown" },
        h("caption", {}, ctx.t("mt.breakdown")),
        h("thead", {}, h("tr", {}, h("th", {}, ctx.t("result.player")), cols.map((c) => h("th", {}, scoreHead(ctx, c))))),
        h(
          "tbody",
          {},
          view.scores.map((sc, seat) => h("tr", {}, h("td", {}, ctx.seatName(seat)), cols.map((c) => h("td", {}, c === "total" ? h("b", {}, String(sc[c])) : String(sc[c]))))),
        ),
      ),
    );
  },

  actionText(a, view, ctx) {
    const p = {
      card: a.card ? cardLabel(ctx, a.card) : "",
      name: a.card ? info(a.card).name : "",
      effect: a.card ? info(a.card).effect : "",
      role: a.card ? role(ctx, ROLE_OF[info(a.card).material]) : "",
      who: a.player !== undefined ? whoOf(ctx, a.player, true) : "",
      wing: a.wing ? wing(ctx, a.wing) : "",
      material: a.material ? mat(ctx, a.material) : "",
    };
    if (a.type === "pick_option") return ctx.tMaybe(`mt.act.pick_option.${a.option}`, a.option);
    if (a.type === "kite_give" && a.player === ctx.you) return ctx.t("mt.act.kite_give_you", p);
    const text = ctx.tMaybe(`mt.act.${a.type}`, null, p);
    return text;
  },

  eventLines(ev, ctx) {
    const d = ev.data || {};
    const p = {
      who: whoOf(ctx, d.seat),
      card: typeof d.card === "string" ? cardLabel(ctx, d.card) : "",
      name: typeof d.card === "string" ? info(d.card).name : "",
      cards: Array.isArray(d.cards) ? cardsText(ctx, d.cards) : Array.isArray(d.hand) ? cardsText(ctx, d.hand) : "",
      role: d.role ? role(ctx, d.role) : "",
      owner: d.owner !== undefined ? whoOf(ctx, d.owner, true) : "",
      target: d.target !== undefined ? whoOf(ctx, d.target, true) : typeof d.to === "number" ? whoOf(ctx, d.to, true) : "",
      giver: d.giver !== undefined ? whoOf(ctx, d.giver, true) : "",
      wing: typeof d.wing === "string" ? wing(ctx, d.wing) : typeof d.to === "string" ? ctx.tMaybe(`mt.to.${d.to}`, d.to) : "",
      material: d.material ? mat(ctx, d.material) : "",
      n: d.count ?? d.actions ?? d.deck_size ?? d.turn ?? d.gave ?? "",
      m: d.received ?? "",
      reason: d.reason ? ctx.tMaybe(`mt.why.${d.reason}`, d.reason) : "",
    };
    const priv = ev.visible_to ? "private" : "";
    const big = ["turn_start", "game_over", "work_completed", "extra_turn"].includes(ev.event) ? "big" : "";
    let key = `mt.ev.${ev.event}`;
    if (ev.event === "handkerchief" && !d.card) key = "mt.ev.handkerchief_none";
    if (ev.event === "perform_task" && d.owner === d.seat) key = "mt.ev.perform_own_task";
    else if (ev.event === "perform_task" && d.owner === ctx.you) key = "mt.ev.perform_your_task";
    // Your work, your sale, your craft bench, from you: said in the second person (a language that
    // declines names cannot put "you" where a name goes).
    else if (YOURS[ev.event] && d[YOURS[ev.event]] === ctx.you && ctx.you !== null && ctx.you !== undefined) key = `mt.ev.${ev.event}_you`;
    const text = ctx.tMaybe(key, null, p);
    if (text === null) return null;
    return [{ text, cls: `${priv} ${big}`.trim() }];
  },

  pause(ev) {
    return { turn_start: 500, work_completed: 700, game_over: 800, task: 400 }[ev.event] ?? 200;
  },
};
