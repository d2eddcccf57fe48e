// The replay page of a finished table (GET /api/tables/{id}/replay): every step as a spectator saw
// it — or, with a seat's token in the fragment (#token=…), as that seat saw it — drawn by the game's
// own renderer, with first/back/forward/last, a slider, jump-to-round, a step counter, the arrow keys,
// the step's events in words, the chat said up to that step and, at the last step, the result. A seat's
// replay offers the judge's review of that seat (review.js) and shows the hints it asked for.
import { h } from "./dom.js";
import { languagePicker, loadLang, t, tMaybe } from "./i18n.js";
import { botName, eventLines, loadRenderer, playerName, resultTable } from "./game_ui.js";
import { chatList } from "./chat.js";
import { TEXTS_LOADED } from "./card_text.js";
import { registerServiceWorker } from "./pwa.js";
import { session } from "./session.js";
import { fitPopovers, watchPopovers } from "./popover.js";
import generic from "../games/generic.js";
import { FLAGGED, ReviewClient, bringIntoView, decisionList, evaluationGraph, labelText, markMove, percent, playedEstimate, reviewSummary, sentence, whyText } from "./review.js";

const app = document.getElementById("app");
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
const st = { data: null, step: 0, renderer: generic, error: null, rounds: [], reviews: null };
const askReview = new URLSearchParams(location.hash.slice(1)).get("review") === "1"; // from the result screen

function seatInfo(seat) {
  return (st.data && st.data.table.seats.find((s) => s.seat === seat)) || {};
}

function you() {
  return st.data && st.data.seat !== undefined ? st.data.seat : null;
}

function seatName(seat, opts = {}) {
  if (seat === null || seat === undefined || seat < 0) return t("ui.nobody");
  if (seat === you()) return opts.object ? t("ui.you_object") : t("ui.you");
  return nameOf(seat);
}

/** A seat's name: a bot with its level, its player's, "deleted player" for an account's seat without
 * one, else "Player N". */
function nameOf(seat) {
  const info = seatInfo(seat);
  if (info.kind === "bot") return botName(info, st.data.table.seats);
  if (info.name) return info.name;
  return info.account ? t("open.deleted_player") : t("ui.player_n", { n: seat + 1 });
}

/** The round (turn, for games counted in turns) a view shows, or null. */
function roundOf(view) {
  if (typeof view.round === "number") return view.round;
  if (typeof view.turn === "number") return view.turn;
  return null;
}

/** [{round, step}]: the first step of every round, in order. */
function roundStarts(steps) {
  const out = [];
  steps.forEach((s, i) => {
    const r = roundOf(s.view);
    if (r !== null && (!out.length || out[out.length - 1].round !== r)) out.push({ round: r, step: i });
  });
  return out;
}

function roundLabel(n) {
  const view = st.data.steps[0].view;
  return typeof view.round === "number" ? t("replay.round_n", { n }) : t("replay.turn_n", { n });
}

function ctx() {
  const steps = st.data.steps;
  const view = steps[st.step].view;
  const prevView = st.step > 0 ? steps[st.step - 1].view : null;
  return { you: you(), seatName, seatInfo, t, tMaybe, view, stage: null, prevView, h, players: view.players };
}

/** An action in words as the reader sees it at a step of the replay (the view before that decision). */
function actionWords(action, stepIndex) {
  const view = st.data.steps[stepIndex].view;
  const c = { ...ctx(), view, prevView: null };
  const text = st.renderer.actionText ? st.renderer.actionText(action, view, c) : null;
  return text || generic.actionText(action, view, c);
}

/** The review card under the slider: ask for it, follow it, then the graph, the summary and the list. */
function renderReview() {
  const rc = st.reviews;
  if (!rc) return null;
  const box = h("section", { class: "review card", id: "review", "aria-label": t("review.title") }, h("h2", {}, t("review.title")));
  const s = rc.status;
  const state = s ? s.status : "loading";
  box.dataset.status = state;
  if (rc.error) box.append(h("p", { class: "error", id: "review-error" }, rc.error));
  if (state === "none" || state === "failed") {
    if (state === "failed") box.append(h("p", { class: "error" }, t("review.failed")));
    box.append(
      h("p", { class: "muted" }, t("review.explain")),
      h("button", { type: "button", class: "primary", id: "review-ask", onclick: () => rc.ask() }, t("review.ask")),
    );
  } else if (state === "queued") {
    box.append(h("p", { id: "review-queued", "aria-live": "polite" }, t("review.queued", { n: s.position })));
  } else if (state === "working") {
    const total = s.total === null || s.total === undefined ? "…" : s.total;
    box.append(
      h("p", { id: "review-progress", "aria-live": "polite" }, t("review.working", { n: s.done, total })),
      h("progress", { max: s.total || 1, value: s.done }),
    );
  } else if (state === "done") {
    const review = s.review;
    if (!review.decisions.length) {
      box.append(h("p", { class: "muted" }, t("review.nothing")));
      return box;
    }
    box.append(
      reviewSummary(review),
      evaluationGraph(review, last(), st.step, goToDecision),
      h("p", { class: "muted small review-legend" }, t("review.legend")),
      h("details", { class: "review-list", open: true }, h("summary", {}, t("review.decisions", { n: review.decisions.length })), decisionList(review, st.step, goToDecision, actionWords)),
    );
  }
  return box;
}

/** "Try it again": a practice table at this decision (POST /api/tables/{id}/practice with the seat's
 * token): unrated, private, bots in the other seats, the cards this seat could not see dealt afresh
 * from what it knew. The page goes to the new table's seat. */
function practiceButton(decision) {
  const note = h("small", { class: "muted" }, t("review.practice_note"));
  const button = h("button", { type: "button", class: "primary", id: "review-practice", "data-step": decision.step }, t("review.practice"));
  const box = h("p", { class: "review-practice" }, button, " ", note);
  button.addEventListener("click", async () => {
    button.disabled = true;
    note.textContent = t("review.practice_wait");
    try {
      const headers = { authorization: `Bearer ${token}`, "content-type": "application/json", "x-csrf-token": (await session()).csrf };
      const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/practice`, { method: "POST", headers, body: JSON.stringify({ step: decision.step }) });
      const body = await res.json();
      if (!res.ok) throw new Error(body.error ? body.error.message : `HTTP ${res.status}`);
      location.href = body.seats.find((s) => s.join_path).join_path;
    } catch (err) {
      console.error(err);
      note.textContent = t("review.error.practice");
      note.classList.add("error");
      button.disabled = false;
    }
  });
  return box;
}

/** At a judged decision: what was played, the label and, flagged, the better move (also on the cards). */
function renderVerdict(board) {
  const out = [];
  const decision = st.reviews && st.reviews.decisionAt(st.step);
  if (decision) {
    const played = playedEstimate(decision);
    const best = decision.moves[0];
    const flagged = FLAGGED.includes(decision.label);
    const box = h(
      "div",
      { class: `review-verdict label-${decision.label}`, id: "review-verdict", "data-label": decision.label },
      h("p", { id: "review-played" }, h("span", { class: `review-label label-${decision.label}` }, labelText(decision.label)), " ", sentence("review.played", { win: percent(played.win) }, { move: actionWords(decision.played, st.step) })),
    );
    if (flagged) {
      // "Marked on the cards" only when something is (a better move of no card, "no order", is not).
      const marked = markMove(board, st.renderer, decision.best, st.data.steps[st.step].view, ctx(), "review-best");
      // (Element.append would write a missing "why" as the text "null": only what there is goes in.)
      box.append(...[
        h("p", { class: "review-better", id: "review-better" },
          sentence("review.better", { win: percent(best.win), n: Math.round(decision.loss * 100) }, { move: actionWords(decision.best, st.step) }),
          marked ? h("span", { id: "review-marked" }, /^(ja|zh)/.test(document.documentElement.lang) ? "" : " ", t("review.better_marked")) : null),
        whyText(decision),
        practiceButton(decision),
      ].filter((el) => el !== null));
    }
    out.push(box);
  }
  const hint = (st.data.hints || []).find((x) => x.version === st.step);
  if (hint) {
    out.push(
      h(
        "div",
        { class: "review-hint", id: "replay-hint" },
        h("p", {}, t("review.hint_asked")),
        h("ol", {}, hint.hint.moves.map((m) => h("li", {}, actionWords(m.action, st.step), " ", h("strong", {}, percent(m.win))))),
      ),
    );
  }
  return out.length ? h("section", { class: "moves card review-here" }, ...out) : null;
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

/** A decision picked in the review (its point on the graph, its line in the list): go there and
 * bring its verdict and the better move marked on the cards into view. */
function goToDecision(step) {
  go(step);
  const verdict = document.getElementById("review-verdict");
  if (verdict) bringIntoView(verdict, [...document.querySelectorAll(".area-board .review-best")]);
}

// The controls are made once and updated in place: a redraw must not drop the slider mid-drag.
let nav = null;

function controls() {
  const n = last();
  if (!nav) {
    const button = (id, target, key) =>
      h("button", { type: "button", class: "small", id, "aria-keyshortcuts": key, onclick: () => go(target()) });
    const slider = h("input", { type: "range", id: "replay-slider", min: 0, step: 1 });
    slider.addEventListener("input", () => go(Number(slider.value)));
    const rounds = h("select", { id: "replay-round" }, st.rounds.map((r) => h("option", { value: r.step })));
    rounds.addEventListener("change", () => go(Number(rounds.value)));
    const roundCaption = h("span", {});
    nav = {
      el: null,
      first: button("replay-first", () => 0, "Home"),
      back: button("replay-back", () => st.step - 1, "ArrowLeft"),
      counter: h("span", { class: "step-counter", id: "step-counter", "aria-live": "polite" }),
      forward: button("replay-forward", () => st.step + 1, "ArrowRight"),
      last: button("replay-last", () => last(), "End"),
      slider,
      rounds,
      roundCaption,
      keys: h("small", { class: "muted replay-keys" }),
    };
    nav.el = h(
      "nav",
      { class: "replay-controls card" },
      nav.first,
      nav.back,
      nav.counter,
      nav.forward,
      nav.last,
      h(
        "div",
        { class: "replay-scrub" },
        slider,
        st.rounds.length > 1 ? h("label", { class: "replay-round" }, roundCaption, " ", rounds) : null,
      ),
      nav.keys,
    );
  }
  nav.el.setAttribute("aria-label", t("replay.title"));
  nav.first.textContent = `◀◀ ${t("replay.first")}`;
  nav.back.textContent = `◀ ${t("replay.back")}`;
  nav.forward.textContent = `${t("replay.forward")} ▶`;
  nav.last.textContent = `${t("replay.last")} ▶▶`;
  nav.first.disabled = nav.back.disabled = st.step === 0;
  nav.forward.disabled = nav.last.disabled = st.step === n;
  nav.counter.textContent = t("replay.step", { n: st.step, total: n });
  nav.slider.max = String(n);
  nav.slider.value = String(st.step);
  nav.slider.setAttribute("aria-label", t("replay.slider"));
  nav.slider.setAttribute("aria-valuetext", t("replay.step", { n: st.step, total: n }));
  nav.roundCaption.textContent = t("replay.jump_round");
  nav.rounds.setAttribute("aria-label", t("replay.jump_round"));
  // The round shown is the last round that started at or before this step.
  let current = 0;
  st.rounds.forEach((r, i) => {
    nav.rounds.options[i].textContent = roundLabel(r.round);
    if (r.step <= st.step) current = i;
  });
  if (st.rounds.length) nav.rounds.selectedIndex = current;
  nav.keys.textContent = t("replay.keys");
  return nav.el;
}

function renderChat() {
  const said = (st.data.chat || []).filter((m) => m.version <= st.step);
  return h("section", { class: "chat card", id: "replay-chat" }, h("h2", {}, t("chat.title")), chatList(said, seatName, "replay-chat-lines"));
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
    const who = step.to_move.map((s) => seatName(s)).join(t("ui.list_sep"));
    return h("div", { class: "area-moves" }, h("section", { class: "moves card" }, h("p", { class: "waiting muted", id: "to-move" }, t("replay.to_move", { who }))));
  }
  if (!st.data.result) return null;
  const r = st.data.result;
  const note = !r.abandoned && st.renderer.resultNote ? st.renderer.resultNote(r, ctx()) : null;
  return h(
    "section",
    { class: "result card", id: "result", "aria-label": t("result.title") },
    h("h2", {}, t("result.over")),
    note ? h("p", { class: "result-note", id: "result-note" }, note) : null,
    resultTable(r, st.renderer, ctx()),
  );
}

let layout = null; // the page's grid, made at the first drawing
let statusBox = null;

function renderError() {
  app.replaceChildren(h("section", { class: "card error-box" }, h("h1", {}, st.error), h("p", {}, h("a", { href: "/" }, t("result.lobby")))));
}

// Card texts in the reader's language arrive after the first drawing: draw again then.
window.addEventListener(TEXTS_LOADED, () => render());

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
        { class: `seat-chip${step.to_move.includes(s.seat) ? " moving" : ""}${s.seat === you() ? " me" : ""}`, "data-seat": s.seat },
        st.renderer.seatBadge ? st.renderer.seatBadge(s.seat, step.view, ctx()) : null,
        h("span", { class: "seat-name" }, playerName(s.seat, ctx())),
      ),
    ),
  );
  const whose =
    you() === null
      ? h("p", { class: "muted replay-seat-view", id: "replay-view" }, t("replay.spectator_view"))
      : h("p", { class: "replay-seat-view", id: "replay-view" }, t("replay.seat_view", { name: nameOf(you()) }), " ",
          h("a", { href: `/replay/${encodeURIComponent(tableId)}`, id: "replay-spectator-link" }, t("replay.show_spectator_view")));
  // Everything but the controls is drawn afresh; the controls stay in the page.
  if (!layout) {
    statusBox = h("div", { class: "status" }, controls());
    layout = h("div", { class: "table-layout" }, statusBox);
    app.replaceChildren(layout);
  }
  const navEl = controls();
  while (statusBox.lastChild && statusBox.lastChild !== navEl) statusBox.lastChild.remove();
  const reviewCard = renderReview();
  statusBox.append(...[reviewCard, whose, seats].filter(Boolean));
  while (layout.lastChild && layout.lastChild !== statusBox) layout.lastChild.remove();
  let status = renderStatus(step);
  const verdict = st.reviews ? renderVerdict(board) : null; // (a decision's step: someone is to move)
  if (verdict) status = status && status.classList.contains("area-moves") ? (status.prepend(verdict), status) : h("div", { class: "area-moves" }, verdict, status);
  const parts = [status, h("div", { class: "area-board" }, board), h("div", { class: "area-log" }, renderLog(step), renderChat())];
  layout.append(...parts.filter(Boolean));
  fitPopovers(layout);
}

document.addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey || (ev.target && ev.target.closest && ev.target.closest("select, input, textarea"))) return;
  const moves = { ArrowLeft: st.step - 1, ArrowRight: st.step + 1, Home: 0, End: st.data ? last() : 0 };
  if (!(ev.key in moves)) return;
  ev.preventDefault();
  go(moves[ev.key]);
});

/** Fetches the chat said before the replay's newest messages (docs/protocol.md, "chat"), page by page. */
async function olderChat(data) {
  while (data.chat_more && data.chat.length) {
    const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/chat?before=${data.chat[0].idx}&limit=500`);
    if (!res.ok) return;
    const page = await res.json();
    data.chat = [...page.messages, ...data.chat];
    data.chat_more = page.more && page.messages.length > 0;
    render();
  }
}

async function main() {
  watchPopovers();
  registerServiceWorker();
  await loadLang();
  document.getElementById("lang-slot").replaceChildren(languagePicker(() => render()));
  try {
    // A seat's token (from its table page's result) asks for that seat's own view of its game.
    const headers = token ? { authorization: `Bearer ${token}` } : {};
    const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay`, { headers });
    const body = await res.json();
    if (!res.ok) {
      const code = body.error ? body.error.code : "";
      st.error =
        code === "not_over" ? t("replay.not_over") : code === "table_not_found" ? t("fatal.table_not_found") : code === "bad_token" ? t("fatal.bad_token") : t("replay.error");
    } else {
      // The renderer first: a redraw meanwhile (a language picked) must not draw the game with the generic one.
      st.renderer = await loadRenderer(body.table.game);
      st.data = body;
      st.rounds = roundStarts(body.steps);
      olderChat(body); // the replay carries the newest messages; the older ones come a page at a time
      if (token && body.seat !== null && body.seat !== undefined) {
        // A seat's own replay: the judge's review of that seat, asked for here (or from the result screen).
        st.reviews = new ReviewClient(tableId, token, () => render());
        st.reviews.load().then(() => {
          if (askReview && st.reviews.status && ["none", "failed"].includes(st.reviews.status.status)) st.reviews.ask();
        });
      }
    }
  } catch (err) {
    console.error(err);
    st.error = t("replay.error");
  }
  document.body.dataset.ready = "1";
  render();
}

main();
