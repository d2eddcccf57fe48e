"""Many games, one row each: the simulator behind ``parlor simulate``, ``tournament`` and ``analyze``.

A run is a :class:`RunSpec` (game, players, options, bots, seed, seating). Game ``g`` is dealt
with ``derive_seed(seed, g)`` and the bot at seat ``s`` gets ``derive_seed(seed, g, s)``, so each
game depends only on the spec and its index: never on which process, machine or chunk played it.
That is what makes a run identical, byte for byte, in one process, in N processes or on Ray, and
what lets an interrupted run resume and a big run split into shards.

Duplicate deals (``duplicate=True``): with P players, games ``P*d .. P*d + P-1`` are deal ``d``
played once per seat rotation ``r = g % P``. Every one of them is dealt with ``derive_seed(seed, d)``
(the same shuffles; draws made mid-game come from the game's one generator, so they follow the
play), and the bot at seat ``i`` of the deal's base lineup moves to seat
``(i + r) % P``. A bot's own seed is ``derive_seed(seed, d, i)``: tied to the bot (its place ``i`` in
the base lineup), not to the seat it sits in, so a rotation changes only where each bot sits.

Work is cut into chunks of consecutive games. :func:`run` plays them with a backend
(``serial``, ``processes`` or ``ray``), hands each finished chunk to ``on_chunk`` as it
completes (the store in ``results.py`` writes it to disk at once) and returns nothing itself:
the rows are read back from the store in game order.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from parlor import games as registry
from parlor.core.errors import ParlorError
from parlor.core.rng import derive_seed

from .metrics import collector, normalised
from .processes import exit_with_parent

Row = dict[str, Any]
BACKENDS = ("serial", "processes", "ray")


@dataclass(frozen=True)
class RunSpec:
    """Everything that decides a run's results (and nothing that does not, such as workers)."""

    game: str
    players: int
    games: int
    seed: int
    bots: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    # "rotate": game g shifts the per-seat bot list by g; "fixed": bots[s] always sits at s;
    # "schedule": game g plays lineups[g % len(lineups)] (tournaments).
    seating: str = "rotate"
    lineups: tuple[tuple[str, ...], ...] = ()
    records: bool = False
    chunk_size: int = 100
    # Seat s of game g gets the bot seed derive_seed(seed, g, s + bot_seed_offset); tournaments
    # use 1, the numbering they have always had (so their published results replay).
    bot_seed_offset: int = 0
    # Your own metrics module (a .py path or a module name), run beside the game's own.
    metrics: str = ""
    # Each deal played once per seat rotation (see the module doc); ``games`` is then a multiple
    # of ``players``.
    duplicate: bool = False

    def deal(self, index: int) -> tuple[int, int]:
        """(deal, rotation) of game ``index``: its own deal and rotation 0 unless duplicate."""
        if not self.duplicate:
            return index, 0
        return divmod(index, self.players)

    def deal_seed(self, index: int) -> int:
        """The seed game ``index`` is dealt with (shared by a deal's rotations)."""
        return derive_seed(self.seed, self.deal(index)[0])

    def bot_seeds(self, index: int) -> list[int]:
        """The seed of the bot at each seat of game ``index``."""
        deal, rotation = self.deal(index)
        n = self.players
        # duplicate: the bot at seat s came from base place (s - rotation) mod n and keeps its seed
        base_place = [(s - rotation) % n for s in range(n)]
        return [derive_seed(self.seed, deal, base_place[s] + self.bot_seed_offset) for s in range(n)]

    def base_lineup(self, deal: int) -> tuple[str, ...]:
        """A duplicate deal's lineup before rotation: the bots as given, or the schedule's next."""
        if self.seating == "schedule":
            return self.lineups[deal % len(self.lineups)]
        return self.bots

    def lineup(self, index: int) -> tuple[str, ...]:
        if self.duplicate:
            deal, rotation = self.deal(index)
            base = self.base_lineup(deal)
            n = len(base)
            return tuple(base[(s - rotation) % n] for s in range(n))  # base seat i -> seat (i + r) % n
        if self.seating == "schedule":
            return self.lineups[index % len(self.lineups)]
        if self.seating == "fixed":
            return self.bots
        n = len(self.bots)
        shift = index % n
        return tuple(self.bots[(s + shift) % n] for s in range(n))

    def chunks(self) -> list[tuple[int, int, int]]:
        """(chunk number, first game, end) for the whole run."""
        size = max(1, self.chunk_size)
        return [(c, start, min(start + size, self.games)) for c, start in enumerate(range(0, self.games, size))]

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        if not data["metrics"]:
            del data["metrics"]  # a run without user metrics keeps the spec (and file) it always had
        if not data["duplicate"]:
            del data["duplicate"]  # likewise a run without duplicate deals
        data["bots"] = list(self.bots)
        data["lineups"] = [list(x) for x in self.lineups]
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> "RunSpec":
        data = dict(data)
        data["bots"] = tuple(data["bots"])
        data["lineups"] = tuple(tuple(x) for x in data.get("lineups", ()))
        return RunSpec(**data)

    def validate(self) -> None:
        from parlor.bots import make_bot

        game = registry.get(self.game)
        options = game.options_from_json(self.options)
        game.check_players(self.players, options)
        if self.metrics:
            from .metrics import user_metrics_class

            user_metrics_class(self.metrics)  # fails now (ParlorError) if it cannot be loaded
        if self.games < 1:
            raise ParlorError(f"--games must be at least 1, got {self.games}")
        if self.duplicate:
            check_duplicate(self.games, self.players, self.seating)
        if self.seating == "schedule":
            if not self.lineups or any(len(x) != self.players for x in self.lineups):
                raise ParlorError("a schedule needs lineups of one bot per seat")
        elif len(self.bots) != self.players:
            raise ParlorError(f"{len(self.bots)} bots for {self.players} seats")
        for kind in {*self.bots, *(b for x in self.lineups for b in x)}:
            try:
                make_bot(kind, game, 0)
            except ModuleNotFoundError as exc:
                missing = exc.name
                raise ParlorError(f"the {kind!r} bot is not available ({missing} is missing)") from None


def check_duplicate(games: int, players: int, seating: str = "rotate") -> None:
    """A duplicate run plays whole deals: refuse (one line) what would leave a deal's rotations unplayed."""
    if seating == "fixed":
        raise ParlorError("--duplicate rotates the bots across the seats of each deal: drop --no-rotate")
    if games % players:
        low = games - games % players
        options = f"{low} or {low + players}" if low else str(players)
        raise ParlorError(
            f"--duplicate plays each deal once per seat rotation ({players} games a deal): "
            f"--games must be a multiple of {players}, got {games} (use {options})"
        )


def package_version() -> str:
    from parlor import __version__

    return __version__


def play_game(spec: RunSpec, index: int) -> Row:
    """Play game ``index`` of ``spec`` and describe it as one row."""
    from parlor.bots import make_bot

    game = registry.get(spec.game)
    options = game.options_from_json(spec.options)
    lineup = spec.lineup(index)
    seed = spec.deal_seed(index)
    state = game.new_game(spec.players, seed, options)
    start = int(getattr(state, "start_player", 0))
    seats = [make_bot(kind, game, bot_seed) for kind, bot_seed in zip(lineup, spec.bot_seeds(index))]
    metrics = collector(game, state, spec.metrics)
    decisions = 0
    while state.to_move:
        seat = state.to_move[0]
        action = seats[seat].choose(state, seat)
        events = state.apply(seat, action)
        metrics.observe(seat, action, events)
        decisions += 1
    result = state.result()
    found = normalised(metrics.finish(state))
    n = spec.players
    deal_columns: Row = {}
    if spec.duplicate:
        deal, rotation = spec.deal(index)
        deal_columns = {"deal": deal, "rotation": rotation}
    record = None
    if spec.records:
        from .records import annotate

        annotated = annotate(state.record(), list(lineup), spec.deal(index) if spec.duplicate else None)
        record = json.dumps(annotated, sort_keys=True, separators=(",", ":"))
    return {
        "game": spec.game,
        "index": index,
        "seed": seed,
        "players": n,
        "options": json.dumps(spec.options, sort_keys=True, separators=(",", ":")),
        "bots": list(lineup),
        "start_player": start,
        "turn_position": [(s - start) % n for s in range(n)],
        "scores": list(result.scores),
        "places": list(result.places),
        "winners": list(result.winners),
        "decisions": decisions,
        "rounds": found["rounds"],
        "turns": found["turns"],
        "end_condition": found["end_condition"],
        "metrics": json.dumps(
            {"values": found["values"], "rates": found["rates"], "seats": found["seats"]},
            sort_keys=True,
            separators=(",", ":"),
        ),
        "record": record,
        **deal_columns,
    }


def play_chunk(spec_json: dict[str, Any], start: int, end: int) -> list[Row]:
    """Games ``start`` .. ``end - 1`` (a plain-JSON spec, so any process or Ray worker can take it)."""
    spec = RunSpec.from_json(spec_json)
    return [play_game(spec, i) for i in range(start, end)]


def check_backend(backend: str) -> None:
    """Before any file or folder is made: the backend exists and its library is installed."""
    if backend not in BACKENDS:
        raise ParlorError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    if backend == "ray":
        from parlor.extras import require

        require("ray", "analysis", "--backend ray")


def _ignore_sigint(parent: int) -> None:
    # Workers leave Ctrl-C to the parent, which stops them (a traceback per worker helps no one);
    # a parent killed outright cannot, so each worker also ends when its parent is gone.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent(parent)


def _pool_task(job: tuple[dict[str, Any], int, int, int]) -> tuple[int, list[Row]]:
    spec_json, number, start, end = job
    return number, play_chunk(spec_json, start, end)


def run(
    spec: RunSpec,
    chunks: Sequence[tuple[int, int, int]],
    on_chunk: Callable[[int, list[Row]], None],
    *,
    backend: str = "serial",
    workers: int = 1,
    address: str | None = None,
) -> None:
    """Play ``chunks`` (from ``spec.chunks()``, perhaps a subset) and hand each to ``on_chunk``
    as it finishes (in completion order). Ctrl-C stops the workers at once; finished chunks have
    already been handed over."""
    if type(workers) is not int or workers < 1:
        raise ParlorError(f"--workers must be at least 1, got {workers!r}")
    if backend not in BACKENDS:
        raise ParlorError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise ParlorError("--address is for --backend ray")
    spec_json = spec.to_json()
    jobs = [(spec_json, number, start, end) for number, start, end in chunks]
    if not jobs:
        return
    if backend == "ray":
        _run_ray(jobs, on_chunk, workers, address)
    elif backend == "processes" and workers > 1:
        _run_processes(jobs, on_chunk, workers)
    else:
        for job in jobs:
            on_chunk(*_pool_task(job))


def _run_processes(jobs: list[Any], on_chunk: Callable[[int, list[Row]], None], workers: int) -> None:
    import multiprocessing

    # spawn: a clean interpreter per worker (no inherited threads, e.g. a progress bar's).
    pool = multiprocessing.get_context("spawn").Pool(
        min(workers, len(jobs)), initializer=_ignore_sigint, initargs=(os.getpid(),)
    )
    try:
        for number, rows in pool.imap_unordered(_pool_task, jobs):
            on_chunk(number, rows)
        pool.close()
    except BaseException:
        pool.terminate()  # Ctrl-C or a failure: stop every worker now, not after its chunk
        raise
    finally:
        pool.join()


def _start_local_ray(ray: Any, workers: int, attempts: int = 3) -> None:
    """Start a local Ray node. Ray gives its raylet a fixed 30 s to register and then gives up; a machine
    busy with other work can take longer, so the start is tried again before the error is passed on."""
    for attempt in range(1, attempts + 1):
        try:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
            return
        except Exception as exc:
            if attempt == attempts or "timed out during startup" not in str(exc):
                raise
            ray.shutdown()


def _run_ray(jobs: list[Any], on_chunk: Callable[[int, list[Row]], None], workers: int, address: str | None) -> None:
    from parlor.extras import require

    ray = require("ray", "analysis", "--backend ray")
    started_here = not ray.is_initialized()
    if started_here:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            _start_local_ray(ray, workers)
    remote = ray.remote(num_cpus=1)(_pool_task)
    pending = {remote.remote(job): job for job in jobs}
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                pending.pop(ref)
                on_chunk(*ray.get(ref))
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started_here:
            ray.shutdown()


def iter_games(rows: Iterable[Row]) -> Iterable[Row]:
    return sorted(rows, key=lambda r: r["index"])
