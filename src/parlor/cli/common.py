"""What every command shares: finding a game and its text module, options, bots, seeds, errors."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from parlor import games
from parlor.bots import BOT_KINDS, make_bot
from parlor.bots.spec import parse_bot_spec, split_bot_specs
from parlor.core import Game, ParlorError
from parlor.core.options import OptionError, describe_options, option_text, parse_option_text
from parlor.core.rng import derive_seed
from parlor.extras import missing_module_message


def console() -> Console:
    """A console on the current stdout (made per command so test runners can capture it)."""
    return Console(file=sys.stdout, highlight=False)


def err_console() -> Console:
    return Console(file=sys.stderr, highlight=False)


def fail(message: str) -> typer.Exit:
    """Print a one-line error and return the exit to raise. The message is printed as it is:
    it carries paths, typed values and install lines, whose brackets are not Rich markup."""
    err_console().print(f"[bold red]Error:[/] {escape(message)}", markup=True, soft_wrap=True)
    return typer.Exit(1)


@contextmanager
def clean_errors() -> Iterator[None]:
    """Every Parlor error becomes one line on stderr and exit code 1, never a traceback; so does a
    missing third-party module (an install older than a dependency), with the line that installs it."""
    try:
        yield
    except ParlorError as exc:
        raise fail(str(exc)) from None
    except ModuleNotFoundError as exc:
        message = missing_module_message(exc)
        if message is None:
            raise
        raise fail(message) from None
    except OSError as exc:  # a file that could not be read or written after all (a full disk, a lost folder)
        where = f"{exc.filename}: " if exc.filename else ""
        raise fail(f"{where}{exc.strerror or exc}") from None


def check_output(path: Path, flag: str, *, folder: bool = False, parents: bool = True) -> None:
    """Before any work starts: can ``path`` be written? Else a ParlorError naming ``flag``, so no
    game is played whose results could not be kept. ``folder``: the path is a folder to create
    (``analyze --report``), else a file. ``parents``: missing folders above it will be created
    (``--out``); without it they must exist (``play --save``). Leaves nothing behind."""
    if folder and path.exists() and not path.is_dir():
        raise ParlorError(f"{flag} {path}: that is a file; give a folder")
    if not folder and path.is_dir():
        raise ParlorError(f"{flag} {path}: that is a folder; give a file name")
    above = path.parent if str(path.parent) else Path(".")
    if not parents and not above.exists():
        raise ParlorError(f"{flag} {path}: the folder {above} does not exist")
    while not above.exists():
        above = above.parent
    if not above.is_dir():
        raise ParlorError(f"{flag} {path}: {above} is a file, not a folder")
    try:
        handle, probe = tempfile.mkstemp(prefix=".parlor-probe-", dir=above)
    except OSError as exc:
        raise ParlorError(f"{flag} {path}: cannot write in {above} ({exc.strerror or exc})") from None
    os.close(handle)
    os.unlink(probe)


def get_game(name: str) -> Game:
    return games.get(name)


def parse_options(game: Game, texts: Sequence[str] | None, players: int | None = None) -> Any:
    """``["refill_mode=up_to", ...]`` -> the game's ``Options`` (a clear error if wrong).

    With ``players``, also checks that count against the options (``Game.options_for``, the
    one place that knows each option set's player range; it may switch an option the count
    needs, e.g. Mottainai's ``max_players`` for 6)."""
    values: dict[str, Any] = {}
    for text in texts or ():
        name, value = parse_option_text(game.Options, text)
        values[name] = value
    try:
        if players is not None:
            return game.options_for(players, values)
        return game.options_from_json(values)
    except (TypeError, ValueError) as exc:
        raise OptionError(str(exc)) from None


def changed_options(game: Game, options: Any) -> dict[str, Any]:
    """The options that differ from the defaults (for headers)."""
    from parlor.core.options import options_to_json

    default = options_to_json(game.Options())
    return {k: v for k, v in options_to_json(options).items() if default.get(k) != v}


def options_words(game: Game, options: Any) -> str:
    """``"refill_mode=up_to, show_oven_history=true"`` (the non-default options), or ``""``."""
    return ", ".join(f"{k}={option_text(game.Options, k, v)}" for k, v in changed_options(game, options).items())


def describe(game: Game) -> list[dict[str, Any]]:
    return describe_options(game.Options)


def players_words(game: Game) -> str:
    """``"2-6 players (2-5 with max_players=5; 4 with team_play=true)"``."""
    low, high = game.player_range()

    def span(a: int, b: int) -> str:
        return str(a) if a == b else f"{a}-{b}"

    notes = [
        f"{span(r['min_players'], r['max_players'])} with "
        f"{r['option']}={option_text(game.Options, r['option'], r['value'])}"
        for r in game.player_ranges_by_option()
    ]
    return f"{span(low, high)} players" + (f" ({'; '.join(notes)})" if notes else "")


def seat_from_user(seat: int, players: int) -> int:
    """A seat as a person numbers it (1..players) -> the engine's index (0..players-1)."""
    if type(seat) is not int or not 1 <= seat <= players:
        raise ParlorError(f"--seat must be between 1 and {players}, got {seat}")
    return seat - 1


def bot_list(text: str | None, count: int, default: str = "heuristic") -> list[str]:
    """``"heuristic,random"`` for ``count`` seats: the last one given is repeated. Each entry is a
    bot spec (``hard:iterations=800``, ``pkg.module:Class``, ``file.py:Class``; parlor.bots.spec)."""
    kinds = split_bot_specs(text or default)
    if not kinds:
        raise ParlorError("--bots needs at least one bot name")
    for k in kinds:
        if k not in BOT_KINDS:
            parse_bot_spec(k)  # a clear ParlorError for an unknown bot, module or class
    if len(kinds) > count:
        raise ParlorError(f"{len(kinds)} bots given for {count} seat(s)")
    return kinds + [kinds[-1]] * (count - len(kinds))


def new_bot(kind: str, game: Game, seed: int) -> Any:
    try:
        return make_bot(kind, game, seed)
    except ModuleNotFoundError as exc:
        raise ParlorError(f"the {kind!r} bot is not available for {game.title} yet ({exc.name} is missing)") from None


sub_seed = derive_seed  # seeds of the games and seats of a simulation


def is_interactive() -> bool:
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False
