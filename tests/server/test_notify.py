"""Notifications through a real server, on SQLite and PostgreSQL, with a real SMTP server (aiosmtpd)
and a real push endpoint (an HTTP server of the test's own that receives pywebpush's POSTs and
decrypts them with the subscription's private key): the in-app list, e-mail (verification link,
the reader's language, RFC 8058 unsubscribe), Web Push (aes128gcm, VAPID), bounded retries of a
failing endpoint, the triggers (an invitation, "your turn" to a seat with no connection, a game
over), that no message holds a card, and every refusal changing nothing."""

from __future__ import annotations

import base64
import email
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from email.policy import default as default_policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import http_ece
import httpx
import pytest
from aiosmtpd.controller import Controller
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from parlor.games.mamma_mia.data import ORDERS, TOPPING_NAMES
from parlor.server.limits import Limits
from parlor.server.notify import MailSettings, NotifyConfig
from parlor.server.notify.messages import LANGUAGES, worded

from .conftest import BACKENDS, Client, ServerThread, free_port, make_url
from .test_accounts import GENEROUS, Browser, signed_up

LIMITS = Limits(min_turn_time=0.1, max_held_seats_per_account=50, max_held_seats_per_address=500)
SITE_URL = "http://parlor.test"  # the links' address (the test follows their paths on the real server)


def wait_for(what: str, check: Callable[[], Any], timeout: float = 60.0) -> Any:
    """Poll ``check`` until it answers something true (the event the test needs), with a generous deadline."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise TimeoutError(f"still waiting for {what}")
        time.sleep(0.02)


class MailSink:
    """A real SMTP server on loopback that keeps every message it is handed."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.refuse: set[str] = set()  # addresses whose mail is refused for now (a mail server in trouble)
        self.refused: list[str] = []
        self.controller = Controller(self, hostname="127.0.0.1", port=free_port())

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if set(envelope.rcpt_tos) & self.refuse:
            self.refused += envelope.rcpt_tos
            return "451 4.3.0 try again later"
        self.messages.append(email.message_from_bytes(envelope.content, policy=default_policy))  # type: ignore[arg-type]
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in list(self.messages) if m["To"] == address]


class PushEndpoint:
    """A push service's endpoint on loopback: keeps each POST (path, headers, body); a path under
    ``/fail/`` answers 500 (a push service down)."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, dict[str, str], bytes]] = []
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                sink.posts.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(500 if self.path.startswith("/fail/") else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def to(self, path: str) -> list[tuple[str, dict[str, str], bytes]]:
        return [p for p in list(self.posts) if p[0] == path]


class Sinks:
    """The local mail server and push endpoint, running while the ``with`` block is."""

    def __init__(self) -> None:
        self.mail = MailSink()
        self.push = PushEndpoint()

    def __enter__(self) -> Sinks:
        self.mail.controller.start()
        self.push.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.mail.controller.stop()
        self.push.server.shutdown()

    def config(self) -> NotifyConfig:
        """A site's notification settings that mail and push to these sinks."""
        return NotifyConfig(
            site_url=SITE_URL,
            smtp=MailSettings("127.0.0.1", self.mail.controller.port, sender="parlor@parlor.test"),
            push_http=True,  # (the test's endpoint is plain http on loopback)
            retry_after=0.05,
        )


@pytest.fixture(scope="module")
def sinks() -> Iterator[Sinks]:
    with Sinks() as s:
        yield s


@pytest.fixture(scope="module", params=BACKENDS)
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, sinks: Sinks
) -> Iterator[ServerThread]:
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    config = sinks.config()
    with ServerThread(url, seat_timeout=None, account_limits=GENEROUS, limits=LIMITS, notify_config=config) as s:
        yield s


# ---------------------------------------------------------------------------- helpers
def ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code < 300, r.text
    return r.json()


def refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text


def notes(b: Browser, lang: str | None = None) -> dict[str, Any]:
    return ok(b.http.get("/api/account/notifications", params={"lang": lang} if lang else {}))


def settings(b: Browser) -> dict[str, Any]:
    return ok(b.http.get("/api/account/notify-settings"))


def local(link: str, site: ServerThread) -> str:
    """A mailed link (made with the site's public address) on the test's server."""
    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}" == SITE_URL, link
    return f"{site.base}{parts.path}?{parts.query}"


def link_in(text: str, path: str) -> str:
    return next(w for w in text.split() if f"{SITE_URL}{path}" in w)


def verified(b: Browser, site: ServerThread, sinks: Sinks, address: str, language: str = "en") -> None:
    """``b`` sets ``address`` (and its language) and follows the verification link mailed to it."""
    ok(b.post("/api/account/notify-settings", {"email": address, "language": language}))
    (mail,) = wait_for("the verification mail", lambda: sinks.mail.to(address))
    assert mail["Content-Language"] == language
    page = httpx.get(local(link_in(mail.get_content(), "/notify/verify"), site), timeout=60)
    assert page.status_code == 200, page.text
    assert settings(b)["email_verified"] is True


def invited(site: ServerThread, name: str) -> tuple[Browser, str]:
    """A new player follows ``name`` and invites them to a table where it sits; (it, the table's id)."""
    host, _ = signed_up(site.base)
    ok(host.post("/api/friends/follow", {"name": name}))
    created = ok(host.post("/api/tables", {"game": "mamma-mia", "players": 2, "seats": [{"kind": "human"}] * 2}))
    table_id = created["table"]["id"]
    ok(host.post(f"/api/tables/{table_id}/claim", {"claim": created["seats"][0]["claim"]}))
    ok(host.post("/api/friends/invitations", {"table_id": table_id, "name": name}))
    return host, table_id


def push_subscription(endpoint: str) -> tuple[dict[str, Any], ec.EllipticCurvePrivateKey, bytes]:
    """A browser's subscription (``PushSubscription.toJSON()``) with its private key and auth secret."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    auth = secrets.token_bytes(16)

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    return {"endpoint": endpoint, "keys": {"p256dh": b64(public), "auth": b64(auth)}}, key, auth


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# ---------------------------------------------------------------------------- tests
def test_settings_refuse_bad_input_and_change_nothing(site: ServerThread) -> None:
    ann, _ = signed_up(site.base)
    ann.who()
    refused(httpx.get(f"{site.base}/api/account/notifications", timeout=60), 401, "not_signed_in")
    before = settings(ann)
    for body, code in [
        ({"email": "not an address"}, "bad_email"),
        ({"email": "ann@"}, "bad_email"),
        ({"email": "a@b@example.org"}, "bad_email"),
        ({"email": "ann@example.org", "kinds_off": ["your_turn", "weather"]}, "unknown_kind"),
        ({"kinds_off": "game_over"}, "bad_request"),
        ({"language": "tlh"}, "bad_request"),
    ]:
        refused(ann.post("/api/account/notify-settings", body), 400, code)
    assert settings(ann) == before  # (the good address sent with a bad kind was not stored either)
    sub, _, _ = push_subscription("https://push.example.org/x")
    refused(ann.post("/api/account/push", {"subscription": {"endpoint": sub["endpoint"]}}), 400, "bad_subscription")
    refused(ann.post("/api/account/push", {"subscription": {**sub, "keys": {"p256dh": "AAAA", "auth": "x"}}}), 400,
            "bad_subscription")  # fmt: skip
    refused(ann.post("/api/account/push", {"subscription": {**sub, "endpoint": "ftp://push.example.org/x"}}), 400,
            "bad_subscription")  # fmt: skip
    refused(ann.post("/api/account/notifications/read", {"ids": "all"}), 400, "bad_request")
    bad = httpx.get(f"{site.base}/notify/unsubscribe", params={"token": "forged.token"}, timeout=60)
    assert bad.status_code == 400
    bad = httpx.post(f"{site.base}/notify/unsubscribe", params={"token": "forged.token"}, timeout=60)
    assert bad.status_code == 400
    assert settings(ann) == before


def test_an_invitation_is_listed_mailed_in_the_readers_language_and_unsubscribed_in_one_click(
    site: ServerThread, sinks: Sinks
) -> None:
    ann, ann_name = signed_up(site.base)
    address = f"ann-{secrets.token_hex(4)}@example.org"
    verified(ann, site, sinks, address, "cs")
    host, table_id = invited(site, ann_name)
    listed = wait_for("the invitation in the list", lambda: notes(ann)["unread"] == 1 and notes(ann))
    (note,) = listed["notifications"]
    assert (note["kind"], note["table_id"], note["read"]) == ("invitation", table_id, False)
    assert note["text"] == worded("invitation", note["params"], "cs")[1] and host.who()["name"] in note["text"]
    (mail,) = wait_for("the invitation's mail", lambda: [m for m in sinks.mail.to(address) if "Pozv" in m["Subject"]])
    assert mail["Content-Language"] == "cs"
    body = mail.get_content()
    assert "vás zve ke stolu hry Mamma Mia!" in body and f"{SITE_URL}/play/{table_id}" in body
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe = mail["List-Unsubscribe"].strip("<>")
    assert unsubscribe == link_in(body, "/notify/unsubscribe")
    # Opening the link (a mail scanner does) changes nothing; its button, as a mail client's one click, does.
    page = httpx.get(local(unsubscribe, site), timeout=60)
    assert page.status_code == 200 and '<form method="post"' in page.text and "Zastavit" in page.text
    # The kind is named in the reader's words (as the account page names it), not by its key.
    assert "(Pozvánky)" in page.text and "(invitation)" not in page.text, page.text
    assert "(Pozvánky)" in body and "(invitation)" not in body, body
    assert '<link rel="icon"' in page.text  # (the browser asks for no /favicon.ico, which is not there)
    assert settings(ann)["kinds_off"] == []
    r = httpx.post(local(unsubscribe, site), data={"List-Unsubscribe": "One-Click"}, timeout=60)  # no cookie at all
    assert r.status_code == 200 and 'lang="cs"' in r.text, r.text
    assert settings(ann)["kinds_off"] == ["invitation"]
    # Switched off: the next invitation is listed but not mailed; one after switching it on again is.
    _, second = invited(site, ann_name)
    wait_for("the second invitation in the list", lambda: notes(ann)["unread"] == 2)
    ok(ann.post("/api/account/notify-settings", {"kinds_off": []}))
    _, third = invited(site, ann_name)
    wait_for("the third invitation's mail", lambda: any(third in m.get_content() for m in sinks.mail.to(address)))
    assert not any(second in m.get_content() for m in sinks.mail.to(address))
    newest = notes(ann, "ja")["notifications"]
    assert [n["table_id"] for n in newest] == [third, second, table_id]  # newest first
    # The list is worded for the page that asks (Japanese), though her e-mails are in Czech.
    assert newest[0]["title"] == "招待" and "さんが" in newest[0]["text"], newest[0]
    # Marked read: one, then all.
    assert ok(ann.post("/api/account/notifications/read", {"ids": [newest[0]["id"]]}))["marked"] == 1
    assert notes(ann)["unread"] == 2
    assert ok(ann.post("/api/account/notifications/read", {}))["marked"] == 2
    assert notes(ann)["unread"] == 0


def test_a_push_is_encrypted_for_the_subscription_and_signed_with_the_sites_vapid_key(
    site: ServerThread, sinks: Sinks
) -> None:
    ann, ann_name = signed_up(site.base)
    ok(ann.post("/api/account/notify-settings", {"language": "ja"}))
    path = f"/push/{secrets.token_hex(6)}"
    sub, key, auth = push_subscription(sinks.push.base + path)
    assert ok(ann.post("/api/account/push", {"subscription": sub})) == {"subscribed": True}
    _, table_id = invited(site, ann_name)
    ((_, headers, body),) = wait_for("the push", lambda: sinks.push.to(path))
    assert headers["content-encoding"] == "aes128gcm"
    scheme, _, params = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(p.strip().split("=", 1) for p in params.split(","))
    assert fields["k"] == settings(ann)["vapid_public_key"]
    # The VAPID JWT: for this endpoint's origin, signed (ES256) by the key the site hands its pages.
    head, claims, signature = fields["t"].split(".")
    assert json.loads(unb64(claims))["aud"] == sinks.push.base
    raw = unb64(signature)
    vapid = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(fields["k"]))
    vapid.verify(encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:])),
                 f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # fmt: skip
    payload = json.loads(http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm"))
    assert payload["kind"] == "invitation" and payload["url"] == f"{SITE_URL}/play/{table_id}"
    assert payload["title"] == "招待" and "マンマミーア" in payload["body"]
    # Unsubscribed: forgotten (another browser's endpoint is not the account's to drop).
    assert ok(ann.post("/api/account/push", {"unsubscribe": sub["endpoint"]})) == {"unsubscribed": True}
    assert ok(ann.post("/api/account/push", {"unsubscribe": sub["endpoint"]})) == {"unsubscribed": False}


def test_a_failing_push_endpoint_is_tried_a_bounded_number_of_times_and_logged_once(
    site: ServerThread, sinks: Sinks, caplog: pytest.LogCaptureFixture
) -> None:
    ann, ann_name = signed_up(site.base)
    path = f"/fail/{secrets.token_hex(6)}"
    sub, _, _ = push_subscription(sinks.push.base + path)
    ok(ann.post("/api/account/push", {"subscription": sub}))
    notifier = site.app.state.notifier
    with caplog.at_level(logging.WARNING, logger="parlor.server"):
        invited(site, ann_name)
        wait_for("the tries", lambda: len(sinks.push.to(path)) == notifier.config.attempts)
        wait_for("the sending to end", lambda: not notifier._tasks)
    assert len(sinks.push.to(path)) == notifier.config.attempts  # and no more
    assert len([r for r in caplog.records if "push to" in r.getMessage()]) == 1


def card_names() -> set[str]:
    """Every card's name the game has, in every language (a superset of those a seat cannot see)."""
    names = {n for names in TOPPING_NAMES.values() for n in names.values()}
    names |= {o.name for o in ORDERS} | {o.name.replace("_", " ") for o in ORDERS}
    return {n.lower() for n in names}


def test_your_turn_to_a_seat_with_no_connection_and_game_over_to_every_account_and_no_card_in_any(
    site: ServerThread, sinks: Sinks
) -> None:
    ann, ann_name = signed_up(site.base)
    bob, bob_name = signed_up(site.base)
    bob_address = f"bob-{secrets.token_hex(4)}@example.org"
    verified(bob, site, sinks, bob_address)
    path = f"/push/{secrets.token_hex(6)}"
    sub, key, auth = push_subscription(sinks.push.base + path)
    ok(bob.post("/api/account/push", {"subscription": sub}))
    created = ok(ann.post("/api/tables", {"game": "mamma-mia", "players": 2, "seats": [{"kind": "human"}] * 2}))
    table_id = created["table"]["id"]
    ann_token = ok(ann.post(f"/api/tables/{table_id}/claim", {"claim": created["seats"][0]["claim"]}))["token"]

    def bobs_turns() -> int:
        return sum(n["kind"] == "your_turn" for n in notes(bob)["notifications"])

    def bob_gone() -> bool:
        seats = httpx.get(f"{site.base}/api/tables/{table_id}", timeout=60).json()["seats"]
        return not seats[1]["connected"]

    told = 0
    with Client(site.base, table_id, ann_token) as annc:  # (Ann opens the table before Bob sits: never away)
        bob_token = ok(bob.post(f"/api/tables/{table_id}/claim", {"claim": created["seats"][1]["claim"]}))["token"]
        while True:
            annc.drain()
            st = annc.state
            assert st is not None
            if st["over"]:
                break
            if st["your_turn"]:
                annc.act(st["legal"][0]["id"])
                continue
            # Bob's turn, and Bob has no connection to the table: he is told, then opens it and plays.
            told = wait_for("Bob's your-turn notification", lambda t=told: bobs_turns() > t and bobs_turns())
            with Client(site.base, table_id, bob_token) as bobc:
                while True:
                    mine = bobc.wait_turn_or_over()
                    if mine["over"]:
                        break
                    reply = bobc.act(mine["legal"][0]["id"])
                    assert reply["type"] == "ack", reply
                    if not bobc.state["your_turn"]:
                        break
            wait_for("Bob's connection to close", bob_gone)
            annc.wait_turn_or_over()
    assert told >= 2

    def game_over(b: Browser) -> list[dict[str, Any]]:
        return [n for n in notes(b)["notifications"] if n["kind"] == "game_over"]

    over = {who: wait_for(f"{who}'s game over", lambda b=b: game_over(b)) for who, b in (("ann", ann), ("bob", bob))}
    assert all(n[0]["table_id"] == table_id for n in over.values())
    # Worded in the reader's language (Ann chose none: her page's), the game named as her pages name it.
    (ann_over,) = [n for n in notes(ann, "ja")["notifications"] if n["kind"] == "game_over"]
    assert "マンマミーア" in ann_over["text"] and "Mamma Mia" not in ann_over["text"], ann_over["text"]
    assert not any(n["kind"] == "your_turn" for n in notes(ann)["notifications"])  # Ann never left the table
    wait_for("Bob's game-over mail", lambda: [m for m in sinks.mail.to(bob_address) if "Game over" in m["Subject"]])
    wait_for("Bob's game-over push", lambda: len(sinks.push.to(path)) == told + 1)
    # No message holds a card: the in-app list in every language, the mails and the pushes.
    texts = [bob_name, ann_name]
    for b in (ann, bob):
        for lang in LANGUAGES:
            for n in notes(b, lang)["notifications"]:
                texts += [n["title"], n["text"], json.dumps(n["params"], ensure_ascii=False)]
    texts += [m.get_content() + str(m["Subject"]) for m in sinks.mail.to(bob_address)]
    texts += [http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm").decode()
              for _, _, body in sinks.push.to(path)]  # fmt: skip
    assert len(texts) > 10
    found = [(name, t) for t in texts[2:] for name in card_names() if name in t.lower()]
    assert not found, found


def test_settings_changed_at_once_all_hold(site: ServerThread, sinks: Sinks) -> None:
    """Two one-click unsubscribes of different kinds at once (the account has no settings yet) both
    switch their kind off; one browser subscribing from eight requests at once keeps one subscription
    (a notification then reaches it once)."""
    ann, ann_name = signed_up(site.base)
    ann.who()
    notifier = site.app.state.notifier
    tokens = [notifier.unsubscribe_token(_account_id(site, ann_name), k) for k in ("your_turn", "game_over")]
    barrier = threading.Barrier(len(tokens))
    answers: list[int] = []

    def one_click(token: str) -> None:
        barrier.wait()
        r = httpx.post(f"{site.base}/notify/unsubscribe", params={"token": token},
                       data={"List-Unsubscribe": "One-Click"}, timeout=60)  # fmt: skip
        answers.append(r.status_code)

    threads = [threading.Thread(target=one_click, args=(t,)) for t in tokens]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [200, 200]
    assert settings(ann)["kinds_off"] == ["game_over", "your_turn"]

    path = f"/push/{secrets.token_hex(6)}"
    sub, _, _ = push_subscription(sinks.push.base + path)
    barrier = threading.Barrier(8)
    codes: list[int] = []
    cookies = dict(ann.http.cookies)

    def subscribe() -> None:
        with httpx.Client(base_url=site.base, cookies=cookies, timeout=60) as http:
            barrier.wait()
            codes.append(http.post("/api/account/push", json={"subscription": sub},
                                   headers={"X-CSRF-Token": ann.csrf}).status_code)  # fmt: skip

    threads = [threading.Thread(target=subscribe) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert codes == [200] * 8
    handled = notifier.handled
    invited(site, ann_name)
    invited(site, ann_name)
    wait_for("both invitations handled", lambda: notifier.handled >= handled + 2 and not notifier._tasks)
    assert len(sinks.push.to(path)) == 2  # one each


def _account_id(site: ServerThread, name: str) -> str:
    import sqlalchemy as sa

    engine = sa.create_engine(site.database_url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.connect() as conn:
        found = conn.execute(sa.text("SELECT id FROM parlor_accounts WHERE name = :n"), {"n": name}).scalar_one()
    engine.dispose()
    return str(found)


def test_a_deleted_account_leaves_no_address_subscription_or_notification(site: ServerThread, sinks: Sinks) -> None:
    ann, ann_name = signed_up(site.base)
    address = f"gone-{secrets.token_hex(4)}@example.org"
    verified(ann, site, sinks, address)
    sub, _, _ = push_subscription(f"{sinks.push.base}/push/{secrets.token_hex(6)}")
    ok(ann.post("/api/account/push", {"subscription": sub}))
    invited(site, ann_name)
    wait_for("the invitation in the list", lambda: notes(ann)["unread"] == 1)
    account_id = _account_id(site, ann_name)
    ok(ann.post("/api/account/delete", {"password": "correct horse"}))
    import sqlalchemy as sa

    engine = sa.create_engine(site.database_url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.connect() as conn:
        left = {
            t: conn.execute(sa.text(f"SELECT count(*) FROM {t} WHERE account_id = :a"), {"a": account_id}).scalar_one()
            for t in ("parlor_notifications", "parlor_notify_settings", "parlor_push_subscriptions")
        }
    engine.dispose()
    assert left == dict.fromkeys(left, 0)


def test_a_failing_mail_server_is_tried_a_bounded_number_of_times_and_logged_once(
    site: ServerThread, sinks: Sinks, caplog: pytest.LogCaptureFixture
) -> None:
    ann, ann_name = signed_up(site.base)
    address = f"busy-{secrets.token_hex(4)}@example.org"
    verified(ann, site, sinks, address)
    sinks.mail.refuse.add(address)
    notifier = site.app.state.notifier
    with caplog.at_level(logging.WARNING, logger="parlor.server"):
        invited(site, ann_name)
        wait_for("the tries", lambda: sinks.mail.refused.count(address) == notifier.config.attempts)
        wait_for("the sending to end", lambda: not notifier._tasks)
    assert sinks.mail.refused.count(address) == notifier.config.attempts  # and no more
    assert len([r for r in caplog.records if "e-mail to" in r.getMessage()]) == 1
    assert notes(ann)["unread"] == 1  # (the in-app list has it all the same)


def test_new_addresses_are_limited_per_account_even_when_sent_at_once(site: ServerThread, sinks: Sinks) -> None:
    """Each new address is mailed a verification link: at most ``VERIFY_MAILS_PER_HOUR`` an hour per
    account, counted atomically, so eight requests at once send exactly that many and the rest change
    nothing (429 ``rate_limited``)."""
    from parlor.server.notify import VERIFY_MAILS_PER_HOUR

    ann, _ = signed_up(site.base)
    ann.who()
    tag = secrets.token_hex(4)
    addresses = [f"many-{tag}-{i}@example.org" for i in range(8)]
    barrier = threading.Barrier(len(addresses))
    answers: dict[str, httpx.Response] = {}
    cookies = dict(ann.http.cookies)

    def set_address(address: str) -> None:
        with httpx.Client(base_url=site.base, cookies=cookies, timeout=60) as http:
            barrier.wait()
            answers[address] = http.post(
                "/api/account/notify-settings", json={"email": address}, headers={"X-CSRF-Token": ann.csrf}
            )

    threads = [threading.Thread(target=set_address, args=(a,)) for a in addresses]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    passed = sorted(a for a, r in answers.items() if r.status_code == 200)
    assert len(passed) == VERIFY_MAILS_PER_HOUR, {a: r.text for a, r in answers.items()}
    assert all(r.json()["error"]["code"] == "rate_limited" for a, r in answers.items() if a not in passed)
    assert settings(ann)["email"] in passed  # (a refused one stored nothing)
    notifier = site.app.state.notifier
    wait_for("the verification mails", lambda: sum(len(sinks.mail.to(a)) for a in passed) == len(passed))
    wait_for("the sending to end", lambda: not notifier._tasks)
    assert sum(len(sinks.mail.to(a)) for a in addresses) == VERIFY_MAILS_PER_HOUR


def test_the_same_new_address_sent_twice_at_once_mails_one_link_and_counts_once(
    site: ServerThread, sinks: Sinks
) -> None:
    """A double click on Save sends the same new address twice at the same moment: both answers say
    it is stored, one verification mail goes out, and the hour's count of new addresses grows by one."""
    from parlor.server.notify import VERIFY_MAILS_PER_HOUR

    ann, _ = signed_up(site.base)
    ann.who()
    address = f"twice-{secrets.token_hex(4)}@example.org"
    barrier = threading.Barrier(2)
    answers: list[httpx.Response] = []
    cookies = dict(ann.http.cookies)

    def save() -> None:
        with httpx.Client(base_url=site.base, cookies=cookies, timeout=60) as http:
            barrier.wait()
            answers.append(
                http.post("/api/account/notify-settings", json={"email": address}, headers={"X-CSRF-Token": ann.csrf})
            )

    threads = [threading.Thread(target=save) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
    assert all(r.json()["email"] == address and r.json()["email_verified"] is False for r in answers)
    notifier = site.app.state.notifier
    wait_for("the verification mail", lambda: sinks.mail.to(address))
    wait_for("the sending to end", lambda: not notifier._tasks)
    assert len(sinks.mail.to(address)) == 1
    # Counted once: the rest of the hour's new addresses can still be set.
    for i in range(VERIFY_MAILS_PER_HOUR - 1):
        ok(ann.post("/api/account/notify-settings", {"email": f"next-{i}-{address}"}))
    refused = ann.post("/api/account/notify-settings", {"email": f"one-too-many-{address}"})
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"


def test_different_first_addresses_sent_at_once_are_each_stored_and_mailed(site: ServerThread, sinks: Sinks) -> None:
    """An account with no settings yet sets four different addresses at the same moment (two tabs, a
    retry): each request that answers 200 stored its address in turn (the last one stored stays) and
    mailed it a verification link; none is dropped because another request made the settings' row
    while it looked. Several accounts, each a fresh row, since the race is one of a few milliseconds."""
    notifier = site.app.state.notifier
    for _ in range(8):
        ann, _ = signed_up(site.base)
        ann.who()
        tag = secrets.token_hex(4)
        addresses = [f"first-{tag}-{i}@example.org" for i in range(4)]  # (fewer than the hour's limit)
        barrier = threading.Barrier(len(addresses))
        answers: dict[str, int] = {}
        cookies = dict(ann.http.cookies)

        def set_address(address: str, cookies: dict[str, str] = cookies, barrier: threading.Barrier = barrier,
                        answers: dict[str, int] = answers, csrf: str = ann.csrf) -> None:  # fmt: skip
            with httpx.Client(base_url=site.base, cookies=cookies, timeout=60) as http:
                barrier.wait()
                answers[address] = http.post(
                    "/api/account/notify-settings", json={"email": address}, headers={"X-CSRF-Token": csrf}
                ).status_code

        threads = [threading.Thread(target=set_address, args=(a,)) for a in addresses]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert answers == dict.fromkeys(addresses, 200), answers
        wait_for("the sending to end", lambda: not notifier._tasks and notifier.queue.empty())
        wait_for("a verification mail to each address", lambda a=addresses: all(sinks.mail.to(x) for x in a))
        assert all(len(sinks.mail.to(a)) == 1 for a in addresses)
        assert settings(ann)["email"] in addresses
