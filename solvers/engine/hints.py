"""A player's hint, and playing a level by hints alone (``main.py bench --hints``).

A hint is the deduction engine's simplest next step, given ``HINT_SECONDS`` to find it; where
it finds none in time (or none at all), one cell of the level's solution instead, without a
reason. The window asks the same function the benchmark measures, and both let the engine
search ahead for the next hints between two hints (``READING_SECONDS`` in the benchmark, for
as long as the player reads in the window); that time is not counted as a hint's.
"""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass, field
from functools import cache
from typing import Callable, Sequence

from game import rules
from game.puzzle import Cell, Grid, Puzzle, apply_move, initial_grid
from solvers.engine.batch import percentile
from solvers.engine.verdict import unique_solution
from solvers.logic import deduction as logic

HINT_SECONDS = 3.0              # how long the engine may look for the next step
SOLUTION_SECONDS = 30.0         # how long the exact solver may take to find the one solution
READING_SECONDS = 0.25          # the least time a player spends on a hint before asking the next


def next_hint(puzzle: Puzzle, grid: Sequence[Sequence[Cell]], solution: Callable[[], Grid | None],
              seconds: float = HINT_SECONDS) -> logic.Deduction | None:
    """The next step from ``grid``: a deduction, a ``mistake`` if the board is provably wrong,
    or a ``reveal`` of one cell of ``solution()`` (called only then) when no step is found in
    ``seconds``. None when the board is complete or the level has no one solution to reveal."""
    found = logic.next_deduction(puzzle, grid, seconds=seconds, solution=solution)
    if found is not None:
        return found
    known = solution()
    return None if known is None else logic.reveal(puzzle, grid, known)


@dataclass
class HintRun:
    """One level played by hints: how long each took and how it ended."""

    label: str
    seconds: list[float] = field(default_factory=list)
    without_reason: int = 0
    solved: bool = False
    error: str = ""

    def record(self) -> dict:
        return {"level": self.label, "hints": len(self.seconds),
                "max_ms": round(max(self.seconds, default=0.0) * 1000, 1),
                "without_reason": self.without_reason, "solved": self.solved,
                **({"error": self.error} if self.error else {})}


def play_by_hints(puzzle: Puzzle, label: str, seconds: float = HINT_SECONDS,
                  reading: float = READING_SECONDS) -> HintRun:
    """Start from the level's first board and apply hint after hint until the judge says solved.

    Between two hints the engine searches ahead for ``reading`` seconds (see
    :func:`solvers.logic.deduction.think_ahead`), as it does in the window while the player
    reads the rungs of a hint and presses H again; that time is not a hint's."""
    run = HintRun(label)
    logic.prepare(puzzle)           # as the window does when the level opens, and then
    gc.freeze()                     # its long-lived objects leave the cyclic collector's view
    solution = cache(lambda: unique_solution(puzzle, timeout=SOLUTION_SECONDS))     # asked once, if ever
    grid = initial_grid(puzzle)
    for _ in range(puzzle.rows * puzzle.cols + 1):
        if rules.judge(puzzle, grid).solved:
            run.solved = True
            return run
        started = time.perf_counter()
        hint = next_hint(puzzle, grid, solution, seconds)
        run.seconds.append(time.perf_counter() - started)
        if hint is None or hint.rule == "mistake":
            run.error = "no hint" if hint is None else f"hint found a mistake: {hint.text}"
            return run
        run.without_reason += hint.rule == "reveal"
        for _ in logic.think_ahead(puzzle, grid, hint, reading):    # while the player reads it
            pass
        for move in hint.moves:
            grid = apply_move(grid, move)
    run.error = "did not finish"
    return run


def summary(runs: Sequence[HintRun]) -> dict:
    ms = [s * 1000 for run in runs for s in run.seconds]
    return {"levels": len(runs), "hints": len(ms), "p50_ms": round(percentile(ms, 0.5), 1),
            "p95_ms": round(percentile(ms, 0.95), 1), "max_ms": round(max(ms, default=0.0), 1),
            "over_500_ms": sum(m > 500 for m in ms),
            "without_reason": sum(run.without_reason for run in runs),
            "unfinished": sum(not run.solved for run in runs)}
