// The table page: one WebSocket per tab (docs/protocol.md), the game's renderer, the legal moves,
// the game log in words and the result. The token lives in the URL fragment and in localStorage.
import { h } from "./dom.js";
import { languagePicker, loadLang, t, tMaybe } from "./i18n.js";
import generic from "../games/generic.js";
import { eventLines as eventLinesOf, loadRenderer, resultTable } from "./game_ui.js";
import { createChat } from "./chat.js";
import { botNote, clockBadge, setClocks } from "./clock.js";
import { createHost, hostTokenFor, rememberHost } from "./host.js";

const app = document.getElementById("app");
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const params = new URLSearchParams(location.hash.slice(1));
const query = new URLSearchParams(location.search);
let token = params.get("token") || localStorage.getItem(`parlor.table.${tableId}`) || "";
const animate = query.get("anim") !== "0" && localStorage.getItem("parlor.anim") !== "0";

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
};
let ws = null;
let retry = 0;
let refNo = 0;
let timer = null;
let chat = null; // the chat panel (js/chat.js), made at the first welcome
const host = createHost({ slot: document.getElementById("host-slot"), tableId, hostToken: hostTokenFor(tableId), seatName });

if (token) {
  localStorage.setItem(`parlor.table.${tableId}`, token);
  if (!params.get("token")) history.replaceState(null, "", `${location.pathname}${location.search}#token=${token}`);
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
  return t("ui.player_n", { n: seat + 1 });
}

function ctx() {
  const you = st.welcome ? st.welcome.seat : null;
  return { you, seatName, seatInfo, t, tMaybe, view: st.frame ? st.frame.view : null, stage: st.stage, prevView: st.prevView, h, players: st.frame ? st.frame.view.players : 0 };
}

// ---- the connection ---------------------------------------------------------------------------
function connect() {
  if (!token) {
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
  ws.addEventListener("message", (m) => {
    let msg;
    try {
      msg = JSON.parse(m.data);
    } catch {
      return;
    }
    onFrame(msg);
  });
  ws.addEventListener("close", (ev) => {
    ws = null;
    st.pending = false;
    if (ev.code === 4403 || ev.code === 4404) {
      st.closedFor = ev.code === 4403 ? "bad_token" : "table_not_found";
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
      if (!chat) chat = createChat({ slot: document.getElementById("chat-slot"), send, seatName, canWrite: msg.role === "seat" });
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
    case "error":
      if (chat && typeof msg.ref === "string" && msg.ref.startsWith("c")) {
        chat.onError(msg);
        return;
      }
      st.pending = false;
      st.error = tMaybe(`err.${msg.code}`, msg.message || msg.code);
      if (msg.code === "bad_token" || msg.code === "table_not_found") st.closedFor = msg.code;
      break;
    case "next_table":
      st.nextTable = msg.table_id;
      rememberHost(msg.table_id, hostTokenFor(tableId)); // the new table keeps its host
      break;
    case "ack":
      if (msg.table_id) {
        st.nextTable = msg.table_id;
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

function play(entry) {
  if (st.pending) return;
  st.error = "";
  if (send({ type: "action", id: entry.id, version: st.frame.version, ref: `a${++refNo}` })) {
    st.pending = true;
    render();
  }
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

function skipAnimation() {
  if (timer) clearTimeout(timer);
  timer = null;
  st.queue = [];
  st.shown = st.log.length;
  st.stage = null;
  render();
}

function renderMoves() {
  const f = st.frame;
  const wrap = h("section", { class: "moves card", "aria-live": "polite" });
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
  const groups = new Map();
  for (const entry of f.legal) {
    const type = entry.action.type;
    if (!groups.has(type)) groups.set(type, []);
    groups.get(type).push(entry);
  }
  for (const [type, entries] of groups) {
    const box = h("div", { class: `move-group${entries.length > 8 ? " many" : ""}`, "data-type": type });
    const heading = tMaybe(`group.${type}`, null);
    if (heading && (groups.size > 1 || entries.length > 8)) box.append(h("h3", {}, heading));
    const list = h("div", { class: "move-list" });
    for (const entry of entries) {
      const label = actionText(entry);
      list.append(
        h(
          "button",
          {
            type: "button",
            class: "move",
            "data-id": entry.id,
            "data-type": type,
            disabled: st.pending,
            onclick: () => play(entry),
          },
          label,
        ),
      );
    }
    box.append(list);
    wrap.append(box);
  }
  if (f.can_undo) {
    wrap.append(h("button", { type: "button", class: "undo small", onclick: () => send({ type: "undo", ref: `u${++refNo}` }) }, t("ui.undo")));
  }
  return wrap;
}

function renderLog() {
  const list = h("ol", { class: "log-lines" });
  const shown = st.log.slice(0, st.shown);
  for (const ev of shown) {
    for (const line of eventLines(ev)) {
      if (!line) continue;
      const text = typeof line === "string" ? line : line.text;
      const cls = typeof line === "string" ? "" : line.cls || "";
      list.append(h("li", { class: `ev ev-${ev.event} ${cls}` }, text));
    }
  }
  const box = h("section", { class: "log card" }, h("h2", {}, t("ui.log")), list);
  requestAnimationFrame(() => {
    list.scrollTop = list.scrollHeight;
  });
  return box;
}

function renderResult() {
  const f = st.frame;
  if (!f.over || !f.result || st.queue.length) return null;
  const r = f.result;
  const subs = (r.seats || []).filter((s) => s.substituted);
  const you = st.welcome.seat;
  const title = you === null ? t("result.over") : r.winners.includes(you) ? t("result.you_won") : t("result.over");
  const again =
    you !== null
      ? h("button", { type: "button", class: "primary", id: "play-again", onclick: () => send({ type: "play_again", ref: `p${++refNo}` }) }, t("result.play_again"))
      : null;
  const next = st.nextTable
    ? h("a", { class: "button primary", id: "next-table", href: `/play/${st.nextTable}#token=${token}` }, t("result.go_next"))
    : null;
  return h(
    "section",
    { class: "result card", id: "result", role: "dialog", "aria-label": t("result.title") },
    h("h2", {}, title),
    resultTable(r, st.renderer, ctx()),
    subs.length ? h("p", { class: "muted" }, t("result.substituted", { who: subs.map((s) => seatName(s.seat)).join(", ") })) : null,
    h(
      "div",
      { class: "result-actions" },
      next || again,
      h("a", { class: "button", id: "replay-link", href: `/replay/${encodeURIComponent(tableId)}${you !== null ? `#token=${token}` : ""}` }, t("result.replay")),
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
        { class: `seat-chip${moving ? " moving" : ""}${s.seat === st.welcome.seat ? " me" : ""}`, "data-seat": s.seat },
        st.renderer.seatBadge ? st.renderer.seatBadge(s.seat, st.frame && st.frame.view, ctx()) : null,
        h("span", { class: "seat-name" }, seatName(s.seat)),
        h("small", {}, state),
        botNote(s, st.welcome.seat),
        clockBadge(s.seat),
      );
    }),
  );
}

// Card texts in the reader's language arrive after the first drawing: draw again then.
window.addEventListener("parlor:card-texts-loaded", () => render());

function render() {
  const title = document.getElementById("game-title");
  if (st.closedFor) {
    app.replaceChildren(h("section", { class: "card error-box" }, h("h1", {}, t(`fatal.${st.closedFor}`)), h("p", {}, h("a", { href: "/" }, t("result.lobby")))));
    return;
  }
  if (!st.frame || !st.welcome) return;
  const gameTitle = tMaybe(`game.${st.game}.title`, st.welcome.table.title || st.game);
  title.textContent = gameTitle;
  document.title = `${gameTitle} — Parlor`;
  const role = st.welcome.role === "spectator" ? t("ui.role_spectator") : t("ui.role_seat", { name: seatName(st.welcome.seat, {}), n: st.welcome.seat + 1 });
  document.body.dataset.role = st.welcome.role;
  document.body.dataset.over = st.frame.over ? "1" : "0";
  document.body.dataset.game = st.game;
  const board = st.renderer.renderTable(st.frame.view, ctx());
  board.classList.add("board");
  app.replaceChildren(
    h(
      "div",
      { class: "table-layout" },
      h("div", { class: "status" }, h("span", { class: "role" }, role), renderSeats()),
      st.error ? h("p", { class: "error", role: "alert" }, st.error) : null,
      renderResult(),
      h("div", { class: "area-moves" }, renderMoves()),
      h("div", { class: "area-board" }, board),
      h("div", { class: "area-log" }, renderLog()),
    ),
  );
}

async function main() {
  await loadLang();
  document.getElementById("lang-slot").replaceChildren(languagePicker(() => { setConn(document.getElementById("conn").dataset.state || "connecting"); render(); if (chat) chat.redraw(); host.redraw(); }));
  connect();
}

main();
