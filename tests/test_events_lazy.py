"""Events cost nothing when nobody reads them: ``apply`` returns an ``EventList`` that
builds its ``Event`` objects on first use, and reads exactly like the list an eager build gave."""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest

import parlor.core.events as events_module
from parlor import games
from parlor.core import EventKind, EventList, for_seat, private, public, raw_private, raw_public


def lazy() -> EventList:
    return EventList([raw_public("a", x=1), raw_private(2, "b", y=[1]), raw_private([0, 1], "c")])


WANT = [public("a", x=1), private(2, "b", y=[1]), private([0, 1], "c")]


def test_an_event_list_reads_like_the_eager_list_every_way():
    assert lazy() == WANT and WANT == lazy() and not (lazy() != WANT) and lazy() == lazy()  # noqa: SIM300, SIM202 (both sides on purpose)
    assert len(lazy()) == 3 and bool(lazy()) and not EventList([]) and not EventList()
    assert list(lazy()) == WANT and [*lazy()] == WANT and tuple(lazy()) == tuple(WANT)
    assert lazy()[0] == WANT[0] and lazy()[1:] == WANT[1:] and lazy()[-1].visible_to == frozenset({0, 1})
    assert [] + lazy() == WANT and lazy() + [] == WANT and lazy() + lazy() == WANT + WANT  # noqa: RUF005
    assert lazy() * 2 == WANT * 2 and 2 * lazy() == WANT * 2 and lazy() <= WANT and not lazy() < WANT
    grown: list = []
    grown.extend(lazy())
    grown += lazy()
    assert grown == WANT + WANT
    mine = lazy()
    mine += lazy()
    assert mine == WANT + WANT
    for copied in (copy.copy(lazy()), copy.deepcopy(lazy()), pickle.loads(pickle.dumps(lazy()))):
        assert type(copied) is EventList and copied == WANT and len(copied) == 3
    assert repr(lazy()) == repr(WANT) and str(lazy()) == str(WANT)
    assert WANT[1] in lazy() and lazy().index(WANT[1]) == 1 and lazy().count(WANT[0]) == 1
    assert list(reversed(lazy())) == WANT[::-1] and sorted(lazy(), key=lambda e: e.kind) == WANT
    assert for_seat(lazy(), 2) == WANT[:2] and for_seat(lazy(), None) == WANT[:1]
    assert json.dumps([e.to_json() for e in lazy()]) == json.dumps([e.to_json() for e in WANT])
    assert isinstance(lazy(), list)
    changed = lazy()
    changed.append(WANT[0])
    del changed[0]
    changed[0] = WANT[2]
    assert changed == [WANT[2], WANT[2], WANT[0]] and changed.pop() == WANT[0]
    changed.clear()
    assert changed == []


PLAYED = EventKind("played", "seat", "card")


def test_an_event_kind_with_a_tuple_of_values_reads_like_the_dict_form():
    tupled = EventList([(PLAYED, (1, "Iron"), None), (PLAYED, (2, "Clay"), 2), (PLAYED, (0, None), frozenset({0, 3}))])
    assert tupled == [public("played", seat=1, card="Iron"), private(2, "played", seat=2, card="Clay"),
                      private([0, 3], "played", seat=0, card=None)]  # fmt: skip
    assert tupled[0].to_json() == {"event": "played", "data": {"seat": 1, "card": "Iron"}}
    assert pickle.loads(pickle.dumps(PLAYED)).fields == ("seat", "card") and "played" in repr(PLAYED)


def test_an_event_kind_refuses_a_repeated_field_and_values_that_do_not_fit():
    with pytest.raises(ValueError, match="twice"):
        EventKind("played", "seat", "seat")
    with pytest.raises(ValueError, match="has fields"):
        list(EventList([(PLAYED, (1,), None)]))


def test_private_seats_are_frozen_when_the_event_is_made():
    seats = [0, 1]
    events = EventList([raw_private(seats, "c")])
    seats.append(2)
    assert events[0].visible_to == frozenset({0, 1})


@pytest.mark.parametrize("name", games.names())
def test_the_plain_loop_builds_no_event_and_readers_get_every_event(name, monkeypatch):
    built = []
    real = events_module.build_event
    monkeypatch.setattr(events_module, "build_event", lambda raw: built.append(raw) or real(raw))
    game = games.get(name)
    rng = random.Random(3)
    s = game.new_game(players=game.min_players + 1, seed=3)
    seen = 0
    while not s.is_over:
        seat = s.to_move[0] if len(s.to_move) == 1 else rng.choice(list(s.to_move))
        got = s.apply(seat, rng.choice(s.legal_actions(seat)))
        assert type(got) is EventList
        if rng.random() < 0.5:
            seen += len(got)  # read: built now, all of them
            assert all(type(e) is events_module.Event for e in got)
    assert seen > 0 and len(built) == seen  # nothing was built for the lists nobody read
