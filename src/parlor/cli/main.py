"""The ``parlor`` command: play, simulate, replay, rules, games.

Generic over games: a game is found with ``parlor.games.get(name)`` and its words with
``parlor.games.<pkg>.text`` (see ``parlor.text.text_module``). Every ``ParlorError`` ends the
command with a one-line message and exit code 1.
"""

from __future__ import annotations

import json
import secrets
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

import parlor
from parlor import games as registry
from parlor.bots import BOT_KINDS
from parlor.bots.spec import split_bot_specs
from parlor.core import ParlorError, load_record
from parlor.text import text_module

from . import common, help_format
from .common import (
    bot_list,
    clean_errors,
    console,
    get_game,
    is_interactive,
    parse_options,
    seat_from_user,
)
from .options_text import render_game_options

help_format.install()

# The names --bots takes; "ismcts" is the search bot with the game's default settings (what "hard" uses);
# "master" is stronger than "expert" only in Sweet Nose (docs/strength.md), so the help does not rank it above.
_NOTES = {
    "ismcts": "the search bot behind hard",
    "master": "experimental; stronger than expert only in Sweet Nose",
}
BOT_NAMES = [f"{k} ({_NOTES[k]})" if k in _NOTES else k for k in BOT_KINDS]

app = typer.Typer(
    name="parlor",
    help="Parlor: play board games in the terminal against bots, simulate bot matches, replay saved games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},  # every command: -h is --help
)


def _version(value: bool) -> None:
    if value:
        print(f"parlor {parlor.__version__}, {parlor.build_description()}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option("--version", help="Print Parlor's version and exit.", callback=_version, is_eager=True),
    ] = False,
) -> None:
    """Parlor: play board games in the terminal against bots, simulate bot matches, replay saved games."""


GameArg = Annotated[str, typer.Argument(help="The game: mamma-mia, sweet-nose or mottainai.", metavar="GAME")]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        metavar="NAME=VALUE",
        help="A rule option (repeatable; `parlor options GAME` lists them).",
    ),
]


@app.command()
def play(
    game: GameArg,
    players: Annotated[int, typer.Option("--players", "-p", metavar="N", help="Number of players, you included.")] = 4,
    seat: Annotated[int, typer.Option("--seat", metavar="N", help="Your seat, 1 to the number of players.")] = 1,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            metavar="LIST",
            help="Bots for the other seats in seat order, comma-separated; the last repeats: "
            + ", ".join(BOT_NAMES)
            + ", with parameters (hard:iterations=800) or your own (pkg.mod:Class, file.py:Class; docs/bots.md).",
        ),
    ] = "heuristic",
    seed: Annotated[
        int | None,
        typer.Option("--seed", metavar="N", help="Seed for a reproducible game.", show_default="random"),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option("--save", metavar="FILE", help="Write the game record (JSON) here at the end or when you leave."),
    ] = None,
    option: OptionOpt = None,
    delay: Annotated[
        float,
        typer.Option(
            "--delay", metavar="SECONDS", help="Pause on each step when cards are revealed (terminal only; 0 = none)."
        ),
    ] = 0.6,
) -> None:
    """Play against bots. Type a move's number; h help, r rules, t table, q quit. Works with piped input.

    Exit code 0 when the game was played to its end or you quit, 1 for an error or when the
    input ends before the game does (the game is saved first if --save was given).
    """
    from .play import play as run_play

    with clean_errors():
        g = get_game(game)
        options = parse_options(g, option, players)
        seat_index = seat_from_user(seat, players)
        kinds = bot_list(bots, players - 1)
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        code = run_play(
            g,
            text_module(g),
            players=players,
            seat=seat_index,
            bots=kinds,
            seed=seed,
            options=options,
            save=save,
            delay=max(0.0, delay),
            out=console(),
        )
    raise typer.Exit(code)


WorkersOpt = Annotated[
    int, typer.Option("--workers", "-w", help="Processes (or Ray workers) playing games in parallel; at least 1.")
]
BackendOpt = Annotated[
    str,
    typer.Option(
        "--backend",
        metavar="NAME",
        help="Where games are played: serial or processes (local) or ray.",
        show_default="processes if -w > 1, else serial",
    ),
]
DuplicateOpt = Annotated[
    bool,
    typer.Option(
        "--duplicate",
        help="Play each deal once per seat rotation (the same cards, the bots moved one seat on): "
        "comparisons lose the luck of the deal. --games must be a multiple of the players.",
    ),
]
AddressOpt = Annotated[
    str | None, typer.Option("--address", help="With --backend ray: the cluster to join (default: a local one).")
]


@app.command()
def simulate(
    game: GameArg,
    players: Annotated[int, typer.Option("--players", "-p", metavar="N", help="Number of players.")] = 4,
    games: Annotated[int, typer.Option("--games", "-n", metavar="N", help="Number of games.")] = 1000,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            metavar="LIST",
            help="Bot per seat, comma-separated; the last repeats: "
            + ", ".join(BOT_NAMES)
            + ", with parameters (hard:iterations=800) or your own (file.py:Class).",
        ),
    ] = "heuristic",
    seed: Annotated[
        int, typer.Option("--seed", metavar="N", help="Base seed: the same seed gives the same results.")
    ] = 1,
    rotate: Annotated[
        bool, typer.Option("--rotate/--no-rotate", help="Rotate the bots across seats from game to game.")
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead of tables.")] = False,
    option: OptionOpt = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write one row per game: results.parquet, .csv or .jsonl (see docs/analysis.md)."),
    ] = None,
    records: Annotated[bool, typer.Option("--records", help="Put each game's full record in its row.")] = False,
    workers: WorkersOpt = 1,
    backend: BackendOpt = "serial",
    address: AddressOpt = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Finish an interrupted run of --out, playing only the missing chunks.")
    ] = False,
    shard: Annotated[
        str | None, typer.Option("--shard", help="Play only shard i of n (i/n from 0/n); join with `parlor merge`.")
    ] = None,
    chunk_size: Annotated[
        int | None, typer.Option("--chunk-size", help="Games per chunk (a unit of work and of resume).")
    ] = None,
    duplicate: DuplicateOpt = False,
) -> None:
    """Bots against bots: win rates by seat, turn position and bot with 95% intervals, scores, game length.

    Shared wins count 1/k. Per bot, "win share" is the part of all games that bot kind won (sums
    to 1) and "win rate" is how often one such bot wins a game it sits in (compare with 1/players).
    """
    from parlor.analysis.results import parse_shard
    from parlor.analysis.simulation import check_duplicate

    from .simulate import simulate as run_simulate

    with clean_errors():
        g = get_game(game)
        options = parse_options(g, option, players)
        if games < 1:
            raise ParlorError(f"--games must be at least 1, got {games}")
        kinds = bot_list(bots, players)
        text = text_module(g)
        label = getattr(text, "SCORE_LABEL", "score")
        if workers < 1:
            raise ParlorError(f"--workers must be at least 1, got {workers}")
        if chunk_size is not None and chunk_size < 1:
            raise ParlorError(f"--chunk-size must be at least 1, got {chunk_size}")
        if duplicate:
            check_duplicate(games, players, "rotate" if rotate else "fixed")
        if out is not None:
            common.check_output(out, "--out")
        progress, bar = _progress_bar(games, "simulating", show=not as_json)
        try:
            report = run_simulate(
                g,
                players=players,
                games=games,
                bots=kinds,
                seed=seed,
                options=options,
                rotate=rotate,
                progress=progress,
                score_label=label,
                out=out,
                records=records,
                workers=workers,
                backend=backend,
                address=address,
                resume=resume,
                shard=parse_shard(shard),
                chunk_size=chunk_size,
                duplicate=duplicate,
            )
        except KeyboardInterrupt:
            if bar is not None:
                bar.stop()
            where = f"; finished chunks are kept: run again with --resume to finish {out}" if out else ""
            common.err_console().print(f"Interrupted{where}.", markup=False)  # a path, printed as it is
            raise typer.Exit(130) from None
        finally:
            if bar is not None:
                bar.stop()
    if as_json:
        sys.stdout.write(json.dumps(report, indent=2, sort_keys=True) + "\n")
        return
    _print_simulation(g, report, kinds, label)


@app.command()
def train(
    game: GameArg,
    out: Annotated[Path, typer.Option("--out", help="Directory for positions, checkpoint, weights and report.")],
    players: Annotated[str, typer.Option("--players", "-p", metavar="LIST", help="Player counts, e.g. 2,4.")] = "",
    games: Annotated[int, typer.Option("--games", "-n", metavar="N", help="Games to take positions from.")] = 200,
    bots: Annotated[str, typer.Option("--bots", metavar="LIST", help="Bots that play them (specs).")] = "medium",
    sample: Annotated[float, typer.Option("--sample", help="Fraction of decisions whose position is kept.")] = 0.2,
    hidden: Annotated[
        str, typer.Option("--hidden", metavar="LIST", help="Hidden layer sizes, e.g. 64 or 128,32.")
    ] = "64",
    epochs: Annotated[int, typer.Option("--epochs", metavar="N")] = 20,
    lr: Annotated[float, typer.Option("--lr", help="Adam's learning rate.")] = 1e-3,
    weight_decay: Annotated[float, typer.Option("--weight-decay", help="L2 penalty on the weights.")] = 1e-4,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="The same seed gives the same weights.")] = 0,
    playouts: Annotated[
        int,
        typer.Option(
            "--playouts",
            metavar="K",
            help="Target: the mean of K of expert's playouts (then evaluate) from the seat's sampled worlds "
            "instead of the game's outcome (0).",
        ),
    ] = 0,
    generations: Annotated[
        int,
        typer.Option(
            "--generations",
            metavar="G",
            help="Self-play generations after the first network: each plays --self-play with the previous "
            "generation's weights and trains a new network on those games (expert iteration).",
        ),
    ] = 0,
    self_play: Annotated[
        str, typer.Option("--self-play", metavar="SPEC", help="The search that plays the later generations' games.")
    ] = "master:iterations=400",
    self_play_games: Annotated[
        int,
        typer.Option("--self-play-games", metavar="N", help="Games per later generation (0: as many as --games)."),
    ] = 0,
    eval_games: Annotated[
        int,
        typer.Option(
            "--eval-games",
            metavar="N",
            help="Games of each generation's search (--self-play) against --eval-against, for its strength "
            "by generation (0: not measured).",
        ),
    ] = 0,
    eval_against: Annotated[
        str, typer.Option("--eval-against", metavar="SPEC", help="The opponent of --eval-games.")
    ] = "expert:iterations=400",
) -> None:
    """Train the evaluator of the `master` level: positions from bots' games, a small value network.

    With --generations or --eval-games each generation goes in its own folder (gen0, gen1, ...) and
    the report gives the losses and strength by generation. Resumable: run the same command again
    after an interruption. docs/evaluator.md explains the steps.
    """
    from parlor.bots.spec import check_bot_spec
    from parlor.training import Generations, TrainSettings, parse_players, train_generations
    from parlor.training import train as run_train

    with clean_errors():
        g = get_game(game)
        counts = parse_players(players) if players.strip() else (g.player_range()[0],)
        for p in counts:
            g.check_players(p)
        if (
            games < 2
            or epochs < 1
            or not 0 < sample <= 1
            or lr <= 0
            or weight_decay < 0
            or playouts < 0
            or generations < 0
            or eval_games < 0
            or self_play_games < 0
            or self_play_games == 1
        ):
            raise ParlorError(
                "--games must be at least 2, --epochs at least 1, --sample in (0, 1], --lr above 0, "
                "--weight-decay >= 0, --playouts, --generations and --eval-games >= 0, --self-play-games 0 or >= 2"
            )
        settings = TrainSettings(
            game=g.name,
            players=counts,
            games=games,
            bots=tuple(split_bot_specs(bots)),
            sample=sample,
            hidden=parse_players(hidden),
            epochs=epochs,
            lr=lr,
            weight_decay=weight_decay,
            seed=seed,
            playouts=playouts,
        )
        for spec in settings.bots:
            check_bot_spec(spec, g)
        by_generation = generations > 0 or eval_games > 0
        gens = Generations(generations, self_play.strip(), eval_games, eval_against.strip(), self_play_games)
        if by_generation:
            if "weights=" in gens.self_play:
                raise ParlorError("--self-play must not name weights: each generation plays with the previous one's")
            for spec in (gens.self_play, gens.against):
                check_bot_spec(spec, g)
            if gens.self_play == gens.against:
                raise ParlorError("--eval-against must be another bot than --self-play")
        common.check_output(out, "--out", folder=True)
        bars: dict[str, Any] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in bars:
                for _, bar in bars.values():
                    if bar is not None:
                        bar.stop()
                bars[stage] = _progress_bar(total, stage)
            update = bars[stage][0]
            if update is not None:
                update(done)

        try:
            if by_generation:
                by_gen = train_generations(settings, gens, out, progress)
                result = by_gen[-1].result
            else:
                result = run_train(settings, out, progress)
        finally:
            for _, bar in bars.values():
                if bar is not None:
                    bar.stop()
    meta = result.net.meta
    console = common.console()
    if by_generation:
        for gen in by_gen:
            score = ""
            if gen.strength is not None:
                low, high = gen.strength["ci95"]
                score = f"; score {gen.strength['score']:.3f} [{low:.3f}, {high:.3f}] against {gens.against}"
            console.print(  # an interval in brackets and a bot spec: no markup
                f"generation {gen.index}: held-out MSE {gen.result.net.meta['held_out_mse']:.4f} "
                f"(best constant {gen.result.constant_mse:.4f}){score}",
                markup=False,
            )
    console.print(
        f"{g.title}: {result.positions} positions for training, {result.held_out} held out; held-out MSE "
        f"{meta['held_out_mse']:.4f} at epoch {meta['epoch']} (best constant {result.constant_mse:.4f}); "
        f"CPU {result.seconds:.0f} s"
    )
    console.print(f"weights: {out / (g.name.replace('-', '_') + '.npz')}; report: {out / 'report.md'}", markup=False)


def _progress_bar(total: int, what: str, *, show: bool = True) -> tuple[Any, Any]:
    """A Rich progress bar on stderr (only on a terminal) and the callback that moves it."""
    if not show or not sys.stderr.isatty():
        return None, None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(
        TextColumn(what),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=common.err_console(),
        transient=True,
    )
    task = bar.add_task(what, total=total)
    bar.start()

    def progress(done: int) -> None:
        bar.update(task, completed=done)

    return progress, bar


def _ci(rate: dict[str, Any]) -> str:
    low, high = rate["ci95"]
    return f"{rate['rate']:.1%} [{low:.1%}, {high:.1%}]"


def _print_simulation(g: Any, report: dict[str, Any], kinds: list[str], label: str) -> None:
    out = console()
    name = report["labels"]
    players, games, rotate = report["players"], report["games"], report["rotate"]
    summary = report["summary"]
    out.print(
        f"[bold]{g.title}[/] · {players} players · {games} games · seed {report['seed']} · "
        f"bots {escape(', '.join(name[k] for k in kinds))}{' (rotated across seats)' if rotate else ''}"
    )
    seats = Table(title="Per seat", header_style="bold")
    seats.add_column("Seat", justify="right")
    if not rotate:
        seats.add_column("Bot")
    seats.add_column("Win rate [95% CI]", justify="right")
    seats.add_column(f"Avg {label}", justify="right")
    for row, full in zip(report["per_seat"], summary["by_seat"]):
        cells = [str(row["seat"] + 1)] + ([escape(name[row["bot"]])] if not rotate else [])
        seats.add_row(*cells, _ci(full["wins"]), f"{row['avg_score']:.2f}")
    out.print(seats)
    positions = Table(title="Per turn position (1 = plays first)", header_style="bold")
    for col in ("Position", "Win rate [95% CI]", f"Avg {label}"):
        positions.add_column(col, justify="right")
    for row in summary["by_turn_position"]:
        positions.add_row(str(row["position"] + 1), _ci(row["wins"]), f"{row['score']['mean']:.2f}")
    out.print(positions)
    per_bot = Table(title="Per bot", header_style="bold")
    per_bot.caption = "Win share: part of all games won. Win rate: part of the games this bot sat in that it won."
    for col in ("Bot", "Seat-games", "Win share", "Win rate [95% CI]", f"Avg {label}"):
        per_bot.add_column(col, justify="right" if col != "Bot" else "left")
    by_bot = {b["bot"]: b for b in summary["by_bot"]}
    for row in report["per_bot"]:
        per_bot.add_row(
            escape(name[row["bot"]]),
            str(row["seat_games"]),
            f"{row['win_share']:.1%}",
            _ci(by_bot[row["bot"]]["wins"]),
            f"{row['avg_score']:.2f}",
        )
    out.print(per_bot)
    if report.get("duplicate"):
        paired = ", ".join(f"{escape(name[row['bot']])} {_ci(row['win_rate_paired'])}" for row in report["per_bot"])
        out.print(
            f"Duplicate deals ({games // players} deals x {players} seat rotations), win rate over deals: {paired}."
        )
    turns = report["avg_turns"]
    length = summary["length"]["decisions"]
    out.print(
        f"Average game: {report['avg_decisions']:.1f} decisions (5-95%: {length['quantiles']['0.05']:.0f}-"
        f"{length['quantiles']['0.95']:.0f})"
        + (f", {turns:.1f} turns" if turns is not None else "")
        + f". Shared wins: {report['shared_wins']:g} ({_ci(summary['ties'])}). Baseline win rate: {1 / players:.1%}."
    )
    ends = ", ".join(f"{k} {_ci(v)}" for k, v in summary["end_conditions"].items())
    out.print(f"End conditions: {ends}.")
    if report.get("out"):
        out.print(f"Per-game rows: {report['out']}", markup=False)
    t = report["timing"]
    out.print(f"{t['seconds']:.2f} s, {t['games_per_second']} games/s.")


@app.command()
def replay(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="A saved record (JSON), e.g. from `parlor play --save`.")
    ],
    seat: Annotated[
        int | None,
        typer.Option("--seat", metavar="N", help="Tell the game as this seat (1 = first) saw it.", show_default="none"),
    ] = None,
    spectator: Annotated[
        bool, typer.Option("--spectator", help="Public events only (what happens without --seat).")
    ] = False,
    step: Annotated[bool, typer.Option("--step", help="Wait for Enter between decisions (on a terminal).")] = False,
) -> None:
    """Replay a saved game as a log of events, then the final table."""
    from .replay import replay as run_replay

    with clean_errors():
        if spectator and seat is not None:
            raise ParlorError("give either --seat or --spectator, not both")
        record = load_record(file)
        code = run_replay(
            record,
            text_module,
            seat=None if spectator else seat,
            step=step,
            interactive=is_interactive(),
            out=console(),
        )
    raise typer.Exit(code)


@app.command()
def rules(game: GameArg) -> None:
    """A short summary of a game's rules."""
    with clean_errors():
        g = get_game(game)
        text = text_module(g)
    console().print(Markdown(getattr(text, "RULES", "") or g.summary))


@app.command(name="games")
def list_games(
    show_options: Annotated[
        bool, typer.Option("--options", help="Also list every rule option with its meaning (as `parlor options`).")
    ] = False,
) -> None:
    """The games, their player counts and their rule options."""
    out = console()
    for name in registry.names():
        try:
            g = registry.get(name)
        except (ParlorError, ImportError) as exc:  # a game still being written must not hide the others
            out.print(f"[bold]{name}[/] · not available: {escape(str(exc))}")
            continue
        if show_options:
            render_game_options(out, g)
            out.print()
            continue
        low = g.player_range()[0]
        out.print(f"[bold]{g.name}[/] · {g.title} · {common.players_words(g)}")
        if g.summary:
            out.print(f"  {g.summary}")
        names = [info["name"] for info in common.describe(g)]
        out.print(f"  {len(names)} rule options; see them with: parlor options {g.name}", soft_wrap=True)
        out.print(f"  Play: parlor play {g.name} --players {low} · rules: parlor rules {g.name}")


@app.command()
def options(game: GameArg) -> None:
    """Every rule option of a game: type, default, allowed values, meaning and the rule text it follows."""
    with clean_errors():
        g = get_game(game)
    render_game_options(console(), g)


@app.command()
def tournament(
    game: GameArg,
    players: Annotated[int, typer.Option("--players", "-p", metavar="N", help="Players per game.")] = 4,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            metavar="LIST",
            help="Bots, comma-separated, strongest first: "
            + ", ".join(BOT_NAMES)
            + "; or your own (pkg.mod:Class, file.py:Class).",
        ),
    ] = "medium,easy,random",
    games: Annotated[int, typer.Option("--games", "-n", metavar="N", help="Number of games.")] = 200,
    seed: Annotated[
        int, typer.Option("--seed", metavar="N", help="Seed; the same seed gives the same tournament.")
    ] = 1,
    workers: WorkersOpt = 1,
    backend: Annotated[
        str | None,
        typer.Option(
            "--backend",
            metavar="NAME",
            help="serial, processes or ray.",
            show_default="processes if --workers > 1, else serial",
        ),
    ] = None,
    address: AddressOpt = None,
    option: OptionOpt = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write one row per game (.parquet, .csv or .jsonl).")
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Finish an interrupted tournament of --out.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
    duplicate: DuplicateOpt = False,
) -> None:
    """Bots against bots with seats balanced: openskill ratings, win rates and head-to-head with 95% intervals.

    Ctrl-C stops the workers at once and reports the games finished so far (with --out they are
    kept on disk: --resume finishes the tournament).
    """
    from parlor.analysis.tournament import run_tournament
    from parlor.core.options import options_to_json

    with clean_errors():
        g = get_game(game)
        options = parse_options(g, option)
        kinds = split_bot_specs(bots)
        if out is not None:
            common.check_output(out, "--out")
        progress, bar = _progress_bar(games, "playing")
        try:
            result = run_tournament(
                g.name,
                players=players,
                bots=kinds,
                games=games,
                seed=seed,
                options=options_to_json(options),
                workers=workers,
                backend=backend,
                address=address,
                out=out,
                resume=resume,
                progress=progress,
                duplicate=duplicate,
            )
        finally:
            if bar is not None:
                bar.stop()
        if result.interrupted:
            kept = f"; they are kept in {out}.parts/ (--resume finishes the run)" if out else ""
            common.err_console().print(
                f"Interrupted: {len(result.results)} of {games} games finished{kept}.", soft_wrap=True, markup=False
            )
        if result.balance:
            common.err_console().print(f"Note: {result.balance}.", soft_wrap=True, markup=False)
        if as_json:
            print(json.dumps(result.to_json(), indent=1, sort_keys=True))
        elif result.results:
            _print_tournament(g, result)
        if result.interrupted:
            raise typer.Exit(130)


def _print_tournament(g: Any, result: Any) -> None:
    from parlor.analysis.tournament import standings_rows
    from parlor.bots.spec import bot_labels

    out = console()
    # a plug-in by its name, not its file path; escaped: table cells are Rich markup
    name = {spec: escape(label) for spec, label in bot_labels(result.bots).items()}
    played = len(result.results)
    table = Table(title=f"{g.title}: {played} games, {result.players} players, seed {result.seed}")
    for col in ("bot", "games", "win rate [95% CI]", "mean place", "openskill mu ± sigma", "ordinal"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for row in standings_rows(result):
        table.add_row(name[row[0]], *row[1:])
    out.print(table)
    kinds = list(dict.fromkeys(result.bots))
    pairs = {(h["a"], h["b"]): h for h in result.all_pairs()}
    grid = Table(title="Head to head: share of games the row bot finished ahead of the column bot [95% CI]")
    grid.add_column("")
    for b in kinds:
        grid.add_column(name[b], justify="right")
    for a in kinds:
        cells = []
        for b in kinds:
            if a == b:
                cells.append("-")
                continue
            h = pairs[(a, b)]
            low, high = h["ci95"]
            mark = " ▲" if low > 0.5 else (" ▼" if high < 0.5 else "")
            cells.append(f"{h['score']:.2f} [{low:.2f}, {high:.2f}]{mark}" if h["games"] else "no games")
        grid.add_row(name[a], *cells)
    out.print(grid)
    ladder = Table(title="Ladder: each bot against the next (share of games finishing ahead)")
    for col in ("pair", "games", "score [95% CI]", "verdict"):
        ladder.add_column(col, justify="left" if col in ("pair", "verdict") else "right")
    for step in result.ladder():
        low, high = step["ci95"]
        verdict = "stronger" if step["a_better"] else ("weaker" if high < 0.5 else "not separated")
        score = f"{step['score']:.3f} [{low:.3f}, {high:.3f}]"
        ladder.add_row(f"{name[step['a']]} > {name[step['b']]}", str(step["games"]), score, verdict)
    out.print(ladder)
    out.print("[dim]A shared win counts 1/k for each of the k winners; in head-to-head, the same place 1/2.[/]")
    if result.duplicate:
        out.print(
            f"[dim]Duplicate deals: {played // result.players} deals, each played in {result.players} seat rotations; "
            "head-to-head averages each deal's games, its intervals are over deals.[/]"
        )
    out.print(f"{result.seconds:.1f} s, {played / max(result.seconds, 1e-9):.1f} games/s")


class LogLevel(StrEnum):
    """The server's log levels (``--log-level``), as ``python -m parlor.server`` takes them."""

    debug = "debug"
    info = "info"
    warning = "warning"
    error = "error"


@app.command()
def serve(
    host: Annotated[
        str, typer.Option("--host", metavar="ADDRESS", help="Address to listen on (0.0.0.0 for your network).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", metavar="N", help="Port to listen on, 1-65535.")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            metavar="URL",
            help="sqlite:///FILE or postgresql://user:password@host/db (PostgreSQL needs the postgres extra: "
            'pip install -e ".\\[postgres]"). Also read from $PARLOR_DATABASE_URL.',
            show_default="SQLite in ~/.local/share/parlor/parlor.db",
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option("--bot-delay", metavar="SECONDS", help="Seconds a bot waits before moving.")
    ] = 0.8,
    seat_timeout: Annotated[
        float,
        typer.Option(
            "--seat-timeout",
            metavar="SECONDS",
            help="Seconds a joined player may be away before a bot plays their seat (the default for new tables).",
        ),
    ] = 120.0,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            metavar="N",
            help="Server processes serving the site together (PostgreSQL only; see docs/protocol.md).",
        ),
    ] = 1,
    bot_processes: Annotated[
        int | None,
        typer.Option(
            "--bot-processes",
            metavar="N",
            help="Worker processes for searching bots (hard, expert).",
            show_default="the cores less one",
        ),
    ] = None,
    advertise_address: Annotated[
        str | None,
        typer.Option(
            "--advertise-address",
            metavar="HOST:PORT",
            help="Where the site's processes on other hosts reach this host's processes (several hosts, one "
            "PostgreSQL; see docs/deploy.md).",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            metavar="ADDRESSES",
            help="Reverse proxies (comma-separated addresses) whose X-Forwarded-For is believed.",
            show_default="none",
        ),
    ] = None,
    review_budget: Annotated[
        int | None,
        typer.Option(
            "--review-budget",
            metavar="N",
            help="The judge's search iterations per decision for game reviews and hints (docs/review.md).",
            show_default="each game's own",
        ),
    ] = None,
    review_workers: Annotated[
        int | None,
        typer.Option(
            "--review-workers",
            metavar="N",
            help="Worker processes for game reviews and hints: as many reviews run at once, one per player.",
            show_default="1",
        ),
    ] = None,
    review_queue: Annotated[
        int | None,
        typer.Option(
            "--review-queue",
            metavar="N",
            help="Reviews that may wait for a review worker; more are refused until some are done.",
            show_default="100",
        ),
    ] = None,
    smtp_host: Annotated[
        str | None,
        typer.Option(
            "--smtp-host",
            metavar="HOST",
            help="The mail server for the notifications' e-mails.",
            show_default="no e-mail",
        ),
    ] = None,
    smtp_port: Annotated[int, typer.Option("--smtp-port", metavar="PORT", help="The mail server's port.")] = 25,
    smtp_from: Annotated[
        str | None,
        typer.Option(
            "--smtp-from", metavar="ADDRESS", help="The e-mails' sender.", show_default="parlor@<the site's host>"
        ),
    ] = None,
    smtp_user: Annotated[
        str | None,
        typer.Option(
            "--smtp-user",
            metavar="NAME",
            help="The mail server's user (its password: $PARLOR_SMTP_PASSWORD, never a flag).",
            show_default="$PARLOR_SMTP_USER",
        ),
    ] = None,
    smtp_starttls: Annotated[
        bool, typer.Option("--smtp-starttls", help="Talk to the mail server over STARTTLS.")
    ] = False,
    vapid_key: Annotated[
        str | None,
        typer.Option(
            "--vapid-key",
            metavar="PEM",
            help="A PEM file with Web Push's VAPID private key.",
            show_default="made once, kept in the database",
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            metavar="URL",
            envvar="PARLOR_PUBLIC_URL",
            help="The address players reach the site at, e.g. https://games.example.org (behind a proxy such as "
            "Caddy): every link the server and its pages hand out uses it, and an https address makes the cookies "
            "Secure. Also read from $PARLOR_PUBLIC_URL.",
            show_default="the address served",
        ),
    ] = None,
    rate: Annotated[
        float,
        typer.Option("--rate", metavar="N", help="Frames a second one WebSocket connection may send."),
    ] = 20.0,
    burst: Annotated[
        int,
        typer.Option("--burst", metavar="N", help="Frames one WebSocket connection may send at once."),
    ] = 40,
    log_level: Annotated[LogLevel, typer.Option("--log-level", help="How much the server logs.")] = LogLevel.info,
    tables_per_minute: Annotated[
        float | None,
        typer.Option(
            "--tables-per-minute", metavar="N", help="New tables a minute from one address.", show_default="30"
        ),
    ] = None,
    max_unfinished_tables: Annotated[
        int | None,
        typer.Option("--max-unfinished-tables", metavar="N", help="Unfinished tables per address.", show_default="50"),
    ] = None,
    max_decisions: Annotated[
        int | None,
        typer.Option(
            "--max-decisions", metavar="N", help="Decisions after which a game ends as abandoned.", show_default="5000"
        ),
    ] = None,
    unjoined_table_ttl: Annotated[
        float | None,
        typer.Option(
            "--unjoined-table-ttl",
            metavar="SECONDS",
            help="Seconds before a table whose players never came is closed.",
            show_default="86400",
        ),
    ] = None,
    header_timeout: Annotated[
        float,
        typer.Option(
            "--header-timeout", metavar="SECONDS", help="Seconds a connection may take to send a whole request head."
        ),
    ] = 10.0,
    max_http_connections_per_address: Annotated[
        int,
        typer.Option(
            "--max-http-connections-per-address", metavar="N", help="Open HTTP connections one client address may hold."
        ),
    ] = 256,
    max_websockets_per_address: Annotated[
        int | None,
        typer.Option(
            "--max-websockets-per-address",
            metavar="N",
            help="Open WebSockets one client address may hold.",
            show_default="256",
        ),
    ] = None,
    body_timeout: Annotated[
        float | None,
        typer.Option(
            "--body-timeout",
            metavar="SECONDS",
            help="Seconds a request body may take to arrive, here and through the relay.",
            show_default="10",
        ),
    ] = None,
    min_turn_time: Annotated[
        float | None,
        typer.Option(
            "--min-turn-time", metavar="SECONDS", help="The shortest turn clock a table may have.", show_default="5"
        ),
    ] = None,
    rated_turn_time: Annotated[
        float | None,
        typer.Option(
            "--rated-turn-time",
            metavar="SECONDS",
            help="Seconds per decision at every rated table, whatever its creator asks (0: no clock).",
            show_default="120",
        ),
    ] = None,
    relink_after: Annotated[
        float | None,
        typer.Option(
            "--relink-after",
            metavar="SECONDS",
            help="Seconds a seat's player must be gone before the host may give the seat a new link.",
            show_default="60",
        ),
    ] = None,
    sit_open_within: Annotated[
        float | None,
        typer.Option(
            "--sit-open-within",
            metavar="SECONDS",
            help="Seconds a seat sat down in has to be opened before it is freed or a bot plays it.",
            show_default="30",
        ),
    ] = None,
    lease_seconds: Annotated[
        float,
        typer.Option(
            "--lease-seconds",
            metavar="SECONDS",
            help="With several processes: seconds after which a silent process's tables are taken over.",
        ),
    ] = 10.0,
    secure_cookies: Annotated[
        bool,
        typer.Option(
            "--secure-cookies",
            help="The site is served over TLS only: its cookies are Secure and take the __Host- prefix, so a "
            "sibling subdomain cannot set or shadow them (docs/protocol.md, Accounts).",
        ),
    ] = False,
    metrics_address: Annotated[
        str | None,
        typer.Option(
            "--metrics-address",
            metavar="HOST:PORT",
            help="Serve Prometheus metrics at http://HOST:PORT/metrics: a private address, not the site's "
            "(docs/deploy.md, Metrics and logs).",
            show_default="off",
        ),
    ] = None,
    log_format: Annotated[
        str,
        typer.Option(
            "--log-format",
            metavar="FORMAT",
            help="text, or json: every log line a JSON object (time, level, logger, message, the request's fields).",
        ),
    ] = "text",
    session_days: Annotated[
        float | None,
        typer.Option("--session-days", metavar="DAYS", help="Days a sign-in lasts unused.", show_default="30"),
    ] = None,
    sign_in_failures_per_name: Annotated[
        int | None,
        typer.Option(
            "--sign-in-failures-per-name",
            metavar="N",
            help="Failed sign-ins for one name within the window before it is refused.",
            show_default="5",
        ),
    ] = None,
    sign_in_failures_per_address: Annotated[
        int | None,
        typer.Option(
            "--sign-in-failures-per-address",
            metavar="N",
            help="Failed sign-ins from one address within the window before it is refused.",
            show_default="20",
        ),
    ] = None,
    sign_in_window: Annotated[
        float | None,
        typer.Option(
            "--sign-in-window", metavar="MINUTES", help="Minutes sign-in failures are counted over.", show_default="15"
        ),
    ] = None,
    sign_ups_per_address: Annotated[
        int | None,
        typer.Option(
            "--sign-ups-per-address", metavar="N", help="New accounts from one address an hour.", show_default="10"
        ),
    ] = None,
    tables_per_account_per_minute: Annotated[
        float | None,
        typer.Option(
            "--tables-per-account-per-minute",
            metavar="N",
            help="New tables a minute by one signed-in account.",
            show_default="10",
        ),
    ] = None,
    max_unfinished_tables_per_account: Annotated[
        int | None,
        typer.Option(
            "--max-unfinished-tables-per-account",
            metavar="N",
            help="Unfinished tables one signed-in account may have created.",
            show_default="20",
        ),
    ] = None,
    password_memory: Annotated[
        int | None,
        typer.Option(
            "--password-memory",
            metavar="MIB",
            help="Memory of one password hash (argon2id), in MiB; less is faster and weaker.",
            show_default="64",
        ),
    ] = None,
    password_passes: Annotated[
        int | None,
        typer.Option(
            "--password-passes", metavar="N", help="Passes of one password hash over its memory.", show_default="3"
        ),
    ] = None,
) -> None:
    """Run the multiplayer server: friends play in their browsers, bots fill empty seats (docs/protocol.md).

    The port is checked free before the database is opened; a bad or unreachable database is
    named in one line (exit code 1).
    """
    from parlor.server import run as run_server

    with clean_errors():
        run_server(
            host,
            port,
            database_url,
            bot_delay=bot_delay,
            seat_timeout=seat_timeout,
            workers=workers,
            bot_processes=bot_processes,
            advertise_address=advertise_address,
            forwarded_allow_ips=forwarded_allow_ips,
            review_budget=review_budget,
            review_workers=review_workers,
            review_queue=review_queue,
            secure_cookies=secure_cookies,
            metrics_address=metrics_address,
            log_format=log_format,
            public_url=public_url,
            smtp_host=smtp_host,
            smtp_port=smtp_port,
            smtp_from=smtp_from,
            smtp_user=smtp_user,
            smtp_starttls=smtp_starttls,
            vapid_key=vapid_key,
            rate_per_second=rate,
            burst=burst,
            log_level=log_level.value,
            tables_per_minute=tables_per_minute,
            max_unfinished_tables=max_unfinished_tables,
            max_decisions=max_decisions,
            unjoined_table_ttl=unjoined_table_ttl,
            header_timeout=header_timeout,
            max_http_connections_per_address=max_http_connections_per_address,
            max_websockets_per_address=max_websockets_per_address,
            body_timeout=body_timeout,
            min_turn_time=min_turn_time,
            rated_turn_time=rated_turn_time,
            relink_after=relink_after,
            sit_open_within=sit_open_within,
            lease_seconds=lease_seconds,
            account_options={  # the account limits (docs/server.md, "Account limits")
                "--session-days": session_days,
                "--sign-in-failures-per-name": sign_in_failures_per_name,
                "--sign-in-failures-per-address": sign_in_failures_per_address,
                "--sign-in-window": sign_in_window,
                "--sign-ups-per-address": sign_ups_per_address,
                "--tables-per-account-per-minute": tables_per_account_per_minute,
                "--max-unfinished-tables-per-account": max_unfinished_tables_per_account,
                "--password-memory": password_memory,
                "--password-passes": password_passes,
            },
        )


DatabaseOption = Annotated[
    str | None,
    typer.Option(
        "--database-url",
        metavar="URL",
        help="The site's database, as parlor serve takes it (sqlite:///FILE or postgresql://user:password@host/db). "
        "Also read from $PARLOR_DATABASE_URL.",
        show_default="SQLite in ~/.local/share/parlor/parlor.db",
    ),
]


@app.command()
def backup(
    path: Annotated[Path, typer.Argument(metavar="PATH", help="The backup file to write.")],
    database_url: DatabaseOption = None,
) -> None:
    """Back up the site's database to PATH, while the server runs (docs/deploy.md, "Backups").

    SQLite through its online backup API; PostgreSQL through pg_dump (custom format). The backup
    records its kind and schema version; PATH is written whole or not at all.
    """
    from parlor.server.storage import default_database_url
    from parlor.server.storage.backup import backup as take_backup
    from parlor.server.storage.backup import kind_name

    with clean_errors():
        info = take_backup(database_url or default_database_url(), path)
    console().print(f"Backed up the {kind_name(info.kind)} database (schema {info.schema_version}) to {info.path}")


@app.command()
def restore(
    path: Annotated[Path, typer.Argument(metavar="PATH", help="A backup made by parlor backup.")],
    database_url: DatabaseOption = None,
) -> None:
    """Restore a backup into a new, empty database (docs/deploy.md, "Backups"); then start the server on it.

    Refused, changing nothing, if the file is not a Parlor backup of the database's kind, if its
    schema is newer than this Parlor's, or if the database already holds tables or accounts.
    """
    from parlor.server.storage import default_database_url
    from parlor.server.storage.backup import kind_name
    from parlor.server.storage.backup import restore as put_back

    with clean_errors():
        info = put_back(database_url or default_database_url(), path)
    console().print(f"Restored {info.path} ({kind_name(info.kind)} backup, schema {info.schema_version})")


from . import study as _study  # noqa: E402  (the study commands: merge, compare, analyze, dataset)

_study.register(app)

from . import review as _review  # noqa: E402  (parlor review: the judge on a saved game)

_review.register(app)

from . import practice as _practice  # noqa: E402  (parlor practice: a decision tried again)

_practice.register(app)

from . import admin as _admin  # noqa: E402  (parlor admin: the site's moderators)

_admin.register(app)

if __name__ == "__main__":  # pragma: no cover
    app()
