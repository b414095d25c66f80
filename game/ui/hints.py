"""The hint button (H): first *where* to look, then *which rule*, then the move itself.

Hints come from the deduction engine (``solvers.logic.next_deduction``), the same one that
grades levels. The engine may think for a while on a large board, so it runs in the engine's
runner (a worker thread) and the window stays live; a new question drops the old one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from game.puzzle import Coord, Grid, Puzzle
from solvers.runner import SolverRun


@dataclass(frozen=True)
class Answer:
    """What the engine said about one board (``deduction`` None: no rule applies)."""

    grid: Grid
    deduction: object


class HintHelper:
    """UI-only state: the current hint, how much of it is shown, and a question in progress."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.answer: Answer | None = None
        self.stage = 0                       # 0 nothing shown, 1 where, 2 which rule
        self.failure = ""
        self._run: SolverRun | None = None

    @property
    def thinking(self) -> bool:
        return self._run is not None

    def ask(self, grid: Grid) -> None:
        """Start (or restart) a question about ``grid``."""
        self.cancel()

        def stream() -> Iterator[Answer]:
            from solvers.logic import next_deduction

            yield Answer(grid, next_deduction(self.puzzle, grid))

        self._run = SolverRun(stream, maxsize=1, name="hint").start()

    def poll(self) -> bool:
        """True when an answer (or a failure) has just arrived."""
        if self._run is None:
            return False
        for item in self._run.poll(4):
            self.answer = item if isinstance(item, Answer) else Answer((), None)
            self.failure = "" if isinstance(item, Answer) else getattr(item, "message", "hint failed")
        if self._run.finished:
            self._run = None
            return True
        return False

    def cancel(self) -> None:
        if self._run is not None:
            self._run.stop(timeout=0.0)
            self._run = None

    def current_for(self, grid: Grid) -> Answer | None:
        """The answer if it is still about this board (any edit makes it stale)."""
        return self.answer if self.answer is not None and self.answer.grid == grid else None

    def cells(self, grid: Grid) -> frozenset[Coord]:
        answer = self.current_for(grid)
        if answer is None or answer.deduction is None or self.stage == 0:
            return frozenset()
        deduction = answer.deduction
        return frozenset(deduction.evidence) | frozenset((m.row, m.col) for m in deduction.moves)
