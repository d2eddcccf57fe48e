"""Ratings through a real server (SQLite and PostgreSQL): two accounts play a rated game to its end,
both ratings move (the winner's up, the loser's down), the leaderboard and both profiles show it, with
a replay link that works; unrated games and games against bots move nothing."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from .conftest import BACKENDS, Client, ServerThread, make_url
from .test_account_seats import first_frame
from .test_accounts import GENEROUS, Browser, engine_of, signed_up


@pytest.fixture(scope="module", params=BACKENDS)
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    # A player away is played by a substitute at once: rated tables take the site's seat timeout.
    with ServerThread(url, seat_timeout=0, account_limits=GENEROUS, rate_per_second=1000, burst=1000) as s:
        yield s


def play_to_the_end(site: ServerThread, table_id: str, tokens: list[str]) -> dict[str, Any]:
    clients = [Client(site.base, table_id, t) for t in tokens]
    try:
        while True:
            for c in clients:
                c.drain()
            if clients[0].state["over"]:
                return clients[0].state
            mover = next((c for c in clients if c.state["your_turn"]), None)
            if mover is None:  # the next state, on whichever connection it comes first
                deadline = time.monotonic() + 60
                while not any(c.state["your_turn"] or c.state["over"] for c in clients):
                    assert time.monotonic() < deadline, "no state came"
                    for c in clients:
                        with contextlib.suppress(TimeoutError):
                            c.next_state(0.2)
                continue
            assert mover.act(mover.state["legal"][-1]["id"])["type"] == "ack"
    finally:
        for c in clients:
            c.close()


def profile(site: ServerThread, name: str) -> dict[str, Any]:
    r = httpx.get(f"{site.base}/api/players/{name}", timeout=60)
    assert r.status_code == 200, r.text
    return r.json()


def rated_game_of(site: ServerThread, name: str, table_id: str) -> dict[str, Any]:
    """The profile's entry for a table once its rating change is stored (applied after the game ends)."""
    deadline = time.monotonic() + 120
    while True:
        entry = next((g for g in profile(site, name)["games"] if g["table_id"] == table_id), None)
        if entry is not None and "rating_after" in entry:
            return entry
        assert time.monotonic() < deadline, f"no rating stored for {table_id}"
        time.sleep(0.1)


def table_for_two(host: Browser, guest: Browser, rated: bool, **more: Any) -> tuple[str, list[str]]:
    body = {"game": "mamma-mia", "players": 2, "public": True, "rated": rated, "seats": [{"kind": "human"}] * 2}
    body.update(more)
    created = host.post("/api/tables", body).json()
    table_id = created["table"]["id"]
    first = host.post(f"/api/tables/{table_id}/claim", {"claim": created["seats"][0]["claim"]})
    second = guest.post(f"/api/tables/{table_id}/sit", {})
    assert first.status_code == 200 and second.status_code == 200, (first.text, second.text)
    return table_id, [first.json()["token"], second.json()["token"]]


def test_a_rated_game_moves_both_ratings_and_shows_on_the_profiles(site: ServerThread) -> None:
    (ann, ann_name), (bob, bob_name) = signed_up(site.base), signed_up(site.base)
    table_id, tokens = table_for_two(ann, bob, rated=True)
    final = play_to_the_end(site, table_id, tokens)
    places = final["result"]["places"]
    entries = {n: rated_game_of(site, n, table_id) for n in (ann_name, bob_name)}
    for seat, n in enumerate((ann_name, bob_name)):
        e = entries[n]
        assert e["seat"] == seat and e["place"] == places[seat] and e["rated"] and not e["abandoned"]
        assert e["rating_after"] != e["rating_before"]
        page = profile(site, n)
        rating = next(r for r in page["ratings"] if r["game"] == "mamma-mia")
        assert rating["players_class"] == "2" and rating["games"] == 1 and rating["sigma"] < 25 / 3
        # On the display scale: from 1500, provisional after one game; the change is the history's.
        assert rating["provisional"] is True and rating["display"] == e["display_after"]
        assert e["display_before"] == 1500 and e["change"] == e["display_after"] - 1500
        assert [(h["table_id"], h["display"]) for h in page["history"]] == [(table_id, e["display_after"])]
        assert page["stats"] == [{"game": "mamma-mia", "played": 1, "won": int(e["won"]), "win_rate": float(e["won"])}]
        other = (bob_name, ann_name)[seat]
        assert [(o["name"], o["kind"], o["account"]) for o in e["opponents"]] == [(other, "human", True)]
        assert e["score"] == final["result"]["scores"][seat]
        # The replay link works.
        assert httpx.get(site.base + e["replay"], timeout=60).status_code == 200
        assert httpx.get(f"{site.base}/api/tables/{table_id}/replay", timeout=60).status_code == 200
    # "Rematch": play again invites the same players; each account opens its seat there by signing in.
    again = httpx.post(f"{site.base}/api/tables/{table_id}/play-again", json={"token": tokens[0]}, timeout=60)
    assert again.status_code == 200, again.text
    rematch = again.json()["table_id"]
    code = again.json()["join_path"].split("#claim=")[1]  # Ann's own new link, opened signed in
    assert ann.post(f"/api/tables/{rematch}/claim", {"claim": code}).status_code == 200
    seats = httpx.get(f"{site.base}/api/tables/{rematch}", timeout=60).json()["seats"]
    assert [(s["name"], s["account"]) for s in seats] == [(ann_name, True), (bob_name, True)]
    for seat, b in enumerate((ann, bob)):
        assert [(t["id"], t["your_seat"]) for t in b.http.get("/api/account/tables").json()["tables"]] == [
            (rematch, seat)
        ]
        welcome, _ = first_frame(site, rematch, b.http.cookies.get("parlor_session"))
        assert welcome["type"] == "welcome" and welcome["seat"] == seat
    # The result's rating changes, for every rated seat, as the players' pages say.
    changes = httpx.get(f"{site.base}/api/tables/{table_id}/ratings", timeout=60).json()
    assert changes["rated"] and changes["done"] and changes["over"]
    assert [(c["seat"], c["name"], c["before"], c["change"], c["provisional"]) for c in changes["seats"]] == [
        (seat, n, 1500, entries[n]["change"], True) for seat, n in enumerate((ann_name, bob_name))
    ]
    # The signed-in player's own place on the board.
    board = ann.http.get("/api/leaderboard", params={"game": "mamma-mia", "players": "2"}).json()
    mine = next(r for r in board["ratings"] if r["name"] == ann_name)
    assert board["you"]["place"] == mine["place"] and board["you"]["display"] == mine["display"]
    if places[0] != places[1]:
        winner, loser = (ann_name, bob_name) if places[0] < places[1] else (bob_name, ann_name)
        assert entries[winner]["rating_after"] > entries[winner]["rating_before"]
        assert entries[loser]["rating_after"] < entries[loser]["rating_before"]
        board = httpx.get(site.base + "/api/leaderboard", params={"game": "mamma-mia", "players": "2"}).json()
        names = [r["name"] for r in board["ratings"]]
        assert names.index(winner) < names.index(loser)


def test_unrated_games_and_games_against_bots_move_no_rating(site: ServerThread) -> None:
    (ann, ann_name), (bob, _) = signed_up(site.base), signed_up(site.base)
    table_id, tokens = table_for_two(ann, bob, rated=False)
    play_to_the_end(site, table_id, tokens)
    # A rated game against a bot: the account is the only rated seat, nothing moves.
    body = {"game": "mamma-mia", "players": 2, "rated": True,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]}  # fmt: skip
    created = ann.post("/api/tables", body).json()
    bot_table = created["table"]["id"]
    token = ann.post(f"/api/tables/{bot_table}/claim", {"claim": created["seats"][0]["claim"]}).json()["token"]
    play_to_the_end(site, bot_table, [token])
    # The profile lists both finished games (the list is read when asked: both are stored by now).
    games = {g["table_id"]: g for g in profile(site, ann_name)["games"]}
    assert set(games) == {table_id, bot_table}
    assert all("rating_after" not in g for g in games.values())
    # The bot is named as a bot, with its level, in the history (never "Player 2").
    bot = games[bot_table]["opponents"]
    assert [{k: o[k] for k in ("seat", "kind", "level", "account")} for o in bot] == [
        {"seat": 1, "kind": "bot", "level": "random", "account": False}
    ]
    assert profile(site, ann_name)["ratings"] == []


def test_a_player_who_leaves_a_rated_game_counts_last(site: ServerThread) -> None:
    (ann, ann_name), (bob, bob_name) = signed_up(site.base), signed_up(site.base)
    table_id, tokens = table_for_two(ann, bob, rated=True)
    Client(site.base, table_id, tokens[1]).close()  # Bob opens the table and leaves: a bot plays for him
    final = play_to_the_end(site, table_id, [tokens[0]])
    assert final["over"]
    ann_entry, bob_entry = rated_game_of(site, ann_name, table_id), rated_game_of(site, bob_name, table_id)
    assert bob_entry["abandoned"] is True and ann_entry["abandoned"] is False
    # Whatever the board said, the leaver lost: his rating went down, Ann's up.
    assert bob_entry["rating_after"] < bob_entry["rating_before"]
    assert ann_entry["rating_after"] > ann_entry["rating_before"]


def test_leaderboard_and_profile_refusals(site: ServerThread) -> None:
    assert httpx.get(site.base + "/api/leaderboard", timeout=60).json()["error"]["code"] == "unknown_game"
    r = httpx.get(site.base + "/api/leaderboard", params={"game": "mamma-mia", "players": "7"}, timeout=60)
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "bad_players_class"
    r = httpx.get(site.base + "/api/leaderboard", params={"game": "no-such-game", "players": "2"}, timeout=60)
    assert r.status_code == 400 and r.json()["error"]["code"] == "unknown_game"
    assert "mamma-mia" in r.json()["error"]["message"]
    r = httpx.get(site.base + "/api/tables/no-such-table/ratings", timeout=60)
    assert r.status_code == 404 and r.json()["error"]["code"] == "table_not_found"
    r = httpx.get(site.base + "/leaderboard", timeout=60)  # the page, not a JSON 404
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    r = httpx.get(site.base + "/api/players/nobody-by-this-name", timeout=60)
    assert r.status_code == 404 and r.json()["error"]["code"] == "player_not_found"


def rate(site: ServerThread, name: str, mu: float, game: str = "mamma-mia", players_class: str = "2") -> None:
    """Give an account a rating (as many rated games would), straight into the site's database."""
    engine = engine_of(site)
    with engine.begin() as conn:
        account = conn.execute(sa.text("SELECT id FROM parlor_accounts WHERE name = :n"), {"n": name}).scalar()
        conn.execute(
            sa.text(
                "INSERT INTO parlor_ratings (account_id, game, players_class, mu, sigma, games, updated_at) "
                "VALUES (:a, :g, :c, :mu, 2.0, 10, :at)"
            ),
            {"a": account, "g": game, "c": players_class, "mu": mu, "at": datetime.now(UTC)},
        )
    engine.dispose()


def test_rated_quick_play_pairs_near_ratings_and_the_range_widens_with_the_wait(site: ServerThread) -> None:
    """Four players ask for rated quick play at once, two rated near 1500 and two near 6750 (a gap a
    table's window crosses only after minutes of waiting): two tables, each of one pair. A table that
    has waited long enough takes a player of any rating; asking for the window of no such table, or of
    one that is not rated quick play, gets a clear error."""
    players = [signed_up(site.base) for _ in range(4)]
    for (_, name), mu in zip(players, (25.0, 26.0, 150.0, 151.0), strict=True):
        rate(site, name, mu)
    start = threading.Barrier(len(players))

    def ask(player: tuple[Browser, str]) -> dict[str, Any]:
        start.wait()
        r = player[0].post(
            "/api/quick-play", {"game": "mamma-mia", "players": 2, "rated": True, "fill_bots_after": None}
        )
        assert r.status_code == 200, r.text
        return r.json()

    with ThreadPoolExecutor(len(players)) as pool:
        answers = list(pool.map(ask, players))
    tables = [a["table_id"] for a in answers]
    assert tables[0] == tables[1] and tables[2] == tables[3] and tables[0] != tables[2], tables
    # Each table's window is centred on its pair, and says how long it has waited.
    window = httpx.get(f"{site.base}/api/tables/{tables[0]}/quick-range", timeout=60).json()
    assert window["centre"] == 1521 and window["high"] - window["low"] == 2 * window["range"]
    # A far player's new table (the two others are full), made to have waited ten minutes: a near
    # player now fits it.
    (loner, _), (late, _) = players[2], players[0]
    lonely = loner.post("/api/quick-play", {"game": "mamma-mia", "players": 2, "rated": True, "fill_bots_after": None})
    assert lonely.json()["created"] is True
    engine = engine_of(site)
    with engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE parlor_tables SET created_at = :at WHERE id = :id"),
            {"at": datetime.now(UTC) - timedelta(minutes=10), "id": lonely.json()["table_id"]},
        )
    engine.dispose()
    joined = late.post("/api/quick-play", {"game": "mamma-mia", "players": 2, "rated": True, "fill_bots_after": None})
    assert joined.json()["table_id"] == lonely.json()["table_id"] and joined.json()["created"] is False
    # Bad asks: a clear error, nothing opened.
    r = httpx.get(f"{site.base}/api/tables/no-such-table/quick-range", timeout=60)
    assert r.status_code == 404 and r.json()["error"]["code"] == "table_not_found"
    unrated = httpx.post(site.base + "/api/quick-play", json={"game": "mamma-mia", "players": 2}, timeout=60).json()
    r = httpx.get(f"{site.base}/api/tables/{unrated['table_id']}/quick-range", timeout=60)
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_rated_quick"
