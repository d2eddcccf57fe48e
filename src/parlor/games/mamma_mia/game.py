"""The Mamma Mia! game object: its facts, stated once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlor.core.errors import StateError
from parlor.core.game import Game

from .actions import ACTION_SPACE
from .data import ORDERS
from .options import Options
from .rules import STEP_NAMES, MammaMiaState, setup


class MammaMia(Game):
    name = "mamma-mia"
    title = "Mamma Mia!"
    min_players = 2
    max_players = 5
    Options = Options
    actions = ACTION_SPACE
    summary = "Fill the oven with toppings and orders, remember what went in, and bake the most pizzas."

    def _new_state(self, players: int, seed: int, options: Any, deal: bool = True) -> MammaMiaState:
        state = MammaMiaState.__new__(MammaMiaState)
        state._init_base(self, players, seed, options)
        if deal:
            setup(state)
            state.start_turn([])
        return state

    def scenario(self, data: Mapping[str, Any]) -> MammaMiaState:
        from .scenario import build

        return build(self, data)

    def _load_state_json(self, state: Any, data: Mapping[str, Any]) -> None:
        players = state.players
        n_orders = len(ORDERS)

        def orders(seq: Any) -> tuple[int, ...]:
            out = tuple(int(o) for o in seq)
            if any(not 0 <= o < n_orders for o in out):
                raise StateError(f"order id out of range in {seq!r}")
            return out

        def per_seat(seq: Any) -> list[Any]:
            if len(seq) != players:
                raise StateError(f"expected one entry per seat in {seq!r}")
            return list(seq)

        state.round = int(data["round"])
        state.step = STEP_NAMES.index(data["step"])
        state.active = int(data["active"])
        state.start_player = int(data["start_player"])
        state.decks = tuple(int(d) for d in per_seat(data["decks"]))
        state.hand_toppings = [int(n) for n in data["hand_toppings"]]
        if len(state.hand_toppings) != players * 5:
            raise StateError("hand_toppings has the wrong length")
        state.hand_orders = [orders(h) for h in per_seat(data["hand_orders"])]
        state.known_hand_orders = [orders(h) for h in per_seat(data["known_hand_orders"])]
        state.waiters = [orders(w) for w in per_seat(data["waiters"])]
        state.waiter_known = [int(k) for k in per_seat(data["waiter_known"])]
        state.completed = [orders(c) for c in per_seat(data["completed"])]
        state.supply = [int(c) for c in data["supply"]]
        state.holder = int(data["holder"])
        state.oven = [(int(p), int(c), int(n)) for p, c, n in data["oven"]]
        state.leftovers = tuple(int(n) for n in data["leftovers"])
        state.played_toppings = bool(data["played_toppings"])
        state.quiet_turns = int(data["quiet_turns"])
        state.turn_active = bool(data["turn_active"])
        state.counter = [int(n) for n in data["counter"]]
        state.used = [int(n) for n in data["used"]]
        state.reveal = int(data["reveal"])
        state.opener = int(data["opener"])
        state.pending = int(data["pending"])
        state.need = tuple(int(n) for n in data["need"])
        state.box = tuple(int(n) for n in data["box"])
        state.boxed_orders = orders(data["boxed_orders"])
        state.turns = int(data["turns"])
        state.recount_toppings()
        from .invariants import check_invariants

        problems = check_invariants(state)
        if problems:
            raise StateError("saved state is inconsistent: " + "; ".join(problems))


GAME = MammaMia()
