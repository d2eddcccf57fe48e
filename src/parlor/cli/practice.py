"""``parlor practice``: a decision of a saved game set up again, to play on from there against bots.

The position is dealt from what the seat knew at that decision (``parlor.review.practice``): the
cards it could not see are dealt afresh, never the real ones, so the better move a review named
can be tried and the game played on to see how it goes.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from parlor.core import ParlorError, load_record
from parlor.review.practice import decision_steps, information_set, nearest, practice_deal
from parlor.text import text_module

from .common import bot_list, clean_errors, console, is_interactive, new_bot, seat_from_user, sub_seed
from .play import Session


def practice(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="A saved record (JSON), e.g. from `parlor play --save`.")
    ],
    seat: Annotated[int, typer.Option("--seat", metavar="N", help="Your seat in that game, 1 = first.")],
    step: Annotated[
        int,
        typer.Option("--step", metavar="K", help="The decision to try again: its step, as `parlor review` shows it."),
    ],
    bots: Annotated[
        str,
        typer.Option("--bots", metavar="LIST", help="Bots for the other seats in seat order; the last repeats."),
    ] = "heuristic",
    seed: Annotated[
        int | None,
        typer.Option("--seed", metavar="N", help="Seed of the deal (same seed, same deal).", show_default="random"),
    ] = None,
    delay: Annotated[
        float,
        typer.Option("--delay", metavar="SECONDS", help="Pause on each step when cards are revealed (0 = none)."),
    ] = 0.6,
) -> None:
    """Try a decision of a saved game again: play on from there against bots.

    The cards your seat could not see at that decision are dealt afresh from what it knew (never
    the real ones), so each try is a game you could have been in. Exit codes as `parlor play`.
    """
    with clean_errors():
        record = load_record(file)
        players = record.get("players")
        if type(players) is not int:
            raise ParlorError(f"{file}: the record names no player count")
        index = seat_from_user(seat, players)
        # Steps are counted from 1 here, as `parlor review` prints them (from 0 in the library).
        steps = decision_steps(record, index)
        if step - 1 not in steps:
            raise ParlorError(f"--step {step} is not a decision of Seat {seat}{nearest(steps, step - 1, base=1)}")
        known = information_set(record, index, step - 1)
        kinds = bot_list(bots, players - 1)
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        state = practice_deal(known, seed)
        game = state.game
        text = text_module(game)
        others = [s for s in range(players) if s != index]
        bot_kinds = dict(zip(others, kinds))
        out = console()
        view = state.view(index)
        colours = {p["seat"]: p["deck"] for p in view.get("players_info", []) if "deck" in p}
        session = Session(
            game=game,
            text=text,
            state=state,
            seat=index,
            bots={s: new_bot(bot_kinds[s], game, sub_seed(seed, 1, s)) for s in others},
            bot_kinds=bot_kinds,
            out=out,
            save=None,  # a practice game starts mid-game: its record is not a game of its own
            delay=max(0.0, delay),
            interactive=is_interactive(),
            narrator=text.Narrator(index, players, colours),
        )
        name = text.player_name
        seats = ", ".join(f"{name(s, index, colours.get(s))} {escape(bot_kinds[s])}" for s in others)
        session.say(f"[bold]{game.title}[/] · practice from step {step} of {escape(str(file))} · deal {seed}")
        session.say(
            f"You are Seat {index + 1}. The cards you could not see then are dealt afresh (not the real ones). "
            f"Bots: {seats}."
        )
        session.say("Type the number of a move; h for help, r for the rules, q to quit.")
        code = session.run()
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    app.command()(practice)
