// The table page: one WebSocket per tab (docs/protocol.md), the game's renderer, the legal moves,
// the game log in words and the result. The token lives in the URL fragment and in localStorage.
import { postJson } from "./session.js";
import { h } from "./dom.js";
import { currentLang, languagePicker, loadLang, t, tMaybe } from "./i18n.js";
import { patch, setMotion } from "./patch.js";
import { fitPopovers, watchPopovers } from "./popover.js";
import { decorate, describe, offBoard, options, prune } from "./picks.js";
import generic from "../games/generic.js";
import { eventLines as eventLinesOf, loadRenderer, resultTable } from "./game_ui.js";
import { createChat } from "./chat.js";
import { botNote, clockBadge, setClocks } from "./clock.js";
import { createHost, hostTokenFor, rememberHost } from "./host.js";
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
};
let ws = null;
let retry = 0;
let refNo = 0;
let timer = null;
let chat = null; // the chat panel (js/chat.js), made at the first welcome
const host = createHost({ slot: document.getElementById("host-slot"), tableId, hostToken: hostTokenFor(tableId), seatName });

function keepToken() {
  localStorage.setItem(`parlor.table.${tableId}`, token);
  if (params.get("token") !== token) history.replaceState(null, "", `${location.pathname}${location.search}#token=${token}`);
}

/** Claims the seat of a #claim= link (once); this browser keeps the token it gets. */
async function claimSeat() {
  // Opened again in the browser that claimed it: the token kept here opens the seat.
  if (localStorage.getItem(`parlor.claim.${tableId}`) === claimCode && token) return true;
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
  if (info.name) return info.name;
  if (info.account) return t("open.deleted_player"); // an account's seat without a name: it was deleted
  return t("ui.player_n", { n: seat + 1 });
}

function ctx() {
  const you = st.welcome ? st.welcome.seat : null;
  return { you, seatName, seatInfo, t, tMaybe, view: st.frame ? st.frame.view : null, stage: st.stage, prevView: st.prevView, h, players: st.frame ? st.frame.view.players : 0, chosen: st.chosen, log: st.log };
}

// ---- the connection ---------------------------------------------------------------------------
function connect() {
  if (!token && !byCookie) {
    st.closedFor = "no_token";
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
    onFrame(msg);
  });
  ws.addEventListener("close", (ev) => {
    clearInterval(keepAlive);
    ws = null;
    st.pending = false;
    if (ev.code === 4403 || ev.code === 4404) {
      if (st.closedFor !== "seat_replaced") st.closedFor = ev.code === 4403 ? "bad_token" : "table_not_found";
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
      if (!chat) chat = createChat({ slot: document.getElementById("chat-slot"), send, seatName, spectator: msg.role !== "seat", older: olderChat });
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
      if (fresh || !animate) {
        st.shown = st.log.length;
        st.queue = [];
        st.stage = null;
      } else {
        st.queue.push(...msg.events);
        pump();
      }
      document.body.dataset.version = String(msg.version);
      break;
    }
    case "seats":
      st.seats = msg.seats;
      host.update(st.seats, st.frame && st.frame.over);
      break;
    case "chat":
      if (chat) chat.onFrame(msg);
      return;
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
    guard.spot = guard.pointer;
    guard.spotUntil = Infinity; // until the next position has been shown long enough (render)
    render();
  }
}

function pick(key) {
  if (st.pending) return;
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
  const box = h(
    "details",
    { class: "move-list-box", id: "move-list", open: localStorage.getItem("parlor.movelist") === "1" },
    h("summary", {}, t("ui.move_list", { n: f.legal.length })),
  );
  box.addEventListener("toggle", () => localStorage.setItem("parlor.movelist", box.open ? "1" : "0"));
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
    box.append(group);
  }
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

function renderMoves(board) {
  const f = st.frame;
  const wrap = h("section", { class: "moves card", id: "moves" });
  if (st.queue.length) {
    wrap.append(h("button", { type: "button", class: "small skip", id: "skip", onclick: skipAnimation }, t("ui.skip", { n: st.queue.length })));
  }
  if (f.over) return st.queue.length ? wrap : null;
  if (!f.legal.length) {
    let text;
    if (st.welcome.role === "spectator") text = t("ui.spectating");
    else text = t("ui.waiting_for", { who: f.to_move.map((s) => seatName(s)).join(", ") || "—" });
    wrap.append(h("p", { class: "waiting muted" }, text));
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
    wrap.append(
      h(
        "div",
        { class: "pick-state", "aria-live": "polite" },
        h("span", { class: "chosen-parts" }, chosen.length ? chosen : h("span", { class: "muted" }, t("ui.pick_hint"))),
      ),
      h(
        "div",
        { class: "pick-confirm" },
        complete.length ? complete.map((m, i) => confirm(m, i)) : confirm(null, 0),
        h("button", { type: "button", class: "small cancel", id: "cancel", disabled: !st.chosen.length, onclick: () => { st.chosen = []; render(); } }, t("ui.cancel")),
      ),
    );
    // Parts with no place on the table become buttons here, in the order the move lists them
    // (a count only after its topping).
    const ordered = new Set();
    for (const m of options(st.moves, st.chosen).fitting) {
      const first = m.parts.find((k) => !st.chosen.includes(k));
      if (first) ordered.add(first);
    }
    const loose = offBoard(board, next).filter((k) => ordered.has(k));
    if (loose.length) {
      const chips = h(
        "div",
        { class: "pick-chips", "data-key": "pick-chips" },
        loose.map((k) => h("button", { type: "button", class: "chip", "data-pick": k, "data-key": k, "data-act": "pick", disabled: st.pending, onclick: () => pick(k) }, partLabel(k))),
      );
      // What completes a part chosen on the table (how many of the kind just clicked) is offered
      // right beside it; parts that belong to no card stay in the pick bar.
      const anchor = chosenOnBoard(board);
      if (anchor) {
        chips.classList.add("pick-inline");
        anchor.after(chips);
      } else {
        wrap.append(chips);
      }
    }
  }
  wrap.append(sentenceList(f));
  const hints = hintBox(f);
  if (hints) wrap.append(hints);
  if (f.can_undo) {
    wrap.append(h("button", { type: "button", class: "undo small", id: "undo", onclick: () => send({ type: "undo", ref: `u${++refNo}` }) }, t("ui.undo")));
  }
  return wrap;
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

const logState = { drawn: 0, lang: null, renderer: null, texts: 0, unseen: 0 };
let textsLoaded = 0; // bumped when card texts arrive: lines drawn before then used English names

function atBottom(list) {
  return list.scrollHeight - list.scrollTop - list.clientHeight < 24;
}

function updateLog() {
  const box = document.getElementById("log");
  if (!box) return;
  const list = box.querySelector("#log-lines");
  const marker = box.querySelector("#new-moves");
  box.querySelector("h2").textContent = t("ui.log");
  if (!list.__wired) {
    list.__wired = true;
    list.addEventListener("scroll", () => {
      if (atBottom(list)) {
        logState.unseen = 0;
        marker.hidden = true;
      }
    });
    marker.addEventListener("click", () => {
      list.scrollTop = list.scrollHeight;
      logState.unseen = 0;
      marker.hidden = true;
    });
  }
  const lang = currentLang();
  // A new language or renderer (the game's own arrives after the first frames) words every line anew.
  const reset = logState.lang !== lang || logState.renderer !== st.renderer || logState.texts !== textsLoaded || logState.drawn > st.shown;
  const follow = reset ? logState.drawn === 0 || atBottom(list) : atBottom(list);
  const keepTop = list.scrollTop;
  if (reset) {
    list.replaceChildren();
    logState.drawn = 0;
    logState.lang = lang;
    logState.renderer = st.renderer;
    logState.texts = textsLoaded;
  }
  let added = 0;
  for (const ev of st.log.slice(logState.drawn, st.shown)) {
    for (const line of eventLines(ev)) {
      if (!line) continue;
      const text = typeof line === "string" ? line : line.text;
      const cls = typeof line === "string" ? "" : line.cls || "";
      list.append(h("li", { class: `ev ev-${ev.event} ${cls}` }, text));
      added += 1;
    }
  }
  logState.drawn = st.shown;
  if (follow) {
    list.scrollTop = list.scrollHeight;
  } else if (reset) {
    list.scrollTop = keepTop;
  } else if (added) {
    logState.unseen += added;
    marker.hidden = false;
    marker.textContent = t("ui.new_moves", { n: logState.unseen });
  }
}

function resultBox() {
  const f = st.frame;
  if (!f.over || !f.result || st.queue.length) return null;
  const r = f.result;
  const subs = (r.seats || []).filter((s) => s.substituted);
  const you = st.welcome.seat;
  const title = r.abandoned ? t("result.abandoned") : you !== null && r.winners.includes(you) ? t("result.you_won") : t("result.over");
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
  return h(
    "section",
    { class: "result card", id: "result", role: "dialog", "aria-label": t("result.title") },
    h("h2", {}, title),
    why,
    resultTable(r, st.renderer, ctx()),
    details,
    subs.length ? h("p", { class: "muted" }, t("result.substituted", { who: subs.map((s) => seatName(s.seat)).join(", ") })) : null,
    h(
      "div",
      { class: "result-actions" },
      next || again,
      h("a", { class: "button", id: "replay-link", href: `/replay/${encodeURIComponent(tableId)}${you !== null ? `#token=${token}` : ""}` }, t("result.replay")),
      you !== null ? h("a", { class: "button", id: "review-link", href: `/replay/${encodeURIComponent(tableId)}#token=${token}&review=1` }, t("result.review")) : null,
      h("a", { class: "button", href: `/static/rules.html#${st.game}` }, t("help.rules")),
      h("a", { class: "button", href: "/" }, t("result.lobby")),
    ),
  );
}

function renderSeats() {
  return h(
    "ul",
    { class: "seat-strip" },
    st.seats.map((s) => {
      const moving = st.frame && st.frame.to_move.includes(s.seat);
      const state = s.kind === "bot" ? t("seat.bot", { level: t(`level.${s.level}`) }) : s.substituted ? t("seat.substituted") : s.connected ? t("seat.online") : t("seat.offline");
      return h(
        "li",
        { class: `seat-chip${moving ? " moving" : ""}${s.seat === st.welcome.seat ? " me" : ""}`, "data-seat": s.seat, "data-key": `seat${s.seat}` },
        st.renderer.seatBadge ? st.renderer.seatBadge(s.seat, st.frame && st.frame.view, ctx()) : null,
        h("span", { class: "seat-name" }, seatName(s.seat)),
        h("small", {}, state),
        st.renderer.seatScore ? st.renderer.seatScore(s.seat, st.frame && st.frame.view, ctx()) : null,
        botNote(s, st.welcome.seat),
        clockBadge(s.seat),
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
  document.title = mine ? `● ${t("ui.title_your_move")} — ${gameTitle}` : `${gameTitle} — Parlor`;
  setFavicon(mine ? "turn" : "idle");
  document.body.dataset.yourTurn = mine ? "1" : "0";
  if (mine && !notice.yourTurn) {
    // Said once per turn: the live region, the optional sound, a notification if the tab is hidden.
    const say = document.getElementById("announce");
    if (say) say.textContent = t("ui.announce_your_move");
    if (localStorage.getItem("parlor.sound") === "1") beep();
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      try {
        new Notification(t("ui.title_your_move"), { body: gameTitle, tag: `parlor-${tableId}` });
      } catch {
        /* some browsers only notify from a service worker */
      }
    }
  } else if (!mine && notice.yourTurn) {
    const say = document.getElementById("announce");
    if (say) say.textContent = "";
  }
  notice.yourTurn = mine;
}

function noticeControls() {
  const sound = localStorage.getItem("parlor.sound") === "1";
  const items = [
    h("button", { type: "button", class: "small tool", id: "sound-toggle", "aria-pressed": sound ? "true" : "false", onclick: () => { localStorage.setItem("parlor.sound", sound ? "0" : "1"); if (!sound) beep(); render(); } }, sound ? t("ui.sound_on") : t("ui.sound_off")),
  ];
  if ("Notification" in window && Notification.permission === "default") {
    items.push(h("button", { type: "button", class: "small tool", id: "notify", onclick: async () => { await Notification.requestPermission(); render(); } }, t("ui.notify")));
  }
  items.push(h("a", { class: "tool", id: "rules-link", href: `/static/rules.html#${st.game}`, target: "_blank", rel: "noopener" }, t("help.rules")));
  return h("div", { class: "tools" }, items);
}

// Card texts in the reader's language arrive after the first drawing: draw again then.
window.addEventListener("parlor:card-texts-loaded", () => {
  textsLoaded += 1;
  render();
});

function render() {
  const title = document.getElementById("game-title");
  if (st.closedFor) {
    app.replaceChildren(h("section", { class: "card error-box" }, h("h1", {}, t(`fatal.${st.closedFor}`)), h("p", {}, h("a", { href: "/" }, t("result.lobby")))));
    return;
  }
  if (!st.frame || !st.welcome) return;
  const gameTitle = tMaybe(`game.${st.game}.title`, st.welcome.table.title || st.game);
  title.textContent = gameTitle;
  const role = st.welcome.role === "spectator" ? t("ui.role_spectator") : t("ui.role_seat", { name: seatName(st.welcome.seat, {}), n: st.welcome.seat + 1 });
  document.body.dataset.role = st.welcome.role;
  document.body.dataset.over = st.frame.over ? "1" : "0";
  document.body.dataset.game = st.game;
  // The legal moves as parts to click on the table; a renderer may handle some itself (a picker).
  const c = ctx();
  const custom = !st.frame.over && st.renderer.picker ? st.renderer.picker(st.frame.view, c, st.frame.legal, play, render) : null;
  st.custom = custom ? custom.element : null;
  const handled = custom ? custom.handles : new Set();
  st.moves = st.frame.over ? [] : describe(st.renderer, st.frame.legal.filter((e) => !handled.has(e.action.type)), st.frame.view, c);
  st.chosen = prune(st.moves, st.chosen);
  const board = st.renderer.renderTable(st.frame.view, c);
  board.classList.add("board");
  const state = options(st.moves, st.chosen);
  if (!st.pending) decorate(board, { chosen: st.chosen, next: state.next }, pick);
  const changed = patch(app, [
    h(
      "div",
      { class: "table-layout" },
      h("div", { class: "status" }, h("span", { class: "role" }, role), renderSeats(), noticeControls()),
      st.error ? h("p", { class: "error", role: "alert" }, st.error) : null,
      resultBox(),
      h("div", { class: "area-moves" }, renderMoves(board)),
      h("div", { class: "area-board" }, board),
      h("div", { class: "area-log" }, logBox()),
    ),
    h("div", { id: "announce", class: "sr-only", "aria-live": "assertive", "data-keep": "" }),
  ]);
  fitPopovers(app);
  updateLog();
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

async function main() {
  watchPopovers();
  await loadLang();
  if (claimCode && !(await claimSeat())) {
    render();
    return;
  }
  if (token) keepToken();
  document.getElementById("lang-slot").replaceChildren(languagePicker(() => { setConn(document.getElementById("conn").dataset.state || "connecting"); render(); if (chat) chat.redraw(); host.redraw(); }));
  connect();
}

main();
