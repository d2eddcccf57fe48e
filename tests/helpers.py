"""Small helpers several test modules share."""

from __future__ import annotations

import socket
from pathlib import Path

from parlor import games
from parlor.core.record import save_record


def free_port() -> int:
    """A loopback port nobody listens on right now (the OS picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def a_record(folder: Path, game: str = "mamma-mia", players: int = 2) -> Path:
    """``folder/game.json``: a whole game (seed 3) in which every seat always plays its first legal action."""
    state = games.get(game).new_game(players, 3)
    while not state.is_over:
        seat = state.to_move[0]
        state.apply(seat, state.legal_actions(seat)[0])
    path = folder / "game.json"
    save_record(state, path)
    return path
