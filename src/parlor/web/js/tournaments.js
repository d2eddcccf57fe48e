// Tournaments (/tournaments: the list and a new tournament's form; /tournaments/<id>: one tournament,
// its players, standings and rounds, with a link to each table: watch it while it plays, replay it
// after). Swiss pairing, byes and the tie-break are the server's (docs/protocol.md, "Tournaments").
import { h } from "./dom.js";
import { patch } from "./patch.js";
import { languagePicker, loadLang, t, tMaybe } from "./i18n.js";
import { answerOf, postJson, session } from "./session.js";

const app = document.getElementById("app");
const parts = location.pathname.split("/").filter(Boolean);
const tournamentId = parts.length > 1 ? decodeURIComponent(parts[1]) : null;
let me = null;
let list = null;
let one = null;
let games = [];
let problem = "";
let formError = "";
let refresh = null;
let sending = false; // a request on its way: a double click's second click sends nothing (one tournament, one sign-up)
// Days per move of a turn-based tournament (the lobby's choices for a turn-based table; "" is live).
const MOVE_DAYS = [1, 2, 3, 5, 7, 14];

/** Points as the rules write them: whole numbers, and a half as ½ ("1½", "½"), in every language. */
export function pointsText(points) {
  const whole = Math.floor(points);
  const half = Math.abs(points - whole - 0.5) < 1e-9;
  if (!half) return String(Math.round(points * 100) / 100);
  return whole ? `${whole}½` : "½";
}

function gameTitle(name) {
  return tMaybe(`game.${name}.title`, name);
}

function when(iso) {
  return new Date(iso).toLocaleString();
}

function statusText(tm) {
  return t(`tournament.status.${tm.status}`);
}

function row(tm) {
  return h("li", { class: "tournament-row", "data-id": tm.id },
    h("a", { href: `/tournaments/${encodeURIComponent(tm.id)}` }, tm.name), " · ",
    `${gameTitle(tm.game)} · ${t("tournament.per_table", { players: tm.players })} · ${when(tm.starts_at)} · `,
    t("tournament.signed", { n: tm.signed_up, max: tm.max_players }),
    tm.rated ? ` · ${t("open.rated_mark")}` : "");
}

function section(key, items) {
  return [h("h2", {}, t(`tournament.${key}`)),
    items.length ? h("ul", { class: `tournament-list ${key}` }, items.map(row)) : h("p", { class: "muted" }, t("tournament.none"))];
}

function field(label, input) {
  return h("label", {}, label, input);
}

function createForm() {
  if (!me) return h("p", {}, h("a", { href: "/account", class: "button" }, t("tournament.sign_in_to_create")));
  const soon = new Date(Date.now() + 3600 * 1000);
  soon.setSeconds(0, 0);
  const local = new Date(soon.getTime() - soon.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
  const turnTime = h("input", { type: "number", name: "turn_time", value: 60, min: 1 });
  // A turn-based tournament has no seconds per move: picking days clears them (the server refuses both).
  const moveDays = h("select", { name: "move_days" },
    h("option", { value: "" }, t("lobby.days_none")),
    MOVE_DAYS.map((d) => h("option", { value: String(d) }, t("lobby.days_n", { n: d }))));
  moveDays.addEventListener("change", () => (turnTime.disabled = moveDays.value !== ""));
  const form = h("form", { class: "tournament-form", id: "tournament-form" },
    field(t("tournament.name"), h("input", { type: "text", name: "name", required: true, maxlength: 80 })),
    field(t("tournament.game"), h("select", { name: "game" },
      games.filter((g) => g.available).map((g) => h("option", { value: g.name }, gameTitle(g.name))))),
    field(t("tournament.players"), h("input", { type: "number", name: "players", value: 2, min: 2, max: 5 })),
    field(t("tournament.starts_at"), h("input", { type: "datetime-local", name: "starts_at", value: local })),
    field(t("tournament.rounds"), h("input", { type: "number", name: "rounds", value: 3, min: 1, max: 20 })),
    field(t("tournament.turn_time"), turnTime),
    field(t("lobby.days_per_move"), moveDays),
    field(t("tournament.max_players"), h("input", { type: "number", name: "max_players", value: 16, min: 2 })),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "rated" }), t("tournament.rated")),
    h("button", { type: "submit", class: "primary", id: "create-tournament" }, t("tournament.create")),
    h("p", { class: "error", role: "alert", id: "tournament-form-error" }, formError));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (sending) return;
    const data = new FormData(form);
    const body = {
      name: data.get("name"), game: data.get("game"), players: Number(data.get("players")),
      starts_at: new Date(String(data.get("starts_at"))).toISOString(), rounds: Number(data.get("rounds")),
      max_players: Number(data.get("max_players")), rated: data.get("rated") === "on",
      ...(moveDays.value === "" ? { turn_time: Number(turnTime.value) } : { move_days: Number(moveDays.value) }),
    };
    sending = true;
    try {
      const made = await answerOf(await postJson("/api/tournaments", body));
      location.href = `/tournaments/${encodeURIComponent(made.id)}`;
    } catch (err) {
      sending = false;
      formError = refusal(err);
      render();
    }
  });
  return form;
}

function seatName(seat) {
  if (seat === null) return t("tournament.bot");
  return seat.name === null ? t("tournament.deleted") : seat.name;
}

function board(tb, current) {
  const names = tb.seats.map(seatName);
  const mine = me && tb.seats.some((s) => s && s.name === me.name);
  let link = null;
  if (tb.table_id && tb.points === null) {
    link = mine
      ? h("a", { class: "button primary", href: `/play/${encodeURIComponent(tb.table_id)}#seat` }, t("tournament.your_table"))
      : h("a", { class: "button", href: `/play/${encodeURIComponent(tb.table_id)}#watch` }, t("open.watch"));
  } else if (tb.table_id) {
    link = h("a", { class: "button", href: `/replay/${encodeURIComponent(tb.table_id)}` }, t("profile.replay"));
  }
  // (a bye says its point in its own words: no score after it)
  const points = tb.bye ? "" : tb.points ? ` · ${tb.points.map(pointsText).join(" – ")}` : current ? ` · ${t("tournament.playing")}` : "";
  return h("li", { class: "board", "data-table": tb.table_id || "" },
    tb.bye ? t("tournament.bye", { name: names[0] }) : names.join(" – "), points, " ", link);
}

function clockText(tm) {
  if (tm.status !== "running" || !tm.round_started_at) return "";
  if (tm.move_days !== null) {  // (a turn-based round runs for days: when it began says more than a clock)
    return t("tournament.round_began", { round: tm.current_round, rounds: tm.rounds, when: when(tm.round_started_at) });
  }
  const seconds = Math.max(0, Math.floor((Date.now() - new Date(tm.round_started_at).getTime()) / 1000));
  const mm = String(Math.floor(seconds / 60)).padStart(2, "0");
  const ss = String(seconds % 60).padStart(2, "0");
  return t("tournament.round_clock", { round: tm.current_round, rounds: tm.rounds, elapsed: `${mm}:${ss}`, seconds: tm.turn_time });
}

function showOne() {
  const tm = one;
  document.title = `Parlor — ${tm.name}`;
  let action = null;
  if (tm.status === "upcoming" || tm.status === "running") {
    if (!me) action = tm.status === "upcoming" ? h("a", { class: "button", href: "/account" }, t("tournament.sign_in_to_join")) : null;
    else if (tm.you && tm.you.signed_up) action = h("button", { id: "withdraw", onclick: () => act("withdraw") }, t("tournament.withdraw"));
    else if (tm.status === "upcoming") action = h("button", { id: "sign-up", class: "primary", onclick: () => act("sign-up") }, t("tournament.sign_up"));
  }
  return [
    h("h1", { id: "tournament-name" }, tm.name),
    h("p", {}, h("a", { href: "/tournaments" }, t("tournament.all"))),
    h("p", { id: "tournament-facts" },
      `${gameTitle(tm.game)} · ${t("tournament.per_table", { players: tm.players })} · ${when(tm.starts_at)} · `,
      t("tournament.rounds_of", { rounds: tm.rounds }), " · ",
      tm.move_days !== null
        ? t("tournament.days_per_move", { days: t("lobby.days_n", { n: tm.move_days }) })
        : t("tournament.seconds_per_move", { seconds: tm.turn_time }),
      tm.rated ? ` · ${t("open.rated_mark")}` : ""),
    h("p", { id: "tournament-status" }, statusText(tm)),
    h("p", { id: "round-clock", "aria-live": "off" }, clockText(tm)),
    action,
    h("p", { class: "error", role: "alert", id: "tournament-error" }, problem),
    h("h2", {}, t("tournament.standings")),
    h("div", { class: "scroll" }, h("table", { class: "standings", id: "standings" },
      h("tr", {}, h("th", {}, "#"), h("th", {}, t("tournament.player")), h("th", {}, t("tournament.score")), h("th", {}, t("tournament.buchholz"))),
      tm.standings.map((s) => h("tr", { class: s.withdrawn ? "standing withdrawn" : "standing" },
        h("td", {}, String(s.rank)), h("td", {}, s.name === null ? t("tournament.deleted") : s.name),
        h("td", {}, pointsText(s.score)), h("td", {}, pointsText(s.buchholz)))))),
    h("p", { class: "muted" }, t("tournament.rules")),
    tm.round_tables.length === 0 && tm.status === "upcoming" ? null : h("h2", {}, t("tournament.rounds_heading")),
    ...tm.round_tables.map((r) => h("section", { class: "round", "data-round": r.round },
      h("h3", {}, t("tournament.round", { round: r.round })),
      h("ul", { class: "boards" }, r.tables.map((tb) => board(tb, r.round === tm.current_round))))),
  ];
}

function render() {
  if (tournamentId) {
    if (!one) {
      // (a mistyped or old link: the way on is the list of tournaments)
      patch(app, [h("p", { class: "error", id: "tournament-error" }, problem || "…"),
        problem ? h("p", {}, h("a", { href: "/tournaments", id: "tournaments-all" }, t("tournament.all"))) : null]);
      return;
    }
    patch(app, showOne());
    return;
  }
  document.title = `Parlor — ${t("tournament.heading")}`;
  if (!list) {
    patch(app, [h("p", { class: "error" }, problem || "…")]);
    return;
  }
  patch(app, [
    h("h1", {}, t("tournament.heading")),
    h("p", {}, h("a", { href: "/" }, t("account.to_lobby"))),
    ...section("upcoming", list.upcoming), ...section("running", list.running), ...section("finished", list.finished),
    h("h2", {}, t("tournament.new")),
    createForm(),
  ]);
}

// The form's fields by the name the server gives a refused one, with the label the form shows.
const FIELD_LABELS = {
  name: "tournament.name", players: "tournament.players", starts_at: "tournament.starts_at", rounds: "tournament.rounds",
  turn_time: "tournament.turn_time", move_days: "lobby.days_per_move", max_players: "tournament.max_players",
};

/** A refusal in the reader's words: the code's own words where the catalog has them, else the
 * refused field by its label with the limits the server sent (the server's English only for a
 * refusal the page has no words for). */
function refusal(err) {
  const p = err.params || {};
  const own = tMaybe(`tournament.err.${err.code}`, null, p);
  if (own !== null) return own;
  const label = FIELD_LABELS[err.field];
  if (!label) return err.message;
  const field = t(label);
  if (p.min !== undefined && p.max !== undefined) return t("tournament.err.range", { field, min: p.min, max: p.max });
  if (p.max_days !== undefined) return t("tournament.err.too_far", { field, days: p.max_days });
  return t("tournament.err.field", { field });
}

async function act(what) {
  if (sending) return;
  sending = true;
  problem = "";
  try {
    await answerOf(await postJson(`/api/tournaments/${encodeURIComponent(tournamentId)}/${what}`, {}));
  } catch (err) {
    problem = refusal(err);
  }
  await load();
  sending = false;
}

async function load() {
  try {
    if (tournamentId) one = await answerOf(await fetch(`/api/tournaments/${encodeURIComponent(tournamentId)}`));
    else list = await answerOf(await fetch("/api/tournaments"));
  } catch (err) {
    problem = err.code === "tournament_not_found" ? t("tournament.not_found") : err.message;
  }
  render();
}

async function main() {
  await loadLang();
  document.getElementById("lang-slot").replaceChildren(languagePicker(() => render()));
  me = (await session()).account;
  if (!tournamentId) {
    try {
      games = (await answerOf(await fetch("/api/games"))).games;
    } catch {
      games = [];
    }
  }
  await load();
  // While it waits or runs, the page follows it: the rounds, the standings, the round's clock.
  refresh = setInterval(() => {
    if (tournamentId && one && (one.status === "upcoming" || one.status === "running")) load();
    else if (tournamentId && one) patch(app, showOne());
  }, 3000);
  setInterval(() => {
    const clock = document.getElementById("round-clock");
    if (clock && one) clock.textContent = clockText(one);
  }, 1000);
}

main().catch((err) => {
  if (refresh) clearInterval(refresh);
  app.textContent = String(err);
});
