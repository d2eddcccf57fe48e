// A player's page (/players/<name>): ratings with their uncertainty, the rating over time (a plot of
// the rated games), and the last games with links to their replays.
import { h, svg } from "./dom.js";
import { patch } from "./patch.js";
import { languagePicker, loadLang, t, tMaybe } from "./i18n.js";
import { answerOf } from "./session.js";
import { reportForm } from "./report.js";

const app = document.getElementById("app");
const name = decodeURIComponent(location.pathname.split("/").pop());
let data = null;
let problem = "";
let reporting = null; // the open report form (js/report.js), kept across redraws

function classLabel(cls) {
  return t("profile.class", { players: cls });
}

function seriesLabel(game, cls) {
  return t("profile.series", { game: tMaybe(`game.${game}.title`, game), players: classLabel(cls) });
}

/** The rating after each rated game, oldest first: one line per game and player-count class (a rating
 * of its own: lines of different classes are never joined), on one scale, with a legend naming each. */
function plot(rated) {
  const series = new Map(); // "game|class" -> games, oldest first
  for (const g of rated) {
    const key = `${g.game}|${g.players_class}`;
    if (!series.has(key)) series.set(key, []);
    series.get(key).push(g);
  }
  const width = 320, height = 100, pad = 8;
  const values = rated.map((p) => p.rating_after);
  const low = Math.min(0, ...values), high = Math.max(1, ...values);
  const longest = Math.max(...[...series.values()].map((s) => s.length));
  const x = (i) => pad + (longest < 2 ? 0 : (i * (width - 2 * pad)) / (longest - 1));
  const y = (v) => height - pad - ((v - low) * (height - 2 * pad)) / (high - low || 1);
  const lines = [...series.entries()].map(([key, points], n) => {
    const d = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.rating_after).toFixed(1)}`).join(" ");
    return svg("g", { class: `rating-series series-${n % 6}`, "data-series": key },
      svg("path", { d, fill: "none", stroke: "currentColor", "stroke-width": 2 }),
      ...points.map((p, i) => svg("circle", { cx: x(i).toFixed(1), cy: y(p.rating_after).toFixed(1), r: 3, fill: "currentColor" })));
  });
  const legend = h("ul", { class: "rating-legend", id: "rating-legend" },
    [...series.keys()].map((key, n) => {
      const [game, cls] = key.split("|");
      return h("li", { class: `series-${n % 6}`, "data-series": key }, h("span", { class: "swatch", "aria-hidden": "true" }), seriesLabel(game, cls));
    }));
  return h("figure", { class: "rating-figure" },
    svg("svg", { class: "rating-plot", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": t("profile.plot") }, ...lines),
    legend);
}

function render() {
  document.title = `Parlor — ${name}`;
  if (problem) {
    patch(app, [h("p", { class: "error", id: "profile-error" }, problem)]);
    return;
  }
  if (!data) return;
  const rated = data.games.filter((g) => "rating_after" in g).reverse();
  patch(app, [
    h("h1", { id: "player-name" }, data.name),
    reporting || h("p", {}, h("button", { type: "button", class: "small link", id: "report-player", onclick: () => {
      reporting = reportForm({ player: data.name }, () => { reporting = null; render(); });
      render();
    } }, t("report.button"))),
    h("p", {}, h("a", { href: "/" }, t("account.to_lobby"))),
    h("h2", {}, t("profile.ratings")),
    data.ratings.length
      ? h("table", { class: "ratings" },
        h("tr", {}, h("th", {}, t("profile.game")), h("th", {}, t("profile.players")), h("th", {}, t("profile.rating")), h("th", {}, t("profile.games"))),
        data.ratings.map((r) => h("tr", { class: "rating-row", "data-game": r.game },
          h("td", {}, tMaybe(`game.${r.game}.title`, r.game)), h("td", {}, classLabel(r.players_class)),
          h("td", {}, t("profile.rating_value", { rating: r.rating.toFixed(1), sigma: r.sigma.toFixed(1) })), h("td", {}, String(r.games)))))
      : h("p", { class: "muted" }, t("profile.unrated")),
    rated.length ? plot(rated) : null,
    h("h2", {}, t("profile.last_games")),
    data.games.length
      ? h("ul", { class: "games" }, data.games.map((g) => h("li", { class: "game-row", "data-table": g.table_id },
        `${tMaybe(`game.${g.game}.title`, g.game)} · `,
        g.place !== null ? t("profile.place", { place: g.place, n: g.players }) : "",
        g.rated ? ` · ${t("open.rated_mark")}` : "",
        g.abandoned ? ` · ${t("profile.abandoned")}` : g.absent ? ` · ${t("profile.absent")}` : "",
        "rating_after" in g ? ` · ${t("profile.change", { before: g.rating_before.toFixed(1), after: g.rating_after.toFixed(1) })}` : "",
        " · ", h("a", { href: g.replay, class: "replay-link" }, t("profile.replay")))))
      : h("p", { class: "muted" }, t("profile.no_games")),
  ]);
}

async function main() {
  await loadLang();
  document.getElementById("lang-slot").replaceChildren(languagePicker(() => render()));
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
