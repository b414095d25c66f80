"""Hint (H) and Check (C): mistakes first, then where to look, which rule, and the move.

Hints are ``solvers.engine.hints.next_hint``, the function ``bench --hints`` measures: the
deduction engine's next step, given ``HINT_SECONDS`` to find it, or else one cell of the
solution revealed without a reason.

Mistakes are what ``rules.provable_violations`` proves plus the marks that disagree with the
level's one solution (``game.puzzle.wrong_marks``), which follows from the clues.
That solution depends only on the level, so :class:`MistakeJudge` works it out once per
level (the exact solver: milliseconds, half a second on the hardest pack level), in the
runner as soon as the level opens, instead of once per question. Nothing shows it except
a revealed cell: otherwise only the player's own wrong marks are named.

Questions run in the engine's runner (a worker thread) so the window stays live; a new
question drops the old one. After a hint has been answered its worker goes on searching ahead
for the next hints (``think_ahead``) while the player reads, until the next question, an
edit elsewhere or ``THINK_SECONDS``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import partial
from typing import Callable, Iterator, Sequence

from game import rules
from game.puzzle import Cell, Coord, Grid, Puzzle, wrong_marks
from game.session import CELL_KINDS, last_clean_cursor
from game.ships import geometry_of, prepared
from solvers.engine.hints import SOLUTION_SECONDS, next_hint
from solvers.engine.runner import SolverRun
from solvers.engine.verdict import unique_solution
from solvers.logic.deduction import Deduction, prepare, think_ahead


@dataclass(frozen=True)
class Mistake:
    """Wrong marks on one board: the cells to outline and a sentence saying what is wrong."""

    cells: frozenset[Coord]
    text: str


@dataclass(frozen=True)
class Answer:
    """What the engine said about one board.

    ``purpose`` is "hint" or "check". ``deduction``: the next step (hint without mistake;
    None if no rule applies). ``undo_to``: with a mistake, the history cursor of the latest
    board without one (None if there is none to go back to).
    """

    grid: Grid
    deduction: Deduction | None = None
    mistake: Mistake | None = None
    purpose: str = "hint"
    undo_to: int | None = None
    trial: int | None = None         # the outermost trial that made the board wrong (None: no trial's fault)


class MistakeJudge:
    """Which marks are provably wrong; the level's one solution is computed once (see :class:`HintHelper`)."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self._lock = threading.Lock()       # hint and check workers may ask at the same time
        self._done = False
        self._solution: Grid | None = None

    @property
    def known(self) -> bool:
        """Whether the solution has been worked out (see :meth:`solution`)."""
        return self._done

    def solution(self, cancelled: Callable[[], bool] | None = None) -> Grid | None:
        """The level's one solution (None if it has none or several). ``cancelled``: the
        worker asking was stopped (the level closed, a newer question): the search ends at
        once and the solution is worked out again when next asked."""
        with self._lock:
            if not self._done:
                solution = unique_solution(self.puzzle, SOLUTION_SECONDS, cancelled)
                if cancelled is not None and cancelled():
                    return None
                self._solution, self._done = solution, True
            return self._solution

    def find(self, grid: Sequence[Sequence[Cell]], problems: Sequence[rules.Violation] | None = None,
             cancelled: Callable[[], bool] | None = None) -> Mistake | None:
        """``problems``: the judge's provable problems of ``grid`` when already known."""
        if problems is None:
            problems = rules.provable_violations(self.puzzle, grid)
        solution = self.solution(cancelled)
        wrong = set(wrong_marks(grid, solution)) if solution is not None else set()
        cells = {cell for v in problems if v.kind in CELL_KINDS for cell in v.cells} | wrong
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            return Mistake(frozenset(cells), problems[0].message + more)
        if wrong:
            count = len(wrong)
            what = f"{count} marks cannot be right: they contradict" if count > 1 else \
                "1 mark cannot be right: it contradicts"
            return Mistake(frozenset(cells), f"{what} what follows from the clues")
        return None

    def has_mistake(self, grid: Sequence[Sequence[Cell]]) -> bool:
        return self.find(grid) is not None


def wrong_trial(layers: Sequence[Grid], has_mistake: Callable[[Grid], bool]) -> int | None:
    """Which trial made a wrong board wrong, given the board below each open trial (the
    committed board first): the first whose board below is clean and the next one is not
    (the innermost when all are clean). None when there is no trial or the committed board
    is wrong itself."""
    for depth, board in enumerate(layers):
        if has_mistake(board):
            return depth or None
    return len(layers) or None


class HintHelper:
    """UI-only state: the current answer, how much of it is shown, and a question in progress."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.judge = MistakeJudge(puzzle)
        self.answer: Answer | None = None
        self.stage = 0                       # 0 nothing shown, 1 first rung, 2 second rung
        self.failure = ""
        self._run: SolverRun | None = None
        self._answered = False               # the question in progress has had its answer
        self._halt = threading.Event()       # ends the search ahead of the question in progress
        judge = self.judge

        def work_out_the_solution() -> Iterator[None]:
            judge.solution(warm_up.stopping)
            if not warm_up.stopping():
                prepare(puzzle)
            yield from ()
        # Every hint and check starts from the level's solution: work it out while the player
        # looks at the board, not when H is first pressed (half a second on the hardest levels),
        # and load what the hints' trials run on. Closing the level stops it (on a 60x60 level
        # with many solutions it searches up to SOLUTION_SECONDS, with hundreds of megabytes).
        # The level's geometry is built here first, on the window's thread (which judges the
        # board with it anyway), so that the worker shares it instead of building its own copy.
        # Its tables are built by one worker at a time (``SolverRun``'s ``prepare``): a solver
        # started at once (``--autorun``) waits for them instead of building a copy beside them.
        geometry_of(puzzle)
        self._prepare = partial(prepared, puzzle)
        warm_up = SolverRun(work_out_the_solution, maxsize=1, name="solution", prepare=self._prepare)
        self._warm_up = warm_up.start()

    @property
    def thinking(self) -> bool:
        """A question is waiting for its answer (not: the search ahead after it)."""
        return self._run is not None and not self._answered

    def ask(self, grid: Grid, purpose: str = "hint", boards: Sequence[Grid] = (),
            problems: Sequence[rules.Violation] | None = None, layers: Sequence[Grid] = ()) -> None:
        """Start (or restart) a question about ``grid``; ``boards``: the history, for undo-to-mistake;
        ``problems``: the judge's verdict on ``grid`` when already known; ``layers``: inside
        trials, the board below each open trial (the committed board first). There a mistake
        is blamed on the trial that made it, and a hint is about the committed board."""
        self._drop_question()
        judge, puzzle = self.judge, self.puzzle
        history = tuple(boards)
        below = tuple(layers)
        halt = self._halt = threading.Event()

        def stream() -> Iterator[Answer]:
            mistake = judge.find(grid, problems, run.stopping)
            if run.stopping():
                return
            if mistake is not None:
                trial = wrong_trial(below, judge.has_mistake)
                target = last_clean_cursor(history, judge.has_mistake) if history and trial is None else None
                yield Answer(grid, None, mistake, purpose, target, trial)
                return
            base = below[0] if below else grid
            deduction = next_hint(puzzle, base, judge.solution) if purpose == "hint" else None
            yield Answer(grid, deduction, None, purpose)
            if deduction is not None:
                for _ in think_ahead(puzzle, base, deduction):
                    if halt.is_set():
                        return

        self._answered = False
        run = SolverRun(stream, maxsize=1, name=purpose, prepare=self._prepare)
        self._run = run.start()

    def poll(self) -> bool:
        """True when an answer (or a failure) has just arrived."""
        if self._run is None:
            return False
        arrived = False
        for item in self._run.poll(4):
            self.answer = item if isinstance(item, Answer) else Answer((), None)
            self.failure = "" if isinstance(item, Answer) else getattr(item, "message", "hint failed")
            arrived = True
        if self._run.finished:
            self._run = None
            arrived = arrived or not self._answered
        self._answered = self._answered or arrived
        return arrived

    def cancel(self) -> None:
        """The level is closed: the question in progress and the warm-up end."""
        self._drop_question()
        self._warm_up.stop(timeout=0.0)

    def _drop_question(self) -> None:
        """A newer question replaces the one in progress (the warm-up goes on: it serves both)."""
        self._halt.set()
        if self._run is not None:
            self._run.stop(timeout=0.0)
            self._run = None

    def current_for(self, grid: Grid, purpose: str | None = None) -> Answer | None:
        """The answer if it is still about this board (any edit makes it stale)."""
        answer = self.answer
        if answer is None or answer.grid != grid or (purpose is not None and answer.purpose != purpose):
            return None
        return answer

    def cells(self, grid: Grid) -> frozenset[Coord]:
        """Cells a hint points at (highlighted): its evidence and its moves, from the first rung."""
        answer = self.current_for(grid)
        if answer is None or answer.deduction is None or self.stage == 0:
            return frozenset()
        deduction = answer.deduction
        return frozenset(deduction.evidence) | frozenset((m.row, m.col) for m in deduction.moves)

    def wrong_cells(self, grid: Grid) -> frozenset[Coord]:
        """Wrong marks to outline: at once after Check, on the second rung of a hint."""
        answer = self.current_for(grid)
        if answer is None or answer.mistake is None:
            return frozenset()
        if answer.purpose == "check" or self.stage >= 2:
            return answer.mistake.cells
        return frozenset()

    def undo_target(self, grid: Grid) -> int | None:
        """The cursor "Undo to first mistake" goes to, while a mistake answer is current."""
        answer = self.current_for(grid)
        return None if answer is None or answer.mistake is None else answer.undo_to
