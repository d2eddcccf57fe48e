// Turn clocks and the "a bot played" marks on the seat chips (docs/protocol.md: `clocks` in the
// state frame, `bot_moves`/`substituted`/`stand_in` in the seat summaries).
// The server sends the seconds left for each clocked seat; the page counts down from the moment
// the frame arrived, so a wrong clock on this computer does not matter.
import { h } from "./dom.js";
import { currentLang, t } from "./i18n.js";

let deadlines = new Map(); // seat -> performance.now() at which its time runs out
let ticker = null;

/** The `clocks` of a state frame ({seat: seconds left}; empty or missing: no clock runs). */
export function setClocks(clocks) {
  const now = performance.now();
  deadlines = new Map(Object.entries(clocks || {}).map(([seat, left]) => [Number(seat), now + left * 1000]));
  if (deadlines.size && !ticker) ticker = setInterval(tick, 250);
  if (!deadlines.size && ticker) {
    clearInterval(ticker);
    ticker = null;
  }
  tick();
}

export function secondsLeft(seat) {
  const end = deadlines.get(seat);
  return end === undefined ? null : Math.max(0, (end - performance.now()) / 1000);
}

export function formatClock(seconds) {
  const s = Math.ceil(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function tick() {
  for (const el of document.querySelectorAll(".seat-clock[data-clock-seat]")) {
    const left = secondsLeft(Number(el.dataset.clockSeat));
    if (left === null) {
      el.hidden = true;
      continue;
    }
    el.hidden = false;
    el.textContent = formatClock(left);
    el.classList.toggle("low", left <= 10);
    el.setAttribute("aria-label", t("clock.left", { time: formatClock(left) }));
  }
}

/** The countdown for a seat's chip (updated in place every quarter second), or null. */
export function clockBadge(seat) {
  const left = secondsLeft(seat);
  if (left === null) return null;
  return h(
    "span",
    { class: `seat-clock${left <= 10 ? " low" : ""}`, "data-clock-seat": seat, role: "timer", "aria-label": t("clock.left", { time: formatClock(left) }) },
    formatClock(left),
  );
}

/** What a seat chip says about bots playing for a human seat, or null. */
export function botNote(info, you) {
  if (!info || info.kind !== "human") return null;
  if (info.substituted) {
    // The chip already says "played by a bot"; the player is told in the second person.
    return info.seat === you ? h("small", { class: "bot-note now" }, t("seat.bot_plays_for_you")) : null;
  }
  if (info.bot_moves > 0) {
    return h(
      "small",
      { class: "bot-note" },
      info.bot_moves === 1
        ? t(info.seat === you ? "seat.bot_played_for_you_one" : "seat.bot_played_one")
        : info.seat === you
          ? t("seat.bot_played_for_you", { n: info.bot_moves })
          : t("seat.bot_played", { n: info.bot_moves }),
    );
  }
  // Taken (somebody sat down or claimed its link) but never opened: the others see nobody is there.
  if (info.absent) return h("small", { class: "bot-note muted absent" }, t("seat.absent"));
  if (!info.joined) return h("small", { class: "bot-note muted" }, t("seat.not_joined"));
  return null;
}

// Turn-based tables: each waiting decision's deadline (`deadlines` in the state and seats frames, UTC
// ISO 8601), shown as a date and time in this browser's own time zone (Intl's default).
let turnDeadlines = new Map(); // seat -> Date

/** The `deadlines` of a state or seats frame ({seat: ISO time}; empty or missing: none). */
export function setDeadlines(deadlines) {
  turnDeadlines = new Map(Object.entries(deadlines || {}).map(([seat, at]) => [Number(seat), new Date(at)]));
}

export function deadlineText(at) {
  return new Intl.DateTimeFormat(currentLang(), { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }).format(at);
}

/** "decides by Tue 3 Dec, 14:05" for a seat of a turn-based table whose decision waits, or null. */
export function deadlineBadge(seat) {
  const at = turnDeadlines.get(seat);
  if (!at) return null;
  return h("small", { class: "seat-deadline", "data-deadline-seat": seat, title: at.toISOString() }, t("table.deadline", { when: deadlineText(at) }));
}
