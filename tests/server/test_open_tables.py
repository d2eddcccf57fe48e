"""Open tables and quick play through a real server (SQLite and PostgreSQL): the lobby lists public
tables waiting for players, anyone sits down, private tables stay unlisted and closed, quick play
seats two players together, and a waiting table's empty seats become bots when its wait is over."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from .conftest import BACKENDS, Client, Race, ServerThread, against_a_short_timer, make_url
from .test_account_seats import first_frame
from .test_accounts import GENEROUS, Browser, fresh_name


@pytest.fixture(scope="module", params=BACKENDS)
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    with ServerThread(url, seat_timeout=None, account_limits=GENEROUS) as s:
        yield s


def lobby(site: ServerThread, game: str = "mamma-mia") -> dict:
    r = httpx.get(site.base + "/api/lobby", params={"game": game}, timeout=60)
    assert r.status_code == 200, r.text
    return r.json()


def ids(entries: list[dict]) -> list[str]:
    return [e["id"] for e in entries]


def test_a_public_table_is_listed_and_anyone_sits_down(site: ServerThread) -> None:
    host = Browser(site.base)
    name = fresh_name()
    assert host.sign_up(name).status_code == 201
    body = {"game": "mamma-mia", "players": 2, "public": True, "seats": [{"kind": "human"}, {"kind": "human"}]}
    created = host.post("/api/tables", body).json()
    table_id = created["table"]["id"]
    assert created["table"]["public"] is True
    private = host.post("/api/tables", {**body, "public": False}).json()["table"]["id"]
    assert host.post(f"/api/tables/{table_id}/claim", {"claim": created["seats"][0]["claim"]}).status_code == 200
    listed = lobby(site)
    assert table_id in ids(listed["waiting"]) and private not in ids(listed["waiting"] + listed["playing"])
    entry = next(e for e in listed["waiting"] if e["id"] == table_id)
    assert [(s["name"], s["open"]) for s in entry["seats"]] == [(name, False), (None, True)]
    assert "claim" not in str(entry) and "token" not in str(entry)  # no secret in the listing
    # A guest sits down (no account, no link): the open seat is theirs, with its own token.
    r = httpx.post(f"{site.base}/api/tables/{table_id}/sit", json={"name": "Guest Gail"}, timeout=60)
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 1
    with Client(site.base, table_id, r.json()["token"]) as guest:
        assert guest.welcome["seat"] == 1
    listed = lobby(site)
    assert table_id not in ids(listed["waiting"]) and table_id in ids(listed["playing"])  # full: to watch
    with Client(site.base, table_id, "") as watcher:  # anyone watches a public table, as a spectator
        assert watcher.welcome["role"] == "spectator" and watcher.state["your_turn"] is False
    frame, closed = first_frame(site, private, None)  # ...never a private one
    assert frame["code"] == "bad_token" and closed == 4403
    # Nobody else sits down: the table is full, the private one never takes anyone.
    r = httpx.post(f"{site.base}/api/tables/{table_id}/sit", json={}, timeout=60)
    assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken"
    r = httpx.post(f"{site.base}/api/tables/{private}/sit", json={}, timeout=60)
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_open"
    # The link of the seat the guest took no longer opens it.
    r = httpx.post(f"{site.base}/api/tables/{table_id}/claim", json={"claim": created["seats"][1]["claim"]})
    assert r.status_code == 403


def test_bad_sit_requests_change_nothing(site: ServerThread) -> None:
    body = {"game": "mamma-mia", "players": 2, "public": True, "seats": [{"kind": "human"}, {"kind": "bot"}]}
    table_id = httpx.post(site.base + "/api/tables", json=body, timeout=60).json()["table"]["id"]
    for sit, code in [({"seat": 1}, "seat_taken"), ({"seat": 7}, "bad_seat"), ({"seat": "0"}, "bad_seat"),
                      ({"name": "a\u0007b"}, "bad_request")]:  # fmt: skip
        r = httpx.post(f"{site.base}/api/tables/{table_id}/sit", json=sit, timeout=60)
        assert r.json()["error"]["code"] == code, (sit, r.text)
    assert table_id in ids(lobby(site)["waiting"])
    for create, field in [({"public": "yes"}, "public"), ({"fill_bots_after": 5}, "fill_bots_after")]:
        r = httpx.post(site.base + "/api/tables", json={"game": "mamma-mia", **create}, timeout=60)
        assert r.status_code == 400 and r.json()["error"]["field"] == field


def test_quick_play_seats_two_waiting_players_together(site: ServerThread) -> None:
    ann, bob = Browser(site.base), Browser(site.base)
    assert ann.sign_up(fresh_name()).status_code == 201 and bob.sign_up(fresh_name()).status_code == 201
    first = ann.post("/api/quick-play", {"game": "mottainai", "players": 2})
    assert first.status_code == 200, first.text
    assert first.json()["created"] is True and first.json()["seat"] == 0
    table_id = first.json()["table_id"]
    # The same account asking again is not seated against itself: a table of its own.
    again = ann.post("/api/quick-play", {"game": "mottainai", "players": 2})
    assert again.json()["table_id"] != table_id
    second = bob.post("/api/quick-play", {"game": "mottainai", "players": 2})
    assert second.status_code == 200, second.text
    assert (second.json()["table_id"], second.json()["seat"], second.json()["created"]) == (table_id, 1, False)
    summary = httpx.get(f"{site.base}/api/tables/{table_id}", timeout=60).json()
    assert summary["quick"] is True and all(s["account"] for s in summary["seats"])
    a_token, b_token = first.json()["token"], second.json()["token"]
    with Client(site.base, table_id, a_token) as a, Client(site.base, table_id, b_token) as b:
        assert {a.welcome["seat"], b.welcome["seat"]} == {0, 1}
    r = bob.post("/api/quick-play", {"game": "mottainai", "players": 2, "rated": "no"})
    assert r.status_code == 400
    r = httpx.post(site.base + "/api/quick-play", json={"game": "mottainai", "players": 2, "rated": True}, timeout=60)
    assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in"


def test_a_quick_table_fills_with_bots_when_its_wait_is_over(site: ServerThread) -> None:
    r = httpx.post(
        site.base + "/api/quick-play",
        json={"game": "sweet-nose", "players": 3, "fill_bots_after": 0.5, "name": "Early Bird"},
        timeout=60,
    )
    assert r.status_code == 200, r.text
    with Client(site.base, r.json()["table_id"], r.json()["token"]) as me:
        seats = me.next(lambda f: f["type"] == "seats" and all(s["kind"] == "bot" for s in f["seats"][1:]), 120)
        assert seats["seats"][0]["name"] == "Early Bird" and seats["seats"][0]["kind"] == "human"
        assert r.json()["table_id"] not in ids(lobby(site, "sweet-nose")["waiting"])
        me.wait_turn_or_over(120)  # the bots play: the game goes on


# Seconds a test table waits for players: short, since the test waits the whole wait for the bots;
# the next length only if the machine was too slow to take the test's first steps within it.
WAITS = (2.0, 6.0, 15.0)


def test_standing_up_frees_the_seat_and_starts_the_wait_for_bots_again(site: ServerThread) -> None:
    """A seated player leaves a public table still waiting for players: the seat is open again (listed,
    nameless), their connection is closed and their token opens nothing; the table's wait for bots
    starts again from the stand-up, and the bots come at the new moment, not at the first one."""
    against_a_short_timer(lambda wait, race: stand_up_and_wait_again(site, wait, race), WAITS)


def open_public_table(site: ServerThread, wait: float) -> dict:
    """A public Mamma Mia! table of three, nobody seated, that fills its empty seats with bots after
    ``wait`` seconds (the server's summary of it)."""
    seats = [{"kind": "human"}] * 3
    body = {"game": "mamma-mia", "players": 3, "public": True, "fill_bots_after": wait, "seats": seats}
    created = httpx.post(site.base + "/api/tables", json=body, timeout=60)
    assert created.status_code == 201, created.text
    return created.json()["table"]


def stand_up_and_wait_again(site: ServerThread, wait: float, race: Race) -> None:
    table_id = open_public_table(site, wait)["id"]
    race.due = time.time() + wait  # (at the latest: the wait started before the answer)
    [entry] = [e for e in lobby(site)["waiting"] if e["id"] == table_id]
    first_fill = datetime.fromisoformat(entry["fill_bots_at"])
    sat = [httpx.post(f"{site.base}/api/tables/{table_id}/sit", json={"name": n}, timeout=60) for n in ("Ann", "Bo")]
    assert [r.status_code for r in sat] == [200, 200], [r.text for r in sat]
    (ann_seat, ann_token), (bo_seat, bo_token) = [(r.json()["seat"], r.json()["token"]) for r in sat]
    with Client(site.base, table_id, ann_token) as ann, Client(site.base, table_id, bo_token) as bo:
        left = httpx.post(f"{site.base}/api/tables/{table_id}/stand-up", json={"token": bo_token}, timeout=60)
        assert left.status_code == 200, left.text
        new_fill = datetime.fromisoformat(left.json()["fill_bots_at"])
        race.due = new_fill.timestamp()
        assert new_fill > first_fill
        with pytest.raises(ConnectionClosed):
            bo.next(lambda f: False, timeout=60)
        assert bo.ws.close_code == 4403
        [entry] = [e for e in lobby(site)["waiting"] if e["id"] == table_id]
        assert entry["seats"][bo_seat] == {**entry["seats"][bo_seat], "open": True, "name": None, "account": False}
        assert datetime.fromisoformat(entry["fill_bots_at"]) == new_fill
        for again in ({"token": bo_token}, {}, {"token": "not a token"}):
            r = httpx.post(f"{site.base}/api/tables/{table_id}/stand-up", json=again, timeout=60)
            assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token", (again, r.text)
        race.won = True
        # The bots take the open seats once the new wait is over, not when the first one would have been.
        filled = ann.next(
            lambda f: f["type"] == "seats" and all(s["kind"] == "bot" for s in f["seats"] if s["seat"] != ann_seat),
            timeout=wait + 120,
        )
        assert datetime.now(UTC) >= new_fill
        assert filled["seats"][ann_seat]["name"] == "Ann"
        # Once the game is on, standing up is refused: leaving then is leaving the game.
        r = httpx.post(f"{site.base}/api/tables/{table_id}/stand-up", json={"token": ann_token}, timeout=60)
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_waiting", r.text


def summary_of(site: ServerThread, table_id: str) -> dict:
    r = httpx.get(f"{site.base}/api/tables/{table_id}", timeout=60)
    assert r.status_code == 200, r.text
    return r.json()


def test_the_wait_for_bots_is_told_and_starts_again_for_whoever_sits_down_after_it_ran_out(site: ServerThread) -> None:
    """Everyone at a public table may know when its empty seats become bots: the summary (so the
    welcome), the `seats` frames and the lobby's entry give the seconds left (`fill_bots_in`). When
    that wait runs out while nobody sits there, no bots come (a table of bots alone is nobody's
    game) and no countdown is given; whoever sits down then gets the whole wait again, and the bots
    come when it is over."""
    against_a_short_timer(lambda wait, race: wait_out_then_sit(site, wait, race), (1.5, 5.0, 15.0))


def wait_out_then_sit(site: ServerThread, wait: float, race: Race) -> None:
    table = open_public_table(site, wait)
    race.due = time.time() + wait  # (at the latest: the wait started before the answer)
    table_id = table["id"]
    assert 0 < table["fill_bots_in"] <= wait
    [entry] = [e for e in lobby(site)["waiting"] if e["id"] == table_id]
    assert 0 <= entry["fill_bots_in"] <= wait
    # The wait runs out with nobody seated: the seats stay open, the table waits on.
    deadline = time.monotonic() + 120
    while summary_of(site, table_id)["fill_bots_in"] is not None:
        assert time.monotonic() < deadline, "the wait for bots never ran out"
        time.sleep(0.05)
    race.due = None  # it ran out as it should: a failure from here to the next wait is the server's
    # (and no countdown is shown for it: there is none until someone sits down)
    table = summary_of(site, table_id)
    assert [s["open"] for s in table["seats"]] == [True] * 3 and table["fill_bots_in"] is None
    [entry] = [e for e in lobby(site)["waiting"] if e["id"] == table_id]
    assert entry["fill_bots_in"] is None
    # Someone sits down: a whole new wait, told to them, then bots.
    sat = httpx.post(f"{site.base}/api/tables/{table_id}/sit", json={"name": "Late Lou"}, timeout=60)
    assert sat.status_code == 200, sat.text
    race.due = time.time() + wait
    assert summary_of(site, table_id)["fill_bots_in"] > 0
    with Client(site.base, table_id, sat.json()["token"]) as lou:
        assert lou.welcome["table"]["fill_bots_in"] > 0
        race.won = True
        filled = lou.next(lambda f: f["type"] == "seats" and all(s["kind"] == "bot" for s in f["seats"][1:]), 120)
        assert filled["fill_bots_in"] is None and filled["seats"][0]["name"] == "Late Lou"
    assert summary_of(site, table_id)["fill_bots_in"] is None
    assert table_id not in ids(lobby(site)["waiting"])
