"""The Mottainai game object: its facts, stated once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlor.core.errors import StateError
from parlor.core.game import Game

from .actions import ACTION_SPACE
from .data import NUM_TYPES
from .options import Options
from .rules import FRAME_KINDS, MottainaiState, empty_state, setup


class Mottainai(Game):
    name = "mottainai"
    title = "Mottainai"
    min_players = 2
    max_players = 6  # 6 only under v0.84 (``max_players`` option); 5 by default
    Options = Options
    actions = ACTION_SPACE
    summary = "Waste nothing: every card is a task, a helper, a material, a sale or a work."

    def player_range(self, options: Any = None) -> tuple[int, int]:
        """2-5 players, 6 with ``max_players=6`` (v0.84's largest table, which a 6-player game
        switches on by itself unless ``max_players`` was chosen); team play is for exactly 4."""
        if options is None:
            options = {}
        if isinstance(options, Mapping):
            if options.get("team_play") is True:
                return 4, 4
            limit = options.get("max_players")
            return self.min_players, limit if limit in (5, 6) else self.max_players
        if options.team_play:
            return 4, 4
        return self.min_players, options.max_players

    def _range_reason(self, options: Any) -> str:
        if isinstance(options, Mapping):
            return " in team play" if options.get("team_play") is True else " with max_players=5"
        if options.team_play:
            return " in team play"
        return f" with max_players={options.max_players} (6 players need max_players=6 or ruleset=v0.84)"

    def options_for(self, players: int, given: Mapping[str, Any] | None = None) -> Options:
        """A 6-player game switches ``max_players`` to 6 (the one option that count needs)
        unless it was chosen, directly or through an explicit ``ruleset`` (v1.0 seats 5: a
        6-player game under it is an error, not a quiet switch to v0.84's table)."""
        given = dict(given or {})
        if players == 6 and "max_players" not in given and "ruleset" not in given:
            given["max_players"] = 6
        return super().options_for(players, given)

    def _new_state(self, players: int, seed: int, options: Any, deal: bool = True) -> MottainaiState:
        state = empty_state(self, players, seed, options)
        if deal:
            setup(state)
            state.ev = []
            state.run()
        return state

    def scenario(self, data: Mapping[str, Any]) -> MottainaiState:
        from .scenario import build

        return build(self, data)

    def _load_state_json(self, state: Any, data: Mapping[str, Any]) -> None:
        n = state.players
        self.check_players(n, state.options)

        def cards(seq: Any) -> tuple[int, ...]:
            out = tuple(int(c) for c in seq)
            if any(not 0 <= c < NUM_TYPES for c in out):
                raise StateError(f"card out of range in {seq!r}")
            return out

        def per_seat(seq: Any) -> list[tuple[int, ...]]:
            if len(seq) != n:
                raise StateError(f"expected one entry per seat in {seq!r}")
            return [cards(x) for x in seq]

        def frame(x: Any) -> Any:
            return tuple(frame(v) for v in x) if isinstance(x, list) else x

        s = state
        s.deck = list(cards(data["deck"]))
        s.deck_info = [int(k) for k in data["deck_info"]]
        s.floor = cards(data["floor"])
        s.box = cards(data["box"])
        s.hands = per_seat(data["hands"])
        s.known = per_seat(data["known"])
        s.waiting = per_seat(data["waiting"])
        s.tasks = [int(t) for t in data["tasks"]]
        if len(s.tasks) != n or any(not -1 <= t < NUM_TYPES for t in s.tasks):
            raise StateError("tasks: one card (or -1) per seat expected")
        s.task_up = [bool(b) for b in data["task_up"]]
        s.doll_task = [bool(b) for b in data["doll_task"]]
        if len(s.task_up) != n or len(s.doll_task) != n:
            raise StateError("task_up / doll_task: one entry per seat expected")
        s.helpers = per_seat(data["helpers"])
        s.bench = per_seat(data["bench"])
        s.sales = per_seat(data["sales"])
        s.gallery = per_seat(data["gallery"])
        s.gift = per_seat(data["gift_shop"])
        s.kite = per_seat(data["kite"])
        for p in range(n):
            s.works_changed(p)
        s.active = int(data["active"])
        if not 0 <= s.active < n:
            raise StateError("active seat out of range")
        s.start_player = int(data["start_player"])
        s.extra_turns = int(data["extra_turns"])
        s.turns = int(data["turns"])
        s.stack = [frame(f) for f in data["stack"]]
        if any(not f or f[0] not in FRAME_KINDS for f in s.stack):
            raise StateError("unknown frame in the turn stack")
        s.over = bool(data["over"])
        s.end_reason = str(data["end_reason"])
        s.turtle_winner = int(data["turtle_winner"])
        s.t_left = int(data["t_left"])
        s.t_bonus = int(data["t_bonus"])
        s.t_fountain = int(data["t_fountain"])
        s.t_skip = bool(data["t_skip"])
        s.used_fx = cards(data["used_fx"])
        s.ret_batch = int(data["ret_batch"])
        s.pending = None
        expected = () if s.over else (s.active,)
        if tuple(s.to_move) != expected:
            raise StateError(f"to_move {list(s.to_move)} does not match the position")
        from .invariants import check_invariants

        problems = check_invariants(s)
        if problems:
            raise StateError("saved state is inconsistent: " + "; ".join(problems))
        if not s.over:
            try:
                legal = s._legal_actions(s.active)
            except Exception as exc:
                raise StateError(f"saved state is inconsistent: the pending decision fails ({exc})") from None
            if not legal:
                raise StateError("saved state is inconsistent: no decision is pending")


GAME = Mottainai()
