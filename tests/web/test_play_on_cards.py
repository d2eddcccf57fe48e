"""Playing on the cards (src/parlor/web/js/picks.js and each game's parts()): a count picked beside
its card, and Sweet Nose's sweetness picked per sweet with the live score. (Games of each game played
only on the cards until every usual kind of decision was clicked through, then to the end screen's
score breakdown: test_card_elements.py, with a check of the table at every step.)"""

from __future__ import annotations

import random
from typing import Any

import pytest

from .conftest import Server
from .test_browser import DESKTOP, LANGS, PHONE, YOUR_TURN_OR_OVER, Seat

# On the table, in your hand (on a phone it lies in the dock under the table) or in the pick bar.
PICKS = ":is(.board, #my-hand) .pickable, .pick-chips .chip:not([disabled])"


def settle(seat: Seat, before: str, drawn: str) -> None:
    """Waits for the click's effect: a new position, or the pick bar redrawn (and no move in flight)."""
    seat.page.wait_for_function(
        f"document.body.dataset.pending === '0' && (document.body.dataset.version !== '{before}'"
        f" || document.body.dataset.drawn !== '{drawn}' || document.body.dataset.ignoredClicks !== undefined)"
    )
    seat.page.wait_for_timeout(40)  # past the (shortened) click guard


def click_on_cards(seat: Seat, rng: random.Random) -> bool:
    """One click on the table or the pick bar (a part, a picker value or Confirm). False if nothing to do."""
    page = seat.page
    if page.evaluate("document.body.dataset.yourTurn") != "1":
        return False
    # Your turn is noticed in a background tab too: the title and the icon say it.
    assert page.title().startswith("●"), page.title()
    assert page.evaluate("document.querySelector('link[rel=icon]').dataset.state") == "turn"
    before, drawn = seat.version(), page.evaluate("document.body.dataset.drawn")
    picker = page.locator("#sweetness-picker")
    if picker.count():
        values = page.locator("#sweetness-picker button.value:not(.on)")
        values.nth(rng.randrange(values.count())).click()
        page.wait_for_function(f"document.body.dataset.drawn !== '{drawn}'")
        page.wait_for_timeout(40)
        page.locator("#assign-confirm").click()
        settle(seat, before, page.evaluate("document.body.dataset.drawn"))
        return True
    picks = page.locator(PICKS)
    confirm = page.locator("#confirm:not([disabled]), [id^=confirm-]:not([disabled])")
    n = picks.count()
    if confirm.count() and (not n or rng.random() < 0.6):
        confirm.nth(rng.randrange(confirm.count())).click()
    elif n:
        picks.nth(rng.randrange(n)).click()
    else:
        raise AssertionError(f"your turn, but nothing to click on the table:\n{page.locator('#moves').inner_text()}")
    settle(seat, before, drawn)
    return True


def test_a_count_is_picked_beside_the_card(server: Server, browser: Any) -> None:
    """Mamma Mia!: clicking a kind you hold several of offers the counts right beside that card on the
    table (not in a bar elsewhere); picking one and confirming plays that many."""
    rng = random.Random(5)
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    table = server.create("mamma-mia", 3, seats)
    seat = Seat(browser, server.url(table["seats"][0]["join_path"]))
    page = seat.page
    try:
        for _ in range(60):
            assert not seat.over(), "no kind held twice on any turn of the game"
            if page.evaluate("document.body.dataset.yourTurn") != "1":
                page.wait_for_function(YOUR_TURN_OR_OVER)  # the bots' moves, however long they take
                continue
            kinds = page.locator('.board [data-pick^="hand:"].pickable')
            for i in range(kinds.count()):
                drawn = page.evaluate("document.body.dataset.drawn")
                kinds.nth(i).click()
                page.wait_for_function(f"document.body.dataset.drawn !== '{drawn}'")
                chips = page.locator(".board .pick-inline .chip")
                if chips.count() >= 2:
                    break
                page.locator("#cancel").click()
            else:
                click_on_cards(seat, rng)  # no kind held twice now: play on and look again next turn
                continue
            # The counts stand right after the chosen card, inside the table; the pick bar has none.
            assert page.evaluate(
                "document.querySelector('.board .pick-inline').previousElementSibling.classList.contains('picked')"
            )
            assert page.locator("#moves .pick-chips").count() == 0
            labels = [chips.nth(i).inner_text() for i in range(chips.count())]
            assert labels == [f"\u00d7{n}" for n in range(1, len(labels) + 1)], labels
            before, drawn = seat.version(), page.evaluate("document.body.dataset.drawn")
            chips.nth(1).click()
            page.wait_for_function(f"document.body.dataset.drawn !== '{drawn}'")
            confirm = page.locator("#confirm")
            assert "2 \u00d7" in confirm.inner_text(), confirm.inner_text()
            confirm.click()
            page.wait_for_function(f"document.body.dataset.version !== '{before}'")
            events = [e for f in seat.states() for e in f["events"]]
            played = [e for e in events if e["event"] == "toppings_played" and e["data"].get("seat") == 0]
            assert played and played[-1]["data"]["count"] == 2, played[-3:]
            assert not seat.errors, seat.errors
            return
        raise AssertionError("it never became possible to play two toppings of one kind")
    finally:
        seat.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE])
def test_sweetness_by_dragging_one_sweet_onto_another(server: Server, browser: Any, viewport: dict) -> None:
    """Sweet Nose: dragging a sweet onto another swaps their values, and the placement confirmed is
    the one shown."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    table = server.create("sweet-nose", 3, seats)
    seat = Seat(browser, server.url(table["seats"][0]["join_path"]), viewport=viewport)
    page = seat.page
    try:
        page.wait_for_selector("#sweetness-picker")

        def values() -> list[int]:
            rows = page.locator("#sweetness-picker .assign-row")
            return [int(rows.nth(i).locator("button.value.on").inner_text()) for i in range(rows.count())]

        start = values()
        assert sorted(start) == [1, 2, 3, 4, 5]
        rows = page.locator("#sweetness-picker .assign-row")
        rows.nth(0).locator(".assign-sweet").drag_to(rows.nth(3))
        page.wait_for_function("!document.querySelector('#sweetness-picker .dragging')")
        after = values()
        assert after == [start[3], start[1], start[2], start[0], start[4]], (start, after)
        # A drag that ends where it began changes nothing.
        rows.nth(2).locator(".assign-sweet").drag_to(rows.nth(2))
        assert values() == after
        kinds = page.evaluate(
            "Array.from(document.querySelectorAll('#sweetness-picker .assign-row'), r => r.dataset.kind)"
        )
        before = seat.version()
        page.locator("#assign-confirm").click()
        page.wait_for_function(f"document.body.dataset.version !== '{before}'")
        placed = [s["view"]["players_info"][0]["sweetness"] for s in seat.states()]
        placed = [p for p in placed if p]
        assert placed, "the placement was not played"
        assert [placed[-1][k] for k in kinds] == after, (placed[-1], kinds, after)
        assert not seat.errors, seat.errors
    finally:
        seat.close()


def test_the_sweetness_picker_fits_its_panel_in_every_language(server: Server, browser: Any) -> None:
    """Long sweet names (Czech: "Broskvová buchta dlouhověkosti") shrink in the picker; they once
    widened it past the turn panel, hiding the value buttons and the confirm button off-screen."""
    seats = [{"kind": "human", "name": "Eva"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    table = server.create("sweet-nose", 3, seats)
    seat = Seat(browser, server.url(table["seats"][0]["join_path"]), viewport=DESKTOP)
    page = seat.page
    try:
        page.wait_for_selector("#sweetness-picker")
        for lang in LANGS:
            page.select_option("#lang", lang)
            page.wait_for_function(f"document.documentElement.lang === '{lang}'")
            for size, layout in ((DESKTOP, "desktop"), (PHONE, "phone")):
                page.set_viewport_size(size)
                # Drawn again for the new width (the phone docks the picker), then measured.
                page.wait_for_function(f"document.body.dataset.layout === '{layout}'")
                page.locator("#assign-confirm").wait_for()
                page.locator("#sweetness-picker button.value").last.wait_for()
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= size["width"] + 1, f"{lang} {size}: the page is {width}px wide"
                panel = page.locator("#moves").bounding_box()
                for box in (
                    page.locator("#sweetness-picker button.value").last.bounding_box(),
                    page.locator("#assign-confirm").bounding_box(),
                ):
                    assert box["x"] + box["width"] <= panel["x"] + panel["width"] + 1, (lang, size, box, panel)
        assert not seat.errors, seat.errors
    finally:
        seat.close()
