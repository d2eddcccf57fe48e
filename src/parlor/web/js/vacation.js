// The account page's vacation panel (docs/protocol.md, "Turn-based tables": 30 days a calendar year,
// the player's turn-based deadlines paused while one runs): the days left this year, a vacation of
// N days started (1 to the days left), and the running one ended early (whole days unused come back).
// Every refusal is shown in the page's language, the server's own words only for a code it has no
// words for.
import { h } from "./dom.js";
import { patch } from "./patch.js";
import { t, tMaybe } from "./i18n.js";
import { deadlineText } from "./clock.js";
import { answerOf, postJson } from "./session.js";

let slot = null;
let held = null; // GET /api/account/vacation's answer
let message = "";
let days = "1"; // what the days field holds (kept across redraws)
let busy = false; // a request on its way: a double click sends nothing more (its refusal would replace the answer)

async function load() {
  held = await answerOf(await fetch("/api/account/vacation"));
}

async function change(body, done) {
  if (busy) return;
  busy = true;
  try {
    held = await answerOf(await postJson("/api/account/vacation", body));
    message = t(done);
  } catch (err) {
    const left = held ? held.days_left : 0;
    message = err.code === "bad_request" ? t("vacation.err.bad_days", { left }) : tMaybe(`vacation.err.${err.code}`, err.message);
    await load().catch(() => {}); // (another tab may have started or ended one: show what holds now)
  } finally {
    busy = false;
  }
  draw();
}

function start(event) {
  event.preventDefault();
  const n = Number(days);
  // Checked here first so a slip gets its words at once; the server checks it again.
  if (!Number.isInteger(n) || n < 1 || n > held.days_left) {
    message = t("vacation.err.bad_days", { left: held.days_left });
    draw();
    return;
  }
  change({ action: "start", days: n }, "vacation.started");
}

/** Draw the panel again (the page's language changed, or the answer did). */
export function draw() {
  if (!slot || !held) return;
  let action = null;
  if (held.on_vacation) {
    action = h("p", {}, h("span", { id: "vacation-until" }, t("vacation.until", { when: deadlineText(new Date(held.until)) })), " ",
      h("button", { type: "button", id: "vacation-stop", onclick: () => change({ action: "stop" }, "vacation.stopped") }, t("vacation.stop")));
  } else if (held.days_left > 0) {
    const input = h("input", { id: "vacation-days", type: "number", inputmode: "numeric", min: 1, max: held.days_left, value: days,
      oninput: (event) => (days = event.target.value) });
    action = h("form", { id: "vacation-form", novalidate: true, onsubmit: start },
      h("label", { for: "vacation-days" }, t("vacation.days")), " ", input, " ",
      h("button", { type: "submit", id: "vacation-start" }, t("vacation.start")));
  } else {
    action = h("p", { class: "muted" }, t("vacation.none_left"));
  }
  patch(slot, [h("section", { class: "card", id: "vacation", "data-left": String(held.days_left), "data-on": held.on_vacation ? "1" : "0" },
    h("h2", {}, t("vacation.heading")),
    h("p", { id: "vacation-left" }, t("vacation.left", { left: held.days_left, total: held.days_per_year })),
    h("p", { class: "muted" }, t("vacation.help")),
    action,
    h("p", { id: "vacation-message", class: "notice", role: "status" }, message))]);
}

/** The panel in ``into`` (the account page, signed in). */
export async function vacationPanel(into) {
  slot = into;
  message = "";
  await load();
  draw();
}
