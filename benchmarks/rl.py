"""RL adapters' speed next to the raw engine, interleaved in the same run.

    python benchmarks/rl.py [--rounds 5] [--games 4] [--num-envs 64] [--players N] [--eager] [--json]

Per game (at its smallest table unless ``--players``), five ways to play random games:

- ``raw``: the engine alone, uniform random legal moves (``legal_actions`` + ``apply``);
- ``aec``: PettingZoo AEC, ``last()`` + a masked random ``step`` for every seat;
- ``par``: PettingZoo parallel env, one masked random action per seat to move;
  (both PettingZoo envs write an observation's entries when read, so only the masks the player
  reads are written; ``--eager``: with ``lazy_observations=False``, everything every step);
- ``gym``: the Gymnasium env, one learning seat, the other seats ``random`` bots;
- ``vec``: ``parlor.rl.vector`` with ``--num-envs`` games, the same setup, masked random
  actions drawn for the whole batch at once.

Each row is decisions per second (every seat's moves; for ``vec`` the learner's steps times the
decisions per learner step that ``gym`` measured, the same setup) and the cost factor ``raw /
mode`` (goals, measured at 4 players: aec and par at most 3, gym at most 2, vec at most 1.5;
the load average is printed with the table). The modes run in turns, ``--rounds`` times (each
``--games`` games, the vector env the same number of decisions), and each figure is the total
over the rounds, so a change in the machine's load hits every mode alike; and each mode is
timed on the process's CPU clock (``time.process_time``), so time the process spends waiting
for a core on a loaded machine is not counted; each turn starts after a full garbage
collection (untimed), so a mode pays for its own collections only. Every env is built once (as a
training loop builds it) and reset at every game; the Gymnasium env is seeded at its first reset
only (``gym_run``). The per-call costs of the view, the view-based
encoder, the encoder in use and the mask are printed too (CPU µs, on states sampled from
``raw``).

The figures are the environments' own cost: the benchmark's random player's cost (``Policy``)
is left out of every mode, ``raw`` included. A second line per game gives
the factors with the player's time left in (a masked random pick from a numpy mask costs about
as much as a raw engine decision); ``--json`` has both,
and the process CPU seconds the game's rows took (the machine is shared: compare factors).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import time
from collections.abc import Sequence
from typing import Any

# One BLAS thread: the benchmark reads the process CPU clock, which counts every thread, and
# OpenBLAS's idle worker threads spin for a while after each call (5-12% of a run's samples under
# perf), charging every mode for work that is not the env's. Set before numpy is imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

from parlor import games
from parlor.rl import encoding
from parlor.rl.gym import ParlorSingleSeatEnv
from parlor.rl.pettingzoo import env as aec_env
from parlor.rl.pettingzoo import parallel_env
from parlor.rl.vector import ParlorVectorEnv


class Policy:
    """The benchmark's player: uniform random legal moves, its own cost kept apart.

    Every mode's figures are the environment's cost: what the player spends choosing (a random
    index for ``raw``, a masked random pick from a numpy mask for the others, a batch of them
    for ``vec``) is left out, since a learning agent pays for its own policy whatever the env.
    Timing each choice would put the clock's own cost (and, on a loaded machine, preemptions)
    into the figures, so the player counts its choices and keeps a sample of its inputs; after
    the run ``cost()`` replays the sample on the CPU clock: choices x CPU seconds per choice."""

    def __init__(self, seed: int, sample: int = 256) -> None:
        self.sample = sample
        self.rnd = random.Random(seed)
        self.rng = np.random.default_rng(seed)
        self.calls = 0
        self.inputs: list[Any] = []
        self.spent = 0.0  # CPU seconds of choices timed where they ran (the vector env's batches)

    def _keep(self, x: Any) -> None:
        self.calls += 1
        if len(self.inputs) < self.sample and self.calls % 7 == 1:
            self.inputs.append(x.copy() if isinstance(x, np.ndarray) else x)

    def index(self, n: int) -> int:
        self._keep(n)
        return self.choose_index(n)

    def pick(self, mask: np.ndarray) -> int:
        self._keep(mask)
        return self.choose_pick(mask)

    def batch(self, masks: np.ndarray) -> np.ndarray:
        self._keep(masks)
        return self.choose_batch(masks)

    # The choices themselves (what ``cost`` replays).
    def choose_index(self, n: int) -> int:
        return self.rnd.randrange(n)

    # A mask is read as bools: numpy finds the non-zero entries of a bool array several times
    # faster than those of an int8 one (Mottainai's 3,059 entries: about 4 µs against 12 µs; a
    # batch of 64: 60 µs against 550 µs). The player's cost is left out of every figure, but
    # not what it does to the caches the env's next step finds.
    def choose_pick(self, mask: np.ndarray) -> int:
        ids = np.flatnonzero(mask.view(np.bool_))
        return int(ids[self.rnd.randrange(len(ids))])

    def choose_batch(self, masks: np.ndarray) -> np.ndarray:
        """One uniform pick among each row's legal actions, from the ids of the batch's set
        entries. (The former pick, ``(random(masks.shape) * masks).argmax(1)``, drew a random
        number for every entry: 3 MB of float64 per Mottainai batch, more than a core's L2
        cache, which evicted the 64 states the env's next step then read.)"""
        rows, cols = np.divmod(np.flatnonzero(masks.view(np.bool_)), masks.shape[1])
        counts = np.bincount(rows, minlength=len(masks))
        first = np.cumsum(counts) - counts  # where each row's ids start
        return cols[first + (self.rng.random(len(masks)) * counts).astype(np.intp)]

    def cost(self, choose: Any) -> float:
        """CPU seconds the player's ``self.calls`` choices took: ``choose`` (one of the
        ``choose_*`` methods) over the sample."""
        if not self.calls:
            return 0.0
        spent, n = 0.0, 0
        while spent < 0.05 or n < len(self.inputs):
            start = time.process_time()
            for x in self.inputs:
                choose(x)
            spent += time.process_time() - start
            n += len(self.inputs)
        return self.calls * spent / n


def raw_engine(name: str, players: int, seeds: range, samples: list[Any], policy: Policy) -> int:
    game = games.get(name)
    decisions = 0
    for seed in seeds:
        state = game.new_game(players, seed)
        while state.to_move:
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[policy.index(len(legal))])
            decisions += 1
            if decisions % 37 == 0 and len(samples) < 200 and state.to_move:
                samples.append(state.clone())
    return decisions


LAZY = True  # the PettingZoo envs write only what is read (--eager: everything)


def aec_run(e: Any, seeds: range, policy: Policy) -> int:
    steps = 0
    for seed in seeds:
        e.reset(seed=seed)
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(policy.pick(obs["action_mask"]))
            steps += 1
    return steps


def parallel_run(e: Any, seeds: range, policy: Policy) -> int:
    names = e.possible_agents  # seat -> agent name (formatting "player_{s}" each step is no env cost)
    decisions = 0
    for seed in seeds:
        obs, _ = e.reset(seed=seed)
        while e.agents:
            movers = [names[s] for s in e.parlor.to_move]
            # a pick for each seat to move (0 for the others, ignored): the masks of seats not to
            # move are not read, as a loop that acts for the seats to move would run
            actions = {a: policy.pick(obs[a]["action_mask"]) if a in movers else 0 for a in obs}
            obs, *_ = e.step(actions)
            decisions += len(movers)
    return decisions


def gym_run(e: ParlorSingleSeatEnv, seeds: Sequence[int | None], policy: Policy) -> tuple[int, int]:
    """(learner steps, engine decisions: the learner's and the random bots'), one game per seed.

    Only the warm-up game is seeded; the timed games reset with ``None``, as a training loop
    (and the vector env's autoreset) does after its first reset: a seeded ``reset`` makes
    Gymnasium build a new ``np_random`` (about 20 µs, a tenth of a short Sweet Nose episode's
    cost), which is the seeding's cost, not an episode's."""
    steps = decisions = 0
    for seed in seeds:
        _, info = e.reset(seed=seed)
        done = False
        while not done:
            _, _, done, _, info = e.step(policy.pick(info["action_mask"]))
            steps += 1
        decisions += len(e.state.history())
    return steps, decisions


def vector_run(env: ParlorVectorEnv, info: dict[str, Any], steps: int, policy: Policy) -> tuple[int, Any]:
    """``steps`` learner decisions (rounded up to whole batches); masked random actions for the
    whole batch at once. A batch pick is long (about 0.1 ms for 64 Mottainai masks, a tenth of
    the env's step), so it is timed where it runs (``policy.spent``) rather than estimated by a
    replay, whose warm caches misjudge it; the clock's cost (well under a µs) is nothing
    beside it."""
    done = 0
    while done < steps:
        start = time.process_time()
        actions = policy.batch(info["action_mask"])
        policy.spent += time.process_time() - start
        _, _, _, _, info = env.step(actions)
        done += env.num_envs
    return done, info


def factor(raw: float | None, mode: float | None) -> float | None:
    """``raw / mode`` to two places, None when either figure is missing."""
    return None if raw is None or mode is None else round(raw / mode, 2)


def per_call_us(samples: list[Any], fn: Any) -> float:
    start = time.process_time()
    for s in samples:
        fn(s)
    return (time.process_time() - start) / len(samples) * 1e6


def measure(name: str, players: int, rounds: int, n_games: int, num_envs: int) -> dict[str, Any]:
    game = games.get(name)
    enc = encoding(game)
    seconds = dict.fromkeys(("raw", "aec", "par", "gym", "vec"), 0.0)
    counts = dict.fromkeys(seconds, 0)
    gym_steps = 0
    cpu_start = time.process_time()
    samples: list[Any] = []
    # Every env is built once, as a training loop builds it (a PettingZoo env takes 0.2-0.3 ms
    # to build: spaces, the privileged-state tables; built at every round, that was 6% of the
    # parallel env's Sweet Nose figure), and reset at every game.
    aec = aec_env(name, players=players, lazy_observations=LAZY)
    par = parallel_env(name, players=players, lazy_observations=LAZY)
    gym = ParlorSingleSeatEnv(name, players=players, opponents="random", seat=None)
    venv = ParlorVectorEnv(name, num_envs=num_envs, players=players, opponents="random", seed=1)
    _, vinfo = venv.reset()
    policies = {k: Policy(1, 16 if k == "vec" else 256) for k in seconds}

    def timed(mode: str, run: Any, *args: Any) -> Any:
        # Each turn starts with no garbage pending (a full collection, untimed), so a mode pays
        # for the collections its own allocations trigger and never for another mode's: where a
        # collection fell otherwise moved a short mode's figure (the vector env on Mamma Mia!,
        # 20 steps) by a factor of 1.5 between runs of the same code.
        gc.collect()
        t = time.process_time()
        result = run(*args, policies[mode])
        seconds[mode] += time.process_time() - t
        return result

    # One untimed game per mode first: the first env of a kind imports and builds what every
    # later one shares (privileged-state tables, spaces, the action list: tens of ms, a large
    # share of a short run), which is no part of a decision's cost.
    warm = range(10**6, 10**6 + 1)
    warm_policy = Policy(2)
    raw_engine(name, players, warm, [], warm_policy)
    aec_run(aec, warm, warm_policy)
    parallel_run(par, warm, warm_policy)
    gym_run(gym, warm, warm_policy)  # its one seeded reset
    for r in range(rounds):
        seeds = range(r * n_games, (r + 1) * n_games)
        counts["raw"] += timed("raw", raw_engine, name, players, seeds, samples)
        counts["aec"] += timed("aec", aec_run, aec, seeds)
        counts["par"] += timed("par", parallel_run, par, seeds)
        steps, decisions = timed("gym", gym_run, gym, [None] * n_games)
        gym_steps += steps
        counts["gym"] += decisions
        done, vinfo = timed("vec", vector_run, venv, vinfo, steps)
        counts["vec"] += done  # learner steps; converted below
    per_step = counts["gym"] / gym_steps  # engine decisions per learner step (random opponents)
    counts["vec"] = round(counts["vec"] * per_step)
    choices = {"raw": "choose_index", "vec": "choose_batch"}
    policy_seconds = {
        k: p.spent if p.spent else p.cost(getattr(p, choices.get(k, "choose_pick"))) for k, p in policies.items()
    }
    with_policy = {k: counts[k] / seconds[k] for k in seconds}
    # The player's cost is estimated by a replay: on a machine that slows down between the run
    # and the replay it can come out above the mode's whole time. Such a figure is no figure
    # (None, printed "n/a"), never a negative rate.
    own = {k: seconds[k] - policy_seconds[k] for k in seconds}
    rate = {k: counts[k] / own[k] if own[k] > 0 else None for k in seconds}
    buf = np.zeros(enc.LAYOUT.size, np.float32)
    mask = np.zeros(game.num_actions, np.int8)
    return {
        "game": name,
        "players": players,
        "num_envs": num_envs,
        "lazy_observations": LAZY,
        "decisions_per_s": {k: None if v is None else round(v) for k, v in rate.items()},
        "cost_factor": {k: factor(rate["raw"], v) for k, v in rate.items() if k != "raw"},
        "with_policy": {
            "decisions_per_s": {k: round(v) for k, v in with_policy.items()},
            "cost_factor": {k: round(with_policy["raw"] / v, 2) for k, v in with_policy.items() if k != "raw"},
        },
        "cpu_seconds": round(time.process_time() - cpu_start, 1),
        "decisions_per_learner_step": round(per_step, 2),
        "us_per_call": {
            "view": round(per_call_us(samples, lambda s: s.view(s.to_move[0], recall=True)), 1),
            "encode_from_view": round(per_call_us(samples, lambda s: enc.encode_from_view(s, s.to_move[0], buf)), 1),
            "encode": round(per_call_us(samples, lambda s: enc.encode(s, s.to_move[0], buf)), 1),
            "action_mask": round(per_call_us(samples, lambda s: enc.action_mask(s, s.to_move[0], mask)), 1),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=4, help="games per mode and round")
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--players", type=int, default=0, help="0: each game's smallest table")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--eager", action="store_true", help="PettingZoo envs with lazy_observations=False")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    global LAZY
    LAZY = not args.eager

    rows = []
    for name in args.game or games.names():
        game = games.get(name)
        players = min(max(args.players, game.min_players), game.max_players)
        rows.append(measure(name, players, args.rounds, args.games, args.num_envs))
    if args.json:
        for r in rows:
            r["load_average"] = [round(x, 1) for x in os.getloadavg()]
        print(json.dumps(rows, indent=2))
        return
    print_table(rows)


def print_table(rows: list[dict[str, Any]]) -> None:
    """The rows of ``measure`` as the table this script prints."""
    import parlor

    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"parlor build: {parlor.BUILD}; lazy PettingZoo observations: {LAZY}; load average {load} (1/5/15 min)")
    print("decisions/s (cost factor raw/mode; goals: aec, par <= 3x, gym <= 2x, vec <= 1.5x)")
    head = f"{'game':11} {'p':>2} {'raw':>8} {'aec':>14} {'par':>14} {'gym':>14} {'vec':>14}"
    print(head + "   µs: view  enc(view)  enc  mask")

    def cell(rate: int | None, factor: float | None) -> str:
        return f" {'n/a' if rate is None else rate:>7} ({'n/a' if factor is None else factor:>4}x)"

    for r in rows:
        d, f, us = r["decisions_per_s"], r["cost_factor"], r["us_per_call"]
        cells = "".join(cell(d[k], f[k]) for k in ("aec", "par", "gym", "vec"))
        raw = "n/a" if d["raw"] is None else d["raw"]
        print(
            f"{r['game']:11} {r['players']:>2} {raw:>8}{cells}   {us['view']:>7} {us['encode_from_view']:>9}"
            f" {us['encode']:>5} {us['action_mask']:>5}"
        )
        d, f = r["with_policy"]["decisions_per_s"], r["with_policy"]["cost_factor"]
        cells = "".join(cell(d[k], f[k]) for k in ("aec", "par", "gym", "vec"))
        print(f"{'  + player':11} {'':>2} {d['raw']:>8}{cells}")
    if any(None in r["decisions_per_s"].values() for r in rows):
        print("n/a: the player's estimated cost came out above the mode's whole time (the machine slowed); run again")


if __name__ == "__main__":
    main()
