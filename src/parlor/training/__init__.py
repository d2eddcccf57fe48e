"""Training the learned evaluator (``parlor train GAME``): positions from bots' games, a value net.

1. **Positions.** Games between existing bots (``medium`` by default; any bot specs), at the
   given player counts, seats rotated. At a sampled fraction of the decisions every seat's
   observation is kept (the encoding of ``parlor.rl``: that seat's information only); its target
   is that seat's final reward (``ismcts.result_rewards``: the same scale the search backs up),
   or with ``playouts`` K, the mean over K worlds sampled from that seat's knowledge
   (``state.determinize``) of what an ``expert`` iteration would back up from there (its playout,
   then the game's ``evaluate``): a low-noise estimate of the search's own leaf value, for a
   network that replaces the playout rather than corrects it.
   Written as ``positions.parquet`` (one row per seat and position, the observation a fixed-size
   list of float32), so a resumed or repeated run reads them instead of playing again.
2. **Fit.** A small MLP (``evaluator.ValueNet``) trained with Adam on the binary cross-entropy of
   its sigmoid output against the targets. Adam is written here in numpy (some thirty lines)
   rather than taken from torch: the network is two small dense layers, numpy does the matrix
   products as fast as torch on one CPU core, and training then needs no deep-learning framework
   (the ``[train]`` extra's torch is 750 MB). Whole games are held out for validation (positions
   of one game are correlated), and the report compares the held-out mean squared error with the
   best constant predictor's (the training targets' mean).
   The weights kept are those of the epoch with the lowest held-out error (early stopping: with
   few games a network soon learns the games by heart, and later epochs only fit noise).
3. **Checkpoints.** After every epoch ``checkpoint.npz`` holds the weights, Adam's moments and the
   losses so far; a run started again with the same settings continues from it (a run with other
   settings is refused). Under one seed the run is deterministic: same positions, same shuffles,
   same weights, whether or not it was interrupted between epochs.
4. **Report.** ``report.md`` (settings, sizes, losses per epoch, time spent) and ``loss.png``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from parlor.bots.evaluator import ValueNet
from parlor.core.errors import ParlorError

Progress = Callable[[str, int, int], None]  # (stage, done, total)


@dataclass(frozen=True)
class TrainSettings:
    game: str
    players: tuple[int, ...] = (2,)
    games: int = 200
    bots: tuple[str, ...] = ("medium",)
    sample: float = 0.2  # the fraction of decisions whose position is kept
    hidden: tuple[int, ...] = (64,)
    epochs: int = 20
    batch: int = 256
    lr: float = 1e-3
    weight_decay: float = 1e-4
    holdout: float = 0.15  # the fraction of games held out for validation
    seed: int = 0
    # 0: a seat's target is its final reward. K > 0: the mean over K of expert's leaf judgement
    # from that seat's sampled worlds (module docstring), a low-noise target for the network
    # that replaces the playout.
    playouts: int = 0

    def key(self) -> dict[str, Any]:
        key = json.loads(json.dumps(asdict(self)))
        if not self.playouts:
            del key["playouts"]  # the outcome target: the same key (and positions) as before the option
        return key


@dataclass
class Positions:
    obs: np.ndarray  # (N, size) float32
    target: np.ndarray  # (N,) float32
    game_index: np.ndarray  # (N,) int32
    seat: np.ndarray  # (N,) int8
    players: np.ndarray  # (N,) int8


def generate_positions(settings: TrainSettings, progress: Progress | None = None) -> Positions:
    """Play ``settings.games`` games between the bots and keep sampled positions (module docstring)."""
    from parlor import games
    from parlor.bots import make_bot
    from parlor.bots.ismcts import result_rewards
    from parlor.core.rng import FastRng
    from parlor.rl import encoding

    game = games.get(settings.game)
    enc = encoding(game)
    judge = playout_judgement(game) if settings.playouts else None
    obs: list[np.ndarray] = []
    target: list[float] = []
    index: list[int] = []
    seats: list[int] = []
    counts: list[int] = []
    for g in range(settings.games):
        players = settings.players[g % len(settings.players)]
        seed = settings.seed * 1_000_003 + g
        state = game.new_game(players, seed=seed)
        specs = settings.bots
        bots = [make_bot(specs[(g + s) % len(specs)], game, seed * 7 + s) for s in range(players)]
        pick = np.random.default_rng([settings.seed, g])
        worlds = FastRng(seed)
        start = len(target)
        judged: list[float] = []
        while not state.is_over:
            if pick.random() < settings.sample:
                obs.append(enc.encode_batch([state] * players, list(range(players))))
                seats.extend(range(players))
                if judge is not None:  # each seat's worlds are dealt from what that seat knows
                    for s in range(players):
                        k = settings.playouts
                        judged.append(sum(judge(state.determinize(s, worlds), s, worlds) for _ in range(k)) / k)
            mover = state.to_move[0]
            state.apply(mover, bots[mover].choose(state, mover))
        kept = len(seats) - start
        if judge is not None:
            target.extend(judged)
        else:
            rewards = result_rewards(state.result())
            target.extend(rewards[s] for s in seats[start:])
        index.extend([g] * kept)
        counts.extend([players] * kept)
        if progress is not None:
            progress("positions", g + 1, settings.games)
    size = enc.LAYOUT.size
    return Positions(
        obs=np.concatenate(obs) if obs else np.zeros((0, size), np.float32),
        target=np.asarray(target, np.float32),
        game_index=np.asarray(index, np.int32),
        seat=np.asarray(seats, np.int8),
        players=np.asarray(counts, np.int8),
    )


def write_positions(path: Path, positions: Positions, settings: TrainSettings) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    size = positions.obs.shape[1]
    table = pa.table(
        {
            "game_index": positions.game_index,
            "players": positions.players,
            "seat": positions.seat,
            "target": positions.target,
            "obs": pa.FixedSizeListArray.from_arrays(pa.array(positions.obs.reshape(-1)), size),
        }
    ).replace_schema_metadata({"parlor.train": json.dumps(settings.key(), sort_keys=True)})
    tmp = path.with_suffix(".tmp")
    pq.write_table(table, tmp, compression="zstd")
    tmp.replace(path)


def read_positions(path: Path, settings: TrainSettings) -> Positions | None:
    """The positions of an earlier run with the same settings, or None if there are none."""
    import pyarrow.parquet as pq

    if not path.is_file():
        return None
    table = pq.read_table(path)
    meta = (table.schema.metadata or {}).get(b"parlor.train")
    if meta is None or _positions_key(json.loads(meta)) != _positions_key(settings.key()):
        return None
    obs = table.column("obs").combine_chunks()
    size = obs.type.list_size
    return Positions(
        obs=obs.flatten().to_numpy().reshape(-1, size).astype(np.float32),
        target=table.column("target").to_numpy().astype(np.float32),
        game_index=table.column("game_index").to_numpy().astype(np.int32),
        seat=table.column("seat").to_numpy().astype(np.int8),
        players=table.column("players").to_numpy().astype(np.int8),
    )


def _positions_key(key: dict[str, Any]) -> dict[str, Any]:
    return {k: key.get(k, 0) for k in ("game", "players", "games", "bots", "sample", "seed", "playouts")}


def playout_judgement(game: Any, level: str = "expert") -> Callable[[Any, int, Any], float]:
    """``judge(world, seat, rng)``: what one iteration of the ``level`` search would back up for
    ``seat`` from a sampled ``world`` that has just left the tree (its playout policy, then the
    game's ``evaluate`` once the playout depth is reached, or the result if the game ends)."""
    from parlor.bots import search_settings
    from parlor.bots.ismcts import random_policy, rewards

    settings = search_settings(game, level)
    policy: Any = settings.get("policy", random_policy)
    evaluate: Any = settings.get("evaluate")
    depth = int(settings.get("playout_depth", 0))  # type: ignore[call-overload]

    def judge(world: Any, seat: int, rng: Any) -> float:
        steps = 0
        while world.to_move:
            if evaluate is not None and steps >= depth:
                values = evaluate(world)
                if values is not None:
                    return float(values[seat])
            mover = world.to_move[0]
            world.apply(mover, policy(world, mover, rng))
            steps += 1
        return float(rewards(world)[seat])

    return judge


# ---------------------------------------------------------------------- fitting
def _forward(net: ValueNet, x: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    acts = [x]
    h = x
    last = len(net.layers) - 1
    for i, (w, b) in enumerate(net.layers):
        h = h @ w + b
        if i < last:
            h = np.maximum(h, 0.0)
        acts.append(h)
    return acts, h[:, 0]


def _gradients(net: ValueNet, x: np.ndarray, y: np.ndarray) -> tuple[float, list[np.ndarray]]:
    """Mean binary cross-entropy of sigmoid(logit) against ``y``, and its gradients (w0, b0, w1, ...)."""
    acts, z = _forward(net, x)
    p = 1.0 / (1.0 + np.exp(-z))
    eps = 1e-7
    loss = float(-np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))
    delta = ((p - y) / len(y)).astype(np.float32)[:, None]  # d loss / d logit
    return loss, backward(net, acts, delta)


def backward(net: ValueNet, acts: list[np.ndarray], delta: np.ndarray) -> list[np.ndarray]:
    """The gradients (w0, b0, w1, ...) from ``_forward``'s activations and the loss's gradient
    with respect to the output ``delta`` (a column)."""
    grads: list[np.ndarray] = []
    for i in range(len(net.layers) - 1, -1, -1):
        w, _ = net.layers[i]
        grads.append(delta.sum(axis=0))
        grads.append(acts[i].T @ delta)
        if i:
            delta = (delta @ w.T) * (acts[i] > 0)
    grads.reverse()
    return grads


def value_mse(net: ValueNet, x: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((net(x) - y) ** 2)) if len(y) else float("nan")


@dataclass
class TrainResult:
    net: ValueNet
    history: list[dict[str, float]] = field(default_factory=list)
    positions: int = 0
    held_out: int = 0
    constant_mse: float = float("nan")
    seconds: float = 0.0


def train(settings: TrainSettings, out: Path, progress: Progress | None = None) -> TrainResult:
    """The whole run (module docstring), resumable from ``out``'s checkpoint."""
    from parlor.rl import encoding

    if settings.games < 2:
        raise ParlorError("training needs at least 2 games (some are held out for validation)")
    out.mkdir(parents=True, exist_ok=True)
    started = time.process_time()
    positions_file = out / "positions.parquet"
    positions = read_positions(positions_file, settings)
    if positions is None:
        positions = generate_positions(settings, progress)
        write_positions(positions_file, positions, settings)
    size = encoding(settings.game).LAYOUT.size
    if positions.obs.shape[1] != size:
        raise ParlorError(
            f"{positions_file}: observations of {positions.obs.shape[1]} floats, the encoding gives {size}"
        )
    held_games = max(1, round(settings.games * settings.holdout))
    held = positions.game_index >= settings.games - held_games
    x_train, y_train = positions.obs[~held], positions.target[~held]
    x_val, y_val = positions.obs[held], positions.target[held]
    if not len(y_train) or not len(y_val):
        raise ParlorError("too few positions to train and validate: play more games or raise --sample")
    constant = float(y_train.mean())
    constant_mse = float(np.mean((y_val - constant) ** 2))

    net = ValueNet.initial(settings.game, size, settings.hidden, settings.seed)
    params = [a for layer in net.layers for a in layer]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    best = [p.copy() for p in params]
    history: list[dict[str, float]] = []
    checkpoint = out / "checkpoint.npz"
    spent = 0.0
    if checkpoint.is_file():
        with np.load(checkpoint, allow_pickle=False) as data:
            saved = json.loads(bytes(data["settings"]).decode())
            if saved != settings.key():
                now = settings.key()
                differ = sorted(k for k in saved.keys() | now.keys() if saved.get(k) != now.get(k))
                raise ParlorError(
                    f"{checkpoint} was made with other settings ({', '.join(differ)} differ); "
                    "use another --out or the same settings"
                )
            for i in range(len(params)):
                params[i][...] = data[f"p{i}"]
                m[i][...] = data[f"m{i}"]
                v[i][...] = data[f"v{i}"]
                best[i][...] = data[f"best{i}"]
            step = int(data["step"])
            history = json.loads(bytes(data["history"]).decode())
            spent = float(data["seconds"])
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    for epoch in range(len(history), settings.epochs):
        order = np.random.default_rng([settings.seed, epoch]).permutation(len(y_train))
        losses = []
        for lo in range(0, len(order), settings.batch):
            batch = order[lo : lo + settings.batch]
            loss, grads = _gradients(net, x_train[batch], y_train[batch])
            losses.append(loss)
            step += 1
            for i, (p, g) in enumerate(zip(params, grads)):
                if p.ndim == 2:
                    g = g + settings.weight_decay * p
                m[i] = beta1 * m[i] + (1 - beta1) * g
                v[i] = beta2 * v[i] + (1 - beta2) * g * g
                m_hat = m[i] / (1 - beta1**step)
                v_hat = v[i] / (1 - beta2**step)
                p -= (settings.lr * m_hat / (np.sqrt(v_hat) + eps)).astype(np.float32)
        history.append(
            {
                "epoch": epoch + 1,
                "train_bce": float(np.mean(losses)),
                "train_mse": value_mse(net, x_train, y_train),
                "held_out_mse": value_mse(net, x_val, y_val),
            }
        )
        if history[-1]["held_out_mse"] <= min(h["held_out_mse"] for h in history):
            best = [p.copy() for p in params]
        elapsed = spent + time.process_time() - started
        arrays = {f"p{i}": p for i, p in enumerate(params)}
        arrays.update({f"m{i}": a for i, a in enumerate(m)})
        arrays.update({f"v{i}": a for i, a in enumerate(v)})
        arrays.update({f"best{i}": a for i, a in enumerate(best)})
        tmp = out / "checkpoint.tmp.npz"
        np.savez(
            tmp,
            settings=np.frombuffer(json.dumps(settings.key(), sort_keys=True).encode(), np.uint8),
            history=np.frombuffer(json.dumps(history).encode(), np.uint8),
            step=np.asarray(step),
            seconds=np.asarray(elapsed),
            **arrays,  # type: ignore[arg-type]
        )
        tmp.replace(checkpoint)
        if progress is not None:
            progress("epochs", epoch + 1, settings.epochs)
    seconds = spent + time.process_time() - started
    for p, kept in zip(params, best):
        p[...] = kept
    chosen = min(history, key=lambda h: h["held_out_mse"])
    net.meta = {
        "trained": settings.key(),
        "positions": len(positions.target),
        "held_out_mse": chosen["held_out_mse"],
        "epoch": int(chosen["epoch"]),
        "constant_mse": constant_mse,
        "cpu_seconds": round(seconds, 1),
    }
    result = TrainResult(net, history, len(y_train), len(y_val), constant_mse, seconds)
    net.save(out / f"{settings.game.replace('-', '_')}.npz")
    write_report(out, settings, result)
    return result


def write_report(out: Path, settings: TrainSettings, result: TrainResult) -> None:
    lines = [
        f"# Evaluator training: {settings.game}",
        "",
        f"Settings: `{json.dumps(settings.key(), sort_keys=True)}`",
        "",
        f"Positions: {result.positions} for training, {result.held_out} held out (whole games); "
        f"CPU time {result.seconds:.1f} s.",
        "",
        f"Held-out mean squared error: network {result.net.meta['held_out_mse']:.4f} (the weights kept, from "
        f"epoch {result.net.meta['epoch']}), best constant {result.constant_mse:.4f}.",
        "",
        "| epoch | train BCE | train MSE | held-out MSE |",
        "| --- | --- | --- | --- |",
    ]
    for h in result.history:
        lines.append(f"| {h['epoch']:.0f} | {h['train_bce']:.4f} | {h['train_mse']:.4f} | {h['held_out_mse']:.4f} |")
    figure = _loss_figure(out / "loss.png", result)
    if figure:
        lines += ["", "![loss by epoch](loss.png)"]
    (out / "report.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _loss_figure(path: Path, result: TrainResult) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # the [analysis] extra is absent: the report keeps its table
        return False
    epochs = [h["epoch"] for h in result.history]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(epochs, [h["train_mse"] for h in result.history], label="training MSE")
    ax.plot(epochs, [h["held_out_mse"] for h in result.history], label="held-out MSE")
    ax.axhline(result.constant_mse, color="grey", linestyle="--", label="best constant (held out)")
    ax.set_xlabel("epoch")
    ax.set_ylabel("mean squared error")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return True


def parse_players(text: str | Sequence[int]) -> tuple[int, ...]:
    if not isinstance(text, str):
        return tuple(int(p) for p in text)
    try:
        return tuple(int(p) for p in text.split(",") if p.strip())
    except ValueError:
        raise ParlorError(f"--players takes numbers separated by commas, got {text!r}") from None


# ------------------------------------------------------------------ self-play generations
@dataclass(frozen=True)
class Generations:
    """Expert iteration: after the first network (positions from ``TrainSettings.bots``' games),
    each generation's positions come from the search playing itself with the previous
    generation's network (``self_play`` with ``:weights=`` the previous weights added), and a new
    network is trained on them. With ``eval_games``, every generation's network plays that many
    games as ``self_play`` against ``against`` on the same deals, for its strength by generation."""

    count: int = 1  # generations after the first network
    self_play: str = "master:iterations=400"
    eval_games: int = 0
    against: str = "expert:iterations=400"
    games: int = 0  # games per later generation (the search's games cost more than medium's); 0: base.games


@dataclass
class GenerationResult:
    index: int
    settings: TrainSettings
    weights: Path
    result: TrainResult
    strength: dict[str, Any] | None  # the tournament's head-to-head of this network's search against ``against``


def generation_settings(base: TrainSettings, gens: Generations, out: Path, index: int) -> TrainSettings:
    """Generation ``index``'s training settings: the first is ``base``; later ones play with the
    previous generation's weights, on fresh deals (the seed moves on by one per generation)."""
    if index == 0:
        return base
    previous = generation_weights(base, out, index - 1)
    return replace(
        base, bots=(f"{gens.self_play}:weights={previous}",), seed=base.seed + index, games=gens.games or base.games
    )


def generation_weights(base: TrainSettings, out: Path, index: int) -> Path:
    return out / f"gen{index}" / f"{base.game.replace('-', '_')}.npz"


def train_generations(
    base: TrainSettings, gens: Generations, out: Path, progress: Progress | None = None
) -> list[GenerationResult]:
    """Every generation (``Generations``), each in ``out/gen<k>``, resumable like ``train``: a
    finished generation's checkpoint and strength are read back, not recomputed. The last
    network is copied to ``out/<game>.npz``; ``out/report.md`` and ``strength.png`` give the
    losses and the strength by generation."""
    if gens.count < 0 or gens.eval_games < 0 or gens.games < 0 or gens.games == 1:
        raise ParlorError("--generations and --eval-games must be 0 or more, --self-play-games 0 or at least 2")
    if "weights=" in gens.self_play:
        raise ParlorError("--self-play must not name weights: each generation plays with the previous one's")
    out.mkdir(parents=True, exist_ok=True)
    results: list[GenerationResult] = []
    for index in range(gens.count + 1):
        settings = generation_settings(base, gens, out, index)
        folder = out / f"gen{index}"

        def stage(what: str, done: int, total: int, index: int = index) -> None:
            if progress is not None:
                progress(f"generation {index}: {what}", done, total)

        result = train(settings, folder, stage)
        weights = generation_weights(base, out, index)
        strength = _generation_strength(base, gens, weights, folder, stage) if gens.eval_games else None
        results.append(GenerationResult(index, settings, weights, result, strength))
    final = out / f"{base.game.replace('-', '_')}.npz"
    final.write_bytes(results[-1].weights.read_bytes())
    write_generations_report(out, base, gens, results)
    return results


def _generation_strength(
    base: TrainSettings, gens: Generations, weights: Path, folder: Path, progress: Progress
) -> dict[str, Any]:
    """This network's search against ``gens.against``: ``eval_games`` games at the first player
    count, seats rotated, the same deals for every generation (``base.seed``), kept in
    ``strength.json`` so a resumed run does not play them again."""
    from parlor.analysis.tournament import run_tournament

    mine = f"{gens.self_play}:weights={weights}"
    key = {"bots": [mine, gens.against], "games": gens.eval_games, "players": base.players[0], "seed": base.seed}
    kept = folder / "strength.json"
    if kept.is_file():
        saved = json.loads(kept.read_text(encoding="utf-8"))
        if saved.get("key") == key:
            return dict(saved["head_to_head"])
    started = time.process_time()
    tournament = run_tournament(
        base.game,
        players=base.players[0],
        bots=[mine, gens.against],
        games=gens.eval_games,
        seed=base.seed,
        progress=lambda done: progress("strength", done, gens.eval_games),
    )
    if tournament.interrupted:
        raise KeyboardInterrupt
    head = tournament.head_to_head(mine, gens.against)
    head["cpu_seconds"] = round(time.process_time() - started, 1)
    kept.write_text(json.dumps({"key": key, "head_to_head": head}, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return head


def write_generations_report(
    out: Path, base: TrainSettings, gens: Generations, results: list[GenerationResult]
) -> None:
    against = f" against `{gens.against}`" if gens.eval_games else ""
    lines = [
        f"# Evaluator training by generation: {base.game}",
        "",
        f"First generation: `{json.dumps(base.key(), sort_keys=True)}`.",
        f"Later generations: the same settings but {gens.games or base.games} games each, positions from "
        f"`{gens.self_play}` playing itself with the previous generation's weights, on fresh deals (the seed plus "
        "the generation). Each generation's own report is in its `gen<k>/` folder.",
        "",
        f"| generation | positions from | training positions | held-out MSE (best constant) | CPU s | score{against} "
        "| 95% interval | CPU s (games) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for g in results:
        meta = g.result.net.meta
        who = " vs ".join(dict.fromkeys(g.settings.bots)).replace(str(out) + "/", "")
        row = (
            f"| {g.index} | `{who}` | {g.result.positions} | {meta['held_out_mse']:.4f} ({g.result.constant_mse:.4f}) "
            f"| {meta['cpu_seconds']:.0f} |"
        )
        if g.strength is not None:
            low, high = g.strength["ci95"]
            row += f" {g.strength['score']:.3f} ({g.strength['games']} games) | [{low:.3f}, {high:.3f}] | "
            row += f"{g.strength.get('cpu_seconds', 0):.0f} |"
        else:
            row += " — | — | — |"
        lines.append(row)
    total = sum(g.result.net.meta["cpu_seconds"] + (g.strength or {}).get("cpu_seconds", 0) for g in results)
    lines += ["", f"Total CPU time: {total:.0f} s ({total / 3600:.2f} h)."]
    if any(g.strength for g in results) and _strength_figure(out / "strength.png", results, gens):
        lines += ["", "![strength by generation](strength.png)"]
    (out / "report.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _strength_figure(path: Path, results: list[GenerationResult], gens: Generations) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    measured = [g for g in results if g.strength is not None]
    x = [g.index for g in measured]
    y = [g.strength["score"] for g in measured]  # type: ignore[index]
    low = [s - g.strength["ci95"][0] for g, s in zip(measured, y)]  # type: ignore[index]
    high = [g.strength["ci95"][1] - s for g, s in zip(measured, y)]  # type: ignore[index]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.errorbar(x, y, yerr=[low, high], fmt="o-", capsize=4, label=f"score against {gens.against}")
    ax.axhline(0.5, color="grey", linestyle="--")
    ax.set_xlabel("generation")
    ax.set_ylabel("score (95% interval)")
    ax.set_xticks(x)
    ax.set_ylim(0, 1)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return True
