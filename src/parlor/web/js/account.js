// The account page (/account): sign in or sign up; signed in, the player's name, a new password,
// signing out and deleting the account. Every change carries the page's CSRF token (session.js).
import { h } from "./dom.js";
import { patch } from "./patch.js";
import { languagePicker, loadLang, t, tMaybe } from "./i18n.js";
import { answerOf, postJson, remember, session } from "./session.js";
import { notificationsPanel } from "./notifications.js";
import { draw as drawVacation, vacationPanel } from "./vacation.js";

const app = document.getElementById("app");
let me = null;
let message = ""; // what the last request said (an error, or "done")
let confirmDelete = false;

let busy = false; // a request on its way: a second click (a double click) sends nothing more

async function send(path, body, after) {
  if (busy) return;
  busy = true;
  message = "";
  try {
    const answer = await answerOf(await postJson(path, body));
    if ("csrf" in answer) remember(answer);
    me = answer.account ?? null;
    message = after ? t(after) : "";
    // Sent here to sign in by a page that needs it (/admin): back there, within this site only.
    const next = new URLSearchParams(location.search).get("next");
    if (me && next && /^\/[A-Za-z0-9_\-/]*$/.test(next) && !next.startsWith("//")) {
      location.assign(next);
      return;
    }
  } catch (err) {
    message = tMaybe(`account.err.${err.code}`, err.message, err.params); // the server's own words (English) otherwise
  } finally {
    busy = false;
  }
  confirmDelete = false;
  render();
}

function value(id) {
  return document.getElementById(id).value;
}

function field(id, label, type, autocomplete) {
  return h("div", { class: "field" }, h("label", { for: id }, label),
    h("input", { id, name: id, type, autocomplete, required: true }));
}

function signedOut() {
  const signIn = h("form", { class: "card", id: "sign-in-form", onsubmit: (ev) => { ev.preventDefault();
    send("/api/account/sign-in", { name: value("in-name"), password: value("in-password") }); } },
  h("h2", {}, t("account.sign_in")),
  field("in-name", t("account.name"), "text", "username"),
  field("in-password", t("account.password"), "password", "current-password"),
  h("button", { type: "submit", class: "primary", id: "sign-in" }, t("account.sign_in")));
  const signUp = h("form", { class: "card", id: "sign-up-form", onsubmit: (ev) => { ev.preventDefault();
    send("/api/account/sign-up", { name: value("up-name"), password: value("up-password") }); } },
  h("h2", {}, t("account.sign_up")),
  h("p", { class: "muted" }, t("account.sign_up_help")),
  field("up-name", t("account.name"), "text", "username"),
  field("up-password", t("account.new_password"), "password", "new-password"),
  h("button", { type: "submit", class: "primary", id: "sign-up" }, t("account.sign_up")));
  return [h("p", { class: "muted" }, t("account.guest_help")), signIn, signUp];
}

function signedIn() {
  const password = h("form", { class: "card", id: "password-form", onsubmit: (ev) => { ev.preventDefault();
    send("/api/account/password", { password: value("old-password"), new_password: value("next-password") }, "account.password_changed"); } },
  h("h2", {}, t("account.change_password")),
  field("old-password", t("account.password"), "password", "current-password"),
  field("next-password", t("account.new_password"), "password", "new-password"),
  h("button", { type: "submit", id: "change-password" }, t("account.change_password")));
  const remove = h("form", { class: "card danger", id: "delete-form", onsubmit: (ev) => { ev.preventDefault();
    if (!confirmDelete) { confirmDelete = true; render(); return; }
    send("/api/account/delete", { password: value("delete-password") }, "account.deleted"); } },
  h("h2", {}, t("account.delete")),
  h("p", { class: "muted" }, t("account.delete_help")),
  field("delete-password", t("account.password"), "password", "current-password"),
  h("button", { type: "submit", id: "delete-account" }, confirmDelete ? t("account.delete_confirm") : t("account.delete")));
  return [
    h("p", { id: "signed-in" }, t("account.signed_in_as", { name: me.name }), " · ",
      h("a", { href: `/players/${encodeURIComponent(me.name)}`, id: "profile-link" }, t("account.profile")), " · ",
      h("button", { type: "button", class: "small", id: "sign-out", onclick: () => send("/api/account/sign-out", {}) }, t("account.sign_out"))),
    password,
    remove,
  ];
}

function render() {
  document.title = `Parlor — ${t("account.heading")}`;
  patch(app, [
    h("h1", {}, t("account.heading")),
    h("p", {}, h("a", { href: "/" }, t("account.to_lobby"))),
    h("p", { id: "account-message", class: "notice", role: "status" }, message),
    ...(me ? signedIn() : signedOut()),
  ]);
  // The notifications' panel (#notify-slot, beside #app): shown once signed in, gone when signed out.
  const slot = document.getElementById("notify-slot");
  if (me && !slot.childElementCount) notificationsPanel(slot).catch((err) => { slot.textContent = String(err); });
  if (!me) slot.replaceChildren();
  // The vacation panel (#vacation-slot) likewise; drawn again in the page's language when it changes.
  const away = document.getElementById("vacation-slot");
  if (me && !away.childElementCount) vacationPanel(away).catch((err) => { away.textContent = String(err); });
  else if (me) drawVacation();
  if (!me) away.replaceChildren();
}

async function main() {
  await loadLang();
  document.getElementById("lang-slot").replaceChildren(languagePicker(() => render()));
  me = (await session()).account;
  render();
}

main().catch((err) => {
  app.textContent = String(err);
});
