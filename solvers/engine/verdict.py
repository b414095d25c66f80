"""The one answer to "how many solutions?": impossible, unique, ambiguous or undecided.

``decide(puzzle, limit, timeout, jobs)`` is what ``check``, the grader, the generator, the
portfolio's callers and the window's hints all ask. It runs the complete search (several
orders racing on ``jobs`` cores, see ``solvers.engine.portfolio``), judges every solution it
reports with ``game.rules``, and never lets "don't know" look like an answer: a timeout is
``undecided``, with whatever solutions were met before it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Mapping

from game import rules
from game.puzzle import Grid, Puzzle
from solvers.engine import portfolio
from solvers.events import Status


class Kind(str, Enum):
    IMPOSSIBLE = "impossible"      # no solution
    UNIQUE = "unique"              # exactly one
    AMBIGUOUS = "ambiguous"        # at least two
    UNDECIDED = "undecided"        # not known within the time given


@dataclass(frozen=True)
class Verdict:
    """``solutions``: those met, each accepted by the judge (up to ``limit``; after a timeout,
    any met before it). ``stats``: the search's statistics (``seconds``, ``nodes``, ...)."""

    kind: Kind
    solutions: tuple[Grid, ...] = ()
    stats: Mapping[str, object] = field(default_factory=dict)
    message: str = ""

    @property
    def decided(self) -> bool:
        return self.kind is not Kind.UNDECIDED

    @property
    def solution(self) -> Grid | None:
        """The puzzle's one solution, when it is unique."""
        return self.solutions[0] if self.kind is Kind.UNIQUE else None


class VerdictError(RuntimeError):
    """The search reported a board the judge rejects: a bug, never an answer."""


def decide(puzzle: Puzzle, limit: int = 2, timeout: float | None = None, jobs: int | None = 1,
           cancelled: Callable[[], bool] | None = None, work: int | None = None,
           conflicts: int | None = None) -> Verdict:
    """Count ``puzzle``'s solutions up to ``limit`` (at least 2) within ``timeout`` seconds,
    with up to ``jobs`` searches racing on as many cores (``None``: every core). ``cancelled``:
    asked as the search goes; once it says so, the verdict is ``undecided`` at once.

    ``work``: the forward search alone, ``undecided`` once its nodes and probes pass this many
    (``portfolio.budgeted``): the verdict and the solutions met depend on the puzzle alone,
    never on the machine's speed or load, as long as ``timeout`` does not cut in first (the
    generator's: what it is told shapes the level). ``conflicts``: clause learning alone, so
    bounded by its conflicts, instead (its answer as independent of the machine; whether a
    search gave up, and the solutions met, are those of the search asked)."""
    if limit < 2:
        raise ValueError("decide needs limit >= 2 to tell unique from ambiguous")
    members = portfolio.MEMBERS if work is None and conflicts is None else portfolio.budgeted(work, conflicts)
    result = portfolio.race(puzzle, limit=limit, timeout=timeout, jobs=jobs, members=members,
                            cancelled=cancelled)
    stats = dict(result.stats)
    if result.status in (Status.TIMEOUT, Status.STOPPED, Status.GAVE_UP):
        met = tuple(grid for grid in dict.fromkeys(result.solutions) if rules.is_solved(puzzle, grid))
        message = result.message
        if met:
            message += "; it has a solution, but whether it is the only one is not proved"
        return Verdict(Kind.UNDECIDED, met, stats, message)
    if result.status not in (Status.SOLVED, Status.NO_SOLUTION):
        raise VerdictError(result.message or result.status.value)
    solutions = tuple(dict.fromkeys(result.solutions))
    for grid in solutions:
        problems = rules.violations(puzzle, grid)
        if problems:
            raise VerdictError(f"the search reported a board the rules reject: {problems[0].message}")
    kind = (Kind.IMPOSSIBLE, Kind.UNIQUE, Kind.AMBIGUOUS)[min(len(solutions), 2)]
    return Verdict(kind, solutions[:limit], stats)


def unique_solution(puzzle: Puzzle, timeout: float | None = None,
                    cancelled: Callable[[], bool] | None = None) -> Grid | None:
    """The puzzle's one solution; None when it has none or several, or when that is not
    decided within ``timeout`` seconds (or before ``cancelled()``)."""
    return decide(puzzle, timeout=timeout, cancelled=cancelled).solution
