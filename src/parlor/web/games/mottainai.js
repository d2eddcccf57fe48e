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
// Cards whose text the reader opened (by card id) stay open while the table changes around them.
// At 4-6 players two decks are shuffled together: two copies of a card may lie on the table, even
// side by side under the same data-key (patch.js matches such siblings in order), and they open
// together.
const openCards = new Set();

function toggleOpen(ev, id) {
  // A card lying in a clickable place (a wing to choose) lets the click choose the place; its ⓘ still opens it.
  const own = ev.currentTarget.classList.contains("card-info");
  if (!own && ev.currentTarget.parentElement && ev.currentTarget.parentElement.closest(".pickable, .picked")) return;
  ev.stopPropagation();
  const card = ev.currentTarget.closest(".mt-card");
  if (openCards.has(id)) openCards.delete(id);
  else openCards.add(id);
  for (const el of document.querySelectorAll(`.mt-card[data-card="${id}"]`)) {
    el.classList.toggle("open", openCards.has(id));
    fitPopovers(el);
  }
  if (card) card.setAttribute("aria-expanded", openCards.has(id) ? "true" : "false");
}

/** One card face: name, material colour, value; the effect on hover, focus or tap (a tap keeps it open). */
function cardFace(ctx, id, opts = {}) {
  const c = info(id);
  const effect = c.effect;
  const open = openCards.has(id);
  return h(
    "div",
    {
      class: `mt-card mat-${c.material}${opts.big ? " big" : ""}${opts.cls ? ` ${opts.cls}` : ""}${open ? " open" : ""}`,
      "data-card": id,
      "data-key": id,
      "data-flip": `mt:${id}`,
      "data-pick": `card:${id}`,
      tabindex: "0",
      "aria-expanded": opts.big ? null : open ? "true" : "false",
      title: `${c.name} — ${mat(ctx, c.material)} ${c.value} · ${role(ctx, ROLE_OF[c.material])}\n${effect}`,
      onclick: (e) => toggleOpen(e, id),
    },
    h("span", { class: "mt-name" }, c.name),
    h("span", { class: "mt-meta" }, h("span", { class: "mt-mat" }, mat(ctx, c.material)), h("b", { class: "mt-val" }, String(c.value))),
    opts.big ? h("span", { class: "mt-role" }, role(ctx, ROLE_OF[c.material])) : null,
    opts.big ? null : h("span", { class: "card-info", role: "button", tabindex: "0", "aria-label": ctx.t("mt.card_text"), onclick: (e) => toggleOpen(e, id) }, "i"),
    h("span", { class: `mt-effect${opts.big ? " shown" : " popover"}` }, effect),
  );
}

function backCard(label, cls = "") {
  return h("div", { class: `mt-card back ${cls}` }, h("span", { class: "mt-name" }, label));
}

function row(ctx, key, content, cls = "", pick = null) {
  return h("div", { class: `mt-row ${cls}`, "data-pick": pick }, h("small", { class: "mt-zone" }, ctx.t(key)), h("div", { class: "mt-cards" }, content));
}

function cardsRow(ctx, key, ids, cls = "", pick = null) {
  return row(ctx, key, ids && ids.length ? ids.map((c) => cardFace(ctx, c)) : h("span", { class: "muted" }, "—"), cls, pick);
}

/** Helpers (or another pile) grouped by material, each group with its role and count. */
function grouped(ctx, key, ids, cls) {
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
        h("div", { class: "mt-cards" }, list.map((c) => cardFace(ctx, c))),
      ),
    ),
    cls,
  );
}

function taskSlot(ctx, p) {
  const t = p.task;
  const pick = `player:${p.seat}`; // taking a player's task, swapping hands, giving by Kite
  if (!t) return row(ctx, "mt.zone.task", h("span", { class: "muted" }, ctx.t("mt.no_task")), "task", pick);
  if (t.face_down) return row(ctx, "mt.zone.task", backCard(ctx.t("mt.face_down"), "start"), "task", pick);
  return row(
    ctx,
    "mt.zone.task",
    [cardFace(ctx, t.card, { cls: "task-card" }), h("span", { class: "mt-task-role" }, role(ctx, t.role)), t.doll ? h("span", { class: "badge" }, "Doll") : null],
    "task",
    pick,
  );
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
  const active = view.active === p.seat;
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
    p.revealed_in_hand && p.revealed_in_hand.length ? cardsRow(ctx, "mt.zone.revealed", p.revealed_in_hand) : null,
    taskSlot(ctx, p),
    grouped(ctx, "mt.zone.helpers", p.helpers, "helpers"),
    grouped(ctx, "mt.zone.craft_bench", p.craft_bench, "bench"),
    grouped(ctx, "mt.zone.sales", p.sales, "sales"),
    cardsRow(ctx, "mt.zone.gallery", p.works_as.gallery, "gallery", me ? "wing:gallery" : null),
    cardsRow(ctx, "mt.zone.gift_shop", p.works_as.gift_shop, "gift-shop", me ? "wing:gift_shop" : null),
    p.kite_copies && p.kite_copies.length ? cardsRow(ctx, "mt.zone.kite", p.kite_copies) : null,
    p.final_hand ? cardsRow(ctx, "mt.zone.final_hand", p.final_hand) : null,
    p.final_waiting ? cardsRow(ctx, "mt.zone.final_waiting", p.final_waiting) : null,
  );
}

function myHand(ctx, p) {
  return h(
    "section",
    { class: "card mt-hand", id: "my-hand" },
    h("h2", {}, ctx.t("mt.your_hand", { n: p.hand.length })),
    h("div", { class: "mt-cards hand" }, p.hand.length ? p.hand.map((c) => cardFace(ctx, c, { big: true })) : h("span", { class: "muted" }, ctx.t("mt.empty"))),
    p.waiting
      ? h("div", { class: "mt-waiting" }, h("h3", {}, ctx.t("mt.your_waiting", { n: p.waiting.length })), h("div", { class: "mt-cards" }, p.waiting.map((c) => cardFace(ctx, c))))
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
    h("div", { class: "mt-cards" }, cards.map((c) => cardFace(ctx, c))),
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
    view.decision
      ? h("span", { class: "step" }, ctx.t("mt.pending", { who: view.to_move.map((s) => ctx.seatName(s)).join(", ") || "—", what: decisionText(ctx, view) }))
      : null,
    view.extra_turns ? h("span", {}, ctx.t("mt.extra_turns", { n: view.extra_turns })) : null,
  );
}

// ---- the module -------------------------------------------------------------------------------
export default {
  renderTable(view, ctx) {
    const me = ctx.you !== null && ctx.you !== undefined ? view.players_info.find((p) => p.seat === ctx.you) : null;
    // Your own temple first, then the others clockwise from your left.
    const order = view.players_info.slice();
    if (me) order.sort((a, b) => ((a.seat - me.seat + view.players) % view.players) - ((b.seat - me.seat + view.players) % view.players));
    return h(
      "div",
      { class: "mt" },
      statusBar(ctx, view),
      h(
        "div",
        { class: "mt-top" },
        h(
          "section",
          { class: "card mt-deck" },
          h("h2", {}, ctx.t("mt.zone.deck")),
          h("div", { class: "mt-cards" }, backCard(String(view.deck_size), "deck"), view.deck_top ? cardFace(ctx, view.deck_top, { cls: "deck-top" }) : null),
          h("p", { class: "muted small" }, ctx.t("mt.deck_n", { n: view.deck_size })),
        ),
        h(
          "section",
          { class: "card mt-floor" },
          h("h2", {}, ctx.t("mt.zone.floor")),
          h("div", { class: "mt-cards" }, view.floor.length ? view.floor.map((c) => cardFace(ctx, c)) : h("span", { class: "muted" }, ctx.t("mt.empty"))),
        ),
      ),
      revealedZone(ctx, view),
      me && me.hand ? myHand(ctx, me) : null,
      h("div", { class: "players mt-players" }, order.map((p) => temple(ctx, view, p))),
      h("p", { class: "muted small legend" }, MATERIALS.map((m) => h("span", { class: `legend-item mt-legend mat-${m}` }, ctx.t("mt.legend_item", { material: mat(ctx, m), role: role(ctx, ROLE_OF[m]) })))),
      h("p", { class: "muted small" }, ctx.t("mt.tap_hint")),
    );
  },

  scoreLabel(ctx) {
    return ctx.t("mt.score_label");
  },

  moveHint(view, ctx) {
    return decisionText(ctx, view);
  },

  // The parts of a move on the table (picks.js): a card wherever it lies, one of your wings, a
  // player's task slot; materials and options become buttons of the pick bar. A card is named by its
  // id alone, so where two copies lie on the table (two decks at 4-6 players, or a Kite's copy) both
  // stand for the move.
  parts(a) {
    const parts = [];
    if (a.card) parts.push(`card:${a.card}`);
    if (a.wing) parts.push(`wing:${a.wing}`);
    if (a.player !== undefined && a.player !== null) parts.push(`player:${a.player}`);
    if (a.material) parts.push(`mat:${a.material}`);
    if (a.type === "pick_option") parts.push(`opt:${a.option}`);
    return parts.length ? parts : null;
  },

  partLabel(key, view, ctx) {
    const [kind, value] = key.split(":");
    if (kind === "card") return cardLabel(ctx, value);
    if (kind === "wing") return wing(ctx, value);
    if (kind === "player") return whoOf(ctx, Number(value));
    if (kind === "mat") return mat(ctx, value);
    if (kind === "opt") return ctx.tMaybe(`mt.act.pick_option.${value}`, value);
    return null;
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
        h("thead", {}, h("tr", {}, h("th", {}, ctx.t("result.player")), cols.map((c) => h("th", {}, ctx.t(`mt.score.${c}`))))),
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
      giver: d.giver !== undefined ? whoOf(ctx, d.giver) : "",
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
    const text = ctx.tMaybe(key, null, p);
    if (text === null) return null;
    return [{ text, cls: `${priv} ${big}`.trim() }];
  },

  pause(ev) {
    return { turn_start: 500, work_completed: 700, game_over: 800, task: 400 }[ev.event] ?? 200;
  },
};
