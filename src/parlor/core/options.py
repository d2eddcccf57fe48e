"""Rule options: every game's ``Options`` is a frozen dataclass of named variants.

This module turns JSON (or CLI ``key=value`` text) into such a dataclass with a
clear error for an unknown name or a value of the wrong kind.

Each field is declared with :func:`option`, which records what a person needs to choose it:
a one-line meaning and the rule text the default follows. :func:`describe_options` reads that
back, with the type, default and allowed values, for ``parlor options``, ``parlor games``
and the server's ``/api/games`` (one source of truth for every screen).
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Literal, TypeVar, get_args, get_origin

from .errors import ParlorError, did_you_mean

OptionsT = TypeVar("OptionsT")


class OptionError(ParlorError):
    """An unknown rule option, or a value it does not accept."""


def option(
    default: Any,
    meaning: str,
    follows: str,
    *,
    safeguard: bool = False,
    view_only: bool = False,
    seat: bool = False,
) -> Any:
    """A rule option field: its default, what it means in one line, and which rule text the
    default follows (an edition, or "engine decision" where no rulebook decides).

    ``safeguard``: an engine guard that is not in any rulebook (e.g. a turn limit).
    ``view_only``: changes what a seat is shown, not the rules.
    ``seat``: its numbers are seats. The value itself (JSON, records, the API) is the engine's
    seat index, counted from 0; the text a person types and reads (``--option start_player=2``,
    ``parlor options``) counts from 1, as every screen does: see :func:`parse_option_text` and
    :func:`option_text`, the one boundary between the two.
    """
    return dataclasses.field(
        default=default,
        metadata={
            "meaning": meaning,
            "follows": follows,
            "safeguard": safeguard,
            "view_only": view_only,
            "seat": seat,
        },
    )


def _allowed(tp: Any) -> tuple[type, tuple[Any, ...] | None]:
    """(base type, allowed literal values or None) for a field's annotation."""
    origin = get_origin(tp)
    if origin is Literal:
        values = get_args(tp)
        return type(values[0]), values
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        args = [a for a in get_args(tp) if a is not type(None)]
        return _allowed(args[0])
    return tp, None


@functools.cache
def _type_hints(cls: type) -> Mapping[str, Any]:
    # Resolving string annotations evaluates code; an Options class never changes, and
    # new_game reads these on every game (it was most of a Mottainai setup's time).
    return MappingProxyType(typing.get_type_hints(cls))


@functools.cache
def option_fields(cls: type) -> Mapping[str, tuple[type, tuple[Any, ...] | None, Any]]:
    """name -> (type, allowed values or None, default) for every option (read-only, cached)."""
    hints = _type_hints(cls)
    out = {}
    for f in dataclasses.fields(cls):
        base, allowed = _allowed(hints[f.name])
        out[f.name] = (base, allowed, f.default)
    return MappingProxyType(out)


def describe_options(cls: type) -> list[dict[str, Any]]:
    """Every option of an ``Options`` class, as plain JSON-able facts, in declaration order.

    Each entry: ``name``, ``type`` (``"bool"``, ``"int"`` or ``"choice"``), ``default`` (the value
    a game gets when the option is not given; for options a ruleset fills in, the default
    ruleset's value, with ``set_by_ruleset``), ``allowed`` (the choices, or None for a free int),
    ``nullable`` (``None`` accepted), ``meaning``, ``follows``, ``safeguard``, ``view_only``,
    ``seat`` (the numbers are seat indices from 0; people type and read them from 1).
    """
    defaults = cls()
    out = []
    for name, (base, allowed, declared) in option_fields(cls).items():
        meta = next(f for f in dataclasses.fields(cls) if f.name == name).metadata
        kind = "choice" if allowed is not None else getattr(base, "__name__", str(base))
        out.append(
            {
                "name": name,
                "type": kind,
                "default": getattr(defaults, name),
                "set_by_ruleset": declared is None and getattr(defaults, name) is not None,
                "allowed": list(allowed) if allowed is not None else ([True, False] if base is bool else None),
                "nullable": _optional(cls, name) and declared is not None and not allowed,
                "meaning": meta.get("meaning", ""),
                "follows": meta.get("follows", ""),
                "safeguard": bool(meta.get("safeguard", False)),
                "view_only": bool(meta.get("view_only", False)),
                "seat": bool(meta.get("seat", False)),
            }
        )
    return out


def option_value_text(value: Any) -> str:
    """An option value as a person types it: ``true``, ``none``, ``up_to``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


def is_seat_option(cls: type, name: str) -> bool:
    field = next((f for f in dataclasses.fields(cls) if f.name == name), None)
    return field is not None and bool(field.metadata.get("seat", False))


def option_text(cls: type, name: str, value: Any) -> str:
    """An option value as a person types and reads it: like :func:`option_value_text`, but a seat
    option's seat index is shown as the seat's number (index 0 is ``1``, "Seat 1")."""
    if type(value) is int and is_seat_option(cls, name):
        return str(value + 1)
    return option_value_text(value)


def _optional(cls: type, name: str) -> bool:
    """Does the field's annotation admit ``None`` (``int | None``)?"""
    return type(None) in get_args(_type_hints(cls)[name])


def renamed(cls: type, name: str, value: Any) -> tuple[str, Any]:
    """An old option name (and value) in its current form.

    An ``Options`` class lists its renamed options in ``ALIASES``: old name -> (new name,
    {old value: new value}); values not listed pass unchanged. Old records and commands keep
    working (e.g. Mamma Mia!'s ``first_player=seat0`` is ``start_player=0``).
    """
    aliases = getattr(cls, "ALIASES", {})
    if name in aliases:
        new, values = aliases[name]
        try:
            return new, values.get(value, value)
        except TypeError:  # an unhashable value: not one of the renamed ones
            return new, value
    return name, value


def options_from_json(cls: type[OptionsT], data: Mapping[str, Any] | None) -> OptionsT:
    if data is None:
        return cls()
    if not isinstance(data, Mapping):
        raise OptionError(f"options must be a JSON object, got {type(data).__name__}")
    data = dict(renamed(cls, k, v) for k, v in data.items())
    fields = option_fields(cls)
    values: dict[str, Any] = {}
    for name, value in data.items():
        if name not in fields:
            near = did_you_mean(name, fields)
            raise OptionError(f"unknown rule option {name!r}{near}; known: {', '.join(sorted(fields))}")
        base, allowed, _ = fields[name]
        if value is None and _optional(cls, name):
            values[name] = None
            continue
        if allowed is not None:
            if not any(value == a and type(value) is type(a) for a in allowed):
                raise OptionError(f"option {name!r} must be one of {list(allowed)}, got {value!r}")
        elif base is bool and type(value) is not bool:
            raise OptionError(f"option {name!r} must be true or false, got {value!r}")
        elif base is int and (type(value) is not int):
            raise OptionError(f"option {name!r} must be an integer, got {value!r}")
        values[name] = value
    return cls(**values)


def parse_option_text(cls: type, text: str) -> tuple[str, Any]:
    """``"refill_mode=up_to"`` -> ``("refill_mode", "up_to")`` typed for ``cls``."""
    if "=" not in text:
        raise OptionError(f"write options as name=value, got {text!r}")
    name, raw = (s.strip() for s in text.split("=", 1))
    value: Any
    name, value = renamed(cls, name, raw)
    if not isinstance(value, str):  # an old value already translated (``first_player=seat0`` -> 0)
        return name, value
    raw = value
    fields = option_fields(cls)
    if name not in fields:
        near = did_you_mean(name, fields)
        raise OptionError(f"unknown rule option {name!r}{near}; known: {', '.join(sorted(fields))}")
    base, allowed = fields[name][0], fields[name][1]
    value = raw
    if raw.lower() in ("none", "null") and _optional(cls, name):
        return name, None
    if is_seat_option(cls, name) and raw.lstrip("-").isdigit():
        # Typed by a person: seats count from 1 (Seat 1 is index 0), as on every screen.
        seats = [a + 1 for a in allowed or () if type(a) is int]
        words = [option_value_text(a) for a in allowed or () if type(a) is not int]
        if int(raw) not in seats:
            choices = " or ".join([*words, f"a seat from {min(seats)} to {max(seats)}"])
            raise OptionError(f"option {name!r} must be {choices} (seats count from 1), got {raw}")
        return name, int(raw) - 1
    if allowed is not None and raw not in allowed:
        # A literal that also admits numbers (e.g. "random" or a seat number).
        for a in allowed:
            if type(a) is int and raw.lstrip("-").isdigit() and int(raw) == a:
                return name, a
    if base is bool:
        lowered = raw.lower()
        if lowered not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
            raise OptionError(f"option {name!r} must be true or false, got {raw!r}")
        value = lowered in ("true", "1", "yes", "on")
    elif base is int:
        try:
            value = int(raw)
        except ValueError:
            raise OptionError(f"option {name!r} must be an integer, got {raw!r}") from None
    return name, value


def apply_ruleset(options: Any, rulesets: Mapping[str, Mapping[str, Any]]) -> None:
    """Fill the options a ruleset governs and that were not given (left ``None``).

    For a frozen ``Options`` dataclass with a ``ruleset`` field; call it from
    ``__post_init__``. Explicit options always win over the ruleset.
    """
    if options.ruleset not in rulesets:
        raise ValueError(f"unknown ruleset {options.ruleset!r}; known: {', '.join(rulesets)}")
    for name, value in rulesets[options.ruleset].items():
        if getattr(options, name) is None:
            object.__setattr__(options, name, value)


def options_to_json(options: Any) -> dict[str, Any]:
    return {f.name: getattr(options, f.name) for f in dataclasses.fields(options)}
