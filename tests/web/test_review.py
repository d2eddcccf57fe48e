"""Game review and hints in Debian's Chromium: a game at a table made with hints on (the hint button
asked once at the table, the rest of the game played over the API), the review asked for from the
result screen, and the replay page's evaluation graph, labels, verdicts and the hint shown at its
step; in two languages and at phone size."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from parlor.review import Review, summarize

from .conftest import Server, finish_over_the_api, start_server, stop_server
from .test_accounts_web import SMALL_TARGETS
from .test_replay import open_page

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def review_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose judge searches only a few iterations per decision (the machine is shared)."""
    running = start_server(tmp_path_factory.mktemp("review"), "--review-budget", "4")
    try:
        yield running
    finally:
        stop_server(running)


def create(server: Server, hints: bool) -> dict[str, Any]:
    body = {
        "game": "mamma-mia",
        "players": 2,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
        "hints": hints,
    }
    r = httpx.post(f"{server.base}/api/tables", json=body, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def test_hints_at_the_table_and_the_review_on_the_replay_page(
    review_server: Server, browser: Any, screenshots: Path
) -> None:
    server = review_server
    created = create(server, hints=True)
    table_id = created["table"]["id"]
    context, page, errors = open_page(browser, server.url(created["seats"][0]["join_path"]), ready="body")
    try:
        page.wait_for_selector("#moves.your-turn", timeout=60000)
        hinted_at = int(page.evaluate("document.body.dataset.version"))
        legal = page.locator("#move-list button.move").count()
        page.click("#hint")
        page.wait_for_selector("#hint-moves li", timeout=120000)
        shown = page.locator("#hint-moves li").count()
        assert 1 <= shown <= min(3, legal)
        assert "%" in page.locator("#hint-moves").inner_text()
        page.screenshot(path=str(screenshots / "hint_mamma_mia_en.png"), full_page=True)
        # The rest of the game over the API, with the seat's token (the review judges the seat's
        # decisions, made anywhere; how a table page plays a move is the whole games' business, in
        # test_browser.py); then the seat's page again, at the end.
        address = page.url
        page.close()
        finish_over_the_api(server, table_id, [address.split("#token=")[1]])
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(address)
        page.wait_for_selector("#result #review-link")
        page.click("#review-link")
        page.wait_for_selector("body[data-ready='1'][data-steps]")
        # Asked for from the result screen: the judge works (a decision at a time), then the graph shows.
        page.wait_for_selector("#review[data-status='done']", timeout=300000)
        token = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('token')")
        review = httpx.get(
            f"{server.base}/api/tables/{table_id}/review", headers={"authorization": f"Bearer {token}"}, timeout=10
        ).json()["review"]
        decisions = review["decisions"]
        assert decisions and review["complete"]
        assert page.locator("#review-graph circle.review-point").count() == len(decisions)
        assert page.locator("#review-decisions li[data-label]").count() == len(decisions)
        labels = [d["label"] for d in decisions]
        assert (
            page.locator("#review-decisions li[data-label]").evaluate_all("els => els.map(e => e.dataset.label)")
            == labels
        )
        assert "Accuracy" in page.locator("#review-summary").inner_text()
        # The page's summary is the library's: the accuracy and the win chance given away.
        summary = summarize(Review.from_json(review))
        assert f"{math.floor(summary['accuracy'] * 100 + 0.5)}%" in page.locator("#review-summary").inner_text()
        given_away = page.locator("#review-total-loss").inner_text()
        assert f": {math.floor(summary['total_loss'] * 100 + 0.5)} percentage" in given_away
        # A point of the graph jumps to its decision, where the verdict is said.
        target = decisions[len(decisions) // 2]
        page.click(f"#review-graph circle[data-step='{target['step']}']")
        page.wait_for_function(f"document.body.dataset.step === '{target['step']}'")
        page.wait_for_selector(f"#review-verdict[data-label='{target['label']}']")
        # A flagged decision names the better move (and marks it on the cards where the board has it).
        flagged = [d for d in decisions if d["label"] in ("inaccuracy", "mistake", "blunder")]
        if flagged:
            page.click(f"#review-decisions li[data-step='{flagged[0]['step']}'] button")
            page.wait_for_function(f"document.body.dataset.step === '{flagged[0]['step']}'")
            page.wait_for_selector("#review-better")
        # The hint asked while playing shows at its step.
        page.evaluate(f"document.querySelector('#replay-slider').value = '{hinted_at}'")
        page.dispatch_event("#replay-slider", "input")
        page.wait_for_function(f"document.body.dataset.step === '{hinted_at}'")
        page.wait_for_selector("#replay-hint li")
        assert page.locator("#replay-hint li").count() == shown
        page.screenshot(path=str(screenshots / "review_mamma_mia_en.png"), full_page=True)
        page.select_option("#lang", "zh-Hant")
        page.wait_for_function("document.documentElement.lang === 'zh-Hant'")
        assert "準確度" in page.locator("#review-summary").inner_text()
        page.screenshot(path=str(screenshots / "review_mamma_mia_zh-Hant.png"), full_page=True)
        assert not errors, errors
        replay_url = page.url
    finally:
        context.close()
    # At phone size, in Czech: the graph fits the screen's width.
    context, page, errors = open_page(browser, replay_url, lang="cs", ready="body", viewport=PHONE)
    try:
        page.wait_for_selector("#review[data-status='done'] #review-graph")
        width = page.evaluate("document.querySelector('#review-graph').getBoundingClientRect().width")
        assert 0 < width <= PHONE["width"]
        assert "Přesnost" in page.locator("#review-summary").inner_text()
        # A finger's targets: each decision of the list is 44 px high, and a tap on the graph beside
        # the small points (at the bottom, on the line of a decision's step) opens that decision.
        heights = page.eval_on_selector_all(".review-decision > button", "bs => bs.map((b) => b.offsetHeight)")
        assert heights and min(heights) >= 44, heights
        last = page.locator("#review-graph .review-point").last
        step = last.get_attribute("data-step")
        dot, graph = last.bounding_box(), page.locator("#review-graph").bounding_box()
        assert dot and graph
        page.mouse.click(dot["x"] + dot["width"] / 2, graph["y"] + graph["height"] - 3)
        page.wait_for_function("step => document.body.dataset.step === step", arg=step)
        page.screenshot(path=str(screenshots / "review_mamma_mia_cs_phone.png"), full_page=True)
        assert not errors, errors
    finally:
        context.close()


def test_no_hint_button_without_hints_or_for_spectators_and_no_review_for_spectators(
    review_server: Server, browser: Any
) -> None:
    server = review_server
    plain = create(server, hints=False)
    context, page, errors = open_page(browser, server.url(plain["seats"][0]["join_path"]), ready="body")
    try:
        page.wait_for_selector("#moves.your-turn", timeout=60000)
        assert page.locator("#hint").count() == 0
        assert not errors, errors
    finally:
        context.close()
    hinted = create(server, hints=True)
    context, page, errors = open_page(browser, server.url(hinted["spectator_path"]), ready="body")
    try:
        page.wait_for_selector("body[data-version]")
        assert page.locator("#hint").count() == 0
        assert not errors, errors
    finally:
        context.close()


# ---- a Sweet Nose review on the replay page: the verdict names and marks the move ----------------------
DESKTOP_WIDE = {"width": 1366, "height": 900}
SWEET_KINDS = ["mung_bean_cake", "longevity_peach_bun", "peanut_brittle", "zhuangyuan_cake", "candied_haws"]
# How each language quotes the move played, and says "percentage points" (a loss of 26 of them).
WORDING = {
    "en": ("You played “", "26 percentage points more"),
    "zh-Hant": ("你走了「", "高出 26 個百分點"),
    "ja": ("あなたの手：「", "26 パーセントポイント高い"),  # noqa: RUF001 (Japanese writes a full-width colon)
    "cs": ("Zahráli jste „", "o 26 procentních bodů víc"),
}
# "Marked on the cards", said after the better move only when one of its cards is marked.
MARKED = {"en": "Marked on the cards", "zh-Hant": "已在牌上標出", "ja": "カード上に印", "cs": "Vyznačeno na kartách"}
# Why the better assignment is better (a reason stored with the decision, parlor.review.explain), in
# each language: the heading with the agreement threshold, then the reason's sentence.
WHY_WORDING = {
    "en": ("at least 90%", "Your sweetness is 7 lower"),
    "zh-Hant": ("至少 90%", "你的甜度低 7"),
    "ja": ("少なくとも 90%", "あなたの甘さが 7 低く"),
    "cs": ("aspoň v 90%", "máte sladkost o 7 nižší"),
}
WHY = [{"key": "sweet-nose.sweetness", "n": 7}]


def estimate(action: dict[str, Any], win: float) -> dict[str, Any]:
    return {"action": action, "samples": 40, "win": win, "win_se": 0.05, "score": 30.0, "score_se": 1.0,
            "place": 2.0, "place_se": 0.1}  # fmt: skip


def flagged_review(record: dict[str, Any], seat: int) -> tuple[dict[str, Any], int, int]:
    """A complete review of ``seat`` as the server stores it, with two flagged decisions: its first
    sweetness assignment (a mistake: another assignment was better by 26 points, with a reason why)
    and a later decision of another kind (a blunder, with none). The judge's numbers are set here (the judge's search is
    tested in tests/review/ and tests/server/); what this test checks is how the page says them."""
    from parlor.review import Review

    state = start_of(record)
    decisions, assign, other = [], None, None
    for index, (who, action) in enumerate(record["actions"]):
        if who == seat and len(state.legal_actions(seat)) > 1:
            moves = [a.to_json() for a in state.legal_actions(seat)]
            better = next(m for m in moves if m != action)
            if assign is None and action["type"] == "assign_sweetness":
                assign, label = index, "mistake"
            elif (
                assign is not None
                and other is None
                and action["type"] not in ("assign_sweetness", "end_turn")
                and ({"type": "end_turn"} in moves)
            ):
                # Ending the turn was better: a move of no card, so nothing is marked (nor said to be).
                other, label, better = index, "blunder", {"type": "end_turn"}
            else:
                better, label = action, "best"
            loss = 0.26 if label != "best" else 0.0
            decisions.append(
                {"step": index, "seat": seat, "phase": "round-1", "label": label, "played": action, "best": better,
                 "loss": loss, "loss_se": 0.02 if loss else 0.0, "iterations": 80,
                 "moves": [estimate(better, 0.4)] + ([estimate(action, 0.14)] if label != "best" else []),
                 "why": WHY if index == assign and label == "mistake" else []}
            )  # fmt: skip
        state.apply(who, state.game.action_from_json(action))
    assert assign is not None and other is not None
    review = {
        "format": 1, "game": record["game"], "players": record["players"], "seat": seat,
        "record_digest": "sha256:" + "0" * 64, "judge": {"budget": 4}, "decisions_total": len(decisions),
        "complete": True, "result": state.result().to_json(), "decisions": decisions,
    }  # fmt: skip
    Review.from_json(review)  # a review the library reads back
    return review, assign, other


def start_of(record: dict[str, Any]) -> Any:
    from parlor import games

    game = games.get(record["game"])
    return game.new_game(record["players"], record["seed"], game.options_from_json(record.get("options")))


@pytest.fixture(scope="module")
def sweet_nose_reviewed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, Any]]]:
    """A finished three-player Sweet Nose table (seat 0 a human's, with a known token; bots played it)
    whose review of seat 0 is stored, as the server stores one."""
    import json
    import sqlite3

    from parlor import games
    from parlor.bots import make_bot
    from parlor.server.table import hash_token

    from .conftest import write_record

    tmp = tmp_path_factory.mktemp("review-sweet-nose")
    server = start_server(tmp)
    try:
        seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
        created = server.create("sweet-nose", 3, seats)
    finally:
        stop_server(server)
    game, seed = games.get("sweet-nose"), 11
    state = game.new_game(3, seed)
    bots = [make_bot("medium", game, seed + p) for p in range(3)]
    while state.to_move:
        who = state.to_move[0]
        state.apply(who, bots[who].choose(state, who))
    record = state.record()
    review, assign, other = flagged_review(record, 0)
    table_id = created["table"]["id"]
    entries = [{"seat": s, "action": a, "by": "bot"} for s, a in record["actions"]]
    write_record(tmp / "parlor.db", table_id, seed, entries)
    token = "seat-zero-" + table_id
    db = sqlite3.connect(tmp / "parlor.db")
    try:
        with db:
            db.execute(
                "UPDATE parlor_seats SET token_hash = ?, joined = 1 WHERE table_id = ? AND seat = 0",
                (hash_token(token), table_id),
            )
            db.execute(
                "INSERT INTO parlor_reviews (table_id, seat, review, decisions, complete, updated_at)"
                " VALUES (?, 0, ?, ?, 1, CURRENT_TIMESTAMP)",
                (table_id, json.dumps(review), len(review["decisions"])),
            )
    finally:
        db.close()
    server = start_server(tmp)
    try:
        yield server, {"table_id": table_id, "token": token, "review": review, "assign": assign, "other": other}
    finally:
        stop_server(server)


def verdict_in_view(page: Any) -> bool:
    """The verdict's box is inside the viewport, below the top bar that stays on the screen."""
    return page.evaluate(
        "(() => { const b = document.querySelector('#review-verdict').getBoundingClientRect();"
        " const bar = document.querySelector('.topbar').getBoundingClientRect();"
        " return b.height > 0 && b.top >= Math.max(0, bar.bottom) && b.bottom <= window.innerHeight; })()"
    )


def played_sentence(page: Any) -> str:
    """The verdict's sentence on the move played, without the label before it."""
    label = page.locator("#review-played .review-label").inner_text()
    return page.locator("#review-played").inner_text()[len(label) :].strip()


def pick_decision(page: Any, step: int, how: str) -> None:
    """Scroll away, then pick the decision from the list (or the graph): the page goes to its step."""
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    if how == "list":
        page.click(f"#review-decisions li[data-step='{step}'] button")
    else:
        page.click(f"#review-graph circle[data-step='{step}']")
    page.wait_for_function(f"document.body.dataset.step === '{step}' && !!document.querySelector('#review-verdict')")


@pytest.mark.parametrize("lang", list(WORDING))
def test_a_sweet_nose_verdict_names_and_marks_the_assignment_and_comes_into_view(
    sweet_nose_reviewed: tuple[Server, dict[str, Any]], browser: Any, screenshots: Path, lang: str
) -> None:
    server, made = sweet_nose_reviewed
    url = f"{server.base}/replay/{made['table_id']}?anim=0#token={made['token']}"
    decisions = {d["step"]: d for d in made["review"]["decisions"]}
    assign, other = decisions[made["assign"]], decisions[made["other"]]
    quote, points = WORDING[lang]
    sizes = [("desktop", DESKTOP_WIDE), ("phone", PHONE)] if lang in ("en", "cs") else [("desktop", DESKTOP_WIDE)]
    for size, viewport in sizes:
        context, page, errors = open_page(browser, url, lang=lang, viewport=viewport)
        try:
            page.wait_for_selector("#review[data-status='done'] #review-decisions")
            # The summary's punctuation is the language's own (a Japanese or Chinese full stop).
            summary = page.inner_text("#review-summary")
            assert ("。" in summary and ". " not in summary) if lang in ("ja", "zh-Hant") else ". " in summary, summary
            pick_decision(page, assign["step"], "list")
            verdict = page.locator("#review-verdict")
            text = verdict.inner_text()
            assert "[object" not in text, text
            # The better assignment is named (its five sweets with their values) and said plainly.
            better = page.locator("#review-better")
            assert better.locator(".assign .assign-one").count() == 5
            shown = better.locator(".assign-one b").evaluate_all("els => els.map(e => e.textContent)")
            assert shown == [str(v) for v in assign["best"]["values"]]
            assert points in better.inner_text(), better.inner_text()
            assert MARKED[lang] in page.inner_text("#review-marked")
            assert played_sentence(page).startswith(quote), played_sentence(page)
            # ... and marked on the seat's five sweetness cards, each with the value it would get.
            marks = page.locator(".area-board .review-best[data-pick^='card:']")
            assert marks.count() == 5
            marked = marks.evaluate_all(
                "els => els.map(e => [e.dataset.pick, e.querySelector('.review-mark').textContent])"
            )
            assert marked == [[f"card:{k}", f"→{v}"] for k, v in zip(SWEET_KINDS, assign["best"]["values"])]
            # ... and why it is better, in the reader's words, with the threshold it holds to.
            heading, reason = WHY_WORDING[lang]
            why = page.locator("#review-why").inner_text()
            assert heading in why and reason in why and "{" not in why, why
            assert verdict_in_view(page), size
            page.screenshot(path=str(screenshots / f"review_sweet_nose_{lang}_{size}.png"))
            # Another flagged decision, picked on the graph: its verdict comes into view, the move quoted.
            pick_decision(page, other["step"], "graph")
            assert verdict_in_view(page), size
            played = played_sentence(page)
            assert "[object" not in played and played.startswith(quote), played
            assert page.locator("#review-better").count() == 1
            # "Marked on the cards" is said exactly when a card of the better move is marked.
            shown_marks = page.locator(".area-board .review-best").count()
            assert shown_marks == 0 and page.locator("#review-marked").count() == 0, shown_marks
            assert MARKED[lang] not in page.locator("#review-better").inner_text()
            assert page.locator("#review-why").count() == 0  # no reason stored: nothing is said
            assert "null" not in page.locator("#review-verdict").inner_text()  # (not even "null")
            if size == "phone":  # every control a finger touches is 44x44 px ("Try it again" among them)
                assert page.locator("#review-practice").count() == 1
                small = [x for x in page.evaluate(SMALL_TARGETS) if ".player-link" not in x]
                assert not small, small
                fold = page.locator("#review .review-list > summary").bounding_box()  # (a summary, too)
                assert fold is not None and fold["height"] >= 43.5, fold
            assert not errors, errors
        finally:
            context.close()


def test_try_it_again_opens_a_practice_table_at_the_decision(
    sweet_nose_reviewed: tuple[Server, dict[str, Any]], browser: Any, screenshots: Path
) -> None:
    server, made = sweet_nose_reviewed
    url = f"{server.base}/replay/{made['table_id']}#token={made['token']}"
    context, page, errors = open_page(browser, url, viewport=DESKTOP_WIDE)
    try:
        page.wait_for_selector("#review[data-status='done'] #review-decisions")
        pick_decision(page, made["assign"], "list")
        page.click("#review-practice")
        # The practice table: the seat places its sweetness cards again, hints on, bots around it.
        page.wait_for_url("**/play/**")
        page.wait_for_selector("#sweetness-picker", timeout=120000)
        assert page.locator("#hint").count() == 1
        assert "dealt afresh" in page.locator("#practice-note").inner_text()
        page.screenshot(path=str(screenshots / "practice_sweet_nose_en.png"))
        table_id = page.evaluate("decodeURIComponent(location.pathname.split('/').filter(Boolean).pop())")
        summary = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=30).json()
        assert (summary["rated"], summary["public"], summary["hints"], summary["practice"]) == (
            False,
            False,
            True,
            True,
        )
        assert [s["kind"] for s in summary["seats"]] == ["human", "bot", "bot"]
        assert not errors, errors
    finally:
        context.close()


def test_the_page_summarises_kept_reviews_as_the_library_does(review_server: Server, browser: Any) -> None:
    """The page computes the accuracy itself (review.js): on reviews with counted losses of every size,
    kept from measured games of each game (a `random` and a `hard` seat, blended with score losses,
    with every legal move's numbers, so that some decisions could cost too little to count, and one
    made before score losses were measured), its figures equal the library's, whole game and per
    phase. (A test review of a few decisions may count no loss at all, where any curve agrees.)"""
    import importlib.util
    import json

    from parlor.review.summary import accuracy_of, counts, has_score_losses

    root = Path(__file__).parents[2]
    spec = importlib.util.spec_from_file_location("review_separation", root / "scripts" / "review_separation.py")
    assert spec and spec.loader
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    kept = root / "docs" / "review"
    reviews: list[dict[str, Any]] = []
    for name in ("mamma-mia-2p", "mottainai-2p", "sweet-nose-3p", "mottainai-2p-seed42"):
        rows = json.loads((kept / f"separation-{name}.json").read_text())["rows"]
        for level in ("random", "hard"):
            # (the kept moves' numbers back among the moves, as in the full review)
            reviews.append(script.expand(next(r["review"] for r in rows if r["level"] == level)))
    expected = []
    for data in reviews:
        decisions = list(Review.from_json(data).decisions)
        blended = has_score_losses(decisions)
        groups = [decisions] + [[d for d in decisions if d.phase == p] for p in sorted({d.phase for d in decisions})]
        expected.append([accuracy_of(group, data["game"], blended) for group in groups])
    assert any(not has_score_losses(list(Review.from_json(r).decisions)) for r in reviews)  # (an old review too)
    # (decisions that do not count, in the reviews that are blended)
    assert any(not counts(d, r["game"], True) for r in reviews[:6] for d in Review.from_json(r).decisions), (
        "no decision below the bar"
    )
    assert len({round(e[0], 3) for e in expected}) > 4  # (figures that tell the curves apart)
    context, page, errors = open_page(browser, review_server.url("/"), ready="body")
    try:
        computed = page.evaluate(
            """async (reviews) => {
            const { accuracyOf, hasScoreLosses } = await import("/static/js/review.js");
            return reviews.map((r) => {
              const blended = hasScoreLosses(r.decisions);
              const phases = [...new Set(r.decisions.map((d) => d.phase))].sort();
              return [accuracyOf(r.decisions, r.game, blended),
                ...phases.map((p) => accuracyOf(r.decisions.filter((d) => d.phase === p), r.game, blended))];
            }); }""",
            reviews,
        )
        assert len(computed) == len(expected)
        for page_figures, library in zip(computed, expected, strict=True):
            assert page_figures == pytest.approx(library, abs=1e-12)
        assert not errors, errors
    finally:
        context.close()
