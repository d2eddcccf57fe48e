// The lobby: pick a game, players, rule options and seats; create the table; hand out the links.
import { unreadBadge } from "./notifications.js";
import { h, humanize } from "./dom.js";
import { patch } from "./patch.js";
import { languagePicker, loadLang, t, tMaybe } from "./i18n.js";
import { rememberHost } from "./host.js";
import { registerServiceWorker } from "./pwa.js";
import { answerOf, postJson, session } from "./session.js";

// Time per move offered in the lobby (seconds; null = no clock).
export const TURN_TIMES = [null, 30, 60, 120, 300];

const app = document.getElementById("app");
let catalog = null; // the answer of GET /api/games
let form = { game: null, players: 0, options: {}, seats: [], turnTime: null, botsBeforeJoin: false, hints: false, public: false, rated: false, fillAfter: 60, daysPerMove: null };
let created = null; // the answer of POST /api/tables
let me = null; // the signed-in player ({name}) or null: a guest
let open = { waiting: [], playing: [] }; // GET /api/lobby for the chosen game
let fillChosen = false; // the player picked quick play's wait for bots (else it follows days a move)
let openAt = 0; // performance.now() when that answer came (its fill_bots_in count from then)
let mine = []; // the signed-in player's unfinished tables
let kept = []; // the unfinished tables whose seat this browser holds (a guest's own games)
let lobbyError = "";
// Turn-based tables: the days each decision may take (null: a live table).
export const DAYS_PER_MOVE = [null, 1, 2, 3, 5, 7, 14];
// Quick play: after how long a table still waiting for players fills its empty seats with bots.
export const FILL_AFTER = [null, 30, 60, 120, 300];

export function optionLabel(game, name) {
  return tMaybe(`opt.${game}.${name}`, humanize(name));
}

export function optionValue(game, name, value) {
  if (value === true) return t("ui.yes");
  if (value === false) return t("ui.no");
  if (value === null) return t("lobby.opt_none");
  // A start player given as a seat number reads as that seat (with its name, once typed).
  if (typeof value === "number" && /start_player|first_player/.test(name)) return seatLabel(value);
  return tMaybe(`optval.${game}.${name}.${value}`, tMaybe(`optval.${value}`, String(value)));
}

function seatLabel(i) {
  const seat = form.seats[i];
  const label = t("lobby.seat_n", { n: i + 1 });
  return seat && seat.kind === "human" && seat.name ? `${label} (${seat.name})` : label;
}

/** The one-line help of an option: the catalog's, else the server's own words (English). */
function optionHelp(game, o) {
  return tMaybe(`opthelp.${game}.${o.name}`, o.meaning || o.help || "");
}

// ---- valid combinations -------------------------------------------------------------------------
// The player range under the chosen options: the game's, narrowed by every chosen option value the
// server lists in player_ranges_by_option; a seat-number start player needs that many seats.
function rangeFor(g, options) {
  // An option value listed in player_ranges_by_option sets the range (max_players = 6 widens it,
  // team_play narrows it); several such values must all hold.
  const matching = (g.player_ranges_by_option || []).filter((r) => JSON.stringify(options[r.option]) === JSON.stringify(r.value));
  let low = matching.length ? Math.max(...matching.map((r) => r.min_players)) : g.min_players;
  let high = matching.length ? Math.min(...matching.map((r) => r.max_players)) : g.max_players;
  for (const o of g.options) {
    const v = options[o.name];
    if (typeof v === "number" && /start_player|first_player/.test(o.name) && (o.allowed || []).some((a) => typeof a === "string")) low = Math.max(low, v + 1);
  }
  return [low, high];
}

/** Every player count some choice of options allows (the players list; the others are disabled). */
function widestRange(g) {
  const all = [[g.min_players, g.max_players], ...(g.player_ranges_by_option || []).map((r) => [r.min_players, r.max_players])];
  return [Math.min(...all.map((r) => r[0])), Math.max(...all.map((r) => r[1]))];
}

/** Whether choosing value for option o keeps a valid table at the current player count. */
function valueFits(g, o, value) {
  const [low, high] = rangeFor(g, { ...form.options, [o.name]: value });
  return low <= form.players && form.players <= high;
}

function gameOf(name) {
  return catalog.games.find((g) => g.name === name);
}

function chooseGame(name) {
  const g = gameOf(name);
  form.game = name;
  form.options = {};
  for (const o of g.options) form.options[o.name] = o.default;
  const [low, high] = rangeFor(g, form.options);
  form.players = Math.min(Math.max(form.players || 3, low), high);
  resizeSeats();
}

function resizeSeats() {
  const seats = [];
  for (let i = 0; i < form.players; i++) {
    seats.push(form.seats[i] || (i === 0 ? { kind: "human", name: "" } : { kind: "bot", level: "medium" }));
  }
  form.seats = seats;
}

function gameTitle(g) {
  return tMaybe(`game.${g.name}.title`, g.title || g.name);
}

function optionInput(g, o) {
  const id = `opt-${o.name}`;
  const value = form.options[o.name];
  let input;
  if (o.type === "bool") {
    input = h("input", { type: "checkbox", id, name: o.name, checked: value === true });
    input.addEventListener("change", () => (form.options[o.name] = input.checked));
  } else if (o.allowed) {
    // Values that no player count of this table allows are offered disabled, with the reason.
    const values = o.nullable && !o.allowed.includes(null) ? [null, ...o.allowed] : o.allowed;
    input = h(
      "select",
      { id, name: o.name, "aria-describedby": `${id}-help`, "data-value": JSON.stringify(value) },
      values.map((a) =>
        h("option", { value: JSON.stringify(a), selected: a === value, disabled: !valueFits(g, o, a) }, optionValue(g.name, o.name, a)),
      ),
    );
    input.addEventListener("change", () => {
      form.options[o.name] = JSON.parse(input.value);
      render();
    });
  } else {
    const numeric = o.type === "int" || o.type === "float";
    input = h("input", { type: numeric ? "number" : "text", id, name: o.name, value: value ?? "" });
    input.addEventListener("change", () => {
      form.options[o.name] = numeric ? Number(input.value) : input.value;
    });
  }
  const changed = JSON.stringify(value) !== JSON.stringify(o.default);
  const help = optionHelp(g.name, o);
  return h(
    "div",
    { class: `opt opt-${o.type}${changed ? " changed" : ""}` },
    h("label", { for: id }, optionLabel(g.name, o.name)),
    input,
    help ? h("small", { class: "opt-help", id: `${id}-help` }, help) : null,
  );
}

function turnTimeLabel(seconds) {
  if (seconds === null) return t("lobby.turn_none");
  return seconds < 120 ? t("lobby.turn_seconds", { n: seconds }) : t("lobby.turn_minutes", { n: seconds / 60 });
}

// "after 30 seconds": its own texts, not "after" + turnTimeLabel, for the languages whose words
// change after it (Czech "po 30 sekundách").
function fillAfterLabel(seconds) {
  if (seconds === null) return t("open.fill_never");
  return seconds < 120 ? t("open.fill_seconds", { n: seconds }) : t("open.fill_minutes", { n: seconds / 60 });
}

// whole minutes as minutes ("1 minute"), anything else in seconds
function awayLabel(seconds) {
  return seconds >= 60 && seconds % 60 === 0 ? t("lobby.turn_minutes", { n: seconds / 60 }) : t("lobby.turn_seconds", { n: seconds });
}

/** Time per move and whether bots may play for players who never came or went away. */
function tableLife() {
  const turn = h(
    "select",
    { id: "turn-time", name: "turn_time" },
    TURN_TIMES.map((s) => h("option", { value: s === null ? "" : String(s), selected: s === form.turnTime }, turnTimeLabel(s))),
  );
  turn.addEventListener("change", () => (form.turnTime = turn.value === "" ? null : Number(turn.value)));
  // A turn-based table has no time per move: picking days clears it (the server refuses both).
  const days = h(
    "select",
    { id: "days-per-move", name: "days_per_move" },
    DAYS_PER_MOVE.map((d) => h("option", { value: d === null ? "" : String(d), selected: d === form.daysPerMove },
      d === null ? t("lobby.days_none") : t("lobby.days_n", { n: d }))),
  );
  days.addEventListener("change", () => {
    form.daysPerMove = days.value === "" ? null : Number(days.value);
    // Nobody answers a turn-based table within a minute: until the player picks a wait for bots
    // themselves, quick play with days a move waits for players (never bots), a live one 60 s.
    if (!fillChosen) form.fillAfter = form.daysPerMove !== null ? null : 60;
    turn.disabled = form.daysPerMove !== null;
    if (form.daysPerMove !== null) turn.value = "", form.turnTime = null;
    render(); // (Play now, above, opens a table of these days a move: its label says so)
  });
  turn.disabled = form.daysPerMove !== null;
  const early = h("input", { type: "checkbox", id: "bots-before-join", name: "bots_before_join", checked: form.botsBeforeJoin });
  early.addEventListener("change", () => (form.botsBeforeJoin = early.checked));
  const hints = h("input", { type: "checkbox", id: "hints", name: "hints", checked: form.hints && !form.rated, disabled: form.rated });
  hints.addEventListener("change", () => (form.hints = hints.checked));
  const listed = h("input", { type: "checkbox", id: "public", name: "public", checked: form.public });
  listed.addEventListener("change", () => (form.public = listed.checked));
  const rated = h("input", { type: "checkbox", id: "rated", name: "rated", checked: form.rated });
  // A rated game is played without the judge's hints (the server refuses both together).
  rated.addEventListener("change", () => {
    form.rated = rated.checked;
    hints.disabled = rated.checked;
    if (rated.checked) hints.checked = form.hints = false;
  });
  return h(
    "div",
    { class: "lobby-life" },
    h("div", { class: "field" }, h("label", { for: "turn-time" }, t("lobby.turn_time")), turn),
    h("p", { class: "muted" }, t("lobby.turn_help")),
    h("div", { class: "field" }, h("label", { for: "days-per-move" }, t("lobby.days_per_move")), days),
    h("p", { class: "muted" }, t("lobby.days_help")),
    // the server's own setting (GET /api/games): a player away that long is played by a bot
    typeof catalog.seat_timeout === "number"
      ? h("p", { class: "muted", id: "away-note" }, t("lobby.away_note", { when: awayLabel(catalog.seat_timeout) }))
      : null,
    h("div", { class: "field" }, early, " ", h("label", { for: "bots-before-join" }, t("lobby.bots_before_join"))),
    h("div", { class: "field" }, hints, " ", h("label", { for: "hints" }, t("lobby.hints"))),
    h("div", { class: "field" }, listed, " ", h("label", { for: "public" }, t("open.public"))),
    h("p", { class: "muted" }, t("open.public_help")),
    h("div", { class: "field" }, rated, " ", h("label", { for: "rated" }, t("open.rated"))),
    h("p", { class: "muted" }, t("open.rated_help")),
  );
}

// ---- open tables, quick play, the player's own tables ---------------------------------------------
async function refreshOpen() {
  try {
    open = await answerOf(await fetch(`/api/lobby?game=${encodeURIComponent(form.game)}`));
    openAt = performance.now();
    mine = me ? (await answerOf(await fetch("/api/account/tables"))).tables : [];
  } catch (err) {
    lobbyError = t("lobby.error", { message: err.message });
  }
  render();
}

// A seat taken in this browser keeps its token under parlor.table.<id> (the table page reads it from
// there, and marks it parlor.seated.<id> when the token is a seat's), so a guest who closed the tab
// can find the game again here: the tables of those seats that are still being played. Each is asked for by its public summary (no token leaves the browser); one
// the server no longer has is forgotten. Read when the lobby opens, not at every poll.
const KEPT_PREFIX = "parlor.table.";
const KEPT_MOST = 20;

async function readKeptTables() {
  const ids = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const id = key && key.startsWith(KEPT_PREFIX) ? key.slice(KEPT_PREFIX.length) : null;
    if (id && localStorage.getItem(key) && localStorage.getItem(`parlor.seated.${id}`) === "1") ids.push(id);
  }
  const found = await Promise.all(ids.slice(0, 4 * KEPT_MOST).map(async (id) => {
    try {
      const res = await fetch(`/api/tables/${encodeURIComponent(id)}`);
      if (res.status === 404) ["table", "seated", "claim"].forEach((k) => localStorage.removeItem(`parlor.${k}.${id}`));
      return res.ok ? await res.json() : null;
    } catch {
      return null; // offline: the list waits for the next visit
    }
  }));
  kept = found
    .filter((e) => e && (e.status === "waiting" || e.status === "playing"))
    .sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)))
    .slice(0, KEPT_MOST);
  render();
  document.body.dataset.keptRead = "1"; // (what a test waits for: the list is as this browser has it)
}

/** The player's unfinished tables: the account's (from the server) and those this browser holds a seat of. */
function yourTables() {
  const ids = new Set(mine.map((e) => e.id));
  return [
    ...mine.map((e) => ({ entry: e, href: `/play/${encodeURIComponent(e.id)}#seat` })),
    ...kept.filter((e) => !ids.has(e.id)).map((e) => ({ entry: e, href: `/play/${encodeURIComponent(e.id)}` })),
  ];
}

/** Seated (a sit-down or quick play answered): the table's page with this seat's own token. */
function goSeated(answer) {
  localStorage.setItem(`parlor.table.${answer.table_id}`, answer.token);
  location.assign(`/play/${encodeURIComponent(answer.table_id)}#token=${answer.token}`);
}

// A sit-down or quick play on its way (then the page on its way to the table): a second click, a
// double click or a tap on another table's "Sit down", is ignored, else one person holds two seats.
let seating = false;
// Back from the table to a lobby the browser kept in memory: its buttons work again.
window.addEventListener("pageshow", (ev) => { if (ev.persisted) seating = false; });

async function seatedBy(path, body) {
  if (seating) return;
  seating = true;
  lobbyError = "";
  try {
    goSeated(await answerOf(await postJson(path, body)));
  } catch (err) {
    seating = false;
    lobbyError = t("lobby.error", { message: err.message });
    refreshOpen();
  }
}

/** "Play now" while this browser already holds a seat at a table of the same game and size that still
 * waits for players (back from the table to the lobby): that table again, not a second seat elsewhere.
 * Its seat's token is the one kept when it was taken (a seat stood up from forgets it). */
function backToHeldSeat() {
  const held = (open ? open.waiting : []).find((e) =>
    e.game === form.game && e.players === form.players && localStorage.getItem(`parlor.table.${e.id}`));
  if (!held) return false;
  if (seating) return true;
  seating = true;
  location.assign(`/play/${encodeURIComponent(held.id)}#token=${localStorage.getItem(`parlor.table.${held.id}`)}`);
  return true;
}

function guestName() {
  const box = document.getElementById("guest-name");
  const name = box ? box.value.trim() : "";
  if (name) localStorage.setItem("parlor.guest_name", name);
  return name || undefined;
}

function seatWords(entry) {
  return entry.seats.map((s) =>
    s.kind === "bot" ? t("lobby.bot_at", { level: t(`level.${s.level}`) })
      : s.open ? t("open.free_seat")
        : s.name || (s.account ? t("open.deleted_player") : t("open.guest")),
  ).join(" · ");
}

/** The seats of a listed table: as seatWords says, each player's name linked to their page. */
function seatNodes(entry) {
  return entry.seats.flatMap((s, i) => [
    i ? " · " : null,
    s.kind === "human" && !s.open && s.name && s.account
      ? h("a", { href: `/players/${encodeURIComponent(s.name)}`, class: "player-link" }, s.name)
      : seatWords({ seats: [s] }),
  ]);
}

/** The rule options a listed table changed from the game's defaults, in words. */
function optionWords(entry) {
  const g = gameOf(entry.game);
  if (!g) return "";
  return g.options
    .filter((o) => entry.options[o.name] !== undefined && JSON.stringify(entry.options[o.name]) !== JSON.stringify(o.default))
    .map((o) => `${optionLabel(g.name, o.name)}: ${optionValue(g.name, o.name, entry.options[o.name])}`)
    .join(t("ui.list_sep"));
}

function openRow(entry, waiting) {
  const g = gameOf(entry.game);
  const words = [
    g ? gameTitle(g) : entry.game,
    t("open.players", { n: entry.players }),
    // a turn-based table has no clock: its days a move say how it is played
    entry.days_per_move ? t("tournament.days_per_move", { days: t("lobby.days_n", { n: entry.days_per_move }) }) : turnTimeLabel(entry.turn_time),
    optionWords(entry) || null,
  ].filter(Boolean).join(" · ");
  const action = waiting
    ? h("button", { type: "button", class: "small sit-down", "data-table": entry.id,
        onclick: () => seatedBy(`/api/tables/${encodeURIComponent(entry.id)}/sit`, { name: guestName() }) }, t("open.sit"))
    : h("a", { class: "button small watch", href: `/play/${encodeURIComponent(entry.id)}#watch` }, t("open.watch"));
  const free = entry.seats.filter((s) => s.open).length;
  const fill = waiting && typeof entry.fill_bots_in === "number"
    ? h("span", { class: "open-fill", "data-fill-in": String(entry.fill_bots_in), "data-free": String(free) },
      fillInText(entry.fill_bots_in, free)) : null;
  return h("li", { class: "open-table", "data-table": entry.id },
    h("span", { class: "open-words" }, words, entry.rated ? " · " : null, entry.rated ? h("span", { class: "rated-badge" }, t("ui.rated")) : null),
    h("small", { class: "muted open-seats" }, ...seatNodes(entry), fill ? " · " : null, fill), action);
}

// A waiting table that fills its empty seats with bots counts down to it ("bots join in 0:42"), from
// the seconds left the server gave (so a wrong clock here does not matter); at zero the list is read
// again, and the table, its seats now bots, has moved to the tables being played.
function fillInText(seconds, free) {
  const left = Math.max(0, Math.ceil(seconds - (performance.now() - openAt) / 1000));
  return t("open.fill_in", { n: free, time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` });
}

// The lists are read again every READ_EVERY seconds while the page is in view (tables open, fill
// and end while the lobby is open); a second after a countdown ends; and, while a row still says
// 0:00 (its bots came late, or it was read at zero), every LATE_EVERY seconds until it moves.
const READ_EVERY = 10;
const LATE_EVERY = 3;
let rereading = false;
setInterval(() => {
  let due = false;
  const since = (performance.now() - openAt) / 1000;
  for (const el of document.querySelectorAll(".open-fill[data-fill-in]")) {
    const seconds = Number(el.dataset.fillIn);
    el.textContent = fillInText(seconds, Number(el.dataset.free));
    if (seconds > 0 && since >= seconds + 1) due = true;
    if (seconds <= 0 && since >= LATE_EVERY) due = true;
  }
  if (openAt && since >= READ_EVERY && document.visibilityState === "visible") due = true;
  if (due && !rereading) {
    rereading = true;
    refreshOpen().finally(() => (rereading = false));
  }
}, 1000);

function openTables() {
  const fill = h(
    "select",
    { id: "fill-after", name: "fill_after", "aria-label": t("open.fill_after") },
    FILL_AFTER.map((s) => h("option", { value: s === null ? "" : String(s), selected: s === form.fillAfter },
      fillAfterLabel(s))),
  );
  fill.addEventListener("change", () => {
    form.fillAfter = fill.value === "" ? null : Number(fill.value);
    fillChosen = true;
  });
  const g = gameOf(form.game);
  const play = h("button", { type: "button", class: "primary", id: "play-now",
    onclick: () => backToHeldSeat() || seatedBy("/api/quick-play", { game: form.game, players: form.players, name: guestName(),
      fill_bots_after: form.fillAfter, ...(me && form.rated ? { rated: true } : {}),
      ...(form.daysPerMove !== null ? { days_per_move: form.daysPerMove } : {}) }) },
  t("open.play_now", { game: gameTitle(g), n: form.players }),
  // (the days a move kept on one line: "1手3日" broken before its last character reads wrong)
  form.daysPerMove !== null ? " · " : null,
  form.daysPerMove !== null ? h("span", { class: "play-days" }, t("tournament.days_per_move", { days: t("lobby.days_n", { n: form.daysPerMove }) })) : null);
  // Rated quick play (signed in): the same choice as the table form's "Rated game", beside Play now.
  const quickRated = me ? h("input", { type: "checkbox", id: "quick-rated", name: "quick_rated", checked: form.rated }) : null;
  if (quickRated) quickRated.addEventListener("change", () => { form.rated = quickRated.checked; if (form.rated) form.hints = false; render(); });
  const name = me ? null : h("input", { type: "text", id: "guest-name", maxlength: 40, placeholder: t("open.guest_name"),
    value: localStorage.getItem("parlor.guest_name") || "" });
  const yours = yourTables();
  return h(
    "section",
    { class: "card open-tables" },
    h("h2", {}, t("open.heading")),
    h("div", { class: "field quick" }, name, play,
      quickRated ? h("label", { class: "quick-rated", for: "quick-rated" }, quickRated, " ", t("ui.rated")) : null,
      h("label", { for: "fill-after" }, t("open.fill_after")), fill),
    h("p", { class: "muted" }, t("open.quick_help")),
    yours.length ? h("h3", {}, t("open.yours")) : null,
    yours.length ? h("ul", { class: "open-list mine" }, yours.map(({ entry: e, href }) => h("li", { class: "open-table", "data-table": e.id },
      h("span", { class: "open-words" }, `${tMaybe(`game.${e.game}.title`, e.game)} · `, ...seatNodes(e)),
      h("a", { class: "button small resume", href }, t("open.resume"))))) : null,
    h("h3", {}, t("open.waiting")),
    open.waiting.length ? h("ul", { class: "open-list waiting" }, open.waiting.map((e) => openRow(e, true)))
      : h("p", { class: "muted", id: "none-waiting" }, t("open.none_waiting")),
    open.playing.length ? h("h3", {}, t("open.playing")) : null,
    open.playing.length ? h("ul", { class: "open-list playing" }, open.playing.map((e) => openRow(e, false))) : null,
    h("p", { id: "open-error", class: "error", role: "alert" }, lobbyError),
  );
}

let badge = null; // the unread notifications' count beside the account link (signed in)

function accountLink() {
  if (me && !badge) badge = unreadBadge();
  return me
    ? h("a", { href: "/account", id: "account-link" }, t("account.signed_in_as", { name: me.name }), " ", badge)
    : h("a", { href: "/account", id: "account-link" }, t("account.sign_in"));
}

function seatRow(i) {
  const seat = form.seats[i];
  const kind = h(
    "select",
    { name: `seat-${i}-kind`, "aria-label": t("lobby.seat_kind"), "data-value": seat.kind },
    h("option", { value: "human", selected: seat.kind === "human" }, t("lobby.human")),
    h("option", { value: "bot", selected: seat.kind === "bot" }, t("lobby.bot")),
  );
  kind.addEventListener("change", () => {
    form.seats[i] = kind.value === "human" ? { kind: "human", name: "" } : { kind: "bot", level: "medium" };
    render();
  });
  let extra;
  if (seat.kind === "human") {
    extra = h("input", {
      type: "text",
      name: `seat-${i}-name`,
      maxlength: 40,
      placeholder: t("lobby.name_placeholder"),
      value: seat.name || "",
      "data-value": seat.name || "",
    });
    extra.addEventListener("input", () => (form.seats[i].name = extra.value));
    extra.addEventListener("change", () => render()); // start-player choices show the name
  } else {
    extra = h(
      "select",
      { name: `seat-${i}-level`, "aria-label": t("lobby.level"), "data-value": seat.level },
      catalog.bot_levels.map((l) =>
        h("option", { value: l.level, selected: l.level === seat.level, title: tMaybe(`level_help.${l.level}`, l.description) }, t(`level.${l.level}`)),
      ),
    );
    extra.addEventListener("change", () => (form.seats[i].level = extra.value));
  }
  return h("div", { class: "seat-row" }, h("span", { class: "seat-no" }, t("lobby.seat_n", { n: i + 1 })), kind, extra);
}

async function create(ev) {
  ev.preventDefault();
  const g = gameOf(form.game);
  const seats = form.seats.map((s) =>
    s.kind === "human" ? { kind: "human", ...(s.name ? { name: s.name } : {}) } : { kind: "bot", level: s.level },
  );
  if (!seats.some((s) => s.kind === "human")) {
    showError(t("lobby.need_human"));
    return;
  }
  const options = {};
  for (const o of g.options) {
    if (JSON.stringify(form.options[o.name]) !== JSON.stringify(o.default)) options[o.name] = form.options[o.name];
  }
  const button = ev.target.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const res = await postJson("/api/tables", {
      game: form.game,
      players: form.players,
      options,
      seats,
      turn_time: form.daysPerMove !== null ? null : form.turnTime,
      ...(form.daysPerMove !== null ? { days_per_move: form.daysPerMove } : {}),
      bots_before_join: form.botsBeforeJoin,
      hints: form.hints,
      public: form.public,
      rated: form.rated,
    });
    // The server answers JSON ({error: {code, message, field}}); anything else is reported by status.
    const text = await res.text();
    let body = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    if (!res.ok || !body) {
      const err = body && body.error;
      const message = err ? [err.message, err.field ? `(${err.field})` : ""].join(" ").trim() : t("lobby.http_error", { status: res.status });
      throw new Error(message);
    }
    created = body;
    rememberHost(body.table.id, body.host_token); // this browser is the table's host
    keepCreated(body);
    render();
  } catch (err) {
    showError(t("lobby.error", { message: err.message }));
    button.disabled = false;
  }
}

// The links of the table just made survive a reload of this tab (and its back button): they are kept
// in this tab's own sessionStorage, under the table's id, and in no other place — not another tab,
// not another browser, not the server, which never hands them out twice.
const CREATED = "parlor.created";

function keepCreated(answer) {
  forgetCreated();
  try {
    sessionStorage.setItem(`${CREATED}.${answer.table.id}`, JSON.stringify(answer));
    sessionStorage.setItem(CREATED, answer.table.id);
  } catch {
    /* storage full or refused: the links are shown all the same, only not after a reload */
  }
}

function forgetCreated() {
  const id = sessionStorage.getItem(CREATED);
  if (id) sessionStorage.removeItem(`${CREATED}.${id}`);
  sessionStorage.removeItem(CREATED);
}

/** The table this tab made, when the lobby is this tab's page again by a reload or the back button
 * (a lobby opened anew starts with the form: its "Create another table" is then the default). */
function createdBefore() {
  const how = performance.getEntriesByType("navigation")[0]?.type;
  if (how !== "reload" && how !== "back_forward") {
    forgetCreated();
    return null;
  }
  const id = sessionStorage.getItem(CREATED);
  try {
    return id ? JSON.parse(sessionStorage.getItem(`${CREATED}.${id}`)) : null;
  } catch {
    return null;
  }
}

function showError(text) {
  const box = document.getElementById("lobby-error");
  if (box) box.textContent = text;
}

// A link opens its seat in a new tab, so that the lobby, with the links still to hand out, stays
// open beside it; the one human seat of a table against bots has no link to hand out, and opens in
// this tab (the back button shows the lobby's links again).
// The full link to hand out is the server's when it has a public address (join_url, spectator_url: made
// with its --public-url, the address others reach the site at); else the path on this page's address.
function linkRow(label, path, cls, sameTab = false, full = null) {
  const url = full || new URL(path, location.href).href;
  const copy = h("button", { type: "button", class: "small" }, t("lobby.copy"));
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = t("lobby.copied");
    } catch {
      window.prompt(label, url);
    }
  });
  return h(
    "li",
    { class: `link-row ${cls}` },
    h("span", { class: "link-label" }, label),
    h("a", { href: path, class: "join-link", ...(sameTab ? {} : { target: "_blank", rel: "noopener" }) }, t("lobby.open")),
    copy,
    h("code", { class: "link-url" }, url),
  );
}

/** A host name that reaches only the machine it is typed on (localhost, 127.x.x.x, ::1): links made
 * with it open nowhere else, so the lobby says so (without a --public-url the links are made with the
 * address this lobby was opened at). */
function isLoopback(hostname) {
  const host = hostname.toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "[::1]";
}

function renderCreated() {
  const table = created.table;
  const solo = created.seats.filter((s) => s.kind === "human").length === 1;
  const rows = created.seats.map((s) =>
    s.kind === "human"
      ? linkRow(t("lobby.join_seat", { n: s.seat + 1 }), s.join_path, "seat-link", solo, s.join_url)
      : h("li", { class: "link-row bot-row" }, h("span", { class: "link-label" }, t("lobby.seat_n", { n: s.seat + 1 })),
          h("span", { class: "muted" }, t("lobby.bot_at", { level: t(`level.${s.level}`) }))),
  );
  rows.push(linkRow(t("lobby.spectator_link"), created.spectator_path, "spectator-link", false, created.spectator_url));
  const linkSite = new URL(created.spectator_url || created.spectator_path, location.href);
  return h(
    "section",
    { class: "card created" },
    h("h2", {}, t("lobby.created", { game: tMaybe(`game.${table.game}.title`, table.title) })),
    h("p", { class: "muted" }, t("lobby.links_help")),
    isLoopback(linkSite.hostname)
      ? h("p", { class: "local-links", id: "local-links", role: "note" }, t("lobby.local_links", { host: linkSite.host }))
      : null,
    h("ul", { class: "links" }, rows),
    h("p", { class: "muted host-note", id: "host-note" }, t("lobby.host_note")),
    h("button", { type: "button", id: "create-another", onclick: () => { created = null; forgetCreated(); render(); } }, t("lobby.another")),
  );
}

function render() {
  document.title = `Parlor — ${t("lobby.heading")}`;
  if (!catalog) return;
  if (created) {
    patch(app, [renderCreated()]);
    return;
  }
  const g = gameOf(form.game);
  const games = h(
    "div",
    { class: "game-picks", role: "radiogroup", "aria-label": t("lobby.game") },
    catalog.games.map((x) =>
      h(
        "button",
        {
          type: "button",
          class: `game-pick${x.name === form.game ? " chosen" : ""}`,
          "data-game": x.name,
          "aria-pressed": x.name === form.game ? "true" : "false",
          disabled: !x.available,
          onclick: () => { chooseGame(x.name); render(); refreshOpen(); },
        },
        h("strong", {}, gameTitle(x)),
        h("small", {}, x.available
          ? t("lobby.players_range", { min: x.min_players, max: x.max_players })
          : t("lobby.unavailable")),
      ),
    ),
  );
  const [low, high] = rangeFor(g, form.options);
  const [fewest, most] = widestRange(g);
  const players = h(
    "select",
    { id: "players", name: "players", "data-value": String(form.players) },
    Array.from({ length: most - fewest + 1 }, (_, i) => fewest + i).map((n) =>
      h("option", { value: n, selected: n === form.players, disabled: n < low || n > high }, String(n)),
    ),
  );
  players.addEventListener("change", () => {
    form.players = Number(players.value);
    // An option value this count no longer allows goes back to its default (or the first that fits).
    for (const o of g.options) {
      if (!o.allowed || valueFits(g, o, form.options[o.name])) continue;
      form.options[o.name] = valueFits(g, o, o.default) ? o.default : o.allowed.find((a) => valueFits(g, o, a));
    }
    resizeSeats();
    render();
  });
  const summary = tMaybe(`game.${g.name}.summary`, g.summary || "");
  // patch() keeps the live form: focus, the open options and what is being typed survive a redraw.
  patch(app, [
    openTables(),
    h(
      "form",
      { class: "card lobby-form", onsubmit: create },
      h("h1", {}, t("lobby.heading")),
      h("h2", {}, t("lobby.game")),
      games,
      summary ? h("p", { class: "summary muted" }, summary) : null,
      h("p", { class: "help-links" }, h("a", { href: `/static/rules.html#${g.name}`, id: "rules-link" }, t("help.rules_of", { game: gameTitle(g) })), " · ",
        h("a", { href: `/static/rules.html#${g.name}/cards`, id: "cards-link" }, t("help.cards"))),
      h("div", { class: "field" }, h("label", { for: "players" }, t("lobby.players")), players),
      h("h2", {}, t("lobby.seats")),
      h("div", { class: "seats" }, form.seats.map((_, i) => seatRow(i))),
      tableLife(),
      g.options.length
        ? h("details", { class: "options" }, h("summary", {}, t("lobby.options")),
            h("div", { class: "opts" }, g.options.map((o) => optionInput(g, o))))
        : null,
      h("p", { id: "lobby-error", class: "error", role: "alert" }),
      h("button", { type: "submit", class: "primary", id: "create" }, t("lobby.create")),
    ),
  ]);
}

async function main() {
  registerServiceWorker();
  await loadLang();
  me = (await session()).account;
  const slot = document.getElementById("lang-slot");
  const drawTop = () => slot.replaceChildren(h("a", { href: "/leaderboard", id: "leaderboard-link" }, t("board.title")), " ",
    h("a", { href: "/tournaments", id: "tournaments-link" }, t("tournament.lobby_link")), " ",
    accountLink(), " ", languagePicker(() => { drawTop(); render(); }));
  drawTop();
  const res = await fetch("/api/games");
  if (!res.ok) throw new Error(t("lobby.http_error", { status: res.status }));
  catalog = await res.json();
  const first = catalog.games.find((g) => g.available);
  chooseGame(first.name);
  created = createdBefore();
  render();
  refreshOpen();
  readKeptTables();
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && openAt && !rereading) {
    rereading = true;
    refreshOpen().finally(() => (rereading = false));
  }
});

main().catch((err) => {
  app.textContent = String(err);
});
