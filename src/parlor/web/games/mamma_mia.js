// Mamma Mia! on the page: topping and order cards drawn in SVG/CSS, the oven (top card and
// height only), the phase 2 counter revealed step by step, your hand, everyone's counts and orders.
import { h, svg } from "../js/dom.js";

export const KINDS = ["salami", "pineapple", "mushroom", "pepper", "olive"];
const DECK_OWN = { red: "salami", yellow: "pineapple", green: "pepper", brown: "mushroom", purple: "olive" };
const HAND_LIMIT = 7;

// ---- words ------------------------------------------------------------------------------------
function top(ctx, kind) {
  return ctx.tMaybe(`mm.top.${kind}`, kind);
}

function counts(ctx, map, empty) {
  const parts = KINDS.filter((k) => map && map[k]).map((k) => ctx.t("mm.n_of", { n: map[k], what: top(ctx, k) }));
  if (map && map.any) parts.push(ctx.t("mm.any_n", { n: map.any }));
  return parts.length ? parts.join(", ") : empty ?? ctx.t("mm.nothing");
}

function deckOf(order) {
  return order.split("_")[0];
}

function cardLabel(ctx, order) {
  const rest = order.slice(deckOf(order).length + 1);
  return rest.startsWith("four_") ? orderLabel(ctx, order) : ctx.tMaybe(`mm.card.${rest}`, rest);
}

export function orderLabel(ctx, order) {
  const deck = deckOf(order);
  const rest = order.slice(deck.length + 1);
  const own = top(ctx, DECK_OWN[deck]);
  if (rest.startsWith("four_")) return ctx.t("mm.order.four", { own, other: top(ctx, rest.slice(5)) });
  if (rest === "mixed") return ctx.t("mm.order.mixed");
  if (rest === "bombastica") return ctx.t("mm.order.bombastica");
  if (rest === "monotoni") return ctx.t("mm.order.monotoni", { own });
  if (rest === "minimale") return ctx.t("mm.order.minimale", { own });
  return order;
}

function deckName(ctx, deck) {
  return ctx.tMaybe(`mm.deck.${deck}`, deck);
}

function seatOfDeck(view, deck) {
  const p = view && view.players_info.find((x) => x.deck === deck);
  return p ? p.seat : null;
}

function orderPhrase(ctx, order, view) {
  const seat = seatOfDeck(view || ctx.view, deckOf(order));
  const owner = seat === null ? deckName(ctx, deckOf(order)) : ctx.seatName(seat);
  return ctx.t("mm.order_of", { order: orderLabel(ctx, order), owner });
}

// ---- pictures ---------------------------------------------------------------------------------
function toppingIcon(kind, size = 28) {
  const s = svg("svg", { viewBox: "0 0 40 40", width: size, height: size, class: `icon top-${kind}`, "aria-hidden": "true" });
  if (kind === "salami") {
    s.append(svg("circle", { cx: 20, cy: 20, r: 16, fill: "#c0392b", stroke: "#7b1f16", "stroke-width": 2 }));
    for (const [x, y] of [[14, 14], [25, 13], [20, 22], [12, 25], [27, 26]]) s.append(svg("circle", { cx: x, cy: y, r: 2.4, fill: "#f5c6bf" }));
  } else if (kind === "pineapple") {
    s.append(svg("path", { d: "M6 30 L20 6 L34 30 Z", fill: "#f4c430", stroke: "#a97c00", "stroke-width": 2, "stroke-linejoin": "round" }));
    s.append(svg("path", { d: "M13 24 L27 24 M16 18 L24 18", stroke: "#a97c00", "stroke-width": 1.5 }));
  } else if (kind === "mushroom") {
    s.append(svg("path", { d: "M5 21 Q20 0 35 21 Z", fill: "#b07a4a", stroke: "#6b4423", "stroke-width": 2 }));
    s.append(svg("rect", { x: 15, y: 20, width: 10, height: 14, rx: 3, fill: "#efe2cf", stroke: "#6b4423", "stroke-width": 2 }));
  } else if (kind === "pepper") {
    s.append(svg("circle", { cx: 20, cy: 20, r: 14, fill: "none", stroke: "#2e8b3a", "stroke-width": 6 }));
    s.append(svg("path", { d: "M20 6 L20 12", stroke: "#1c5a25", "stroke-width": 3 }));
  } else if (kind === "olive") {
    s.append(svg("ellipse", { cx: 20, cy: 20, rx: 15, ry: 12, fill: "#4b2f5e", stroke: "#2a1838", "stroke-width": 2 }));
    s.append(svg("ellipse", { cx: 20, cy: 20, rx: 6, ry: 4.5, fill: "#c9a3dd" }));
  } else {
    s.append(svg("circle", { cx: 20, cy: 20, r: 15, fill: "#ccc" }));
  }
  return s;
}

function toppingCard(ctx, kind, count, extra = "", pick = null) {
  return h(
    "div",
    { class: `mm-card topping ${extra}`, "data-kind": kind, title: top(ctx, kind), "data-pick": pick, "data-key": pick || undefined },
    toppingIcon(kind, 34),
    h("span", { class: "card-name" }, top(ctx, kind)),
    count !== undefined ? h("span", { class: "count" }, `×${count}`) : null,
  );
}

function orderPicture(order) {
  const deck = deckOf(order);
  const rest = order.slice(deck.length + 1);
  const own = DECK_OWN[deck];
  if (rest.startsWith("four_")) return [toppingIcon(own, 18), h("b", {}, "+4"), toppingIcon(rest.slice(5), 18)];
  if (rest === "mixed") return KINDS.map((k) => toppingIcon(k, 14));
  if (rest === "bombastica") return [h("b", { class: "big" }, "15+")];
  if (rest === "monotoni") return [toppingIcon(own, 18), h("b", {}, "+6 J")];
  if (rest === "minimale") return [toppingIcon(own, 18), h("b", {}, "+3 ?")];
  return [];
}

export function orderCard(ctx, order, extra = "", pick = null) {
  const deck = deckOf(order);
  return h(
    "div",
    // Every order card is unique: it slides from the hand to the oven or the baked pile (patch.js).
    { class: `mm-card order deck-${deck} ${extra}`, "data-order": order, title: orderPhrase(ctx, order), "data-pick": pick, "data-key": pick || undefined, "data-flip": extra.includes("mini") ? undefined : `mm:${order}` },
    h("span", { class: "order-pic" }, orderPicture(order)),
    h("span", { class: "card-name" }, cardLabel(ctx, order)),
  );
}

function mammaMiaCard(ctx, extra = "") {
  return h("div", { class: `mm-card mamma ${extra}` }, h("b", {}, "Mamma Mia!"), h("span", { class: "card-name" }, ctx.t("mm.mamma_card")));
}

function cardOf(ctx, card, extra) {
  if (!card) return null;
  if (card.type === "topping") return toppingCard(ctx, card.kind, card.count, extra);
  if (card.type === "order") return orderCard(ctx, card.order, extra);
  return mammaMiaCard(ctx, extra);
}

function back(label, cls) {
  return h("div", { class: `mm-card back ${cls}` }, h("span", {}, label));
}

// ---- the table --------------------------------------------------------------------------------
function stepText(ctx, view) {
  if (view.phase === "over") return ctx.t("mm.step.over");
  const who = view.to_move.map((s) => ctx.seatName(s)).join(", ");
  return ctx.t("mm.status", { who, what: ctx.tMaybe(`mm.step.${view.step}`, view.step) });
}

function oven(ctx, view) {
  const o = view.oven;
  const stage = ctx.stage;
  const two = view.opener !== undefined && view.opener !== null;
  const pile = h(
    "div",
    { class: "oven-pile", "data-size": o.size },
    o.size > 1 ? h("div", { class: "pile-shadow" }) : null,
    o.top ? cardOf(ctx, o.top, "oven-top") : h("div", { class: "mm-card empty" }, ctx.t("mm.oven_empty")),
  );
  const size = h("div", { class: "oven-size" }, h("b", {}, String(o.size)), h("small", {}, ctx.t("mm.cards_in_oven", { n: o.size })));
  // On a phone an open oven is its counter: how many cards are left in it goes on the title line.
  const parts =
    ctx.phone && two
      ? [h("h2", {}, ctx.t("mm.oven_open"), " ", size)]
      : [h("h2", {}, two ? ctx.t("mm.oven_open") : ctx.t("mm.oven")), h("div", { class: "oven-row" }, pile, size)];
  if (two || stage) {
    const counter = stage && stage.counter ? stage.counter : view.counter || {};
    parts.push(
      h(
        "div",
        { class: "counter" },
        h("h3", {}, ctx.t("mm.counter")),
        h("div", { class: "counter-row" }, KINDS.filter((k) => counter[k]).map((k) => toppingCard(ctx, k, counter[k], "small", `kind:${k}`))),
        KINDS.some((k) => counter[k]) ? null : h("p", { class: "muted" }, ctx.t("mm.counter_empty")),
      ),
    );
  }
  if (stage && stage.card) {
    parts.push(
      h(
        "div",
        { class: `reveal ${stage.outcome || ""}`, "data-reveal": stage.n },
        h("small", {}, ctx.t("mm.just_revealed")),
        cardOf(ctx, stage.card, "pop"),
        stage.outcome ? h("b", { class: "outcome" }, ctx.t(stage.outcome === "baked" ? "mm.baked" : "mm.not_baked")) : null,
      ),
    );
  } else if (view.pending) {
    const p = view.pending;
    parts.push(
      h(
        "div",
        { class: "reveal pending" },
        h("small", {}, ctx.t("mm.pending", { who: ctx.seatName(p.owner) })),
        orderCard(ctx, p.order, "pop"),
        p.shortfall && Object.keys(p.shortfall).length ? h("p", {}, ctx.t("mm.short", { what: counts(ctx, p.shortfall) })) : null,
      ),
    );
  }
  return h("section", { class: "card oven" }, parts);
}

function playerPanel(ctx, view, p) {
  const me = p.seat === ctx.you;
  const moving = view.to_move.includes(p.seat);
  return h(
    "section",
    { class: `card player deck-${p.deck}${me ? " me" : ""}${moving ? " moving" : ""}`, "data-seat": p.seat },
    h(
      "h3",
      {},
      h("span", { class: `dot deck-${p.deck}` }),
      ctx.seatName(p.seat),
      " ",
      toppingIcon(p.own_topping, 18),
      p.has_mamma_mia ? h("span", { class: "badge mamma-badge", title: ctx.t("mm.mamma_card") }, "Mamma Mia!") : null,
    ),
    h(
      "div",
      { class: "stats" },
      h("span", { class: "stat", title: ctx.t("mm.toppings_in_hand") }, back(String(p.toppings_in_hand), "mini topping-back"), ctx.t("mm.toppings_short", { n: p.toppings_in_hand })),
      h("span", { class: "stat", title: ctx.t("mm.orders_in_hand") }, back(String(p.orders_in_hand), `mini order-back deck-${p.deck}`), ctx.t("mm.orders_short", { n: p.orders_in_hand })),
      h("span", { class: "stat waiter-stat", title: ctx.t("mm.waiter"), "data-pick": me && !ctx.phone ? "source:waiter" : null }, back(String(p.waiter_size), `mini waiter deck-${p.deck}`), ctx.t("mm.waiter_short")),
      h("span", { class: "stat score" }, h("b", {}, String(p.score)), ctx.t("mm.completed_short")),
    ),
    p.completed.length
      ? h("div", { class: "completed" }, h("small", {}, ctx.t("mm.completed")), h("div", { class: "mini-cards" }, p.completed.map((o) => orderCard(ctx, o, "mini"))))
      : null,
    p.waiter_known_bottom.length
      ? h("div", { class: "known" }, h("small", {}, ctx.t("mm.waiter_bottom")), h("div", { class: "mini-cards" }, p.waiter_known_bottom.map((o) => orderCard(ctx, o, "mini"))))
      : null,
  );
}

function hand(ctx, me) {
  const tops = me.hand.toppings;
  const cards = [
    KINDS.filter((k) => tops[k]).map((k) => toppingCard(ctx, k, tops[k], "", `hand:${k}`)),
    me.hand.orders.map((o) => orderCard(ctx, o, "", `order:${o}`)),
  ];
  const empty = !KINDS.some((k) => tops[k]) && !me.hand.orders.length ? h("p", { class: "muted" }, ctx.t("mm.hand_empty")) : null;
  if (ctx.phone) {
    // The phone's dock: your cards in a row you can swipe.
    return h("section", { class: "hand hand-dock", id: "my-hand", "aria-label": ctx.t("mm.your_hand", { n: me.toppings_in_hand + me.orders_in_hand, max: HAND_LIMIT }) }, h("div", { class: "hand-row", "data-flip-frame": "" }, cards, empty));
  }
  return h(
    "section",
    { class: "card hand", id: "my-hand" },
    h("h2", {}, ctx.t("mm.your_hand", { n: me.toppings_in_hand + me.orders_in_hand, max: HAND_LIMIT })),
    h("div", { class: "hand-cards" }, cards, empty),
  );
}

/** What the phone's chip of a player sums up: toppings, orders and waiter cards held. */
function seatCounts(ctx, p) {
  return [
    h("span", { class: "stat", title: ctx.t("mm.toppings_in_hand") }, back(String(p.toppings_in_hand), "mini topping-back")),
    h("span", { class: "stat", title: ctx.t("mm.orders_in_hand") }, back(String(p.orders_in_hand), `mini order-back deck-${p.deck}`)),
    h("span", { class: "stat", title: ctx.t("mm.waiter") }, back(String(p.waiter_size), `mini waiter deck-${p.deck}`)),
    p.has_mamma_mia ? h("span", { class: "badge mamma-badge", title: ctx.t("mm.mamma_card") }, "Mamma Mia!") : null,
  ];
}

export default {
  renderTable(view, ctx) {
    const me = view.players_info.find((p) => p.seat === ctx.you);
    // On a phone the supply and your waiter are buttons of the dock (beside Confirm), not places.
    const header = h(
      "div",
      { class: "card info-bar" },
      h("span", { class: "round" }, ctx.t("mm.round", { round: view.round, rounds: 3 })),
      h("span", { class: "step" }, stepText(ctx, view)),
      h("span", { class: "supply", "data-pick": ctx.phone ? null : "source:supply" }, back(String(view.supply_size), "mini topping-back"), ctx.t("mm.supply"),
        view.mamma_mia_in_supply ? h("small", { class: "muted" }, ctx.t("mm.mamma_in_supply")) : null),
    );
    if (ctx.phone) {
      return h("div", { class: "mm mm-phone" }, header, ctx.playerChips ? ctx.playerChips() : null, oven(ctx, view), me && me.hand ? hand(ctx, me) : null);
    }
    return h(
      "div",
      { class: "mm" },
      header,
      h("div", { class: "mm-top" }, oven(ctx, view), me && me.hand ? hand(ctx, me) : null),
      h("div", { class: "players" }, view.players_info.map((p) => playerPanel(ctx, view, p))),
    );
  },

  seatBadge(seat, view) {
    const p = view && view.players_info.find((x) => x.seat === seat);
    return p ? h("span", { class: `dot deck-${p.deck}` }) : null;
  },

  seatSummary(seat, view, ctx) {
    const p = view.players_info.find((x) => x.seat === seat);
    return p ? seatCounts(ctx, p) : null;
  },

  seatDetails(seat, view, ctx) {
    const p = view.players_info.find((x) => x.seat === seat);
    return p ? playerPanel(ctx, view, p) : null;
  },

  scoreLabel(ctx) {
    return ctx.t("mm.completed_short");
  },

  // The parts of a move, as the table shows them (picks.js): a kind in your hand and a count, an
  // order in your hand, the supply or your waiter, a kind on the counter.
  parts(a) {
    switch (a.type) {
      case "play_toppings":
        return [`hand:${a.kind}`, `count:${a.count}`];
      case "play_order":
        return [`order:${a.order}`];
      case "draw":
        return [`source:${a.source}`];
      case "draw_count":
        return [`source:${a.source}`, `count:${a.count}`];
      case "choose_joker":
      case "choose_rarest":
        return [`kind:${a.kind}`];
      default:
        return null;
    }
  },

  partLabel(key, view, ctx) {
    const [kind, value] = key.split(":");
    if (kind === "count") return ctx.t("mm.count_chip", { n: value });
    if (kind === "hand" || kind === "kind") return top(ctx, value);
    if (kind === "order") return orderLabel(ctx, value);
    if (kind === "source") return value === "supply" ? ctx.t("mm.from_supply") : ctx.t("mm.from_waiter");
    return null;
  },

  seatScore(seat, view, ctx) {
    const p = view && view.players_info.find((x) => x.seat === seat);
    return p ? h("b", { class: "live-score", title: ctx.t("mm.completed") }, String(p.score)) : null;
  },

  // A tie on orders is broken by the topping cards left in hand (rules §7): the end screen says so
  // when it happened, with each tied player's count (the result, public at the end, holds them).
  resultNote(result, ctx) {
    if (result.abandoned || !result.winners.length || !result.tiebreaks) return null;
    const best = Math.max(...result.scores);
    const tied = result.scores.map((_, seat) => seat).filter((seat) => result.scores[seat] === best);
    if (tied.length < 2) return null;
    const counts = tied
      .slice()
      .sort((a, b) => result.tiebreaks[b] - result.tiebreaks[a] || a - b)
      .map((seat) => ctx.t("mm.tiebreak_count", { who: ctx.seatName(seat), n: result.tiebreaks[seat] }))
      .join(", ");
    const shared = result.winners.length > 1;
    return ctx.t(shared ? "mm.tiebreak_shared" : "mm.tiebreak_won", { n: best, who: ctx.seatName(result.winners[0]), counts });
  },

  // The end screen: the orders each player baked, round by round (from the log).
  resultDetails(view, log, ctx) {
    const rounds = [1, 2, 3];
    const baked = view.players_info.map(() => rounds.map(() => []));
    let round = 1;
    for (const ev of log) {
      const d = ev.data || {};
      if (ev.event === "round_started") round = d.round;
      if (ev.event === "order_completed" && baked[d.seat]) baked[d.seat][Math.min(round, 3) - 1].push(d.order);
    }
    return h(
      "table",
      { class: "breakdown", id: "breakdown" },
      h("caption", {}, ctx.t("mm.breakdown")),
      h("thead", {}, h("tr", {}, h("th", {}, ctx.t("result.player")), rounds.map((r) => h("th", {}, ctx.t("mm.round_short", { round: r }))), h("th", {}, ctx.t("mm.completed_short")))),
      h(
        "tbody",
        {},
        view.players_info.map((p) =>
          h(
            "tr",
            {},
            h("td", {}, ctx.seatName(p.seat)),
            baked[p.seat].map((list) => h("td", {}, list.length ? h("div", { class: "mini-cards" }, list.map((o) => orderCard(ctx, o, "mini"))) : "—", h("small", {}, ` ${list.length}`))),
            h("td", {}, h("b", {}, String(p.score))),
          ),
        ),
      ),
    );
  },

  moveHint(view, ctx) {
    return ctx.tMaybe(`mm.hint.${view.step}`, "");
  },

  actionText(a, view, ctx) {
    const me = view.players_info.find((p) => p.seat === ctx.you) || {};
    const gap = Math.max(0, HAND_LIMIT - (me.toppings_in_hand || 0) - (me.orders_in_hand || 0));
    switch (a.type) {
      case "play_toppings":
        return ctx.t("mm.act.play_toppings", { what: ctx.t("mm.n_of", { n: a.count, what: top(ctx, a.kind) }) });
      case "skip_toppings":
        return ctx.t("mm.act.skip_toppings");
      case "play_order":
        return ctx.t("mm.act.play_order", { order: orderLabel(ctx, a.order) });
      case "no_order":
        return ctx.t("mm.act.no_order");
      case "draw":
      case "draw_count": {
        const want = a.type === "draw" ? gap : a.count;
        if (a.source === "supply") {
          const avail = view.supply_size - (view.mamma_mia_in_supply ? 1 : 0);
          const n = Math.min(want, avail);
          return ctx.t(n >= avail ? "mm.act.draw_supply_last" : "mm.act.draw_supply", { n });
        }
        return ctx.t("mm.act.draw_waiter", { n: Math.min(want, me.waiter_size || 0) });
      }
      case "choose_joker":
        return ctx.t("mm.act.choose_joker", { topping: top(ctx, a.kind) });
      case "choose_rarest":
        return ctx.t("mm.act.choose_rarest", { topping: top(ctx, a.kind) });
      case "complete_from_hand": {
        const pending = view.pending || {};
        const bombastica = (pending.order || "").endsWith("_bombastica");
        const given = a.toppings || {};
        const added = Object.keys(given).length || bombastica ? given : pending.shortfall || {};
        const real = Object.fromEntries(Object.entries(added).filter(([k, n]) => n && k !== "any"));
        if (!Object.keys(real).length) return ctx.t("mm.act.accept");
        return ctx.t("mm.act.complete_from_hand", { what: counts(ctx, real) });
      }
      case "decline":
        return ctx.t("mm.act.decline");
      default:
        return null;
    }
  },

  eventLines(ev, ctx) {
    const d = ev.data || {};
    const who = ctx.seatName(d.seat);
    switch (ev.event) {
      case "toppings_played":
        return [ctx.t("mm.ev.toppings_played", { who, what: ctx.t("mm.n_of", { n: d.count, what: top(ctx, d.kind) }) })];
      case "toppings_skipped":
        return [ctx.t("mm.ev.toppings_skipped", { who })];
      case "order_played":
        return [ctx.t("mm.ev.order_played", { who, order: orderLabel(ctx, d.order) })];
      case "drew":
        if (d.source === "waiter") {
          const line = ctx.t("mm.ev.drew_waiter", { who, n: d.count });
          const known = (d.known || []).map((o) => orderLabel(ctx, o));
          return [known.length && d.seat !== ctx.you ? `${line} ${ctx.t("mm.ev.drew_known", { orders: known.join(", ") })}` : line];
        }
        return [ctx.t("mm.ev.drew_supply", { who, n: d.count })];
      case "drew_cards": {
        const parts = [];
        if (d.toppings && Object.keys(d.toppings).length) parts.push(counts(ctx, d.toppings));
        for (const o of d.orders || []) parts.push(orderLabel(ctx, o));
        return parts.length ? [{ text: ctx.t("mm.ev.drew_cards", { what: parts.join(", ") }), cls: "private" }] : [];
      }
      case "mamma_mia_drawn":
        return [{ text: ctx.t("mm.ev.mamma_mia_drawn", { who }), cls: "big" }];
      case "phase_one_ended":
        return [{ text: ctx.t(d.reason === "supply_empty" ? "mm.ev.phase_one_supply" : "mm.ev.phase_one_lap", { who: ctx.seatName(d.opener) }), cls: "big" }];
      case "oven_opened":
        return [{ text: ctx.t("mm.ev.oven_opened", { n: d.size }), cls: "big" }];
      case "toppings_revealed":
      case "topping_revealed":
        return [ctx.t("mm.ev.topping_revealed", { what: ctx.t("mm.n_of", { n: d.count || 1, what: top(ctx, d.kind) }) })];
      case "order_revealed":
        return [ctx.t("mm.ev.order_revealed", { order: orderPhrase(ctx, d.order) })];
      case "joker_chosen":
        return [ctx.t("mm.ev.joker_chosen", { who, topping: top(ctx, d.kind) })];
      case "rarest_chosen":
        return [ctx.t("mm.ev.rarest_chosen", { who, topping: top(ctx, d.kind) })];
      case "rarest_kind":
        return [ctx.t("mm.ev.rarest_kind", { topping: top(ctx, d.kind) })];
      case "order_completed": {
        const fromHand = Object.fromEntries(Object.entries(d.from_hand || {}).filter(([, n]) => n));
        const line = ctx.t("mm.ev.order_completed", { who: ctx.seatName(d.seat, { object: true }), order: orderLabel(ctx, d.order) });
        return [{ text: Object.keys(fromHand).length ? `${line} ${ctx.t("mm.ev.with_hand", { what: counts(ctx, fromHand) })}` : line, cls: "good" }];
      }
      case "order_declined":
        return [ctx.t("mm.ev.order_declined", { who })];
      case "order_failed":
        return [{ text: ctx.t("mm.ev.order_failed", { order: orderLabel(ctx, d.order), who: ctx.seatName(d.seat) }), cls: "bad" }];
      case "round_ended": {
        const lines = [{ text: ctx.t("mm.ev.round_ended", { round: d.round, n: Object.values(d.used || {}).reduce((a, b) => a + b, 0) }), cls: "big" }];
        if (d.leftovers && Object.keys(d.leftovers).length) lines.push(ctx.t("mm.ev.leftovers", { what: counts(ctx, d.leftovers) }));
        return lines;
      }
      case "round_started":
        return [{ text: ctx.t("mm.ev.round_started", { round: d.round, who: ctx.seatName(d.start_player), n: d.supply }), cls: "big" }];
      case "game_over":
        return [{ text: ctx.t("mm.ev.game_over"), cls: "big" }];
      default:
        return null;
    }
  },

  // The step-by-step reveal: what the oven panel shows while the events of one frame play out.
  stage(ev, prev, ctx) {
    const s = prev ? { ...prev, counter: { ...prev.counter } } : { counter: { ...((ctx.prevView && ctx.prevView.counter) || {}) }, n: 0 };
    s.n += 1;
    const d = ev.data || {};
    switch (ev.event) {
      case "oven_opened":
        s.counter = {};
        s.card = null;
        s.outcome = null;
        return s;
      case "toppings_revealed":
      case "topping_revealed":
        s.counter[d.kind] = (s.counter[d.kind] || 0) + (d.count || 1);
        s.card = { type: "topping", kind: d.kind, count: d.count || 1 };
        s.outcome = null;
        return s;
      case "order_revealed":
        s.card = { type: "order", order: d.order };
        s.outcome = null;
        return s;
      case "order_completed":
        for (const [k, n] of Object.entries(d.used || {})) {
          const took = n - ((d.from_hand || {})[k] || 0);
          s.counter[k] = Math.max(0, (s.counter[k] || 0) - took);
        }
        s.card = { type: "order", order: d.order };
        s.outcome = "baked";
        return s;
      case "order_failed":
        s.card = { type: "order", order: d.order };
        s.outcome = "failed";
        return s;
      case "round_ended":
        return null;
      default:
        return prev ? s : null;
    }
  },

  pause(ev) {
    return (
      {
        toppings_revealed: 300,
        topping_revealed: 250,
        order_revealed: 700,
        order_completed: 800,
        order_failed: 800,
        oven_opened: 900,
        phase_one_ended: 700,
        round_ended: 1200,
        mamma_mia_drawn: 600,
      }[ev.event] || 0
    );
  },
};
