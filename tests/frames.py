"""The protocol's state frames as whole states, for the tests' clients (the server's and the browser's)."""

from __future__ import annotations

from typing import Any


def apply_state(previous: dict[str, Any] | None, frame: dict[str, Any]) -> dict[str, Any]:
    """A ``state`` frame as a whole state (docs/protocol.md, "state"): a full frame as it is; a delta
    (``"base"``) applied to the state of the change it names, which this connection must have."""
    if "delta" not in frame:
        return frame
    assert previous is not None and previous["seq"] == frame["base"], (previous and previous["seq"], frame["base"])
    state = dict(previous)
    for key, value in frame["delta"].items():
        if key == "view":
            state["view"] = {**state["view"], **value}
        elif key == "view_removed":
            state["view"] = {k: v for k, v in state["view"].items() if k not in value}
        else:
            state[key] = value
    for key in ("seq", "version", "cause", "events", "clocks"):
        state[key] = frame[key]
    return state
