"""Actions: small frozen values with a stable JSON form and a stable integer id.

Every game declares its action classes (subclasses of :class:`Action`) and one
:class:`ActionSpace` listing every action it can ever offer, in a fixed order.
That order *is* the integer id used by RL code and compact logs, so it must only
ever grow at the end.

The space hands out the same object for equal actions (``canonical``), which lets
the engine check legality by identity on the hot path.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from .errors import IllegalAction


@dataclasses.dataclass(frozen=True, slots=True)
class Action:
    """Base of every action. ``TYPE`` is the action's name in JSON."""

    TYPE: ClassVar[str] = "action"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            # Tuples of (name, count) pairs travel as JSON objects, other tuples as lists.
            if isinstance(value, tuple):
                if all(isinstance(p, tuple) and len(p) == 2 for p in value):  # () stays {} as ever
                    value = {k: v for k, v in value}
                else:
                    value = list(value)
            out[f.name] = value
        return out

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> "Action":
        """Build from a JSON object's fields (``type`` already checked)."""
        names = [f.name for f in dataclasses.fields(cls)]
        extra = set(data) - set(names) - {"type"}
        if extra:
            raise IllegalAction(f"{cls.TYPE}: unexpected field(s) {sorted(extra)}")
        missing = [n for n in names if n not in data]
        if missing:
            raise IllegalAction(f"{cls.TYPE}: missing field(s) {missing}")
        values = {}
        for n in names:
            v = data[n]
            # JSON objects and lists become tuples, so equal actions are equal and hash alike.
            if isinstance(v, Mapping):
                v = tuple((str(k), c) for k, c in v.items())
            elif isinstance(v, list):
                v = tuple(v)
            values[n] = v
        return cls(**values)

    def __str__(self) -> str:
        fields = ", ".join(f"{k}={v}" for k, v in self.to_json().items() if k != "type")
        return f"{self.TYPE}({fields})"


class ActionSpace:
    """Every action a game can offer, each with its id (position in the list)."""

    def __init__(self, actions: Iterable[Action]) -> None:
        self.actions: tuple[Action, ...] = tuple(actions)
        self._ids: dict[Action, int] = {}
        for i, a in enumerate(self.actions):
            if a in self._ids:
                raise ValueError(f"duplicate action in space: {a}")
            self._ids[a] = i
        self._types: dict[str, type[Action]] = {}
        for a in self.actions:
            self._types.setdefault(a.TYPE, type(a))

    def __len__(self) -> int:
        return len(self.actions)

    def id(self, action: Action) -> int:
        try:
            return self._ids[action]
        except (KeyError, TypeError):
            raise IllegalAction(f"not an action of this game: {action!r}") from None

    def from_id(self, action_id: int) -> Action:
        if not isinstance(action_id, int) or isinstance(action_id, bool) or not 0 <= action_id < len(self.actions):
            raise IllegalAction(f"action id out of range: {action_id!r} (0..{len(self.actions) - 1})")
        return self.actions[action_id]

    def canonical(self, action: Action) -> Action:
        return self.actions[self.id(action)]

    def from_json(self, data: Any) -> Action:
        """Parse an action's JSON form; a malformed one raises :class:`IllegalAction`."""
        if not isinstance(data, Mapping):
            raise IllegalAction(f"an action must be a JSON object, got {type(data).__name__}")
        kind = data.get("type")
        cls = self._types.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise IllegalAction(f"unknown action type {kind!r}; known: {sorted(self._types)}")
        try:
            action = cls.from_fields(data)
        except IllegalAction:
            raise
        except (TypeError, ValueError) as exc:
            raise IllegalAction(f"malformed {kind} action: {exc}") from None
        try:
            return self.canonical(action)
        except IllegalAction:
            raise IllegalAction(f"no such action: {dict(data)}") from None
