"""Friends in the browser (Chromium, the real server), two accounts in two contexts: Ann follows Bob
from his page, invites him from her lobby's Friends panel to the table where she sits, Bob accepts in
one tap and is seated; then Ann blocks Bob and his chat lines no longer reach her page. Every button
the flow adds is at least 44 px each way on a 390 px wide phone."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import httpx

from .conftest import Server
from .test_accounts_web import sign_up
from .test_browser import DESKTOP, PHONE
from .test_help_and_lobby import new_page

BIG_ENOUGH = 44


def assert_touchable(page: Any, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box is not None and box["width"] >= BIG_ENOUGH and box["height"] >= BIG_ENOUGH, (selector, box)


def post_from_page(page: Any, path: str, body: dict[str, Any]) -> Any:
    """A JSON POST from the page, with its session and CSRF token (as the page's own scripts send it)."""
    script = """async ([path, body]) => {
      const { csrf } = await (await fetch("/api/account")).json();
      const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json",
        "x-csrf-token": csrf }, body: JSON.stringify(body) });
      return res.json();
    }"""
    return page.evaluate(script, [path, body])


SHOWN = "text => [...document.querySelectorAll('#chat .chat-text')].some((el) => el.textContent === text)"


def say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#chat-send")
    page.wait_for_function(SHOWN, arg=text)


def chat_texts(page: Any) -> list[str]:
    return page.locator("#chat .chat-text").all_inner_texts()


def test_follow_invite_accept_in_one_tap_then_block_hides_chat(server: Server, browser: Any, screenshots: Path) -> None:
    ann_ctx, ann, ann_errors = new_page(browser, "en", PHONE)
    bob_ctx, bob, bob_errors = new_page(browser, "en", PHONE)
    ann_name, bob_name = "fa" + uuid.uuid4().hex[:8], "fb" + uuid.uuid4().hex[:8]
    try:
        sign_up(ann, server, ann_name)
        sign_up(bob, server, bob_name)
        bob.wait_for_selector("#friends")  # the account page's Friends panel, once signed up (no reload)
        # Ann follows Bob from his page.
        ann.goto(f"{server.base}/players/{bob_name}")
        ann.wait_for_selector("#follow")
        assert_touchable(ann, "#follow")
        # The page names its player first, then offers to follow or block them.
        ann.wait_for_selector("#player-name")
        name_box, follow_box = ann.locator("#player-name").bounding_box(), ann.locator("#follow").bounding_box()
        assert name_box and follow_box and name_box["y"] + name_box["height"] <= follow_box["y"], (name_box, follow_box)
        assert_touchable(ann, "#block")
        # (with a double click: one request, and no "You follow this player already" after it)
        friend_posts: list[str] = []
        ann.on("request", lambda r: friend_posts.append(r.url.split("/api/")[-1]) if r.method == "POST" else None)
        ann.dblclick("#follow")
        ann.wait_for_function("document.getElementById('follow').textContent === 'Unfollow'")
        assert friend_posts == ["friends/follow"], friend_posts
        assert ann.inner_text("#follow-message") == ""
        # Ann sits at a public table and opens it (a seat sat down in must be opened).
        body = {"game": "mamma-mia", "players": 3, "seats": [{"kind": "human"}] * 3, "public": True}
        table_id = post_from_page(ann, "/api/tables", body)["table"]["id"]
        seated = post_from_page(ann, f"/api/tables/{table_id}/sit", {})
        table = ann_ctx.new_page()
        table.set_viewport_size(DESKTOP)
        table.goto(server.url(f"/play/{table_id}#token={seated['token']}"))
        table.wait_for_selector("body[data-version]")
        # From her lobby's Friends panel, Ann invites Bob.
        ann.goto(server.base + "/")
        invite = f"#friends .friend[data-name='{bob_name}'] .friend-invite"
        ann.wait_for_selector(invite)
        assert_touchable(ann, invite)
        ann.screenshot(path=str(screenshots / "friends_panel_390.png"))
        friend_posts.clear()
        ann.dblclick(invite)
        ann.wait_for_function("document.getElementById('friends-message').textContent.includes('Invitation sent')")
        assert friend_posts == ["friends/invitations"], friend_posts
        # Bob sees the invitation in his lobby and accepts it in one tap: he is seated at the table.
        bob.goto(server.base + "/")
        bob.wait_for_selector("#friends .friend-accept")
        assert_touchable(bob, "#friends .friend-accept")
        assert_touchable(bob, "#friends .friend-decline")
        assert ann_name in bob.locator("#friend-invitations").inner_text()
        bob.screenshot(path=str(screenshots / "friends_invitation_390.png"))
        bob.click("#friends .friend-accept")
        bob.wait_for_url(f"**/play/{table_id}**")
        bob.set_viewport_size(DESKTOP)
        bob.wait_for_selector("body[data-version]")
        seats = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=60).json()["seats"]
        assert [s["name"] for s in seats][:2] == [ann_name, bob_name]
        # The invitation is gone from his panel.
        bob_lobby = bob_ctx.new_page()
        bob_lobby.goto(server.base + "/")
        bob_lobby.wait_for_selector("#friends")
        assert bob_lobby.locator(".friend-invitation").count() == 0
        # Both chat; then Ann blocks Bob from his page, and his next line never reaches her.
        say(bob, "hello from bob")
        table.wait_for_function(SHOWN, arg="hello from bob")
        ann.goto(f"{server.base}/players/{bob_name}")
        ann.wait_for_selector("#block")
        ann.click("#block")
        ann.wait_for_function("document.getElementById('block').textContent === 'Unblock'")
        say(bob, "bob after the block")
        say(table, "ann speaks after")  # Ann's own line comes after Bob's, so his would be shown by now
        bob.wait_for_function(SHOWN, arg="ann speaks after")
        assert "bob after the block" not in chat_texts(table)
        assert "bob after the block" in chat_texts(bob)
        assert not ann_errors and not bob_errors, (ann_errors, bob_errors)
    finally:
        ann_ctx.close()
        bob_ctx.close()
