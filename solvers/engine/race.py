"""A race: several solvers on one puzzle, each judged and measured, then ranked.

Headless races run the solvers one after another in this thread: Python runs one thread at a
time, so solvers sharing a core would only slow each other and blur their times. Each run is
its solver's event stream (with its moves, so they can be counted), stopped at the first
event after its ``timeout``; solvers yield at least every few milliseconds, so a stop takes
effect within a fraction of a second. Every solution is judged by the rules (``batch.judge``).
"""

from __future__ import annotations

import os
import time
from typing import Iterable, Union

from game import files
from game.puzzle import Hint, Puzzle, seconds_said
from solvers.common import add_found, add_stats, count
from solvers.contract import SolverSpec
from solvers.engine import registry
from solvers.engine.batch import board_text, judge, solution_lines, table
from solvers.events import Event, Failure, Found, Generation, Reason, Result, SetCell, Status
from solvers.own import spec as own

FIELDS = ("rank", "solver", "verdict", "time_s", "nodes", "backtracks", "guesses", "generations", "moves",
          "solution")
ANSWERED = (Status.SOLVED.value, Status.NO_SOLUTION.value)


class Tally:
    """Counts what a run did from its events: moves (cell changes), guesses (search decisions;
    consecutive guess moves at one depth are one decision, a ship and the water around it),
    generations, and the latest statistics."""

    def __init__(self) -> None:
        self.moves = 0
        self.guesses = 0
        self.generations = 0
        self.stats: dict = {}
        self.found: dict = {}                   # the boards met, each once (``add_found``)
        self.failure = ""
        self._guess_depth = -1

    def add(self, event: Event) -> None:
        if isinstance(event, SetCell):
            self.moves += 1
            if event.reason is Reason.GUESS:
                if event.depth != self._guess_depth:
                    self.guesses += 1
                self._guess_depth = event.depth
            else:
                self._guess_depth = -1
            if event.stats:
                add_stats(self.stats, event.stats)
            return
        if isinstance(event, Generation):
            self.generations += 1
        elif isinstance(event, Found):
            add_found(self.found, event.grid)
        elif isinstance(event, Failure):
            self.failure = event.message
        stats = getattr(event, "stats", None)
        if stats:
            add_stats(self.stats, stats)


def runnable(spec: SolverSpec, puzzle: Puzzle) -> bool:
    """Whether the solver handles what the level holds (unknown tallies, ship pieces of unknown shape)."""
    unknown_tallies = None in puzzle.row_tallies or None in puzzle.col_tallies
    unknown_shapes = Hint.SHIP in puzzle.hints.values()
    return (spec.unknown_tallies or not unknown_tallies) and (spec.unknown_shapes or not unknown_shapes)


def choose(puzzle: Puzzle, names: Iterable[str] | None = None) -> list[str]:
    """The solvers to race: ``names`` checked (ValueError naming the problem), or every
    registered solver that can run on the level."""
    if names is None:
        return [name for name, spec in registry.SOLVERS.items() if runnable(spec, puzzle)]
    chosen = []
    for name in (n.strip() for n in names):
        spec = registry.get(name)
        if not runnable(spec, puzzle):
            raise ValueError(f"solver {name!r} cannot run on this level (unknown tallies or ship shapes)")
        if name not in chosen:
            chosen.append(name)
    if not chosen:
        raise ValueError("no solver to race")
    return chosen


def run_one(puzzle: Puzzle, name: str, timeout: float | None = None, seed: int = 0) -> dict:
    """One solver's record (unranked): its judged verdict, wall time and counts."""
    tally = Tally()
    started = time.perf_counter()
    spec = registry.get(name)
    stream = spec.events(puzzle, trace=True, seed=seed, limit=1, options=own.within(spec, timeout))
    result: Result | None = None
    try:
        for event in stream:
            if isinstance(event, Result):
                result = event
                break
            tally.add(event)
            if timeout is not None and time.perf_counter() - started > timeout:
                result = Result(Status.TIMEOUT, None, tally.stats, tuple(tally.found),
                                f"no answer within {seconds_said(timeout)}")
                break
    except Exception as error:  # noqa: BLE001 - a broken solver loses the race, the others still run
        result = Result(Status.ERROR, None, tally.stats, (), f"solver failed: {type(error).__name__}: {error}")
    finally:
        stream.close()
    elapsed = time.perf_counter() - started
    if result is None:
        result = Result(Status.ERROR, None, tally.stats, (), tally.failure or "solver ended without a result")
    add_stats(tally.stats, result.stats)
    return record_of(name, tally, judge(puzzle, result), elapsed)


def record_of(name: str, tally: Tally, result: Result, elapsed: float) -> dict:
    """A run's record from its counts and its judged result (a headless race, a window lane)."""
    stats = tally.stats
    record = {
        "solver": name, "verdict": result.status.value, "time_s": round(elapsed, 6),
        "nodes": count(stats, "nodes"), "backtracks": count(stats, "backtracks"),
        "guesses": tally.guesses, "generations": count(stats, "generations", tally.generations),
        "moves": tally.moves,
        "solution": solution_lines(result),
    }
    if result.message:
        record["message"] = result.message
    return record


def rank(records: list[dict]) -> list[dict]:
    """Answers first (solved or no solution), faster first, each with its ``rank`` (1 = best)
    in front; then the runs without an answer (stopped, out of time, failed) in the order
    given, unranked (``rank`` None): a run that ended sooner without an answer did no better.
    A "no solution" beside a board the judge accepted (a ``solved`` record) is refuted by it:
    an error, never an answer."""
    solved = next((r["solver"] for r in records if r["verdict"] == Status.SOLVED.value), None)
    if solved is not None:
        records = [{**r, "verdict": Status.ERROR.value,
                    "message": f"said there is no solution, but {solved} found one the rules accept"}
                   if r["verdict"] == Status.NO_SOLUTION.value else r for r in records]
    answers = sorted((r for r in records if r["verdict"] in ANSWERED), key=lambda r: r["time_s"])
    return ([{"rank": place, **record} for place, record in enumerate(answers, start=1)]
            + [{"rank": None, **record} for record in records if record["verdict"] not in ANSWERED])


def shown_rank(record: dict) -> str:
    """A record's rank as a table shows it: a dash for a run without an answer."""
    return "–" if record["rank"] is None else str(record["rank"])


def race(puzzle: Puzzle, names: Iterable[str], timeout: float | None = None, seed: int = 0) -> list[dict]:
    """Run each solver in turn, each within ``timeout`` seconds; the ranked records."""
    return rank([run_one(puzzle, name, timeout, seed) for name in names])


def write_csv(path: Union[str, os.PathLike], records: list[dict]) -> None:
    """The race table as CSV (``game.files.write_csv``): one row per solver in ``FIELDS``
    order, the solution's rows joined by '/' ('' when there is none)."""
    files.write_csv(path, list(FIELDS), ([("/".join(record[f]) if record[f] else "") if f == "solution"
                                          else record.get(f, "") for f in FIELDS] for record in records))


def text(puzzle: Puzzle, records: list[dict]) -> str:
    """The ranked table, then each distinct solution once with the solvers that found it."""
    heads = [f for f in FIELDS if f != "solution"]
    rows = [[shown_rank(record) if f == "rank" else f"{record[f]:.3f}" if f == "time_s" else str(record[f])
             for f in heads] for record in records]
    lines = [table(heads, rows)]
    for record in records:
        message, name = record.get("message"), f"{record['solver']}: "
        if message:                 # a solver of one's own names itself in its messages already
            lines.append(message if message.startswith(name) else name + message)
    solutions: dict[tuple, list[str]] = {}
    for record in records:
        if record["solution"]:
            solutions.setdefault(tuple(record["solution"]), []).append(record["solver"])
    for solution, solvers in solutions.items():
        lines.append(f"\nsolution (verified) of {', '.join(solvers)}:\n{board_text(puzzle, list(solution))}")
    return "\n".join(lines)
