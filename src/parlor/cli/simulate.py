"""``parlor simulate``: bots against bots, many games, statistics with 95% intervals.

The games are played by ``parlor.analysis`` (one row per game; see ``analysis/simulation.py``
for the seeds and seating, ``analysis/results.py`` for files, chunks, resume and shards). This
module turns the rows into the command's report: the summary of ``analysis.summary`` plus the
short per-seat / per-bot figures the command has always printed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from parlor.analysis.results import execute
from parlor.analysis.simulation import RunSpec
from parlor.analysis.summary import summarize
from parlor.bots.spec import bot_labels
from parlor.core import Game
from parlor.core.options import options_to_json


def seat_assignment(bots: list[str], game_index: int, rotate: bool) -> list[str]:
    return list(RunSpec("", len(bots), 1, 0, tuple(bots), seating="rotate" if rotate else "fixed").lineup(game_index))


def default_chunk_size(games: int) -> int:
    """About 16 chunks (at most 200 games each): enough to keep a few workers busy and to lose
    little to an interruption. It does not depend on the worker count: the chunk size is part of
    the run's spec, stored in the Parquet file, so a file is the same bytes at -w 1, -w 2 or on Ray."""
    return max(1, min(200, -(-games // 16)))


def paired_win_rates(rows: list[dict[str, Any]], bots: list[str]) -> dict[str, dict[str, Any]]:
    """Per bot kind: its win rate over duplicate deals (each deal's games averaged first, the
    interval over deals; see ``stats.paired_rate``). A game counts the bot's mean win share over
    the seats it holds, so a deal's rotations weigh the same whatever the seating."""
    from parlor.analysis.stats import paired_rate

    by_bot: dict[str, dict[int, list[float]]] = {kind: {} for kind in dict.fromkeys(bots)}
    for row in rows:
        winners = row["winners"]
        for kind, deals in by_bot.items():
            seats = [s for s, k in enumerate(row["bots"]) if k == kind]
            share = sum(1 / len(winners) for s in seats if s in winners) / len(seats)
            deals.setdefault(row["deal"], []).append(share)
    return {kind: paired_rate(list(deals.values())) for kind, deals in by_bot.items()}


def simulate(
    game: Game,
    *,
    players: int,
    games: int,
    bots: list[str],
    seed: int,
    options: Any,
    rotate: bool = True,
    progress: Callable[[int], None] | None = None,
    score_label: str = "score",
    out: Path | None = None,
    records: bool = False,
    workers: int = 1,
    backend: str = "serial",
    address: str | None = None,
    resume: bool = False,
    shard: tuple[int, int] | None = None,
    chunk_size: int | None = None,
    duplicate: bool = False,
) -> dict[str, Any]:
    if backend == "serial" and workers > 1:
        backend = "processes"
    spec = RunSpec(
        game=game.name,
        players=players,
        games=games,
        seed=seed,
        bots=tuple(bots),
        options=options_to_json(options),
        seating="rotate" if rotate else "fixed",
        records=records,
        chunk_size=chunk_size or default_chunk_size(games),
        duplicate=duplicate,
    )
    start = time.perf_counter()
    rows = execute(
        spec,
        out=out,
        backend=backend,
        workers=workers,
        address=address,
        resume=resume,
        shard=shard,
        progress=progress,
    )
    seconds = time.perf_counter() - start
    summary = summarize(rows)
    paired = paired_win_rates(rows, bots) if duplicate else {}
    played = len(rows)
    turns = [r["turns"] for r in rows]
    return {
        "game": game.name,
        "players": players,
        "games": played,
        "seed": seed,
        "rotate": rotate,
        "duplicate": duplicate,
        "bots": list(bots),
        "labels": bot_labels(bots),  # spec -> how tables name it (a plug-in by its name)
        "options": options_to_json(options),
        "score_label": score_label,
        "per_seat": [
            {
                "seat": s,
                "bot": None if rotate else bots[s],
                "wins": row["wins"]["count"],
                "win_rate": row["wins"]["rate"],
                "win_rate_ci95": row["wins"]["ci95"],
                "avg_score": row["score"]["mean"],
            }
            for s, row in enumerate(summary["by_seat"])
        ],
        "per_bot": [
            {
                "bot": row["bot"],
                "seat_games": row["seat_games"],
                "wins": row["wins"]["count"],
                "win_share": row["wins"]["count"] / played,
                "win_rate": row["wins"]["rate"],
                "win_rate_ci95": row["wins"]["ci95"],
                "avg_score": row["score"]["mean"],
                **({"win_rate_paired": paired[row["bot"]]} if duplicate else {}),
            }
            for row in sorted(summary["by_bot"], key=lambda r: bots.index(r["bot"]))
        ],
        "shared_wins": summary["ties"]["count"],
        "avg_decisions": summary["length"]["decisions"]["mean"],
        "avg_turns": sum(turns) / played if all(t is not None for t in turns) else None,
        "summary": summary,
        "out": str(out) if out else None,
        "timing": {"seconds": round(seconds, 3), "games_per_second": round(played / seconds, 2) if seconds else None},
    }
