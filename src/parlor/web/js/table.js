// The table page: one WebSocket per tab (docs/protocol.md), the game's renderer, the legal moves,
// the game log in words and the result. The token lives in the URL fragment and in localStorage.
import { postJson } from "./session.js";
import { h } from "./dom.js";
import { currentLang, languagePicker, loadLang, t, tMaybe } from "./i18n.js";
import { patch, setMotion } from "./patch.js";
import { fitPopovers, watchPopovers } from "./popover.js";
import { decorate, describe, offBoard, options, prune } from "./picks.js";
import { PHONE, playerChips, watchSheets } from "./phone.js";
import generic from "../games/generic.js";
import { botName, eventLines as eventLinesOf, loadRenderer, playerName, resultTable } from "./game_ui.js";
import { createChat } from "./chat.js";
import { botNote, clockBadge, deadlineBadge, setClocks, setDeadlines } from "./clock.js";
import { createHost, hostTokenFor, rememberHost } from "./host.js";
import { TEXTS_LOADED } from "./card_text.js";
import { registerServiceWorker } from "./pwa.js";
import { applyState } from "./frames.js";
import { hintPanel } from "./review.js";

const app = document.getElementById("app");
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const params = new URLSearchParams(location.hash.slice(1));
const query = new URLSearchParams(location.search);
// A seat's join link carries a one-time claim code (#claim=…): this browser exchanges it for the
// seat's own token (connect()), which only it then holds. A spectator link carries a token.
let token = params.get("token") || localStorage.getItem(`parlor.table.${tableId}`) || "";
const claimCode = params.get("claim");
// #seat: the signed-in player's own seat (the session cookie opens it, from any device); #watch: a
// public table, as a spectator. Neither needs a token.
const byCookie = !params.get("token") && (params.has("seat") || params.has("watch"));
if (byCookie) token = "";
const animate = query.get("anim") !== "0" && localStorage.getItem("parlor.anim") !== "0";
setMotion(animate);

const st = {
  welcome: null, // the welcome frame
  frame: null, // the latest state frame
  seats: [], // from welcome/seats frames
  log: [], // [{event, data, ...}] seen so far, in order
  renderer: generic,
  game: null,
  pending: false, // an action sent, waiting for its state
  error: "",
  closedFor: null, // a fatal close (bad token, no table)
  nextTable: null,
  queue: [], // events still to animate
  shown: 0, // how many log events are displayed
  stage: null, // what the renderer's animation shows (e.g. the card just revealed)
  moves: [], // the legal moves with their parts (picks.js)
  chosen: [], // the parts clicked so far
  custom: null, // a renderer's own picker (Sweet Nose's sweetness)
  hint: null, // the judge's hint for this seat: {version, hint} (tables made with hints on)
  hintPending: null, // the version a hint was asked at, until it comes
  hintError: "",
  tab: "table", // on a phone: the table, the log or the chat fills the screen above your hand
  open: new Set(), // on a phone: the seats whose chip was opened
  ratings: null, // a finished rated game's rating changes: {done, seats} (loadRatingChanges)
  resultShown: null, // the result the dialog last showed (it opens once per result, and says so)
  chatSeen: 0, // on a phone: chat messages read (the Chat tab counts the others)
  fillBotsAt: null, // performance.now() at which a public table's empty seats become bots (null: never)
};
const phone = matchMedia(PHONE);
let ws = null;
let retry = 0;
let refNo = 0;
let timer = null;
let chat = null; // the chat panel (js/chat.js), made at the first welcome
const host = createHost({ slot: document.getElementById("host-slot"), tableId, hostToken: hostTokenFor(tableId), seatName });

// Pasting another link of this table (a spectator link after a refused seat link) changes only the
// fragment: the browser keeps the page, with its old connection or its old error. Start afresh.
window.addEventListener("hashchange", () => location.reload());

function keepToken() {
  localStorage.setItem(`parlor.table.${tableId}`, token);
  if (params.get("token") !== token) history.replaceState(null, "", `${location.pathname}${location.search}#token=${token}`);
}

// A join link's claim code is what the server made it: 32 letters, digits, "-" or "_". Anything
// else was mistyped or made up, and is not worth asking about (nor worth calling "already used").
const CLAIM_FORMAT = /^[A-Za-z0-9_-]{32}$/;

/** Claims the seat of a #claim= link (once); this browser keeps the token it gets. */
async function claimSeat() {
  // Opened again in the browser that claimed it: the token kept here opens the seat.
  if (localStorage.getItem(`parlor.claim.${tableId}`) === claimCode && token) return true;
  if (!CLAIM_FORMAT.test(claimCode)) {
    st.closedFor = "bad_claim";
    return false;
  }
  let res;
  try {
    res = await postJson(`/api/tables/${encodeURIComponent(tableId)}/claim`, { claim: claimCode }); // signed in: the seat is the account's
  } catch {
    st.closedFor = "offline";
    return false;
  }
  if (!res.ok) {
    let code = "bad_token";
    try {
      code = (await res.json()).error.code;
    } catch {
      /* not JSON: a bad link all the same */
    }
    st.closedFor = code === "link_used" ? "link_used" : code === "table_not_found" ? "table_not_found" : "bad_claim";
    return false;
  }
  token = (await res.json()).token;
  localStorage.setItem(`parlor.claim.${tableId}`, claimCode);
  return true;
}

// ---- names ------------------------------------------------------------------------------------
function seatInfo(seat) {
  return st.seats.find((s) => s.seat === seat) || {};
}

export function seatName(seat, opts = {}) {
  if (seat === null || seat === undefined || seat < 0) return t("ui.nobody");
  const you = st.welcome ? st.welcome.seat : null;
  if (seat === you) return opts.object ? t("ui.you_object") : t("ui.you");
  const info = seatInfo(seat);
  if (info.kind === "bot") return botName(info, st.seats);
  if (info.name) return info.name;
  if (info.account) return t("open.deleted_player"); // an account's seat without a name: it was deleted
  return t("ui.player_n", { n: seat + 1 });
}

/** "Rated" on a rated table (the top bar, beside the game's name; the waiting note). */
function ratedBadge(id) {
  return st.welcome && st.welcome.table.rated ? h("span", { class: "rated-badge", id }, t("ui.rated")) : null;
}

// ---- the rating changes of a finished rated game ----------------------------------------------------
// The server rates a game just after its last decision is stored, so the result may come first: the
// page asks for the changes until they are stored (a while at most), then shows each rated seat's
// rating before the game and its signed change in the result.
async function loadRatingChanges() {
  if (st.ratings || !st.welcome.table.rated) return;
  st.ratings = { done: false, seats: [] };
  for (let tries = 0; tries < 120; tries += 1) {
    try {
      const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/ratings`);
      if (res.ok) {
        const found = await res.json();
        if (found.done) {
          st.ratings = found;
          render();
          return;
        }
      }
    } catch {
      /* the server is away for a moment: ask again */
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

function signedChange(change) {
  return change > 0 ? `+${change}` : change < 0 ? `\u2212${-change}` : "±0";
}

/** The result's rating cell of a seat: "1500 +14", the change marked up or down; null: not rated. */
function ratingCell(seat) {
  if (!st.ratings) return null;
  if (!st.ratings.done) return h("span", { class: "muted rating-pending" }, "…");
  const c = st.ratings.seats.find((x) => x.seat === seat);
  if (!c) return "";
  return h("span", { class: "rating-change", "data-seat": String(seat), "data-change": String(c.change) },
    `${c.provisional ? t("board.provisional_value", { rating: c.before }) : c.before} `,
    h("strong", { class: c.change > 0 ? "up" : c.change < 0 ? "down" : "" }, signedChange(c.change)));
}

function ctx() {
  const you = st.welcome ? st.welcome.seat : null;
  return { you, seatName, seatInfo, ratingCell: st.ratings ? ratingCell : null, t, tMaybe, view: st.frame ? st.frame.view : null, stage: st.stage, prevView: st.prevView, h, players: st.frame ? st.frame.view.players : 0, chosen: st.chosen, log: st.log, phone: phone.matches, over: Boolean(st.frame && st.frame.over) };
}

// ---- the connection ---------------------------------------------------------------------------
/** Whether the server knows this table (GET /api/tables/{id} is public): a page opened without a
 * link's token says "no such table" rather than asking for a token a table that is not there lacks. */
async function tableExists() {
  try {
    return (await fetch(`/api/tables/${encodeURIComponent(tableId)}`)).status !== 404;
  } catch {
    return true; // the server cannot be reached: the token is what is missing all the same
  }
}

async function connect() {
  if (!token && !byCookie) {
    st.closedFor = (await tableExists()) ? "no_token" : "table_not_found";
    render();
    return;
  }
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${proto}//${location.host}/ws/tables/${encodeURIComponent(tableId)}?token=${encodeURIComponent(token)}`);
  setConn("connecting");
  ws.addEventListener("open", () => {
    retry = 0;
    setConn("online");
  });
  // The server closes a connection silent for longer than its idle timeout (docs/protocol.md, "Limits").
  const keepAlive = setInterval(() => send({ type: "ping" }), 25000);
  let whole = null; // the last whole state on this connection: the base of the next delta
  // Frames are handled one after another: the welcome waits for the game's renderer to load, and
  // the state behind it must not be drawn meanwhile by the generic one (cards as plain buttons).
  let inbox = Promise.resolve();
  ws.addEventListener("message", (m) => {
    let msg;
    try {
      msg = JSON.parse(m.data);
    } catch {
      return;
    }
    if (msg.type === "state") {
      const state = applyState(whole, msg);
      if (!state) {
        send({ type: "sync" }); // a delta on a state this page does not hold: ask for the whole
        return;
      }
      whole = msg = state;
    }
    inbox = inbox.then(() => onFrame(msg)).catch((err) => console.error(err));
  });
  ws.addEventListener("close", (ev) => {
    clearInterval(keepAlive);
    ws = null;
    st.pending = false;
    if (st.closedFor === "stood_up") return; // we left on purpose: no reconnecting, the lobby is loading
    if (ev.code === 4403 || ev.code === 4404) {
      if (st.closedFor !== "seat_replaced" && st.closedFor !== "banned") st.closedFor = ev.code === 4403 ? "bad_token" : "table_not_found";
      setConn("closed");
      render();
      return;
    }
    setConn("reconnecting");
    const wait = Math.min(10000, 500 * 2 ** retry++);
    setTimeout(connect, wait);
  });
}

function setConn(state) {
  const el = document.getElementById("conn");
  el.className = `conn conn-${state}`;
  el.dataset.state = state;
  el.textContent = t(`conn.${state}`);
}

/** A page of the chat said before message `before` (docs/protocol.md, GET …/chat). */
async function olderChat(before) {
  const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/chat?before=${before}&limit=100`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

function send(frame) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return false;
  ws.send(JSON.stringify(frame));
  return true;
}

async function onFrame(msg) {
  switch (msg.type) {
    case "welcome":
      st.welcome = msg;
      st.seats = msg.table.seats;
      // The lobby lists a table as this browser's own game only where its kept token is a seat's
      // (a spectator link's token is kept too, to watch again, but it is nobody's game).
      if (token && msg.role === "seat") localStorage.setItem(`parlor.seated.${tableId}`, "1");
      else localStorage.removeItem(`parlor.seated.${tableId}`);
      setFillBots(msg.table.fill_bots_in);
      if (!chat) {
        chat = createChat({ slot: document.getElementById("chat-slot"), send, seatName, spectator: msg.role !== "seat", older: olderChat,
          tableId: msg.table.id, mySeat: msg.seat });
      }
      host.setYou(msg.seat);
      host.update(st.seats, msg.table.status !== "playing");
      if (st.game !== msg.table.game) {
        st.game = msg.table.game;
        st.renderer = await loadRenderer(msg.table.game);
      }
      break;
    case "state": {
      const fresh = msg.cause === "join" || msg.cause === "sync";
      if (fresh) {
        st.log = [];
        st.queue = [];
        st.shown = 0;
        st.stage = null;
      }
      st.prevView = st.frame ? st.frame.view : null;
      if (!st.frame || st.frame.version !== msg.version) st.hintError = ""; // a hint's refusal was for the last decision
      st.frame = msg;
      st.pending = false;
      st.log.push(...msg.events);
      setClocks(msg.clocks);
      setDeadlines(msg.deadlines);
      if (fresh || !animate) {
        st.shown = st.log.length;
        st.queue = [];
        st.stage = null;
      } else {
        st.queue.push(...msg.events);
        pump();
      }
      document.body.dataset.version = String(msg.version);
      // The host's panel offers nothing once the game has ended (no new links, no bots).
      if (msg.over) host.update(st.seats, true);
      break;
    }
    case "seats":
      st.seats = msg.seats;
      setFillBots(msg.fill_bots_in);
      if (msg.deadlines) setDeadlines(msg.deadlines);
      host.update(st.seats, Boolean(st.frame && st.frame.over));
      break;
    case "chat_deleted": // a moderator deleted a line for everyone
      if (chat) chat.onDeleted(msg.idx);
      break;
    case "chat":
      if (chat) chat.onFrame(msg);
      if (phone.matches && st.tab === "chat" && chat) st.chatSeen = chat.messages.length;
      break; // drawn again: the Chat tab counts what is unread
    case "hint":
      st.hint = { version: msg.version, hint: msg.hint };
      st.hintPending = null;
      st.hintError = "";
      break;
    case "error":
      if (chat && typeof msg.ref === "string" && msg.ref.startsWith("c")) {
        chat.onError(msg);
        return;
      }
      if (typeof msg.ref === "string" && msg.ref.startsWith("h")) {
        st.hintPending = null;
        st.hintError = tMaybe(`err.${msg.code}`, msg.message || msg.code);
        break;
      }
      st.pending = false;
      st.error = tMaybe(`err.${msg.code}`, msg.message || msg.code);
      if (msg.code === "bad_token" || msg.code === "table_not_found" || msg.code === "seat_replaced") st.closedFor = msg.code;
      if (msg.code === "banned") { // a moderator's ban: why and until when, in the server's words
        st.closedFor = "banned";
        st.bannedWhy = msg.message || "";
      }
      break;
    case "next_table":
      st.nextTable = msg.table_id;
      if (msg.join_path) st.nextPath = msg.join_path; // this seat's own link to the new table
      rememberHost(msg.table_id, hostTokenFor(tableId)); // the new table keeps its host
      break;
    case "ack":
      if (msg.table_id) {
        st.nextTable = msg.table_id;
        if (msg.join_path) st.nextPath = msg.join_path;
        rememberHost(msg.table_id, hostTokenFor(tableId));
      }
      break;
    default:
      return;
  }
  render();
}

// Events after an action are shown one at a time, each with the renderer's pause.
function pump() {
  if (timer || !st.queue.length) return;
  const ev = st.queue.shift();
  st.shown += 1;
  st.stage = st.renderer.stage ? st.renderer.stage(ev, st.stage, ctx()) : null;
  render();
  const pause = st.renderer.pause ? st.renderer.pause(ev) : 0;
  timer = setTimeout(
    () => {
      timer = null;
      if (!st.queue.length) {
        st.stage = null;
        render();
      }
      pump();
    },
    st.queue.length ? pause : Math.max(pause, 300),
  );
}

// ---- playing: clicks, the guard against clicks meant for the previous position -----------------
// After a new position is drawn, clicks on moves are ignored for GUARD_MS (the reader has not seen
// it yet); a click on the very spot of the last played move stays ignored for SAME_SPOT_MS after the
// position it caused appeared (a double click must not play the next step's button lying there).
// (?guard=<ms> shortens both for the browser tests that play whole games by clicking.)
const GUARD_MS = query.has("guard") ? Math.max(0, Number(query.get("guard")) || 0) : 450;
const SAME_SPOT_MS = query.has("guard") ? GUARD_MS * 2 : 900;
const SPOT_PX = 24;
const guard = { until: 0, spot: null, spotUntil: 0, pointer: null };

document.addEventListener("pointerdown", (ev) => (guard.pointer = { x: ev.clientX, y: ev.clientY }), true);
document.addEventListener(
  "click",
  (ev) => {
    const target = ev.target instanceof Element ? ev.target.closest("[data-act]") : null;
    if (!target) return;
    const now = performance.now();
    const spot = guard.spot;
    const sameSpot = spot && now < guard.spotUntil && Math.hypot(ev.clientX - spot.x, ev.clientY - spot.y) < SPOT_PX;
    if (st.pending || now < guard.until || sameSpot) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
      document.body.dataset.ignoredClicks = String(Number(document.body.dataset.ignoredClicks || 0) + 1);
    }
  },
  true,
);

function play(entry) {
  if (st.pending || !st.frame) return;
  st.error = "";
  if (send({ type: "action", id: entry.id, version: st.frame.version, ref: `a${++refNo}` })) {
    st.pending = true;
    st.chosen = [];
    if (phone.matches) document.getElementById("move-list")?.removeAttribute("open"); // the sheet has done its work
    guard.spot = guard.pointer;
    guard.spotUntil = Infinity; // until the next position has been shown long enough (render)
    render();
  }
}

// The second click of a double click on a card would take back what the first chose: within one
// position, a double click on the same part picks it once.
const DOUBLE_MS = 600;
let lastPick = { key: null, at: 0, version: null };

function pick(key, ev) {
  if (st.pending) return;
  const now = performance.now();
  const again = lastPick.key === key && lastPick.version === st.frame.version && now - lastPick.at < DOUBLE_MS;
  if (ev && ev.type === "click" && ev.detail > 1 && again) return;
  lastPick = { key, at: now, version: st.frame.version };
  if (st.chosen.includes(key)) st.chosen = st.chosen.filter((k) => k !== key);
  else st.chosen = [...st.chosen, key];
  const { fitting, complete } = options(st.moves, st.chosen);
  if (!fitting.length) st.chosen = [key].filter((k) => options(st.moves, [k]).fitting.length);
  // A move of one part is played at once; a longer one waits for Confirm.
  if (complete.length === 1 && fitting.length === 1 && complete[0].parts.length === 1) {
    play(complete[0].entry);
    return;
  }
  render();
}

// ---- rendering ----------------------------------------------------------------------------------
function eventLines(ev) {
  return eventLinesOf(st.renderer, ev, ctx());
}

function actionText(entry) {
  const r = st.renderer;
  const text = r.actionText ? r.actionText(entry.action, st.frame.view, ctx()) : null;
  return text || generic.actionText(entry.action, st.frame.view, ctx());
}

function partLabel(key) {
  const r = st.renderer;
  const text = r.partLabel ? r.partLabel(key, st.frame.view, ctx()) : null;
  if (text) return text;
  // A part only one move has (a button of the bar): that move's sentence.
  const holders = st.moves.filter((m) => m.parts.includes(key));
  if (holders.length === 1) return actionText(holders[0].entry);
  const [kind, value] = key.split(":");
  return kind === "btn" ? tMaybe(`group.${value}`, value) : value || key;
}

function skipAnimation() {
  if (timer) clearTimeout(timer);
  timer = null;
  st.queue = [];
  st.shown = st.log.length;
  st.stage = null;
  render();
}

function sentenceList(f) {
  const groups = new Map();
  for (const entry of f.legal) {
    const type = entry.action.type;
    if (!groups.has(type)) groups.set(type, []);
    groups.get(type).push(entry);
  }
  // On a phone the list opens over the table, above your hand, from a button beside Confirm.
  const label = t("ui.move_list", { n: f.legal.length });
  // A desktop remembers whether the list was open; on a phone it is a sheet over the table, opened
  // for a moment.
  const box = phone.matches
    ? h("details", { class: "move-list-box", id: "move-list" }, h("summary", { class: "icon-button", title: label, "aria-label": label }, "≡"))
    : h("details", { class: "move-list-box", id: "move-list", open: localStorage.getItem("parlor.movelist") === "1" }, h("summary", {}, label));
  if (!phone.matches) box.addEventListener("toggle", () => localStorage.setItem("parlor.movelist", box.open ? "1" : "0"));
  const lists = h("div", { class: "move-lists" });
  for (const [type, entries] of groups) {
    const group = h("div", { class: `move-group${entries.length > 8 ? " many" : ""}`, "data-type": type, "data-key": type });
    const heading = tMaybe(`group.${type}`, null);
    if (heading && (groups.size > 1 || entries.length > 8)) group.append(h("h3", {}, heading));
    const list = h("div", { class: "move-list" });
    for (const entry of entries) {
      list.append(
        h(
          "button",
          { type: "button", class: "move", "data-id": entry.id, "data-key": entry.id, "data-type": type, "data-act": "move", disabled: st.pending, onclick: () => play(entry) },
          actionText(entry),
        ),
      );
    }
    group.append(list);
    lists.append(group);
  }
  box.append(lists);
  return box;
}

/** The board element of the part chosen last, if it lies on the table. */
function chosenOnBoard(board) {
  for (const key of [...st.chosen].reverse()) {
    const el = Array.from(board.querySelectorAll("[data-pick]")).find((e) => e.getAttribute("data-pick") === key);
    if (el) return el;
  }
  return null;
}

/** What a turn offers besides the table: the chosen parts, Confirm and Cancel, the loose parts. */
function pickBar(places) {
  const { complete, next } = options(st.moves, st.chosen);
  const chosen = st.chosen.map((k) => h("span", { class: "chosen-part", "data-key": k }, partLabel(k)));
  // Confirm and Cancel always stand in the same place, so nothing new appears under the pointer;
  // two moves made of the same parts (a Smith or a Craft completion) get one Confirm each.
  const confirm = (m, i) =>
    h(
      "button",
      { type: "button", class: "primary confirm", id: i ? `confirm-${i}` : "confirm", "data-key": `confirm-${i}`, "data-act": "confirm", disabled: !m || st.pending, onclick: () => m && play(m.entry) },
      m ? t("ui.confirm", { what: actionText(m.entry) }) : t("ui.confirm_short"),
    );
  const state = h(
    "div",
    { class: "pick-state", "aria-live": "polite" },
    h("span", { class: "chosen-parts" }, chosen.length ? chosen : h("span", { class: "muted" }, t(phone.matches ? "ui.pick_hint_phone" : "ui.pick_hint"))),
  );
  const buttons = h(
    "div",
    { class: "pick-confirm" },
    complete.length ? complete.map((m, i) => confirm(m, i)) : confirm(null, 0),
    h("button", { type: "button", class: "small cancel", id: "cancel", "aria-label": t("ui.cancel"), disabled: !st.chosen.length, onclick: () => { st.chosen = []; render(); } }, phone.matches ? "✕" : t("ui.cancel")),
  );
  // Parts with no place on the table become buttons here, in the order the move lists them
  // (a count only after its topping).
  const ordered = new Set();
  for (const m of options(st.moves, st.chosen).fitting) {
    const first = m.parts.find((k) => !st.chosen.includes(k));
    if (first) ordered.add(first);
  }
  const loose = offBoard(places, next).filter((k) => ordered.has(k));
  const chips = loose.length
    ? h(
        "div",
        { class: "pick-chips", "data-key": "pick-chips" },
        loose.map((k) => h("button", { type: "button", class: "chip", "data-pick": k, "data-key": k, "data-act": "pick", disabled: st.pending, onclick: () => pick(k) }, partLabel(k))),
      )
    : null;
  return { state, buttons, chips };
}

function undoButton() {
  if (!st.frame.can_undo) return null;
  const label = t("ui.undo");
  return h(
    "button",
    { type: "button", class: `undo small${phone.matches ? " icon-button" : ""}`, id: "undo", title: label, "aria-label": label, onclick: () => send({ type: "undo", ref: `u${++refNo}` }) },
    phone.matches ? "↶" : label,
  );
}

function waitingText() {
  if (st.welcome.role === "spectator") return t("ui.spectating");
  return t("ui.waiting_for", { who: st.frame.to_move.map((s) => seatName(s)).join(t("ui.list_sep")) || "—" });
}

function skipButton() {
  return st.queue.length ? h("button", { type: "button", class: "small skip", id: "skip", onclick: skipAnimation }, t("ui.skip", { n: st.queue.length })) : null;
}

function renderMoves(board) {
  const f = st.frame;
  const wrap = h("section", { class: "moves card", id: "moves" });
  const skip = skipButton();
  if (skip) wrap.append(skip);
  if (f.over) return st.queue.length ? wrap : null;
  if (!f.legal.length) {
    wrap.append(h("p", { class: "waiting muted" }, waitingText()));
    return wrap;
  }
  wrap.classList.add("your-turn");
  wrap.append(h("h2", {}, t("ui.your_move")));
  if (st.renderer.moveHint) {
    const hint = st.renderer.moveHint(f.view, ctx());
    if (hint) wrap.append(h("p", { class: "hint" }, hint));
  }
  if (st.custom) wrap.append(st.custom);
  if (st.moves.length) {
    const bar = pickBar([board]);
    wrap.append(bar.state, bar.buttons);
    if (bar.chips) {
      // What completes a part chosen on the table (how many of the kind just clicked) is offered
      // right beside it; parts that belong to no card stay in the pick bar.
      const anchor = chosenOnBoard(board);
      if (anchor) {
        bar.chips.classList.add("pick-inline");
        anchor.after(bar.chips);
      } else {
        wrap.append(bar.chips);
      }
    }
  }
  wrap.append(sentenceList(f));
  const hints = hintBox(f);
  if (hints) wrap.append(hints);
  const undo = undoButton();
  if (undo) wrap.append(undo);
  return wrap;
}

/**
 * The phone's dock, under your thumb: whose move and what it asks, your hand (a row you can swipe)
 * and the cards of other players' places you may pick now, and on your turn the parts with no place
 * on the table, Confirm, Cancel, the move list and undo. The move panel and the hand are one: the
 * card you tap is the move. `docked`: the rows the renderer drew for the dock.
 */
function renderDock(docked) {
  const f = st.frame;
  const dock = h("section", { class: "moves dock", id: "moves" });
  const skip = skipButton();
  const mine = !f.over && f.legal.length > 0;
  const hint = mine && st.renderer.moveHint ? st.renderer.moveHint(f.view, ctx()) : "";
  const bar = mine && st.moves.length ? pickBar([st.board, ...docked]) : null;
  let status;
  if (f.over) {
    status = h("p", { class: "waiting" }, t("result.over"), " ", showResultButton());
  } else if (!mine) {
    status = h("p", { class: "waiting muted" }, waitingText());
  } else {
    dock.classList.add("your-turn");
    // The chosen parts replace the hint: what you are making is what matters now.
    status = h("div", { class: "dock-status" }, h("h2", {}, t("ui.your_move")), st.chosen.length && bar ? bar.state : hint ? h("p", { class: "hint" }, hint) : bar ? bar.state : null);
  }
  const wait = seatWait();
  dock.append(h("div", { class: "dock-head" }, status, skip, wait || standUpButton()));
  if (st.error) dock.append(h("p", { class: "error", role: "alert" }, st.error));
  // The parts with no place on the table (how many of the topping just tapped, a source) come above
  // your hand, not under it: the dock grows upwards, so the hand stays under the finger that tapped
  // it and what appears is not hidden by that thumb.
  if (bar && bar.chips) dock.append(bar.chips);
  if (st.custom) dock.append(st.custom);
  else dock.append(...docked);
  if (mine) {
    dock.append(h("div", { class: "dock-actions" }, h("div", { class: "dock-buttons" }, bar ? bar.buttons : null, sentenceList(f), undoButton())));
    const hints = hintBox(f);
    if (hints) dock.append(hints);
  }
  return dock;
}

/** The hint button and the judge's answer, at a table made with hints on (review.js). */
function hintBox(f) {
  if (!st.welcome || st.welcome.role !== "seat" || !st.welcome.table.hints) return null;
  const shown = st.hint && st.hint.version === f.version ? st.hint.hint : null;
  const pending = st.hintPending === f.version;
  const ask = () => {
    if (send({ type: "hint", ref: `h${++refNo}` })) {
      st.hintPending = f.version;
      st.hintError = "";
      render();
    }
  };
  return h(
    "div",
    { class: "hint-box", "data-key": "hint-box" },
    // a practice table ("Try it again" on a review): say whose cards these are not
    st.welcome.table.practice ? h("p", { class: "muted small", id: "practice-note", "data-key": "practice-note" }, t("practice.note")) : null,
    shown ? null : h("button", { type: "button", class: "small", id: "hint", "data-key": "hint", disabled: pending, onclick: ask }, t("hint.ask")),
    shown || pending || st.hintError ? hintPanel(shown, (action) => actionText({ action }), pending, st.hintError) : null,
  );
}

// The log is drawn once and then only grows: lines are appended, the reader's scroll position is
// kept, and new lines below the visible part are announced by a "new moves" button.
function logBox() {
  return h(
    "section",
    { class: "log card", id: "log", "data-keep": "" },
    h("h2", {}, t("ui.log")),
    h("ol", { class: "log-lines", id: "log-lines", role: "log", tabindex: "0", "aria-live": "polite", "aria-relevant": "additions", "aria-label": t("ui.log") }),
    h("button", { type: "button", class: "small new-moves", id: "new-moves", hidden: true }, ""),
  );
}

const logState = { drawn: 0, lang: null, renderer: null, texts: 0, unseen: 0, atEnd: true, toEndWhenShown: false };
let textsLoaded = 0; // bumped when card texts arrive: lines drawn before then used English names

function atBottom(scroller) {
  return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 24;
}

/** What scrolls the log: its list on a desktop, the whole log area on a phone (phone.css). */
function logScroller(list) {
  return (document.body.dataset.layout === "phone" && list.closest(".area-log")) || list;
}

/** Whether the log is on screen, as drawn now: on a phone it has a tab of its own. */
function logVisible() {
  return document.body.dataset.layout !== "phone" || document.body.dataset.tab === "log";
}

/** Where the reader is in the log: "end", or the first line in view (its event, which of that
 * event's lines, how far below the top of the view); null when the log is not on screen. */
function logPlace(list, scroller) {
  if (!scroller.clientHeight) return null;
  if (atBottom(scroller)) return "end";
  const top = scroller.getBoundingClientRect().top;
  const line = Array.from(list.children).find((li) => li.getBoundingClientRect().bottom > top + 1);
  if (!line) return null;
  const ofEvent = list.querySelectorAll(`li[data-ev="${line.dataset.ev}"]`);
  return { ev: line.dataset.ev, nth: Array.from(ofEvent).indexOf(line), offset: line.getBoundingClientRect().top - top };
}

function goToLogPlace(list, scroller, place) {
  const ofEvent = list.querySelectorAll(`li[data-ev="${place.ev}"]`);
  const line = ofEvent[Math.min(place.nth, ofEvent.length - 1)];
  if (!line) return false;
  scroller.scrollTop += line.getBoundingClientRect().top - scroller.getBoundingClientRect().top - place.offset;
  return true;
}

function logWordedAnew() {
  return logState.lang !== currentLang() || logState.renderer !== st.renderer || logState.texts !== textsLoaded || logState.drawn > st.shown;
}

/**
 * Where the reader is in the log, read before a drawing writes anything: the page's layout is then
 * still the one on screen, so the reading costs nothing, where after the drawing's writes each
 * reading makes the browser lay the whole page out again. Null when the log has nothing new.
 */
function readLog() {
  const list = document.getElementById("log-lines");
  if (!list) {
    // The first drawing (or a layout that draws the log anew): all its lines, the end in view.
    logState.atEnd = true;
    return { reset: true, place: null, keepTop: null };
  }
  // A drawing in the other layout (a phone turned, a window narrowed or widened) puts the log in
  // another place on the page, drawn anew and empty: every line is drawn again, as when worded anew.
  const relayout = document.body.dataset.layout !== (phone.matches ? "phone" : "desktop");
  const reset = relayout || logWordedAnew();
  if (!reset && logState.drawn === st.shown && !logState.toEndWhenShown) return null;
  if (!logVisible()) return { reset, place: null, keepTop: null }; // (display: none: nothing to read)
  const scroller = logScroller(list);
  // Worded anew, the lines change height (another language, another script): the reader keeps the
  // line they were at (by its event), not a pixel offset, or the end if they were there.
  const place = reset && logState.drawn ? logPlace(list, scroller) : null;
  logState.atEnd = reset ? logState.drawn === 0 || place === "end" : atBottom(scroller);
  return { reset, place, keepTop: scroller.scrollTop };
}

function wireLog(box, list, marker) {
  if (list.__wired) return;
  list.__wired = true;
  // The reader's scrolling says whether they follow the end (scroll events do not bubble: caught on
  // the way down, from the list on a desktop or the log area on a phone).
  document.addEventListener(
    "scroll",
    (ev) => {
      if (!box.isConnected || ev.target !== logScroller(list)) return;
      logState.atEnd = atBottom(ev.target);
      if (logState.atEnd) {
        logState.unseen = 0;
        marker.hidden = true;
      }
    },
    true,
  );
  marker.addEventListener("click", () => {
    const scroller = logScroller(list);
    scroller.scrollTop = scroller.scrollHeight;
    logState.atEnd = true;
    logState.unseen = 0;
    marker.hidden = true;
  });
}

function setText(el, text) {
  if (el.textContent !== text) el.textContent = text; // (the same text written again is a change too)
}

function updateLog(reading) {
  const box = document.getElementById("log");
  if (!box) return;
  const list = box.querySelector("#log-lines");
  const marker = box.querySelector("#new-moves");
  setText(box.querySelector("h2"), t("ui.log"));
  if (list.getAttribute("aria-label") !== t("ui.log")) list.setAttribute("aria-label", t("ui.log"));
  wireLog(box, list, marker);
  if (!reading) return;
  // A new language or renderer (the game's own arrives after the first frames) words every line anew.
  if (reading.reset) {
    list.replaceChildren();
    logState.drawn = 0;
    logState.lang = currentLang();
    logState.renderer = st.renderer;
    logState.texts = textsLoaded;
  }
  let added = 0;
  st.log.slice(logState.drawn, st.shown).forEach((ev, i) => {
    const at = String(logState.drawn + i);
    for (const line of eventLines(ev)) {
      if (!line) continue;
      const text = typeof line === "string" ? line : line.text;
      const cls = typeof line === "string" ? "" : line.cls || "";
      list.append(h("li", { class: `ev ev-${ev.event} ${cls}`, "data-ev": at }, text));
      added += 1;
    }
  });
  logState.drawn = st.shown;
  const scroller = logScroller(list);
  if (!logVisible()) {
    logState.toEndWhenShown = logState.atEnd; // scrolled once the reader opens the log
  } else if (logState.atEnd) {
    scroller.scrollTop = scroller.scrollHeight;
    logState.toEndWhenShown = false;
  } else if (reading.reset && reading.keepTop !== null) {
    if (!reading.place || !goToLogPlace(list, scroller, reading.place)) scroller.scrollTop = reading.keepTop; // (its line was undone)
  }
  if (!logState.atEnd && added && !reading.reset) {
    logState.unseen += added;
    marker.hidden = false;
    marker.textContent = t("ui.new_moves", { n: logState.unseen });
  }
}

// ---- the end of the game: a dialog in front of the table --------------------------------------------
// It opens once, when the last events have been shown, over whatever the reader was looking at
// (the page may be scrolled anywhere): focus moves to its title, and the live region says who won.
// Closed, it leaves a "Show the result" button where the move panel was.
const resultDialog = document.getElementById("result-dialog");
resultDialog.addEventListener("close", () => render());

function resultTitle() {
  const r = st.frame.result;
  const you = st.welcome.seat;
  return r.abandoned ? t("result.abandoned") : you !== null && r.winners.includes(you) ? t("result.you_won") : t("result.over");
}

/** Who won, in one sentence (the live region's announcement). */
function winnersText() {
  const r = st.frame.result;
  if (r.abandoned || !r.winners.length) return "";
  return t("result.winners", { who: r.winners.map((s) => seatName(s)).join(t("ui.list_sep")) });
}

function resultBox() {
  const f = st.frame;
  const r = f.result;
  const subs = (r.seats || []).filter((s) => s.substituted);
  const you = st.welcome.seat;
  // A game the server ended (the decision cap, nobody joining) says why, in the reader's words.
  const why = r.abandoned ? h("p", { class: "end-reason", id: "abandoned" }, tMaybe(`result.abandoned.${r.abandoned_code}`, r.abandoned, { n: r.abandoned_limit })) : null;
  const again =
    you !== null
      ? h("button", { type: "button", class: "primary", id: "play-again", onclick: () => send({ type: "play_again", ref: `p${++refNo}` }) }, t("result.play_again"))
      : null;
  const next = st.nextTable
    ? h("a", { class: "button primary", id: "next-table", href: st.nextPath || `/play/${st.nextTable}#token=${token}` }, t("result.go_next"))
    : null;
  const details = st.renderer.resultDetails ? st.renderer.resultDetails(f.view, st.log, ctx()) : null;
  // Why the winner won when the score alone did not decide it (a game's tie-break), in words.
  const note = !r.abandoned && st.renderer.resultNote ? st.renderer.resultNote(r, ctx()) : null;
  return h(
    "section",
    { class: "result", id: "result" },
    h("h2", { id: "result-title", tabindex: "-1", autofocus: true }, resultTitle()),
    winnersText() ? h("p", { class: "winners" }, winnersText()) : null,
    note ? h("p", { class: "result-note", id: "result-note" }, note) : null,
    why,
    st.ratings && !st.ratings.done ? h("p", { class: "muted", id: "rating-pending" }, t("result.rating_pending")) : null,
    h("div", { class: "result-scroll" }, resultTable(r, st.renderer, ctx()), details),
    subs.length ? h("p", { class: "muted" }, t("result.substituted", { who: subs.map((s) => seatName(s.seat)).join(t("ui.list_sep")) })) : null,
    h(
      "div",
      { class: "result-actions" },
      next || again,
      h("a", { class: "button", id: "replay-link", href: `/replay/${encodeURIComponent(tableId)}${you !== null ? `#token=${token}` : ""}` }, t("result.replay")),
      you !== null ? h("a", { class: "button", id: "review-link", href: `/replay/${encodeURIComponent(tableId)}#token=${token}&review=1` }, t("result.review")) : null,
      h("a", { class: "button", href: `/static/rules.html#${st.game}` }, t("help.rules")),
      h("a", { class: "button", href: "/" }, t("result.lobby")),
      h("button", { type: "button", id: "result-close", onclick: () => resultDialog.close() }, t("result.close")),
    ),
  );
}

function updateResult() {
  const f = st.frame;
  const ready = f.over && f.result && !st.queue.length;
  if (!ready) {
    if (resultDialog.open) resultDialog.close();
    resultDialog.replaceChildren();
    st.resultShown = null;
    return;
  }
  resultDialog.setAttribute("aria-labelledby", "result-title");
  // Drawn again only when what it says changes (the language, a new table to go to), so a
  // reader's focus inside it stays put.
  loadRatingChanges();
  const said = JSON.stringify([f.version, currentLang(), st.nextTable, st.seats.map((s) => s.name), textsLoaded, st.ratings]);
  if (resultDialog.dataset.said !== said) {
    resultDialog.dataset.said = said;
    const focused = resultDialog.contains(document.activeElement) ? document.activeElement.id : null;
    resultDialog.replaceChildren(resultBox());
    if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
  }
  if (st.resultShown !== f.version) {
    st.resultShown = f.version;
    if (!resultDialog.open) resultDialog.showModal();
    document.getElementById("result-title").focus();
    const say = document.getElementById("announce");
    if (say) say.textContent = [resultTitle(), winnersText()].filter(Boolean).join(" ");
  }
}

function showResultButton() {
  if (!st.frame.over || !st.frame.result || st.queue.length || resultDialog.open) return null;
  return h("button", { type: "button", class: "primary", id: "show-result", onclick: () => { resultDialog.showModal(); document.getElementById("result-title").focus(); } }, t("result.show"));
}

function seatState(s) {
  return s.kind === "bot" ? t("seat.bot", { level: t(`level.${s.level}`) }) : s.substituted ? t("seat.substituted") : s.connected ? t("seat.online") : t("seat.offline");
}

function renderSeats() {
  return h(
    "ul",
    { class: "seat-strip" },
    st.seats.map((s) => {
      const moving = st.frame && st.frame.to_move.includes(s.seat);
      return h(
        "li",
        { class: `seat-chip${moving ? " moving" : ""}${s.seat === st.welcome.seat ? " me" : ""}`, "data-seat": s.seat, "data-key": `seat${s.seat}` },
        st.renderer.seatBadge ? st.renderer.seatBadge(s.seat, st.frame && st.frame.view, ctx()) : null,
        // (a player's page opens in a new tab: following it does not leave the game)
        h("span", { class: "seat-name" }, playerName(s.seat, { ...ctx(), newTab: true })),
        h("small", {}, seatState(s)),
        st.renderer.seatScore ? st.renderer.seatScore(s.seat, st.frame && st.frame.view, ctx()) : null,
        botNote(s, st.welcome.seat),
        clockBadge(s.seat),
        deadlineBadge(s.seat),
      );
    }),
  );
}

// ---- your turn, noticed ---------------------------------------------------------------------------
const FAVICON = {
  idle: "data:image/svg+xml," + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="6" fill="#6d5a4c"/></svg>'),
  turn: "data:image/svg+xml," + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#b23a1f"/><circle cx="8" cy="8" r="3" fill="#fff"/></svg>'),
};
const notice = { yourTurn: false };

function setFavicon(kind) {
  let link = document.querySelector("link[rel=icon]");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  if (link.getAttribute("href") !== FAVICON[kind]) link.setAttribute("href", FAVICON[kind]);
  link.dataset.state = kind;
}

function beep() {
  try {
    const audio = new (window.AudioContext || window.webkitAudioContext)();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
  } catch {
    /* no audio here: the title and the icon still say it */
  }
}

function noticeTurn(gameTitle) {
  const mine = Boolean(st.frame && !st.frame.over && st.frame.legal.length);
  const title = mine ? `● ${t("ui.title_your_move")} — ${gameTitle}` : `${gameTitle} — Parlor`;
  if (document.title !== title) document.title = title;
  setFavicon(mine ? "turn" : "idle");
  document.body.dataset.yourTurn = mine ? "1" : "0";
  if (mine && !notice.yourTurn) {
    // Said once per turn: the live region, the optional sound, a notification if the tab is hidden.
    const say = document.getElementById("announce");
    if (say) say.textContent = t("ui.announce_your_move");
    if (localStorage.getItem("parlor.sound") === "1") beep();
    if (document.hidden) notifyTurn(gameTitle);
  } else if (!mine && notice.yourTurn) {
    const say = document.getElementById("announce");
    if (say && say.textContent === t("ui.announce_your_move")) say.textContent = "";
  }
  notice.yourTurn = mine;
}

/** A system notification: through the service worker where there is one (an installed app on a
 * phone can only notify that way), else from the page. */
async function notifyTurn(gameTitle) {
  if (notifyPermission !== "granted") return;
  const title = t("ui.title_your_move");
  const body = gameTitle;
  const tag = `parlor-${tableId}`;
  try {
    const reg = "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistration() : null;
    if (reg) {
      await reg.showNotification(title, { body, tag, data: { url: location.href }, icon: "/static/icons/icon-192.png" });
      return;
    }
    new Notification(title, { body, tag });
  } catch {
    /* refused by this browser: the title and the icon still say it */
  }
}

/** At a public table that still waits for players, a seated player may stand up and leave
 * (POST …/stand-up): the seat is open again and the wait for bots starts over. Once every seat is
 * held the game is on, and the button is gone (the server refuses then as well). */
function standUpButton() {
  const f = st.frame;
  if (st.welcome.role !== "seat" || !st.welcome.table.public || (f && f.over) || !st.seats.some((s) => s.open)) return null;
  const leave = async () => {
    st.error = "";
    let res;
    try {
      res = await postJson(`/api/tables/${encodeURIComponent(tableId)}/stand-up`, { token });
    } catch {
      st.error = t("err.unavailable");
      render();
      return;
    }
    if (!res.ok) {
      let code = "server_error";
      try {
        code = (await res.json()).error.code;
      } catch {
        /* not JSON: the generic words */
      }
      st.error = tMaybe(`err.${code}`, t("err.server_error"));
      render();
      return;
    }
    // The token opens nothing any more: forget it, so the lobby no longer lists this table as yours.
    localStorage.removeItem(`parlor.table.${tableId}`);
    localStorage.removeItem(`parlor.claim.${tableId}`);
    localStorage.removeItem(`parlor.seated.${tableId}`);
    st.closedFor = "stood_up";
    if (ws) ws.close();
    location.assign("/");
  };
  return h("button", { type: "button", class: "small tool", id: "stand-up", "data-key": "stand-up", onclick: leave }, t("ui.stand_up"));
}

// ---- waiting for players to sit down (a public table: "Play now", a seat taken in the lobby) -------
// (A private table's free seats wait for the host's links, which the host's panel tells about.)
// While seats are free the page says how many and for how long this tab has waited (counted from
// when it first saw the free seats, kept per table in this tab's sessionStorage so that a reload
// keeps counting), with "Leave this table" beside it.
const WAIT_KEY = `parlor.wait.${tableId}`;

function waitingSince() {
  let since = Number(sessionStorage.getItem(WAIT_KEY));
  if (!since) {
    since = Date.now();
    sessionStorage.setItem(WAIT_KEY, String(since));
  }
  return since;
}

function clockText(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

// When the table fills its empty seats with bots (the lobby's "Fill empty seats with bots"), the
// note counts down to it. The server sends the seconds left (`fill_bots_in`), and the page counts from
// the moment the frame arrived, as the turn clocks do.
function setFillBots(seconds) {
  st.fillBotsAt = typeof seconds === "number" ? performance.now() + seconds * 1000 : null;
}

function botsText(free) {
  const left = Math.max(0, Math.ceil((st.fillBotsAt - performance.now()) / 1000));
  return t("wait.bots", { n: free, time: clockText(left * 1000) });
}

function seatWait() {
  const free = st.seats.filter((s) => s.open).length;
  if (st.welcome.role !== "seat" || !st.welcome.table.public || (st.frame && st.frame.over) || !free) {
    sessionStorage.removeItem(WAIT_KEY);
    return null;
  }
  const elapsed = h("span", { class: "wait-elapsed", id: "wait-elapsed" }, clockText(Date.now() - waitingSince()));
  const bots = st.fillBotsAt === null ? null
    : h("span", { class: "wait-bots", id: "wait-bots", "data-free": String(free) }, botsText(free));
  return h(
    "div",
    { class: "seat-wait", id: "seat-wait", "data-key": "seat-wait" },
    // (a screen reader hears the free seats change, not the counters' every second)
    ratedBadge("wait-rated"),
    h("span", { class: "wait-text", role: "status" }, t("wait.seats", { n: free })),
    quickWindowText(),
    " ",
    h("span", { class: "wait-time" }, t("wait.elapsed_label"), " ", elapsed),
    bots,
    standUpButton(),
  );
}

// Rated quick play pairs players of near ratings, in a window that widens as the table waits: the
// waiting note says which ratings may join now, read again every few seconds.
let quickWindow = null;
let quickWindowAt = 0;

function quickWindowText() {
  const table = st.welcome.table;
  if (!table.rated || !table.quick) return null;
  if (performance.now() - quickWindowAt > 5000) {
    quickWindowAt = performance.now();
    fetch(`/api/tables/${encodeURIComponent(tableId)}/quick-range`).then((res) => (res.ok ? res.json() : null)).then((found) => {
      if (found && JSON.stringify(found) !== JSON.stringify(quickWindow)) {
        quickWindow = found;
        render();
      }
    }).catch(() => {});
  }
  if (!quickWindow) return null;
  return h("span", { class: "wait-range", id: "wait-range" }, t("wait.rating_range", { low: quickWindow.low, high: quickWindow.high }));
}

// The counters move every second by themselves (the page is not drawn again for them).
setInterval(() => {
  if (document.getElementById("seat-wait")) quickWindowText(); // (reads the widening window again)
  const el = document.getElementById("wait-elapsed");
  if (el && sessionStorage.getItem(WAIT_KEY)) el.textContent = clockText(Date.now() - Number(sessionStorage.getItem(WAIT_KEY)));
  const bots = document.getElementById("wait-bots");
  if (bots && st.fillBotsAt !== null) bots.textContent = botsText(Number(bots.dataset.free));
}, 1000);

// Whether this page may notify. Notification.permission asks the browser process and waits for its
// answer (0.1 ms on an idle machine, far more on a busy one), too slow to ask at every drawing: it is
// read once and kept up to date by the browser's permission-change event.
let notifyPermission = "Notification" in window ? Notification.permission : "unsupported";
if ("Notification" in window && navigator.permissions) {
  navigator.permissions
    .query({ name: "notifications" })
    .then((status) => {
      status.addEventListener("change", () => {
        notifyPermission = Notification.permission;
        render();
      });
    })
    .catch(() => {});
}

function noticeControls(withStandUp = true) {
  const items = [];
  const standUp = withStandUp ? standUpButton() : null;
  if (standUp) items.push(standUp);
  // Sound and notifications are about your turn: a spectator has none.
  if (st.welcome.role === "seat") {
    const sound = localStorage.getItem("parlor.sound") === "1";
    items.push(h("button", { type: "button", class: "small tool", id: "sound-toggle", "aria-pressed": sound ? "true" : "false", onclick: () => { localStorage.setItem("parlor.sound", sound ? "0" : "1"); if (!sound) beep(); render(); } }, sound ? t("ui.sound_on") : t("ui.sound_off")));
    if (notifyPermission === "default") {
      items.push(h("button", { type: "button", class: "small tool", id: "notify", onclick: async () => { notifyPermission = await Notification.requestPermission(); render(); } }, t("ui.notify")));
    }
  }
  items.push(h("a", { class: "tool", id: "rules-link", href: `/static/rules.html#${st.game}`, target: "_blank", rel: "noopener" }, t("help.rules")));
  return h("div", { class: "tools" }, items);
}

// Card texts in the reader's language arrive after the first drawing: draw again then.
window.addEventListener(TEXTS_LOADED, () => {
  textsLoaded += 1;
  render();
});

// ---- the two layouts ------------------------------------------------------------------------------
function roleText() {
  return st.welcome.role === "spectator" ? t("ui.role_spectator") : t("ui.role_seat", { name: seatName(st.welcome.seat, {}), n: st.welcome.seat + 1 });
}

function desktopLayout(board) {
  const show = showResultButton();
  const wait = seatWait(); // with "Leave this table" in it
  return h(
    "div",
    { class: "table-layout" },
    h("div", { class: "status" }, h("span", { class: "role" }, roleText()), renderSeats(), show, noticeControls(!wait), wait),
    st.error ? h("p", { class: "error", role: "alert" }, st.error) : null,
    h("div", { class: "area-moves" }, renderMoves(board)),
    h("div", { class: "area-board" }, board),
    h("div", { class: "area-log" }, logBox()),
  );
}

function setTab(tab) {
  st.tab = tab;
  if (tab === "chat" && chat) st.chatSeen = chat.messages.length;
  render();
  if (tab === "chat") document.getElementById("chat-input")?.focus({ preventScroll: true });
}

function phoneTabs() {
  const unread = chat ? Math.max(0, chat.messages.length - st.chatSeen) : 0;
  const tab = (name, label, extra) =>
    h(
      "button",
      { type: "button", role: "tab", class: "tab", id: `tab-${name}`, "aria-selected": st.tab === name ? "true" : "false", onclick: () => setTab(name) },
      label,
      extra,
    );
  const menu = h(
    "details",
    { class: "more-menu", id: "more-menu" },
    h("summary", { class: "icon-button", title: t("ui.more"), "aria-label": t("ui.more") }, "⋯"),
    // On a phone "Leave this table" sits in the dock, where the waiting is shown, not in this menu.
    h("div", { class: "more-panel" }, h("p", { class: "role" }, roleText()), noticeControls(false)),
  );
  return h(
    "nav",
    { class: "phone-tabs", "aria-label": t("ui.views") },
    h(
      "div",
      { role: "tablist", class: "tabs" },
      // Your turn, while you read the log or the chat: the Table tab says so.
      tab("table", t("ui.table"), st.tab !== "table" && !st.frame.over && st.frame.legal.length ? h("span", { class: "unread", "aria-label": t("ui.title_your_move") }, "●") : null),
      tab("log", t("ui.tab_log")),
      tab("chat", t("chat.title"), unread && st.tab !== "chat" ? h("span", { class: "unread", "aria-label": t("ui.unread", { n: unread }) }, String(unread)) : null),
    ),
    menu,
  );
}

function chipExtras(s) {
  const note = botNote(s, st.welcome.seat);
  const away = s.kind === "human" && !s.connected && s.joined ? h("small", { class: "muted" }, t("seat.offline")) : null;
  return [s.kind === "bot" ? h("small", { class: "muted" }, t("seat.bot_short")) : null, away, note, clockBadge(s.seat), deadlineBadge(s.seat)];
}

function phoneLayout(board, docked) {
  return h(
    "div",
    { class: "table-layout phone-layout" },
    phoneTabs(),
    h("div", { class: "area-board", id: "area-board" }, board),
    h("div", { class: "area-log" }, logBox()),
    renderDock(docked),
  );
}

function render() {
  const title = document.getElementById("game-title");
  if (st.closedFor) {
    app.replaceChildren(h("section", { class: "card error-box" }, h("h1", {}, t(`fatal.${st.closedFor}`)),
      st.closedFor === "banned" ? h("p", { id: "banned-why" }, st.bannedWhy) : null,
      h("p", {}, h("a", { href: "/" }, t("result.lobby")))));
    return;
  }
  if (!st.frame || !st.welcome) return;
  const logReading = readLog(); // (before anything is written)
  const gameTitle = tMaybe(`game.${st.game}.title`, st.welcome.table.title || st.game);
  setText(title, gameTitle);
  // "Rated" beside the game's name in the top bar, on a desktop and on a phone alike.
  const badge = ratedBadge("rated-badge");
  const shown = document.getElementById("rated-badge");
  if (badge && shown) shown.textContent = badge.textContent; // (the reader's language, as it changes)
  else if (badge) title.after(badge);
  const onPhone = phone.matches;
  const relayout = document.body.dataset.layout !== (onPhone ? "phone" : "desktop");
  document.body.dataset.role = st.welcome.role;
  document.body.dataset.over = st.frame.over ? "1" : "0";
  document.body.dataset.game = st.game;
  document.body.dataset.layout = onPhone ? "phone" : "desktop";
  document.body.dataset.tab = onPhone ? st.tab : "";
  // The legal moves as parts to click on the table; a renderer may handle some itself (a picker).
  const c0 = ctx();
  const custom = !st.frame.over && st.renderer.picker ? st.renderer.picker(st.frame.view, c0, st.frame.legal, play, render) : null;
  st.custom = custom ? custom.element : null;
  const handled = custom ? custom.handles : new Set();
  st.moves = st.frame.over ? [] : describe(st.renderer, st.frame.legal.filter((e) => !handled.has(e.action.type)), st.frame.view, c0);
  st.chosen = prune(st.moves, st.chosen);
  const state = options(st.moves, st.chosen);
  // What is playable now, for renderers that show a seat's playable things outside its closed chip.
  const c = { ...ctx(), live: (key) => state.next.has(key) || st.chosen.includes(key) };
  if (onPhone) {
    c.playerChips = () =>
      playerChips({
        seats: st.seats,
        you: st.welcome.seat,
        toMove: st.frame.to_move,
        renderer: st.renderer,
        view: st.frame.view,
        ctx: c,
        isOpen: (seat) => st.open.has(seat),
        toggle: (seat) => {
          if (st.open.has(seat)) st.open.delete(seat);
          else st.open.add(seat);
          render();
        },
        extras: chipExtras,
      });
  }
  const board = st.renderer.renderTable(st.frame.view, c);
  board.classList.add("board");
  // On a phone your hand leaves the table for the dock at the bottom of the screen, and so do the
  // cards of other players' places a decision lets you pick (#dock-picks, drawn by the renderer).
  const hand = onPhone ? board.querySelector("#my-hand") : null;
  const picks = onPhone ? board.querySelector("#dock-picks") : null;
  const docked = [picks, hand].filter(Boolean);
  for (const part of docked) part.remove();
  st.board = board;
  if (!st.pending) {
    for (const place of [board, ...docked]) decorate(place, { chosen: st.chosen, next: state.next }, pick);
  }
  const layout = onPhone ? phoneLayout(board, docked) : desktopLayout(board);
  const changed = patch(app, [layout, h("div", { id: "announce", class: "sr-only", "aria-live": "assertive", "data-keep": "" })], { flip: !relayout });
  if (onPhone) fitPhoneBoard();
  else delete document.body.dataset.dense;
  fitPopovers(app);
  updateLog(logReading);
  updateResult();
  noticeTurn(gameTitle);
  const version = st.frame.version;
  if (changed && (version !== guard.version || st.shown !== guard.shown)) {
    // A new position (or animation step) is on screen: moves wait until it has been seen.
    const now = performance.now();
    guard.until = now + GUARD_MS;
  }
  // The same-spot rule runs from the moment the answer to the last move is on screen (a new
  // position, or a refusal that leaves the old one).
  if (!st.pending && guard.spotUntil === Infinity) guard.spotUntil = performance.now() + SAME_SPOT_MS;
  guard.version = version;
  guard.shown = st.shown;
  document.body.dataset.pending = st.pending ? "1" : "0";
  document.body.dataset.drawn = String(Number(document.body.dataset.drawn || 0) + 1);
}

/**
 * A phone's table with much on offer (Mottainai at six: your own places and the floor to choose
 * from, above a dock that holds the other players' places on offer) may not fit above the dock: it
 * is drawn denser, a step at a time (body[data-dense], phone.css), until nothing playable lies below
 * the fold.
 */
function fitPhoneBoard() {
  const area = document.getElementById("area-board");
  const body = document.body.dataset;
  delete body.dense;
  if (!area || st.tab !== "table") return;
  for (const level of ["1", "2"]) {
    if (area.scrollHeight <= area.clientHeight + 1) return;
    body.dense = level;
  }
}

phone.addEventListener("change", () => render());
// A phone turned on its side, or a window resized, has another height for the table.
window.addEventListener("resize", () => {
  if (phone.matches && st.frame) fitPhoneBoard();
});

async function main() {
  watchPopovers();
  watchSheets(() => phone.matches);
  registerServiceWorker();
  await loadLang();
  // The language menu first: a page that stops at a refused link must be readable in any language too.
  document.getElementById("lang-slot").replaceChildren(
    languagePicker(() => {
      // What the live region last said was in the old language: it says nothing until there is news.
      const say = document.getElementById("announce");
      if (say) say.textContent = "";
      setConn(document.getElementById("conn").dataset.state || "connecting");
      render();
      if (chat) chat.redraw();
      host.redraw();
    }),
  );
  if (claimCode && !(await claimSeat())) {
    render();
    return;
  }
  if (token) keepToken();
  connect();
}

main();
