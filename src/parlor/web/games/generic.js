// The fallback renderer for any game (Mottainai until it gets its own): the view as readable
// nested lists, actions and events as "type: field value, ...". It shows only what the server sent.
import { h, humanize } from "../js/dom.js";

const SEAT_KEYS = new Set(["seat", "you", "target", "active", "start_player", "to_move", "owner", "opener", "holder", "winners"]);

function valueText(v, ctx, key) {
  if (v === null || v === undefined) return "—";
  if (typeof v === "boolean") return v ? ctx.t("ui.yes") : ctx.t("ui.no");
  if (SEAT_KEYS.has(key) && typeof v === "number") {
    return ctx.seatName(v);
  }
  if (typeof v === "string") return ctx.tMaybe(`term.${v}`, humanize(v));
  return String(v);
}

function tree(value, ctx, key, depth) {
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "muted" }, "—");
    if (value.every((x) => x === null || typeof x !== "object")) {
      return h("span", {}, value.map((x) => valueText(x, ctx, key)).join(", "));
    }
    return h("ol", { class: "tree-list" }, value.map((x) => h("li", {}, tree(x, ctx, key, depth + 1))));
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value);
    if (!entries.length) return h("span", { class: "muted" }, "—");
    return h(
      "dl",
      { class: `tree depth-${Math.min(depth, 3)}` },
      entries.map(([k, v]) => [h("dt", {}, ctx.tMaybe(`field.${k}`, humanize(k))), h("dd", {}, tree(v, ctx, k, depth + 1))]),
    );
  }
  return h("span", {}, valueText(value, ctx, key));
}

function fields(data, ctx) {
  return Object.entries(data || {})
    .filter(([k]) => k !== "type")
    .map(([k, v]) => `${ctx.tMaybe(`field.${k}`, humanize(k))}: ${typeof v === "object" && v !== null ? JSON.stringify(v) : valueText(v, ctx, k)}`)
    .join(", ");
}

export default {
  renderTable(view, ctx) {
    const players = view.players_info;
    const rest = { ...view };
    delete rest.players_info;
    return h(
      "section",
      { class: "generic card" },
      h("h2", {}, ctx.t("ui.table")),
      tree(rest, ctx, "", 0),
      Array.isArray(players)
        ? h(
            "div",
            { class: "generic-players" },
            players.map((p, i) =>
              h("div", { class: `card player${p.seat === ctx.you ? " me" : ""}` }, h("h3", {}, ctx.seatName(p.seat ?? i)), tree(p, ctx, "", 1)),
            ),
          )
        : null,
    );
  },
  actionText(action, view, ctx) {
    const rest = fields(action, ctx);
    const name = ctx.tMaybe(`group.${action.type}`, humanize(action.type));
    return rest ? `${name} — ${rest}` : name;
  },
  eventLines(ev, ctx) {
    const rest = fields(ev.data, ctx);
    const name = ctx.tMaybe(`event.${ev.event}`, humanize(ev.event));
    return [rest ? `${name}: ${rest}` : name];
  },
  pause() {
    return 150;
  },
};
