"""The compiled part of ``parlor.rl`` (setup.py's COMPILED): masks, the vector env's loop, and
the per-step work of the PettingZoo and Gymnasium envs (their classes subclass PettingZoo's and
Gymnasium's, so they stay Python and call in here with their plain data).

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
_ZERO: Final[object] = 0
# dict's own size and the memoryview type, held here: compiled, ``dict.__len__(d)`` looks the
# method up by name on ``dict`` at every call and ``memoryview`` is a lookup in the builtins
# module; a module constant is one load (about 0.2 µs less per mask a PettingZoo env writes)
_DICT_LEN: Final[Callable[[Any], int]] = dict.__len__
_MEMORYVIEW: Final = memoryview
# A run of at least this many consecutive action ids is written as one slice copy from a row of
# ones (a memcpy) rather than one store each (a boxed index and a buffer call per entry): Sweet
# Nose's masks hold some 40 legal actions in about 10 runs, its sweetness phase 120 in a few.
RUN_COPY: Final = 5
# A list of legal actions the engine hands out again and again (the same object: Sweet Nose's
# 120 sweetness assignments, its memoized shop choices) gets its whole mask row kept once it is
# met twice in a row, and later masks from it are one copy of that row. Only lists this long
# (shorter ones cost less to write than the copy) and at most this many of them.
KEEP_MIN: Final = 8
KEEP_MAX: Final = 8
# A mask row last written from a list longer than this is zeroed whole (one copy of a row of
# zeros) rather than cleared entry by entry: a warm copy of a 1,818- or 3,059-byte row costs
# about as much as clearing two entries (0.15-0.18 µs against 0.23-0.28 µs for up to four),
# and a clear costs some 35 ns more per entry; Sweet Nose's lists run to 26 entries by median
# (the vector env's step 7% faster there), Mottainai's to 3 (unchanged: most of its rows are
# still cleared, which touches less of a row that may have left the cache).
CLEAR_MAX: Final = 8


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
        self.size: i64 = len(actions)  # a mask row's length
        # the action objects by id: a mask's next legal action is most often the object right
        # after the last one found (the rules list related actions in the space's order), so
        # ``write_mask_of`` looks there before it probes the table
        self.actions: list[object] = list(actions)
        # the kept mask rows (``KEEP_MIN``): the lists of legal actions they were written from
        # (held, so no other list can take their address) and the rows, as int8 views
        self.recent: object = None  # the list the last mask was written from
        self.kept: list[list[Any]] = []
        self.kept_rows: list[Any] = []
        for code in range(len(actions)):
            h: i64 = (id(actions[code]) >> 4) & self.mask
            while self.objects[h] is not None:
                h = (h + 1) & self.mask
            self.objects[h] = actions[code]
            self.codes[h] = code

    def kept_row(self, legal: list[Any]) -> Any:
        """The mask row kept for ``legal`` (this very list object), or None."""
        kept = self.kept
        for j in range(len(kept)):
            if kept[j] is legal:
                return self.kept_rows[j]
        return None

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


def legal_now(state: State, seat: int) -> list[Any]:
    """``state.legal_actions(seat)`` without its copy: the engine's own list, which it never
    changes in place (``State.clone`` shares it; the engine hands out copies), so reading it
    here is safe; nothing in this module writes to it. ``[]`` for a seat not to move."""
    if not state._is_to_move(seat):
        return []
    return state._cached_legal(seat)


def write_mask(state: State, seat: int, ids: IdTable, buf: Any, base: int) -> int:
    """Set ``buf[base + id] = 1`` for each action ``seat`` may play (the region is zeroed by
    the caller); returns how many."""
    legal = legal_now(state, seat)
    write_mask_of(legal, state.game, ids, buf, base)
    return len(legal)


def write_mask_of(legal: list[Any], game: Any, ids: IdTable, buf: Any, base: int) -> None:
    """``write_mask`` from a list of legal actions already asked for (the PettingZoo envs keep
    it, so that checking the action chosen from that mask asks the rules nothing again). The
    list must not change afterwards (the engine's lists never do): its mask may be kept.

    The rules list related actions together, and the action space numbers them together too,
    so the ids come in runs of consecutive numbers: each run is written at once when long.
    A list met twice in a row (``KEEP_MIN``) has its row kept and copied from then on."""
    row = ids.kept_row(legal)
    if row is not None:
        buf[base : base + ids.size] = row
        return
    start = 0
    end = 0  # the run [start, end) of consecutive ids not written yet
    space = ids.actions
    size = ids.size
    for action in legal:
        if end > start and end < size and space[end] is action:  # the run goes on: no probe
            end += 1
            continue
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
    if len(legal) >= KEEP_MIN:
        if legal is ids.recent:
            # the region was zeroed before this write: it is the whole mask
            kept = memoryview(bytes(buf[base : base + ids.size])).cast("b")
            if len(ids.kept) >= KEEP_MAX:
                del ids.kept[0]
                del ids.kept_rows[0]
            ids.kept.append(legal)
            ids.kept_rows.append(kept)
            ids.recent = None
        else:
            ids.recent = legal


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
    for candidate in legal_now(state, seat):  # noqa: SIM110  (compiled: a C loop; any() would make a generator)
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
            state.apply(mover, bot.choice(legal_now(state, mover)))
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
        for candidate in legal_now(state, seat):
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
    write_changed: Callable[[Any, int, Any, Any], None] | None = None,
    rows: list[Any] | None = None,
    mask_lists: list[Any] | None = None,
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
    one before it deals the next game and writes the row again.

    With ``write_changed`` (the encoder's, and ``rows[i]`` its record of row ``i``), an
    observation row is rewritten in place, only where its state changed (``Encoder``); with
    ``mask_lists`` (``write_mask_row``) a mask row is cleared where it was set, not zeroed."""
    n_actions = len(space)
    results: list[int] = []
    for i in range(len(states)):
        state = states[i]
        seat = seats[i]
        a = action_ids[i]
        result = -1
        if isinstance(a, int) and 0 <= a < n_actions:
            move = space[a]
            for candidate in legal_now(state, seat):
                if candidate is move:
                    state.apply(seat, move)
                    others = bots[i]
                    if others is not None:
                        play_others(state, seat, others)
                    result = 0 if state.to_move else 1
                    break
        results.append(result)
        write_env_rows(
            state,
            seat,
            write,
            obs_rows[i],
            obs_zeros,
            ids,
            mask_rows[i],
            mask_zeros,
            write_changed,
            rows,
            mask_lists,
            i,
        )
    return results


def write_env_rows(
    state: State,
    seat: int,
    write: Callable[[Any, int, Any, int], None],
    obs_row: Any,
    obs_zeros: Any,
    ids: IdTable,
    mask_row: Any,
    mask_zeros: Any,
    write_changed: Callable[[Any, int, Any, Any], None] | None,
    rows: list[Any] | None,
    mask_lists: list[Any] | None,
    i: int,
) -> None:
    """Env ``i``'s observation row and mask row, as ``step_and_write`` writes them: in place
    where the encoder can (``write_changed``, ``rows``) and the mask by ``write_mask_row``."""
    if write_changed is not None and rows is not None:
        write_changed(state, seat, obs_row, rows[i])
    else:
        obs_row[: len(obs_zeros)] = obs_zeros
        write(state, seat, obs_row, 0)
    write_mask_row(state, seat, ids, mask_row, mask_zeros, mask_lists, i)


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
    write_mask_row(state, seat, ids, mask_row, mask_zeros)


def write_mask_row(
    state: State, seat: int, ids: IdTable, mask_row: Any, mask_zeros: Any, lists: list[Any] | None = None, i: int = 0
) -> None:
    """One env's mask row (a view of that row alone) zeroed and written.

    With ``lists`` (``lists[i]``: the list of legal actions row ``i`` was last written from,
    None if unknown), the row is not zeroed whole (3,059 bytes for Mottainai, most of them
    already 0) but cleared where that list had set it when it is short (``CLEAR_MAX``), and
    left as it is when the list is the same object (the engine never changes its lists);
    ``lists[i]`` then holds the new list.
    The row must not have been written into by anything else since (the vector env hands
    its masks out read-only)."""
    legal = legal_now(state, seat)
    row = ids.kept_row(legal)
    before: Any = None
    if lists is not None:
        before = lists[i]
        lists[i] = legal
    if row is not None:  # a kept mask: the copy is the whole row, no zeroing first
        mask_row[:] = row
        return
    if before is legal:
        return  # the row holds this list's mask already
    if before is None or len(before) > CLEAR_MAX:
        mask_row[:] = mask_zeros
    else:
        _clear_mask_of(before, state.game, ids, mask_row)
    write_mask_of(legal, state.game, ids, mask_row, 0)


def _clear_mask_of(legal: list[Any], game: Any, ids: IdTable, buf: Any) -> None:
    """Set ``buf[id] = 0`` (from offset 0) for each action of ``legal``."""
    boxed = ids.boxed
    space = ids.actions
    size = ids.size
    last = -1
    for action in legal:
        i = last + 1
        if not (0 < i < size and space[i] is action):
            i = ids.find(action)
            if i < 0:
                i = game.action_id(action)
        buf[boxed[i]] = _ZERO
        last = i


# ---- The PettingZoo envs' step (``pettingzoo.py``: its classes subclass PettingZoo's, so they
# stay Python; what they do at every step is here, on their plain data).

# A late read replays at most this many steps' moves; a copy of the state is taken once per
# this many steps (while observations are left unread), not at every step.
REPLAY_SPAN: Final = 32


class Journal:
    """A copy of the env's state (``start``, never changed) and the moves played since, in order."""

    def __init__(self, start: State) -> None:
        self.start = start
        self.moves: list[tuple[int, Any]] = []


class Moment:
    """The state that the observations handed out since the state last changed read from.

    Every such observation holds this one object, so keeping them true to their moment when
    the env's state changes in place is a few stores here, not a pass over the observations,
    and nothing at all when every one of them has been fully read. The state at that moment is
    not copied then (a ``clone()`` at every step was the largest part of what a parallel step
    added to the engine's move): the moment keeps its place in the env's :class:`Journal`, and
    an observation read late rebuilds the state once for all of its moment's observations, a
    copy of the journal's start and the moves played from it (the engine is deterministic:
    the same state and the same moves give the same state, its random draws included)."""

    def __init__(self, state: State | None, encoder: Any, ids: IdTable | None = None, num_actions: int = -1) -> None:
        self.state = state
        self.encoder = encoder
        # the encoder's mask table and mask length, read once (``encoder`` is a Python object:
        # each attribute read from it is a lookup by name) and handed from moment to moment
        if ids is None:
            ids = encoder.ids
            num_actions = encoder.num_actions
        self.ids: IdTable = ids
        self.num_actions = num_actions
        self.pending = 0  # observations of this moment not yet fully read
        # seat -> its legal actions, asked for when its mask was written: the step checks the
        # action chosen from that mask against this list instead of asking the rules again
        # (the state caches one seat's actions; in a simultaneous phase each seat asked for
        # its mask in turn, so a check asked the rules anew for every seat but the last)
        self.legal: dict[int, list[Any]] | None = None
        # journal / played: set when the env's state moves on while observations of this
        # moment are unread (then ``state`` is None until a late read rebuilds it)
        self.journal: Journal | None = None
        self.played = 0

    def current(self) -> State:
        """The state of this moment (rebuilt from the journal the first time it is needed)."""
        state = self.state
        if state is not None:
            return state
        journal = self.journal
        assert journal is not None
        state = journal.start.clone()
        moves = journal.moves
        for i in range(self.played):
            seat, move = moves[i]
            state.apply(seat, move)
        self.state = state
        self.journal = None
        return state


class Timeline:
    """An env's :class:`Moment` (what observations handed out now read from) and its
    :class:`Journal` (the moves since a copy of the state, while observations are unread)."""

    def __init__(self, state: State, encoder: Any) -> None:
        self.moment = Moment(state, encoder)
        self.journal: Journal | None = None

    def before_change(self) -> None:
        """The state is about to change in place (the caller then records the moves with
        ``record``). Observations handed out since it last changed and not all fully read keep
        this moment: its place in the journal (a new journal, from a copy of the state as it
        is, the first time or every ``REPLAY_SPAN`` moves); later ones get a new moment.
        Otherwise the moment stays, without the legal actions it kept, and no journal is
        needed."""
        moment = self.moment
        if moment.pending:
            state = moment.state
            assert state is not None
            journal = self.journal
            if journal is None or len(journal.moves) >= REPLAY_SPAN:
                copy = state.clone()
                self.journal = Journal(copy)
                moment.state = copy
            else:
                moment.state = None
                moment.journal = journal
                moment.played = len(journal.moves)
            self.moment = Moment(state, moment.encoder, moment.ids, moment.num_actions)
        else:
            moment.legal = None
            self.journal = None


def mask_into(moment: Moment, seat: int, buf: Any) -> None:
    """``seat``'s action mask at ``moment`` into ``buf`` (zeroed), its legal actions kept in
    the moment. A seat not to move has no legal action: all 0, no rules asked."""
    state = moment.current()
    to_move: tuple[int, ...] = state.to_move
    if seat in to_move:
        legal = state._cached_legal(seat)  # the engine's own list (``legal_now``)
        write_mask_of(legal, state.game, moment.ids, buf, 0)
        known = moment.legal
        if known is None:
            moment.legal = {seat: legal}
        else:
            known[seat] = legal


def observation_entry(
    obs: dict[str, Any], key: str, moment: Moment, seat: int, zeros: Callable[[int, Any], Any], int8: Any
) -> Any:
    """Write entry ``key`` of a lazy observation (``pettingzoo.Observation``, a dict) from its
    moment and return it: ``"action_mask"`` a fresh array from ``zeros`` (``np.zeros``) of
    dtype ``int8`` (the dtype object: a name would be parsed at every call) with ``seat``'s
    legal actions kept in the moment, ``"observation"`` the encoder's array.
    Once both entries are written the observation lets its moment go."""
    if key == "action_mask":
        value = zeros(moment.num_actions, int8)
        mask_into(moment, seat, _MEMORYVIEW(value))
    elif key == "observation":
        value = moment.encoder.encode(moment.current(), seat)
    else:
        raise KeyError(key)
    # dict's own store (the observation does not override it) and dict's own size (its
    # ``__len__`` would write the other entry first)
    obs[key] = value
    if _DICT_LEN(obs) == 2:
        moment.pending -= 1
        obs._moment = None  # type: ignore[attr-defined]  # the state is not needed any more
    return value


def checked_move(moment: Moment, state: State, seat: int, action: object, space: tuple[Any, ...]) -> Any:
    """The action object of id ``action`` if it is a plain int in range and legal for ``seat``
    now (its legal actions from ``moment`` when its mask was read there), else None."""
    if type(action) is not int:
        return None
    aid: int = action  # type: ignore[assignment]
    if not 0 <= aid < len(space):
        return None
    move = space[aid]
    known = moment.legal
    if known is not None and seat in known:
        return move if holds(known[seat], move) else None
    return move if is_legal(state, seat, move) else None


def aec_play(timeline: Timeline, state: State, seat: int, move: Any) -> None:
    """The AEC step's move, once checked: the moment kept for unread observations, the move
    played and recorded in the journal."""
    moment = timeline.moment
    if moment.pending or moment.legal is not None:
        timeline.before_change()
    state.apply(seat, move)
    journal = timeline.journal
    if journal is not None:
        journal.moves.append((seat, move))


def new_observation(observation: Any, moment: Moment, seat: int) -> Any:
    """A lazy observation of ``seat`` at ``moment`` (one object per seat per step):
    ``observation`` is the class (``pettingzoo.Observation``, called with no argument: dict's
    own ``__new__`` and ``__init__``, no Python call); its two slots stored, the moment's count
    raised."""
    obs = observation()
    obs._moment = moment
    obs._seat = seat
    moment.pending += 1
    return obs


class ParallelStep:
    """What the parallel env's compiled step reads, gathered once per game (at reset) so that
    a step is one call with two arguments: the game's state, the agent names by seat, the
    action space, the env's :class:`Timeline`, the live agents with their seats, the lazy
    observation class, the zero rewards and ``False`` flags to copy, the final rewards."""

    def __init__(
        self,
        state: State,
        names: list[str],
        space: tuple[Any, ...],
        timeline: Timeline,
        live: list[tuple[str, int]],
        observation: Any,
        final_rewards: Callable[[Any], Any],
    ) -> None:
        self.state = state
        self.names = names
        self.space = space
        self.timeline = timeline
        self.live = live  # emptied when the game ends
        self.observation = observation
        # every agent stays live until the game ends, so a step's zero rewards and False flags
        # are always these: copying a built dict is a fraction of the cost of dict.fromkeys
        self.zero_rewards: dict[str, float] = dict.fromkeys(names, 0.0)
        self.all_false: dict[str, bool] = dict.fromkeys(names, False)
        self.final_rewards = final_rewards


def parallel_step(table: ParallelStep, actions: Any) -> Any:
    """The parallel env's step with lazy observations, when every seat to move sent a plain int
    id of a legal action: the moves played in seat order (the moment kept for unread
    observations, the moves recorded in the journal), then one observation per live agent
    and the step's reward, termination, truncation and info dicts, as a tuple. At the game's
    end ``table.live`` is emptied.

    None, with nothing changed, when some seat to move sent anything else: the env's own
    step then takes the long way (conversions, the illegal-action policy). A seat to move
    with no action raises ``ValueError`` (also before anything changes)."""
    state = table.state
    names = table.names
    space = table.space
    timeline = table.timeline
    moment = timeline.moment
    to_move: tuple[int, ...] = state.to_move
    moves: list[tuple[int, Any]] = []
    for seat in to_move:  # all checked before any is played
        agent = names[seat]
        if agent not in actions:
            raise ValueError(f"no action for {agent}, who is to move")
        move = checked_move(moment, state, seat, actions[agent], space)
        if move is None:
            return None
        moves.append((seat, move))
    if moment.pending or moment.legal is not None:
        timeline.before_change()
    for seat, move in moves:
        state.apply(seat, move)
    journal = timeline.journal
    if journal is not None:
        journal.moves.extend(moves)
    moment = timeline.moment
    live = table.live
    observation = table.observation
    obs: dict[str, Any] = {}
    infos: dict[str, dict[str, Any]] = {}
    for agent, seat in live:
        o = observation()  # new_observation(observation, moment, seat), inline
        o._moment = moment
        o._seat = seat
        obs[agent] = o
        infos[agent] = {}  # one dict each: callers may add to theirs
    moment.pending += len(obs)
    if not state.is_over:
        return obs, table.zero_rewards.copy(), table.all_false.copy(), table.all_false.copy(), infos
    rewards = dict(zip(names, table.final_rewards(state)))
    terminations: dict[str, bool] = {}
    truncations: dict[str, bool] = {}
    for agent, _seat in live:
        terminations[agent] = True
        truncations[agent] = False
    table.live = []
    return obs, rewards, terminations, truncations, infos


def gym_step(
    state: State,
    seat: int,
    action: object,
    space: tuple[Any, ...],
    bots: Any,
    write: Callable[[Any, int, Any, int], None],
    ids: IdTable,
    obs: Any,
    mask: Any,
) -> bool:
    """The Gymnasium step when ``action`` is a plain int id of a legal action: the learner's
    move, the opponents' moves (``play_others``), then the observation into ``obs`` and the
    mask into ``mask`` (both zeroed, fresh); True. False, with nothing changed or written, for
    anything else (the env's own step then takes the long way: conversions, the refusal)."""
    if type(action) is not int:
        return False
    aid: int = action  # type: ignore[assignment]
    if not 0 <= aid < len(space):
        return False
    move = space[aid]
    if not is_legal(state, seat, move):
        return False
    state.apply(seat, move)
    play_others(state, seat, bots)
    write_observation_and_mask(write, state, seat, obs, ids, mask)
    return True
