"""The invariants of spec §2, checked after every action by the tests and on every load."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import PERMUTATIONS
from .data import MARKET_SIZE, NUM_KINDS, SWEETS_PER_KIND, TILES, TOTAL_SWEETS, TRAY_SIZE

if TYPE_CHECKING:
    from .rules import SweetNoseState


def check_invariants(state: "SweetNoseState") -> list[str]:
    """Every broken invariant, in words (empty when all hold)."""
    from .rules import ASSIGN, DECLARE, EXCHANGE, NO_TILE, OVER, SHOP, STEP_NAMES, TASTE

    problems: list[str] = []
    n = state.players
    if len(state.trays) != n or len(state.bowls) != n * NUM_KINDS:
        return ["trays or bowls have the wrong length"]
    # A tray is packed, 4 bits a kind (rules.pack): a count below zero borrows from the next kind.
    if any(not 0 <= t < 1 << 4 * NUM_KINDS for t in state.trays) or any(
        sum(state.tray(p)) != state.tray_size(p) for p in range(n)
    ):
        problems.append("a tray that is not five counts")
    if any(c < 0 for c in state.bowls) or any(c < 0 for c in state.market):
        problems.append("a negative sweet count")
    # Every player holds exactly 8 sweets; the market holds exactly 3.
    for p in range(n):
        held = sum(state.held_sweets(p))
        if held != TRAY_SIZE:
            problems.append(f"seat {p} holds {held} sweets, expected {TRAY_SIZE}")
    if sum(state.market) != MARKET_SIZE:
        problems.append(f"the market holds {sum(state.market)} sweets, expected {MARKET_SIZE}")
    # Conservation: 9 of each kind between trays, bowls, market and the supply; 45 in all.
    for k in range(NUM_KINDS):
        total = sum(state.held_sweets(p)[k] for p in range(n)) + state.market[k] + state.supply[k]
        if total != SWEETS_PER_KIND:
            problems.append(f"kind {k}: {total} sweets, expected {SWEETS_PER_KIND}")
    grand = sum(state.tray_size(p) for p in range(n)) + sum(state.bowls) + sum(state.market) + sum(state.supply)
    if grand != TOTAL_SWEETS:
        problems.append(f"{grand} sweets in all, expected {TOTAL_SWEETS}")
    # Every assignment is a permutation of 1-5 (or not made yet, in phase 1).
    for p, values in enumerate(state.sweetness):
        if values and values not in PERMUTATIONS:
            problems.append(f"seat {p}: sweetness {list(values)} is not a permutation of 1-5")
        needed = state.step in (EXCHANGE, TASTE, DECLARE) or (state.step == SHOP and state.round >= 1)
        if not values and needed:
            problems.append(f"seat {p}: no sweetness assigned in step {STEP_NAMES[state.step]}")
        if state.step == ASSIGN and bool(values) == (p in state.to_move):
            problems.append(f"seat {p}: sweetness set and to-move disagree in phase 1")
    # Each tile is in the shop or in front of one player.
    tiles = [t for t in state.held if t != NO_TILE]
    if len(set(tiles)) != len(tiles) or any(not 0 <= t < len(TILES) for t in tiles):
        problems.append(f"shop tiles held twice or unknown: {list(state.held)}")
    if set(tiles) & set(state.spent):
        problems.append(f"a tile used this round is held again: {list(state.spent)}")
    # Whose move it is matches the step.
    if state.step == OVER:
        if state.to_move:
            problems.append("the game is over but someone is to move")
    elif state.step != ASSIGN and tuple(state.to_move) != (state.active,):
        problems.append(f"to_move {list(state.to_move)} is not the active seat {state.active}")
    if state.step == EXCHANGE and state.phase_turns < 1:
        problems.append("phase 2 has not begun a turn")
    return problems
