// Sweet Nose on the page: trays (square) and bowls (round), the market, the supply, your
// sweetness cards (the others' lie face down until the reveal), the shop tiles and the scores.
import { h, svg } from "../js/dom.js";

export const KINDS = ["mung_bean_cake", "longevity_peach_bun", "peanut_brittle", "zhuangyuan_cake", "candied_haws"];
const HEX = { mung_bean_cake: "#5E9E3A", longevity_peach_bun: "#8A5BB5", peanut_brittle: "#8B5A2B", zhuangyuan_cake: "#E8C33A", candied_haws: "#D0312D" };

function sweet(ctx, kind) {
  return ctx.tMaybe(`sn.sweet.${kind}`, kind);
}

function tileName(ctx, id) {
  return ctx.tMaybe(`sn.tile.${id}`, id);
}

function tileText(ctx, id) {
  return ctx.tMaybe(`sn.tile_text.${id}`, "");
}

function counts(ctx, map) {
  const parts = KINDS.filter((k) => map && map[k]).map((k) => ctx.t("sn.n_of", { n: map[k], what: sweet(ctx, k) }));
  return parts.length ? parts.join(", ") : ctx.t("sn.nothing");
}

function sweetIcon(kind, size = 24) {
  const c = HEX[kind] || "#999";
  const s = svg("svg", { viewBox: "0 0 40 40", width: size, height: size, class: `icon sweet-${kind}`, "aria-hidden": "true" });
  if (kind === "mung_bean_cake") {
    s.append(svg("rect", { x: 6, y: 6, width: 28, height: 28, rx: 4, fill: c, stroke: "#2f5a1b", "stroke-width": 2 }));
    s.append(svg("rect", { x: 13, y: 13, width: 14, height: 14, rx: 2, fill: "none", stroke: "#cfe8bf", "stroke-width": 2 }));
  } else if (kind === "longevity_peach_bun") {
    s.append(svg("path", { d: "M20 5 C30 12 36 20 33 27 C30 35 10 35 7 27 C4 20 10 12 20 5 Z", fill: "#f3b3c9", stroke: c, "stroke-width": 3 }));
    s.append(svg("path", { d: "M12 33 Q20 28 28 33", fill: "none", stroke: "#4d8a2e", "stroke-width": 3 }));
  } else if (kind === "peanut_brittle") {
    s.append(svg("rect", { x: 4, y: 11, width: 32, height: 18, rx: 3, fill: c, stroke: "#4f3216", "stroke-width": 2 }));
    for (const [x, y] of [[11, 17], [19, 23], [27, 16], [30, 24], [14, 24]]) s.append(svg("ellipse", { cx: x, cy: y, rx: 2.6, ry: 1.8, fill: "#e9c89a" }));
  } else if (kind === "zhuangyuan_cake") {
    s.append(svg("circle", { cx: 20, cy: 20, r: 15, fill: c, stroke: "#8c6f10", "stroke-width": 2 }));
    s.append(svg("circle", { cx: 20, cy: 20, r: 7, fill: "none", stroke: "#fff3bf", "stroke-width": 2 }));
  } else if (kind === "candied_haws") {
    s.append(svg("path", { d: "M20 2 L20 38", stroke: "#8b6a3e", "stroke-width": 2 }));
    for (const y of [9, 19, 29]) s.append(svg("circle", { cx: 20, cy: y, r: 6.5, fill: c, stroke: "#7d1512", "stroke-width": 1.5 }));
  }
  return s;
}

function sweetChip(ctx, kind, n, pick = null) {
  return h(
    "span",
    { class: "sweet-chip", "data-kind": kind, title: sweet(ctx, kind), "data-pick": pick, "data-key": pick || kind, "aria-label": `${sweet(ctx, kind)}${n !== undefined ? ` ×${n}` : ""}` },
    sweetIcon(kind, 22),
    n !== undefined ? h("b", {}, `×${n}`) : null,
  );
}

function pile(ctx, map, cls, label, prefix = null) {
  const chips = KINDS.filter((k) => map && map[k]).map((k) => sweetChip(ctx, k, map[k], prefix ? `${prefix}:${k}` : null));
  return h("div", { class: `sn-pile ${cls}` }, h("small", {}, label), h("div", { class: "chips" }, chips.length ? chips : h("span", { class: "muted" }, "—")));
}

function tileCard(ctx, tile, extra = "", pick = null) {
  if (!tile) return null;
  if (!tile.id) return h("div", { class: `sn-tile hidden-tile ${extra}`, "data-pick": pick }, h("b", { class: "lvl" }, String(tile.level)), h("span", {}, ctx.t("sn.tile_hidden")));
  return h(
    "div",
    // A known tile slides from the shop to its holder (patch.js FLIP); a face-down one has no id.
    // On a phone its text is not printed on it: a tap (or a long press) shows it (js/phone.js).
    {
      class: `sn-tile lvl-${tile.level} ${extra}`,
      "data-tile": tile.id,
      title: tileText(ctx, tile.id),
      "data-pick": pick,
      "data-key": pick || undefined,
      "data-flip": tile.id ? `sn:${tile.id}` : undefined,
      "data-info": ctx.phone ? `${tileName(ctx, tile.id)} — ${ctx.t("sn.level_tile", { level: tile.level })}` : null,
    },
    h("b", { class: "lvl" }, String(tile.level)),
    h("span", { class: "tile-name" }, tileName(ctx, tile.id)),
    h("small", { class: "tile-text info-text", hidden: ctx.phone }, tileText(ctx, tile.id)),
  );
}

let sweetnessDraft = null; // the values being picked for the five sweets (phase 1)
let dragFrom = null; // the index of the sweet being dragged onto another (picker)

function levelOf(id) {
  return Number(String(id).slice(1, 2)) || 0;
}

function sweetnessCards(ctx, p) {
  const values = p.sweetness;
  const mine = p.seat === ctx.you;
  return h(
    "div",
    { class: "sweetness", "data-seat": p.seat },
    KINDS.map((k) =>
      h(
        "div",
        { class: `sn-card${values ? " face" : " down"}`, title: sweet(ctx, k), "data-pick": mine ? `card:${k}` : null, "data-key": k },
        sweetIcon(k, 18),
        h("b", {}, values ? String(values[k]) : p.sweetness_set ? "?" : "·"),
      ),
    ),
  );
}

function playerPanel(ctx, view, p) {
  const me = p.seat === ctx.you;
  const moving = view.to_move.includes(p.seat);
  return h(
    "section",
    { class: `card player sn-player col-${p.colour}${me ? " me" : ""}${moving ? " moving" : ""}`, "data-seat": p.seat },
    h(
      "h3",
      {},
      h("span", { class: `dot col-${p.colour}` }),
      ctx.seatName(p.seat),
      h("span", { class: "score" }, ctx.t("sn.score", { n: p.score })),
      p.round_score !== null && p.round_score !== undefined ? h("small", { class: "muted" }, ctx.t("sn.round_score", { n: p.round_score })) : null,
    ),
    h(
      "div",
      { class: "tray-bowl" },
      pile(ctx, p.tray, "tray", ctx.t("sn.tray_n", { n: p.tray_size }), `tray:${p.seat}`),
      pile(ctx, p.bowl, "bowl", ctx.t("sn.bowl"), `bowl:${p.seat}`),
    ),
    h("div", { class: "sn-row" }, h("small", {}, me ? ctx.t("sn.your_cards") : ctx.t("sn.cards")), sweetnessCards(ctx, p)),
    p.tile ? h("div", { class: "sn-row" }, h("small", {}, ctx.t("sn.held_tile")), tileCard(ctx, p.tile, "", me && p.tile.id ? `tile:${p.tile.id}` : null)) : null,
    p.ignoring_market ? h("span", { class: "badge" }, ctx.t("sn.ignoring")) : null,
  );
}

/** The phone's dock: your tray, bowl, shop tile and sweetness cards, in a row you can swipe. */
function myDock(ctx, view, p) {
  const label = (text) => h("small", { class: "row-label" }, text);
  const sweets = (map, prefix) => KINDS.filter((k) => map && map[k]).map((k) => sweetChip(ctx, k, map[k], `${prefix}:${p.seat}:${k}`));
  const tray = sweets(p.tray, "tray");
  const bowl = sweets(p.bowl, "bowl");
  return h(
    "section",
    { class: "sn-hand hand-dock", id: "my-hand", "aria-label": ctx.t("sn.your_area") },
    h(
      "div",
      { class: "hand-row", "data-flip-frame": "" },
      h("div", { class: "hand-group tray" }, label(ctx.t("sn.tray_n", { n: p.tray_size })), h("div", { class: "chips" }, tray.length ? tray : h("span", { class: "muted" }, "—"))),
      h("div", { class: "hand-group bowl" }, label(ctx.t("sn.bowl")), h("div", { class: "chips" }, bowl.length ? bowl : h("span", { class: "muted" }, "—"))),
      p.tile ? h("div", { class: "hand-group" }, label(ctx.t("sn.held_tile")), tileCard(ctx, p.tile, "", p.tile.id ? `tile:${p.tile.id}` : null)) : null,
      h("div", { class: "hand-group" }, label(ctx.t("sn.your_cards")), sweetnessCards(ctx, p)),
      h("div", { class: "hand-group score-group" }, label(ctx.t("sn.score_label")), h("b", { class: "my-score" }, String(p.score))),
      p.ignoring_market ? h("span", { class: "badge" }, ctx.t("sn.ignoring")) : null,
    ),
  );
}

function phaseText(ctx, view) {
  const what = ctx.tMaybe(`sn.phase.${view.phase}`, view.phase);
  if (view.phase === "over") return what;
  const who = view.to_move.map((s) => ctx.seatName(s)).join(", ");
  return ctx.t("sn.status", { what, who });
}

function whoOf(ctx, seat, obj) {
  return ctx.seatName(seat, obj ? { object: true } : {});
}

export default {
  renderTable(view, ctx) {
    const shop = view.shop
      ? view.shop.map((id) => tileCard(ctx, { id, level: levelOf(id) }, "", `shop:${id}`))
      : (view.shop_levels || []).map((level) => tileCard(ctx, { level }, "", `shoplevel:${level}`));
    if (ctx.phone) {
      const me = view.players_info.find((p) => p.seat === ctx.you);
      return h(
        "div",
        { class: "sn sn-phone" },
        h(
          "div",
          { class: "card info-bar" },
          h("span", { class: "round" }, view.rounds ? ctx.t("sn.round", { round: view.round, rounds: view.rounds }) : ctx.t("sn.round_open", { round: view.round })),
          h("span", { class: "step" }, phaseText(ctx, view)),
        ),
        ctx.playerChips ? ctx.playerChips() : null,
        h(
          "section",
          { class: "card market" },
          h("h2", {}, ctx.t("sn.market")),
          h("div", { class: "chips big" }, KINDS.filter((k) => view.market[k]).map((k) => sweetChip(ctx, k, view.market[k], `market:${k}`))),
        ),
        shop.length ? h("section", { class: "card shop" }, h("h2", {}, ctx.t("sn.shop")), h("div", { class: "tiles" }, shop)) : null,
        me ? myDock(ctx, view, me) : null,
      );
    }
    return h(
      "div",
      { class: "sn" },
      h(
        "div",
        { class: "card info-bar" },
        h("span", { class: "round" }, view.rounds ? ctx.t("sn.round", { round: view.round, rounds: view.rounds }) : ctx.t("sn.round_open", { round: view.round })),
        h("span", { class: "step" }, phaseText(ctx, view)),
        h("span", {}, ctx.t("sn.order", { order: view.turn_order.map((s) => ctx.seatName(s)).join(" → ") })),
      ),
      h(
        "div",
        { class: "sn-top" },
        h("section", { class: "card market" }, h("h2", {}, ctx.t("sn.market")), h("div", { class: "chips big" }, KINDS.filter((k) => view.market[k]).map((k) => sweetChip(ctx, k, view.market[k], `market:${k}`))),
          h("p", { class: "muted small" }, ctx.t("sn.supply", { what: counts(ctx, view.supply) }))),
        h("section", { class: "card shop" }, h("h2", {}, ctx.t("sn.shop")), h("div", { class: "tiles" }, shop.length ? shop : h("span", { class: "muted" }, "—"))),
      ),
      h("div", { class: "players" }, view.players_info.map((p) => playerPanel(ctx, view, p))),
      h("p", { class: "muted small legend" }, KINDS.map((k) => h("span", { class: "legend-item" }, sweetIcon(k, 16), sweet(ctx, k)))),
    );
  },

  seatBadge(seat, view) {
    const p = view && view.players_info.find((x) => x.seat === seat);
    return p ? h("span", { class: `dot col-${p.colour}` }) : null;
  },

  // The phone's chips: another player's tray is always shown (what a trade takes from), and their
  // bowl when a tile may take from it; the whole panel opens on a tap.
  seatSummary(seat, view, ctx) {
    const p = view.players_info.find((x) => x.seat === seat);
    if (!p || seat === ctx.you) return null;
    return h("span", { class: "sum-tray", title: ctx.t("sn.tray_n", { n: p.tray_size }) }, KINDS.filter((k) => p.tray[k]).map((k) => h("span", { class: "mini-sweet" }, sweetIcon(k, 16), h("b", {}, String(p.tray[k])))));
  },

  // On a phone the sweets a move may take from another player lie beside their name, on one line.
  ownChip: false,
  liveBeside: true,

  seatLive(seat, view, ctx) {
    const p = view.players_info.find((x) => x.seat === seat);
    if (!p || seat === ctx.you || !ctx.live) return null;
    const live = (name) => KINDS.some((k) => p[name][k] && ctx.live(`${name}:${seat}:${k}`));
    const piles = [];
    for (const name of ["tray", "bowl"]) {
      if (!live(name)) continue;
      const chips = KINDS.filter((k) => p[name][k]).map((k) => sweetChip(ctx, k, p[name][k], `${name}:${seat}:${k}`));
      piles.push(h("div", { class: `sn-pile ${name}`, title: name === "tray" ? ctx.t("sn.tray_n", { n: p.tray_size }) : ctx.t("sn.bowl") }, h("div", { class: "chips" }, chips)));
    }
    return piles.length ? piles : null;
  },

  seatDetails(seat, view, ctx) {
    const p = view.players_info.find((x) => x.seat === seat);
    if (!p) return null;
    // Your own tray, bowl, tile and cards are in the dock: your chip adds only what is not there.
    if (seat === ctx.you) return h("p", { class: "muted" }, ctx.t("sn.score", { n: p.score }), " ", p.round_score !== null && p.round_score !== undefined ? ctx.t("sn.round_score", { n: p.round_score }) : "");
    return playerPanel(ctx, view, p);
  },

  scoreLabel(ctx) {
    return ctx.t("sn.score_label");
  },

  // The parts of a move on the table (picks.js): sweets in trays, bowls and the market, your held
  // tile, the shop's tiles, your own sweetness cards.
  parts(a, view, ctx) {
    const me = ctx.you;
    const tile = (id) => `tile:${id}`;
    switch (a.type) {
      case "exchange_with_player":
        return [`tray:${a.target}:${a.take}`, `tray:${me}:${a.give}`];
      case "exchange_with_market":
        return [`market:${a.take}`, `tray:${me}:${a.give}`];
      case "use_stash":
        return [tile("l1_stash"), `tray:${me}:${a.kind}`];
      case "use_twin_trade":
        return [tile("l1_twin_trade"), `tray:${a.target}:${a.take}`, `tray:${me}:${a.give}`];
      case "use_take_back":
        return [tile("l2_take_back"), `bowl:${me}:${a.kind}`];
      case "use_market_to_bowl":
        return [tile("l2_market_to_bowl"), `market:${a.take}`, `tray:${me}:${a.give}`];
      case "use_bowl_swap":
        return [tile("l3_bowl_swap"), `bowl:${a.target}:${a.take}`, `bowl:${me}:${a.give}`];
      case "use_send_back":
        return [tile("l3_send_back"), `bowl:${a.target}:${a.kind}`];
      case "use_rearrange":
        return [tile("l4_rearrange"), `bowl:${me}:${a.from_bowl}`, `tray:${me}:${a.from_tray}`];
      case "use_double_trade":
        return [tile("l4_double_trade"), `double:${a.target}:${a.give.join("+")}:${a.take.join("+")}`];
      case "use_change_taste":
        return [tile("l5_change_taste"), `card:${a.first}`, `card:${a.second}`];
      case "use_ignore_market":
        return [tile("l5_ignore_market")];
      case "choose_shop":
        return [`shop:${a.tile}`];
      case "choose_shop_level":
        return [`shoplevel:${a.level}`];
      case "bid":
        return [`bid:${a.space}`];
      default:
        return null;
    }
  },

  // A flagged decision's better move on the cards (review.js markMove): an assignment of sweetness
  // has no parts to click (its picker places the values), but it is five cards, each marked with
  // the value the move gives it; other moves mark their parts.
  reviewMarks(a, view, ctx) {
    if (a.type !== "assign_sweetness") return null;
    return Object.fromEntries(KINDS.map((k, i) => [`card:${k}`, String(a.values[i])]));
  },

  partLabel(key, view, ctx) {
    const [kind, a, b] = key.split(":");
    if (kind === "tray" || kind === "bowl") {
      const where = ctx.t(kind === "tray" ? "sn.part_tray" : "sn.part_bowl", { who: ctx.seatName(Number(a), { object: true }) });
      return `${sweet(ctx, b)} (${where})`;
    }
    if (kind === "market") return `${sweet(ctx, a)} (${ctx.t("sn.market")})`;
    if (kind === "tile" || kind === "shop") return tileName(ctx, a);
    if (kind === "shoplevel") return ctx.t("sn.level_tile", { level: a });
    if (kind === "card") return ctx.t("sn.part_card", { sweet: sweet(ctx, a) });
    if (kind === "bid") return ctx.t("sn.act.bid", { space: a });
    return null;
  },

  // Phase 1: the five sweetness cards are placed by picking 1–5 for each sweet (a value already
  // used moves to the sweet that had the new one), with the round score these cards would give now.
  picker(view, ctx, legal, play, redraw) {
    const entries = legal.filter((e) => e.action.type === "assign_sweetness");
    if (!entries.length) {
      sweetnessDraft = null;
      return null;
    }
    const me = view.players_info.find((p) => p.seat === ctx.you);
    if (!sweetnessDraft) sweetnessDraft = [1, 2, 3, 4, 5];
    const draft = sweetnessDraft;
    const held = Object.fromEntries(KINDS.map((k) => [k, ((me.tray || {})[k] || 0) + ((me.bowl || {})[k] || 0)]));
    const score = KINDS.reduce((sum, k, i) => sum + (draft[i] + (view.market[k] || 0)) * held[k], 0);
    const chosen = entries.find((e) => e.action.values.every((v, i) => v === draft[i]));
    const set = (i, v) => {
      const j = draft.indexOf(v);
      if (j === i) return;
      draft[j] = draft[i];
      draft[i] = v;
      redraw();
    };
    // Dragging a sweet onto another swaps their values (mouse, pen or touch: pointer events); the
    // value buttons stay the way for keyboards and screen readers.
    const rowAt = (ev) => {
      const el = document.elementFromPoint(ev.clientX, ev.clientY);
      const row = el && el.closest ? el.closest("#sweetness-picker .assign-row") : null;
      return row ? KINDS.indexOf(row.getAttribute("data-kind")) : -1;
    };
    const mark = (j) => {
      for (const row of document.querySelectorAll("#sweetness-picker .assign-row")) {
        row.classList.toggle("drop-target", dragFrom !== null && KINDS.indexOf(row.getAttribute("data-kind")) === j && j !== dragFrom);
      }
    };
    const grab = (i) => (ev) => {
      if (ev.button !== undefined && ev.button !== 0) return;
      ev.preventDefault();
      dragFrom = i;
      ev.currentTarget.setPointerCapture?.(ev.pointerId);
      ev.currentTarget.closest(".assign-row").classList.add("dragging");
    };
    const move = (ev) => {
      if (dragFrom !== null) mark(rowAt(ev));
    };
    const drop = (ev) => {
      if (dragFrom === null) return;
      const i = dragFrom;
      const j = rowAt(ev);
      dragFrom = null;
      mark(-1);
      ev.currentTarget.closest(".assign-row").classList.remove("dragging");
      if (j >= 0 && j !== i) set(i, draft[j]);
    };
    const cancelDrag = (ev) => {
      dragFrom = null;
      mark(-1);
      ev.currentTarget.closest(".assign-row").classList.remove("dragging");
    };
    const element = h(
      "div",
      { class: "sn-assign", id: "sweetness-picker", role: "group", "aria-label": ctx.t("sn.assign_title") },
      KINDS.map((k, i) =>
        h(
          "div",
          { class: "assign-row", "data-kind": k, "data-key": k },
          h(
            "span",
            { class: "assign-sweet", "data-drag": k, title: `${sweet(ctx, k)} ×${held[k]}: ${ctx.t("sn.assign_drag")}`, onpointerdown: grab(i), onpointermove: move, onpointerup: drop, onpointercancel: cancelDrag },
            h("span", { class: "grip", "aria-hidden": "true" }, "⠿"),
            sweetIcon(k, 22),
            // the name and the count as one text, which wraps between words
            h("span", { class: "sweet-name" }, sweet(ctx, k), " ", h("small", { class: "muted" }, `×${held[k]}`)),
          ),
          h(
            "span",
            { class: "assign-values", role: "radiogroup", "aria-label": sweet(ctx, k) },
            [1, 2, 3, 4, 5].map((v) =>
              h(
                "button",
                { type: "button", class: `value${draft[i] === v ? " on" : ""}`, role: "radio", "aria-checked": draft[i] === v ? "true" : "false", "data-value": v, "data-act": "pick", onclick: () => set(i, v) },
                String(v),
              ),
            ),
          ),
        ),
      ),
      h("p", { class: "assign-score", id: "assign-score", "aria-live": "polite" }, ctx.t("sn.assign_score", { n: score })),
      h(
        "button",
        { type: "button", class: "primary confirm", id: "assign-confirm", "data-act": "confirm", disabled: !chosen, onclick: () => { if (chosen) { sweetnessDraft = null; play(chosen); } } },
        ctx.t("sn.assign_confirm"),
      ),
    );
    return { element, handles: new Set(["assign_sweetness"]) };
  },

  seatScore(seat, view, ctx) {
    const p = view && view.players_info.find((x) => x.seat === seat);
    return p ? h("b", { class: "live-score", title: ctx.t("sn.score_label") }, String(p.score)) : null;
  },

  // The end screen: each round's score per player (from the log's round_scored events).
  resultDetails(view, log, ctx) {
    const rounds = log.filter((ev) => ev.event === "round_scored").map((ev) => ev.data);
    if (!rounds.length) return null;
    return h(
      "table",
      { class: "breakdown", id: "breakdown" },
      h("caption", {}, ctx.t("sn.breakdown")),
      h("thead", {}, h("tr", {}, h("th", {}, ctx.t("result.player")), rounds.map((r) => h("th", {}, ctx.t("sn.round_short", { round: r.round }))), h("th", {}, ctx.t("sn.score_label")))),
      h(
        "tbody",
        {},
        view.players_info.map((p) =>
          h("tr", {}, h("td", {}, ctx.seatName(p.seat)), rounds.map((r) => h("td", {}, `+${r.round_scores[p.seat]}`)), h("td", {}, h("b", {}, String(p.score)))),
        ),
      ),
      h("tfoot", {}, h("tr", {}, h("td", { colspan: rounds.length + 2 }, ctx.t("sn.lowest_wins")))),
    );
  },

  moveHint(view, ctx) {
    return ctx.tMaybe(`sn.hint.${view.phase}`, "");
  },

  actionText(a, view, ctx) {
    const S = (k) => sweet(ctx, k);
    const who = (s) => ctx.seatName(s);
    switch (a.type) {
      case "assign_sweetness":
        return h(
          "span",
          { class: "assign", "aria-label": KINDS.map((k, i) => `${S(k)} ${a.values[i]}`).join(", ") },
          KINDS.map((k, i) => h("span", { class: "assign-one" }, sweetIcon(k, 18), h("b", {}, String(a.values[i])))),
        );
      case "exchange_with_player":
        return ctx.t("sn.act.exchange_with_player", { who: who(a.target), take: S(a.take), give: S(a.give) });
      case "exchange_with_market":
        return ctx.t("sn.act.exchange_with_market", { take: S(a.take), give: S(a.give) });
      case "end_turn":
        return ctx.t("sn.act.end_turn");
      case "use_stash":
        return ctx.t("sn.act.use_stash", { tile: tileName(ctx, "l1_stash"), sweet: S(a.kind) });
      case "use_twin_trade":
        return ctx.t("sn.act.use_twin_trade", { tile: tileName(ctx, "l1_twin_trade"), who: who(a.target), take: S(a.take), give: S(a.give) });
      case "use_take_back":
        return ctx.t("sn.act.use_take_back", { tile: tileName(ctx, "l2_take_back"), sweet: S(a.kind) });
      case "use_market_to_bowl":
        return ctx.t("sn.act.use_market_to_bowl", { tile: tileName(ctx, "l2_market_to_bowl"), take: S(a.take), give: S(a.give) });
      case "use_bowl_swap":
        return ctx.t("sn.act.use_bowl_swap", { tile: tileName(ctx, "l3_bowl_swap"), who: who(a.target), take: S(a.take), give: S(a.give) });
      case "use_send_back":
        return ctx.t("sn.act.use_send_back", { tile: tileName(ctx, "l3_send_back"), who: who(a.target), sweet: S(a.kind) });
      case "use_rearrange":
        return ctx.t("sn.act.use_rearrange", { tile: tileName(ctx, "l4_rearrange"), bowl: S(a.from_bowl), tray: S(a.from_tray) });
      case "use_double_trade":
        return ctx.t("sn.act.use_double_trade", { tile: tileName(ctx, "l4_double_trade"), who: who(a.target), give: a.give.map(S).join(" + "), take: a.take.map(S).join(" + ") });
      case "use_change_taste":
        return ctx.t("sn.act.use_change_taste", { tile: tileName(ctx, "l5_change_taste"), first: S(a.first), second: S(a.second) });
      case "use_ignore_market":
        return ctx.t("sn.act.use_ignore_market", { tile: tileName(ctx, "l5_ignore_market") });
      case "choose_shop":
        return ctx.t("sn.act.choose_shop", { tile: tileName(ctx, a.tile), level: levelOf(a.tile), text: tileText(ctx, a.tile) });
      case "choose_shop_level":
        return ctx.t("sn.act.choose_shop_level", { level: a.level });
      case "decline":
        if (view.phase === "change_taste") return ctx.t("sn.act.keep_cards");
        if (view.phase === "declare_ignore_market") return ctx.t("sn.act.keep_bonus");
        return ctx.t("sn.act.no_tile");
      case "bid":
        return ctx.t("sn.act.bid", { space: a.space });
      case "pass":
        return ctx.t("sn.act.pass");
      default:
        return null;
    }
  },

  eventLines(ev, ctx) {
    const d = ev.data || {};
    const who = whoOf(ctx, d.seat);
    const S = (k) => sweet(ctx, k);
    const cards = (values) => KINDS.filter((k) => k in values).map((k) => `${S(k)} ${values[k]}`).join(", ");
    switch (ev.event) {
      case "setup":
        return [ctx.t("sn.ev.setup", { what: counts(ctx, d.market) })];
      case "auction_started":
        return [ctx.t("sn.ev.auction_started", { who: whoOf(ctx, d.start_player) })];
      case "bid":
        return [ctx.t("sn.ev.bid", { who, space: d.space })];
      case "passed":
        return [ctx.t("sn.ev.passed", { who, space: d.space })];
      case "auction_ended":
        return [ctx.t("sn.ev.auction_ended", { order: (d.pick_order || []).map((s) => whoOf(ctx, s)).join(", ") || ctx.t("ui.nobody") })];
      case "round_started":
        return [{ text: ctx.t("sn.ev.round_started", { round: d.round, who: whoOf(ctx, d.start_player) }), cls: "big" }];
      case "sweets_redealt":
        return [ctx.t("sn.ev.sweets_redealt", { what: counts(ctx, d.market) })];
      case "sweetness_set":
        return [ctx.t("sn.ev.sweetness_set", { who })];
      case "sweetness_chosen":
        return [{ text: ctx.t("sn.ev.sweetness_chosen", { cards: cards(d.values) }), cls: "private" }];
      case "exchange_phase_started":
        return [{ text: ctx.t("sn.ev.exchange_phase_started", { who: whoOf(ctx, d.start_player) }), cls: "big" }];
      case "turn_skipped":
        return [ctx.t("sn.ev.turn_skipped", { who })];
      case "turn_ended":
        return [];
      case "exchanged_with_player":
        return [ctx.t("sn.ev.exchanged_with_player", { who, target: whoOf(ctx, d.target, true), took: S(d.took), gave: S(d.gave) })];
      case "exchanged_with_market":
        return [ctx.t(d.into_bowl ? "sn.ev.exchanged_with_market_bowl" : "sn.ev.exchanged_with_market", { who, took: S(d.took), gave: S(d.gave) })];
      case "shop_used": {
        const bits = [];
        for (const key of ["kind", "take", "give", "from_bowl", "from_tray"]) if (typeof d[key] === "string") bits.push(S(d[key]));
        if (Array.isArray(d.kinds)) bits.push(d.kinds.map(S).join(" ⇄ "));
        if (d.target !== undefined && d.target !== null) bits.push(whoOf(ctx, d.target, true));
        const line = ctx.t("sn.ev.shop_used", { who, tile: tileName(ctx, d.tile) });
        return [bits.length ? `${line} (${bits.join(", ")})` : line];
      }
      case "sweetness_swapped":
        return [{ text: ctx.t("sn.ev.sweetness_swapped", { cards: cards(d.values) }), cls: "private" }];
      case "exchange_phase_ended":
        return [{ text: ctx.t("sn.ev.exchange_phase_ended", { why: ctx.tMaybe(`sn.why.${d.reason}`, d.reason) }), cls: "big" }];
      case "sweetness_revealed":
        return [
          { text: ctx.t("sn.ev.sweetness_revealed"), cls: "big" },
          ...(d.values || []).map((v, seat) => `${whoOf(ctx, seat)}: ${cards(v)}`),
        ];
      case "round_scored":
        return [
          {
            text: ctx.t("sn.ev.round_scored", {
              round: d.round,
              scores: d.round_scores.map((r, seat) => `${whoOf(ctx, seat)} +${r} = ${d.totals[seat]}`).join("; "),
            }),
            cls: "big",
          },
        ];
      case "shop_returned":
        return [ctx.t("sn.ev.shop_returned", { who, tile: tileName(ctx, d.tile) })];
      case "start_player":
        return [ctx.t("sn.ev.start_player", { who, round: d.round })];
      case "shop_phase_started":
        return [{ text: ctx.t("sn.ev.shop_phase_started", { order: (d.pick_order || []).map((s) => whoOf(ctx, s)).join(", ") || ctx.t("ui.nobody") }), cls: "big" }];
      case "shop_none_left":
        return [ctx.t("sn.ev.shop_none_left", { who, level: d.max_level })];
      case "shop_chosen":
        return [ctx.t("sn.ev.shop_chosen", { who, tile: d.tile ? tileName(ctx, d.tile) : ctx.t("sn.level_tile", { level: d.level }) })];
      case "shop_drawn":
        return [ctx.t("sn.ev.shop_drawn", { tile: tileName(ctx, d.tile) })];
      case "shop_declined":
        return [ctx.t("sn.ev.shop_declined", { who })];
      case "shop_kept":
        return [ctx.t("sn.ev.shop_kept", { who })];
      case "game_over":
        return [{ text: ctx.t("sn.ev.game_over"), cls: "big" }];
      default:
        return null;
    }
  },

  pause(ev) {
    return { sweetness_revealed: 1200, round_scored: 1200, exchange_phase_ended: 700, shop_phase_started: 600 }[ev.event] ?? 250;
  },
};
