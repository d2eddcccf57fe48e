"""The browser the tests drive: what conftest.launch_chromium promises."""

from __future__ import annotations

from typing import Any

from .conftest import FEATURES_OFF, browser_command_lines, command_lines_started_here


def renderers_started_here() -> int:
    return sum(any("--type=renderer" in arg for arg in line) for line in command_lines_started_here())


def test_the_features_playwright_turns_off_stay_off_and_so_do_ours(browser: Any) -> None:
    """Chromium keeps only its last ``--disable-features`` switch: that one must name every feature
    of Playwright's own switch (the first) and ours."""
    (line,) = browser_command_lines()  # the session's browser
    switches = [arg[19:].split(",") for arg in line if arg.startswith("--disable-features=")]
    assert len(switches) == 2, switches
    playwrights, last = switches
    assert "PaintHolding" in playwrights  # (Playwright's list is the one read: it names this feature)
    assert set(playwrights) <= set(last) and set(FEATURES_OFF) <= set(last), (playwrights, last)


def test_a_context_starts_one_renderer_for_its_page(browser: Any) -> None:
    """No renderer for the address bar's suggestions: three contexts, one page each, add at most
    three renderers (and one kept spare)."""
    before = renderers_started_here()
    contexts = [browser.new_context() for _ in range(3)]
    try:
        for context in contexts:
            context.new_page().goto("data:text/html,<p>one page</p>")
        assert renderers_started_here() - before <= 4
    finally:
        for context in contexts:
            context.close()


def test_a_helper_caught_before_it_starts_is_not_taken_for_a_second_browser(monkeypatch: Any) -> None:
    """A process the browser has forked and not yet started as a helper still shows the browser's
    command line: caught in that moment it is the same browser, not a second one (on a busy machine
    ``launch_chromium`` once found "2" browsers just started, and failed)."""
    from . import conftest

    browser = ["/usr/lib/chromium/chromium", "--headless", "--user-data-dir=/tmp/profile-a"]
    other = ["/usr/lib/chromium/chromium", "--headless", "--user-data-dir=/tmp/profile-b"]
    helper = ["/usr/lib/chromium/chromium --type=renderer --user-data-dir=/tmp/profile-a", ""]
    seen = [browser, browser, helper, other]  # the second "browser" is a helper being forked
    monkeypatch.setattr(conftest, "command_lines_started_here", lambda: seen)
    assert browser_command_lines() == [browser, other]
