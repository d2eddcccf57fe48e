"""Swiss pairing, as pure functions (no database, no clock): who meets whom in a round, who sits
where, who gets the bye, how a finished table scores and how the standings are ordered.

The rules (docs/protocol.md, "Tournaments"):

* **Order.** Players are ranked by score, then by rating (the site's rating for the game and player
  count at the round's making), then by account id (a fixed, arbitrary last resort).
* **Two-player games** pair the ranked list top-down: each unpaired player meets the highest-ranked
  player still unpaired whom they have not met. When no pairing without a repeat exists, the one
  with the fewest repeats found is taken. With an odd count, the **bye** goes to the lowest-ranked
  player among those with the fewest byes so far (so byes rotate: nobody gets a second before
  everyone has had one); a bye is worth a win (1 point).
* **Three to five players a table** form groups the same way: each table takes the highest-ranked
  player left, then the next-ranked players who have met none of the table yet. When the count does
  not divide, the players spread over as few tables as hold them all, as evenly as they go, and the
  empty seats (the last seats of the last tables) are **bot seats** (never rated, never in anyone's
  standings), so nobody sits out.
* **Seats** within a table go to balance the seats over the rounds: the seat order that puts each
  player where they have sat least often so far (ties: the better-ranked player takes the earlier seat).
* **Points per place** at a table of ``n`` seats: one point per seat placed below, half a point per
  other seat placed level: 1 / ½ / 0 for two players; 2 / 1 / 0 for three; 4 … 0 for five. A bot seat
  counts as a seat. A seat **absent** from its game (``result.seats[i].absent``, as the ratings count
  it: a bot made most of its decisions) is placed below every seat that played, all absent seats
  level; when every account at a table was absent the game's own places stand.
* **Tie-break**: Buchholz, the sum of the scores of the opponents one has met (bots and byes count
  nothing), then rating, then account id.

A search that pairs without repeats tries every way in the worst case, so it is bounded
(``SEARCH_STEPS``); past the bound the best arrangement found so far is kept.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

SEARCH_STEPS = 200_000  # tries of the no-repeat search per round before the best found so far is kept


@dataclass(frozen=True)
class Entrant:
    """A player still in the tournament as a round is made: what the pairing needs of them."""

    id: str
    score: float = 0.0
    rating: float = 0.0
    met: frozenset[str] = frozenset()  # the accounts they have sat at a table with
    seats: tuple[int, ...] = ()  # how often they have sat at each seat (index: seat number)
    byes: int = 0


@dataclass
class Round:
    """A round's tables, each a list of seats in order (an account id, or None: a bot seat), and the
    players who sit out with a bye (two-player games with an odd count only)."""

    tables: list[list[str | None]] = field(default_factory=list)
    byes: list[str] = field(default_factory=list)


def ranked(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.id))


def max_rounds(players: int, per_table: int) -> int:
    """The most rounds a field of ``players`` allows with no one meeting an opponent twice: a player
    meets ``per_table - 1`` new opponents a round, out of ``players - 1``."""
    if players < per_table:
        return 0
    return max(1, (players - 1) // (per_table - 1))


def pair_round(entrants: Sequence[Entrant], per_table: int) -> Round:
    """The next round for ``entrants`` at tables of ``per_table`` seats (see the module's rules)."""
    order = ranked(entrants)
    out = Round()
    if per_table == 2 and len(order) % 2 == 1:
        fewest = min(e.byes for e in order)
        bye = next(e for e in reversed(order) if e.byes == fewest)
        out.byes.append(bye.id)
        order = [e for e in order if e.id != bye.id]
    if not order:
        return out
    groups = _groups(order, per_table)
    for group in groups:
        out.tables.append(_seat_order(group, per_table))
    return out


def _table_sizes(count: int, per_table: int) -> list[int]:
    """How many players sit at each table: as few tables as hold everyone, the players spread as evenly
    as they go (the fuller tables first); a table's missing seats are bots."""
    tables = -(-count // per_table)
    base, extra = divmod(count, tables)
    return [base + (1 if i < extra else 0) for i in range(tables)]


def _groups(order: list[Entrant], per_table: int) -> list[list[Entrant]]:
    """Tables of the ranked players: top-down, the fewest repeated opponents (a bounded search)."""
    sizes = _table_sizes(len(order), per_table)
    if per_table == 2:
        sizes = [2] * (len(order) // 2)
    best: list[list[Entrant]] | None = None
    best_repeats = 1 << 30
    steps = 0

    def repeats_with(table: list[Entrant], e: Entrant) -> int:
        return sum(1 for other in table if other.id in e.met or e.id in other.met)

    def search(left: list[Entrant], made: list[list[Entrant]], repeats: int, sizes_left: list[int]) -> bool:
        """Fill the tables, the best-ranked player left first (at a table of any size still to fill);
        True once an arrangement without repeats is found."""
        nonlocal best, best_repeats, steps
        steps += 1
        if repeats >= best_repeats or steps > SEARCH_STEPS:
            return False
        if not left:
            best, best_repeats = [list(t) for t in made], repeats
            return repeats == 0
        head, rest = left[0], left[1:]
        for size in sorted(set(sizes_left), reverse=True):
            others_sizes = list(sizes_left)
            others_sizes.remove(size)
            for others in itertools.combinations(range(len(rest)), size - 1):
                table = [head]
                added = 0
                for i in others:
                    added += repeats_with(table, rest[i])
                    table.append(rest[i])
                chosen = set(others)
                remaining = [e for i, e in enumerate(rest) if i not in chosen]
                if search(remaining, [*made, table], repeats + added, others_sizes):
                    return True
                if steps > SEARCH_STEPS:
                    return False
        return False

    search(order, [], 0, sizes)
    if best is None:  # (the bound hit before any arrangement: take them in order)
        best, at = [], 0
        for size in sizes:
            best.append(order[at : at + size])
            at += size
    return best


def _seat_order(group: list[Entrant], per_table: int) -> list[str | None]:
    """The table's seats: the order putting each player where they have sat least often (ties: the
    better-ranked player earlier); a short table's last seats are bots."""
    seats: list[str | None] = [None] * per_table

    def sat(e: Entrant, seat: int) -> int:
        return e.seats[seat] if seat < len(e.seats) else 0

    best_cost: tuple[int, int] | None = None
    best_perm: tuple[int, ...] = tuple(range(len(group)))
    human_seats = range(len(group))  # (the bots take the last seats of a short table)
    for perm in itertools.permutations(human_seats):
        cost = sum(sat(e, s) for e, s in zip(group, perm, strict=True))
        # (largest when the seats follow the ranking: the better-ranked player earlier)
        rank_order = sum(i * s for i, s in enumerate(perm))
        key = (cost, -rank_order)
        if best_cost is None or key < best_cost:
            best_cost, best_perm = key, perm
    for e, s in zip(group, best_perm, strict=True):
        seats[s] = e.id
    return seats


# ---- scoring ----------------------------------------------------------------------------------------
def table_points(result: dict[str, Any], accounts: Sequence[str | None]) -> list[float]:
    """The points each seat of a finished table earns (see the module's rules). ``accounts``: each
    seat's account, None for a bot. A game the server abandoned (nobody came) earns nobody anything."""
    n = len(accounts)
    if result.get("abandoned") or not result.get("places"):
        return [0.0] * n
    places = list(result["places"])
    absent = {e["seat"] for e in result.get("seats") or [] if e.get("absent", e.get("left"))}
    humans = [i for i, a in enumerate(accounts) if a is not None]
    if not all(i in absent for i in humans):
        places = [n + 1 if i in absent and accounts[i] is not None else p for i, p in enumerate(places)]
    return [
        sum(1.0 for j in range(n) if places[j] > places[i])
        + 0.5 * sum(1 for j in range(n) if j != i and places[j] == places[i])
        for i in range(n)
    ]


@dataclass
class Standing:
    account_id: str
    score: float
    buchholz: float
    rating: float
    opponents: list[str]
    withdrawn: bool = False


def standings(
    players: dict[str, float],
    games: Sequence[tuple[Sequence[str | None], Sequence[float]]],
    byes: Sequence[str],
    withdrawn: dict[str, int | None] | None = None,
    rounds_of_games: Sequence[int] | None = None,
) -> list[Standing]:
    """The standings: ``players`` (account → rating), the finished ``games`` (each table's seats and
    points), the ``byes`` given (one point each). ``withdrawn``: account → the round they withdrew in;
    their points from that round on are none (the game they left counts as a loss), with
    ``rounds_of_games`` the round of each game. Ordered by score, Buchholz, rating, account id."""
    gone = withdrawn or {}
    score = dict.fromkeys(players, 0.0)
    met: dict[str, list[str]] = {p: [] for p in players}
    for k, (seats, points) in enumerate(games):
        round_no = rounds_of_games[k] if rounds_of_games is not None else 0
        for seat, account in enumerate(seats):
            if account is None or account not in score:
                continue
            left_in = gone.get(account)
            if left_in is None or round_no < left_in:
                score[account] += points[seat]
            met[account].extend(o for o in seats if o is not None and o != account)
    for account in byes:
        if account in score:
            score[account] += 1.0
    table = [
        Standing(p, score[p], sum(score.get(o, 0.0) for o in met[p]), players[p], met[p], p in gone) for p in players
    ]
    table.sort(key=lambda s: (-s.score, -s.buchholz, -s.rating, s.account_id))
    return table
