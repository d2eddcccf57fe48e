"""The bottom of the server, shared by every layer: the protocol's refusal (:class:`ServerError`), the
strict JSON it reads from clients (:func:`loads`) and the JSON it sends (:func:`dumps`, by orjson).

Why two JSON libraries: what a client sends is parsed by the standard library, whose hooks let the
parser refuse what no honest client sends (numbers that overflow, 16-digit integers, ``NaN``) at the
place it occurs; what the server sends is encoded by orjson, about ten times faster on the state
frames that every decision produces (``docs/benchmarks.md``).
"""

from __future__ import annotations

import json
import math
from typing import Any

import orjson

# Limits on what a request or frame may hold (docs/protocol.md, "Limits").
MAX_DEPTH = 32  # nesting of arrays and objects
MAX_INT_DIGITS = 15  # every integer a client needs fits in a JavaScript number exactly
MAX_STRING = 4096  # characters in one string


class ServerError(Exception):
    """A refusal with a protocol error code (see docs/protocol.md); ``field`` names the culprit."""

    def __init__(
        self,
        code: str,
        message: str,
        status: int = 400,
        field: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.field = field
        self.extra = extra  # more about it, for a client to say in the reader's language (a mute's end)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.field is not None:
            out["field"] = self.field
        return out | (self.extra or {})


_OPTIONS = orjson.OPT_NON_STR_KEYS  # a view's integer keys become strings, as the standard library does


def dumps(value: Any) -> str:
    """Compact JSON text (UTF-8, no ASCII escaping)."""
    return orjson.dumps(value, option=_OPTIONS).decode()


def dumpb(value: Any) -> bytes:
    """The same as bytes (what the database and HTTP bodies take)."""
    return orjson.dumps(value, option=_OPTIONS)


class _Refused:
    """A value the parser met but will not accept; reported with its place once parsing is done."""

    __slots__ = ("why",)

    def __init__(self, why: str) -> None:
        self.why = why


def _parse_int(text: str) -> Any:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        return _Refused(f"an integer of {digits} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _parse_float(text: str) -> Any:
    if len(text) > 40:
        return _Refused("a number written with more than 40 characters")
    value = float(text)
    if not math.isfinite(value):
        return _Refused(f"a number too large to represent ({text[:20]})")
    return value


def _parse_constant(name: str) -> Any:
    return _Refused(f"{name} (only finite numbers are allowed)")


def loads(text: str | bytes) -> Any:
    """Parse a client's JSON, refusing what no honest client sends: ``NaN``/``Infinity``, numbers that
    overflow, integers longer than 15 digits, nesting deeper than 32, lone surrogates, huge strings.

    Raises ``ServerError('bad_json', …, field=<path>)``; the path is like ``options.ascension_target``."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ServerError("bad_json", f"not UTF-8: {exc}") from None
    try:
        value = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except json.JSONDecodeError as exc:
        raise ServerError("bad_json", f"not valid JSON: {exc}") from None
    except RecursionError:
        raise ServerError("bad_json", f"nested deeper than {MAX_DEPTH} levels") from None
    _check(value)
    return value


def _check(root: Any) -> None:
    stack: list[tuple[Any, str, int]] = [(root, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        where = path or "(the whole body)"
        if isinstance(value, _Refused):
            raise ServerError("bad_json", f"{where}: {value.why}", field=path or None)
        if isinstance(value, str):
            _check_string(value, where, path)
        elif isinstance(value, dict | list):
            if depth >= MAX_DEPTH:
                raise ServerError("bad_json", f"{where}: nested deeper than {MAX_DEPTH} levels", field=path or None)
            if isinstance(value, dict):
                for key, item in value.items():
                    sub = f"{path}.{key}" if path else str(key)
                    _check_string(key, sub, path)
                    stack.append((item, sub, depth + 1))
            else:
                for i, item in enumerate(value):
                    stack.append((item, f"{path}[{i}]", depth + 1))


def _check_string(value: str, where: str, path: str) -> None:
    if len(value) > MAX_STRING:
        raise ServerError("bad_json", f"{where}: a string longer than {MAX_STRING} characters", field=path or None)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ServerError(
            "bad_json", f"{where}: a lone surrogate (\\ud800-\\udfff) is not text", field=path or None
        ) from None
