"""The REST lobby: games, creating tables, joining seats, tokens stored only as hashes."""

from __future__ import annotations

import hashlib

import httpx
from sqlalchemy import create_engine, text

from .conftest import create_table, token_of


def test_games_lists_every_game_with_ranges_options_and_bot_levels(server):
    r = httpx.get(server.base + "/api/games")
    assert r.status_code == 200
    data = r.json()
    games = {g["name"]: g for g in data["games"]}
    mm = games["mamma-mia"]
    assert mm["available"] and mm["title"] == "Mamma Mia!"
    assert (mm["min_players"], mm["max_players"]) == (2, 5)
    options = {o["name"]: o for o in mm["options"]}
    assert options["refill_mode"]["default"] == "fill"
    assert set(options["refill_mode"]["allowed"]) == {"fill", "up_to"}
    assert options["show_oven_history"]["type"] == "bool"
    assert {lvl["level"] for lvl in data["bot_levels"]} >= {"easy", "medium", "hard", "expert"}


def test_create_table_returns_tokens_once_and_a_public_summary(server):
    created = create_table(
        server.base,
        players=3,
        options={"refill_mode": "up_to"},
        seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}, {"kind": "human"}],
    )
    table = created["table"]
    assert table["status"] == "playing" and table["players"] == 3
    assert table["options"]["refill_mode"] == "up_to"
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "human"]
    assert table["seats"][0]["name"] == "Ann" and table["seats"][1]["level"] == "easy"
    # A seat's join link holds a one-time claim code, never the seat's token.
    claims = [created["seats"][0]["claim"], created["seats"][2]["claim"]]
    assert created["seats"][0]["join_path"] == f"/play/{table['id']}#claim={claims[0]}"
    assert "token" not in created["seats"][0] and "token" not in created["seats"][2]
    tokens = [token_of(created, 0), token_of(created, 2), created["spectator_token"]]
    assert len(set(tokens + claims)) == 5 and all(len(t) >= 32 for t in tokens)
    summary = httpx.get(f"{server.base}/api/tables/{table['id']}").json()
    assert summary["id"] == table["id"]
    text_of_summary = str(summary)
    assert "seed" not in summary and all(t not in text_of_summary for t in tokens)
    # The database holds only hashes of the tokens.
    engine = create_engine(server.database_url)
    with engine.connect() as conn:
        dump = str(conn.execute(text("SELECT * FROM parlor_seats")).fetchall())
        dump += str(conn.execute(text("SELECT * FROM parlor_tables")).fetchall())
    engine.dispose()
    assert all(t not in dump for t in tokens + claims)
    assert hashlib.sha256(tokens[0].encode()).hexdigest() in dump


def test_default_seats_are_you_and_medium_bots(server):
    created = create_table(server.base, players=4)
    kinds = [(s["kind"], s["level"]) for s in created["table"]["seats"]]
    assert kinds == [("human", None)] + [("bot", "medium")] * 3
    assert "claim" in created["seats"][0] and "claim" not in created["seats"][1]


def test_create_table_refuses_bad_requests_clearly(server):
    def post(body, raw=None):
        if raw is not None:
            return httpx.post(server.base + "/api/tables", content=raw, headers={"content-type": "application/json"})
        return httpx.post(server.base + "/api/tables", json=body)

    cases = [
        ({"game": "chess", "players": 2}, "unknown_game"),
        ({"game": "mamma-mia", "players": 9}, "bad_players"),
        ({"game": "mamma-mia", "players": 2, "options": {"nope": 1}}, "bad_options"),
        ({"game": "mamma-mia", "players": 2, "options": {"refill_mode": "sometimes"}}, "bad_options"),
        ({"game": "mamma-mia", "players": 3, "seats": [{"kind": "human"}]}, "bad_seats"),
        (
            {"game": "mamma-mia", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "god"}]},
            "bad_seats",
        ),
        ({"game": "mamma-mia", "players": 2, "seat_timeout": -1}, "bad_request"),
        ([1, 2], "bad_request"),
    ]
    for body, code in cases:
        r = post(body)
        assert r.status_code == 400, (body, r.text)
        assert r.json()["error"]["code"] == code, (body, r.text)
        assert r.json()["error"]["message"]
    r = post(None, raw=b"{not json")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"


def test_join_claims_a_seat_with_its_token_only(server):
    created = create_table(server.base, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    tid = created["table"]["id"]
    r = httpx.post(f"{server.base}/api/tables/{tid}/join", json={"token": token_of(created, 1), "name": "  Bob  "})
    assert r.status_code == 200
    assert r.json()["role"] == "seat" and r.json()["seat"] == 1
    seats = r.json()["table"]["seats"]
    assert seats[1]["name"] == "Bob" and seats[1]["joined"] and not seats[0]["joined"]
    r = httpx.post(f"{server.base}/api/tables/{tid}/join", json={"token": created["spectator_token"]})
    assert r.json()["role"] == "spectator" and r.json()["seat"] is None
    for bad in ("nope", "", None, token_of(create_table(server.base, players=2), 0)):
        r = httpx.post(f"{server.base}/api/tables/{tid}/join", json={"token": bad})
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
    r = httpx.post(f"{server.base}/api/tables/nosuchtable/join", json={"token": token_of(created, 0)})
    assert r.status_code == 404 and r.json()["error"]["code"] == "table_not_found"
    assert httpx.get(f"{server.base}/api/tables/nosuchtable").status_code == 404
