"""``parlor replay``: a saved record told as a log, from one seat's eyes (or a spectator's)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from rich.console import Console
from rich.rule import Rule

from parlor.core import ParlorError, for_seat, replay_iter

from .common import options_words


def replay(
    record: dict[str, Any],
    text_for: Any,
    *,
    seat: int | None,
    step: bool,
    interactive: bool,
    out: Console,
) -> int:
    """Print the game of ``record`` as ``seat`` (counted from 1, as people do) saw it, then the final table."""
    states = replay_iter(record)
    state = next(states)  # a bad header raises RecordError here
    game = state.game
    text: ModuleType = text_for(game)
    if seat is not None:
        if not 1 <= seat <= state.players:
            raise ParlorError(f"--seat must be between 1 and {state.players} for this {state.players}-player game")
        seat -= 1
    view = state.view(seat)
    colours = {p["seat"]: p["deck"] for p in view.get("players_info", []) if "deck" in p}
    narrator = text.Narrator(seat, state.players, colours)
    actions = record["actions"]
    who = "a spectator (public events only)" if seat is None else f"Seat {seat + 1}"
    out.print(f"[bold]{game.title}[/] · {state.players} players · seed {record['seed']} · {len(actions)} decisions")
    changed = options_words(game, state.options)
    if changed:
        out.print("Rule options: " + changed, markup=False)
    out.print(f"Seen by {who}.")
    for index, after in enumerate(states):
        seat_acting, action_json = actions[index]
        # ``after`` proves the step replays; play it on our copy of the state before it to get its events.
        events = state.apply(seat_acting, game.action_from_json(action_json))
        for event in for_seat(events, seat):
            for line in narrator.lines(event):
                out.print(line, highlight=False)
        state = after
        if step and interactive and index + 1 < len(actions):
            try:
                choice = _step_answer(out, index + 1, len(actions))
            except KeyboardInterrupt:
                out.print()
                out.print(f"Replay stopped after decision {index + 1} of {len(actions)}.")
                return 130
            if choice == "quit":
                out.print(f"Replay stopped after decision {index + 1} of {len(actions)}.")
                return 0
            if choice == "all":
                step = False
    out.print(Rule("Final table" if state.is_over else "Where the record stops"))
    final = state.view(seat)
    out.print(text.render_view(final))
    if state.is_over:
        out.print(text.render_result(final))
    else:
        out.print(f"The record ends before the game is over (after {len(actions)} decisions).")
    return 0


def _step_answer(out: Console, done: int, total: int) -> str:
    """``"next"``, ``"all"`` or ``"quit"``, asked until the answer is one of them (a stray ``zz`` is
    not taken for Enter); the end of input plays the rest."""
    while True:
        try:
            answer = out.input(f"[dim]decision {done}/{total}: Enter for the next, a for all the rest, q to quit[/] ")
        except EOFError:
            return "all"
        choice = answer.strip().lower()
        if choice == "":
            return "next"
        if choice in ("a", "all"):
            return "all"
        if choice in ("q", "quit"):
            return "quit"
        typed = repr(answer.strip())
        out.print(f"{typed}: press Enter for the next decision, a for all the rest, q to quit.", markup=False)
