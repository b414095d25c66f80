"""Helpers every solver shares: verifying answers with the judge, draining streams, work
done in slices as heartbeats, the seconds a run has taken as its statistics say them, the
statistics and boards met that a run keeps (within bounds), a statistic read as a count,
and the Luby sequence of restarts (the forward search's on giant boards, compiled for
clause learning)."""

from __future__ import annotations

import math
import time
from typing import Any, Generator, Iterable, Mapping, Sequence, TypeVar

from game import rules
from game.limits import MAX_TRACE_STATS
from game.puzzle import Cell, Grid, Puzzle, seconds_said
from game.slices import Slices
from solvers.events import Event, Found, Progress, Result, SetCell, Status

T = TypeVar("T")
BEAT_SECONDS = 0.02         # at most this long between two heartbeats of work done in slices


def elapsed(started: float) -> float:
    """The seconds since ``started`` (a ``time.perf_counter()`` value), to the microsecond."""
    return round(time.perf_counter() - started, 6)


def beating(work: Slices[T]) -> Generator[Event, None, T]:
    """The value of ``work`` (``game.slices``: a solver's model built on a fresh board, say),
    with a ``Progress`` heartbeat between its slices every ``BEAT_SECONDS``: a consumer can
    stop the solver there, as between any of its events."""
    started = last = time.perf_counter()
    try:
        while True:
            next(work)
            now = time.perf_counter()
            if now - last > BEAT_SECONDS:
                last = now
                yield Progress({"seconds": elapsed(started)})
    except StopIteration as stop:
        return stop.value
    finally:
        work.close()


MAX_MET = 64        # the different boards met (``Found``) that a run keeps for its result


def add_found(met: dict, grid: Grid) -> None:
    """Keep a board met (a ``Found``) for the run's result, in ``met`` (boards as keys, in
    order): each once, and at most ``MAX_MET``, so a solver that reports boards without end
    takes no more memory."""
    if len(met) < MAX_MET:
        met.setdefault(grid, None)


def add_stats(into: dict, said: Mapping[str, Any]) -> None:
    """Statistics said later replace those said before; a name not held yet is added only
    while fewer than ``MAX_TRACE_STATS - 1`` are held (the one left is for the run's
    ``seconds``): a solver that names new statistics without end takes no more memory, and
    its run's result stays a line that a trace can hold."""
    for name, value in said.items():
        if name in into or len(into) < MAX_TRACE_STATS - 1:
            into[name] = value


def count(stats: Mapping[str, Any], key: str, default: int = 0) -> int:
    """The statistic ``key`` as a whole number for a table: a finite number is cut to one,
    anything else (missing, text, null, true/false, a group: a solver of one's own may say
    any of these) is ``default``."""
    value = stats.get(key, default)
    if type(value) is int:
        return value
    return int(value) if type(value) is float and math.isfinite(value) else default


def unknown_as_water(grid: Grid) -> Grid:
    """Unknown cells of a finished board are water."""
    return tuple(tuple(Cell.WATER if v == Cell.UNKNOWN else Cell(v) for v in row) for row in grid)


def verified(puzzle: Puzzle, grid: Grid, stats: dict, solutions: tuple[Grid, ...] = ()) -> Result:
    """A ``solved`` result only if the judge agrees; a solver bug becomes an ``error``."""
    board = unknown_as_water(grid)
    problems = rules.violations(puzzle, board)
    if problems:
        return Result(Status.ERROR, board, stats, solutions,
                      "solver produced an invalid board: " + "; ".join(p.message for p in problems[:3]))
    return Result(Status.SOLVED, board, stats, solutions or (board,))


def answer(puzzle: Puzzle, solutions: Sequence[Grid], stats: dict) -> Result:
    """An exact search's result: ``no_solution`` when it met none; else the first solution met,
    every one of them judged (a solver bug becomes an ``error``)."""
    if not solutions:
        return Result(Status.NO_SOLUTION, None, stats, (), "no solution")
    grids = tuple(solutions)
    for extra in grids[1:]:
        judged = verified(puzzle, extra, stats, grids)
        if judged.status is Status.ERROR:
            return judged
    return verified(puzzle, grids[0], stats, grids)


def run_to_result(stream: Iterable[Event], timeout: float | None = None) -> Result:
    """Drain a solver's events; stop it with status ``timeout`` after ``timeout`` seconds
    (its ``solutions`` are then those the solver had found, unjudged)."""
    start = time.perf_counter()
    iterator = iter(stream)
    last_stats: dict = {}
    found: dict[Grid, None] = {}
    try:
        for event in iterator:
            if isinstance(event, Result):
                return event
            if isinstance(event, Found):
                add_found(found, event.grid)
            stats = getattr(event, "stats", None)
            if stats:
                last_stats = dict(stats)
            if timeout is not None and time.perf_counter() - start > timeout:
                last_stats["seconds"] = elapsed(start)
                return Result(Status.TIMEOUT, None, last_stats, tuple(found),
                              f"no answer within {seconds_said(timeout)}")
    finally:
        close = getattr(iterator, "close", None)
        if close:
            close()
    return Result(Status.ERROR, None, last_stats, (), "solver ended without a result")


def replay(start: Grid, events: Iterable[Event]) -> Grid:
    """Apply every SetCell of a run onto ``start``."""
    board = [list(row) for row in start]
    for event in events:
        if isinstance(event, SetCell):
            board[event.row][event.col] = event.value
    return tuple(tuple(row) for row in board)


def luby(i: int) -> int:
    """The ``i``-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)
