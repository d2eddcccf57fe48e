"""Moderation in the browser (Chromium, the real server), one flow end to end: a player reports a
rude chat line from the table, the moderator finds it on the admin page, resolves it and mutes the
player, and the muted player's next chat line is refused with the reason and the end."""

from __future__ import annotations

import re
import uuid
from typing import Any

from typer.testing import CliRunner

from parlor.cli.main import app as cli_app

from .conftest import Server
from .test_accounts_web import catalog, sign_up
from .test_help_and_lobby import new_page


def database_url(server: Server) -> str:
    args = list(server.proc.args)  # type: ignore[arg-type]
    return str(args[args.index("--database-url") + 1])


def test_a_report_reaches_the_admin_page_and_a_mute_refuses_the_chat(server: Server, browser: Any) -> None:
    words = catalog("en")
    created = server.create("mamma-mia", 2, [{"kind": "human"}, {"kind": "human"}])
    names = {who: who + uuid.uuid4().hex[:8] for who in ("rude", "victim", "mod")}
    pages = {who: new_page(browser, "en") for who in names}
    try:
        for who, name in names.items():
            sign_up(pages[who][1], server, name)
        made = CliRunner().invoke(cli_app, ["admin", "add", names["mod"], "--database-url", database_url(server)])
        assert made.exit_code == 0, made.output
        rude, victim, mod = (pages[who][1] for who in ("rude", "victim", "mod"))
        rude.goto(server.url(created["seats"][0]["join_path"]))
        victim.goto(server.url(created["seats"][1]["join_path"]))
        for page in (rude, victim):
            page.wait_for_selector("#chat-input")
        # The rude line, reported from the table by the other player.
        rude.fill("#chat-input", "you play like a potato")
        rude.press("#chat-input", "Enter")
        victim.click(".chat-line[data-seat='0'] .chat-report")
        # The writer's own line offers no Report (a button that would do nothing).
        rude.wait_for_selector(".chat-line[data-seat='0']")
        assert rude.locator(".chat-line[data-seat='0'] .chat-report").count() == 0
        victim.select_option("#report-reason", "abuse")
        victim.fill("#report-text", "insults in the chat")
        victim.click("#report-send")
        said = "([id, text]) => document.getElementById(id)?.textContent.includes(text)"
        victim.wait_for_function(said, arg=["report-status", words["report.sent"]])
        # The moderator's page: the report, acted on (the name filled in), resolved; the mute applied.
        mod.goto(server.base + "/admin")
        row = mod.locator(".report-row", has_text="you play like a potato")
        row.wait_for()
        assert names["rude"] in row.inner_text() and names["victim"] in row.inner_text()
        reported_line = row.inner_text()
        row.locator("button[id^='act-on-']").click()
        assert mod.input_value("#sanction-name") == names["rude"]
        mod.fill("#sanction-reason", "insults")
        mod.click("#sanction-send")
        mod.wait_for_function(said, arg=["admin-status", words["admin.sanctioned"]])
        mod.locator(".sanction-row", has_text=names["rude"]).wait_for()
        row.locator("input[id^='note-']").fill("muted for a week")
        row.locator("button[id^='resolve-']").click()
        mod.wait_for_function(said, arg=["admin-status", words["admin.resolved"]])
        mod.wait_for_function(said, arg=["admin-log", "muted for a week"])
        # Moments in the reader's words and local time, not the wire's UTC "2026-12-02T05:20:06Z".
        for text in (reported_line, mod.locator("#admin-log").inner_text(),
                     mod.locator(".sanction-row", has_text=names["rude"]).inner_text()):  # fmt: skip
            assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:", text), text
        # The muted player's next line is refused, and says why.
        rude.fill("#chat-input", "hello?")
        rude.press("#chat-input", "Enter")
        rude.wait_for_function(said, arg=["chat-status", "insults"])
        assert words["chat.err.muted"].split("{")[0] in rude.locator("#chat-status").inner_text()
        # A player's page offers Report to a signed-in reader, never on their own page nor to a guest
        # (whom the server would refuse only once the form was filled in).
        rude_page = f"{server.base}/players/{names['rude']}"
        victim.goto(rude_page)
        victim.wait_for_selector("#report-player")
        # After the page's links and its content, not above them.
        links, report = victim.locator(".page-links").bounding_box(), victim.locator("#report-player").bounding_box()
        last_heading = victim.locator("h2").last.bounding_box()
        assert links and report and last_heading and report["y"] > last_heading["y"] > links["y"]
        rude.goto(rude_page)
        rude.wait_for_selector("#player-name")
        assert rude.locator("#report-player").count() == 0
        guest_context, guest, _ = new_page(browser, "en")
        try:
            guest.goto(rude_page)
            guest.wait_for_selector("#player-name")
            assert guest.locator("#report-player").count() == 0
        finally:
            guest_context.close()
        for who in pages:
            assert pages[who][2] == [], (who, pages[who][2])
    finally:
        for context, _, _ in pages.values():
            context.close()
