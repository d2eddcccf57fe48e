// A player's page (/players/<name>): ratings on the 1500 display scale with their uncertainty and a
// provisional mark, the rating over time (a plot with dates), games and wins per game, and the last
// games with their date, opponents (linked), place, score, rating change and replay.
import { h, svg } from "./dom.js";
import { patch } from "./patch.js";
import { currentLang, languagePicker, loadLang, t, tMaybe } from "./i18n.js";
import { answerOf, session } from "./session.js";
import { reportForm } from "./report.js";

const app = document.getElementById("app");
// The name heads the page above the Follow/Block buttons (#follow-slot, drawn by friends.js) and the rest.
const head = document.getElementById("player-head");
const name = decodeURIComponent(location.pathname.split("/").pop());
let data = null;
let problem = "";
let reporting = null; // the open report form (js/report.js), kept across redraws
// The reader's account: only a signed-in reader may report a player (the server refuses a guest,
// after the form was filled in), and nobody reports themselves.
let me = null;

function classLabel(cls) {
  return t("profile.class", { players: cls });
}

function seriesLabel(game, cls) {
  return t("profile.series", { game: tMaybe(`game.${game}.title`, game), players: classLabel(cls) });
}

/** A date as the reader's language writes it (the axis and the history rows). */
function dateText(iso, withYear = true) {
  const opts = withYear ? { year: "numeric", month: "short", day: "numeric" } : { month: "short", day: "numeric" };
  return new Intl.DateTimeFormat(currentLang(), opts).format(new Date(iso));
}

function ratingText(value, provisional) {
  return provisional ? t("board.provisional_value", { rating: value }) : String(value);
}

function signed(change) {
  return change > 0 ? `+${change}` : change < 0 ? `\u2212${-change}` : "±0";
}

/** A seat at one of the player's tables, in words: a person's name linked to their page, a bot with
 * its level, a guest, or a deleted account. */
function who(o) {
  if (o.kind === "bot") return h("span", { class: "bot-name" }, t("ui.bot_named", { level: t(`level.${o.level}`) }));
  if (o.name && o.account) return h("a", { href: `/players/${encodeURIComponent(o.name)}`, class: "player-link" }, o.name);
  if (o.name) return h("span", {}, o.name);
  return h("span", {}, o.account ? t("open.deleted_player") : t("open.guest"));
}

/** The rating (display scale) after each rated game, over time: one line per game and player-count
 * class (a rating of its own: lines of different classes are never joined), dates along the bottom,
 * ratings up the side, and a legend naming each line. */
function plot(points) {
  const series = new Map(); // "game|class" -> points, oldest first
  for (const p of points) {
    const key = `${p.game}|${p.players_class}`;
    if (!series.has(key)) series.set(key, []);
    series.get(key).push(p);
  }
  const width = 360, height = 160, left = 40, right = 10, top = 8, bottom = 22;
  const times = points.map((p) => Date.parse(p.at));
  const first = Math.min(...times), last = Math.max(...times);
  const values = points.map((p) => p.display);
  const low = Math.min(1500, ...values) - 10, high = Math.max(1500, ...values) + 10;
  const x = (at) => left + (last === first ? (width - left - right) / 2 : ((Date.parse(at) - first) * (width - left - right)) / (last - first));
  const y = (v) => height - bottom - ((v - low) * (height - top - bottom)) / (high - low);
  const lines = [...series.entries()].map(([key, pts], n) => {
    const d = pts.map((p, i) => `${i ? "L" : "M"}${x(p.at).toFixed(1)},${y(p.display).toFixed(1)}`).join(" ");
    return svg("g", { class: `rating-series series-${n % 6}`, "data-series": key },
      svg("path", { d, fill: "none", stroke: "currentColor", "stroke-width": 2 }),
      ...pts.map((p) => svg("circle", { cx: x(p.at).toFixed(1), cy: y(p.display).toFixed(1), r: 3, fill: "currentColor" },
        svg("title", {}, `${dateText(p.at)}: ${p.display}`))));
  });
  const sameYear = new Date(first).getFullYear() === new Date(last).getFullYear();
  // Games of a day or two apart: the axis says the time as well, or its dates would all read the same.
  const close = last - first < 2 * 86400000;
  const tickText = (at, i) => close
    ? new Intl.DateTimeFormat(currentLang(), { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }).format(new Date(at))
    : dateText(new Date(at).toISOString(), !sameYear || i === ticks.length - 1);
  const ticks = last === first ? [first] : [first, (first + last) / 2, last];
  const axis = svg("g", { class: "rating-axis" },
    svg("line", { x1: left, y1: height - bottom, x2: width - right, y2: height - bottom, stroke: "currentColor", "stroke-width": 0.5 }),
    svg("line", { x1: left, y1: top, x2: left, y2: height - bottom, stroke: "currentColor", "stroke-width": 0.5 }),
    ...ticks.map((at, i) => svg("text", { class: "axis-date", x: x(new Date(at).toISOString()).toFixed(1), y: height - 6, "font-size": 10, fill: "currentColor",
      "text-anchor": ticks.length === 1 ? "middle" : i === 0 ? "start" : i === ticks.length - 1 ? "end" : "middle" }, tickText(at, i))),
    ...[Math.round(low + 10), Math.round(high - 10)].filter((v, i, all) => all.indexOf(v) === i).map((v) =>
      svg("text", { class: "axis-rating", x: left - 4, y: (y(v) + 3).toFixed(1), "font-size": 10, fill: "currentColor", "text-anchor": "end" }, String(v))));
  const legend = h("ul", { class: "rating-legend", id: "rating-legend" },
    [...series.keys()].map((key, n) => {
      const [game, cls] = key.split("|");
      return h("li", { class: `series-${n % 6}`, "data-series": key }, h("span", { class: "swatch", "aria-hidden": "true" }), seriesLabel(game, cls));
    }));
  return h("figure", { class: "rating-figure" },
    svg("svg", { class: "rating-plot", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": t("profile.plot") }, axis, ...lines),
    legend);
}

function gameRow(g) {
  const bits = [
    h("span", { class: "game-when" }, dateText(g.finished_at)),
    ` · ${tMaybe(`game.${g.game}.title`, g.game)} · `,
    g.place !== null ? t("profile.place", { place: g.place, n: g.players }) : "",
    g.score !== null && g.score !== undefined ? ` · ${t("profile.score", { score: g.score })}` : "",
    g.rated ? ` · ${t("ui.rated")}` : "",
    g.abandoned ? ` · ${t("profile.abandoned")}` : g.absent ? ` · ${t("profile.absent")}` : "",
    "change" in g ? h("span", { class: `rating-change ${g.change > 0 ? "up" : g.change < 0 ? "down" : ""}` }, ` · ${t("profile.change", { before: g.display_before, change: signed(g.change) })}`) : "",
  ];
  const against = g.opponents.length
    ? [h("br"), h("span", { class: "opponents" }, `${t("profile.against")} `, ...g.opponents.flatMap((o, i) => [i ? ", " : "", who(o)]))]
    : [];
  return h("li", { class: "game-row", "data-table": g.table_id }, ...bits, " · ",
    h("a", { href: g.replay, class: "replay-link" }, t("profile.replay")), ...against);
}

function render() {
  document.title = `Parlor — ${name}`;
  if (problem) {
    patch(head, []);
    patch(app, [h("p", { class: "error", id: "profile-error" }, problem), h("p", {}, h("a", { href: "/" }, t("account.to_lobby")))]);
    return;
  }
  if (!data) return;
  patch(head, [h("h1", { id: "player-name" }, data.name)]);
  patch(app, [
    h("p", { class: "page-links" }, h("a", { href: "/" }, t("account.to_lobby")), " · ", h("a", { href: "/leaderboard", id: "leaderboard-link" }, t("board.title"))),
    h("h2", {}, t("profile.ratings")),
    data.ratings.length
      ? h("table", { class: "ratings" },
        h("tr", {}, h("th", {}, t("profile.game")), h("th", {}, t("profile.players")), h("th", {}, t("profile.rating")), h("th", {}, t("profile.games"))),
        data.ratings.map((r) => h("tr", { class: "rating-row", "data-game": r.game },
          h("td", {}, h("a", { href: `/leaderboard?game=${encodeURIComponent(r.game)}&players=${encodeURIComponent(r.players_class)}`, class: "board-link" }, tMaybe(`game.${r.game}.title`, r.game))),
          h("td", {}, classLabel(r.players_class)),
          h("td", { class: "rating-value" }, t("profile.rating_value", { rating: ratingText(r.display, r.provisional), sigma: r.uncertainty })), h("td", {}, String(r.games)))))
      : h("p", { class: "muted" }, t("profile.unrated")),
    data.history.length ? plot(data.history) : null,
    data.stats.length ? h("h2", {}, t("profile.stats")) : null,
    data.stats.length ? h("ul", { class: "win-stats", id: "win-stats" }, data.stats.map((s) => h("li", { class: "stat-row", "data-game": s.game },
      t("profile.win_rate", { game: tMaybe(`game.${s.game}.title`, s.game), n: s.played, won: s.won, rate: Math.round(100 * s.win_rate) })))) : null,
    h("h2", {}, t("profile.last_games")),
    data.games.length
      ? h("ul", { class: "games" }, data.games.map(gameRow))
      : h("p", { class: "muted" }, t("profile.no_games")),
    // Reporting a player is there for who needs it, after the page's own content (not above its links).
    reporting || (!me || me.name === data.name ? null : h("p", { class: "report-slot" }, h("button", { type: "button", class: "small link", id: "report-player", onclick: () => {
      reporting = reportForm({ player: data.name }, () => { reporting = null; render(); });
      render();
    } }, t("report.button")))),
  ]);
}

async function main() {
  await loadLang();
  document.getElementById("lang-slot").replaceChildren(languagePicker(() => render()));
  me = (await session()).account;
  try {
    data = await answerOf(await fetch(`/api/players/${encodeURIComponent(name)}`));
  } catch (err) {
    problem = err.code === "player_not_found" ? t("profile.not_found") : err.message;
  }
  render();
}

main().catch((err) => {
  app.textContent = String(err);
});
