"""Bot specs: the text that names a bot on the command line and in tournaments.

One bot::

    hard                          a built-in level or kind (random, heuristic, easy, medium,
                                  hard, expert, ismcts)
    hard:iterations=800           ... with parameters (for the search bots: ISMCTSBot's keywords,
                                  e.g. iterations, exploration, seconds; for easy: noise)
    mypkg.mybots:GreedyBot        a class from an importable module
    examples/bots/greedy.py:GreedyBot:depth=2
                                  a class from a Python file, with parameters

Several bots are separated by commas; a comma-separated ``name=value`` with no colon adds
a parameter to the bot before it: ``hard:iterations=800,exploration=0.5,expert`` is two bots.
Values are read as int, float, true/false, or else text.

A plugged-in class is built as ``Class(game, seed, **params)`` and must follow the ``Bot``
protocol (``parlor.bots.Bot``): ``choose(state, seat) -> action``, reading the state only
through ``state.view(seat, recall=True)``, ``state.legal_actions(seat)`` and
``state.determinize(seat, rng)`` (docs/bots.md).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from parlor.core.errors import ParlorError, did_you_mean

BotFactory = Callable[[Any, int], Any]  # (game, seed) -> Bot


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _params(parts: list[str], spec: str) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq or not key.strip().isidentifier():
            raise ParlorError(f"bad bot parameter {part!r} in {spec!r}: write name=value")
        params[key.strip()] = _value(value.strip())
    return params


def split_bot_specs(text: str) -> list[str]:
    """``"hard:iterations=800,exploration=0.5,expert"`` -> ``["hard:iterations=800:exploration=0.5", "expert"]``."""
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if "=" in piece and ":" not in piece and specs:
            specs[-1] += ":" + piece
        else:
            specs.append(piece)
    return specs


def _load_class(where: str, name: str, spec: str) -> Any:
    if where.endswith(".py"):
        path = Path(where).expanduser().resolve()
        if not path.is_file():
            raise ParlorError(f"bot file {where!r} not found (in {spec!r})")
        module_name = f"parlor_user_bot_{abs(hash(str(path)))}"
        module = sys.modules.get(module_name)
        if module is None:
            loader_spec = importlib.util.spec_from_file_location(module_name, path)
            assert loader_spec is not None and loader_spec.loader is not None
            module = importlib.util.module_from_spec(loader_spec)
            sys.modules[module_name] = module
            try:
                loader_spec.loader.exec_module(module)
            except Exception as exc:  # the user's code: whatever it raises is named in one line
                del sys.modules[module_name]  # a half-run module is not kept for the next attempt
                raise ParlorError(f"bot {spec!r}: {where} failed to load: {type(exc).__name__}: {exc}") from None
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as exc:
            raise ParlorError(f"cannot import bot module {where!r} (in {spec!r}): {exc}") from None
        except Exception as exc:  # the module was found but its own code raised
            raise ParlorError(f"bot {spec!r}: {where} failed to load: {type(exc).__name__}: {exc}") from None
    cls = getattr(module, name, None)
    if cls is None:
        raise ParlorError(f"{where!r} has no {name!r} (in {spec!r})")
    if not callable(getattr(cls, "choose", None)):
        raise ParlorError(f"{where}:{name} is not a bot: it has no choose(state, seat) method")
    return cls


def parse_bot_spec(spec: str) -> BotFactory:
    """A factory ``(game, seed) -> Bot`` for one spec (see the module docstring); errors are ParlorError."""
    from parlor.bots import BOT_KINDS, make_builtin_bot

    spec = spec.strip()
    if not spec:
        raise ParlorError("empty bot spec")
    if spec.endswith(".py") or ".py:" in spec:  # a file path may itself hold colons only on Windows drives
        where, _, rest = spec.partition(".py:")
        where += ".py"
        parts = rest.split(":") if rest else []
        if not parts or not parts[0]:
            raise ParlorError(f"bot spec {spec!r} names a file but no class: write file.py:ClassName")
        cls = _load_class(where, parts[0], spec)
        params = _params(parts[1:], spec)
        return lambda game, seed: _construct(cls, spec, game, seed, params)
    head, *parts = spec.split(":")
    if head in BOT_KINDS:
        params = _params(parts, spec)
        return lambda game, seed: make_builtin_bot(head, game, seed, **params)
    if not parts or "=" in parts[0]:
        raise ParlorError(
            f"unknown bot {head!r}{did_you_mean(head, BOT_KINDS)}; choose from {', '.join(BOT_KINDS)}, "
            "or name a class: package.module:Class"
        )
    cls = _load_class(head, parts[0], spec)
    params = _params(parts[1:], spec)
    return lambda game, seed: _construct(cls, spec, game, seed, params)


def _construct(cls: Any, spec: str, game: Any, seed: int, params: dict[str, Any]) -> Any:
    """A plugged-in bot built, or a one-line ParlorError naming the spec and what its ``__init__`` raised."""
    try:
        return cls(game, seed, **params)
    except ParlorError:
        raise
    except TypeError as exc:  # most often a parameter the class does not take
        raise ParlorError(f"bot {spec!r}: {exc}") from None
    except Exception as exc:  # the user's code: whatever it raises is named in one line
        raise ParlorError(f"bot {spec!r} failed to start: {type(exc).__name__}: {exc}") from None


def check_bot_spec(spec: str, game: Any) -> None:
    """Fail now (ParlorError) if ``spec`` cannot make a bot for ``game``."""
    parse_bot_spec(spec)(game, 0)


def bot_label(spec: str) -> str:
    """How reports and tables name the bot of ``spec``: a plug-in class by its ``name``
    attribute (else its class name), with the spec's parameters (``greedy:samples=2``), not by
    the path or module it was loaded from; a built-in spec as it is written."""
    spec = spec.strip()
    if spec.endswith(".py") or ".py:" in spec:
        where, _, rest = spec.partition(".py:")
        where += ".py"
        name, *params = rest.split(":")
    else:
        from parlor.bots import BOT_KINDS

        head, *parts = spec.split(":")
        if head in BOT_KINDS or not parts:
            return spec
        where, name, params = head, parts[0], parts[1:]
    try:
        cls = _load_class(where, name, spec)
    except ParlorError:
        return spec
    label = getattr(cls, "name", None)
    if not isinstance(label, str) or not label.strip():
        label = getattr(cls, "__name__", name)
    return ":".join([label.strip(), *params])


def bot_labels(specs: Iterable[str]) -> dict[str, str]:
    """``spec -> label`` (:func:`bot_label`) for the specs of one run, each label unique: a
    spec whose label another spec of the run also gets (two files with bots of one name, or a
    plug-in named like a built-in level) keeps its full spec text."""
    unique = [s.strip() for s in dict.fromkeys(specs)]
    labels = {s: bot_label(s) for s in unique}
    counts = Counter(labels.values())
    return {s: s if label != s and (counts[label] > 1 or label in labels) else label for s, label in labels.items()}
