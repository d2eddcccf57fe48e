"""A finished rated game whose ratings were never stored (its process stopped between the game's end and
its rating: ``ratings_done`` false) is rated by the sweep when a server starts, once: on SQLite and
PostgreSQL, and with two processes of a site starting together over the same tables."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from parlor.server.accounts import fold_name
from parlor.server.storage import AccountStore, Database, now
from parlor.server.storage.ratings import DEFAULT_MU, DEFAULT_SIGMA
from parlor.server.storage.schema import rating_history_t, ratings_t, seats_t, tables_t

from .conftest import BACKENDS, ServerProcess, ServerThread, make_url


def finished_rated_table(db: Database, table_id: str, accounts: list[str | None], places: list[int],
                         left: tuple[int, ...] = (), game: str = "mamma-mia",
                         absent: tuple[int, ...] = ()) -> None:  # fmt: skip
    """A rated table stored as over, as a process that stopped before rating it leaves it (``absent``:
    seats whose players made fewer than half of their decisions, as the result records them)."""
    result = {
        "scores": [0] * len(places),
        "tiebreaks": [0] * len(places),
        "places": places,
        "winners": [i for i, p in enumerate(places) if p == 1],
        "seats": [
            {
                "seat": i,
                "bot_moves": 9 if i in absent else 0,
                "player_moves": 1 if i in absent else 10,
                "substituted": i in absent,
                "left": i in left,
                "absent": i in left or i in absent,
            }
            for i in range(len(places))
        ],
    }
    stamp = now()
    with db.engine.begin() as conn:
        conn.execute(
            tables_t.insert().values(
                id=table_id, game=game, players=len(places), options="{}", seed=1, engine_version="1",
                status="over", version=0, seat_timeout=None, substitute_level="medium", spectator_hash="x",
                result=json.dumps(result), created_at=stamp, updated_at=stamp, rated=True, visibility="public",
            )
        )  # fmt: skip
        conn.execute(
            seats_t.insert(),
            [
                {"table_id": table_id, "seat": i, "kind": "human" if a else "bot", "level": None if a else "easy",
                 "name": None, "token_hash": None, "joined": True, "account_id": a}
                for i, a in enumerate(accounts)
            ],
        )  # fmt: skip


def accounts(db: Database, *names: str) -> list[str]:
    store = AccountStore(db)
    for name in names:
        store.create_account("id-" + name, name, fold_name(name), "not a real hash")
    return ["id-" + name for name in names]


def wait_until_rated(db: Database, tables: int) -> None:
    """Until every rated table has its ratings_done (the sweep runs after the server's start)."""
    deadline = time.monotonic() + 120
    query = sa.select(sa.func.count()).where(tables_t.c.rated.is_(True), tables_t.c.ratings_done.is_(True))
    while True:
        with db.engine.connect() as conn:
            if conn.execute(query).scalar_one() == tables:
                return
        assert time.monotonic() < deadline, "the sweep did not rate the tables"
        time.sleep(0.1)


def history(db: Database) -> list[Any]:
    with db.engine.connect() as conn:
        return conn.execute(sa.select(rating_history_t)).all()


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_sweep_rates_a_finished_game_left_unrated(backend: str, request: pytest.FixtureRequest, tmp_path) -> None:
    url = make_url(backend, request, tmp_path)
    db = Database(url)
    try:
        db.migrate()
        ann, bob, cy = accounts(db, "Ann", "Bob", "Cy")
        finished_rated_table(db, "won-by-bob", [ann, bob, cy], [2, 1, 3], left=(1,))  # Bob left: he counts last
        finished_rated_table(db, "one-account", [ann, None], [1, 2])  # one account: moves nothing
        with ServerThread(url, seat_timeout=None) as site:
            wait_until_rated(db, 2)
            rows = history(db)
            assert sorted((r.account_id, r.place, r.abandoned) for r in rows) == [
                (ann, 2, False), (bob, 4, True), (cy, 3, False)
            ]  # fmt: skip
            assert {r.table_id for r in rows} == {"won-by-bob"}
            page = httpx.get(f"{site.base}/api/players/Ann", timeout=60).json()
            [rating] = page["ratings"]
            assert (rating["game"], rating["players_class"], rating["games"]) == ("mamma-mia", "3-4", 1)
            after = {r.account_id: r.mu for r in rows}
            assert after[ann] > after[cy] > after[bob]  # the places, with the leaver last
        with ServerThread(url, seat_timeout=None):  # a restart rates nothing again
            pass
        assert len(history(db)) == 3
    finally:
        db.close()


def test_two_processes_starting_together_rate_each_game_once(postgres) -> None:
    url = postgres.new_database()
    db = Database(url)
    try:
        db.migrate()
        ann, bob = accounts(db, "Ann", "Bob")
        games = 12
        for i in range(games):
            finished_rated_table(db, f"g{i}", [ann, bob], [1, 2] if i % 3 else [2, 1])
        common = ("--cluster", "--lease-seconds", "4", "--bot-delay", "0")
        site = [ServerProcess(url, None, *common), ServerProcess(url, None, *common)]
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda p: p.start(), site))
        try:
            wait_until_rated(db, games)
            rows = history(db)
            per_table: dict[str, int] = {}
            for r in rows:
                per_table[r.table_id] = per_table.get(r.table_id, 0) + 1
            assert per_table == {f"g{i}": 2 for i in range(games)}
            with db.engine.connect() as conn:
                counted = dict(conn.execute(sa.select(ratings_t.c.account_id, ratings_t.c.games)).all())
            assert counted == {ann: games, bob: games}  # no game rated from a stale rating
            # Each game started from the rating the one before it left: one chain per account, from a new
            # player's rating through every game to the stored rating.
            for account in (ann, bob):
                starting_from = {(r.mu_before, r.sigma_before): r for r in rows if r.account_id == account}
                assert len(starting_from) == games
                at = (DEFAULT_MU, DEFAULT_SIGMA)
                for _ in range(games):
                    step = starting_from.pop(at)
                    at = (step.mu, step.sigma)
                with db.engine.connect() as conn:
                    stored = conn.execute(
                        sa.select(ratings_t.c.mu, ratings_t.c.sigma).where(ratings_t.c.account_id == account)
                    ).one()
                assert tuple(stored) == at
        finally:
            for p in site:
                p.stop()
    finally:
        db.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_absent_seats_are_tied_last_and_a_game_nobody_played_moves_nothing(
    backend: str, request: pytest.FixtureRequest, tmp_path
) -> None:
    """From the stored results (rated by the sweep, as after a restart): the seats whose players made
    fewer than half of their decisions count last, all tied, whatever places the bots earned them; a
    game whose accounts were all absent writes no history and moves no rating."""
    url = make_url(backend, request, tmp_path)
    db = Database(url)
    try:
        db.migrate()
        ann, bob, cy, dee = accounts(db, "Ann", "Bob", "Cy", "Dee")
        # The bots playing for Bob and Cy finished first and second; Ann and Dee played their own seats.
        finished_rated_table(db, "bots-won", [ann, bob, cy, dee], [3, 1, 2, 4], absent=(1, 2))
        finished_rated_table(db, "nobody-played", [ann, bob], [1, 2], absent=(0, 1))
        with ServerThread(url, seat_timeout=None):
            wait_until_rated(db, 2)
        rows = history(db)
        assert {r.table_id for r in rows} == {"bots-won"}
        assert sorted((r.account_id, r.place, r.abandoned) for r in rows) == [
            (ann, 3, False), (bob, 5, True), (cy, 5, True), (dee, 4, False)
        ]  # fmt: skip
        after = {r.account_id: r.mu for r in rows}
        assert after[ann] > after[dee] > after[bob] and after[bob] == pytest.approx(after[cy])
        with db.engine.connect() as conn:
            games = dict(conn.execute(sa.select(ratings_t.c.account_id, ratings_t.c.games)).all())
        assert games == {ann: 1, bob: 1, cy: 1, dee: 1}  # the game nobody played counted for nobody
    finally:
        db.close()
