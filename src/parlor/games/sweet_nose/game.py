"""The Sweet Nose game object: its facts, stated once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlor.core.errors import StateError
from parlor.core.game import Game

from .actions import ACTION_SPACE, PERMUTATIONS
from .data import NUM_KINDS, TILE_INDEX
from .options import Options
from .rules import NO_TILE, STEP_NAMES, SweetNoseState, pack, rulings_for, setup


class SweetNose(Game):
    name = "sweet-nose"
    title = "Sweet Nose"
    min_players = 3
    max_players = 5
    Options = Options
    actions = ACTION_SPACE
    summary = "Rate the sweets in secret, push the ones sweet to you onto the others; the least sweetness wins."

    def player_range(self, options: Any = None) -> tuple[int, int]:
        """3-5 players; a given first start player needs a table that has that seat."""
        if options is None:
            first = None
        elif isinstance(options, Mapping):
            first = options.get("start_player", options.get("first_start_player"))
        else:
            first = options.start_player
        if type(first) is int and first + 1 > self.min_players:
            return first + 1, self.max_players
        return self.min_players, self.max_players

    def _range_reason(self, options: Any) -> str:
        if isinstance(options, Mapping):
            first = options.get("start_player", options.get("first_start_player"))
        else:
            first = options.start_player
        return f" when Seat {first + 1} starts"

    def _new_state(self, players: int, seed: int, options: Any, deal: bool = True) -> SweetNoseState:
        state = SweetNoseState.__new__(SweetNoseState)
        state._init_base(self, players, seed, options)
        state.rulings = rulings_for(options)
        if deal:
            setup(state)
        return state

    def scenario(self, data: Mapping[str, Any]) -> SweetNoseState:
        from .scenario import build

        return build(self, data)

    def _load_state_json(self, state: Any, data: Mapping[str, Any]) -> None:
        players = state.players

        def per_seat(seq: Any, what: str) -> list[Any]:
            if not isinstance(seq, list) or len(seq) != players:
                raise StateError(f"{what}: expected one entry per seat, got {seq!r}")
            return seq

        def kinds(seq: Any, what: str) -> list[int]:
            out = [int(n) for n in seq]
            if len(out) != NUM_KINDS or any(n < 0 for n in out):
                raise StateError(f"{what}: expected {NUM_KINDS} non-negative counts, got {seq!r}")
            return out

        def seat(value: Any, what: str) -> int:
            if type(value) is not int or not 0 <= value < players:
                raise StateError(f"{what}: no seat {value!r}")
            return value

        def cards(values: Any, what: str) -> tuple[int, ...]:
            out = tuple(int(v) for v in values)
            if out and out not in PERMUTATIONS:
                raise StateError(f"{what}: {list(out)} is not a permutation of 1-5")
            return out

        if data["step"] not in STEP_NAMES:
            raise StateError(f"unknown step {data['step']!r}")
        state.step = STEP_NAMES.index(data["step"])
        state.round = int(data["round"])
        state.start_player = seat(data["start_player"], "start_player")
        state.active = seat(data["active"], "active")
        trays = [kinds(t, f"trays[{i}]") for i, t in enumerate(per_seat(data["trays"], "trays"))]
        if any(n > 15 for t in trays for n in t):  # a kind has 9 sweets; a tray packs 4 bits a kind
            raise StateError(f"trays: more sweets of a kind than the game has: {trays}")
        state.trays = [pack(t) for t in trays]
        state.bowls = [n for i, b in enumerate(per_seat(data["bowls"], "bowls")) for n in kinds(b, f"bowls[{i}]")]
        state.market = kinds(data["market"], "market")
        state.supply = tuple(kinds(data["supply"], "supply"))
        state.sweetness = tuple(
            cards(v, f"sweetness[{i}]") for i, v in enumerate(per_seat(data["sweetness"], "sweetness"))
        )
        state.revealed = bool(data["revealed"])
        state.scores = [int(s) for s in per_seat(data["scores"], "scores")]
        state.round_scores = tuple(int(s) for s in data["round_scores"])
        if state.round_scores and len(state.round_scores) != players:
            raise StateError("round_scores: expected one entry per seat")
        held = []
        for i, t in enumerate(per_seat(data["held"], "held")):
            if t is None:
                held.append(NO_TILE)
            elif t in TILE_INDEX:
                held.append(TILE_INDEX[t])
            else:
                raise StateError(f"held[{i}]: unknown shop tile {t!r}")
        state.held = tuple(held)
        state.ignoring = tuple(bool(f) for f in per_seat(data["ignoring"], "ignoring"))
        state.exchanged = bool(data["exchanged"])
        state.phase_turns = int(data["phase_turns"])
        state.quiet_turns = int(data["quiet_turns"])
        state.idle_turns = int(data["idle_turns"])
        state.picks = tuple((seat(s, "picks"), int(lv)) for s, lv in data["picks"])
        state.in_auction = tuple(bool(f) for f in per_seat(data["in_auction"], "in_auction"))
        state.swaps = tuple((seat(s, "swaps"), int(a), int(b)) for s, a, b in data["swaps"])
        state.past = tuple(
            (int(r), tuple(cards(v, "past") for v in c), tuple(int(x) for x in sc)) for r, c, sc in data["past"]
        )
        spent = []
        for t in data["spent"]:
            if t not in TILE_INDEX:
                raise StateError(f"spent: unknown shop tile {t!r}")
            spent.append(TILE_INDEX[t])
        state.spent = tuple(spent)
        if any(not 0 <= s < players for s in state.to_move):
            raise StateError(f"to_move names a seat that does not exist: {list(state.to_move)}")
        from .invariants import check_invariants

        problems = check_invariants(state)
        if problems:
            raise StateError("saved state is inconsistent: " + "; ".join(problems))


GAME = SweetNose()
