// Parlor as an installable app (a PWA): the manifest (/manifest.webmanifest) names it and its
// icons; the service worker (/sw.js, served from the root so that it covers every page) keeps a
// page that says "offline" for when the network is gone, and shows the turn notifications of an
// app on a phone's home screen (where a page may not make one itself).

/** Registers the service worker, where the browser has them (it needs https or localhost). */
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js").catch(() => {
    /* not allowed here (plain http on another host): the pages work without it */
  });
}
