"""A seat sat down in but never opened cannot stall a public table, and one address or account holds
only a few seats at once (real servers, real HTTP and WebSocket clients, SQLite and PostgreSQL).

* at a table still waiting for players, a seat not opened within ``Limits.sit_open_within`` is open
  again, and the table's wait for bots goes on: the bots come and the game is played;
* once the game is on (no seat open), a bot plays such a seat instead of the game stopping at it;
* the moment is stored: a server restarted before it still frees the seat;
* the people at the table see that the seat is held but nobody is there (``absent``, ``open_within``);
* concurrent sits from one address, or by one account, stop exactly at their limits (429).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from parlor.server.limits import Limits

from .conftest import (
    BACKENDS,
    Client,
    Race,
    ServerProcess,
    ServerThread,
    against_a_short_timer,
    create_table,
    make_url,
    start_together,
    token_of,
)
from .test_accounts import GENEROUS, Browser, fresh_name

OPEN_WITHIN = 1.0  # seconds a test seat sat down in has to be opened


@pytest.fixture(scope="module", params=BACKENDS)
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    limits = Limits(min_turn_time=0.1, sit_open_within=OPEN_WITHIN)
    with ServerThread(url, seat_timeout=None, account_limits=GENEROUS, limits=limits) as s:
        yield s


def public_table(base: str, players: int, **body: Any) -> dict[str, Any]:
    return create_table(base, players=players, public=True, seats=[{"kind": "human"}] * players, **body)


def sit(base: str, table_id: str, **body: Any) -> httpx.Response:
    return httpx.post(f"{base}/api/tables/{table_id}/sit", json=body, timeout=60)


def seats_frame(client: Client, pred: Any, timeout: float = 120.0) -> dict[str, Any]:
    return client.next(lambda f: f["type"] == "seats" and pred(f["seats"]), timeout)


def test_a_seat_sat_in_but_never_opened_is_freed_and_the_bots_fill_the_table(site: ServerThread) -> None:
    # The table's wait for bots must outlast the seat's OPEN_WITHIN and the checks after it, and the test
    # waits it out: a short wait, a longer one only if the machine was too slow for those steps.
    against_a_short_timer(lambda wait, race: squat_then_fill(site, wait, race), (2.5, 6.0, 15.0))


def squat_then_fill(site: ServerThread, wait: float, race: Race) -> None:
    created = public_table(site.base, 3, fill_bots_after=wait)
    race.due = time.time() + wait  # (at the latest: the wait started before the answer)
    tid = created["table"]["id"]
    with Client(site.base, tid, token_of(created, 0)) as ann:  # the host's own seat, by its link
        squat = sit(site.base, tid, name="Squatter")
        assert squat.status_code == 200, squat.text
        seat = squat.json()["seat"]
        # Ann sees the seat taken with nobody there, and how long its holder has to come.
        held = seats_frame(ann, lambda seats: seats[seat]["name"] == "Squatter")["seats"][seat]
        assert held["absent"] is True and held["open"] is False and 0 < held["open_within"] <= OPEN_WITHIN
        assert ann.welcome["table"]["seats"][0]["absent"] is False
        # Nobody opens it: it is open again for anyone, and the table still waits for players (bots at the
        # table instead: the wait ran out first, and the test stops here rather than wait for nothing).
        freed = seats_frame(ann, lambda seats: seats[seat]["open"] or any(s["kind"] == "bot" for s in seats))
        freed = freed["seats"][seat]
        assert freed == {**freed, "open": True, "name": None, "absent": False, "open_within": None, "kind": "human"}
        summary = httpx.get(f"{site.base}/api/tables/{tid}", timeout=60).json()
        assert summary["seats"][seat]["open"] is True and summary["fill_bots_in"] is not None
        # Its token opens nothing now.
        r = httpx.post(f"{site.base}/api/tables/{tid}/stand-up", json={"token": squat.json()["token"]}, timeout=60)
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token", r.text
        race.won = True
        # The wait for bots goes on as it was: the open seats become bots and the game is played.
        seats_frame(ann, lambda seats: all(s["kind"] == "bot" for s in seats[1:]))
        play_until(ann, lambda st: st["version"] >= 4)  # (every seat has had a turn)


def play_until(client: Client, done: Any, timeout: float = 120.0) -> dict[str, Any]:
    """The client plays its first legal move whenever it is to move, until ``done(state)`` or the end."""
    deadline = time.monotonic() + timeout
    while True:
        st = client.wait_turn_or_over(timeout)
        if st["over"] or done(st):
            return st
        assert time.monotonic() < deadline, f"still at version {st['version']}"
        reply = client.act(st["legal"][0]["id"])
        assert reply["type"] == "ack" or reply["code"] in ("not_your_turn", "stale"), reply


def test_an_unopened_seat_is_played_by_a_bot_once_the_game_is_on(site: ServerThread) -> None:
    created = public_table(site.base, 2)
    tid = created["table"]["id"]
    with Client(site.base, tid, token_of(created, 0)) as ann:
        squat = sit(site.base, tid)  # the last open seat: the game is on
        assert squat.status_code == 200, squat.text
        seat = squat.json()["seat"]
        seats_frame(ann, lambda seats: seats[seat]["absent"] and not seats[seat]["open"])
        # It is not freed (standing up is over): a bot plays it, and the game goes past its turns.
        now_bot = seats_frame(ann, lambda seats: seats[seat]["substituted"])["seats"][seat]
        assert now_bot["kind"] == "human" and now_bot["absent"] is True
        deadline = time.monotonic() + 120
        while not any(
            e["event"] == "bot_played" and e["data"] == {"seat": seat, "reason": "away"}
            for f in ann.frames
            if f["type"] == "state"
            for e in f["events"]
        ):
            assert time.monotonic() < deadline, "no bot played the unopened seat"
            st = ann.wait_turn_or_over(120)
            if st["over"]:
                break
            reply = ann.act(st["legal"][0]["id"])
            assert reply["type"] == "ack" or reply["code"] in ("not_your_turn", "stale"), reply
        # Its holder comes after all: the seat is theirs, played by them from now on.
        with Client(site.base, tid, squat.json()["token"]) as late:
            assert late.welcome["seat"] == seat
            back = seats_frame(ann, lambda seats: not seats[seat]["substituted"])["seats"][seat]
            assert back["absent"] is False and back["connected"] is True


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_moment_to_open_a_seat_survives_a_restart(backend: str, request: Any, tmp_path: Any) -> None:
    url = make_url(backend, request, tmp_path)
    limits = Limits(min_turn_time=0.1, sit_open_within=3.0)
    with ServerThread(url, seat_timeout=None, limits=limits) as server:
        created = public_table(server.base, 3)
        tid = created["table"]["id"]
        token_of(created, 0)
        squat = sit(server.base, tid)
        assert squat.status_code == 200, squat.text
        seat = squat.json()["seat"]
    # A new server process on the same database (the first is gone): it frees the seat when due.
    with ServerThread(url, seat_timeout=None, limits=limits) as server:
        deadline = time.monotonic() + 120
        while not (summary := httpx.get(f"{server.base}/api/tables/{tid}", timeout=60).json())["seats"][seat]["open"]:
            assert time.monotonic() < deadline, summary["seats"][seat]
            time.sleep(0.1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_seats_held_per_account_and_per_address_stop_at_their_limits_under_concurrent_sits(
    backend: str, request: Any, tmp_path: Any
) -> None:
    url = make_url(backend, request, tmp_path)
    limits = Limits(
        min_turn_time=0.1,
        max_held_seats_per_address=4,
        max_held_seats_per_account=2,
        tables_per_address_per_minute=1000,
        max_unfinished_tables_per_address=1000,
    )
    with ServerThread(url, seat_timeout=None, account_limits=GENEROUS, limits=limits) as server:
        tables = [public_table(server.base, 2)["table"]["id"] for _ in range(11)]
        me = Browser(server.base)
        assert me.sign_up(fresh_name()).status_code == 201

        def race(sitters: list[tuple[str, Any]]) -> list[httpx.Response]:
            answers: list[httpx.Response | None] = [None] * len(sitters)
            start = threading.Barrier(len(sitters))

            def one(i: int, table_id: str, how: Any) -> None:
                start.wait()
                answers[i] = how(table_id)

            threads = [threading.Thread(target=one, args=(i, t, how)) for i, (t, how) in enumerate(sitters)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(120)
            assert all(a is not None for a in answers)
            return answers  # type: ignore[return-value]

        # Five sits at once by one account: exactly two seats.
        signed_in = race([(t, lambda tid: me.post(f"/api/tables/{tid}/sit", {})) for t in tables[:5]])
        assert sorted(r.status_code for r in signed_in) == [200] * 2 + [429] * 3, [r.text for r in signed_in]
        refused = [r.json()["error"] for r in signed_in if r.status_code == 429]
        assert all(e["code"] == "too_many_seats" and "account" in e["message"] for e in refused), refused
        # Six guests at once from the same address (two seats held already): exactly two more.
        guests = race([(t, lambda tid: sit(server.base, tid)) for t in tables[5:]])
        assert sorted(r.status_code for r in guests) == [200] * 2 + [429] * 4, [r.text for r in guests]
        refused = [r.json()["error"] for r in guests if r.status_code == 429]
        assert all(e["code"] == "too_many_seats" and "address" in e["message"] for e in refused), refused
        # A refused sit changed nothing: exactly four seats are held, over all the tables.
        held = [
            s
            for t in tables
            for s in httpx.get(f"{server.base}/api/tables/{t}", timeout=60).json()["seats"]
            if not s["open"]
        ]
        assert len(held) == 4, held
        # Standing up from one gives its place back.
        mine = next(r.json() for r in guests if r.status_code == 200)
        r = httpx.post(f"{server.base}/api/tables/{mine['table_id']}/stand-up", json={"token": mine["token"]})
        assert r.status_code == 200, r.text
        again = sit(server.base, next(t for t, r in zip(tables[5:], guests, strict=True) if r.status_code == 429))
        assert again.status_code == 200, again.text
        # Quick play at the limit is refused too, and leaves no table waiting for the refused player.
        r = httpx.post(f"{server.base}/api/quick-play", json={"game": "sweet-nose", "players": 3}, timeout=60)
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_seats", r.text
        lobby = httpx.get(f"{server.base}/api/lobby", params={"game": "sweet-nose"}, timeout=60).json()
        assert lobby["waiting"] == [], lobby
        me.close()


def test_another_process_frees_the_seat_when_the_one_that_took_it_died(postgres: Any) -> None:
    """Two processes of one site: the process that played the table is killed after somebody sat down
    there; the other takes the table over and frees the seat at the stored moment."""
    url = postgres.new_database()
    common = ("--cluster", "--lease-seconds", "3", "--bot-delay", "0", "--sit-open-within", "5")
    a, b = start_together(ServerProcess(url, None, *common), ServerProcess(url, None, *common))
    try:
        created = public_table(a.base, 3)
        tid = created["table"]["id"]
        token_of(created, 0)  # somebody holds a seat by its link: the table still waits for the others
        squat = sit(a.base, tid)
        assert squat.status_code == 200, squat.text
        seat = squat.json()["seat"]
        a.kill()  # A dies holding the table, its timer with it
        deadline = time.monotonic() + 120
        while True:
            try:
                summary = httpx.get(f"{b.base}/api/tables/{tid}", timeout=60).json()
            except httpx.HTTPError:
                summary = None
            if summary is not None and "seats" in summary and summary["seats"][seat]["open"]:
                break
            assert time.monotonic() < deadline, summary
            time.sleep(0.2)
    finally:
        a.stop()
        b.stop()
