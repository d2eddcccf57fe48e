"""Fixed-size float32 observations of a seat, slice by slice.

A game's ``encoding.py`` lists its slices once (a :class:`Layout`); the same list names every
slice for ``docs/rl.md`` (``Layout.describe``), sizes the buffer, and is the reference
encoder: every slice reads the dict returned by ``state.view(seat, recall=True)`` and nothing
else, so an observation cannot hold anything the seat could not know at a real table.

The encoder in use (:class:`Encoder`) writes the same bytes straight from the state: each
game's compiled ``observation.py`` reads the fields the view would show and stores the
non-zero floats at the layout's offsets, about 10-30 times faster than building the view
(``tests/rl/test_fast_encoding.py`` compares the two on every decision of random games).

Seats are relative: player block 0 is always the observing seat, block 1 the next seat
clockwise, and so on; blocks of seats the table does not have stay zero (the tensor's size
depends on the game's ``max_players`` only, not on the table).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

View = dict[str, Any]
Getter = Callable[[View], Any]


@dataclass(frozen=True)
class Slice:
    """One named run of floats. ``write(buf, offset, source)`` fills ``size`` floats from ``source``."""

    name: str
    size: int
    meaning: str
    fill: Callable[[dict[int, float], int, Any], None]  # writes index -> value into the dict
    get: Getter
    relative_seats: bool = False  # the value is a seat or seats; written relative to the observer


def scalar(name: str, get: Getter, scale: float, meaning: str) -> Slice:
    """One number divided by ``scale`` (None counts as 0)."""

    def fill(buf: dict[int, float], at: int, value: Any) -> None:
        if value:
            buf[at] = value / scale

    return Slice(name, 1, f"{meaning} (÷{scale:g})", fill, get)


def flag(name: str, get: Getter, meaning: str) -> Slice:
    def fill(buf: dict[int, float], at: int, value: Any) -> None:
        if value:
            buf[at] = 1.0

    return Slice(name, 1, f"{meaning} (1 = yes)", fill, get)


def one_hot(name: str, get: Getter, vocab: Sequence[Any], meaning: str) -> Slice:
    """One slot per value of ``vocab`` plus a last slot for any other value; None sets nothing."""
    index = {v: i for i, v in enumerate(vocab)}
    other = len(vocab)

    def fill(buf: dict[int, float], at: int, value: Any) -> None:
        if value is not None:
            buf[at + index.get(value, other)] = 1.0

    return Slice(name, len(vocab) + 1, f"{meaning}: one-hot over {_vocab_text(vocab)}, then 'other'", fill, get)


def counts(name: str, get: Getter, vocab: Sequence[str], scale: float, meaning: str) -> Slice:
    """A count per name: from a ``{name: n}`` dict or from a list of names (repeats add up)."""
    index = {v: i for i, v in enumerate(vocab)}
    step = 1.0 / scale

    def fill(buf: dict[int, float], at: int, value: Any) -> None:
        if not value:
            return
        if isinstance(value, dict):
            for key, n in value.items():
                i = index.get(key)
                if i is not None and n:
                    buf[at + i] = n * step
        else:
            for key in value:
                i = index.get(key)
                if i is not None:
                    buf[at + i] = buf.get(at + i, 0.0) + step

    return Slice(name, len(vocab), f"{meaning}: count per {_vocab_text(vocab)} (÷{scale:g})", fill, get)


def seat(name: str, get: Getter, max_players: int, meaning: str) -> Slice:
    """A seat number, relative to the observer (0 = you), one-hot; None sets nothing."""
    return Slice(name, max_players, f"{meaning}: one-hot relative seat (0 = you)", _no_fill, get, True)


def seats(name: str, get: Getter, max_players: int, meaning: str) -> Slice:
    """A set of seats, relative to the observer, multi-hot."""
    return Slice(name, max_players, f"{meaning}: multi-hot relative seats (0 = you)", _no_fill, get, True)


def _no_fill(buf: dict[int, float], at: int, value: Any) -> None:
    return


def _vocab_text(vocab: Sequence[Any]) -> str:
    items = [str(v) for v in vocab]
    if len(items) > 8:
        return f"{len(items)} values ({', '.join(items[:4])}, …)"
    return ", ".join(items)


class Layout:
    """The observation of one game: table slices, then one block of player slices per seat."""

    def __init__(
        self,
        game_name: str,
        max_players: int,
        table: Iterable[Slice],
        player: Iterable[Slice],
        prepare: Callable[[View], None] | None = None,
    ) -> None:
        self.game_name = game_name
        self.prepare = prepare  # copies per-round lists into the player blocks before encoding
        self.max_players = max_players
        self.table = list(table)
        self.player = list(player)
        self.player_size = sum(s.size for s in self.player)
        self.table_size = sum(s.size for s in self.table)
        self.size = self.table_size + max_players * self.player_size

    def encode(self, view: View, out: np.ndarray | None = None) -> np.ndarray:
        """Write the observation of ``view`` (a ``view(seat, recall=True)``) into ``out`` (zeroed first)."""
        if out is None:
            out = np.zeros(self.size, dtype=np.float32)
        else:
            out.fill(0.0)
        if self.prepare is not None:
            self.prepare(view)
        me = view["you"]
        n = view["players"]
        # Non-zero entries are gathered in a dict and written with one fancy assignment:
        # per-element numpy stores cost several times a dict store.
        acc: dict[int, float] = {}
        at = 0
        for s in self.table:
            self._write(s, acc, at, s.get(view), me, n)
            at += s.size
        infos = view["players_info"]
        for rel in range(n):
            block = infos[(me + rel) % n]
            base = self.table_size + rel * self.player_size
            for s in self.player:
                self._write(s, acc, base, s.get(block), me, n)
                base += s.size
        if acc:
            k = len(acc)
            out[np.fromiter(acc.keys(), np.intp, k)] = np.fromiter(acc.values(), np.float32, k)
        return out

    def _write(self, s: Slice, out: dict[int, float], at: int, value: Any, me: int, n: int) -> None:
        if s.relative_seats:
            if value is None:
                return
            if isinstance(value, int | np.integer):
                out[at + (value - me) % n] = 1.0
            else:
                for v in value:
                    out[at + (v - me) % n] = 1.0
            return
        s.fill(out, at, value)

    def describe(self) -> list[tuple[int, int, str, str]]:
        """(offset, size, name, meaning) per slice, player slices once with their offset in block 0."""
        rows: list[tuple[int, int, str, str]] = []
        at = 0
        for s in self.table:
            rows.append((at, s.size, s.name, s.meaning))
            at += s.size
        for s in self.player:
            rows.append((at, s.size, f"player[k].{s.name}", s.meaning))
            at += s.size
        return rows

    def markdown(self) -> str:
        lines = [
            f"Size {self.size} = {self.table_size} table floats + {self.max_players} player blocks of "
            f"{self.player_size} (block k = the seat k places after you; missing seats stay 0).",
            "",
            "| offset | size | slice | meaning |",
            "| --- | --- | --- | --- |",
        ]
        for offset, size, name, meaning in self.describe():
            lines.append(f"| {offset} | {size} | `{name}` | {meaning} |")
        return "\n".join(lines)


class Encoder:
    """A game's observations and masks written straight from the state into numpy buffers.

    ``write(state, seat, buf, base)`` is the game's compiled ``observation.write``: it stores
    the same floats as ``layout.encode(state.view(seat, recall=True))`` (byte for byte,
    ``tests/rl/test_fast_encoding.py``) without building the view. This class owns the numpy
    side: zeroing, the flat memoryview the writer stores into, batches.

    - ``encode(state, seat, out=None)``: float32 ``(size,)``.
    - ``encode_batch(states, seats, out=None)``: float32 ``(N, size)``, row ``i`` the
      observation of ``seats[i]`` in ``states[i]``.
    - ``action_mask(state, seat, out=None)`` / ``action_mask_batch(states, seats, out=None)``:
      int8 ``(num_actions,)`` / ``(N, num_actions)``.

    ``out`` must be C-contiguous with the right dtype and shape (a ``ValueError`` says so
    otherwise); it is zeroed first and returned.

    ``write_changed(state, seat, row_view, row)`` and ``Row`` (optional, Mottainai's): rewrite
    a reused row in place, only the parts whose source changed since ``row`` (a ``Row()``, one
    per row) says it was last written; the vector env uses them when given.
    """

    def __init__(
        self,
        layout: Layout,
        write: Callable[[Any, int, Any, int], None],
        size: int,
        game: Any,
        write_changed: Callable[[Any, int, Any, Any], None] | None = None,
        row: Callable[[], Any] | None = None,
    ) -> None:
        if size != layout.size:
            raise ValueError(f"{layout.game_name}: the writer's size {size} is not the layout's {layout.size}")
        from parlor.rl import native

        self.layout = layout
        self.write = write
        self.write_changed = write_changed
        self.row = row
        self.size = size
        self.num_actions = game.num_actions
        self.ids = native.IdTable(game)  # action object -> action id, by identity (the masks)
        self._native = native

    @staticmethod
    def _buffer(out: np.ndarray | None, shape: tuple[int, ...], dtype: Any, fmt: str) -> tuple[np.ndarray, Any]:
        if out is None:
            out = np.zeros(shape, dtype)
        else:
            if out.shape != shape or out.dtype != dtype or not out.flags.c_contiguous:
                raise ValueError(
                    f"out must be a C-contiguous {np.dtype(dtype).name} array of shape {shape}, "
                    f"got {out.dtype.name} {out.shape}"
                )
            out.fill(0)
        view = memoryview(out)
        if len(shape) > 1 or view.format != fmt:
            view = view.cast("B").cast(fmt)
        return out, view

    def encode(self, state: Any, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        if out is None:  # the common case (every env step): a fresh array, no checks needed
            out = np.zeros(self.size, np.float32)
            self.write(state, seat, memoryview(out), 0)
            return out
        out, view = self._buffer(out, (self.size,), np.float32, "f")
        self.write(state, seat, view, 0)
        return out

    def encode_batch(self, states: Sequence[Any], seats: Sequence[int], out: np.ndarray | None = None) -> np.ndarray:
        out, view = self._buffer(out, (len(states), self.size), np.float32, "f")
        self._native.write_batch(self.write, list(states), list(seats), view, self.size)
        return out

    def action_mask(self, state: Any, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        if out is None:
            out = np.zeros(self.num_actions, np.int8)
            if seat in state.to_move:  # a seat not to move has no legal action: all 0, no rules asked
                self._native.write_mask(state, seat, self.ids, memoryview(out), 0)
            return out
        out, view = self._buffer(out, (self.num_actions,), np.int8, "b")
        self._native.write_mask(state, seat, self.ids, view, 0)
        return out

    def action_mask_batch(
        self, states: Sequence[Any], seats: Sequence[int], out: np.ndarray | None = None
    ) -> np.ndarray:
        out, view = self._buffer(out, (len(states), self.num_actions), np.int8, "b")
        self._native.write_mask_batch(list(states), list(seats), self.ids, view, self.num_actions)
        return out


def observe(layout: Layout, state: Any, seat: int, out: np.ndarray | None = None) -> np.ndarray:
    """The observation tensor of ``seat`` in ``state`` (read through ``state.view(seat, recall=True)``)."""
    return layout.encode(state.view(seat, recall=True), out)


def legal_action_mask(state: Any, seat: int, num_actions: int, out: np.ndarray | None = None) -> np.ndarray:
    """An int8 mask over the game's action ids: 1 where ``seat`` may play that action now."""
    if out is None:
        out = np.zeros(num_actions, dtype=np.int8)
    else:
        out.fill(0)
    game = state.game
    for action in state.legal_actions(seat):
        out[game.action_id(action)] = 1
    return out


def information_state_string(view: View) -> str:
    """The seat's information state as text: its view (with recall), keys sorted, one line."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
