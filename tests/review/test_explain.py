"""Why the better move is better (``parlor.review.explain``): worked examples per game, secrecy.

The worked examples are positions where the rules alone say what one move gains over another
(a topping card kept, an order baked, a work's points, the sweetness of a placing), computed
here from the seat's view, not from the explainer. The secrecy test takes the honesty tests'
twin games (an opponent's hidden cards set otherwise, the seat unable to tell) and asks for the
reasons of many pairs of moves at the seat's decisions where the hidden cards differ: they must
be identical.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from parlor import games
from parlor.core import replay_iter
from parlor.review import DecisionReview, ReviewError
from parlor.review.explain import AGREEMENT, GAMES, explain, explain_decision, reason_words, why_heading

from .test_honesty import TWINS, Recording, canon


def random_play_until(name: str, players: int, seed: int, wanted: Any, limit: int = 40) -> tuple[Any, int]:
    """Seeded random play, game after game, to the first position ``wanted(state, seat)`` accepts."""
    game = games.get(name)
    for offset in range(limit):
        rnd = random.Random(seed + offset)
        state = game.new_game(players, seed + offset)
        while state.to_move:
            seat = state.to_move[0]
            if wanted(state, seat):
                return state, seat
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rnd.randrange(len(legal))])
    raise AssertionError(f"{name}: no wanted position in {limit} games")


def reasons(state: Any, seat: int, better: Any, played: Any) -> tuple[dict[str, Any], ...]:
    return explain(state, seat, better, played, step=len(state.history()), seed=1)


# ------------------------------------------------------------------------------ worked examples
def test_mamma_mia_playing_fewer_toppings_keeps_them_in_hand() -> None:
    from parlor.games.mamma_mia.actions import PlayToppings

    def three_of_a_kind(state: Any, seat: int) -> bool:
        return any(type(a) is PlayToppings and a.count == 3 for a in state.legal_actions(seat))

    state, seat = random_play_until("mamma-mia", 3, 0, three_of_a_kind)
    kind = next(a.kind for a in state.legal_actions(seat) if type(a) is PlayToppings and a.count == 3)
    one, three = PlayToppings(kind, 1), PlayToppings(kind, 3)
    assert reasons(state, seat, one, three) == ({"key": "mamma-mia.hand", "n": 2},)
    # The other way round the better move keeps nothing more: nothing is said.
    assert reasons(state, seat, three, one) == ()


def test_mamma_mia_completing_the_last_order_in_the_oven_bakes_it() -> None:
    """The seat tops up its order from its hand or declines it; no card is left in the oven after
    it (the seat's view says so), so nothing else bakes now: completing bakes one order more."""
    from parlor.games.mamma_mia.actions import CompleteFromHand, Decline

    def last_order_top_up(state: Any, seat: int) -> bool:
        legal = state.legal_actions(seat)
        kinds = {type(a) for a in legal}
        return CompleteFromHand in kinds and Decline in kinds and state.view(seat)["oven"]["size"] == 0

    state, seat = random_play_until("mamma-mia", 3, 0, last_order_top_up)
    complete = next(a for a in state.legal_actions(seat) if type(a) is CompleteFromHand)
    assert reasons(state, seat, complete, Decline()) == ({"key": "mamma-mia.pizzas", "n": 1},)
    assert reasons(state, seat, Decline(), complete)[:1] != ({"key": "mamma-mia.pizzas", "n": 1},)


def test_mottainai_completing_a_work_scores_its_value() -> None:
    from parlor.games.mottainai.actions import Complete, Pray
    from parlor.games.mottainai.data import CARD_IDS, VAL

    def can_complete(state: Any, seat: int) -> bool:
        legal = state.legal_actions(seat)
        return any(type(a) is Complete for a in legal) and Pray() in legal

    state, seat = random_play_until("mottainai", 3, 0, can_complete)
    complete = next(a for a in state.legal_actions(seat) if type(a) is Complete)
    value = VAL[CARD_IDS.index(complete.card)]
    assert reasons(state, seat, complete, Pray())[0] == {"key": "mottainai.works", "n": value}


def test_sweet_nose_the_lower_values_on_the_sweets_held_most_count_less_sweetness() -> None:
    """Placing the sweetness cards: each sweet held counts its card's value (and the market's
    bonus, the same for both placings), so the difference is the sum over the kinds of the value
    difference times the sweets held (tray and bowl), from the seat's view."""
    from parlor.games.sweet_nose.actions import AssignSweetness
    from parlor.games.sweet_nose.data import KINDS

    state = games.get("sweet-nose").new_game(3, 4)
    seat = 1
    info = state.view(seat)["players_info"][seat]
    held = [info["tray"].get(k, 0) + info["bowl"].get(k, 0) for k in KINDS]
    by_count = sorted(range(len(KINDS)), key=lambda k: -held[k])
    low_on_most, high_on_most = [0] * len(KINDS), [0] * len(KINDS)
    for rank, k in enumerate(by_count):
        low_on_most[k], high_on_most[k] = rank + 1, len(KINDS) - rank
    better, played = AssignSweetness(tuple(low_on_most)), AssignSweetness(tuple(high_on_most))
    gained = sum((high_on_most[k] - low_on_most[k]) * held[k] for k in range(len(KINDS)))
    assert gained > 0
    assert reasons(state, seat, better, played) == ({"key": "sweet-nose.sweetness", "n": gained},)
    assert reasons(state, seat, played, better) == ()


def test_an_unflagged_decision_is_not_explained_and_reasons_round_trip() -> None:
    state = games.get("mamma-mia").new_game(3, 0)
    seat = state.to_move[0]
    legal = state.legal_actions(seat)
    estimate = {"samples": 2, "win": 0.5, "win_se": 0.1, "score": 1, "score_se": 0.1, "place": 2, "place_se": 0.1}
    data = {
        "step": 0, "seat": seat, "phase": "round-1", "label": "good", "played": legal[0].to_json(),
        "best": legal[1].to_json(), "loss": 0.01, "loss_se": 0.02, "iterations": 4,
        "moves": [{"action": legal[1].to_json(), **estimate}, {"action": legal[0].to_json(), **estimate}],
    }  # fmt: skip
    decision = DecisionReview.from_json(data)  # a review made before reasons were given reads as none
    assert decision.why == () and decision.to_json()["why"] == []
    assert explain_decision(decision, state, seed=0) == ()
    with_reason = {**data, "why": [{"key": "mamma-mia.hand", "n": 2}]}
    assert DecisionReview.from_json(with_reason).to_json() == with_reason
    for bad in ([{"n": 2}], [{"key": "mamma-mia.hand", "n": "two"}], ["hand"]):
        with pytest.raises(ReviewError):
            DecisionReview.from_json({**data, "why": bad})


def test_a_reason_holds_in_at_least_nine_worlds_in_ten_counting_those_not_compared() -> None:
    from parlor.review.explain import _agreed

    assert AGREEMENT == 0.9
    assert _agreed([2] * 29 + [0] * 3, 32) == 2  # 29 of 32 = 90.6%
    assert _agreed([2] * 28 + [0] * 4, 32) == 0  # 28 of 32 = 87.5%
    assert _agreed([2] * 28, 32) == 0  # four worlds where the moves reached different parts of the game
    assert _agreed([-3] * 32, 32) == -3


def test_the_words_come_from_the_catalogs_and_the_page_uses_the_same_threshold() -> None:
    assert reason_words({"key": "mamma-mia.hand", "n": 2}) == "It leaves you 2 more topping cards in your hand."
    assert reason_words({"key": "mottainai.works", "n": 1}) == "Your works score 1 more point."
    assert "90%" in why_heading() and "{" not in why_heading()
    assert reason_words({"key": "no.such", "n": 1}) == "no.such"
    # The other languages, each in its plural forms (Czech: one, few, other).
    assert reason_words({"key": "mottainai.works", "n": 1}, "cs") == "Vaše díla mají o 1 bod víc."
    assert reason_words({"key": "mottainai.works", "n": 3}, "cs") == "Vaše díla mají o 3 body víc."
    assert reason_words({"key": "mottainai.works", "n": 5}, "cs") == "Vaše díla mají o 5 bodů víc."
    assert reason_words({"key": "mottainai.works", "n": 2}, "zh-Hant") == "你的作品多得 2 分。"
    assert reason_words({"key": "mottainai.works", "n": 2}, "ja") == "あなたの作品の得点が 2 点多くなります。"
    assert all("90%" in why_heading(lang) for lang in ("en", "zh-Hant", "ja", "cs"))
    source = (Path(__file__).parents[2] / "src/parlor/web/js/review.js").read_text()
    found = re.search(r"WHY_AGREEMENT = ([\d.]+);", source)
    assert found and float(found.group(1)) == AGREEMENT
    web = Path(__file__).parents[2] / "src/parlor/web/i18n/en.json"
    keys = {
        k.removeprefix("review.why.").split("#")[0] for k in json.loads(web.read_text()) if k.startswith("review.why.")
    }
    assert keys == {m.key for _, measures in GAMES.values() for m in measures}


# ------------------------------------------------------------------------------ secrecy
def pairs_at_decisions(record: dict[str, Any], seat: int, pairs: int = 3) -> list[tuple[int, Any, Any, Any]]:
    """(step, state, better, played) at the seat's decisions before its last: the first legal move
    against the next ``pairs`` ones, and the other way round."""
    actions = record["actions"]
    last = max(i for i, (s, _) in enumerate(actions) if s == seat)
    out = []
    for step, state in enumerate(replay_iter(record)):
        if step >= last:
            break
        if actions[step][0] == seat and len(legal := state.legal_actions(seat)) > 1:
            for other in legal[1 : 1 + pairs]:
                out.append((step, state, legal[0], other))
                out.append((step, state, other, legal[0]))
    return out


@pytest.mark.parametrize("name", sorted(TWINS))
def test_two_games_the_seat_cannot_tell_apart_get_the_same_reasons(name: str) -> None:
    record_a, record_b, _ = TWINS[name]()
    seat = 0 if name != "sweet-nose" else 1
    in_a, in_b = pairs_at_decisions(record_a, seat), pairs_at_decisions(record_b, seat)
    assert [(s, b, p) for s, _, b, p in in_a] == [(s, b, p) for s, _, b, p in in_b]
    differing = said = 0
    for (step, a, better, played), (_, b, _, _) in zip(in_a, in_b):
        first = explain(a, seat, better, played, step=step, seed=3, worlds=8)
        assert first == explain(b, seat, better, played, step=step, seed=3, worlds=8), (step, better, played)
        if canon(a.to_json()["state"]) != canon(b.to_json()["state"]):
            differing += 1
            said += bool(first)
    assert differing >= 10, differing  # pairs of moves judged where the hidden cards differ...
    assert said >= 3, said  # ... and reasons were given there, not only silence


@pytest.mark.parametrize("name", ["mamma-mia", "sweet-nose", "mottainai"])
def test_the_explainer_reads_a_position_only_through_its_sampled_worlds(name: str) -> None:
    """Besides the game it is of, the position is asked for worlds dealt for the seat, nothing else."""
    state, seat = random_play_until(name, 3, 9, lambda s, p: len(s.history()) >= 12 and len(s.legal_actions(p)) > 1)
    legal = state.legal_actions(seat)
    position = Recording(state)
    explain(position, seat, legal[0], legal[1], step=len(state.history()), worlds=4)  # type: ignore[arg-type]
    assert position.read == {"game", "determinize"}
