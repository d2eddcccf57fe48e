"""Which build runs: ``parlor.BUILD``, ``PARLOR_PURE`` and setup.py's module list."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import parlor

ROOT = Path(__file__).resolve().parent.parent


def test_build_names_what_was_imported():
    assert parlor.BUILD in ("compiled", "pure")
    for name in parlor._COMPILED:
        module = importlib.import_module(name)
        compiled = not module.__file__.endswith(".py")
        assert compiled == (parlor.BUILD == "compiled"), f"{name} from {module.__file__} in a {parlor.BUILD} build"


def test_the_build_ci_asked_for():
    # scripts/test sets PARLOR_EXPECT_BUILD, so a compile that silently fell back fails CI.
    expected = os.environ.get("PARLOR_EXPECT_BUILD")
    if expected:
        assert expected == parlor.BUILD


def test_setup_compiles_the_modules_parlor_lists():
    text = (ROOT / "setup.py").read_text()
    block = text.split("COMPILED = [", 1)[1].split("]", 1)[0]
    paths = re.findall(r'"src/([^"]+)\.py"', block)
    assert tuple(p.replace("/", ".") for p in paths) == parlor._COMPILED


def test_parlor_pure_at_run_time_runs_the_sources():
    code = "import parlor, parlor.games.mottainai.rules as r; print(parlor.BUILD, r.__file__.endswith('.py'))"
    env = {**os.environ, "PARLOR_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["pure", "True"]


def test_version_says_which_build():
    out = subprocess.run(
        [sys.executable, "-m", "parlor", "--version"], capture_output=True, text=True, timeout=300, env=os.environ
    )
    assert out.returncode == 0
    assert out.stdout.startswith(f"parlor {parlor.__version__}, ")
    assert ("compiled build" in out.stdout) == (parlor.BUILD == "compiled")
