"""Notifications in the browser (Chromium, the real server), two accounts in two contexts: Bob invites
Ann (who reads Czech); her lobby's header shows one unread notification, her account page lists it in
Czech with a link to the table, "mark all read" clears the count, and unticking a kind switches it
off for e-mail and push (the server's settings say so)."""

from __future__ import annotations

import uuid
from typing import Any

from .conftest import Server
from .test_accounts_web import sign_up
from .test_friends_web import post_from_page
from .test_help_and_lobby import new_page


def test_an_invitation_is_counted_in_the_lobby_listed_on_the_account_page_and_marked_read(
    server: Server, browser: Any
) -> None:
    ann_ctx, ann, ann_errors = new_page(browser, "cs")
    bob_ctx, bob, bob_errors = new_page(browser, "en")
    ann_name, bob_name = "na" + uuid.uuid4().hex[:8], "nb" + uuid.uuid4().hex[:8]
    try:
        sign_up(ann, server, ann_name)
        sign_up(bob, server, bob_name)
        ann.wait_for_selector("#notifications")  # the account page's panel, once signed up
        assert post_from_page(bob, "/api/friends/follow", {"name": ann_name}) == {"following": True}
        body = {"game": "mamma-mia", "players": 2, "seats": [{"kind": "human"}] * 2}
        created = post_from_page(bob, "/api/tables", body)
        table_id = created["table"]["id"]
        post_from_page(bob, f"/api/tables/{table_id}/claim", {"claim": created["seats"][0]["claim"]})
        assert "invitation" in post_from_page(bob, "/api/friends/invitations", {"table_id": table_id, "name": ann_name})
        # The lobby's header counts it.
        ann.goto(server.base + "/")
        ann.wait_for_function("document.getElementById('notify-count')?.textContent === '1'")
        # The account page lists it, in Czech, with a link to the table.
        ann.goto(server.base + "/account")
        item = ann.wait_for_selector("#notify-list li.unread[data-kind='invitation']")
        assert f"{bob_name} vás zve ke stolu hry Mamma Mia!" in item.inner_text()
        assert item.query_selector("a").get_attribute("href") == f"/play/{table_id}"
        ann.click("#notify-read")
        ann.wait_for_selector("#notify-list li.read[data-kind='invitation']")
        assert ann.query_selector("#notify-read") is None
        # Unticking "Pozvánky" switches invitations off for e-mail and push.
        ann.uncheck("input[name='kind-invitation']")
        ann.wait_for_function("document.getElementById('notify-message').textContent === 'Uloženo.'")
        settings = ann.evaluate("async () => (await fetch('/api/account/notify-settings')).json()")
        assert settings["kinds_off"] == ["invitation"]
        ann.goto(server.base + "/")
        ann.wait_for_selector("#account-link")
        ann.wait_for_function("document.getElementById('notify-count')?.hidden === true")
        assert ann_errors == [] and bob_errors == []
    finally:
        ann_ctx.close()
        bob_ctx.close()
