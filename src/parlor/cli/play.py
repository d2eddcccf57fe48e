"""``parlor play``: one human seat against bots, in the terminal or through a pipe.

Hidden information: the human's screen is built only from ``state.view(seat)`` and from
events passed through ``for_seat(events, seat)``. The bots receive the state (that is
the table) and read it through their own seat's eyes (see ``parlor.bots``).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.rule import Rule
from rich.text import Text

from parlor.core import Event, Game, ParlorError, State, for_seat, save_record

from .common import check_output, is_interactive, new_bot, options_words, sub_seed


def check_save_path(path: Path) -> None:
    """Before the game starts: can a record be written at ``path``? (Else a ParlorError, and
    nothing is played that could not be kept.) Leaves no file behind."""
    check_output(path, "--save", parents=False)
    if path.exists():
        try:
            with open(path, "a", encoding="utf-8"):
                pass
        except OSError as exc:
            raise ParlorError(f"--save {path}: cannot write there ({exc.strerror})") from None


# Events that belong to the acting player's own turn in phase 1: after these alone the
# next decision shows just the hand, not the whole table again.
_OWN_TURN_EVENTS = {"toppings_played", "toppings_skipped", "order_played", "drew", "drew_cards"}


class _Quit(Exception):
    def __init__(self, reason: str) -> None:
        self.reason = reason


@dataclass
class Session:
    game: Game
    text: ModuleType
    state: State
    seat: int
    bots: dict[int, Any]
    bot_kinds: dict[int, str]
    out: Console
    save: Path | None = None
    delay: float = 0.6
    interactive: bool = False
    narrator: Any = None
    full_table_due: bool = True
    legend_shown: bool = False
    last_hand: str = ""
    menu: list[int] | None = None  # legal-move indices in the order the menu numbers them
    menu_whole: list[Any] | None = None  # the decision's legal list when ``a`` asked for all of it

    # ------------------------------------------------------------------ output
    def say(self, markup: str = "") -> None:
        self.out.print(markup, markup=True, highlight=False)

    def narrate(self, events: list[Event]) -> None:
        """Events this seat may see (filtered here, the one gate), one line each, paced on a TTY."""
        for event in for_seat(events, self.seat):
            for line in self.narrator.lines(event):
                self.say(line)
            if self.interactive and self.delay > 0:
                pause = self.narrator.pause(event)
                if pause:
                    self.out.file.flush()
                    time.sleep(pause * self.delay)

    def view(self) -> dict[str, Any]:
        return self.state.view(self.seat)

    def show_table(self) -> None:
        self.out.print(Rule(style="dim"))
        view = self.view()
        self.out.print(self.text.render_view(view))
        with self.out.capture() as shown:
            self.out.print(self.text.render_hand(view))
        self.last_hand = shown.get()

    # ------------------------------------------------------------------ input
    def read_line(self, prompt: str) -> str | None:
        """One line of input; None at end of input. Never needs a TTY."""
        if self.interactive:
            try:
                return self.out.input(prompt, markup=True)
            except EOFError:
                return None
        self.out.print(prompt, end="", markup=True)
        self.out.file.flush()
        line = sys.stdin.readline()
        if not line:
            self.say()
            return None
        self.out.print(
            line.rstrip("\n"), markup=False, highlight=False
        )  # echo: a piped transcript reads like a session
        return line

    def choose(self, legal: list[Any]) -> int:
        """The index in ``legal`` of the move typed: a number as shown in the menu (1..shown),
        or a move in words when the game reads them (``parse_move``)."""
        while True:
            # The menu can change while we wait (``a`` lists every move), so it is read each time.
            menu = self.menu if self.menu else list(range(len(legal)))
            n = len(menu)
            typed_form = ""
            if n < len(legal):  # a shortlist: some moves can be typed, and ``a`` lists them all
                hint = getattr(self.text, "typed_move_hint", None)
                typed_form = (hint(legal) if hint else "") + ", a all"
            numbers = f"1-{n}" if n > 1 else "1"
            line = self.read_line(f"[bold]Your move[/] ({numbers}{typed_form}, h help, q quit): ")
            if line is None:
                raise _Quit("eof")
            entry = line.strip().lower()
            if entry in ("a", "all") and n < len(legal):
                self.show_moves(legal, everything=True)
                continue
            if entry in ("h", "help", "?"):
                self.say(self.text.HELP)
                self.show_moves(legal)
                continue
            if entry in ("r", "rules"):
                self.out.print(Markdown(self.text.RULES))
                self.show_moves(legal)
                continue
            if entry in ("t", "table"):
                self.show_table()
                self.show_moves(legal)
                continue
            if entry in ("q", "quit", "exit"):
                raise _Quit("quit")
            if entry.isascii() and entry.isdigit() and 1 <= int(entry) <= n:
                return menu[int(entry) - 1]
            command = getattr(self.text, "command", None)  # a game may read its own commands (e.g. c NAME)
            if command is not None:
                answer = command(entry, self.view())
                if answer is not None:
                    self.out.print(answer)
                    continue
            parse = getattr(self.text, "parse_move", None)  # a game may accept moves typed in words
            typed_move = parse(entry, legal, self.view()) if parse else None
            if typed_move is not None:
                return typed_move
            shown = line.strip()
            explain = getattr(self.text, "explain_move", None)
            why = explain(entry, legal, self.view()) if explain and shown else None
            if why:
                self.say(f"[yellow]{escape(why)}[/]")
            elif not shown:
                self.say(f"[yellow]Please type a number from 1 to {n}[/] (or h for help).")
            else:
                typed = escape(repr(shown))
                self.say(f"[yellow]{typed} is not one of the moves: type a number from 1 to {n}[/] (h for help).")

    def show_moves(self, legal: list[Any], *, everything: bool = False) -> None:
        """The menu, numbered 1..k as typed; ``self.menu`` maps those numbers to ``legal``.

        A game may list only the sensible few (its ``shortlist``); ``everything`` (the ``a``
        key) lists every move, and the menu stays whole for the rest of this decision."""
        view = self.view()
        self.say(f"[bold]{self.text.decision_words(view)}[/] — your options:")
        if everything:
            self.menu_whole = legal
        shortlist = getattr(self.text, "shortlist", None)
        picked = shortlist(legal, view) if shortlist and self.menu_whole is not legal else None
        if picked is not None:
            indices, note = picked
            self.menu = list(indices)
            for number, i in enumerate(indices, 1):
                self.say(f"[bold cyan]{number:>3}[/]  {self.text.describe_action(legal[i], view)}")
            self.say(note)
            return
        whole = getattr(self.text, "whole_menu", None)  # a game may order the whole list its own way
        self.menu = (whole(legal, view) if whole else None) or list(range(len(legal)))
        items = [
            f"[bold cyan]{number:>2}[/]  {self.text.describe_action(legal[i], view)}"
            for number, i in enumerate(self.menu, 1)
        ]
        if len(items) > 16:
            self.out.print(Columns([Text.from_markup(s) for s in items], equal=True, column_first=True))
        else:
            for item in items:
                self.say(item)

    # ------------------------------------------------------------------ the game
    def human_turn(self) -> None:
        legal = self.state.legal_actions(self.seat)
        if len(legal) == 1:
            # Nothing to decide: say what happens and go on (the engine asks only so as not to
            # reveal a hand to the others; on this screen the hand is known anyway).
            self.say(f"[dim]Your only possible move:[/] {self.text.describe_action(legal[0], self.view())}")
            action = legal[0]
        else:
            if self.full_table_due:
                self.show_table()
                if not self.legend_shown and getattr(self.text, "LEGEND", ""):
                    self.say(self.text.LEGEND)
                    self.legend_shown = True
            else:
                hand = self.text.render_hand(self.view())
                with self.out.capture() as shown:
                    self.out.print(hand)
                if shown.get() != self.last_hand:  # the same hand twice in a row says nothing new
                    self.out.print(hand)
                self.last_hand = shown.get()
            self.show_moves(legal)
            action = legal[self.choose(legal)]
        events = self.state.apply(self.seat, action)
        quiet = getattr(self.text, "OWN_TURN_EVENTS", _OWN_TURN_EVENTS)
        self.full_table_due = any(e.kind not in quiet for e in events)
        self.narrate(events)

    def bot_turn(self, seat: int) -> None:
        action = self.bots[seat].choose(self.state, seat)
        events = self.state.apply(seat, action)
        self.full_table_due = True
        self.narrate(events)

    def run(self) -> int:
        try:
            while not self.state.is_over:
                to_move = self.state.to_move
                if self.seat in to_move:
                    self.human_turn()
                else:
                    self.bot_turn(to_move[0])
        except _Quit as q:
            return self.leave(q.reason)
        except KeyboardInterrupt:
            self.say()
            return self.leave("interrupt")
        return self.finish()

    def finish(self) -> int:
        self.out.print(Rule("Final table"))
        view = self.view()
        self.out.print(self.text.render_view(view))
        self.out.print(self.text.render_result(view))
        if self.save and not self.write_save(self.save):
            return 1  # the path was checked at the start; it went away during the game
        return 0

    def write_save(self, path: Path) -> bool:
        try:
            save_record(self.state, path)
        except OSError as exc:
            self.say(f"[red]Could not save to {escape(str(path))}: {exc.strerror}[/]")
            return False
        shown = escape(str(path))
        self.say(f"Game saved to {shown}. Replay it with: parlor replay {shown} --seat {self.seat + 1}")
        return True

    def leave(self, reason: str) -> int:
        """Exit codes: 0 when you chose to quit, 1 when the input ended first, 130 on Ctrl-C.
        On a terminal, ``q`` and Ctrl-C alike offer to save the game (unless --save did)."""
        if reason == "eof":
            self.say("Input ended before the game was over: leaving it unfinished.")
        else:
            self.say("You left the game.")
        if self.save:
            self.write_save(self.save)
        elif self.interactive and reason in ("quit", "interrupt"):
            code = self.offer_save()
            return 130 if reason == "interrupt" else code
        return {"interrupt": 130, "eof": 1}.get(reason, 0)

    def default_save_name(self) -> Path:
        """``mamma-mia-seed-7.json`` in the current folder (``-2``, ``-3`` ... if that file exists)."""
        stem = f"{self.game.name}-seed-{self.state.seed}"
        path, n = Path(f"{stem}.json"), 1
        while path.exists():
            n += 1
            path = Path(f"{stem}-{n}.json")
        return path

    def offer_save(self) -> int:
        """After ``q`` or Ctrl-C on a terminal: save or not. ``y`` takes a name made up for you,
        ``n`` or Enter skips, a name ending in ``.json`` is the file; anything else is asked again
        (a stray word such as ``maybe`` is not taken for a file name). Ctrl-C skips and exits 130
        on a fresh line."""
        suggested = self.default_save_name()
        while True:
            try:
                answer = self.out.input(
                    f"Save the game? y for {escape(str(suggested))}, a file name ending in .json, or Enter to skip: "
                ).strip()
            except EOFError:
                self.say()  # end the prompt's line
                return 0
            except KeyboardInterrupt:
                self.say()
                self.say("Not saved.")
                return 130
            if answer.lower() in ("", "n", "no"):
                return 0
            if answer.lower() in ("y", "yes"):
                path = suggested
            elif answer.lower().endswith(".json"):
                path = Path(answer).expanduser()
            else:
                self.say(f"[yellow]{escape(repr(answer))}: type y, n, or a file name ending in .json[/]")
                continue
            if self.write_save(path):
                return 0


def play(
    game: Game,
    text: ModuleType,
    *,
    players: int,
    seat: int,
    bots: list[str],
    seed: int,
    options: Any,
    save: Path | None,
    delay: float,
    out: Console,
) -> int:
    """Set up the table and play it out; returns the exit code. ``seat`` counts from 0."""
    game.check_players(players, options)
    if not 0 <= seat < players:
        raise ParlorError(f"--seat must be between 1 and {players}, got {seat + 1}")
    if save is not None:
        check_save_path(save)
    state = game.new_game(players, seed, options)
    others = [s for s in range(players) if s != seat]
    kinds = dict(zip(others, bots))
    bot_objects = {s: new_bot(kinds[s], game, sub_seed(seed, 1, s)) for s in others}
    view = state.view(seat)
    colours = {p["seat"]: p["deck"] for p in view.get("players_info", []) if "deck" in p}
    session = Session(
        game=game,
        text=text,
        state=state,
        seat=seat,
        bots=bot_objects,
        bot_kinds=kinds,
        out=out,
        save=save,
        delay=delay,
        interactive=is_interactive(),
        narrator=text.Narrator(seat, players, colours),
    )
    name = text.player_name
    seats = ", ".join(f"{name(s, seat, colours.get(s))} {escape(kinds[s])}" for s in others)  # a spec is text
    me = view["players_info"][seat] if "players_info" in view else {}
    own = f" (the {me['deck']} deck; your own topping: {me['own_topping']})" if "deck" in me else ""
    session.say(f"[bold]{game.title}[/] · {players} players · seed {seed}")
    changed = options_words(game, options)
    if changed:
        session.say(f"Rule options: {escape(changed)} (the others as usual: parlor options {game.name})")
    session.say(f"You are Seat {seat + 1}{own}. Bots: {seats}.")
    seat_intro = getattr(text, "seat_intro", None)  # a game may say more about your seat (a partner)
    if seat_intro is not None and seat_intro(view):
        session.say(seat_intro(view))
    if getattr(text, "INTRO", ""):
        session.say(text.INTRO)
    session.say("Type the number of a move; h for help, r for the rules, q to quit.")
    return session.run()
