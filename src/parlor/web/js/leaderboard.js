// The leaderboard page (/leaderboard?game=<name>&players=<2|3-4|5+>): one game and player-count class
// at a time, the best players first (ordered by the server: openskill's conservative ordinal), each
// rating on the 1500 display scale with a provisional mark, and the signed-in player's own place.
import { h } from "./dom.js";
import { patch } from "./patch.js";
import { languagePicker, loadLang, t, tMaybe } from "./i18n.js";
import { answerOf, session } from "./session.js";

const CLASSES = ["2", "3-4", "5+"];
const app = document.getElementById("app");
let games = [];
let me = null;
let board = null;
let problem = "";
const query = new URLSearchParams(location.search);
let game = query.get("game");
let cls = query.get("players") || "2";

/** A rating as people read it: "1523", and "1523?" while provisional (the note under the table says why). */
function ratingText(value, provisional) {
  return provisional ? t("board.provisional_value", { rating: value }) : String(value);
}

function playerLink(name) {
  return h("a", { href: `/players/${encodeURIComponent(name)}`, class: "player-link" }, name);
}

function picks() {
  return [
    h("div", { class: "game-picks board-games", role: "group", "aria-label": t("profile.game") },
      games.map((g) => h("a", { class: `button game-pick${g.name === game ? " chosen" : ""}`, "data-game": g.name,
        "aria-current": g.name === game ? "page" : null, href: `/leaderboard?game=${encodeURIComponent(g.name)}&players=${encodeURIComponent(cls)}`,
        onclick: (ev) => { ev.preventDefault(); choose(g.name, cls); } }, tMaybe(`game.${g.name}.title`, g.name)))),
    h("div", { class: "class-picks", role: "group", "aria-label": t("profile.players") },
      CLASSES.map((c) => h("a", { class: `button class-pick${c === cls ? " chosen" : ""}`, "data-class": c,
        "aria-current": c === cls ? "page" : null, href: `/leaderboard?game=${encodeURIComponent(game)}&players=${encodeURIComponent(c)}`,
        onclick: (ev) => { ev.preventDefault(); choose(game, c); } }, t("profile.class", { players: c })))),
  ];
}

function yourPlace() {
  if (!me) return h("p", { class: "muted", id: "your-place" }, h("a", { href: "/account" }, t("board.sign_in")));
  if (!board.you) return h("p", { class: "muted", id: "your-place" }, t("board.you_unrated"));
  const y = board.you;
  return h("p", { id: "your-place", class: "your-place" },
    t("board.you", { place: y.place, rating: ratingText(y.display, y.provisional), games: y.games, n: y.games }));
}

function table() {
  if (!board.ratings.length) return h("p", { class: "muted", id: "board-empty" }, t("board.empty"));
  return h("table", { class: "board", id: "board" },
    h("thead", {}, h("tr", {}, h("th", {}, t("board.place")), h("th", {}, t("result.player")),
      h("th", {}, t("profile.rating")), h("th", {}, t("profile.games")))),
    h("tbody", {}, board.ratings.map((r) => h("tr", { class: `board-row${me && r.name === me.name ? " you" : ""}${r.provisional ? " provisional" : ""}`, "data-name": r.name },
      h("td", {}, String(r.place)), h("td", {}, playerLink(r.name)),
      h("td", { class: "board-rating" }, ratingText(r.display, r.provisional)), h("td", {}, String(r.games))))));
}

function render() {
  document.title = `Parlor — ${t("board.title")}`;
  const head = [h("h1", {}, t("board.title")), h("p", {}, h("a", { href: "/", id: "to-lobby" }, t("account.to_lobby")))];
  if (problem) {
    patch(app, [...head, ...picks(), h("p", { class: "error", id: "board-error", role: "alert" }, problem)]);
    return;
  }
  if (!board) return;
  patch(app, [
    ...head,
    ...picks(),
    h("h2", { id: "board-heading" }, t("profile.series", { game: tMaybe(`game.${game}.title`, game), players: t("profile.class", { players: cls }) })),
    yourPlace(),
    table(),
    h("p", { class: "muted" }, t("board.provisional_note", { n: board.provisional_games })),
  ]);
}

async function load() {
  problem = "";
  try {
    board = await answerOf(await fetch(`/api/leaderboard?game=${encodeURIComponent(game)}&players=${encodeURIComponent(cls)}`));
  } catch (err) {
    board = null;
    problem = err.code === "unknown_game" ? t("board.unknown_game", { game })
      : err.code === "bad_players_class" ? t("board.unknown_class", { players: cls }) : err.message;
  }
  render();
}

function choose(g, c) {
  game = g;
  cls = c;
  history.replaceState(null, "", `/leaderboard?game=${encodeURIComponent(game)}&players=${encodeURIComponent(cls)}`);
  load();
}

async function main() {
  await loadLang();
  document.getElementById("lang-slot").replaceChildren(languagePicker(() => render()));
  me = (await session()).account;
  games = (await answerOf(await fetch("/api/games"))).games.filter((g) => g.available);
  if (!game) game = games.length ? games[0].name : "";
  await load();
}

main().catch((err) => {
  app.textContent = String(err);
});
