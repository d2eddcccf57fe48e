"""The Swiss pairing as pure functions (``server/tournaments/pairing.py``), with hypothesis: every
player exactly once a round, no opponent met twice when a round without a repeat exists, byes that
rotate, seats that balance, points per place, and the Buchholz tie-break."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from parlor.server.tournaments.pairing import Entrant, max_rounds, pair_round, standings, table_points


def sizes_for(count: int, per_table: int) -> list[int]:
    """The players a table: as few tables as hold everyone, spread evenly, the fuller ones first."""
    tables = -(-count // per_table)
    return [count // tables + (1 if i < count % tables else 0) for i in range(tables)]


def repeat_free_exists(ids: list[str], met: dict[str, set[str]], sizes: list[int]) -> bool:
    """Brute force: can ``ids`` sit at tables of ``sizes`` with nobody at a table with someone met before?"""
    if not ids:
        return True
    head, rest = ids[0], ids[1:]
    for size in set(sizes):
        others_sizes = list(sizes)
        others_sizes.remove(size)
        for others in combinations(rest, size - 1):
            group = [head, *others]
            if any(b in met[a] for a, b in combinations(group, 2)):
                continue
            if repeat_free_exists([r for r in rest if r not in others], met, others_sizes):
                return True
    return False


def play(
    count: int, per_table: int, rounds: int, seed: int
) -> list[tuple[list[list[str | None]], list[str], bool, bool]]:
    """A whole tournament with random results: each round's tables, byes, whether a round without a
    repeated opponent was possible when it was made, and whether the round repeated one."""
    rng = random.Random(seed)
    ids = [f"p{i:02d}" for i in range(count)]
    score = dict.fromkeys(ids, 0.0)
    met: dict[str, set[str]] = {i: set() for i in ids}
    seats = {i: [0] * per_table for i in ids}
    byes = dict.fromkeys(ids, 0)
    ratings = {i: rng.uniform(10, 40) for i in ids}
    out = []
    for _ in range(rounds):
        entrants = [Entrant(i, score[i], ratings[i], frozenset(met[i]), tuple(seats[i]), byes[i]) for i in ids]
        made = pair_round(entrants, per_table)
        playing = sorted(i for i in ids if i not in made.byes)
        possible = repeat_free_exists(playing, met, sizes_for(len(playing), per_table))
        repeated = any(b in met[a] for t in made.tables for a, b in combinations([x for x in t if x], 2))
        out.append((made.tables, made.byes, possible, repeated))
        for b in made.byes:
            byes[b] += 1
            score[b] += 1
        for table in made.tables:
            places = list(range(1, per_table + 1))
            rng.shuffle(places)
            points = table_points({"places": places}, table)
            humans = [a for a in table if a is not None]
            for seat, account in enumerate(table):
                if account is not None:
                    score[account] += points[seat]
                    seats[account][seat] += 1
                    met[account] |= set(humans) - {account}
    return out


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 11), per_table=st.integers(2, 5), seed=st.integers(0, 10_000), extra=st.integers(0, 2))
def test_every_player_once_a_round_and_no_repeats_where_avoidable(
    count: int, per_table: int, seed: int, extra: int
) -> None:
    if count < per_table:
        count = per_table
    rounds = max_rounds(count, per_table) + extra  # past what the field allows too: repeats then, but few
    for tables, byes, possible, repeated in play(count, per_table, rounds, seed):
        seated = [a for t in tables for a in t if a is not None]
        assert sorted(seated + byes) == sorted(f"p{i:02d}" for i in range(count)), "each player exactly once"
        assert all(len(t) == per_table for t in tables)
        bots = sorted(t.count(None) for t in tables)
        assert not bots or bots[-1] - bots[0] <= 1, "bot seats spread evenly"
        assert len(tables) == -(-len(seated) // per_table), "as few tables as hold everyone"
        if per_table == 2:
            assert len(byes) == count % 2 and all(None not in t for t in tables)
        else:
            assert byes == []
        assert not (possible and repeated), "an opponent met twice though a round without repeats existed"


@settings(max_examples=60, deadline=None)
@given(count=st.integers(1, 8).map(lambda k: 2 * k + 1), seed=st.integers(0, 10_000))
def test_byes_rotate(count: int, seed: int) -> None:
    """With an odd field, nobody gets a second bye before everyone has had one."""
    given_to: list[str] = []
    for _, byes, _, _ in play(count, 2, count, seed):
        given_to.extend(byes)
    assert len(given_to) == count and len(set(given_to)) == count


def test_no_repeat_pairing_found_in_each_round_of_a_sixteen_player_swiss() -> None:
    for seed in range(5):
        for _tables, _byes, possible, repeated in play(16, 2, 5, seed):
            assert possible and not repeated


def test_seats_go_to_who_sat_there_least_and_the_top_meets_the_next() -> None:
    a = Entrant("a", score=2, rating=30, seats=(2, 0))
    b = Entrant("b", score=2, rating=20, seats=(0, 2))
    c = Entrant("c", score=1, rating=25, seats=(1, 1))
    d = Entrant("d", score=0, rating=25, seats=(1, 1))
    made = pair_round([d, c, b, a], 2)
    assert made.tables == [["b", "a"], ["c", "d"]]  # a sat first twice: b takes seat 0 now
    # a met b already: a meets c, the next one not met
    made = pair_round([d, c, b, Entrant("a", 2, 30, frozenset({"b"}), (2, 0))], 2)
    assert sorted(map(sorted, made.tables)) == [["a", "c"], ["b", "d"]]


def test_points_per_place_and_absent_seats() -> None:
    assert table_points({"places": [2, 1]}, ["a", "b"]) == [0.0, 1.0]
    assert table_points({"places": [1, 1]}, ["a", "b"]) == [0.5, 0.5]
    assert table_points({"places": [3, 1, 2]}, ["a", "b", None]) == [0.0, 2.0, 1.0]
    assert table_points({"places": [1, 2, 3, 4, 5]}, list("abcde")) == [4.0, 3.0, 2.0, 1.0, 0.0]
    # An absent seat (a bot made most of its moves) is placed below every seat that played...
    absent_a = {"places": [1, 2, 3], "seats": [{"seat": 0, "absent": True}, {"seat": 1}, {"seat": 2}]}
    assert table_points(absent_a, ["a", "b", "c"]) == [0.0, 2.0, 1.0]
    # ...unless nobody at the table played: the game's places stand.
    all_absent = {"places": [2, 1], "seats": [{"seat": 0, "absent": True}, {"seat": 1, "absent": True}]}
    assert table_points(all_absent, ["a", "b"]) == [0.0, 1.0]
    assert table_points({"places": [1, 1], "abandoned": "nobody came"}, ["a", "b"]) == [0.0, 0.0]


def test_standings_break_ties_by_buchholz_and_a_withdrawal_scores_nothing_after() -> None:
    ratings = {"a": 25.0, "b": 25.0, "c": 25.0, "d": 25.0}
    games = [(["a", "b"], [1.0, 0.0]), (["c", "d"], [1.0, 0.0]), (["a", "c"], [0.0, 1.0]), (["b", "d"], [1.0, 0.0])]
    table = standings(ratings, games, [], {}, [1, 1, 2, 2])
    assert [(s.account_id, s.score, s.buchholz) for s in table] == [
        ("c", 2.0, 1.0), ("a", 1.0, 3.0), ("b", 1.0, 1.0), ("d", 0.0, 3.0)
    ]  # fmt: skip
    gone = standings(ratings, games, ["d"], {"b": 2}, [1, 1, 2, 2])
    assert {s.account_id: s.score for s in gone} == {"a": 1.0, "b": 0.0, "c": 2.0, "d": 1.0}
    assert next(s for s in gone if s.account_id == "b").withdrawn
