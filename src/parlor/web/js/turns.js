// "Your turn" (docs/protocol.md, "Turn-based tables"): at the top of the lobby and the account page
// (#turns-slot), the turn-based tables where the signed-in player must decide, the longest waiting
// first, each one tap from its table; their count in the page's title ("(2) Parlor") and on the
// installed app's badge (navigator.setAppBadge, where the browser has it). Asked again every POLL_MS
// and whenever the page comes back into view. Signed-out visitors see nothing of it.
import { h } from "./dom.js";
import { patch } from "./patch.js";
import { loadLang, t, tMaybe } from "./i18n.js";
import { session } from "./session.js";
import { deadlineText } from "./clock.js";

const POLL_MS = 30000;
const COUNTED = /^\(\d+\) /;
let count = 0;

/** The page's own title with the count of waiting decisions before it (none: the title alone). */
function countTitle() {
  const bare = document.title.replace(COUNTED, "");
  const want = count ? `(${count}) ${bare}` : bare;
  if (document.title !== want) document.title = want;
}

function badge() {
  try {
    if (count && navigator.setAppBadge) navigator.setAppBadge(count).catch(() => {});
    else if (!count && navigator.clearAppBadge) navigator.clearAppBadge().catch(() => {});
  } catch {
    // (no badge on this browser)
  }
}

function opponents(entry) {
  return entry.opponents
    .map((o) => o.name || (o.kind === "bot" ? t("seat.bot_short") : tMaybe("turns.somebody", "?")))
    .join(t("ui.list_sep"));
}

function row(entry) {
  const game = tMaybe(`game.${entry.game}.title`, entry.game);
  return h(
    "li",
    { class: "your-turn", "data-table": entry.table_id },
    h(
      "a",
      { class: "your-turn-link", href: `/play/${encodeURIComponent(entry.table_id)}#seat` },
      h("strong", {}, game),
      " ",
      h("span", { class: "muted" }, t("turns.against", { names: opponents(entry) })),
      " · ",
      h("span", { class: "turn-deadline" }, t("turns.deadline", { when: deadlineText(new Date(entry.deadline)) })),
    ),
  );
}

async function refresh(slot) {
  let answer = null;
  try {
    const res = await fetch("/api/account/turns");
    answer = res.ok ? await res.json() : null;
  } catch {
    answer = null;
  }
  if (!answer) return;
  count = answer.turns.length;
  document.body.dataset.turns = String(count); // (read by the tests: the list was asked for)
  countTitle();
  badge();
  patch(slot, count
    ? [h("section", { class: "card your-turns", id: "your-turns" },
        h("h2", {}, t("turns.heading")),
        h("ul", { class: "open-list" }, answer.turns.map(row)))]
    : []);
}

async function main() {
  const slot = document.getElementById("turns-slot");
  if (!slot) return;
  await loadLang();
  if (!(await session()).account) return;
  // The pages set their own title as they draw: the count goes back before it each time.
  new MutationObserver(countTitle).observe(document.querySelector("title"), { childList: true, characterData: true, subtree: true });
  await refresh(slot);
  setInterval(() => refresh(slot), POLL_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh(slot);
  });
}

main();
