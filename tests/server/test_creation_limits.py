"""The per-address creation limits hold under concurrency. 200 creations at once
from one address: exactly as many tables as the limit allows are made (the count and the insert are one
transaction, under a lock on the address), the rest are refused with 429, and nothing else is stored."""

from __future__ import annotations

import asyncio

import httpx
from sqlalchemy import create_engine, text

from parlor.server.limits import Limits

from ..helpers import run_coroutine
from .conftest import ServerThread

BODY = {"game": "mamma-mia", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]}


async def create_many(base: str, n: int) -> list[httpx.Response]:
    limits = httpx.Limits(max_connections=n, max_keepalive_connections=n)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:
        return await asyncio.gather(*(client.post("/api/tables", json=BODY) for _ in range(n)))


def stored_tables(url: str) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(text("SELECT count(*) FROM parlor_tables")).scalar_one()
    finally:
        engine.dispose()


def test_200_concurrent_creations_from_one_address_make_exactly_the_limit(database_url):
    for limits, allowed, code in (
        (Limits(tables_per_address_per_minute=1e6, max_unfinished_tables_per_address=12), 12, "too_many_tables"),
        (Limits(tables_per_address_per_minute=7, max_unfinished_tables_per_address=1000), 7, "rate_limited"),
    ):
        before = stored_tables(database_url) if code == "rate_limited" else 0
        with ServerThread(database_url, seat_timeout=None, limits=limits) as server:
            answers = run_coroutine(create_many(server.base, 200))
        made = [r for r in answers if r.status_code == 201]
        refused = [r for r in answers if r.status_code != 201]
        if code == "rate_limited":  # the first round's 12 were made within the minute too
            allowed = max(0, 7 - before)
        assert len(made) == allowed, [r.status_code for r in answers]
        assert all(r.status_code == 429 and r.json()["error"]["code"] in (code, "too_many_tables") for r in refused)
        assert stored_tables(database_url) == before + allowed
