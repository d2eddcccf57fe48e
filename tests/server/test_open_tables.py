"""Open tables and quick play through a real server (SQLite and PostgreSQL): the lobby lists public
tables waiting for players, anyone sits down, private tables stay unlisted and closed, quick play
seats two players together, and a waiting table's empty seats become bots when its wait is over."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from .conftest import BACKENDS, Client, ServerThread, make_url
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
