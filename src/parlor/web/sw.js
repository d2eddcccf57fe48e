// Parlor's service worker (registered by js/pwa.js; served as /sw.js so that it covers every page).
// It does two things and nothing more:
// - when the network is gone, a page asked for (the lobby, a table, a replay) is answered by the
//   offline page, in the reader's language, which reloads itself when the network comes back;
// - it shows the turn notifications of an installed app and the site's Web Push messages (your
//   turn, a game over, an invitation: server/notify), and a tap on one focuses or opens its table.
// Everything else goes to the server as if it were not there: the game needs the server anyway,
// and nothing cached can go stale.
const CACHE = "parlor-offline-v1";
const OFFLINE = "/static/offline.html";
// The offline page and what it needs, cached when the worker is installed.
const SHELL = [
  OFFLINE,
  "/static/style.css",
  "/static/js/offline.js",
  "/static/js/i18n.js",
  "/static/i18n/en.json",
  "/static/i18n/zh-Hant.json",
  "/static/i18n/ja.json",
  "/static/i18n/cs.json",
  "/static/icons/icon-192.png",
];

self.addEventListener("install", (ev) => {
  ev.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (ev) => {
  ev.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (ev) => {
  const req = ev.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  if (req.mode === "navigate") {
    ev.respondWith(fetch(req).catch(() => caches.match(OFFLINE)));
    return;
  }
  if (SHELL.includes(new URL(req.url).pathname)) ev.respondWith(fetch(req).catch(() => caches.match(req)));
});

// A Web Push message: {title, body, url, kind, tag}, already in the reader's language (the server
// words it). It never holds a card: the server sends only what every reader may know.
self.addEventListener("push", (ev) => {
  let msg = {};
  try {
    msg = ev.data ? ev.data.json() : {};
  } catch (_) {
    msg = { title: "Parlor", body: ev.data ? ev.data.text() : "" };
  }
  ev.waitUntil(
    self.registration.showNotification(msg.title || "Parlor", {
      body: msg.body || "",
      tag: msg.tag || undefined,
      icon: "/static/icons/icon-192.png",
      data: { url: msg.url || "/" },
    }),
  );
});

self.addEventListener("notificationclick", (ev) => {
  ev.notification.close();
  // (the same page whatever address the link was made with: the site's public one or this one)
  const target = new URL((ev.notification.data && ev.notification.data.url) || "/", self.location.origin);
  const url = self.location.origin + target.pathname + target.search + target.hash;
  ev.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((list) => {
      const open = list.find((c) => new URL(c.url).pathname === target.pathname && "focus" in c);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
