"""What the level editor asks while an author works: the verdict and grade of a draft, the hint
that cuts the most solutions, and the hints that can go.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable

from game.puzzle import Cell, Coord, Grid, Puzzle, seconds_said
from game.slices import Cancelled
from solvers.authoring import grading
from solvers.authoring.generator import remove_hints, with_hint
from solvers.authoring.grading import GRADE_LEVEL
from solvers.engine.verdict import Kind, decide

SAMPLE = 64                  # solutions met to choose the most cutting hint


@dataclass(frozen=True)
class Assessment:
    """The live verdict on a draft: its kind, and for a unique level its grade and the hints
    that could each be removed (None when they were not all settled in time: never a part)."""

    kind: Kind
    grade: str = ""
    redundant: tuple[Coord, ...] | None = ()
    solution: Grid | None = None
    message: str = ""


def assess(puzzle: Puzzle, timeout: float = 5.0, redundant_timeout: float | None = None,
           cancelled: Callable[[], bool] = lambda: False) -> Assessment:
    """``timeout`` bounds the verdict, ``redundant_timeout`` the redundant hints (None: no bound).
    ``cancelled``: the editor no longer wants the answer (closed, or the draft changed): the
    verdict, the grade and the redundant hints end at once (on a 60x60 level the three take
    4, 6 and 3 s)."""
    verdict = decide(puzzle, limit=2, timeout=timeout, cancelled=cancelled)
    if cancelled():
        return Assessment(Kind.UNDECIDED, message="stopped")
    if verdict.kind is not Kind.UNIQUE:
        first = verdict.solutions[0] if verdict.solutions else None
        return Assessment(verdict.kind, solution=first, message=verdict.message)
    try:
        grade = grading.grade(puzzle, verdict.solution, cancelled=cancelled)
    except grading.GradeError as error:          # cannot happen for a unique level; said if it does
        return Assessment(verdict.kind, solution=verdict.solution, message=str(error))
    except Cancelled:
        return Assessment(Kind.UNDECIDED, message="stopped")
    redundant = None if cancelled() else grading.redundant_hints(puzzle, redundant_timeout, cancelled)
    return Assessment(verdict.kind, grade, None if redundant is None else tuple(redundant), verdict.solution)


class OutOfTime(Exception):
    """What was asked was not settled within the time given."""


def most_cutting_hint(puzzle: Puzzle, target: Grid, timeout: float = 5.0) -> Puzzle | None:
    """``puzzle`` with one more hint, taken from ``target`` (the intended solution): the cell where
    the most of the other solutions met disagree with it. None when ``target`` is the only
    solution; :class:`OutOfTime` when no other solution was met within ``timeout`` yet the
    verdict is undecided (it may not be the only one)."""
    verdict = decide(puzzle, limit=SAMPLE, timeout=timeout)
    others = [s for s in verdict.solutions if s != target]
    if not others:
        if verdict.kind is Kind.UNDECIDED:
            raise OutOfTime(f"no other solution met within {seconds_said(timeout)}, and none proved impossible")
        return None
    best: tuple[int, Coord] | None = None
    for r, c in puzzle.cells():
        if (r, c) in puzzle.hints:
            continue
        cut = sum(s[r][c] != target[r][c] for s in others)
        if cut and (best is None or cut > best[0] or (cut == best[0] and target[r][c] == Cell.SHIP)):
            best = (cut, (r, c))
    return None if best is None else with_hint(puzzle, target, best[1])


def minimize(puzzle: Puzzle, timeout: float = 20.0,
             cancelled: Callable[[], bool] = lambda: False) -> tuple[Puzzle, bool]:
    """Remove hints while the level stays unique (the generator's own pruning, in a fixed
    order); stops at ``timeout`` with what it has. The level, and whether every hint was asked
    in time (False: some of those left may still go). ``cancelled`` is asked between hints:
    when it says stop, ``GeneratorCancelled`` ends the work."""
    deadline = time.perf_counter() + timeout
    fewer = remove_hints(puzzle, GRADE_LEVEL["expert"], random.Random(0), deadline, cancelled)
    return fewer, time.perf_counter() <= deadline        # a question the deadline cut short kept its hint
