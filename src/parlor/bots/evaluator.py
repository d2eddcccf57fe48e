"""A learned evaluator for the search: a small value network per game, numpy only at play time.

The network reads one seat's observation tensor (``games/<game>/encoding.py``, the encoding the
RL layer uses: only what that seat may know, docs/rl.md) and returns that seat's expected reward
in [0, 1], the same scale as ``ismcts.result_rewards`` (a share of the win plus a little for
rank). Inside the search (:class:`LeafEvaluator`) a determinized leaf is judged by encoding it
once per seat, as one batch, and running the network on the batch.

Weights ship as ``parlor/bots/weights/<game>.npz``: the layers' arrays plus a header with the
format version, the game, the observation size and how they were trained. A file of another
format version, another game or another observation size (the encoding changed) is refused with
a :class:`WeightsError` naming what differs, never half-read. Training lives in
``parlor.training`` (``parlor train GAME``).
"""

from __future__ import annotations

import itertools
import json
import math
import zipfile
from collections import defaultdict
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from parlor.bots.ismcts import ISMCTSBot
from parlor.core.errors import ParlorError

# Bump when the file's layout changes (not when new weights are trained).
FORMAT_VERSION = 1
WEIGHTS_DIR = Path(__file__).with_name("weights")


class WeightsError(ParlorError):
    """A weights file that cannot be used: missing, corrupt, or made for something else."""


class ValueNet:
    """A multilayer perceptron: ReLU hidden layers, a sigmoid output (one value per row)."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], *, game: str, meta: dict[str, Any] | None = None):
        if not layers:
            raise WeightsError("a value network needs at least one layer")
        self.layers = [(np.ascontiguousarray(w, np.float32), np.ascontiguousarray(b, np.float32)) for w, b in layers]
        for (w, b), (w_next, _) in zip(self.layers, [*self.layers[1:], (None, None)]):  # type: ignore[list-item]
            if w.ndim != 2 or b.shape != (w.shape[1],):
                raise WeightsError(f"layer shapes do not fit: weights {w.shape}, bias {b.shape}")
            if w_next is not None and w_next.shape[0] != w.shape[1]:
                raise WeightsError(f"layer shapes do not chain: {w.shape} then {w_next.shape}")
        if self.layers[-1][0].shape[1] != 1:
            raise WeightsError("the last layer must give one value")
        self.game = game
        self.meta = dict(meta or {})

    @property
    def input_size(self) -> int:
        return int(self.layers[0][0].shape[0])

    @classmethod
    def initial(cls, game: str, input_size: int, hidden: tuple[int, ...], seed: int) -> "ValueNet":
        """Fresh weights (He initialisation for the ReLU layers), reproducible from ``seed``."""
        rng = np.random.default_rng(seed)
        sizes = [input_size, *hidden, 1]
        layers = []
        for fan_in, fan_out in itertools.pairwise(sizes):
            w = rng.normal(0.0, np.sqrt(2.0 / fan_in), (fan_in, fan_out)).astype(np.float32)
            layers.append((w, np.zeros(fan_out, np.float32)))
        return cls(layers, game=game)

    def logits(self, x: np.ndarray) -> np.ndarray:
        w, b = self.layers[0]
        return self.logits_after_first(x @ w + b)

    def logits_after_first(self, h: np.ndarray) -> np.ndarray:
        """The logits from the first layer's pre-activations ``h`` (one row per observation)."""
        for w, b in self.layers[1:]:
            np.maximum(h, 0.0, out=h)
            h = h @ w + b
        return h[:, 0]

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """Values in [0, 1] for a batch of observations ``(N, input_size)``."""
        return 1.0 / (1.0 + np.exp(-self.logits(x)))

    # ------------------------------------------------------------------ files
    def save(self, path: str | Path) -> None:
        header = {
            "format_version": FORMAT_VERSION,
            "game": self.game,
            "input_size": self.input_size,
            "layers": len(self.layers),
            "meta": self.meta,
        }
        arrays: dict[str, np.ndarray] = {"header": np.frombuffer(json.dumps(header, sort_keys=True).encode(), np.uint8)}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npz")
        np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
        tmp.replace(path)  # never a half-written file under the real name

    @classmethod
    def load(cls, path: str | Path, *, game: str | None = None, input_size: int | None = None) -> "ValueNet":
        """Read a weights file, checking its format version (and, when given, game and size)."""
        path = Path(path)
        if not path.is_file():
            raise WeightsError(f"no evaluator weights at {path}")
        try:
            with np.load(path, allow_pickle=False) as data:
                header = json.loads(bytes(data["header"]).decode())
                if not isinstance(header, dict):
                    raise ValueError("header is not an object")
                version = header.get("format_version")
                if version != FORMAT_VERSION:
                    raise WeightsError(
                        f"{path}: evaluator weights of format version {version!r}; this Parlor reads version "
                        f"{FORMAT_VERSION} (retrain with `parlor train`)"
                    )
                n = int(header["layers"])
                layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(n)]
        except WeightsError:
            raise
        except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile, EOFError, UnicodeDecodeError) as exc:
            raise WeightsError(f"{path}: not a readable evaluator weights file ({type(exc).__name__}: {exc})") from None
        net = cls(layers, game=str(header.get("game")), meta=header.get("meta") or {})
        if net.input_size != header.get("input_size"):
            raise WeightsError(
                f"{path}: header says input size {header.get('input_size')}, weights take {net.input_size}"
            )
        if game is not None and net.game != game:
            raise WeightsError(f"{path}: weights for {net.game!r}, not {game!r}")
        if input_size is not None and net.input_size != input_size:
            raise WeightsError(
                f"{path}: weights take observations of {net.input_size} floats, {game or net.game}'s encoding gives "
                f"{input_size} (the encoding changed: retrain with `parlor train`)"
            )
        return net


def weights_path(game: str, players: int | None = None) -> Path:
    """Where the shipped weights of ``game`` live (inside the package): ``<game>_<n>p.npz`` for
    a network trained at ``players`` only, ``<game>.npz`` for the game's general one."""
    stem = game.replace("-", "_")
    return WEIGHTS_DIR / (f"{stem}_{players}p.npz" if players is not None else f"{stem}.npz")


@cache
def shipped_net(game: str, players: int | None = None) -> ValueNet:
    """The shipped value network of ``game`` (read once per process): the one trained at
    ``players`` when the package has it, else the game's general one."""
    from parlor.rl import encoding

    if players is not None and not weights_path(game, players).is_file():
        return shipped_net(game)
    return ValueNet.load(weights_path(game, players), game=game, input_size=encoding(game).LAYOUT.size)


class LeafEvaluator:
    """``ISMCTSBot``'s ``evaluate``: the value of a (determinized) position for every seat.

    Each seat's value comes from that seat's own observation of the position, so a seat's value
    never depends on what it could not see in that world. A finished game is judged by its
    result, like a playout's end.

    The seats' observations are written into one preallocated batch (the game's compiled state
    writer) and the network runs once on it. The network is the shipped one for the leaf's
    player count when the package has one (``<game>_<n>p.npz``), else the game's general one.

    ``one_row_for_two``: at two players, read only seat 0's observation and give seat 1 the rest
    of the shared reward (``1 - v``); still only the search's own sampled world is read. That
    path is sparse as well: an observation is mostly zeros (about 50 non-zero floats of Mamma
    Mia!'s 1132, 38 of Mottainai's 4339), so the writer stores the non-zero floats into a dict
    and the first layer is the weighted sum of those inputs' weight rows (one gather) instead of
    a dense product. With several rows the dense batch was as fast or faster (the Python lists
    cost what the gather saves; ``benchmarks/evaluator.py``), so they stay dense.
    """

    def __init__(self, game: Any, net: ValueNet | None = None, *, one_row_for_two: bool = False) -> None:
        from parlor.rl import encoding

        self.game = game
        self.one_row_for_two = one_row_for_two
        # The seat whose decision the search is making (``set_observer``): the one-row path reads
        # its row, so the searching seat's leaves read its own cards in the sampled world.
        self.observer = 0
        self.encoding = encoding(game)
        self.write = self.encoding.ENCODER.write
        self.net = net if net is not None else shipped_net(game.name)
        self.fixed = net is not None
        self.nets: dict[int, ValueNet] = {}
        self.one_row_parts: dict[int, tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]], np.ndarray, float]] = {}
        self.buffers: dict[int, np.ndarray] = {}
        # Reads of a not-yet-written input (a writer that adds to a count) see 0.0, as in a zeroed row.
        self.sparse: defaultdict[int, float] = defaultdict(float)

    def net_for(self, players: int) -> ValueNet:
        """The network for ``players``: the one given, else the shipped one for that count."""
        net = self.nets.get(players)
        if net is None:
            net = self.nets[players] = self.net if self.fixed else shipped_net(self.game.name, players)
            w0, b0 = net.layers[0]
            # For the one-row path: the first layer with its bias as one more row (an input that
            # is always 1), the output layer as a column and a float.
            self.one_row_parts[players] = (
                np.ascontiguousarray(np.vstack([w0, b0[None, :]])),
                net.layers[1:-1],
                np.ascontiguousarray(net.layers[-1][0][:, 0]),
                float(net.layers[-1][1][0]),
            )
        return net

    def set_observer(self, seat: int) -> None:
        """Told by the search (``MasterBot``) whose decision it is making."""
        self.observer = seat

    def __call__(self, state: Any) -> list[float]:
        if state.is_over:
            from parlor.bots.ismcts import rewards

            return rewards(state)
        players = state.players
        net = self.net_for(players)
        if players == 2 and self.one_row_for_two:
            # Two players share a reward of about 1 (0.8 + 0.2, a tie a little more): the other
            # seat's value is read as 1 - the searching seat's, which halves the leaf's cost. Few
            # numpy calls, as each costs a microsecond or more: the first layer's bias is one
            # more weight row (input ``input_size``, always 1) and the output's is added as a float.
            seat = self.observer
            sparse = self.sparse
            sparse.clear()
            self.write(state, seat, sparse, 0)
            sparse[net.input_size] = 1.0
            n = len(sparse)
            first, hidden, output_column, output_bias = self.one_row_parts[2]
            h = np.fromiter(sparse.values(), np.float32, n) @ first.take(np.fromiter(sparse.keys(), np.intp, n), 0)
            if len(net.layers) == 1:
                z = float(h[0])
            else:
                for w, b in hidden:
                    np.maximum(h, 0.0, out=h)
                    h = h @ w + b
                np.maximum(h, 0.0, out=h)
                z = float(np.dot(h, output_column)) + output_bias
            v = 1.0 / (1.0 + math.exp(-z))
            return [v, 1.0 - v] if seat == 0 else [1.0 - v, v]
        buf = self.buffers.get(players)
        if buf is None:
            buf = self.buffers[players] = np.zeros((players, net.input_size), np.float32)
        self.encoding.encode_batch([state] * players, list(range(players)), out=buf)
        return [float(v) for v in net(buf)]


class BlendedEvaluator:
    """``master``'s ``evaluate``: the game's hand-written judgement, blended with the network's.

    The search calls it after the usual short heuristic playout (``expert``'s playout depth), so
    the network judges the same leaves the hand-written ``evaluate`` does, and only adds to it:
    ``(1 - weight) * hand-written + weight * network`` per seat. Where the hand-written
    judgement declines (``None``: mid-round in Mamma Mia!) the playout goes on, as for ``expert``.
    ``weight`` 1 is the network alone at every leaf; 0 is ``expert``'s judgement (the network is
    then never run). A first slice judged every leaf by the network alone with no playout, and
    lost every equal-time game against ``expert`` (docs/strength.md).

    ``every`` K > 1: the network judges only every K-th leaf the hand-written judgement judges
    (counted from the start of each decision, so the search stays deterministic), at K times the
    weight, and the other leaves are the hand-written judgement's alone: the same blend on
    average over the leaves, at a K-th of the network's cost per iteration (with more noise per
    leaf, which the visits average away). ``weight * every`` must not exceed 1.
    """

    def __init__(
        self,
        game: Any,
        weight: float,
        hand_written: Any = None,
        net: ValueNet | None = None,
        *,
        one_row_for_two: bool = False,
        every: int = 1,
    ) -> None:
        self.weight = float(weight)
        self.every = int(every)
        if self.every < 1 or self.weight * self.every > 1.0 + 1e-9:
            raise ValueError(f"every must be at least 1 with weight * every at most 1, got {every} and {weight}")
        self.hand_written = hand_written
        self.network = LeafEvaluator(game, net, one_row_for_two=one_row_for_two) if self.weight > 0 else None
        self.count = 0

    def set_observer(self, seat: int) -> None:
        """Told by the search (``MasterBot``) at each decision whose it is; restarts the count."""
        self.count = 0
        if self.network is not None:
            self.network.set_observer(seat)

    def __call__(self, state: Any) -> list[float] | None:
        if self.hand_written is None or self.weight >= 1.0:
            return self.network(state) if self.network is not None else None
        judged = self.hand_written(state)
        if judged is None:
            return None
        return self.refine(state, judged)

    def refine(self, state: Any, judged: list[float]) -> list[float]:
        """The blend of the hand-written judgement ``judged`` of ``state`` with the network's
        (``ISMCTSBot``'s ``refine``: the search asks the hand-written ``evaluate`` itself, at
        compiled speed, and calls this once per judged leaf)."""
        if self.network is None:
            return judged
        if self.every > 1:
            self.count += 1
            if self.count % self.every:
                return judged
        w = self.weight * self.every
        return [(1.0 - w) * h + w * n for h, n in zip(judged, self.network(state))]


class MasterBot(ISMCTSBot):
    """``master``'s search: ``expert``'s, telling its blended leaf (``leaf``, if any) at each
    decision whose it is (the one-row leaf reads that seat's row; the every-K-th blend restarts
    its count)."""

    def __init__(self, game: Any, seed: int = 0, *, leaf: BlendedEvaluator | None = None, **settings: Any) -> None:
        super().__init__(game, seed, **settings)
        self.leaf = leaf

    def choose(self, state: Any, seat: int) -> Any:
        if self.leaf is not None:
            self.leaf.set_observer(seat)
        return super().choose(state, seat)


class NetworkPrior:
    """``master``'s ``prior`` (``ISMCTSBot``'s progressive bias): the network's value of a node
    near the root, once, when the search creates it.

    Judged from the observation of the seat whose move made the node, in the sampled world that
    first reaches it (for the searching seat's own moves that observation is the seat's own
    information plus the move, whatever the sample). One row, one network call: paid once per
    node, not at every leaf, so the search keeps ``expert``'s iterations per second.
    """

    def __init__(self, game: Any, net: ValueNet | None = None) -> None:
        self.leaf = LeafEvaluator(game, net)
        self.rows: dict[int, np.ndarray] = {}

    def __call__(self, state: Any, seat: int) -> float:
        if state.is_over:
            from parlor.bots.ismcts import rewards

            return rewards(state)[seat]
        net = self.leaf.net_for(state.players)
        row = self.rows.get(state.players)
        if row is None:
            row = self.rows[state.players] = np.zeros((1, net.input_size), np.float32)
        self.leaf.encoding.encode_batch([state], [seat], out=row)
        return float(net(row)[0])
