"""Friends and blocking through a real server, on SQLite and PostgreSQL: following, who is online and
where they sit, invitations (sent, accepted in one request, declined, lapsed), blocking (chat, quick
play, invitations, following), and every refusal changing nothing. Uniqueness (following twice,
inviting twice) is tested with requests sent at once from threads."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from parlor.server.limits import Limits

from .conftest import BACKENDS, Client, ServerThread, make_url
from .test_accounts import GENEROUS, Browser, signed_up

LIMITS = Limits(min_turn_time=0.1, max_held_seats_per_account=50, max_held_seats_per_address=500)
AT_ONCE = 8


@pytest.fixture(scope="module", params=BACKENDS)
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    url = make_url(request.param, request, tmp_path_factory.mktemp("db"))
    with ServerThread(url, seat_timeout=None, account_limits=GENEROUS, limits=LIMITS) as s:
        yield s


def panel(b: Browser) -> dict[str, Any]:
    r = b.http.get("/api/friends")
    assert r.status_code == 200, r.text
    return r.json()


def refused(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text
    return r.json()["error"]


def waiting_table(b: Browser, seats: int = 3, public: bool = True) -> str:
    """A table of ``seats`` human seats where ``b`` sits (seat 0), waiting for players."""
    body = {"game": "mamma-mia", "players": seats, "seats": [{"kind": "human"}] * seats, "public": public}
    r = b.post("/api/tables", body)
    assert r.status_code == 201, r.text
    table_id = r.json()["table"]["id"]
    if public:
        sat = b.post(f"/api/tables/{table_id}/sit", {"seat": 0})
    else:
        sat = b.post(f"/api/tables/{table_id}/claim", {"claim": r.json()["seats"][0]["claim"]})
    assert sat.status_code == 200, sat.text
    return table_id


def accept(b: Browser, invitation: dict[str, Any]) -> httpx.Response:
    return b.post(f"/api/tables/{invitation['table_id']}/accept-invitation", {"invitation": invitation["id"]})


def seats_of(site: ServerThread, table_id: str) -> list[dict[str, Any]]:
    return httpx.get(f"{site.base}/api/tables/{table_id}", timeout=60).json()["seats"]


def at_once(b: Browser, path: str, body: dict[str, Any]) -> list[httpx.Response]:
    """``AT_ONCE`` copies of one request of ``b``'s, each from a client of its own, released together."""
    barrier = threading.Barrier(AT_ONCE)
    answers: list[httpx.Response] = []
    cookies = dict(b.http.cookies)

    def one() -> None:
        with httpx.Client(base_url=str(b.http.base_url), cookies=cookies, timeout=60) as http:
            barrier.wait()
            answers.append(http.post(path, json=body, headers={"X-CSRF-Token": b.csrf}))

    threads = [threading.Thread(target=one) for _ in range(AT_ONCE)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def test_following_and_its_refusals_change_nothing(site: ServerThread) -> None:
    ann, _ = signed_up(site.base)
    _, bob_name = signed_up(site.base)
    refused(httpx.post(f"{site.base}/api/friends/follow", json={"name": bob_name}, timeout=60), 401, "not_signed_in")
    refused(ann.post("/api/friends/follow", {"name": "nobody-called-this"}), 404, "unknown_player")
    refused(ann.post("/api/friends/follow", {"name": ann.who()["name"]}), 400, "yourself")
    refused(ann.post("/api/friends/follow", {"name": 7}), 400, "bad_request")
    assert panel(ann)["following"] == []
    r = ann.post("/api/friends/follow", {"name": bob_name.upper()})  # names compare folded
    assert r.status_code == 200 and r.json() == {"following": True}
    refused(ann.post("/api/friends/follow", {"name": bob_name}), 409, "already_following")
    assert [f["name"] for f in panel(ann)["following"]] == [bob_name]
    assert ann.http.get("/api/friends/relation", params={"name": bob_name}).json() == {
        "following": True,
        "blocking": False,
    }
    assert ann.post("/api/friends/unfollow", {"name": bob_name}).status_code == 200
    refused(ann.post("/api/friends/unfollow", {"name": bob_name}), 409, "not_following")
    assert panel(ann)["following"] == []


def test_following_twice_at_once_stores_one_follow(site: ServerThread) -> None:
    ann, _ = signed_up(site.base)
    _, bob_name = signed_up(site.base)
    ann.who()
    answers = at_once(ann, "/api/friends/follow", {"name": bob_name})
    codes = sorted(r.status_code for r in answers)
    assert codes == [200] + [409] * (AT_ONCE - 1), [r.text for r in answers]
    assert all(r.json()["error"]["code"] == "already_following" for r in answers if r.status_code == 409)
    assert [f["name"] for f in panel(ann)["following"]] == [bob_name]


def test_followers_see_who_is_online_and_their_open_tables_unless_blocked(site: ServerThread) -> None:
    ann, ann_name = signed_up(site.base)
    bob, _ = signed_up(site.base)
    assert bob.post("/api/friends/follow", {"name": ann_name}).status_code == 200
    (entry,) = panel(bob)["following"]
    assert entry == {"name": ann_name, "online": False, "tables": []}  # ann has not opened the lobby
    # A player's page open counts as being on the site: its buttons ask for the relation every few seconds.
    cat, cat_name = signed_up(site.base)
    assert cat.post("/api/friends/follow", {"name": ann_name}).status_code == 200
    assert ann.http.get("/api/friends/relation", params={"name": cat_name}).status_code == 200
    (entry,) = panel(cat)["following"]
    assert entry["online"] is True
    private_id = waiting_table(ann, public=False)
    table_id = waiting_table(ann)
    panel(ann)  # ann's lobby asks for her panel: she is online
    (entry,) = panel(bob)["following"]
    assert entry["online"] is True
    assert [t["id"] for t in entry["tables"]] == [table_id]  # her public table only, not the private one
    assert private_id not in str(entry)
    # Ann blocks Bob: to him she is offline with no tables, as if she were away (he still follows her).
    assert ann.post("/api/friends/block", {"name": bob.who()["name"]}).status_code == 200
    assert panel(bob)["following"] == [{"name": ann_name, "online": False, "tables": []}]


def test_an_invitation_is_accepted_in_one_request_or_declined(site: ServerThread) -> None:
    ann, _ = signed_up(site.base)
    bob, bob_name = signed_up(site.base)
    cat, cat_name = signed_up(site.base)
    table_id = waiting_table(ann)
    for name in (bob_name, cat_name):
        assert ann.post("/api/friends/follow", {"name": name}).status_code == 200
    r = ann.post("/api/friends/invitations", {"table_id": table_id, "name": bob_name})
    assert r.status_code == 201, r.text
    (invitation,) = panel(bob)["invitations"]
    assert invitation["table_id"] == table_id and invitation["from"] == ann.who()["name"]
    refused(accept(cat, invitation), 404, "no_invitation")  # not hers
    other = waiting_table(cat)
    refused(bob.post(f"/api/tables/{other}/accept-invitation", {"invitation": invitation["id"]}), 404, "no_invitation")
    refused(bob.post(f"/api/tables/{table_id}/accept-invitation", {"invitation": 5}), 400, "bad_request")
    assert seats_of(site, other)[1]["open"] is True and seats_of(site, table_id)[1]["open"] is True
    seated = accept(bob, invitation)
    assert seated.status_code == 200, seated.text
    assert seated.json()["table_id"] == table_id and seated.json()["token"]
    assert [s["name"] for s in seats_of(site, table_id)][:2] == [ann.who()["name"], bob_name]
    assert panel(bob)["invitations"] == []
    refused(accept(bob, invitation), 404, "no_invitation")
    # Cat declines hers: it is gone, and her seat stays open.
    assert ann.post("/api/friends/invitations", {"table_id": table_id, "name": cat_name}).status_code == 201
    (invitation,) = panel(cat)["invitations"]
    assert cat.post(f"/api/friends/invitations/{invitation['id']}/decline").status_code == 200
    assert panel(cat)["invitations"] == []
    refused(accept(cat, invitation), 404, "no_invitation")
    refused(cat.post(f"/api/friends/invitations/{invitation['id']}/decline"), 404, "no_invitation")
    assert seats_of(site, table_id)[2]["open"] is True


def test_a_private_table_invitation_takes_an_open_seat(site: ServerThread) -> None:
    ann, _ = signed_up(site.base)
    bob, bob_name = signed_up(site.base)
    table_id = waiting_table(ann, seats=2, public=False)
    assert ann.post("/api/friends/follow", {"name": bob_name}).status_code == 200
    assert ann.post("/api/friends/invitations", {"table_id": table_id, "name": bob_name}).status_code == 201
    (invitation,) = panel(bob)["invitations"]
    assert accept(bob, invitation).status_code == 200
    assert seats_of(site, table_id)[1]["name"] == bob_name


def test_bad_invitations_are_refused_and_change_nothing(site: ServerThread) -> None:
    ann, ann_name = signed_up(site.base)
    bob, bob_name = signed_up(site.base)
    cat, cat_name = signed_up(site.base)
    table_id = waiting_table(ann)
    invite = "/api/friends/invitations"
    refused(ann.post(invite, {"table_id": table_id, "name": bob_name}), 409, "not_following")
    assert ann.post("/api/friends/follow", {"name": bob_name}).status_code == 200
    assert ann.post("/api/friends/follow", {"name": cat_name}).status_code == 200
    refused(ann.post(invite, {"table_id": "nosuchtable", "name": bob_name}), 404, "table_not_found")
    refused(ann.post(invite, {"table_id": 5, "name": bob_name}), 400, "bad_request")
    refused(ann.post(invite, {"table_id": table_id, "name": "nobody-called-this"}), 404, "unknown_player")
    refused(ann.post(invite, {"table_id": table_id, "name": ann_name}), 400, "yourself")
    other_table = waiting_table(cat)  # ann holds no seat there
    refused(ann.post(invite, {"table_id": other_table, "name": bob_name}), 403, "not_seated")
    # Bob blocks Ann: her invitation "could not be sent", in words that do not tell her why.
    assert bob.post("/api/friends/block", {"name": ann_name}).status_code == 200
    error = refused(ann.post(invite, {"table_id": table_id, "name": bob_name}), 409, "not_sent")
    assert error["message"] == "the invitation could not be sent" and "block" not in str(error)
    assert panel(bob)["invitations"] == []
    assert cat.post(f"/api/tables/{table_id}/sit", {}).status_code == 200
    refused(ann.post(invite, {"table_id": table_id, "name": cat_name}), 409, "already_seated")
    # A full table (the game on): refused.
    assert Browser(site.base).post(f"/api/tables/{table_id}/sit", {"name": "Stranger"}).status_code == 200
    dan, dan_name = signed_up(site.base)
    assert ann.post("/api/friends/follow", {"name": dan_name}).status_code == 200
    refused(ann.post(invite, {"table_id": table_id, "name": dan_name}), 409, "table_full")
    assert panel(dan)["invitations"] == []
    refused(httpx.post(f"{site.base}{invite}", json={"table_id": table_id, "name": dan_name}, timeout=60), 401,
            "not_signed_in")  # fmt: skip


def test_inviting_twice_at_once_sends_one_invitation(site: ServerThread) -> None:
    ann, _ = signed_up(site.base)
    bob, bob_name = signed_up(site.base)
    table_id = waiting_table(ann)
    assert ann.post("/api/friends/follow", {"name": bob_name}).status_code == 200
    answers = at_once(ann, "/api/friends/invitations", {"table_id": table_id, "name": bob_name})
    codes = sorted(r.status_code for r in answers)
    assert codes == [201] + [409] * (AT_ONCE - 1), [r.text for r in answers]
    assert all(r.json()["error"]["code"] == "already_invited" for r in answers if r.status_code == 409)
    assert len(panel(bob)["invitations"]) == 1


def test_an_invitation_lapses_when_the_table_fills(site: ServerThread) -> None:
    ann, _ = signed_up(site.base)
    bob, bob_name = signed_up(site.base)
    table_id = waiting_table(ann, seats=2)
    assert ann.post("/api/friends/follow", {"name": bob_name}).status_code == 200
    assert ann.post("/api/friends/invitations", {"table_id": table_id, "name": bob_name}).status_code == 201
    (invitation,) = panel(bob)["invitations"]
    stranger = Browser(site.base)
    assert stranger.post(f"/api/tables/{table_id}/sit", {"name": "Stranger"}).status_code == 200
    assert panel(bob)["invitations"] == []  # no longer offered
    refused(accept(bob, invitation), 409, "invitation_expired")
    assert bob_name not in [s["name"] for s in seats_of(site, table_id)]


def test_blocking_rules_and_unblocking(site: ServerThread) -> None:
    ann, ann_name = signed_up(site.base)
    bob, bob_name = signed_up(site.base)
    assert ann.post("/api/friends/follow", {"name": bob_name}).status_code == 200
    table_id = waiting_table(bob)
    assert bob.post("/api/friends/follow", {"name": ann_name}).status_code == 200
    assert bob.post("/api/friends/invitations", {"table_id": table_id, "name": ann_name}).status_code == 201
    refused(ann.post("/api/friends/block", {"name": ann_name}), 400, "yourself")
    refused(ann.post("/api/friends/block", {"name": "nobody-called-this"}), 404, "unknown_player")
    r = ann.post("/api/friends/block", {"name": bob_name})
    assert r.status_code == 200 and r.json() == {"blocking": True, "following": False}
    mine = panel(ann)
    # Blocking stops following them and withdraws the invitation between the two.
    assert mine["following"] == [] and mine["blocked"] == [bob_name] and mine["invitations"] == []
    refused(ann.post("/api/friends/block", {"name": bob_name}), 409, "already_blocked")
    refused(ann.post("/api/friends/follow", {"name": bob_name}), 409, "blocking")
    assert panel(ann)["following"] == []
    assert ann.http.get("/api/friends/relation", params={"name": bob_name}).json() == {
        "following": False,
        "blocking": True,
    }
    # Bob is not told: his view of the relation says nothing of Ann's block.
    assert bob.http.get("/api/friends/relation", params={"name": ann_name}).json() == {
        "following": True,
        "blocking": False,
    }
    assert ann.post("/api/friends/unblock", {"name": bob_name}).status_code == 200
    refused(ann.post("/api/friends/unblock", {"name": bob_name}), 409, "not_blocked")
    assert panel(ann)["blocked"] == []
    assert ann.post("/api/friends/follow", {"name": bob_name}).status_code == 200


def chat_lines(client: Client) -> list[str]:
    return [m["text"] for f in client.frames if f["type"] == "chat" for m in f["messages"]]


def said(text: str) -> Any:
    """A frame predicate: a chat frame whose newest line is ``text``."""
    return lambda f: f["type"] == "chat" and bool(f["messages"]) and f["messages"][-1]["text"] == text


def test_a_blocked_players_chat_is_not_sent_to_the_blocker(site: ServerThread) -> None:
    ann, _ = signed_up(site.base)
    bob, bob_name = signed_up(site.base)
    body = {"game": "mamma-mia", "players": 3, "seats": [{"kind": "human"}] * 3, "public": True}
    table_id = ann.post("/api/tables", body).json()["table"]["id"]
    ann_token = ann.post(f"/api/tables/{table_id}/sit", {}).json()["token"]
    bob_token = bob.post(f"/api/tables/{table_id}/sit", {}).json()["token"]
    cat_token = Browser(site.base).post(f"/api/tables/{table_id}/sit", {"name": "Cat"}).json()["token"]
    a = Client(site.base, table_id, ann_token)
    b = Client(site.base, table_id, bob_token)
    c = Client(site.base, table_id, cat_token)
    with a, b, c:
        assert b.request({"type": "chat", "text": "before the block"})["type"] == "ack"
        a.next(said("before the block"))
        # Ann blocks Bob while her connection is open: from now on his lines do not reach her.
        assert ann.post("/api/friends/block", {"name": bob_name}).status_code == 200
        assert b.request({"type": "chat", "text": "hidden from ann"})["type"] == "ack"
        assert c.request({"type": "chat", "text": "from cat"})["type"] == "ack"
        a.next(said("from cat"))
        assert "hidden from ann" not in chat_lines(a)
        c.next(said("from cat"))
        assert "hidden from ann" in chat_lines(c)  # others still read it
        assert a.request({"type": "chat", "text": "from ann"})["type"] == "ack"
        b.next(said("from ann"))  # one way only
    # Coming back: the chat so far, and its older pages, leave Bob's lines out for Ann.
    with Client(site.base, table_id, ann_token) as again:
        history = again.next(lambda f: f["type"] == "chat" and f["history"])
        texts = [m["text"] for m in history["messages"]]
        assert "from cat" in texts and "hidden from ann" not in texts and "before the block" not in texts
    page = httpx.get(f"{site.base}/api/tables/{table_id}/chat", params={"token": ann_token}, timeout=60).json()
    assert "from cat" in str(page) and "hidden from ann" not in str(page)


def test_quick_play_never_pairs_blocked_players(site: ServerThread) -> None:
    ann, ann_name = signed_up(site.base)
    bob, bob_name = signed_up(site.base)
    cat, _ = signed_up(site.base)
    assert ann.post("/api/friends/block", {"name": bob_name}).status_code == 200
    ask = {"game": "mottainai", "players": 3}
    bobs = bob.post("/api/quick-play", ask).json()
    anns = ann.post("/api/quick-play", ask).json()  # the blocker is not seated with Bob...
    assert anns["table_id"] != bobs["table_id"] and anns["created"] is True
    again = bob.post("/api/quick-play", ask).json()  # ...nor Bob with the blocker
    assert again["table_id"] not in (anns["table_id"], bobs["table_id"])
    cats = cat.post("/api/quick-play", ask).json()  # anyone else joins the oldest
    assert cats["table_id"] == bobs["table_id"] and cats["created"] is False
    assert ann_name not in [s["name"] for s in seats_of(site, bobs["table_id"])]
