"""What runs inside a solver's own process: limits first, then the solver.

    python -m solvers.own.child MEMORY_MB CPU_S SEED file PATH OPTIONS_JSON
    python -m solvers.own.child MEMORY_MB CPU_S SEED module NAME OPTIONS_JSON
    python -m solvers.own.child MEMORY_MB CPU_S SEED exec PROGRAM [ARGS...]

The address-space limit (``RLIMIT_AS``) is set before anything of the solver runs, and a
processor-time limit (``RLIMIT_CPU``) a little above its time limit; on Linux the process is
also killed when the program that started it is gone without stopping it (a solver that
sleeps or waits spends no processor time), a request that holds through the exec of a
program. A program (``exec``) then replaces this process, with the level on its standard
input. A Python solver is loaded and called as ``solve(puzzle, report, options)``:
``puzzle`` is the level as a read-only ``game.puzzle.Puzzle``, ``report`` writes its events
as trace lines on the process's standard output (the solver's own ``print`` goes to
standard error instead), and what ``solve`` returns is its answer: the solved board as row
strings (``#`` ship, ``.`` water), or ``None`` when the level has no solution. Whatever goes
wrong becomes one ``failure`` line that names the problem, and the process exits.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import random
import resource
import sys
import traceback
from types import MappingProxyType
from typing import Any


class Report:
    """The events of a Python solver, written as trace lines (docs/guide/racing-and-replay.md,
    "Traces"), each as it comes: ``out`` is line-buffered, so a solver that thinks long after a
    move shows it at once (flushing every line measured no slower: the reading side sets the pace)."""

    def __init__(self, out) -> None:
        self._write = out.write
        self._parts: dict = {}          # the constant parts of a cell line, before and after its cell

    def set(self, row: int, col: int, state: str, kind: str = "guess", depth: int = 0, detail: str = "") -> None:
        """Cell (row, col) becomes ``state`` ("ship", "water" or "unknown"), because of ``kind``:
        "forced" (a deduction), "guess" (a decision), "backtrack" (undone: state "unknown")
        or "fill"; ``depth`` is the number of guesses in force, ``detail`` the reason in words."""
        key = (kind, state, depth, detail)
        parts = self._parts.get(key)
        if parts is None:
            if len(self._parts) > 4096:
                self._parts.clear()
            parts = self._parts[key] = (f'{{"kind":{json.dumps(kind)},"cells":[{{"row":',
                                        f',"state":{json.dumps(state)}}}],"depth":{json.dumps(depth)},'
                                        f'"detail":{json.dumps(detail)}}}\n')
        head, tail = parts
        if type(row) is int and type(col) is int:
            self._write(f'{head}{row},"col":{col}{tail}')
        else:                                   # a solver's own values, whatever they are
            self._write(f'{head}{json.dumps(row, default=str)},"col":{json.dumps(col, default=str)}{tail}')

    def progress(self, **stats: Any) -> None:
        """A heartbeat with statistics so far (numbers or text), e.g. ``nodes=..., backtracks=...``."""
        self._line({"kind": "progress", "cells": [], "stats": stats})

    def found(self, rows: list[str]) -> None:
        """A solution met while the search goes on (row strings, ``#`` ship, ``.`` water)."""
        self._line({"kind": "found", "cells": [], "solution": list(rows)})

    def _line(self, data: dict) -> None:
        self._write(json.dumps(data, default=str) + "\n")


def _where(error: BaseException, path: str) -> str:
    """`` (FILE, line N)``: the deepest frame in the solver's own file, if any."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if path and os.path.abspath(f.filename) == path]
    frame = frames[-1] if frames else None
    return f" ({os.path.basename(frame.filename)}, line {frame.lineno})" if frame else ""


def _fail(out, message: str) -> int:
    try:
        out.write(json.dumps({"kind": "failure", "cells": [], "message": message}) + "\n")
        out.flush()
    except OSError:
        pass
    return 1


def _load(kind: str, target: str):
    if kind == "module":
        return importlib.import_module(target)
    path = os.path.abspath(target)
    sys.path.insert(0, os.path.dirname(path))
    spec = importlib.util.spec_from_file_location("solver_of_your_own", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{target} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_python(kind: str, target: str, options: dict, seed: int, memory_mb: int, out) -> int:
    from game import levels

    path = os.path.abspath(target) if kind == "file" else ""
    try:
        puzzle = levels.from_dict(json.loads(sys.stdin.read()), "the level")
    except (ValueError, levels.LevelError) as error:
        return _fail(out, f"the level on standard input cannot be read: {error}")
    try:
        module = _load(kind, target)
    except MemoryError:
        return _fail(out, f"ran out of memory while loading (its limit is {memory_mb:,} MB)")
    except BaseException as error:  # noqa: BLE001 - a solver that cannot load is reported, whatever it raised
        return _fail(out, f"cannot be loaded: {type(error).__name__}: {error}{_where(error, path)}")
    solve = getattr(module, "solve", None)
    if not callable(solve):
        return _fail(out, "has no function solve(puzzle, report, options)")
    random.seed(seed)
    report = Report(out)
    try:
        answer = solve(puzzle, report, MappingProxyType(dict(options)))
    except MemoryError:
        return _fail(out, f"ran out of memory (its limit is {memory_mb:,} MB)")
    except RecursionError as error:
        return _fail(out, f"recursed too deep{_where(error, path)}")
    except BaseException as error:  # noqa: BLE001 - the solver's bug, reported in one line
        return _fail(out, f"raised {type(error).__name__}: {error}{_where(error, path)}")
    result: dict[str, object]
    if answer is None:
        result = {"kind": "result", "verdict": "no_solution"}
    elif not _a_board(answer, puzzle.rows, puzzle.cols):
        return _fail(out, f"solve returned {levels.short_repr(answer)}, not a board: {puzzle.rows} strings of "
                          f"{puzzle.cols} characters, '#' ship and '.' water (or None: no solution)")
    else:
        result = {"kind": "result", "verdict": "solved", "solution": list(answer)}
    out.write(json.dumps(result, default=repr) + "\n")
    out.flush()
    return 0


def _a_board(answer: Any, rows: int, cols: int) -> bool:
    return (isinstance(answer, (list, tuple)) and len(answer) == rows
            and all(isinstance(row, str) and len(row) == cols and not set(row) - {"#", "."} for row in answer))


PARENT = "BATTLESHIPS_SOLVER_PARENT"     # the environment's name for the process id of the one that started it
PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """On Linux, ask for SIGKILL when the process that started this one ends; exit at once
    when it has ended already (before the request was made)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.environ.get(PARENT, str(os.getppid())) != str(os.getppid()):
        os._exit(1)


def main(argv: list[str]) -> int:
    memory_mb, cpu_seconds, seed, kind, target, *rest = argv
    _die_with_parent()
    memory = int(memory_mb) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CPU, (int(cpu_seconds), int(cpu_seconds) + 1))
    if memory > 0:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    if kind == "exec":
        try:
            os.execvp(target, [target, *rest])
        except OSError as error:
            return _fail(sys.stdout, f"cannot start {target}: {error.strerror or error}")
    # The solver's own prints go to standard error; standard output carries its events only.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        return run_python(kind, target, json.loads(rest[0]), int(seed), int(memory_mb), out)
    except BrokenPipeError:
        return 0            # the run was stopped: nobody reads any more


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
