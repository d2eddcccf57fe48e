"""The review queue through a real server and real concurrent requests (SQLite and PostgreSQL): one
running review per account (or guest address), the others queued with their place, fairly (a player
who asks for many does not go before one who asks for one), and a bounded queue that refuses clearly."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from .conftest import BACKENDS, ServerThread, create_table, make_url, token_of
from .test_accounts import GENEROUS, signed_up
from .test_replay import wait_over

FAST = 6  # the judge's iterations per decision: reviews that end
SLOW = 1_000_000  # ... and reviews that do not end while a test looks at the queue


def finished_seats(base: str, players: int = 4) -> list[tuple[str, str]]:
    """A finished table whose seats are all humans' (their links claimed), played by stand-in bots:
    ``(table id, token)`` of each seat, each seat a review one may ask for."""
    created = create_table(base, game="mamma-mia", players=players, seats=[{"kind": "human"}] * players)
    table_id = created["table"]["id"]
    tokens = [token_of(created, seat) for seat in range(players)]
    for seat in range(players):
        r = httpx.post(
            f"{base}/api/tables/{table_id}/seats/{seat}/stand-in",
            json={"host_token": created["host_token"]},
            timeout=30,
        )
        assert r.status_code == 200, r.text
    wait_over(base, table_id, timeout=180)
    return [(table_id, token) for token in tokens]


class Player:
    """A requester: a signed-in account (its session cookie and CSRF token), or a guest (neither)."""

    def __init__(self, base: str, signed_in: bool = True) -> None:
        self.base = base
        self.cookie = ""
        self.csrf = ""
        if signed_in:
            browser, _ = signed_up(base)
            browser.who()
            self.cookie = f"parlor_session={browser.http.cookies.get('parlor_session')}"
            self.csrf = browser.csrf
            browser.close()

    def review(self, seat: tuple[str, str], method: str = "POST") -> httpx.Response:
        table_id, token = seat
        headers = {"authorization": f"Bearer {token}"}
        if self.cookie:
            headers |= {"cookie": self.cookie, "x-csrf-token": self.csrf}
        return httpx.request(method, f"{self.base}/api/tables/{table_id}/review", headers=headers, timeout=60)


def all_at_once(calls: list[Any]) -> list[httpx.Response]:
    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(lambda call: call(), calls))


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    return make_url(request.param, request, tmp_path)


@pytest.fixture
def fast_site(database: str) -> Iterator[ServerThread]:
    options = {"seat_timeout": None, "rate_per_second": 1000, "burst": 1000, "account_limits": GENEROUS}
    with ServerThread(database, review_budget=FAST, review_processes=1, **options) as s:
        yield s


def test_one_player_s_many_reviews_do_not_go_before_another_player_s_one(fast_site: ServerThread) -> None:
    base = fast_site.base
    many = [seat for _ in range(3) for seat in finished_seats(base)]  # 12 seats
    (one, *_) = finished_seats(base, players=2)
    greedy, other = Player(base), Player(base)
    answers = all_at_once([lambda seat=seat: greedy.review(seat) for seat in many])  # 12 at once
    statuses = [r.json()["status"] if r.status_code == 200 else r.json()["error"]["code"] for r in answers]
    # At most one of them runs; the others wait in the queue with their place, or are refused (past
    # the ten one player may have waiting).
    assert statuses.count("working") <= 1 and statuses.count("done") == 0, statuses
    assert set(statuses) <= {"working", "queued", "too_many_reviews"}, statuses
    assert statuses.count("too_many_reviews") <= 1
    assert all(r.json()["position"] >= 1 for r in answers if r.status_code == 200 and r.json()["status"] == "queued")
    refused = [r for r in answers if r.status_code != 200]
    assert all(r.status_code == 429 for r in refused)
    # The other player's review is the next to start: position 1, ahead of the greedy player's.
    asked = other.review(one)
    assert asked.status_code == 200 and asked.json()["status"] == "queued" and asked.json()["position"] == 1
    # ... and it does start next (the queue's events, in order: not a clock).
    service = fast_site.app.state.reviews
    mine = (one[0], 0)
    deadline = time.monotonic() + 600
    while ("started", mine) not in [(kind, key) for kind, key, _ in service.events]:
        assert time.monotonic() < deadline, "the other player's review never started"
        time.sleep(0.1)
    events = list(service.events)
    queued_at = next(i for i, (kind, key, _) in enumerate(events) if kind == "queued" and key == mine)
    first_start_after = next(e for e in events[queued_at + 1 :] if e[0] == "started")
    assert first_start_after[1] == mine, events
    greedy_started = sum(1 for kind, key, _ in events if kind == "started" and key != mine)
    assert greedy_started <= 2, events  # the one running when it was asked for, and at most one before
    assert other.review(one, "GET").json()["status"] in ("working", "done")


@pytest.fixture
def slow_site(database: str) -> Iterator[ServerThread]:
    options = {"seat_timeout": None, "rate_per_second": 1000, "burst": 1000, "account_limits": GENEROUS}
    # two review workers; a queue of 13 reviews
    with ServerThread(database, review_budget=SLOW, review_processes=2, review_queue=13, **options) as s:
        yield s


def test_one_review_per_requester_positions_and_a_bounded_queue(slow_site: ServerThread) -> None:
    base = slow_site.base
    many = [seat for _ in range(3) for seat in finished_seats(base)]  # 12 seats
    guest_seats = finished_seats(base, players=2)
    others_seats = finished_seats(base)
    greedy, guest = Player(base), Player(base, signed_in=False)
    # One account: one review runs, although a second worker is free; the others wait, in order.
    first = greedy.review(many[0]).json()
    assert first["status"] == "working" and "position" not in first
    for place, seat in enumerate(many[1:11], start=1):
        body = greedy.review(seat).json()
        assert (body["status"], body["position"]) == ("queued", place)
    # Past ten waiting, that player is refused with the reason; nothing is queued for it.
    r = greedy.review(many[11])
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_reviews"
    assert greedy.review(many[11], "GET").json()["status"] == "none"
    # A guest (its address) takes the free worker; its second review waits behind the account's next.
    assert guest.review(guest_seats[0]).json()["status"] == "working"
    body = guest.review(guest_seats[1]).json()
    assert (body["status"], body["position"]) == ("queued", 2)
    assert greedy.review(many[1], "GET").json()["position"] == 1
    # 11 wait, the queue holds 13: of four players asking at once, two are queued, ahead of the
    # others (they never had a review), and two are refused because the queue is full.
    others = [Player(base) for _ in range(4)]
    answers = all_at_once([lambda p=p, seat=seat: p.review(seat) for p, seat in zip(others, others_seats)])
    queued = [r.json() for r in answers if r.status_code == 200]
    refused = [r for r in answers if r.status_code != 200]
    assert sorted(body["position"] for body in queued) == [1, 2] and all(b["status"] == "queued" for b in queued)
    assert len(refused) == 2
    for r in refused:
        assert r.status_code == 503 and r.json()["error"]["code"] == "review_queue_full"
        assert "queue is full" in r.json()["error"]["message"]
    for p, seat, r in zip(others, others_seats, answers):
        if r.status_code != 200:
            assert p.review(seat, "GET").json()["status"] == "none"  # nothing was queued for them
    # The account's queued reviews moved back two places.
    assert greedy.review(many[1], "GET").json()["position"] == 3
    service = slow_site.app.state.reviews
    assert len(service.running) == 2 and len(service.waiting) == 13
