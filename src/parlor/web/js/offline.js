// The page the service worker (sw.js) shows instead of a page the network could not bring: it says
// so in the reader's language and comes back to the page asked for when the network does.
import { loadLang, t } from "./i18n.js";

// Back when the server answers again: asked when the browser says it is online, and every few
// seconds anyway (a browser may say so before its network works, or never say it).
const POLL_MS = 4000;
let next = null; // the next try

async function back() {
  clearTimeout(next);
  try {
    const res = await fetch("/api/health", { cache: "no-store" });
    if (res.ok) {
      location.reload();
      return;
    }
  } catch {
    /* still offline */
  }
  next = setTimeout(back, POLL_MS);
}

async function main() {
  document.body.dataset.offline = "1";
  const retry = document.getElementById("offline-retry");
  retry.addEventListener("click", () => location.reload());
  window.addEventListener("online", () => back());
  next = setTimeout(back, POLL_MS);
  try {
    await loadLang();
  } catch {
    return; // the catalogs were not kept: the English words of the page stay
  }
  document.title = `${t("offline.title")} — Parlor`;
  document.getElementById("offline-title").textContent = t("offline.title");
  document.getElementById("offline-text").textContent = t("offline.text");
  retry.textContent = t("offline.retry");
  document.body.dataset.ready = "1";
}

main();
