"""Build Parlor, compiling the engine's hot modules with mypyc when it can.

The rules stay one Python source. With a C compiler present, ``pip install .`` and
``pip install -e .`` compile the modules in ``COMPILED`` with mypyc (the pure-Python
files are installed beside them all the same); without one, or when mypyc or the
compiler fails, the install falls back to pure Python with a one-line notice.
``PARLOR_PURE=1`` at install time skips compiling. At run time ``parlor.BUILD``
says which build is in use ("compiled" or "pure").

``PARLOR_COMPILE_SEPARATELY=1`` at install time (scripts/test uses it) installs without
compiling and without touching the compiled modules in ``src/``: the engine is compiled by
``python setup.py build_ext --inplace`` on its own, beside the rest of the install, and that
step alone removes stale modules or keeps current ones.

Knob: ``MYPYC_OPT_LEVEL`` (the C compiler's -O level, 3 by default; 1 compiles in about
60% of the time, for a development loop). On Linux the compile also gets ``LINUX_FLAGS``.
Compiling is one C file on one core: 2.5-3 minutes at -O3 on the 2-core development machine
(docs/benchmarks.md).
"""

from __future__ import annotations

import os
import sys
import time

from setuptools import setup
from setuptools.command.build_ext import build_ext

# The hot path: the engine core, each game's state, rules and views, the search, and the
# observations and masks learning agents read (observation.py, rl/native.py: no numpy there),
# and the heuristic bots (``medium``; simulations are bound by them).
# Not the action classes (core/actions.py, games/*/actions.py): mypyc turns a dataclass's
# ``TYPE: ClassVar[str]`` into a field, and actions are made once per game anyway. Nor
# core/events.py: its EventList replaces list methods after the class is made (lazy events),
# which a native class cannot have; the rules make plain tuples there, not Events.
COMPILED = [
    "src/parlor/core/game.py",
    "src/parlor/core/rng.py",
    "src/parlor/games/mamma_mia/rules.py",
    "src/parlor/games/mamma_mia/views.py",
    "src/parlor/games/mamma_mia/observation.py",
    "src/parlor/games/mamma_mia/heuristic.py",
    "src/parlor/games/sweet_nose/rules.py",
    "src/parlor/games/sweet_nose/views.py",
    "src/parlor/games/sweet_nose/playout.py",
    "src/parlor/games/sweet_nose/observation.py",
    "src/parlor/games/sweet_nose/heuristic.py",
    "src/parlor/games/mottainai/cards.py",
    "src/parlor/games/mottainai/data.py",
    "src/parlor/games/mottainai/rules.py",
    "src/parlor/games/mottainai/tables.py",
    "src/parlor/games/mottainai/views.py",
    "src/parlor/games/mottainai/observation.py",
    "src/parlor/games/mottainai/heuristic.py",
    "src/parlor/bots/ismcts.py",
    "src/parlor/rl/native.py",
]


def notice(message: str) -> None:
    print(f"parlor: {message}", file=sys.stderr)


# setuptools commands that build modules (metadata-only runs need no mypy pass).
BUILD_COMMANDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def remove_inplace_builds() -> None:
    """Delete compiled modules an earlier editable install left beside the sources.

    Python imports ``rules.cpython-311-….so`` before ``rules.py``, so a stale one would run
    old code (or shadow a pure-Python install); every editable build starts from none.
    """
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "src")
    for folder, _dirs, files in os.walk(root):
        for name in files:
            ours = name.startswith("parlor") or "__mypyc" in name or "parlor" in folder
            if name.endswith((".so", ".pyd")) and ours:
                os.remove(os.path.join(folder, name))


def inplace_builds_current() -> bool:
    """Are an earlier editable build's modules all there and newer than every engine source?

    Then an editable reinstall (``scripts/serve``, ``scripts/test`` run it every time) keeps
    them instead of compiling for minutes again. Conservative: any ``.py`` of the core, the
    games or the bots, or this file, being newer means a new build.
    """
    from importlib.machinery import EXTENSION_SUFFIXES

    here = os.path.dirname(os.path.abspath(__file__))
    src = os.path.join(here, "src")
    sources = [os.path.join(here, "setup.py"), os.path.join(here, "pyproject.toml")]
    for part in ("core", "games", "bots", "rl"):
        for folder, _dirs, files in os.walk(os.path.join(src, "parlor", part)):
            sources += [os.path.join(folder, f) for f in files if f.endswith(".py")]
    suffix = EXTENSION_SUFFIXES[0]
    built = [os.path.join(here, path[: -len(".py")] + suffix) for path in COMPILED]
    built += [os.path.join(src, f) for f in os.listdir(src) if "__mypyc" in f and f.endswith(suffix)]
    if len(built) != len(COMPILED) + 1 or not all(os.path.exists(path) for path in built):
        return False
    return min(map(os.path.getmtime, built)) > max(map(os.path.getmtime, sources))


def compiled_extensions() -> list:
    if not BUILD_COMMANDS.intersection(sys.argv[1:]):
        return []
    pure = os.environ.get("PARLOR_PURE", "") not in ("", "0")
    separately = os.environ.get("PARLOR_COMPILE_SEPARATELY", "") not in ("", "0")
    if separately:
        # The compile runs at the same time in its own step, writing to src/: leave src/ to it.
        notice("PARLOR_COMPILE_SEPARATELY is set: not compiling here (`setup.py build_ext --inplace` does)")
        return []
    if {"editable_wheel", "develop", "--inplace", "-i"}.intersection(sys.argv[1:]):
        if not pure and inplace_builds_current():
            notice("the compiled modules in src/ are newer than every source: kept, not recompiled")
            return []
        remove_inplace_builds()
    if pure:
        notice("PARLOR_PURE is set: installing the pure-Python build")
        return []
    try:
        from mypyc.build import mypycify

        return mypycify(COMPILED, opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"))
    except BaseException as exc:  # mypy missing or the sources do not type-check: still install
        notice(f"mypyc could not compile the engine ({type(exc).__name__}: {exc}); installing the pure-Python build")
        return []


# On Linux (gcc or clang, -fPIC): calls between the compiled functions go straight to them
# and may be inlined (no semantic interposition: nothing replaces them at run time), and calls
# into libpython skip the PLT stub. Sweet Nose and Mottainai ran about 5-10% faster with these:
# the playout loop is bound by instruction-cache misses more than by instructions, and both
# flags shrink the hot path (docs/benchmarks.md, "Compiler flags").
LINUX_FLAGS = ["-fno-semantic-interposition", "-fno-plt"]


class OptionalBuildExt(build_ext):
    """Compile the extensions; on any compiler failure install pure Python instead."""

    def build_extensions(self) -> None:
        if sys.platform.startswith("linux") and self.compiler.compiler_type == "unix":
            for ext in self.extensions:
                ext.extra_compile_args = [*ext.extra_compile_args, *LINUX_FLAGS]
        super().build_extensions()

    def run(self) -> None:
        if not self.extensions:
            return
        start = time.perf_counter()
        try:
            super().run()
        except BaseException as exc:  # no C compiler, missing headers, a compiler error
            if isinstance(exc, KeyboardInterrupt):
                raise
            self._remove_outputs()
            self.extensions = []
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            if len(first) > 100:
                first = first[:97] + "..."
            notice(f"no compiled build (C compile failed: {first}); installing the pure-Python build")
            return
        if self.inplace:
            # The copies into src/ keep the build folder's times, and a per-module shim that
            # did not need rebuilding is older than the source just edited: the run-time
            # staleness check would then refuse a build that is current. Date them now.
            for ext in self.extensions:
                path = self.get_ext_fullpath(ext.name)
                if os.path.exists(path):
                    os.utime(path)
        notice(f"compiled the engine with mypyc in {time.perf_counter() - start:.0f} s")

    def _remove_outputs(self) -> None:
        # A half-built set of modules must not shadow the pure ones.
        for path in self.get_outputs():
            if os.path.exists(path):
                os.remove(path)
        if self.inplace:
            for ext in self.extensions:
                path = self.get_ext_fullpath(ext.name)
                if os.path.exists(path):
                    os.remove(path)


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
