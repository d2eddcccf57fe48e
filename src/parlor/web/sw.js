// Parlor's service worker (registered by js/pwa.js; served as /sw.js so that it covers every page).
// It does two things and nothing more:
// - when the network is gone, a page asked for (the lobby, a table, a replay) is answered by the
//   offline page, in the reader's language, which reloads itself when the network comes back;
// - it shows the turn notifications of an installed app, and a tap on one opens its table.
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

self.addEventListener("notificationclick", (ev) => {
  ev.notification.close();
  const url = (ev.notification.data && ev.notification.data.url) || "/";
  ev.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((list) => {
      const open = list.find((c) => c.url === url && "focus" in c);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
