"""Compiled code without a silent wait.

The propagation engine (``solvers.propagation``) is compiled ahead of time by mypyc, from its
one Python source, when the package is built (``pip install .``, ``make setup``: see
``setup.py``); the build leaves a stamp naming the source it compiled. A process imports the
compiled modules only when they were compiled from the source as it is now, and the source
itself otherwise (or when ``BATTLESHIPS_ENGINE=python`` asks for it): an engine never runs
code older than its source, and a machine without a C compiler runs the same rules as Python.

numba compiles a function the first time a process calls it unless its cache holds the
machine code for the current source; compiling the clause learner takes half a minute to a
minute. A process that finds the cache empty does not wait: it runs what it has without that
code (the portfolio without clause learning), and one process in the background compiles the
code into the cache for the processes after it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK_SECONDS = 300      # a build started this recently is left to finish
ENGINE_STAMP = ROOT / "solvers" / "compiled-engine.json"     # module name -> sha256 of the source compiled


def load_engine() -> str:
    """Import the engine's modules compiled if they were compiled from their current source,
    else from the source (before anything imports them; ``solvers.propagation`` calls this):
    "compiled" or "python"."""
    try:
        stamp = json.loads(ENGINE_STAMP.read_text())
    except (OSError, ValueError):
        return "python"
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    found = {name: (ROOT / name.replace(".", "/")).with_suffix(".py") for name in stamp}
    built = [name for name, source in found.items() if source.with_suffix(suffix).exists()]
    if not built:
        return "python"
    if os.environ.get("BATTLESHIPS_ENGINE") != "python" and len(built) == len(stamp) and all(
            hashlib.sha256(source.read_bytes()).hexdigest() == stamp[name] for name, source in found.items()):
        return "compiled"
    for name, source in found.items():      # in the stamp's order: each after those it imports
        spec = importlib.util.spec_from_file_location(name, source)
        assert spec is not None and spec.loader is not None, source
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        package, _, leaf = name.rpartition(".")
        setattr(sys.modules[package], leaf, module)
    return "python"

_ready: dict[str, bool] = {}        # per module, for the life of the process


def cached(dispatcher) -> bool:
    """Whether numba's cache holds machine code for ``dispatcher`` (an ``njit(cache=True)``
    function) compiled from its current source. (numba's own index, read as numba reads it
    before it compiles: empty when the source changed since.)"""
    try:
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - another numba, or no cache: as good as not compiled
        return False


def ready(module: str, dispatcher) -> bool:
    """Whether this process may call ``dispatcher`` without compiling it. Asked once per
    process and module: when the cache is empty, the code is compiled in the background
    (:func:`compile_in_background`) and this process goes on without it to its end."""
    found = _ready.get(module)
    if found is None:
        found = _ready[module] = cached(dispatcher)
        if not found:
            compile_in_background(module)
    return found


def compile_in_background(module: str) -> bool:
    """Start one process that runs ``module.warm_up()`` (which compiles into the cache),
    unless one started less than ``LOCK_SECONDS`` ago; True if it was started."""
    lock = Path(tempfile.gettempdir()) / f"battleships-compile-{os.getuid() if hasattr(os, 'getuid') else 0}-{module}"
    try:
        if time.time() - lock.stat().st_mtime < LOCK_SECONDS:
            return False
    except OSError:
        pass
    try:
        lock.touch()
        subprocess.Popen([sys.executable, "-c", f"import {module} as m; m.warm_up()"], cwd=ROOT,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    except OSError:
        return False
    return True
