"""A solver of your own, run in a process of its own and read back as events.

The level goes to the child's standard input as its ``.bs`` JSON (with its size and fleet
spelled out, and never its solution); the child writes trace lines on its standard output,
which pass the contract checker (``check``) one by one. The child runs in a session of its
own, so closing this generator (a Stop, a time-out, the window closing) kills it and any
program it started, whatever it is doing. While it says nothing on its standard output
(silent, or writing on its standard error alone) this generator still yields a ``Progress``
every ``HEARTBEAT`` seconds, so that a consumer can stop a solver that never writes. Its
limits: ``time_limit`` seconds of wall time (the time its consumer keeps an event waiting, a
window paused or animating slowly, left out: the child then waits on its full pipe),
``memory_mb`` of address space (``RLIMIT_AS``, set in the child before the solver runs) and
``output_mb`` of output. The ``seconds`` a solver
says it took are left out of its result: its time is measured outside.

Every problem ends the run with one ``Result`` of status ``error`` whose message names the
solver and the problem; a board it claims as solved is judged by the rules first, and a "no
solution" is checked by the project's exact search (``solvers.engine.verdict.decide``) for
``CHECK_SECONDS``.
"""

from __future__ import annotations

import json
import math
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Iterator

from game import files, levels, rules
from game.puzzle import Cell, Grid, Puzzle, grid_to_strings, initial_grid, seconds_said
from solvers.common import add_found, add_stats, verified
from solvers.engine.runner import stop_asked
from solvers.engine.trace import MAX_LINE_BYTES
from solvers.engine.verdict import Kind, decide
from solvers.events import Event, Failure, Found, Progress, Reason, Result, SetCell, Status, Stream
from solvers.own.check import Contract, ContractError
from solvers.own.child import PARENT

ROOT = Path(__file__).resolve().parents[2]
HEARTBEAT = 0.05         # seconds without output before a Progress is yielded
CHUNK = 1 << 16
STDERR_KEPT = 4096       # bytes of the child's standard error kept for the report
ENDING = 0.5             # seconds a child that has given its result is given to exit
CHECK_SECONDS = 3.0      # seconds the exact search is given to refute a "no solution"


def level_text(puzzle: Puzzle) -> str:
    """The level as a solver reads it: ``.bs`` JSON on one line, ``rows``, ``cols`` and
    ``fleet`` always present, no ``solution``."""
    data = levels.to_dict(puzzle.replace(solution=None))
    data.update(rows=puzzle.rows, cols=puzzle.cols, fleet={str(n): count for n, count in puzzle.fleet})
    return json.dumps(data, separators=(",", ":")) + "\n"


def command(kind: str, target: str, args: tuple[str, ...], options: dict, seed: int, memory_mb: int,
            time_limit: float) -> list[str]:
    """The child's command line (see ``solvers.own.child``)."""
    cpu = math.ceil(time_limit) + 2
    head = [sys.executable, "-m", "solvers.own.child", str(memory_mb), str(cpu), str(seed), kind, target]
    return head + (list(args) if kind == "exec" else [json.dumps(options)])


def _environment() -> dict:
    env = dict(os.environ)
    env[PARENT] = str(os.getpid())
    paths = [str(ROOT)] + [p for p in sys.path if p and os.path.isdir(p)]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    return env


def events(puzzle: Puzzle, *, name: str, kind: str, target: str, args: tuple[str, ...], options: dict, seed: int,
           time_limit: float, memory_mb: int, output_mb: int) -> Stream:
    """Run the solver ``name`` (see ``spec.ExternalSpec``) and yield its checked events, then one ``Result``."""
    stdin = tempfile.TemporaryFile()
    stdin.write(level_text(puzzle).encode("utf-8"))
    stdin.seek(0)
    started = time.perf_counter()
    try:
        child = subprocess.Popen(command(kind, target, args, options, seed, memory_mb, time_limit), stdin=stdin,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_environment(),
                                 start_new_session=True, close_fds=True)
    except OSError as error:
        stdin.close()
        yield Result(Status.ERROR, message=f"{name}: cannot be started ({files.reason(error)})")
        return
    stdin.close()
    try:
        for event in _read(puzzle, child, name, started, time_limit, output_mb * 1024 * 1024, memory_mb):
            if isinstance(event, Result) and "seconds" in event.stats:
                # Its time is measured by whoever runs it (a bench, a race), never taken at its word.
                event = replace(event, stats={k: v for k, v in event.stats.items() if k != "seconds"})
            yield event
    finally:
        _end(child)


def _end(child: subprocess.Popen) -> None:
    """Kill the child and whatever it started (its session), and reap it: its group is killed
    even when the child has ended, since a program it started may still be running."""
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except OSError:
        if child.poll() is None:
            child.kill()
    for stream in (child.stdout, child.stderr):
        if stream is not None:
            stream.close()
    try:
        child.wait(timeout=2)
    except subprocess.TimeoutExpired:
        pass


def _read(puzzle: Puzzle, child: subprocess.Popen, name: str, started: float, time_limit: float,
          output_limit: int, memory_mb: int) -> Iterator[Event]:
    contract = Contract(puzzle)
    board = bytearray(v for row in initial_grid(puzzle) for v in row)
    cols = puzzle.cols
    selector = selectors.DefaultSelector()
    assert child.stdout is not None and child.stderr is not None     # (both pipes: ``events`` opens them)
    out, err = child.stdout.fileno(), child.stderr.fileno()
    selector.register(out, selectors.EVENT_READ)
    selector.register(err, selectors.EVENT_READ)
    pending, stderr_tail, total, failure = b"", b"", 0, ""
    stats: dict = {}
    met: dict[Grid, None] = {}               # the boards its found lines gave (a bounded number)
    open_streams = 2
    said_at = time.perf_counter()           # when an event was last yielded
    held = 0.0      # seconds its consumer kept it waiting (a window paused or animating): not its time
    while open_streams:
        now = time.perf_counter()
        if now - started - held > time_limit:
            message = f"{name}: no answer within its time limit of {seconds_said(time_limit)}"
            yield Result(Status.TIMEOUT, None, stats, (), message)
            return
        if now - said_at >= HEARTBEAT:      # silent on its output, however much it writes on stderr
            yield Progress({})
            said_at = time.perf_counter()
            held += said_at - now
        ready = selector.select(HEARTBEAT)
        if not ready:
            continue
        for key, _ in ready:
            chunk = os.read(key.fd, CHUNK)
            if not chunk:
                selector.unregister(key.fd)
                open_streams -= 1
            if key.fd == err:
                stderr_tail = (stderr_tail + chunk)[-STDERR_KEPT:]
                continue
            total += len(chunk)
            if total > output_limit:
                yield _error(f"{name}: wrote more than its output limit of {output_limit // (1 << 20):,} MB", stats)
                return
            lines = (pending + chunk).split(b"\n")
            pending = lines.pop() if chunk else b""
            if len(pending) > MAX_LINE_BYTES:
                yield _error(f"{name}: output line {contract.lines + 1}: line is longer than "
                             f"{MAX_LINE_BYTES:,} bytes", stats)
                return
            if lines:
                said_at = time.perf_counter()
            for raw in lines:
                if not chunk and not raw.strip():
                    continue
                try:
                    said = contract.line(raw)
                except ContractError as error:
                    yield _error(f"{name}: {error}", stats)
                    return
                if isinstance(said, Result):
                    yield from _answer(puzzle, said, board, name, stats, met)
                    return
                for event in said:
                    if type(event) is SetCell:
                        board[event.row * cols + event.col] = event.value
                    elif isinstance(event, Failure):
                        failure = event.message
                    elif isinstance(event, Progress) and event.stats:
                        add_stats(stats, event.stats)
                    elif isinstance(event, Found):
                        add_found(met, event.grid)
                    asked = time.perf_counter()
                    yield event
                    held += time.perf_counter() - asked
    yield _error(f"{name}: {_ending(child, failure, stderr_tail, memory_mb)}", stats)


def _error(message: str, stats: dict) -> Result:
    return Result(Status.ERROR, None, dict(stats), (), message)


def _ending(child: subprocess.Popen, failure: str, stderr_tail: bytes, memory_mb: int) -> str:
    """Why a child stopped without a result line, in a few words."""
    if failure:
        return failure
    try:
        code = child.wait(timeout=ENDING)
    except subprocess.TimeoutExpired:
        code = None
    words = stderr_tail.decode("utf-8", "replace").strip().splitlines()
    last = f"; its last words: {words[-1][:200]}" if words else ""
    if code is not None and code < 0:
        try:
            signame = signal.Signals(-code).name
        except ValueError:
            signame = f"signal {-code}"
        hint = f" (out of memory? its limit is {memory_mb:,} MB)" if signame in ("SIGSEGV", "SIGABRT", "SIGBUS") else ""
        return f"was killed by {signame}{hint} before giving a result{last}"
    if code is None:
        return f"closed its output without a result line, and was stopped{last}"
    return f"ended (exit status {code}) without a result line{last}"


def _answer(puzzle: Puzzle, result: Result, board: bytearray, name: str, stats: dict,
            met: dict[Grid, None]) -> Iterator[Event]:
    """The solver's result, judged: a board it claims is checked by the rules; when they
    accept it, the cells its events left otherwise are set as its answer says (a ``fill``).
    A "no solution" after a found line whose board the rules accept is refuted by it, and
    otherwise checked by the exact search (``_no_solution``)."""
    stats = dict(stats)
    add_stats(stats, result.stats)
    if result.status is Status.NO_SOLUTION and any(rules.is_solved(puzzle, grid) for grid in met):
        yield Result(Status.ERROR, None, stats, (), f"{name}: said there is no solution, but a board it found "
                                                    "is one the rules accept")
        return
    if result.status is Status.NO_SOLUTION:
        yield _no_solution(puzzle, result.message, name, stats)
        return
    if result.status is not Status.SOLVED:
        message = (f"{name}: {result.message or 'gave the verdict error without a message'}"
                   if result.status is Status.ERROR else result.message)
        yield Result(result.status, None, stats, (), message)
        return
    assert result.grid is not None      # (a solved result line has its board: ``trace.result_of``)
    judged = verified(puzzle, result.grid, stats)
    if judged.status is not Status.SOLVED:
        problem = judged.message.split(": ", 1)[-1]
        yield Result(Status.ERROR, None, stats, (), f"{name}: claimed a wrong solution: {problem}")
        return
    assert judged.grid is not None      # (``verified`` gives the board it judged)
    cols = puzzle.cols
    for r, row in enumerate(judged.grid):
        for c, value in enumerate(row):
            if board[r * cols + c] != value:
                yield SetCell(r, c, Cell(value), Reason.FILL, "as the solver's answer says")
    yield judged


def _no_solution(puzzle: Puzzle, message: str, name: str, stats: dict) -> Result:
    """A "no solution" checked by the exact search (``decide``) within ``CHECK_SECONDS``: an
    ``error`` naming the solution it finds (every board it reports is judged by the rules); as
    the solver said when it proves there is none; as said but marked unchecked when it does
    not decide in time."""
    verdict = decide(puzzle, timeout=CHECK_SECONDS, cancelled=stop_asked)     # a run stopped ends it
    if verdict.solutions:
        board = "/".join(grid_to_strings(verdict.solutions[0]))
        return Result(Status.ERROR, None, stats, (),
                      f"{name}: said there is no solution, but the level has one: {board}")
    if verdict.kind is Kind.UNDECIDED:
        unchecked = f"unchecked: the exact search did not decide within {CHECK_SECONDS:g} s"
        message = f"{message} ({unchecked})" if message else unchecked
    return Result(Status.NO_SOLUTION, None, stats, (), message)
