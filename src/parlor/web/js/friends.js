// Friends (docs/protocol.md, "Friends"): the "Friends" panel of the lobby and the account page
// (#friends-slot): the invitations one has (accept in one tap: the seat is taken and the table opens;
// or decline), the players one follows (online or not, their public tables waiting for players, an
// "Invite" to the table one sits at), the players one blocks; and on a player's page (#follow-slot)
// the Follow and Block buttons. Signed-out visitors see nothing of it. The panel asks again every
// POLL_MS: asking is also what shows one online to one's followers.
import { h } from "./dom.js";
import { patch } from "./patch.js";
import { loadLang, t, tMaybe } from "./i18n.js";
import { answerOf, postJson, session } from "./session.js";

const POLL_MS = 5000;
let me = null;
let data = null; // GET /api/friends
let mine = []; // my tables still waiting for players (where an invitation can go)
let inviteTo = ""; // the table picked for invitations
let message = "";

function words(err) {
  return tMaybe(`friends.err.${err.code}`, err.message);
}

/** Seated by an accepted invitation: the table's page with the seat's own token (as the lobby does). */
function goSeated(answer) {
  localStorage.setItem(`parlor.table.${answer.table_id}`, answer.token);
  location.assign(`/play/${encodeURIComponent(answer.table_id)}#token=${answer.token}`);
}

// A request on its way: the second click of a double click sends nothing (it was refused as
// "already following", "already invited"... and that refusal replaced the first click's answer).
let busy = false;

async function act(path, body, after) {
  if (busy) return;
  busy = true;
  message = "";
  try {
    const answer = await answerOf(await postJson(path, body));
    if (after) after(answer);
  } catch (err) {
    message = words(err);
  }
  await refreshPanel();
  busy = false;
}

function gameName(game) {
  return tMaybe(`game.${game}.title`, game);
}

function invitationRow(inv) {
  return h("li", { class: "friend-invitation", "data-invitation": inv.id },
    h("span", {}, t("friends.invited_you", { name: inv.from, game: gameName(inv.game), n: inv.players })),
    " ",
    h("button", { type: "button", class: "primary friend-accept", onclick: () => act(`/api/tables/${encodeURIComponent(inv.table_id)}/accept-invitation`, { invitation: inv.id }, goSeated) }, t("friends.accept")),
    " ",
    h("button", { type: "button", class: "friend-decline", onclick: () => act(`/api/friends/invitations/${encodeURIComponent(inv.id)}/decline`, {}) }, t("friends.decline")));
}

function tableWords(entry) {
  const free = entry.seats.filter((s) => s.open).length;
  return t("friends.table", { game: gameName(entry.game), n: free });
}

function friendRow(f) {
  const invite = mine.length
    ? h("button", { type: "button", class: "friend-invite", "data-name": f.name,
        onclick: () => act("/api/friends/invitations", { table_id: inviteTo || mine[0].id, name: f.name }, () => { message = t("friends.invitation_sent", { name: f.name }); }) },
      t("friends.invite"))
    : null;
  return h("li", { class: `friend ${f.online ? "online" : "offline"}`, "data-name": f.name },
    h("span", { class: "presence", "aria-hidden": "true" }),
    h("a", { href: `/players/${encodeURIComponent(f.name)}`, class: "friend-name" }, f.name),
    " ",
    h("span", { class: "muted friend-status" }, f.online ? t("friends.online") : t("friends.offline")),
    invite ? [" ", invite] : null,
    f.tables.length
      ? h("ul", { class: "friend-tables" }, f.tables.map((entry) => h("li", { "data-table": entry.id },
        tableWords(entry), " ",
        h("button", { type: "button", class: "friend-sit", onclick: () => act(`/api/tables/${encodeURIComponent(entry.id)}/sit`, {}, goSeated) }, t("friends.sit")))))
      : null);
}

function tablePicker() {
  if (mine.length < 2) return null;
  return h("label", { class: "field friend-table-pick" }, t("friends.invite_to"), " ",
    h("select", { id: "friends-table", onchange: (ev) => { inviteTo = ev.target.value; } },
      mine.map((entry) => h("option", { value: entry.id, selected: entry.id === inviteTo }, tableWords(entry)))));
}

function render() {
  const slot = document.getElementById("friends-slot");
  if (!slot) return;
  if (!me || !data) {
    patch(slot, []);
    return;
  }
  patch(slot, [h("section", { class: "card friends", id: "friends" },
    h("h2", {}, t("friends.heading")),
    h("p", { id: "friends-message", class: "notice", role: "status" }, message),
    data.invitations.length
      ? h("ul", { class: "friend-invitations", id: "friend-invitations" }, data.invitations.map(invitationRow))
      : null,
    tablePicker(),
    data.following.length
      ? h("ul", { class: "friend-list", id: "friend-list" }, data.following.map(friendRow))
      : h("p", { class: "muted" }, t("friends.none")),
    data.blocked.length
      ? h("p", { class: "muted", id: "friends-blocked" }, t("friends.blocked_list"), " ",
        data.blocked.map((name, i) => [i ? ", " : "", h("a", { href: `/players/${encodeURIComponent(name)}` }, name)]))
      : null)]);
}

async function refreshPanel() {
  try {
    data = await answerOf(await fetch("/api/friends"));
    const tables = (await answerOf(await fetch("/api/account/tables"))).tables;
    mine = tables.filter((entry) => entry.seats.some((s) => s.open));
    if (!mine.some((entry) => entry.id === inviteTo)) inviteTo = mine.length ? mine[0].id : "";
  } catch (err) {
    message = words(err);
  }
  render();
}

// ---- a player's page: Follow / Block ----------------------------------------------------------
let relation = null;

function renderButtons(name) {
  const slot = document.getElementById("follow-slot");
  if (!slot) return;
  if (!me || !relation) {
    patch(slot, []);
    return;
  }
  const change = (path) => async () => {
    if (busy) return;
    busy = true;
    message = "";
    try {
      relation = { ...relation, ...(await answerOf(await postJson(path, { name }))) };
    } catch (err) {
      message = words(err);
    }
    busy = false;
    renderButtons(name);
  };
  patch(slot, [h("div", { class: "follow-buttons", id: "follow-buttons" },
    relation.blocking
      ? null
      : h("button", { type: "button", id: "follow", class: relation.following ? "" : "primary",
          onclick: change(relation.following ? "/api/friends/unfollow" : "/api/friends/follow") },
        relation.following ? t("friends.unfollow") : t("friends.follow")),
    " ",
    h("button", { type: "button", id: "block", class: "danger",
      onclick: change(relation.blocking ? "/api/friends/unblock" : "/api/friends/block") },
    relation.blocking ? t("friends.unblock") : t("friends.block")),
    h("p", { id: "follow-message", class: "notice", role: "status" }, message))]);
}

async function playerPage() {
  const name = decodeURIComponent(location.pathname.split("/").pop());
  if (name.toLowerCase() === me.name.toLowerCase()) {
    fetch("/api/friends").catch(() => {}); // one's own page has no buttons, but it counts as being online
    return;
  }
  try {
    relation = await answerOf(await fetch(`/api/friends/relation?name=${encodeURIComponent(name)}`));
  } catch {
    relation = null; // no such player: the page says so
  }
  renderButtons(name);
}

/** The account page signs in and out without a reload: its page's session (session.js, shared with
 * account.js; no request) is looked at again whenever that page redraws. */
function followSignIns() {
  const app = document.getElementById("app");
  if (!app || !document.getElementById("friends-slot")) return;
  new MutationObserver(async () => {
    const now = (await session()).account;
    if ((now && now.name) === (me && me.name)) return;
    me = now;
    data = null;
    message = "";
    if (me) await refreshPanel();
    else render();
  }).observe(app, { childList: true, subtree: true });
}

async function main() {
  await loadLang();
  me = (await session()).account;
  followSignIns();
  // Asking again every few seconds keeps the answers fresh and shows one online to one's followers (a
  // player's page asks for its buttons' relation, which counts as the lobby's panel does).
  setInterval(() => {
    if (!me || document.hidden) return;
    if (document.getElementById("friends-slot")) refreshPanel();
    else if (document.getElementById("follow-slot")) playerPage();
  }, POLL_MS);
  const name = decodeURIComponent(location.pathname.split("/").pop());
  const redraw = () => (document.getElementById("follow-slot") ? renderButtons(name) : render());
  // The page's language picker: what is drawn here follows once the new catalog is in (loadLang sets <html lang>).
  new MutationObserver(redraw).observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
  if (!me) return;
  if (document.getElementById("follow-slot")) await playerPage();
  else await refreshPanel();
}

main().catch(() => {});
