// The replay page of a finished table (GET /api/tables/{id}/replay): every step as a spectator saw
// it, drawn by the game's own renderer, with first/back/forward/last, a step counter, the arrow keys,
// the step's events in words and, at the last step, the result.
import { h } from "./dom.js";
import { languagePicker, loadLang, t, tMaybe } from "./i18n.js";
import { eventLines, loadRenderer, resultTable } from "./game_ui.js";
import generic from "../games/generic.js";

const app = document.getElementById("app");
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const st = { data: null, step: 0, renderer: generic, error: null };

function seatInfo(seat) {
  return (st.data && st.data.table.seats.find((s) => s.seat === seat)) || {};
}

function seatName(seat) {
  if (seat === null || seat === undefined || seat < 0) return t("ui.nobody");
  return seatInfo(seat).name || t("ui.player_n", { n: seat + 1 });
}

function ctx() {
  const steps = st.data.steps;
  const view = steps[st.step].view;
  const prevView = st.step > 0 ? steps[st.step - 1].view : null;
  return { you: null, seatName, seatInfo, t, tMaybe, view, stage: null, prevView, h, players: view.players };
}

function last() {
  return st.data.steps.length - 1;
}

function go(step) {
  if (!st.data) return;
  const next = Math.max(0, Math.min(last(), step));
  if (next === st.step) return;
  st.step = next;
  render();
}

function controls() {
  const n = last();
  const button = (id, label, target, disabled, key) =>
    h("button", { type: "button", class: "small", id, disabled, "aria-keyshortcuts": key, onclick: () => go(target) }, label);
  return h(
    "nav",
    { class: "replay-controls card", "aria-label": t("replay.title") },
    button("replay-first", `◀◀ ${t("replay.first")}`, 0, st.step === 0, "Home"),
    button("replay-back", `◀ ${t("replay.back")}`, st.step - 1, st.step === 0, "ArrowLeft"),
    h("span", { class: "step-counter", id: "step-counter", "aria-live": "polite" }, t("replay.step", { n: st.step, total: n })),
    button("replay-forward", `${t("replay.forward")} ▶`, st.step + 1, st.step === n, "ArrowRight"),
    button("replay-last", `${t("replay.last")} ▶▶`, n, st.step === n, "End"),
    h("small", { class: "muted replay-keys" }, t("replay.keys")),
  );
}

function renderLog(step) {
  const list = h("ol", { class: "log-lines", id: "step-events" });
  for (const ev of step.events) {
    for (const line of eventLines(st.renderer, ev, ctx())) {
      if (!line) continue;
      const text = typeof line === "string" ? line : line.text;
      const cls = typeof line === "string" ? "" : line.cls || "";
      list.append(h("li", { class: `ev ev-${ev.event} ${cls}` }, text));
    }
  }
  if (!list.children.length) list.append(h("li", { class: "muted" }, st.step === 0 ? t("replay.start") : t("replay.no_events")));
  return h("section", { class: "log card" }, h("h2", {}, t("replay.step_events")), list);
}

function renderStatus(step) {
  if (step.to_move.length) {
    const who = step.to_move.map((s) => seatName(s)).join(", ");
    return h("div", { class: "area-moves" }, h("section", { class: "moves card" }, h("p", { class: "waiting muted", id: "to-move" }, t("replay.to_move", { who }))));
  }
  if (!st.data.result) return null;
  return h(
    "section",
    { class: "result card", id: "result", "aria-label": t("result.title") },
    h("h2", {}, t("result.over")),
    resultTable(st.data.result, st.renderer, ctx()),
  );
}

function renderError() {
  app.replaceChildren(h("section", { class: "card error-box" }, h("h1", {}, st.error), h("p", {}, h("a", { href: "/" }, t("result.lobby")))));
}

// Card texts in the reader's language arrive after the first drawing: draw again then.
window.addEventListener("parlor:card-texts-loaded", () => render());

function render() {
  const label = document.getElementById("replay-label");
  label.textContent = t("replay.title");
  if (st.error) {
    renderError();
    return;
  }
  if (!st.data) return;
  const table = st.data.table;
  const gameTitle = tMaybe(`game.${table.game}.title`, table.title || table.game);
  document.getElementById("game-title").textContent = gameTitle;
  document.title = `${t("replay.title")}: ${gameTitle} — Parlor`;
  const step = st.data.steps[st.step];
  document.body.dataset.game = table.game;
  document.body.dataset.step = String(st.step);
  document.body.dataset.steps = String(st.data.steps.length);
  document.body.dataset.over = st.step === last() ? "1" : "0";
  const board = st.renderer.renderTable(step.view, ctx());
  board.classList.add("board");
  const seats = h(
    "ul",
    { class: "seat-strip" },
    table.seats.map((s) =>
      h(
        "li",
        { class: `seat-chip${step.to_move.includes(s.seat) ? " moving" : ""}`, "data-seat": s.seat },
        st.renderer.seatBadge ? st.renderer.seatBadge(s.seat, step.view, ctx()) : null,
        h("span", { class: "seat-name" }, seatName(s.seat)),
        h("small", {}, s.kind === "bot" ? t("seat.bot", { level: t(`level.${s.level}`) }) : ""),
      ),
    ),
  );
  app.replaceChildren(
    h(
      "div",
      { class: "table-layout" },
      h("div", { class: "status" }, controls(), seats),
      renderStatus(step),
      h("div", { class: "area-board" }, board),
      h("div", { class: "area-log" }, renderLog(step)),
    ),
  );
}

document.addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey || (ev.target && ev.target.closest && ev.target.closest("select, input, textarea"))) return;
  const moves = { ArrowLeft: st.step - 1, ArrowRight: st.step + 1, Home: 0, End: st.data ? last() : 0 };
  if (!(ev.key in moves)) return;
  ev.preventDefault();
  go(moves[ev.key]);
});

async function main() {
  await loadLang();
  document.getElementById("lang-slot").replaceChildren(languagePicker(() => render()));
  try {
    const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay`);
    const body = await res.json();
    if (!res.ok) {
      const code = body.error ? body.error.code : "";
      st.error = code === "not_over" ? t("replay.not_over") : code === "table_not_found" ? t("fatal.table_not_found") : t("replay.error");
    } else {
      st.data = body;
      st.renderer = await loadRenderer(body.table.game);
    }
  } catch (err) {
    console.error(err);
    st.error = t("replay.error");
  }
  document.body.dataset.ready = "1";
  render();
}

main();
