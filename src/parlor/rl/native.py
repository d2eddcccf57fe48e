"""The compiled part of ``parlor.rl`` (setup.py's COMPILED): masks and the vector env's loop.

No numpy here: every buffer is a memoryview over a numpy array's memory (format ``f`` for
observations, ``b`` for masks), flat, so an observation or a mask is written with one
``buf[i] = x`` per non-zero entry and a whole batch shares one view. ``tensor.py`` and
``vector.py`` make the views and own the arrays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from mypy_extensions import i64

# States typed as the engine's State (compiled): their methods and ``to_move`` are then direct C
# calls and field reads, where ``Any`` looked each one up by name and parsed its arguments.
from parlor.core.game import State
from parlor.core.rng import Rng

_ONE: Final[object] = 1  # an int8 mask entry, boxed once
# A run of at least this many consecutive action ids is written as one slice copy from a row of
# ones (a memcpy) rather than one store each (a boxed index and a buffer call per entry): Sweet
# Nose's masks hold some 40 legal actions in about 10 runs, its sweetness phase 120 in a few.
RUN_COPY: Final = 5


def action_ids(game: Any) -> dict[int, int]:
    """``id(action) -> action id`` for a game's prebuilt actions.

    Legal actions are the space's own objects (the engine checks legality by identity), so an
    identity lookup finds an action's id without hashing the dataclass: several times cheaper
    than ``game.action_id`` on the hot path. The space lives as long as the game, so the ids of
    its objects stay valid.
    """
    return {id(a): i for i, a in enumerate(game.actions.actions)}


class IdTable:
    """``action_ids`` as an open-addressing table by object identity: the mask writer's lookup.

    A dict keyed by ``id(action)`` boxes the id and hashes it at every legal action; here the
    slot is a few bits of the address and a hit is one ``is`` test (the prebuilt actions live as
    long as the game, so their addresses are fixed). Sweet Nose's rules look their exchanges up
    the same way (``prebuilt_exchange_code``)."""

    def __init__(self, game: Any) -> None:
        actions: list[Any] = list(game.actions.actions)
        size = 1024
        while size < 4 * len(actions):  # at most a quarter full: probes stay short
            size *= 2
        self.mask: i64 = size - 1
        self.objects: list[object] = [None] * size
        self.codes: list[int] = [-1] * size
        # one int8 1 per action: the source of a mask's runs of consecutive ids (write_mask_of)
        self.ones: Any = memoryview(b"\x01" * max(1, len(actions))).cast("b")
        # each action id as an int object, made once: a mask row written from offset 0 takes its
        # index objects from here instead of boxing one per entry (write_mask_of)
        self.boxed: list[object] = list(range(len(actions)))
        for code in range(len(actions)):
            h: i64 = (id(actions[code]) >> 4) & self.mask
            while self.objects[h] is not None:
                h = (h + 1) & self.mask
            self.objects[h] = actions[code]
            self.codes[h] = code

    def find(self, action: object) -> int:
        """The action id of a prebuilt action object; -1 for any other object."""
        mask = self.mask
        objects = self.objects
        h: i64 = (id(action) >> 4) & mask
        while True:
            found = objects[h]
            if found is action:
                return self.codes[h]
            if found is None:
                return -1
            h = (h + 1) & mask


def write_mask(state: State, seat: int, ids: IdTable, buf: Any, base: int) -> int:
    """Set ``buf[base + id] = 1`` for each action ``seat`` may play (the region is zeroed by
    the caller); returns how many."""
    legal: list[Any] = state.legal_actions(seat)
    write_mask_of(legal, state.game, ids, buf, base)
    return len(legal)


def write_mask_of(legal: list[Any], game: Any, ids: IdTable, buf: Any, base: int) -> None:
    """``write_mask`` from a list of legal actions already asked for (the PettingZoo envs keep
    it, so that checking the action chosen from that mask asks the rules nothing again).

    The rules list related actions together, and the action space numbers them together too,
    so the ids come in runs of consecutive numbers: each run is written at once when long."""
    start = 0
    end = 0  # the run [start, end) of consecutive ids not written yet
    for action in legal:
        i = ids.find(action)
        if i < 0:  # not a prebuilt object (never from the engine): ask the space
            i = game.action_id(action)
        if i == end and end > start:
            end += 1
            continue
        if end > start:
            _write_run(buf, base, start, end, ids)
        start = i
        end = i + 1
    if end > start:
        _write_run(buf, base, start, end, ids)


def _write_run(buf: Any, base: int, start: int, end: int, ids: IdTable) -> None:
    """Set ``buf[base + start : base + end]`` to 1."""
    if end - start >= RUN_COPY:
        buf[base + start : base + end] = ids.ones[: end - start]
    elif base == 0:
        boxed = ids.boxed
        for i in range(start, end):
            buf[boxed[i]] = _ONE
    else:
        for i in range(start, end):
            buf[base + i] = _ONE


def holds(legal: list[Any], move: object) -> bool:
    """Is ``move`` (by identity) one of ``legal``? ``is_legal`` on a list already asked for."""
    for candidate in legal:  # noqa: SIM110  (compiled: a C loop; any() would make a generator)
        if candidate is move:
            return True
    return False


def write_observation_and_mask(
    write: Callable[[Any, int, Any, int], None], state: State, seat: int, obs: Any, ids: IdTable, mask: Any
) -> None:
    """``seat``'s observation into ``obs`` and its mask into ``mask`` (both zeroed, fresh): the
    Gymnasium step's two writes in one call. A seat not to move (the game is over) has an
    all-zero mask, as ``Encoder.action_mask`` gives it."""
    write(state, seat, obs, 0)
    to_move: tuple[int, ...] = state.to_move
    if seat in to_move:
        write_mask(state, seat, ids, mask, 0)


def is_legal(state: State, seat: int, move: object) -> bool:
    """Is ``move`` one of ``seat``'s legal actions now? The engine's legal actions are the
    action space's own objects, so this is an identity scan of a short list (the envs check
    every action they are given; compiled, the scan is a C loop)."""
    legal: list[Any] = state.legal_actions(seat)
    for candidate in legal:  # noqa: SIM110  (compiled: a C loop; any() would make a generator)
        if candidate is move:
            return True
    return False


def write_batch(
    write: Callable[[Any, int, Any, int], None],
    states: list[Any],
    seats: list[int],
    buf: Any,
    size: int,
) -> None:
    """Row ``i`` of ``buf`` (``size`` floats each) gets ``write(states[i], seats[i], ...)``."""
    for i in range(len(states)):
        write(states[i], seats[i], buf, i * size)


def write_mask_batch(states: list[State], seats: list[int], ids: IdTable, buf: Any, size: int) -> None:
    for i in range(len(states)):
        write_mask(states[i], seats[i], ids, buf, i * size)


def play_others(state: State, seat: int, bots: Any) -> None:
    """The bots of the other seats (``bots[s]``, anything with ``choose(state, s)``) move
    until ``seat`` is to move or the game is over.

    ``bots[s]`` may also be an :class:`Rng`: a uniformly random player drawing from it, the
    move ``RandomBot.choose`` makes (``rng.choice(state.legal_actions(s))``, the same draw from
    the same generator), without a Python call per move (``random_bots_as_rngs``)."""
    while True:
        to_move = state.to_move
        if not to_move or seat in to_move:
            return
        mover: int = to_move[0]
        bot = bots[mover]
        if isinstance(bot, Rng):
            state.apply(mover, bot.choice(state.legal_actions(mover)))
        else:
            state.apply(mover, bot.choose(state, mover))


def step_envs(states: list[State], seats: list[int], bots: list[Any], action_ids: list[Any], space: Any) -> list[int]:
    """The vector env's step over every env: env ``i`` plays action id ``action_ids[i]`` for
    its learner (``space[id]`` is the action object) if legal, then its bots move
    (``bots[i]`` None: nobody else moves here, self-play moves the others in batches).

    Returns one code per env: 1 the game is over, 0 the learner has its next decision, -1 the
    action was not legal (then nothing was played in that env)."""
    n_actions = len(space)
    results: list[int] = []
    for i in range(len(states)):
        state = states[i]
        seat = seats[i]
        a = action_ids[i]
        if not isinstance(a, int) or a < 0 or a >= n_actions:
            results.append(-1)
            continue
        move = space[a]
        legal = False
        for candidate in state.legal_actions(seat):
            if candidate is move:
                legal = True
                break
        if not legal:
            results.append(-1)
            continue
        state.apply(seat, move)
        others = bots[i]
        if others is not None:
            play_others(state, seat, others)
        results.append(0 if state.to_move else 1)
    return results


def step_and_write(
    states: list[State],
    seats: list[int],
    bots: list[Any],
    action_ids: list[Any],
    space: Any,
    write: Callable[[Any, int, Any, int], None],
    obs_rows: list[Any],
    obs_zeros: Any,
    ids: IdTable,
    mask_rows: list[Any],
    mask_zeros: Any,
) -> list[int]:
    """``step_envs``, and each env's observation row and mask row written right after its
    moves: one pass over the envs, each game's state still in the cache when it is written
    (64 Mottainai games do not fit it together: a pass per part met each state cold). Each row
    is zeroed just before it is written (``obs_zeros`` / ``mask_zeros``: one row of zeros,
    copied in), not the whole array up front.

    ``obs_rows[i]`` / ``mask_rows[i]``: row ``i`` as a view of its own, written from offset 0
    (the writers then take their index objects from a table instead of boxing each one).

    Row ``i`` is written whatever the result: for an env whose game ended (1) or whose action
    was refused (-1) it is that game's last observation, which the caller keeps as the final
    one before it deals the next game and writes the row again."""
    n_actions = len(space)
    results: list[int] = []
    for i in range(len(states)):
        state = states[i]
        seat = seats[i]
        a = action_ids[i]
        result = -1
        if isinstance(a, int) and 0 <= a < n_actions:
            move = space[a]
            for candidate in state.legal_actions(seat):
                if candidate is move:
                    state.apply(seat, move)
                    others = bots[i]
                    if others is not None:
                        play_others(state, seat, others)
                    result = 0 if state.to_move else 1
                    break
        results.append(result)
        write_rows(state, seat, write, obs_rows[i], obs_zeros, ids, mask_rows[i], mask_zeros)
    return results


def write_rows(
    state: State,
    seat: int,
    write: Callable[[Any, int, Any, int], None],
    obs_row: Any,
    obs_zeros: Any,
    ids: IdTable,
    mask_row: Any,
    mask_zeros: Any,
) -> None:
    """Zero one env's observation row and mask row (each a view of that row alone), then write
    ``seat``'s observation and mask into them."""
    # ``obs_zeros`` may be shorter than a row: the player blocks of seats the table does not
    # have are never written (they stay zero from the start), so they need no zeroing
    obs_row[: len(obs_zeros)] = obs_zeros
    write(state, seat, obs_row, 0)
    mask_row[:] = mask_zeros
    write_mask(state, seat, ids, mask_row, 0)
