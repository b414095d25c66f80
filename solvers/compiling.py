"""Compiled code without a silent wait: whether numba's cache already holds a function's
machine code, and building it in a process of its own when it does not. (The propagation
engine is compiled ahead of time instead: see ``game.compiled``.)

numba compiles a function the first time a process calls it unless its cache holds the
machine code for the current source; compiling the clause learner takes half a minute to a
minute. A process that finds the cache empty does not wait: it runs what it has without that
code (the portfolio without clause learning), and one process in the background compiles the
code into the cache for the processes after it.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[1]
LOCK_SECONDS = 300      # a build started this recently is left to finish

_ready: dict[str, bool] = {}        # per module, for the life of the process
_waiting: dict[str, str] = {}       # the modules this process is waiting for, and what each is


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
    unless one started less than ``LOCK_SECONDS`` ago for this copy of the program (each
    install or checkout has its own cache, so its own lock); True if it was started."""
    user = os.getuid() if hasattr(os, "getuid") else 0
    copy = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
    lock = Path(tempfile.gettempdir()) / f"battleships-compile-{user}-{copy}-{module}"
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


@contextmanager
def waiting(module: str, what: str) -> Iterator[None]:
    """While this block runs, this process waits for ``module``'s build in the background
    (``what`` it is, as a user says it: "clause learning"): :func:`notice` says so."""
    _waiting[module] = what
    try:
        yield
    finally:
        _waiting.pop(module, None)


def notice() -> str:
    """What this process is waiting for the compiler to build, as a line for a user (a progress
    line adds it); "" when it waits for nothing."""
    whats = tuple(_waiting.values())            # (set by whichever thread waits)
    return "; ".join(f"{what} is being compiled, once (about a minute)" for what in whats)
