"""Parlor as an installable app: the manifest and its icons, Chromium's own installability
check, the offline page the service worker shows (in the reader's language, and gone again when the
network is back), and the turn notification an installed app sends through its service worker."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import httpx

from .conftest import Server
from .test_browser import PHONE, Seat

WEB = Path(__file__).resolve().parents[2] / "src" / "parlor" / "web"
WORKER_READY = "navigator.serviceWorker.ready.then(() => Boolean(navigator.serviceWorker.controller) || 'active')"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "not a PNG"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_names_the_app_and_its_icons(server: Server) -> None:
    r = httpx.get(f"{server.base}/manifest.webmanifest", timeout=10)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/manifest+json")
    manifest = r.json()
    assert manifest["name"] and manifest["short_name"] == "Parlor"
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = set()
    for icon in manifest["icons"]:
        data = httpx.get(server.base + icon["src"], timeout=10)
        assert data.status_code == 200 and data.headers["content-type"] == "image/png", icon
        w, h = png_size(data.content)
        assert icon["sizes"] == f"{w}x{h}", (icon, w, h)
        sizes.add((w, icon.get("purpose", "any")))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes
    worker = httpx.get(f"{server.base}/sw.js", timeout=10)
    assert worker.status_code == 200 and "javascript" in worker.headers["content-type"]
    # Every page links the manifest.
    for page in ("index.html", "table.html", "replay.html", "rules.html"):
        assert 'rel="manifest" href="/manifest.webmanifest"' in (WEB / page).read_text(encoding="utf-8"), page


def test_chromium_finds_it_installable(server: Server, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE, service_workers="allow")
    try:
        page = context.new_page()
        page.goto(server.base + "/")
        page.wait_for_selector("button.game-pick")
        page.evaluate(WORKER_READY)
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert not manifest.get("errors"), manifest["errors"]
        assert json.loads(manifest["data"])["short_name"] == "Parlor"
        errors = [e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]]
        # A Playwright context is a private window, where Chromium never offers to install anything.
        assert set(errors) <= {"in-incognito"}, errors
    finally:
        context.close()


def test_offline_a_page_says_so_in_the_readers_language_and_comes_back(server: Server, browser: Any) -> None:
    table = server.create("mamma-mia", 2, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}])
    cs = json.loads((WEB / "i18n" / "cs.json").read_text(encoding="utf-8"))
    context = browser.new_context(viewport=PHONE, service_workers="allow")
    context.add_init_script("localStorage.setItem('parlor.lang', 'cs')")
    try:
        page = context.new_page()
        page.goto(server.base + "/")
        page.wait_for_selector("button.game-pick")
        page.evaluate(WORKER_READY)
        context.set_offline(True)
        page.goto(server.url(table["spectator_path"]))
        page.wait_for_selector("body[data-offline='1'][data-ready='1']")
        assert page.locator("#offline-title").inner_text() == cs["offline.title"]
        assert page.locator("#offline-text").inner_text() == cs["offline.text"]
        assert page.locator("#offline-retry").inner_text() == cs["offline.retry"]
        # Back online: the page asked for comes by itself.
        context.set_offline(False)
        page.wait_for_selector("body.play-page[data-version]")
        assert page.evaluate("document.body.dataset.role") == "spectator"
    finally:
        context.close()


# Your tab is in the background (document.hidden) and notifications are allowed: the page asks the
# service worker to show one; the test notes what it was asked.
HIDDEN_AND_WATCHED = """(() => {
  Object.defineProperty(Document.prototype, "hidden", { get: () => true, configurable: true });
  Object.defineProperty(Document.prototype, "visibilityState", { get: () => "hidden", configurable: true });
  window.__shown = [];
  const show = ServiceWorkerRegistration.prototype.showNotification;
  ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
    window.__shown.push({ title, tag: options && options.tag, url: options && options.data && options.data.url });
    return show.call(this, title, options);
  };
})();"""


def test_your_turn_is_notified_through_the_service_worker(server: Server, browser: Any) -> None:
    table = server.create("mamma-mia", 2, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}])
    url = server.url(table["seats"][0]["join_path"])
    seat = Seat(browser, url, viewport=PHONE, init_script=HIDDEN_AND_WATCHED, service_workers="allow")
    try:
        seat.context.grant_permissions(["notifications"], origin=server.base)
        seat.page.evaluate(WORKER_READY)
        # With the worker in charge, the next turn of this seat is notified through it.
        seat.page.reload()
        seat.page.wait_for_selector("body[data-version]")
        seat.page.wait_for_function("window.__shown.length > 0", timeout=30000)
        shown = seat.page.evaluate("window.__shown")
        assert shown[0]["title"] == "Your move", shown
        assert shown[0]["tag"] == f"parlor-{table['table']['id']}" and "/play/" in shown[0]["url"], shown
        assert not seat.errors, seat.errors
    finally:
        seat.close()
