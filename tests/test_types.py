"""The program type-checks: mypy, with the configuration in pyproject.toml (main.py, game/,
solvers/, window/), finds no error. The engine's modules must pass it anyway to be compiled by
mypyc; the rest is held to the same types so that a None, a wrong argument or a missing
attribute is found here rather than in a player's window."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_error(tmp_path):
    pytest.importorskip("mypy", reason="mypy is a development requirement (requirements-dev.txt)")
    env = {**os.environ, "MYPY_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Success: no issues found" in done.stdout
