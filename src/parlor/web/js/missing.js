// The page a browser gets instead of the API's JSON error when it opens an address that is no page
// (a mistyped link: 404) or one it may not see (a player opening /admin: 403), in the reader's language.
import { loadLang, tMaybe } from "./i18n.js";

async function main() {
  const code = document.body.dataset.code === "not_admin" ? "not_admin" : "not_found";
  try {
    await loadLang();
  } catch {
    return; // the catalogs did not come: the server's English words stay
  }
  const title = document.getElementById("missing-title");
  const text = document.getElementById("missing-text");
  title.textContent = tMaybe(`missing.${code}.title`, title.textContent);
  text.textContent = tMaybe(`missing.${code}.text`, text.textContent);
  document.getElementById("missing-lobby").textContent = tMaybe("missing.lobby", "Back to the lobby");
  document.title = `${title.textContent} — Parlor`;
  document.body.dataset.ready = "1";
}

main();
