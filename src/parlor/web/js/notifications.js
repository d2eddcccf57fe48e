// A signed-in player's notifications (server/notify; docs/protocol.md, "Notifications"): the unread
// count beside the account link of the lobby's header, and on the account page the list (newest
// first, marked read there), the e-mail address, the kinds switched off (no e-mail, no push; the
// list keeps them all) and this browser's Web Push subscription through the service worker.
import { h } from "./dom.js";
import { patch } from "./patch.js";
import { currentLang, t, tMaybe } from "./i18n.js";
import { registerServiceWorker } from "./pwa.js";
import { answerOf, postJson } from "./session.js";

/** The unread count (0 for a guest or when the server cannot say). */
export async function unreadCount() {
  try {
    const res = await fetch(`/api/account/notifications?lang=${encodeURIComponent(currentLang())}`);
    return res.ok ? (await res.json()).unread : 0;
  } catch {
    return 0;
  }
}

/** A badge that shows the unread count, kept up to date every ``every`` ms. */
export function unreadBadge(every = 30000) {
  const badge = h("span", { id: "notify-count", class: "badge", "aria-label": t("notify.unread") });
  const draw = async () => {
    const n = await unreadCount();
    badge.textContent = n ? String(n) : "";
    badge.hidden = !n;
  };
  draw();
  setInterval(draw, every);
  return badge;
}

function b64ToBytes(text) {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/** A notification's table page: the account's own seat (#seat: opened from the session, on any
 * device), but for an invitation, whose reader has no seat there yet. */
function tableLink(n) {
  return `/play/${encodeURIComponent(n.table_id)}${n.kind === "invitation" ? "" : "#seat"}`;
}

/** The account page's panel in ``slot``. */
export async function notificationsPanel(slot) {
  let list = { notifications: [], unread: 0 };
  let prefs = null;
  let message = "";
  let pushOn = false;
  registerServiceWorker(); // (the push subscription is the service worker's)

  async function load() {
    list = await answerOf(await fetch(`/api/account/notifications?lang=${encodeURIComponent(currentLang())}`));
    prefs = await answerOf(await fetch("/api/account/notify-settings"));
    const reg = "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistration() : null;
    pushOn = Boolean(reg && reg.pushManager && (await reg.pushManager.getSubscription()));
  }

  async function send(path, body, done) {
    try {
      await answerOf(await postJson(path, body));
      message = done ? t(done) : "";
      await load();
    } catch (err) {
      message = tMaybe(`notify.err.${err.code}`, err.message);
    }
    draw();
  }

  async function togglePush() {
    try {
      const reg = await navigator.serviceWorker.ready;
      const current = await reg.pushManager.getSubscription();
      if (current) {
        await send("/api/account/push", { unsubscribe: current.endpoint });
        await current.unsubscribe();
      } else {
        if ((await Notification.requestPermission()) !== "granted") throw new Error(t("notify.push_denied"));
        const sub = await reg.pushManager.subscribe({
          userVisibleOnly: true, applicationServerKey: b64ToBytes(prefs.vapid_public_key) });
        await send("/api/account/push", { subscription: sub.toJSON() }, "notify.push_enabled");
      }
    } catch (err) {
      message = err.message;
    }
    await load();
    draw();
  }

  function draw() {
    const off = new Set(prefs ? prefs.kinds_off : []);
    const kinds = (prefs ? prefs.kinds : []).map((kind) => h("label", { class: "kind" },
      h("input", { type: "checkbox", name: `kind-${kind}`, checked: !off.has(kind), onchange: (ev) => {
        const next = new Set(off);
        if (ev.target.checked) next.delete(kind); else next.add(kind);
        send("/api/account/notify-settings", { kinds_off: [...next] }, "notify.saved");
      } }), " ", t(`notify.kind.${kind}`)));
    const email = h("form", { id: "notify-email-form", onsubmit: async (ev) => { ev.preventDefault();
      // (one request per click: the button stays disabled until the answer is drawn)
      ev.target.querySelector("button[type=submit]").disabled = true;
      await send("/api/account/notify-settings", { email: document.getElementById("notify-email").value,
        language: currentLang() }, "notify.email_sent"); } },
    h("label", { for: "notify-email" }, t("notify.email")), " ",
    h("input", { id: "notify-email", type: "email", autocomplete: "email", value: (prefs && prefs.email) || "" }), " ",
    h("button", { type: "submit" }, t("notify.save")),
    prefs && prefs.email ? h("span", { class: "muted" }, " ", t(prefs.email_verified ? "notify.verified" : "notify.unverified")) : null);
    const items = list.notifications.map((n) => h("li", { class: n.read ? "read" : "unread", "data-kind": n.kind },
      h("strong", {}, n.title), " ", n.table_id ? h("a", { href: tableLink(n) }, n.text) : n.text,
      " ", h("time", { class: "muted", datetime: n.created_at }, new Date(n.created_at).toLocaleString(currentLang()))));
    patch(slot, [h("section", { class: "card", id: "notifications" },
      h("h2", {}, t("notify.heading"), list.unread ? h("span", { class: "badge" }, ` ${list.unread}`) : null),
      h("p", { id: "notify-message", class: "notice", role: "status" }, message),
      items.length ? h("ul", { id: "notify-list" }, items) : h("p", { class: "muted" }, t("notify.none")),
      list.unread ? h("button", { type: "button", id: "notify-read", onclick: () => send("/api/account/notifications/read", {}) },
        t("notify.mark_read")) : null,
      h("h3", {}, t("notify.settings")),
      prefs && prefs.email_enabled ? email : null,
      h("div", { class: "kinds" }, kinds),
      "serviceWorker" in navigator && "PushManager" in window
        ? h("button", { type: "button", id: "notify-push", onclick: togglePush }, t(pushOn ? "notify.push_off" : "notify.push_on"))
        : null)]);
  }

  await load();
  draw();
}
