"""Notifications: telling a player that it is their turn, that their game is over, that they are
invited to a table, or that a tournament's round begins — in the app always, and by e-mail and Web
Push where they asked for it (docs/protocol.md, "Notifications").

The service the rest of the server calls is :meth:`Notifier.notify`::

    notifier.notify(account_id, kind, table_id, text_key, params)

``kind`` is one of :data:`KINDS` (the player can switch each off for e-mail and push; the in-app list
keeps every one); ``text_key`` names the words (``notify/messages.py``), worded in the reader's
language with ``params`` (only what every reader may know: never a card). It never waits: the
notification goes into a bounded queue, and one worker task stores it and sends it, so a slow or
failing mail server or push service never holds a table up. A failed e-mail or push is logged once
and tried again ``attempts`` times in all, a little later each time.

A feature beside ``table/`` (docs/server.md): the table layer tells it through the hub's hooks
(``Hub.finished_hooks`` for a game over, ``Hub.change_hooks`` for a decision asked of a seat), and the
friends service through ``Friends.invited_hooks``; nothing below imports it.

E-mail goes through :mod:`smtplib` in a small thread pool of its own rather than aiosmtplib: a mail
now and then needs no event-loop client, pywebpush is blocking too (``requests``) and shares the pool,
and the standard library's client has no dependency to keep up.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import logging
import secrets
import smtplib
import ssl
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any
from urllib.parse import quote, urlsplit

from parlor.server.storage import AccountStore, Attempt, LimitReached, NotificationStore
from parlor.server.table import Hub, LiveTable
from parlor.server.wire import ServerError

from .messages import LANGUAGES, language_of, mail_line, page_language, worded

log = logging.getLogger("parlor.server")

KINDS = ("your_turn", "game_over", "invitation", "tournament_round")
QUEUE_BOUND = 10_000  # notifications waiting to be sent at most (past it one is dropped and logged)
VERIFY_DAYS = 7  # an e-mail verification link lasts this long
# New addresses (each mailed a verification link) one account may set an hour: the site's mail server
# must not become a way to mail anybody, however many requests are sent at once.
VERIFY_MAILS_PER_HOUR = 5
MAX_EMAIL = 254  # RFC 5321's longest address
TABLES_KEPT = 1000  # tables whose seats asked last are remembered before those no longer here are dropped


@dataclass(frozen=True)
class MailSettings:
    """The site's SMTP server (``--smtp-*``)."""

    host: str
    port: int = 25
    sender: str = "parlor@localhost"
    user: str | None = None
    password: str | None = None
    starttls: bool = False
    timeout: float = 20.0


@dataclass(frozen=True)
class NotifyConfig:
    """``site_url``: the address the links in e-mails and pushes start with (the site's public address).
    ``smtp``: None sends no e-mail. ``vapid_private_key``: a PEM (or its path); None: made at first
    start and stored in the database. ``push_http``: push endpoints may be plain http (a local test
    endpoint); otherwise only https endpoints are accepted (a subscription must not make the server
    post to its own network). ``attempts``: tries per e-mail or push; ``retry_after``: seconds before
    the second (doubled for each next)."""

    site_url: str = "http://127.0.0.1:8000"
    smtp: MailSettings | None = None
    vapid_private_key: str | None = None
    vapid_subject: str | None = None
    push_http: bool = False
    attempts: int = 3
    retry_after: float = 10.0


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    """Signed links (unsubscribe, e-mail verification) that work without signing in: a JSON payload and
    its HMAC-SHA256 with the site's stored key (the standard library's ``hmac``; no session needed)."""

    def __init__(self, key: bytes) -> None:
        self.key = key

    def sign(self, payload: dict[str, Any]) -> str:
        body = _b64(json.dumps(payload, separators=(",", ":"), sort_keys=True).encode())
        return body + "." + _b64(hmac.new(self.key, body.encode(), hashlib.sha256).digest())

    def read(self, token: Any, purpose: str) -> dict[str, Any] | None:
        if not isinstance(token, str) or len(token) > 1024 or token.count(".") != 1:
            return None
        body, mac = token.split(".")
        try:
            good = hmac.compare_digest(_unb64(mac), hmac.new(self.key, body.encode(), hashlib.sha256).digest())
            payload = json.loads(_unb64(body)) if good else None
        except (ValueError, UnicodeDecodeError):
            return None
        if not isinstance(payload, dict) or payload.get("p") != purpose:
            return None
        return payload


def check_kind(kind: Any) -> str:
    if kind not in KINDS:
        raise ServerError("unknown_kind", f"'kind' must be one of {', '.join(KINDS)}", field="kind")
    return str(kind)


def check_email(email: Any) -> str | None:
    """A plausible address (one ``@``, a dotted domain, no spaces or controls), or None to remove it."""
    if email is None or email == "":
        return None
    bad = ServerError("bad_email", "'email' must be an e-mail address like name@example.org", field="email")
    if not isinstance(email, str) or len(email) > MAX_EMAIL:
        raise bad
    email = email.strip()
    local, at, domain = email.rpartition("@")
    if (
        not at or not local or "@" in local or "." not in domain.strip(".") or domain.startswith(".")
        or any(c.isspace() or ord(c) < 32 or c in "<>,;\"()[]\\" for c in email)
    ):  # fmt: skip
        raise bad
    return email


class Notifier:
    def __init__(self, hub: Hub, config: NotifyConfig | None = None) -> None:
        self.hub = hub
        self.config = config or NotifyConfig()
        self.store = NotificationStore(hub.db)
        self.queue: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue(QUEUE_BOUND)
        self.signer = Signer(b"")
        self.vapid: Any = None
        self.vapid_public = ""
        self._senders = ThreadPoolExecutor(max_workers=2, thread_name_prefix="notify")
        self._tasks: set[asyncio.Task[Any]] = set()
        self._worker: asyncio.Task[None] | None = None
        self._to_move: dict[str, frozenset[int]] = {}  # per table: the seats last asked for a decision
        self.delivered = 0  # e-mails and pushes sent (the tests wait for it)
        self.failed = 0  # tries that failed
        self.handled = 0  # notifications the worker is done with (stored, and their sending begun)
        hub.finished_hooks.append(self.game_over)
        hub.change_hooks.append(self.turn)

    # ---- life -------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Read (or make, the first time) the site's signing key and VAPID key, then start the worker."""
        key = await self.hub.run_db(self.store.secret, "link_key", lambda: secrets.token_urlsafe(32))
        self.signer = Signer(key.encode())
        from py_vapid import Vapid02

        pem = self.config.vapid_private_key
        if pem is None:
            pem = await self.hub.run_db(self.store.secret, "vapid_private", _new_vapid_pem)
        self.vapid = Vapid02.from_pem(pem.encode()) if "BEGIN" in pem else Vapid02.from_file(pem)
        from cryptography.hazmat.primitives import serialization

        raw = self.vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.vapid_public = _b64(raw)
        self._worker = asyncio.get_running_loop().create_task(self._work())

    async def close(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
        for task in list(self._tasks):
            task.cancel()
        self._senders.shutdown(wait=False, cancel_futures=True)

    # ---- the service ------------------------------------------------------------------------------
    def notify(self, account_id: str, kind: str, table_id: str | None, text_key: str, params: dict[str, Any]) -> None:
        """Tell ``account_id`` something (see the module's docstring). Never waits and never raises for
        a full queue (the notification is dropped and logged): a table calls it under its lock."""
        check_kind(kind)
        try:
            self.queue.put_nowait((account_id, kind, table_id, text_key, dict(params)))
        except asyncio.QueueFull:
            log.warning("notifications: the queue is full; one (%s) for %s is dropped", kind, account_id)

    async def _work(self) -> None:
        while True:
            job = await self.queue.get()
            try:
                await self._deliver(*job)
            except Exception:  # the database away a moment: this one is lost, the next is tried
                log.exception("notifications: one (%s) could not be stored", job[1])
            self.handled += 1

    async def _deliver(
        self, account_id: str, kind: str, table_id: str | None, text_key: str, params: dict[str, Any]
    ) -> None:
        settings = await self.hub.run_db(self.store.settings, account_id)
        if settings["name"] is None:  # a deleted account (its name is gone): nothing is kept for it
            return
        await self.hub.run_db(self.store.add, account_id, kind, table_id, text_key, params)
        if kind in settings["kinds_off"]:
            return
        language = language_of(settings)
        title, body = worded(text_key, params, language)
        url = self._table_url(table_id, kind)
        if self.config.smtp is not None and settings["email"] and settings["email_verified"]:
            mail = self._mail(settings["email"], account_id, kind, title, body, url, language)
            self._send(f"e-mail to {account_id}", self._send_mail, mail)
        subscriptions = await self.hub.run_db(self.store.subscriptions, account_id)
        payload = json.dumps({"title": title, "body": body, "url": url, "kind": kind, "tag": f"{kind}:{table_id}"})
        for subscription in subscriptions:
            self._send(f"push to {account_id}", self._send_push, subscription, payload)

    def _table_url(self, table_id: str | None, kind: str) -> str:
        """The table's page. ``#seat`` opens the account's own seat from the session (any device: the
        reader's browser may never have held the seat's token); an invitation's reader has no seat
        there yet, so its page offers to sit down."""
        if not table_id:
            return f"{self.config.site_url}/account"
        return f"{self.config.site_url}/play/{table_id}" + ("" if kind == "invitation" else "#seat")

    # ---- sending, with bounded retries ------------------------------------------------------------
    def _send(self, what: str, fn: Any, *args: Any) -> None:
        task = asyncio.get_running_loop().create_task(self._try(what, fn, args))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _try(self, what: str, fn: Any, args: tuple[Any, ...]) -> None:
        loop = asyncio.get_running_loop()
        delay = self.config.retry_after
        for attempt in range(1, self.config.attempts + 1):
            try:
                await loop.run_in_executor(self._senders, fn, *args)
                self.delivered += 1
                return
            except _Gone:
                return
            except Exception as exc:
                self.failed += 1
                if attempt == 1:  # (once per message: a mail server down must not flood the log)
                    log.warning("notifications: %s failed (%s); %d more tries", what, exc, self.config.attempts - 1)
            if attempt < self.config.attempts:
                await asyncio.sleep(delay)
                delay *= 2

    def _mail(
        self, to: str, account_id: str, kind: str, title: str, body: str, url: str, language: str
    ) -> EmailMessage:
        assert self.config.smtp is not None
        unsubscribe = (
            f"{self.config.site_url}/notify/unsubscribe?token={quote(self.unsubscribe_token(account_id, kind))}"
        )
        mail = EmailMessage()
        mail["Subject"] = f"Parlor: {title}"
        mail["From"] = self.config.smtp.sender
        mail["To"] = to
        mail["Message-ID"] = make_msgid(domain=urlsplit(self.config.site_url).hostname or "parlor")
        # RFC 8058: a mail client's one-click button POSTs "List-Unsubscribe=One-Click" to this address.
        mail["List-Unsubscribe"] = f"<{unsubscribe}>"
        mail["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        mail.set_content(
            "\n\n".join(
                [
                    body,
                    mail_line("open", language, url=url),
                    "-- \n" + mail_line("unsubscribe", language, kind=kind, url=unsubscribe),
                ]
            )
        )
        mail["Content-Language"] = language  # (after the content: setting it clears the Content-* headers)
        return mail

    def _send_mail(self, mail: EmailMessage) -> None:
        smtp = self.config.smtp
        assert smtp is not None
        with smtplib.SMTP(smtp.host, smtp.port, timeout=smtp.timeout) as client:
            if smtp.starttls:
                client.starttls(context=ssl.create_default_context())
            if smtp.user:
                client.login(smtp.user, smtp.password or "")
            client.send_message(mail)

    def _send_push(self, subscription: dict[str, Any], payload: str) -> None:
        from pywebpush import WebPushException, webpush

        subject = self.config.vapid_subject or (
            f"mailto:{self.config.smtp.sender}" if self.config.smtp else self.config.site_url
        )
        try:
            webpush(
                subscription, payload, vapid_private_key=self.vapid, vapid_claims={"sub": subject},
                content_encoding="aes128gcm", ttl=24 * 3600, timeout=20,
            )  # fmt: skip
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in (404, 410):  # the browser dropped the subscription: forget it, no retry
                self.store.unsubscribe(None, subscription["endpoint"])
                raise _Gone() from None
            raise

    def send_verification(self, account_id: str, email: str, language: str) -> None:
        if self.config.smtp is None:
            return
        token = self.signer.sign({"p": "verify", "a": account_id, "e": email, "t": int(time.time())})
        url = f"{self.config.site_url}/notify/verify?token={quote(token)}"
        mail = EmailMessage()
        mail["Subject"] = "Parlor: " + mail_line("verify_subject", language)
        mail["From"] = self.config.smtp.sender
        mail["To"] = email
        mail.set_content(mail_line("verify_body", language, url=url))
        mail["Content-Language"] = language
        self._send(f"verification e-mail to {account_id}", self._send_mail, mail)

    # ---- the hooks --------------------------------------------------------------------------------
    def game_over(self, table: LiveTable) -> None:
        """A game ended: every account seated is told its place."""
        self._to_move.pop(table.id, None)
        places = (table.result or {}).get("places") or []
        for s in table.seats:
            if s.account_id is None or s.kind != "human":
                continue
            place = places[s.seat] if s.seat < len(places) else "?"
            params = {"game": table.game.title, "place": place, "players": table.players}
            self.notify(s.account_id, "game_over", table.id, "game_over", params)

    def turn(self, table: LiveTable) -> None:
        """A change may have asked a seat for a decision: an account's seat newly asked, with no
        connection of its own to the table, is told it is its turn (once until it has moved)."""
        if table.status != "playing" or any(s.is_open for s in table.seats):
            return  # (over, or still waiting for players: nobody is asked yet)
        to_move = frozenset(table.state.to_move)
        fresh = to_move - self._to_move.get(table.id, frozenset())
        self._to_move[table.id] = to_move
        if len(self._to_move) > TABLES_KEPT:  # (tables closed or let go without a game over: forgotten)
            for gone in [t for t in self._to_move if t not in self.hub.tables]:
                del self._to_move[gone]
        for seat in sorted(fresh):
            s = table.seats[seat]
            if s.account_id is None or s.kind != "human" or table.bot_controls(seat):
                continue
            if s.connections > 0 or any(c.account_id == s.account_id for c in table.connections):
                continue
            self.notify(s.account_id, "your_turn", table.id, "your_turn", {"game": table.game.title})

    def invited(self, invitee_id: str, table_id: str, inviter: str, game: str) -> None:
        self.notify(invitee_id, "invitation", table_id, "invitation", {"inviter": inviter, "game": game})

    async def tournament_round(self, tournament: dict[str, Any], round_no: int, boards: list[dict[str, Any]]) -> None:
        """A round's tables are made (``Tournaments.round_hooks``): each seated player is told, with
        the table to go to; a bye has no table to go to, so it is not told."""
        for board in boards:
            if board["bye"]:
                continue
            for account_id in board["seats"]:
                if account_id is not None:
                    params = {"round": round_no, "tournament": tournament["name"]}
                    self.notify(account_id, "tournament_round", board["table_id"], "tournament_round", params)

    # ---- the account's requests -------------------------------------------------------------------
    async def listing(self, me: dict[str, Any], language: Any) -> dict[str, Any]:
        """The account's notifications (newest first, each worded in the asking page's language, else
        the reader's) and its unread count. ``language``: the asking page's (remembered for e-mails
        when the account chose none)."""
        settings = await self.hub.run_db(self.store.settings, me["id"])
        seen = page_language(language)
        if seen is not None and seen != settings["page_language"]:
            await self.hub.run_db(lambda: self.store.update_settings(me["id"], page_language=seen))
            settings["page_language"] = seen
        found = await self.hub.run_db(self.store.listing, me["id"])
        # The list is read on the asking page: in its language (the one chosen for e-mails may be
        # another), so that a page in Japanese does not list Czech lines.
        lang = seen or language_of(settings)
        for item in found["notifications"]:
            item["title"], item["text"] = worded(item["text_key"], item["params"], lang)
            item["created_at"] = item["created_at"].isoformat().replace("+00:00", "Z")
        return found

    async def mark_read(self, me: dict[str, Any], ids: Any) -> dict[str, Any]:
        if ids is not None and (
            not isinstance(ids, list) or len(ids) > 200 or not all(isinstance(i, str) and len(i) <= 32 for i in ids)
        ):
            raise ServerError(
                "bad_request", "'ids' must be a list of notifications' ids (or left out: all)", field="ids"
            )
        marked = await self.hub.run_db(self.store.mark_read, me["id"], ids)
        return {"marked": marked}

    async def settings(self, me: dict[str, Any]) -> dict[str, Any]:
        found = await self.hub.run_db(self.store.settings, me["id"])
        found.pop("name", None)
        mail = self.config.smtp is not None
        return {**found, "kinds": list(KINDS), "languages": list(LANGUAGES), "email_enabled": mail,
                "vapid_public_key": self.vapid_public}  # fmt: skip

    async def change_settings(self, me: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        """``email`` (None or "" removes it; a new one is sent a verification link), ``kinds_off`` (a
        list of kinds), ``language`` (one of the site's, or None). All checked before any is stored."""
        values: dict[str, Any] = {}
        mail_to: str | None = None
        current = await self.hub.run_db(self.store.settings, me["id"])
        if "email" in body:
            email = check_email(body["email"])
            if email != current["email"]:
                mail_to = email
        if "kinds_off" in body:
            kinds = body["kinds_off"]
            if not isinstance(kinds, list):
                raise ServerError("bad_request", "'kinds_off' must be a list of kinds", field="kinds_off")
            values["kinds_off"] = [check_kind(k) for k in kinds]
        if "language" in body:
            if body["language"] is not None and body["language"] not in LANGUAGES:
                raise ServerError("bad_request", f"'language' must be one of {', '.join(LANGUAGES)}", field="language")
            values["language"] = body["language"]
        reserved: list[int] = []
        if mail_to is not None:  # (counted before anything is stored: over the limit, nothing changes)
            key = hashlib.sha256(me["id"].encode()).hexdigest()
            attempt = Attempt("verify_mail", key, VERIFY_MAILS_PER_HOUR, timedelta(hours=1))
            accounts = AccountStore(self.hub.db)
            try:
                reserved = await self.hub.run_db(accounts.reserve, [attempt])
            except LimitReached as exc:
                minutes = max(1, int(exc.wait.total_seconds() // 60) + 1)
                raise ServerError("rate_limited", f"too many new addresses: try again in {minutes} min", 429) from None
        if values:
            await self.hub.run_db(lambda: self.store.update_settings(me["id"], **values))
        if mail_to is not None:
            if await self.hub.run_db(self.store.set_email, me["id"], mail_to):
                self.send_verification(me["id"], mail_to, language_of({**current, **values}))
            else:  # the same address stored by a request sent at the same moment: one mail, one count
                await self.hub.run_db(accounts.release, reserved)
        return await self.settings(me)

    async def push(self, me: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        """``{"subscription": {...}}`` (the browser's ``PushSubscription.toJSON()``) subscribes;
        ``{"unsubscribe": endpoint}`` forgets one."""
        if "unsubscribe" in body:
            endpoint = body["unsubscribe"]
            if not isinstance(endpoint, str) or len(endpoint) > 2048:
                raise ServerError("bad_request", "'unsubscribe' must be a subscription's endpoint", field="unsubscribe")
            return {"unsubscribed": await self.hub.run_db(self.store.unsubscribe, me["id"], endpoint)}
        sub = body.get("subscription")
        if not isinstance(sub, dict):
            raise ServerError("bad_subscription", "'subscription' must be a push subscription", field="subscription")
        endpoint, keys = sub.get("endpoint"), sub.get("keys")
        schemes = ("https",) + (("http",) if self.config.push_http else ())
        if not isinstance(endpoint, str) or len(endpoint) > 2048 or urlsplit(endpoint).scheme not in schemes \
                or not urlsplit(endpoint).hostname:  # fmt: skip
            raise ServerError("bad_subscription", "the subscription's 'endpoint' must be an https address",
                              field="subscription")  # fmt: skip
        if not isinstance(keys, dict) or not _key(keys.get("p256dh"), 65) or not _key(keys.get("auth"), 16):
            raise ServerError("bad_subscription", "the subscription needs its 'keys': 'p256dh' and 'auth' "
                              "(base64url, as PushSubscription.toJSON() gives them)", field="subscription")  # fmt: skip
        await self.hub.run_db(self.store.subscribe, me["id"], endpoint, keys["p256dh"], keys["auth"])
        return {"subscribed": True}

    # ---- the links that work without signing in ---------------------------------------------------
    def unsubscribe_token(self, account_id: str, kind: str) -> str:
        return self.signer.sign({"p": "unsubscribe", "a": account_id, "k": kind})

    def read_unsubscribe(self, token: Any) -> tuple[str, str] | None:
        payload = self.signer.read(token, "unsubscribe")
        if payload is None or payload.get("k") not in KINDS or not isinstance(payload.get("a"), str):
            return None
        return payload["a"], payload["k"]

    async def unsubscribe(self, account_id: str, kind: str) -> None:
        await self.hub.run_db(self.store.switch_kind, account_id, kind, False)

    async def verify(self, token: Any) -> str | None:
        """Confirm the address a verification link was made for; the account's id, or None (a forged,
        cut or expired link, or the account has another address now)."""
        payload = self.signer.read(token, "verify")
        if payload is None or time.time() - float(payload.get("t", 0)) > VERIFY_DAYS * 86400:
            return None
        if not await self.hub.run_db(self.store.verify_email, payload["a"], payload["e"]):
            return None
        return str(payload["a"])

    async def language(self, account_id: str) -> str:
        return language_of(await self.hub.run_db(self.store.settings, account_id))


class _Gone(Exception):
    """A push endpoint that no longer exists (404/410): not tried again."""


def _key(value: Any, length: int) -> bool:
    """A base64url key of ``length`` bytes."""
    if not isinstance(value, str) or len(value) > 200:
        return False
    try:
        return len(_unb64(value)) == length
    except ValueError:
        return False


def _new_vapid_pem() -> str:
    from py_vapid import Vapid02

    vapid = Vapid02()
    vapid.generate_keys()
    return vapid.private_pem().decode()
