"""Attacks on the server, each reproduced against a real server (SQLite and PostgreSQL) and refused."""

from __future__ import annotations

import json
import socket
import sqlite3
import time

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from parlor.server.limits import Limits
from parlor.server.storage import Database

from .conftest import BACKENDS, Client, ServerProcess, ServerThread, create_table, make_url, sync_state, token_of

HUMANS2 = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture(scope="module", params=BACKENDS)
def tight(request, tmp_path_factory):
    """A server with small limits, so that each one is reached quickly."""
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    limits = Limits(
        max_queue_bytes=256 * 1024,
        max_connections_per_table=6,
        syncs_per_table_per_second=5,
        syncs_per_address_per_second=50,
        body_timeout=1.0,
        idle_timeout=2.0,
        max_decisions=30,
        unjoined_table_ttl=1.0,
        tables_per_address_per_minute=1e6,
        max_unfinished_tables_per_address=10**6,
    )
    with ServerThread(url, seat_timeout=None, rate_per_second=1000, burst=1000, limits=limits) as s:
        yield s


@pytest.fixture(scope="module", params=BACKENDS)
def roomy(request, tmp_path_factory):
    """A server with the ordinary limits, for whole games: the tight one's 2 s idle limit closes a player
    who waits on a loaded machine longer than that for a bot's move."""
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    limits = Limits(tables_per_address_per_minute=1e6, max_unfinished_tables_per_address=10**6)
    with ServerThread(url, seat_timeout=None, rate_per_second=1000, burst=1000, limits=limits) as s:
        yield s


def raw_http(port: int, data: bytes, wait: float = 5.0) -> bytes:
    """Send raw bytes to the server and read what comes back until one whole response has come, the
    server closes the connection, or ``wait`` passes. (A server that answers and keeps the connection
    open would otherwise cost the whole ``wait`` for nothing.)"""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(data)
        out = b""
        try:
            while not whole_response(out) and (chunk := sock.recv(65536)):
                out += chunk
        except (TimeoutError, ConnectionResetError):
            pass
        return out


def whole_response(data: bytes) -> bool:
    """Whether ``data`` holds a whole HTTP/1.1 response: its head and the body its head announces (a body
    of no announced length ends when the server closes). Only the length is read, by hand: these tests
    send malformed requests on a raw socket, which no HTTP client library would send for them."""
    head, sep, body = data.partition(b"\r\n\r\n")
    if not sep:
        return False
    fields = {
        name.strip(): value.strip()
        for name, _, value in (line.partition(b":") for line in head.lower().split(b"\r\n")[1:])
    }
    if fields.get(b"transfer-encoding") == b"chunked":
        return body.endswith(b"0\r\n\r\n")
    return b"content-length" in fields and len(body) >= int(fields[b"content-length"])


def status_and_json(response: bytes) -> tuple[int, dict]:
    head, _, body = response.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1])
    if b"transfer-encoding: chunked" in head.lower():  # one chunk is enough for an error body
        body = body.split(b"\r\n", 1)[1].rsplit(b"\r\n0\r\n", 1)[0]
    return status, json.loads(body)


# ---------------------------------------------------------------- 1. sync storms, slow readers, caps
def test_sync_is_served_from_the_cache_and_throttled_per_table(tight):
    created = create_table(tight.base, players=2, seats=HUMANS2)
    tid = created["table"]["id"]
    with Client(tight.base, tid, token_of(created, 0)) as a, Client(tight.base, tid, created["spectator_token"]) as s:
        first = sync_state(a)
        assert sync_state(a) == first  # the same change: the same frame
        for _ in range(30):  # far more than 5 a second (burst 10) from two connections on one table
            a.send({"type": "sync"})
            s.send({"type": "sync"})
        # A connection's frames are answered in order: once a ping's pong is back, so is every sync's answer.
        a.request({"type": "ping"})
        s.request({"type": "ping"})
        limited = [f for f in a.frames + s.frames if f["type"] == "error" and f["code"] == "rate_limited"]
        served = [f for f in a.frames + s.frames if f["type"] == "state" and f["cause"] == "sync"]
        assert limited and len(served) < 40
        assert a.request({"type": "ping"})["type"] == "pong"  # still healthy


def test_a_reader_that_never_reads_is_dropped_not_buffered(tight):
    created = create_table(tight.base, players=2, seats=HUMANS2)
    tid = created["table"]["id"]
    url = tight.base.replace("http://", "ws://") + f"/ws/tables/{tid}?token={created['spectator_token']}"
    with connect(url, max_size=1 << 22, open_timeout=60) as ws:
        # Send syncs but never read: the frames pile up in the server until its byte budget is spent.
        closed = None
        for _ in range(400):
            try:
                ws.send(json.dumps({"type": "sync"}))
            except ConnectionClosed as exc:
                closed = exc
                break
            time.sleep(0.01)
        if closed is None:  # the close frame waits behind everything the kernel buffered: read to it
            with pytest.raises(ConnectionClosed) as info:
                while True:
                    ws.recv(timeout=60)
            closed = info.value
    assert closed.rcvd is not None and closed.rcvd.code in (4008, 1011), closed
    # the table lives on for everyone else
    with Client(tight.base, tid, token_of(created, 0)) as a:
        assert a.request({"type": "ping"})["type"] == "pong"


def test_connections_per_table_are_capped(tight):
    created = create_table(tight.base, players=2, seats=HUMANS2)
    tid = created["table"]["id"]
    clients = [Client(tight.base, tid, created["spectator_token"]) for _ in range(6)]
    try:
        url = tight.base.replace("http://", "ws://") + f"/ws/tables/{tid}?token={created['spectator_token']}"
        with connect(url, open_timeout=60) as ws:
            first = json.loads(ws.recv(timeout=60))
            assert first["type"] == "error" and first["code"] == "too_many_connections"
            with pytest.raises(ConnectionClosed) as info:
                ws.recv(timeout=60)
            assert info.value.rcvd.code == 4429
    finally:
        for c in clients:
            c.close()
    # Room again once the server has seen them leave (as soon as it has, however long that takes).
    deadline = time.monotonic() + 60
    while True:
        try:
            with Client(tight.base, tid, token_of(created, 0)) as a:
                assert a.request({"type": "ping"})["type"] == "pong"
            break
        except ConnectionClosed:
            assert time.monotonic() < deadline, "no room at the table after its connections closed"
            time.sleep(0.1)


def test_a_silent_connection_is_closed_after_the_idle_timeout(tight):
    created = create_table(tight.base, players=2, seats=HUMANS2)
    with Client(tight.base, created["table"]["id"], token_of(created, 0)) as a:
        with pytest.raises(ConnectionClosed) as info:
            while True:
                a.recv(timeout=60)
        assert info.value.rcvd.code == 4008
    summary = httpx.get(f"{tight.base}/api/tables/{created['table']['id']}").json()
    assert summary["seats"][0]["connected"] is False  # the seat is free again


# ---------------------------------------------------------------- 2. undo as a peek
def test_undo_is_refused_when_the_decision_turned_up_hidden_cards():
    """The Mottainai Fan shows the deck's top cards to everyone: undoing it would put known cards back.
    The rule is general (the decision's public events depend on what was hidden); the Fan is the proof."""
    from parlor import games
    from parlor.core import Rng
    from parlor.games.mottainai.cards import EVERYONE
    from parlor.server.table.undo import shows_hidden

    game = games.get("mottainai")
    fans = plain = 0
    for seed in range(60):
        state = game.new_game(2, seed)
        rng = Rng(seed)
        while not state.is_over and fans < 3:
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            for action in legal:
                probe = state.clone()
                events = probe.apply(seat, action)
                if probe.rng.state != state.rng.state or any(e.visible_to is not None for e in events):
                    continue  # refused by the older rules already
                if any(e.kind == "fan_reveal" for e in events):
                    # The Fan turns up the deck's top three; only those the mover had not seen are news.
                    top = state.deck_info[-3:]
                    news = any(k not in (EVERYONE, seat) for k in top)
                    assert shows_hidden(state, seat, action, events, seed) == news, (seed, top)
                    fans += news
                elif plain < 50 and not shows_hidden(state, seat, action, events, seed):
                    plain += 1
            state.apply(seat, legal[rng.below(len(legal))])
        if fans >= 3:
            break
    assert fans >= 3, "no Fan was ever used"
    assert plain >= 50  # ordinary decisions stay undoable


# ---------------------------------------------------------------- 3. tokens in logs
def test_tokens_never_reach_the_log(tmp_path):
    server = ServerProcess(f"sqlite:///{tmp_path / 'p.db'}", None, "--log-level", "info").start()
    try:
        created = create_table(server.base, players=2, seats=HUMANS2)
        tid, token = created["table"]["id"], token_of(created, 0)
        with Client(server.base, tid, token) as a:
            assert a.request({"type": "ping"})["type"] == "pong"
        url = server.base.replace("http://", "ws://") + f"/ws/tables/{tid}?token=not-a-real-token-at-all"
        with connect(url, open_timeout=60) as ws:
            ws.recv(timeout=60)
        httpx.get(f"{server.base}/api/tables/{tid}?token={token}")
        # Under any name (a token is redacted by its value, not by its key's name).
        httpx.get(f"{server.base}/api/tables/{tid}?token[]={token}")
        httpx.get(f"{server.base}/api/tables/{tid}?tok={token}")
        httpx.get(f"{server.base}/api/tables/{token}/replay")
    finally:
        server.stop()
    out = server.output()
    assert "WebSocket" in out or "GET" in out, out[-2000:]  # connections are logged at INFO …
    assert token not in out and "not-a-real-token-at-all" not in out  # … without their tokens
    assert "token=[redacted]" in out


# ---------------------------------------------------------------- 4. bodies and half-sent requests
def test_request_bodies_are_limited_while_streaming(tight):
    port = tight.port
    huge = (
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200000000\r\n\r\n"
    )
    status, body = status_and_json(raw_http(port, huge + b"{" * 1000))
    assert status == 413 and body["error"]["code"] == "too_large"
    chunked = (
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"8000\r\n" + b" " * 0x8000 + b"\r\n"
    status, body = status_and_json(raw_http(port, chunked + chunk * 4))
    assert status == 413 and body["error"]["code"] == "too_large"


def test_a_body_announced_but_never_sent_times_out(tight):
    half = b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
    started = time.monotonic()
    status, body = status_and_json(raw_http(tight.port, half, wait=120))
    assert status == 408 and body["error"]["code"] == "timeout"  # the server's 1 s, not the client's wait
    assert time.monotonic() - started < 60


# ---------------------------------------------------------------- 5. filling the server
def test_absurd_option_values_are_refused_with_the_field(tight):
    for value in (10**6, 10**14, -(10**6)):
        r = httpx.post(
            tight.base + "/api/tables",
            json={"game": "sweet-nose", "players": 3, "options": {"ascension": True, "ascension_target": value}},
        )
        assert r.status_code == 400, r.text
        assert r.json()["error"]["field"] == "options.ascension_target"


def test_a_game_that_never_ends_stops_at_the_decision_cap(tight):
    # a substitute takes the only human seat at once: bots play until the cap of 30 decisions
    created = create_table(
        tight.base,
        game="mottainai",
        players=2,
        seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}],
        seat_timeout=0,
    )
    tid = created["table"]["id"]
    deadline = time.monotonic() + 300
    while True:
        summary = httpx.get(f"{tight.base}/api/tables/{tid}").json()
        if summary["status"] != "playing" or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert summary["status"] == "over"
    assert summary["version"] <= 30
    if summary["version"] == 30:  # not ended by the rules first: ended by the cap, and said so
        assert "30 decisions" in summary["result"]["abandoned"] and summary["result"]["winners"] == []
        assert summary["result"]["abandoned_code"] == "decision_cap" and summary["result"]["abandoned_limit"] == 30
        with Client(tight.base, tid, token_of(created, 0)) as a:
            assert a.state["over"] and not a.state["legal"]
            assert a.act(0)["code"] == "game_over"


def joined_in_time(server: ServerThread) -> tuple[dict, Client]:
    """A new table and a connection to its first seat that arrived before the table's short time to be
    joined ran out (the fixture's 1 s). A loaded machine can take longer than that to connect, and then
    the table has rightly expired: such a try proves nothing, so it is made again."""
    for _ in range(20):
        joined = create_table(server.base, players=2, seats=HUMANS2)
        client = Client(server.base, joined["table"]["id"], token_of(joined, 0))
        if not client.state["over"]:
            return joined, client
        client.close()
    pytest.fail("no table was joined within its time to be joined in 20 tries")


def test_tables_nobody_joined_expire(tight):
    created = create_table(tight.base, players=2, seats=HUMANS2)
    tid = created["table"]["id"]
    joined, client = joined_in_time(tight)
    with client:
        deadline = time.monotonic() + 120
        while httpx.get(f"{tight.base}/api/tables/{tid}").json()["status"] == "playing":
            assert time.monotonic() < deadline, "the unjoined table never expired"
            time.sleep(0.2)
    summary = httpx.get(f"{tight.base}/api/tables/{tid}").json()
    assert summary["status"] == "over" and "nobody joined" in summary["result"]["abandoned"]
    assert summary["result"]["abandoned_code"] == "nobody_joined"
    assert httpx.get(f"{tight.base}/api/tables/{joined['table']['id']}").json()["status"] == "playing"
    db = Database(tight.database_url)
    try:
        assert tid not in db.unfinished_ids()  # it does not come back after a restart
    finally:
        db.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_creation_is_limited_per_address(backend, request, tmp_path):
    url = make_url(backend, request, tmp_path)
    limits = Limits(tables_per_address_per_minute=4, max_unfinished_tables_per_address=3)
    with ServerThread(url, seat_timeout=None, limits=limits) as s:
        answers = [httpx.post(s.base + "/api/tables", json={"game": "mamma-mia", "seats": HUMANS2}) for _ in range(5)]
        codes = [r.status_code for r in answers]
        assert codes[:3] == [201, 201, 201] and codes[3] == 429, codes
        assert answers[3].json()["error"]["code"] == "too_many_tables"
        # a finished one no longer counts; the rate still does
        assert answers[4].status_code == 429
    # The caps count what is stored: a restarted server still refuses the same address.
    with ServerThread(url, seat_timeout=None, limits=limits) as s:
        again = httpx.post(s.base + "/api/tables", json={"game": "mamma-mia", "seats": HUMANS2})
        assert again.status_code == 429 and again.json()["error"]["code"] == "too_many_tables", again.text
    rate = Limits(tables_per_address_per_minute=3, max_unfinished_tables_per_address=100)  # 3 made this minute
    with ServerThread(url, seat_timeout=None, limits=rate) as s:
        again = httpx.post(s.base + "/api/tables", json={"game": "mamma-mia", "seats": HUMANS2})
        assert again.status_code == 429 and again.json()["error"]["code"] == "rate_limited", again.text


# ---------------------------------------------------------------- 6. clean errors
BAD_BODIES = [
    ('{"game":"mamma-mia","seat_timeout":NaN}', "seat_timeout"),
    ('{"game":"mamma-mia","seat_timeout":Infinity}', "seat_timeout"),
    ('{"game":"mamma-mia","seat_timeout":1e999}', "seat_timeout"),
    ('{"game":"mamma-mia","seat_timeout":-1}', "seat_timeout"),
    ('{"game":"mamma-mia","players":' + "9" * 5000 + "}", "players"),
    ('{"game":"mamma-mia","players":' + "9" * 4301 + "}", "players"),
    ('{"game":"mamma-mia","seats":[{"kind":"human","name":"\\ud800"},{"kind":"human"}]}', "seats[0].name"),
    ('{"game":"mamma-mia","options":' + '{"a":' * 20000 + "1" + "}" * 20000 + "}", None),
    ("[" * 20000 + "]" * 20000, None),
    ('{"game":"sweet-nose","players":3,"options":{"first_start_player":4}}', "players"),
    ('{"game":"mottainai","players":3,"options":{"team_play":true}}', "players"),
    ('{"game":"mottainai","players":7}', "players"),
    ('{"game":"mamma-mia","players":"2"}', "players"),
    ('{"game":7}', "game"),
    ('{"game":"mamma-mia","seats":"all"}', "seats"),
    ('{"game":"mamma-mia","substitute_level":"god"}', "substitute_level"),
    ('{"game":"mamma-mia","options":[1]}', "options"),
]


@pytest.mark.parametrize("body,field", BAD_BODIES, ids=[str(i) for i in range(len(BAD_BODIES))])
def test_bad_create_requests_are_4xx_json_naming_the_field(tight, body, field):
    before = _table_count(tight)
    r = httpx.post(tight.base + "/api/tables", content=body.encode(), headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
    error = r.json()["error"]
    assert error["code"] and error["message"]
    if field is not None:
        assert error.get("field") == field, error
    assert _table_count(tight) == before  # nothing stored


def _table_count(server) -> int:
    db = Database(server.database_url)
    try:
        with db.engine.connect() as conn:
            return conn.exec_driver_sql("SELECT count(*) FROM parlor_tables").scalar_one()
    finally:
        db.close()


def test_bad_frames_get_an_error_and_the_connection_stays_healthy(tight):
    created = create_table(tight.base, players=2, seats=HUMANS2)
    with Client(tight.base, created["table"]["id"], token_of(created, 0)) as a:
        for frame in (
            '{"type":"action","id":' + "1" * 4301 + "}",
            '{"type":"ping","ref":"\\ud800"}',
            '{"type":"ping","ref":NaN}',
            '{"type":"sync","x":' + "[" * 5000 + "]" * 5000 + "}",
        ):
            a.send(frame)
            reply = a.next(lambda f: f["type"] == "error")
            assert reply["code"] == "bad_json", reply
            assert a.request({"type": "ping"})["type"] == "pong"
        assert sync_state(a)["version"] == 0


def test_every_option_the_lobby_can_produce_gets_201_or_a_4xx(tmp_path):
    """The lobby (src/parlor/web/js/lobby.js) sends each option's default or one of its allowed values (a
    checkbox for a boolean; a number box, hence any number or null, for a free integer) at every player
    count it offers. Each option on its own, and all non-default values at once, at every count.
    (Validation happens before the database is touched: SQLite alone keeps this test short.)"""
    limits = Limits(tables_per_address_per_minute=1e6, max_unfinished_tables_per_address=10**6)
    with ServerThread(f"sqlite:///{tmp_path / 'lobby.db'}", seat_timeout=None, limits=limits) as server:
        _every_lobby_option(server)


def _every_lobby_option(tight):
    games = httpx.get(tight.base + "/api/games").json()["games"]
    seen = {201: 0, "4xx": 0}
    limits = Limits()
    for g in games:
        if not g["available"]:
            continue
        candidates = {}
        for o in g["options"]:
            if o["allowed"] is not None:
                values = list(o["allowed"])
            elif o["type"] == "bool":
                values = [True, False]
            else:  # Number(input.value): "", "abc" (NaN -> null), decimals, big and negative numbers
                values = [0, -1, 1, 2.5, None, 10**9, limits.max_option_int, o["default"]]
            candidates[o["name"]] = [v for v in values if v != o["default"] or o["allowed"] is None]
        bodies = []
        counts = range(g["min_players"], g["max_players"] + 1)
        for players in counts:
            seats = [{"kind": "human"}] * players  # no bots: nothing keeps the machine busy afterwards
            bodies.append({"game": g["name"], "players": players, "options": {}, "seats": seats})
            # every option at its first non-default value, all at once
            opts = {n: vs[0] for n, vs in candidates.items() if vs}
            bodies.append({"game": g["name"], "players": players, "options": opts, "seats": seats})
        for players in (counts[0], counts[-1]):  # each value on its own at the smallest and largest table
            seats = [{"kind": "human"}] * players
            for name, values in candidates.items():
                for v in values:
                    bodies.append({"game": g["name"], "players": players, "options": {name: v}, "seats": seats})
        for body in bodies:
            r = httpx.post(tight.base + "/api/tables", json=body, timeout=60)
            assert r.status_code == 201 or (400 <= r.status_code < 500 and r.status_code != 429), (body, r.text)
            if r.status_code == 201:
                seen[201] += 1
            else:
                assert r.json()["error"]["message"]
                seen["4xx"] += 1
    assert seen[201] > 50 and seen["4xx"] > 10, seen


# ---------------------------------------------------------------- 8. integrity at start
def test_a_damaged_sqlite_file_is_refused_and_an_empty_one_announced(tmp_path):
    path = tmp_path / "p.db"
    server = ServerProcess(f"sqlite:///{path}").start()
    try:
        for _ in range(12):
            create_table(server.base, players=2, seats=HUMANS2)
    finally:
        server.stop()
    with sqlite3.connect(path) as c:
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = c.execute("PRAGMA page_size").fetchone()[0]
        pages = c.execute("PRAGMA page_count").fetchone()[0]
    assert pages > 4
    data = bytearray(path.read_bytes())
    middle = (pages // 2) * page
    data[middle : middle + page] = b"\xa5" * page  # one page of garbage in the middle
    path.write_bytes(bytes(data))
    with pytest.raises(RuntimeError, match=r"damaged|cannot be read"):
        ServerProcess(f"sqlite:///{path}").start()

    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    fresh = ServerProcess(f"sqlite:///{empty}").start()
    try:
        assert httpx.get(fresh.base + "/api/health").status_code == 200
    finally:
        fresh.stop()
    assert "empty" in fresh.output() and str(empty) in fresh.output()


# ---------------------------------------------------------------- 4. idle and half-sent connections
def test_idle_and_half_sent_connections_cannot_lock_everyone_out(tmp_path):
    """1,040 connections from one client that send nothing, or stop half way through
    their headers, against a server limited to the usual 1,024 open files. Another client is still
    served at once, and the server closes the idle ones once the header timeout has passed."""
    import resource
    import socket

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1200:  # this test process needs the sockets too
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    server = ServerProcess(f"sqlite:///{tmp_path / 'idle.db'}", None, "--header-timeout", "2", open_files=1024).start()
    held: list[socket.socket] = []
    try:
        for i in range(1040):
            # The attacker's own address (any 127.x.y.z reaches the loopback server on Linux).
            s = socket.create_connection(("127.0.0.1", server.port), timeout=60, source_address=("127.0.0.2", 0))
            if i % 10 == 0:  # every tenth stops half way through its request head
                s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            held.append(s)
        # Someone else is served while the idle connections are open.
        began = time.monotonic()
        r = httpx.get(f"{server.base}/api/health", timeout=60)
        assert r.status_code == 200
        created = create_table(server.base, players=2, seats=HUMANS2)
        assert created["table"]["id"]
        # The idle and half-sent ones are closed by the server after the header timeout: reading
        # gives end-of-file (or a reset), never a hang.
        closed = 0
        for s in held:
            s.settimeout(max(0.1, 15 - (time.monotonic() - began)))
            try:
                closed += s.recv(1) == b""
            except (ConnectionResetError, TimeoutError, OSError) as exc:
                closed += not isinstance(exc, TimeoutError)
        assert closed == len(held), f"{len(held) - closed} idle connections were still open"
        assert server.proc is not None and server.proc.poll() is None
        assert httpx.get(f"{server.base}/api/health", timeout=60).status_code == 200
    finally:
        for s in held:
            s.close()
        server.stop()


# ---------------------------------------------------------------- 9. the host holds no seat's secret
def test_join_links_claim_a_seat_once_and_the_host_holds_no_seat_secret(server):
    """Whatever the creator (the host) received opens no seat; a join link is claimed
    once (also when two browsers race for it) and gives its claimant a token nobody else has; the
    host can give a seat nobody claimed a new link, which then claims once too."""
    from concurrent.futures import ThreadPoolExecutor

    from .conftest import claim

    created = create_table(server.base, players=2, seats=HUMANS2)
    tid = created["table"]["id"]
    everything_the_host_got = json.dumps(created)
    for secret in (created["host_token"], created["seats"][0]["claim"], created["seats"][1]["claim"]):
        r = httpx.post(f"{server.base}/api/tables/{tid}/join", json={"token": secret}, timeout=60)
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token", secret
    # Two browsers open seat 0's link at once: one gets the seat.
    code = created["seats"][0]["claim"]
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: claim(server.base, tid, code), range(4)))
    won = [a for a in answers if a.status_code == 200]
    assert len(won) == 1, [a.text for a in answers]
    assert all(a.status_code == 403 and a.json()["error"]["code"] == "link_used" for a in answers if a not in won)
    token = won[0].json()["token"]
    assert token not in everything_the_host_got
    with Client(server.base, tid, token) as ann:
        assert ann.welcome["seat"] == 0 and "hand" in json.dumps(ann.state["view"])
    # Bad claims change nothing.
    for bad in (None, "", 5, "x" * 300, code):
        r = httpx.post(f"{server.base}/api/tables/{tid}/claim", json={"claim": bad}, timeout=60)
        assert r.status_code == 403 and r.json()["error"]["code"] in ("bad_claim", "link_used"), bad
    # Seat 1 was never claimed: the host re-issues its link; the old one stops working.
    r = httpx.post(
        f"{server.base}/api/tables/{tid}/seats/1/new-link", json={"host_token": created["host_token"]}, timeout=60
    )
    assert r.status_code == 200 and "token" not in r.json()
    assert claim(server.base, tid, created["seats"][1]["claim"]).status_code == 403
    fresh = claim(server.base, tid, r.json()["claim"])
    assert fresh.status_code == 200 and fresh.json()["seat"] == 1
    assert claim(server.base, tid, r.json()["claim"]).json()["error"]["code"] == "link_used"


# ---------------------------------------------------------------- 5. expert tables and everyone else's bots
def test_expert_tables_do_not_hold_up_other_tables_bots(tmp_path):
    """A crowd of all-expert tables (searching bots) must not make another table's quick
    bots wait behind their searches. Counted in decisions, not seconds (the machine is shared): while
    six expert tables search, a quick table plays its whole game, and the experts make only a few
    moves meanwhile. Queued behind the searches, every quick move would wait for one."""
    url = f"sqlite:///{tmp_path / 'bots.db'}"
    easy = [{"kind": "bot", "level": "easy"}] * 3
    experts = [{"kind": "bot", "level": "expert"}] * 3
    with ServerThread(url, seat_timeout=None, limits=Limits(tables_per_address_per_minute=1e6)) as s:

        def summary(tid: str) -> dict:
            return httpx.get(f"{s.base}/api/tables/{tid}", timeout=60).json()

        crowd = [create_table(s.base, game="mottainai", players=3, seats=experts)["table"]["id"] for _ in range(6)]
        searched = sum(summary(t)["version"] for t in crowd)
        began = time.monotonic()
        tid = create_table(s.base, game="mamma-mia", players=3, seats=easy)["table"]["id"]
        while (quick := summary(tid))["status"] == "playing":
            assert time.monotonic() - began < 600, "the easy table never finished"
            time.sleep(0.05)
        searched = sum(summary(t)["version"] for t in crowd) - searched
        still = [t for t in crowd if summary(t)["status"] == "playing"]
        assert still, "the expert tables were over before the easy game ended: no contention was measured"
        # Behind a queue of searches the quick game never finished in 300 s. With the searches in
        # worker processes it plays its 100-odd decisions while the experts make a handful.
        assert quick["version"] >= 40, quick["version"]
        assert searched * 4 < quick["version"], f"{searched} expert moves while the easy game made {quick['version']}"


# ---------------------------------------------------------------- secrets first
def test_a_wrong_secret_costs_a_finished_table_no_replay(roomy):
    """A finished table is checked against its stored row: garbage claims, joins, "play again" and
    WebSockets are refused without replaying its record (the hub loads nothing); a right token does
    load it, once."""
    created = create_table(roomy.base, players=2, seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])
    tid = created["table"]["id"]
    with Client(roomy.base, tid, token_of(created, 0)) as ann:
        while not ann.wait_turn_or_over()["over"]:
            ann.act(ann.state["legal"][0]["id"])
    hub = roomy.app.state.hub
    deadline = time.monotonic() + 60
    while tid in hub.tables:  # released: nobody watches it
        assert time.monotonic() < deadline
        time.sleep(0.05)
    loads = hub.loads
    for path, body in (("claim", {"claim": "x" * 32}), ("join", {"token": "y" * 32}), ("play-again", {"token": "z"})):
        r = httpx.post(f"{roomy.base}/api/tables/{tid}/{path}", json=body, timeout=60)
        assert r.status_code == 403, (path, r.text)
    r = httpx.post(f"{roomy.base}/api/tables/{tid}/seats/1/new-link", json={"host_token": "nope"}, timeout=60)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    url = roomy.base.replace("http://", "ws://") + f"/ws/tables/{tid}?token={'w' * 32}"
    with connect(url, open_timeout=60) as ws:
        assert json.loads(ws.recv(timeout=60))["code"] == "bad_token"
    assert hub.loads == loads  # not one replay for a wrong secret
    with Client(roomy.base, tid, token_of(created, 0)) as ann:
        assert ann.state["over"]
    assert hub.loads == loads + 1


# ---------------------------------------------------------------- the smaller ones
def test_nul_and_malformed_ids_are_refused_cleanly(tight):
    """NUL in a seat's name, and a table id that no table can have (NUL, too long, other characters),
    get a clear 4xx on SQLite and PostgreSQL alike, never a 500 or a reset."""
    body = {"game": "mamma-mia", "players": 2, "seats": [{"kind": "human", "name": "Ann\x00"}, {"kind": "bot"}]}
    r = httpx.post(f"{tight.base}/api/tables", json=body, timeout=60)
    assert r.status_code == 400 and r.json()["error"]["field"] == "seats[0].name", r.text
    created = create_table(tight.base, players=2, seats=HUMANS2)
    tid, token = created["table"]["id"], token_of(created, 0)
    r = httpx.post(f"{tight.base}/api/tables/{tid}/join", json={"token": token, "name": "Bob\x00"}, timeout=60)
    assert r.status_code == 400 and r.json()["error"]["field"] == "name", r.text
    for bad in ("%00", "abc%00def", "x" * 40, "a.b", "%C3%A9t%C3%A9"):
        for method, path in (("GET", ""), ("GET", "/replay"), ("POST", "/claim"), ("POST", "/join")):
            r = httpx.request(method, f"{tight.base}/api/tables/{bad}{path}", json={"token": token}, timeout=60)
            assert r.status_code == 404 and r.json()["error"]["code"] == "table_not_found", (bad, path, r.text)
        url = tight.base.replace("http://", "ws://") + f"/ws/tables/{bad}?token={token}"
        with connect(url, open_timeout=60) as ws:
            assert json.loads(ws.recv(timeout=60))["code"] == "table_not_found"


def test_turn_time_is_at_least_five_seconds_by_default(tmp_path):
    """The documented floor: 5 seconds (a server's operator may lower it, as the tests do)."""
    with ServerThread(f"sqlite:///{tmp_path / 't.db'}", limits=Limits()) as server:
        for bad in (4.99, 1, 1e-9, 0):
            body = {"game": "mamma-mia", "players": 2, "turn_time": bad}
            r = httpx.post(f"{server.base}/api/tables", json=body, timeout=60)
            assert r.status_code == 400 and r.json()["error"]["field"] == "turn_time", (bad, r.text)
        body = {"game": "mamma-mia", "players": 2, "turn_time": 5}
        assert httpx.post(f"{server.base}/api/tables", json=body, timeout=60).status_code == 201


def test_x_forwarded_for_is_believed_only_from_the_proxies_named(tmp_path):
    """uvicorn believes X-Forwarded-For from loopback by default: a local process could then name any
    address for the per-address limits. By default no proxy is believed; --forwarded-allow-ips names them."""
    body = {"game": "mamma-mia", "players": 2}
    for allow, made in ((None, 2), ("127.0.0.1", 3)):
        extra = ("--forwarded-allow-ips", allow) if allow else ()
        url = f"sqlite:///{tmp_path / f'f{made}.db'}"
        server = ServerProcess(url, None, "--tables-per-minute", "2", *extra).start()
        try:
            codes = [
                httpx.post(
                    f"{server.base}/api/tables", json=body, headers={"x-forwarded-for": f"10.0.0.{i}"}, timeout=60
                ).status_code
                for i in range(3)
            ]
        finally:
            server.stop()
        assert codes.count(201) == made, (allow, codes)


def test_undo_is_refused_when_the_decision_showed_the_others_a_card_only_the_mover_knew():
    """A card only the mover had seen (the top of Mottainai's deck) turned face up by its decision: the
    others saw it, and an undo would put it back into the deck. The mover-only check cannot see it
    (the mover knew the card); the check from the other seats' side does. Ordinary decisions stay
    undoable."""
    from parlor import games
    from parlor.core import Rng
    from parlor.games.mottainai.cards import CARD
    from parlor.server.table.undo import shows_hidden, shows_others_hidden

    game = games.get("mottainai")
    found = plain = 0
    for seed in range(80):
        state = game.new_game(2, seed)
        rng = Rng(seed)
        while not state.is_over and found < 3:
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            for action in legal:
                probe = state.clone()
                events = probe.apply(seat, action)
                if probe.rng.state != state.rng.state or any(e.visible_to is not None for e in events):
                    continue  # refused by the older rules already
                top = CARD[state.deck[-1]] if state.deck else None
                shown = [e for e in events if e.visible_to is None and top in e.data.values()]
                if shown and len(probe.deck) < len(state.deck):
                    # The decision turned the deck's top card face up: say the mover had seen that card
                    # before (as a card it returned there itself).
                    known = state.clone()
                    known.deck_info[-1] = seat
                    events = known.clone().apply(seat, action)
                    if not any(e.visible_to is None for e in events):
                        continue
                    assert not shows_hidden(known, seat, action, events, seed)  # the mover knew it
                    assert shows_others_hidden(known, seat, action, events, seed), (seed, action)
                    found += 1
                elif plain < 40 and not shows_hidden(state, seat, action, events, seed):
                    assert not shows_others_hidden(state, seat, action, events, seed), (seed, action, events)
                    plain += 1
            state.apply(seat, legal[rng.below(len(legal))])
        if found >= 3:
            break
    assert found >= 3, "no decision turned up the deck's top card"
    assert plain >= 40
