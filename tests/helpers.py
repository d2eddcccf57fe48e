"""Small helpers several test modules share."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from parlor import games
from parlor.core.record import save_record

T = TypeVar("T")


def run_coroutine(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)`` in a thread of its own, and its result (or its exception) here.

    A pytest-xdist worker that ran a browser test holds Playwright's event loop as its thread's running
    loop for the rest of the session, and ``asyncio.run`` refuses to start in a thread with a running
    loop; a new thread has none, so a test that needs its own loop runs in any worker, in any order."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = asyncio.run(coroutine)
        except BaseException as error:  # handed to the caller's thread, re-raised there
            outcome["error"] = error

    thread = threading.Thread(target=run, name="run-coroutine")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


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
