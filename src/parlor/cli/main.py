"""The ``parlor`` command: play, simulate, replay, rules, games.

Generic over games: a game is found with ``parlor.games.get(name)`` and its words with
``parlor.games.<pkg>.text`` (see ``common.text_module``). Every ``ParlorError`` ends the
command with a one-line message and exit code 1.
"""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markdown import Markdown
from rich.table import Table

import parlor
from parlor import games as registry
from parlor.bots import BOT_KINDS
from parlor.core import ParlorError, load_record

from . import common, help_format
from .common import (
    bot_list,
    clean_errors,
    console,
    get_game,
    is_interactive,
    parse_options,
    seat_from_user,
    text_module,
)
from .options_text import render_game_options

help_format.install()

# The names --bots takes; "ismcts" is the search bot with the game's default settings (what "hard" uses).
BOT_NAMES = [k if k != "ismcts" else "ismcts (the search bot behind hard)" for k in BOT_KINDS]

app = typer.Typer(
    name="parlor",
    help="Parlor: play board games in the terminal against bots, simulate bot matches, replay saved games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        print(f"parlor {parlor.__version__}")
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
            + ".",
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
            help="Bot per seat, comma-separated; the last repeats: " + ", ".join(BOT_NAMES) + ".",
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
) -> None:
    """Bots against bots: win rate per seat and per bot, scores, game length, speed.

    Shared wins count 1/k. Per bot, "win share" is the part of all games that bot kind won (sums
    to 1) and "win rate" is how often one such bot wins a game it sits in (compare with 1/players).
    """
    from .simulate import simulate as run_simulate

    with clean_errors():
        g = get_game(game)
        options = parse_options(g, option, players)
        if games < 1:
            raise ParlorError(f"--games must be at least 1, got {games}")
        kinds = bot_list(bots, players)
        text = text_module(g)
        label = getattr(text, "SCORE_LABEL", "score")
        progress = None
        bar = None
        if not as_json and sys.stderr.isatty():
            from rich.progress import Progress

            bar = Progress(console=common.err_console(), transient=True)
            task = bar.add_task("simulating", total=games)
            bar.start()

            def progress(done: int) -> None:
                bar.update(task, completed=done)

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
            )
        finally:
            if bar is not None:
                bar.stop()
    if as_json:
        sys.stdout.write(json.dumps(report, indent=2, sort_keys=True) + "\n")
        return
    out = console()
    out.print(
        f"[bold]{g.title}[/] · {players} players · {games} games · seed {seed} · "
        f"bots {', '.join(kinds)}{' (rotated across seats)' if rotate else ''}"
    )
    seats = Table(title="Per seat", header_style="bold")
    seats.add_column("Seat", justify="right")
    if not rotate:
        seats.add_column("Bot")
    seats.add_column("Win rate", justify="right")
    seats.add_column(f"Avg {label}", justify="right")
    for row in report["per_seat"]:
        cells = [str(row["seat"] + 1)] + ([row["bot"]] if not rotate else [])
        seats.add_row(*cells, f"{row['win_rate']:.1%}", f"{row['avg_score']:.2f}")
    out.print(seats)
    per_bot = Table(title="Per bot", header_style="bold")
    per_bot.caption = "Win share: part of all games won. Win rate: part of the games this bot sat in that it won."
    for col in ("Bot", "Seat-games", "Win share", "Win rate", f"Avg {label}"):
        per_bot.add_column(col, justify="right" if col != "Bot" else "left")
    for row in report["per_bot"]:
        per_bot.add_row(
            row["bot"],
            str(row["seat_games"]),
            f"{row['win_share']:.1%}",
            f"{row['win_rate']:.1%}",
            f"{row['avg_score']:.2f}",
        )
    out.print(per_bot)
    turns = report["avg_turns"]
    out.print(
        f"Average game: {report['avg_decisions']:.1f} decisions"
        + (f", {turns:.1f} turns" if turns is not None else "")
        + f". Shared wins: {report['shared_wins']}. Baseline win rate: {1 / players:.1%}."
    )
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
            out.print(f"[bold]{name}[/] · not available: {exc}")
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
            help="Bots, comma-separated, strongest first: " + ", ".join(BOT_NAMES) + ".",
        ),
    ] = "medium,easy,random",
    games: Annotated[int, typer.Option("--games", "-n", metavar="N", help="Number of games.")] = 200,
    seed: Annotated[
        int, typer.Option("--seed", metavar="N", help="Seed; the same seed gives the same tournament.")
    ] = 1,
    workers: Annotated[
        int, typer.Option("--workers", metavar="N", help="Processes playing games in parallel (at least 1).")
    ] = 1,
    option: OptionOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
) -> None:
    """Bots against bots with seats rotated: openskill ratings, win rates and head-to-head with 95% intervals."""
    from parlor.analysis.tournament import run_tournament, standings_rows

    with clean_errors():
        g = get_game(game)
        options = parse_options(g, option)
        from parlor.core.options import options_to_json

        kinds = [b.strip() for b in bots.split(",") if b.strip()]
        result = run_tournament(
            g.name,
            players=players,
            bots=kinds,
            games=games,
            seed=seed,
            options=options_to_json(options),
            workers=workers,
        )
        if as_json:
            print(json.dumps(result.to_json(), indent=1, sort_keys=True))
            return
        out = console()
        table = Table(title=f"{g.title}: {games} games, {players} players, seed {seed}")
        for col in ("bot", "games", "win rate [95% CI]", "mean place", "openskill mu ± sigma", "ordinal"):
            table.add_column(col, justify="left" if col == "bot" else "right")
        for row in standings_rows(result):
            table.add_row(*row)
        out.print(table)
        ladder = Table(title="Ladder: each bot against the next (share of games finishing ahead)")
        for col in ("pair", "games", "score [95% CI]", "verdict"):
            ladder.add_column(col, justify="left" if col in ("pair", "verdict") else "right")
        for step in result.ladder():
            low, high = step["ci95"]
            verdict = "stronger" if step["a_better"] else ("weaker" if high < 0.5 else "not separated")
            score = f"{step['score']:.3f} [{low:.3f}, {high:.3f}]"
            ladder.add_row(f"{step['a']} > {step['b']}", str(step["games"]), score, verdict)
        out.print(ladder)
        out.print("[dim]A shared win counts 1/k for each of the k winners; in head-to-head, the same place 1/2.[/]")
        out.print(f"{result.seconds:.1f} s, {len(result.results) / max(result.seconds, 1e-9):.1f} games/s")


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
) -> None:
    """Run the multiplayer server: friends play in their browsers, bots fill empty seats (docs/protocol.md).

    The port is checked free before the database is opened; a bad or unreachable database is
    named in one line (exit code 1).
    """
    from parlor.server import run as run_server

    with clean_errors():
        run_server(host, port, database_url, bot_delay=bot_delay)


if __name__ == "__main__":  # pragma: no cover
    app()
