"""Players' accounts: sign-up, sign-in, sessions, passwords, deletion, and the rules around them.

A feature beside ``table/`` (docs/server.md): the edge's account routes (``edge/accounts.py``) call
this service, which stores through ``storage.AccountStore`` (not a table's rows, so not fenced).

* Passwords are hashed with argon2id by argon2-cffi (its default, RFC 9106 "low memory" parameters)
  in a pool of ``HASHING_AT_ONCE`` threads of the accounts' own: each hash takes tens of milliseconds
  of a core and 64 MiB, and a flood of sign-ins must not starve the event loop, the tables' database
  threads, nor the machine's memory (the others wait their turn in the pool's queue).
* A session is a random secret in an HttpOnly cookie; the database keeps its SHA-256 only. Its CSRF
  token is derived from the secret (:func:`csrf_token`), so checking one needs no lookup.
* No user enumeration: a sign-in with an unknown name and one with a wrong password get the same
  answer, after the same work (an unknown name is checked against a dummy hash).
* The limits count attempts in the database, so every process of a site counts the same ones, and
  each attempt is counted (reserved) BEFORE its password is hashed, atomically with the check of
  its limit (``AccountStore.reserve``): requests sent at once cannot all find room under a limit.
  A sign-in counts per *name* (known or not) and per client address, and stops counting when its
  password was right; a sign-up counts per address whether it creates the account or finds the name
  taken (a taken name is found before any hashing).
* Names that look like another player's are refused (``names.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import secrets
import threading
import time
import unicodedata
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from parlor.server.storage import AccountStore, Attempt, Database, LimitReached, Listings, ModerationStore, NameTaken
from parlor.server.table.seats import hash_token
from parlor.server.wire import ServerError

from .names import look_alike_problem, skeleton_key

log = logging.getLogger("parlor.server")

SESSION_COOKIE = "parlor_session"
CSRF_COOKIE = "parlor_csrf"  # before signing in: the sign-in form's own CSRF secret (double submit)
CSRF_HEADER = "x-csrf-token"
MAX_NAME, MIN_PASSWORD, MAX_PASSWORD = 24, 8, 256
# Password hashes at once, per process. One: a hash keeps a core busy for its whole ~100 ms, and the
# server's event loop and database threads need the others (a site of several processes hashes once
# in each; the limits, not the pool, bound how many hashes a client can ask for).
HASHING_AT_ONCE = 1
# ... and back to back, a pause as long as the hash took: a flood of hashes takes at most half a core.
HASHING_PAUSE = 1.0
DELETED_NAME = "deleted player"  # what a deleted account's seats are called (never a name one can take)


@dataclass(frozen=True)
class AccountLimits:
    """The account rules' limits (docs/protocol.md, "Accounts")."""

    session_lifetime: timedelta = timedelta(days=30)
    failures_per_name: int = 5  # sign-ins for one name that were not right, within the window
    failures_per_address: int = 20  # sign-ins from one client address that were not right, within the window
    failure_window: timedelta = timedelta(minutes=15)
    signups_per_address: int = 10  # sign-ups from one client address within an hour (a taken name too)
    # Seconds a refused attempt (429) waits before its answer: a client that loops on its answers then
    # costs the server one cheap request a second, not hundreds (a waiting answer costs no CPU).
    refusal_delay: float = 1.0
    # The password hash's cost: argon2id over this many MiB, this many passes (RFC 9106's "low memory"
    # choice by default). A site on a very small machine may lower it; the test suite lowers it to
    # 1 MiB and 1 pass for the servers whose tests are not about hashing, since hundreds of sign-ups
    # at the full cost took minutes of the suite (the hash is still argon2id, stored and checked alike).
    password_memory_mib: int = 64
    password_passes: int = 3


@dataclass(frozen=True)
class AccountFlag:
    """One of ``parlor serve``'s account limits: its flag, what it sets, its default and its range."""

    flag: str
    field: str  # of AccountLimits, or of Limits for the per-account creation limits
    default: float
    low: float
    high: float
    unit: str
    help: str
    whole: bool = True  # a count (int), else a number


ACCOUNT_FLAGS = (
    AccountFlag("--session-days", "session_lifetime", 30, 1 / 24, 3650, "days",
                "days a sign-in lasts without being used (each use an hour or more apart extends it)", False),
    AccountFlag("--sign-in-failures-per-name", "failures_per_name", 5, 1, 1_000_000, "failures",
                "failed sign-ins for one name within the window, then refused"),
    AccountFlag("--sign-in-failures-per-address", "failures_per_address", 20, 1, 1_000_000, "failures",
                "failed sign-ins from one address within the window, then refused"),
    AccountFlag("--sign-in-window", "failure_window", 15, 1, 1440, "minutes",
                "minutes the sign-in failures are counted over", False),
    AccountFlag("--sign-ups-per-address", "signups_per_address", 10, 1, 1_000_000, "accounts",
                "sign-ups from one address within an hour (those that found the name taken too)"),
    AccountFlag("--tables-per-account-per-minute", "tables_per_account_per_minute", 10, 0.001, 1e6, "tables",
                "new tables a minute by one signed-in account (beside its address's)", False),
    AccountFlag("--max-unfinished-tables-per-account", "max_unfinished_tables_per_account", 20, 1, 1_000_000,
                "tables", "unfinished tables one signed-in account may have created"),
    AccountFlag("--password-memory", "password_memory_mib", 64, 1, 4096, "MiB",
                "memory of one password hash (argon2id); less is faster and weaker"),
    AccountFlag("--password-passes", "password_passes", 3, 1, 20, "passes",
                "passes of one password hash (argon2id) over its memory"),
)  # fmt: skip


def account_limits(values: dict[str, float]) -> tuple[AccountLimits, dict[str, float]]:
    """The account limits that ``values`` (by flag, as given; checked) set: the AccountLimits, and the
    fields of ``Limits`` to replace. ValueError names a value out of its range."""
    accounts: dict[str, Any] = {}
    creation: dict[str, float] = {}
    for spec in ACCOUNT_FLAGS:
        value = values.get(spec.flag)
        if value is None:
            continue
        if not spec.low <= value <= spec.high or (spec.whole and value != int(value)):
            whole = "a whole number " if spec.whole else ""
            span = f"from {spec.low:g} to {spec.high:g} {spec.unit}"
            raise ValueError(f"{spec.flag} must be {whole}{span}, got {value:g}")
        if spec.field == "session_lifetime":
            accounts[spec.field] = timedelta(days=value)
        elif spec.field == "failure_window":
            accounts[spec.field] = timedelta(minutes=value)
        elif spec.field.endswith("_per_account") or spec.field.endswith("_per_account_per_minute"):
            creation[spec.field] = int(value) if spec.whole else value
        else:
            accounts[spec.field] = int(value)
    return AccountLimits(**accounts), creation


HASHING_NICENESS = 10


def _yield_to_the_tables() -> None:
    """In the hashing thread: a lower CPU priority (Linux gives each thread its own niceness), so
    that when the cores are busy the event loop and the database threads run first and a flood of
    password checks waits; on an idle core a hash runs as fast as ever."""
    with contextlib.suppress(AttributeError, OSError):  # (not Linux, or not allowed: the same priority)
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASHING_NICENESS)


def csrf_token(secret: str) -> str:
    """The CSRF token that goes with a session (or a sign-in form's) secret: only a page that could read
    the server's answers (same origin) knows it."""
    return hashlib.sha256(b"parlor-csrf\0" + secret.encode("utf-8", "surrogatepass")).hexdigest()


def fold_name(name: str) -> str:
    """A name as compared for uniqueness: NFKC, case folded (``Ann``, ``ANN``, their full-width forms: one name)."""
    return unicodedata.normalize("NFKC", name).casefold()


def clean_account_name(name: Any) -> str:
    """A new account's name: 2 to ``MAX_NAME`` letters, digits, marks, spaces, ``_ - .``; spaces folded."""
    if not isinstance(name, str):
        raise ServerError("bad_name", "a name is required", 400, field="name")
    name = " ".join(unicodedata.normalize("NFKC", name).split())
    if not 2 <= len(name) <= MAX_NAME:
        raise ServerError("bad_name", f"a name has 2 to {MAX_NAME} characters", 400, field="name")
    allowed = all(unicodedata.category(c)[0] in "LMN" or c in " _-." for c in name)
    if not allowed:
        raise ServerError("bad_name", "a name holds letters, digits, spaces, '_', '-' and '.' only", 400, field="name")
    if fold_name(name) == fold_name(DELETED_NAME):
        raise ServerError("bad_name", "this name cannot be taken", 400, field="name")
    problem = look_alike_problem(name)
    if problem is not None:
        code, message = problem
        raise ServerError(code, message, 400, field="name")
    return name


def check_new_password(password: Any, field: str = "password") -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ServerError(
            "bad_password", f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters", 400, field=field
        )
    return password


def limited(what: str, wait: float) -> ServerError:
    minutes = max(1, int(wait // 60) + 1)
    again = f"try again in {minutes} minute{'s' if minutes > 1 else ''}"
    return ServerError("rate_limited", f"too many {what}; {again}", 429)


def name_refused(held: str) -> ServerError:
    """A sign-up whose name another account holds (``held``: "name"), or one that looks like it."""
    if held == "name":
        return ServerError("name_taken", "another player has this name; choose another", 409, field="name")
    return ServerError(
        "name_look_alike", "this name looks like another player's name; choose another", 409, field="name"
    )


def bad_credentials() -> ServerError:
    # One text for an unknown name and a wrong password: the answer never says which names exist.
    return ServerError("bad_credentials", "the name or the password is wrong", 401)


class Accounts:
    """The accounts service, one per process (created by the app's lifespan beside the hub)."""

    def __init__(
        self, db: Database, run_db: Callable[..., Awaitable[Any]], limits: AccountLimits | None = None
    ) -> None:
        self.store = AccountStore(db)
        self.moderation = ModerationStore(db)  # (a ban refuses the sign-in)
        self.listings = Listings(db)
        self.run_db = run_db
        self.limits = limits or AccountLimits()
        # RFC 9106's "low memory" parameters (argon2-cffi's default: 3 passes over 64 MiB) in one lane:
        # argon2 computes each lane in a thread of its own, so the default's 4 lanes let one hash take
        # every core of a small machine from the tables. One lane costs an attacker the same memory
        # and passes (OWASP recommends one lane too); hashes stored with 4 lanes still verify, and are
        # hashed again with one at their next right sign-in.
        self.hasher = PasswordHasher(
            time_cost=self.limits.password_passes, memory_cost=self.limits.password_memory_mib * 1024, parallelism=1
        )
        # The accounts' own threads (not asyncio's default pool, which others share): a flood of hashes
        # queues here, and nothing else waits behind it.
        self._hashing = ThreadPoolExecutor(
            max_workers=HASHING_AT_ONCE, thread_name_prefix="argon2", initializer=_yield_to_the_tables
        )
        self._next_hash = 0.0  # (monotonic) when the hashing thread may start its next hash
        self._dummy: str | None = None
        self._reached: dict[tuple[str, str], float] = {}  # (kind, key): limit reached until (monotonic)

    # ---- passwords ------------------------------------------------------------------------------
    def _paced(self, work: Callable[[], Any]) -> Any:
        """In the hashing thread: ``work`` (one hash), started no sooner than the last one's duration
        times ``HASHING_PAUSE`` after it ended. Back-to-back hashes (a flood) then take at most
        1 / (1 + HASHING_PAUSE) of a core; a lone sign-in waits for nothing."""
        time.sleep(max(0.0, self._next_hash - time.monotonic()))
        start = time.monotonic()
        try:
            return work()
        finally:
            end = time.monotonic()
            self._next_hash = end + (end - start) * HASHING_PAUSE

    async def _in_hashing_thread(self, work: Callable[[], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._hashing, self._paced, work)

    async def _hash(self, password: str) -> str:
        return await self._in_hashing_thread(lambda: self.hasher.hash(password))

    def _check(self, stored: str, password: str) -> bool:
        try:
            return self.hasher.verify(stored, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    async def _verify(self, stored: str | None, password: str) -> bool:
        if stored is None:  # an unknown name costs the same as a known one
            if self._dummy is None:
                self._dummy = await self._hash(secrets.token_urlsafe(16))
            stored = self._dummy
        return await self._in_hashing_thread(lambda: self._check(stored, password))

    # ---- sessions -------------------------------------------------------------------------------
    async def _new_session(self, account_id: str) -> str:
        secret = secrets.token_urlsafe(32)
        await self.run_db(self.store.create_session, hash_token(secret), account_id, self.limits.session_lifetime)
        return secret

    async def current(self, secret: str | None) -> dict[str, Any] | None:
        """The account signed in with this session cookie (``id``, ``name``), or None."""
        if not secret or len(secret) > 200:
            return None
        return await self.run_db(self.store.session, hash_token(secret), self.limits.session_lifetime)

    async def sign_out(self, secret: str | None) -> None:
        if secret and len(secret) <= 200:
            await self.run_db(self.store.end_session, hash_token(secret))

    # ---- the limits -----------------------------------------------------------------------------
    async def _reserve(self, attempts: Sequence[Attempt], what: str) -> list[int]:
        """This attempt, counted against its limits before it runs (the rows' ids); else 429.

        A limit found reached is remembered until its oldest counted attempt leaves the window (the
        count cannot fall before then: attempts are never forgotten sooner), so a flood of refused
        requests is answered from memory, without a database transaction each, and after
        ``refusal_delay``."""
        clock = time.monotonic()
        wait = max((self._reached.get((a.kind, a.key), 0.0) - clock for a in attempts), default=0.0)
        if wait <= 0:
            try:
                return await self.run_db(self.store.reserve, attempts)
            except LimitReached as reached:
                wait = reached.wait.total_seconds()
                if len(self._reached) > 10_000:  # forget the limits that expired
                    self._reached = {k: v for k, v in self._reached.items() if v > clock}
                for attempt in attempts:
                    if attempt.kind == reached.kind:
                        self._reached[(attempt.kind, attempt.key)] = clock + wait
        await asyncio.sleep(self.limits.refusal_delay)
        raise limited(what, wait)

    # ---- the four things a player does ----------------------------------------------------------
    async def sign_up(self, name: Any, password: Any, address: str | None) -> tuple[dict[str, Any], str]:
        name = clean_account_name(name)
        password = check_new_password(password)
        name_key, skeleton = fold_name(name), skeleton_key(name)
        address_key = hash_token("address:" + (address or "?"))
        signups = Attempt("signup", address_key, self.limits.signups_per_address, timedelta(hours=1))
        await self._reserve([signups], "sign-ups from your address")  # counted, whatever comes of it
        held = await self.run_db(self.store.name_held, name_key, skeleton)
        if held is not None:  # before hashing: a taken name costs the server no hash
            raise name_refused(held)
        account_id = secrets.token_hex(16)
        digest = await self._hash(password)
        try:
            await self.run_db(self.store.create_account, account_id, name, name_key, digest, skeleton)
        except NameTaken as taken:  # taken meanwhile (the unique indexes decide a race)
            raise name_refused(taken.args[0]) from None
        log.info("a new account signed up")
        return {"id": account_id, "name": name}, await self._new_session(account_id)

    async def _check_password(self, name: Any, password: Any, address: str | None) -> dict[str, Any]:
        """The account whose name and password these are, under the sign-in limits; else refused."""
        if not isinstance(name, str) or not isinstance(password, str):
            raise bad_credentials()
        if len(name) > 200 or len(password) > MAX_PASSWORD:
            raise bad_credentials()
        folded = fold_name(" ".join(name.split()))
        name_key = hash_token("name:" + folded)
        address_key = hash_token("address:" + (address or "?"))
        window = self.limits.failure_window
        # Counted as failures before the password is checked; a right one is then taken back.
        reserved = await self._reserve(
            [
                Attempt("signin_name", name_key, self.limits.failures_per_name, window),
                Attempt("signin_address", address_key, self.limits.failures_per_address, window),
            ],
            "failed sign-ins for this name or from your address",
        )
        row = await self.run_db(self.store.account_by_name, folded)
        stored = row["password_hash"] if row is not None and row["deleted_at"] is None else None
        if not await self._verify(stored, password) or row is None or stored is None:
            raise bad_credentials()  # (the reserved attempt stays: a failure)
        await self.run_db(self.store.release, reserved)
        if self.hasher.check_needs_rehash(stored):  # the library's parameters moved on since
            await self.run_db(self.store.set_password, row["id"], await self._hash(password), None, False)
        return row

    async def sign_in(self, name: Any, password: Any, address: str | None) -> tuple[dict[str, Any], str]:
        row = await self._check_password(name, password, address)
        # A banned account is told why and until when (after its password: the ban is nobody else's business).
        ban = await self.run_db(self.moderation.active, [row["id"]], "ban")
        if ban is not None:
            message = f"this account is banned until {ban['until']}: {ban['reason']}"
            raise ServerError("banned", message, 403, extra=ban)
        return {"id": row["id"], "name": row["name"]}, await self._new_session(row["id"])

    async def _confirm(self, account: dict[str, Any], password: Any, address: str | None) -> None:
        """The signed-in player's current password, checked (and counted like a sign-in)."""
        row = await self.run_db(self.store.account, account["id"])
        if row is None or row["deleted_at"] is not None:
            raise ServerError("not_signed_in", "sign in first", 401)
        await self._check_password(row["name"], password, address)

    async def change_password(
        self, account: dict[str, Any], secret: str, password: Any, new_password: Any, address: str | None
    ) -> None:
        """A new password; every other session of the account ends (this one stays signed in)."""
        new_password = check_new_password(new_password, "new_password")
        await self._confirm(account, password, address)
        digest = await self._hash(new_password)
        await self.run_db(self.store.set_password, account["id"], digest, hash_token(secret))
        log.info("an account changed its password")

    async def delete(self, account: dict[str, Any], password: Any, address: str | None) -> None:
        """The account is deleted (its password confirms it): its name, password and sessions go, its
        games stay (the tables the site's processes hold are told: ``Hub.forget_account``)."""
        await self._confirm(account, password, address)
        await self.run_db(self.store.delete_account, account["id"])
        log.info("an account was deleted")

    async def sweep_forever(self, every: float = 3600.0) -> None:
        """Forget expired sessions, and sign-in counts older than any limit's window, once an hour."""
        keep = max(self.limits.failure_window, timedelta(hours=1))
        while True:
            try:
                await self.run_db(self.store.sweep, keep)
            except Exception:  # (the next sweep tries again; nothing depends on this one)
                log.exception("the accounts' sweep failed")
            await asyncio.sleep(every)

    async def tables(self, account: dict[str, Any]) -> list[dict[str, Any]]:
        """The account's unfinished tables, each with ``your_seat``: where it plays, from any device."""
        return await self.run_db(self.listings.tables_of, account["id"])
