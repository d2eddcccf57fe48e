"""Swiss tournaments on a real server (SQLite and PostgreSQL): making one and its refusals, signing up
and withdrawing (with real concurrent requests), and whole tournaments from sign-up to the final
standings, played by the site's substitute bots (bot delay 0) with nobody touching the server: the
test only moves the tournaments' clock past the start."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest

from parlor.server.accounts import csrf_token, fold_name
from parlor.server.accounts.names import skeleton_key
from parlor.server.limits import Limits
from parlor.server.table import hash_token
from parlor.server.tournaments import TournamentClock

from .conftest import BACKENDS, ServerThread, make_url
from .test_accounts import GENEROUS, Browser, fresh_name, signed_up

AT_ONCE = 12
LIMITS = Limits(min_turn_time=0.1, rated_substitute_level="random")


@pytest.fixture(scope="module", params=BACKENDS)
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    clock = TournamentClock()
    # seat_timeout 0: a seat nobody opens is played by the substitute at once (the tournament's
    # tables let a bot play a seat whose player never came).
    with ServerThread(
        url, seat_timeout=0.0, account_limits=GENEROUS, limits=LIMITS, tournament_clock=clock, tournament_scan=0.05
    ) as s:
        s.clock = clock  # type: ignore[attr-defined]
        yield s


def starts_in(site: ServerThread, seconds: float) -> str:
    return (site.clock.now() + timedelta(seconds=seconds)).isoformat()  # type: ignore[attr-defined]


def new_tournament(b: Browser, site: ServerThread, **fields: Any) -> dict[str, Any]:
    body = {"name": "Friday Swiss", "game": "mottainai", "players": 2, "starts_at": starts_in(site, 3600),
            "rounds": 3, "turn_time": 30, "rated": False, "max_players": 16} | fields  # fmt: skip
    r = b.post("/api/tournaments", body)
    assert r.status_code == 201, r.text
    return r.json()


def show(site: ServerThread, tournament_id: str, b: Browser | None = None) -> dict[str, Any]:
    http = b.http if b is not None else httpx.Client(base_url=site.base, timeout=60)
    r = http.get(f"/api/tournaments/{tournament_id}")
    assert r.status_code == 200, r.text
    return r.json()


def refused(r: httpx.Response, status: int, code: str, field: str | None = None) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text
    if field is not None:
        assert r.json()["error"]["field"] == field


def at_once(clients: list[tuple[Browser, str]]) -> list[httpx.Response]:
    """Each (browser, path) posted from a client of its own, all released together."""
    barrier = threading.Barrier(len(clients))
    answers: list[httpx.Response] = []

    def one(b: Browser, path: str) -> None:
        with httpx.Client(base_url=str(b.http.base_url), cookies=dict(b.http.cookies), timeout=60) as http:
            barrier.wait()
            answers.append(http.post(path, json={}, headers={"X-CSRF-Token": b.csrf}))

    threads = [threading.Thread(target=one, args=c) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def wait_for(site: ServerThread, tournament_id: str, status: str, deadline: float = 300.0) -> dict[str, Any]:
    """Poll the tournament until it reaches ``status`` (a generous deadline; never a fixed sleep)."""
    end = time.monotonic() + deadline
    while True:
        t = show(site, tournament_id)
        if t["status"] == status:
            return t
        assert time.monotonic() < end, f"the tournament is still {t['status']} (round {t['current_round']})"
        time.sleep(0.1)


def test_bad_tournaments_are_refused_and_change_nothing(site: ServerThread) -> None:
    b, _ = signed_up(site.base)
    before = httpx.get(f"{site.base}/api/tournaments", timeout=60).json()
    good = {"name": "Cup", "game": "mottainai", "players": 2, "starts_at": starts_in(site, 600), "rounds": 3,
            "turn_time": 30, "rated": True, "max_players": 8}  # fmt: skip
    anonymous = httpx.post(f"{site.base}/api/tournaments", json=good, timeout=60)
    refused(anonymous, 401, "not_signed_in")
    refused(b.post("/api/tournaments", good | {"starts_at": starts_in(site, -60)}), 400, "start_in_past", "starts_at")
    refused(b.post("/api/tournaments", good | {"rounds": 8}), 400, "too_many_rounds", "rounds")  # 8 players: 7
    refused(b.post("/api/tournaments", good | {"game": "chess"}), 400, "unknown_game", "game")
    refused(b.post("/api/tournaments", good | {"players": 9}), 400, "bad_players", "players")
    refused(b.post("/api/tournaments", good | {"game": "sweet-nose", "players": 3, "rounds": 4}), 400,
            "too_many_rounds")  # fmt: skip
    refused(b.post("/api/tournaments", good | {"starts_at": "tomorrow"}), 400, "bad_request", "starts_at")
    refused(b.post("/api/tournaments", good | {"max_players": 1}), 400, "bad_request", "max_players")
    refused(b.post("/api/tournaments", good | {"move_days": 2}), 400, "bad_request", "move_days")
    refused(b.post("/api/tournaments", good | {"prize": 1}), 400, "bad_request", "prize")
    assert httpx.get(f"{site.base}/api/tournaments", timeout=60).json() == before
    made = new_tournament(b, site, **good)
    assert made["status"] == "upcoming" and made["rated"] is True and made["you"]["signed_up"] is False
    listed = httpx.get(f"{site.base}/api/tournaments", timeout=60).json()
    assert made["id"] in [t["id"] for t in listed["upcoming"]]
    refused(httpx.get(f"{site.base}/api/tournaments/nope", timeout=60), 404, "tournament_not_found")


def test_one_sign_up_each_however_many_race_and_none_past_the_limit(site: ServerThread) -> None:
    host, _ = signed_up(site.base)
    t = new_tournament(host, site, max_players=3, rounds=2)
    path = f"/api/tournaments/{t['id']}/sign-up"
    ann, ann_name = signed_up(site.base)
    answers = at_once([(ann, path)] * AT_ONCE)  # the same player, twelve times at once
    assert sorted(r.status_code for r in answers) == [200] + [409] * (AT_ONCE - 1)
    assert all(r.json()["error"]["code"] == "already_signed_up" for r in answers if r.status_code == 409)
    assert [e["name"] for e in show(site, t["id"])["entrants"]] == [ann_name]
    others = [b for b, _ in accounts(site, AT_ONCE)]  # twelve players race for the last two places
    answers = at_once([(o, path) for o in others])
    assert sorted(r.status_code for r in answers) == [200, 200] + [409] * (AT_ONCE - 2)
    assert {r.json()["error"]["code"] for r in answers if r.status_code == 409} == {"full"}
    assert len(show(site, t["id"])["entrants"]) == 3
    # Withdrawing before the start frees the place; a player not in it cannot withdraw.
    refused(host.post(f"/api/tournaments/{t['id']}/withdraw"), 409, "not_signed_up")
    assert ann.post(f"/api/tournaments/{t['id']}/withdraw").json() == {"signed_up": False, "withdrawn_round": None}
    assert len(show(site, t["id"])["entrants"]) == 2
    assert ann.post(path).status_code == 200
    refused(httpx.post(f"{site.base}/api/tournaments/nope/sign-up", timeout=60), 401, "not_signed_in")
    refused(ann.post("/api/tournaments/nope/sign-up"), 404, "tournament_not_found")


def test_sign_ups_close_at_the_start_time(site: ServerThread) -> None:
    host, _ = signed_up(site.base)
    t = new_tournament(host, site, starts_at=starts_in(site, 30), rounds=1)
    site.clock.advance(60)  # type: ignore[attr-defined]
    late, _ = signed_up(site.base)
    refused(late.post(f"/api/tournaments/{t['id']}/sign-up"), 409, "started")
    # Nobody signed up: at the start it is cancelled, not run.
    assert wait_for(site, t["id"], "cancelled")["entrants"] == []


def accounts(site: ServerThread, count: int) -> list[tuple[Browser, str]]:
    """Signed-in players, each account and session made in the site's database by the server's own
    account store, with the rows a sign-up writes, but one password hash for all: an argon2 hash
    each would cost a big field tens of seconds on a busy machine (signing up itself is tested in
    test_accounts.py; these accounts never sign in with a password)."""
    store = site.app.state.accounts.store
    out = []
    for _ in range(count):
        name, account_id, secret = fresh_name(), secrets.token_hex(16), secrets.token_urlsafe(32)
        store.create_account(account_id, name, fold_name(name), "(no password: made by the test)", skeleton_key(name))
        store.create_session(hash_token(secret), account_id, timedelta(days=1))
        b = Browser(site.base)
        b.http.cookies.set("parlor_session", secret, domain="127.0.0.1")
        b.csrf = csrf_token(secret)
        assert b.who()["name"] == name
        out.append((b, name))
    return out


def players(site: ServerThread, count: int, t: dict[str, Any]) -> list[tuple[Browser, str]]:
    out = accounts(site, count)
    for b, _ in out:
        assert b.post(f"/api/tournaments/{t['id']}/sign-up").status_code == 200
    return out


def check_rounds(done: dict[str, Any], names: list[str], per_table: int) -> None:
    """Every player once a round; no repeated opponents; points add up to the standings."""
    met: dict[str, set[str]] = {n: set() for n in names}
    total: dict[str, float] = dict.fromkeys(names, 0.0)
    for rnd in done["round_tables"]:
        seen = []
        for table in rnd["tables"]:
            seated = [s["name"] for s in table["seats"] if s is not None]
            seen.extend(seated)
            assert table["points"] is not None
            if table["bye"]:
                assert table["table_id"] is None and table["points"] == [1.0]
            else:
                assert len(table["seats"]) == per_table and table["table_id"]
                assert sum(table["points"]) == per_table * (per_table - 1) / 2  # points per place
                for s in seated:
                    assert not (met[s] & (set(seated) - {s})), "an opponent met twice"
                    met[s] |= set(seated) - {s}
            for s, p in zip(table["seats"], table["points"], strict=True):
                if s is not None:
                    total[s["name"]] += p
        assert sorted(seen) == sorted(names), "each player exactly once a round"
    assert {s["name"]: s["score"] for s in done["standings"]} == total
    scores = [(s["score"], s["buchholz"]) for s in done["standings"]]
    assert scores == sorted(scores, reverse=True)


def test_a_sixteen_player_swiss_of_mottainai_plays_itself_to_the_end(site: ServerThread) -> None:
    host, _ = signed_up(site.base)
    t = new_tournament(host, site, starts_at=starts_in(site, 3600), rounds=4, turn_time=0.5, rated=True)
    names = [n for _, n in players(site, 16, t)]
    site.clock.advance(7200)  # type: ignore[attr-defined]
    done = wait_for(site, t["id"], "finished")
    assert [r["round"] for r in done["round_tables"]] == [1, 2, 3, 4]
    assert all(len(r["tables"]) == 8 for r in done["round_tables"])
    check_rounds(done, names, 2)
    # Each table is an ordinary rated site table, over, with the tournament's clock, its seats the accounts'.
    table = httpx.get(f"{site.base}/api/tables/{done['round_tables'][0]['tables'][0]['table_id']}", timeout=60).json()
    assert table["status"] == "over" and table["rated"] is True and table["turn_time"] == 0.5
    assert all(s["account"] for s in table["seats"])


def test_byes_bot_seats_and_withdrawals_in_smaller_tournaments(site: ServerThread) -> None:
    host, _ = signed_up(site.base)
    # Mamma Mia, five players: one bye a round, never twice to one player.
    # Asked for 5 rounds (16 players would allow 15): the 5 who came allow 4, so 4 are played.
    mm = new_tournament(host, site, game="mamma-mia", starts_at=starts_in(site, 3600), rounds=5, turn_time=0.5)
    mm_players = players(site, 5, mm)
    # Sweet Nose at three, four players: two tables of two players and a bot.
    sn = new_tournament(host, site, game="sweet-nose", players=3, starts_at=starts_in(site, 3600), rounds=1,
                        max_players=4, turn_time=0.5)  # fmt: skip
    sn_players = players(site, 4, sn)
    sn_names = [n for _, n in sn_players]
    site.clock.advance(7200)  # type: ignore[attr-defined]
    # A player withdraws once the tournament runs: not paired any more, that game a loss.
    quitter, quitter_name = mm_players[0]
    running = wait_for(site, mm["id"], "running")
    assert quitter.post(f"/api/tournaments/{mm['id']}/withdraw").json()["withdrawn_round"] >= 1
    refused(quitter.post(f"/api/tournaments/{mm['id']}/sign-up"), 409, "started")
    done = wait_for(site, mm["id"], "finished")
    assert done["rounds"] == 4 and [r["round"] for r in done["round_tables"]] == [1, 2, 3, 4]
    assert running["status"] == "running"
    left_in = next(e["withdrawn_round"] for e in done["entrants"] if e["name"] == quitter_name)
    byes = [s["name"] for r in done["round_tables"] for tb in r["tables"] if tb["bye"] for s in tb["seats"]]
    assert len(byes) == len(set(byes)), "a bye given twice to one player"
    earned_before = 0.0  # what the quitter earned before the round they left in: all they keep
    for rnd in done["round_tables"]:
        for tb in rnd["tables"]:
            seated = [s["name"] if s else None for s in tb["seats"]]
            if quitter_name in seated:
                assert rnd["round"] <= left_in, "paired after withdrawing"
                if rnd["round"] < left_in:
                    earned_before += tb["points"][seated.index(quitter_name)]
    mine = next(s for s in done["standings"] if s["name"] == quitter_name)
    assert mine["withdrawn"] and mine["score"] == earned_before
    sn_done = wait_for(site, sn["id"], "finished")
    check_rounds(sn_done, sn_names, 3)
    (rnd,) = sn_done["round_tables"]
    assert [tb["seats"].count(None) for tb in rnd["tables"]] == [1, 1]  # two tables of two and a bot
    # Each player was told their round had begun, with their table (the in-app list; mail and push
    # go the same way, tests/server/test_notify.py).
    for b, name in sn_players:
        table_id = next(tb["table_id"] for tb in rnd["tables"] if name in [s and s["name"] for s in tb["seats"]])
        deadline = time.monotonic() + 120
        while not any(
            n["kind"] == "tournament_round" and n["table_id"] == table_id
            for n in b.http.get("/api/account/notifications").json()["notifications"]
        ):
            assert time.monotonic() < deadline, f"{name} was never told of the round"
            time.sleep(0.1)


def test_the_scan_records_a_game_end_nobody_heard(site: ServerThread) -> None:
    """A process stopped between a game's end and its record (here: the service does not hear the
    game end at all): the scheduler's scan reads the stored result and the tournament goes on."""
    service = site.app.state.tournaments
    host, _ = signed_up(site.base)
    t = new_tournament(host, site, game="mamma-mia", starts_at=starts_in(site, 3600), rounds=2, turn_time=0.5)
    players(site, 3, t)  # (three allow two rounds: a table and a bye each)
    service.hub.finished_hooks.remove(service.game_ended)
    try:
        site.clock.advance(7200)  # type: ignore[attr-defined]
        done = wait_for(site, t["id"], "finished")
    finally:
        service.hub.finished_hooks.append(service.game_ended)
    assert [len(r["tables"]) for r in done["round_tables"]] == [2, 2]
    assert all(tb["points"] is not None for r in done["round_tables"] for tb in r["tables"])
    assert sum(s["score"] for s in done["standings"]) == 4.0  # a game's point and a bye's, each round
