"""Difficulty grades and redundant hints, measured by the deduction engine.

A grade says which deductions a person needs, not how big the board is:

- easy: level-1 rules only (hint shapes, ship diagonals, segment sides, tallies met or
  needing every unknown cell, a segment as long as the longest missing ship);
- medium: level-2 rules too (where each segment's ship or the last ship of a length can lie,
  cells no missing ship can reach, line filling), but no contradiction;
- hard: contradictions of depth 1 (assume one cell, apply levels 1-2, see a rule break);
- expert: more than that. The engine at depth 1 gets stuck, yet the exact solver proves the
  puzzle has one solution (many such puzzles fall to depth-2 contradictions, some need more).

A puzzle with no solution or with several has no grade: :func:`grade` raises
:class:`GradeError`. Uniqueness comes from the verdict (``solvers.engine.verdict``); when the
engine finishes a puzzle, its sound deductions prove uniqueness by themselves.
"""

from __future__ import annotations

import time
from typing import Callable, Collection

from game.bitsets import bits
from game.puzzle import Coord, Grid, Puzzle, initial_grid
from game.ships import geometry_of, piece_reach
from game.slices import Cancelled
from solvers.engine.verdict import Kind, decide
from solvers.logic import deduction as logic

GRADES = ("easy", "medium", "hard", "expert")
GRADE_LEVEL = {"easy": 1, "medium": 2, "hard": 3, "expert": 4}


class GradeError(ValueError):
    """The puzzle has no solution or more than one, so it has no grade."""


def measure(puzzle: Puzzle, ceiling: int = 3, grid: Grid | None = None,
            solution: Grid | None = None, deadline: float | None = None,
            cancelled: Callable[[], bool] | None = None) -> tuple[int, Grid]:
    """The lowest rule level (1-3) that finishes the puzzle, or ``ceiling + 1``; and the last board.

    Each level starts from the board the level below got stuck on, so no work is repeated.
    ``solution`` (the puzzle's, when known; ``grid`` agrees with it) spares the trials that
    cannot break (see :func:`solvers.logic.deduction.solve`): the answer is the same.
    ``deadline`` (a ``time.perf_counter()`` value): each level's run ends there as stuck, so
    an answer given after it proves nothing (the generator drops it).
    ``cancelled``: asked at the engine's heartbeats; ``game.slices.Cancelled`` once it says stop.
    """
    board = grid if grid is not None else initial_grid(puzzle)
    for level in range(1, ceiling + 1):
        outcome = logic.solve(puzzle, max_level=level, grid=board, solution=solution, deadline=deadline,
                              cancelled=cancelled)
        if outcome.contradiction:
            raise GradeError(f"the puzzle has no solution: {outcome.contradiction}")
        if outcome.solved:
            return level, outcome.grid
        board = outcome.grid
    return ceiling + 1, board


def grade(puzzle: Puzzle, solution: Grid | None = None, deadline: float | None = None,
          cancelled: Callable[[], bool] | None = None) -> str:
    """easy | medium | hard | expert (see the module docstring).

    ``solution``: the puzzle's one solution, when the caller knows it (the generator its
    layout, ``check`` its verdict). The engine's trials (level 3) that assume the solution's
    own values cannot break, so knowing it saves them; the grade is the same. Without it, the
    verdict is asked only when the rules of levels 1-2 do not finish the puzzle. ``deadline``
    (a ``time.perf_counter()`` value) bounds the engine's runs and the verdict: a grade given
    after it may be too high, or a :class:`GradeError` (``undecided``) may come instead.
    ``cancelled``: asked as the engine and the verdict go (a 60x60 level takes seconds);
    once it says stop, ``game.slices.Cancelled`` is raised: no grade.
    """
    level, board = measure(puzzle, ceiling=2, solution=solution, deadline=deadline, cancelled=cancelled)
    if level > 2:
        asked = solution is None
        if asked:
            solution = _unique(puzzle, deadline, cancelled)
        level, _ = measure(puzzle, grid=board, solution=solution, deadline=deadline,   # on from where level 2 stopped
                           cancelled=cancelled)
        if level == 4 and not asked:      # the engine alone proves uniqueness only when it finishes
            _unique(puzzle, deadline, cancelled)
    return GRADES[level - 1]


def _unique(puzzle: Puzzle, deadline: float | None = None, cancelled: Callable[[], bool] | None = None) -> Grid:
    """The puzzle's one solution; :class:`GradeError` if it has none or several, or it is not
    decided by ``deadline`` (``Cancelled`` when ``cancelled()`` stopped the verdict)."""
    verdict = decide(puzzle, timeout=None if deadline is None else max(0.0, deadline - time.perf_counter()),
                     cancelled=cancelled)
    if cancelled is not None and cancelled():
        raise Cancelled()
    if verdict.kind is not Kind.UNIQUE:
        raise GradeError(f"the puzzle is {verdict.kind.value}: only a puzzle with one solution has a grade")
    return verdict.solutions[0]


def redundant_hints(puzzle: Puzzle, timeout: float | None = None,
                    cancelled: Callable[[], bool] | None = None) -> list[Coord] | None:
    """Hints of a level with one solution whose removal, each on its own, leaves the solution
    unique: those that leave every cell fixed (:func:`fixed_without`), and the others asked of
    the verdict, whose root deductions settle most such boards at once (docs/design/generator.md).
    With ``timeout`` (seconds for them all): None when not every hint is settled in time, or
    once ``cancelled()`` says to stop."""
    deadline = None if timeout is None else time.perf_counter() + timeout
    fixed = fixed_without(puzzle)
    found = []
    for cell in puzzle.hints:
        left = None if deadline is None else deadline - time.perf_counter()
        if (left is not None and left <= 0) or (cancelled is not None and cancelled()):
            return None
        if cell in fixed:
            found.append(cell)
            continue
        kind = decide(without_hints(puzzle, (cell,)), timeout=left, cancelled=cancelled).kind
        if kind is Kind.UNDECIDED:
            return None
        if kind is Kind.UNIQUE:
            found.append(cell)
    return found


def without_hints(puzzle: Puzzle, cells: Collection[Coord]) -> Puzzle:
    """``puzzle`` without its hints at ``cells``."""
    return puzzle.replace(hints={cell: hint for cell, hint in puzzle.hints.items() if cell not in cells})


def fixed_without(puzzle: Puzzle) -> set[Coord]:
    """The hints without any one of which every cell is still fixed, ship or water: by its own
    hint, by the shape of a ship piece given beside it (``game.ships.piece_reach``), or by the
    known tally of a line in which it is the only cell left open. Such a level has at most one
    board, so one that has a solution keeps it unique: on a board given whole (60x60, 3,600
    hints) each removal is settled without a search."""
    geo = geometry_of(puzzle)
    fixes = {}
    for (r, c), hint in puzzle.hints.items():
        reach = piece_reach(geo, r, c, hint) if hint.is_ship else None
        fixes[(r, c)] = geo.bit(r, c) | (0 if reach is None else reach.ship | reach.water)
    once = twice = 0                        # the cells fixed by one hint at least, by two at least
    for mask in fixes.values():
        twice |= once & mask
        once |= mask

    def settled(open_cells: int) -> bool:   # each open cell the only one open in a line of known tally
        for index in bits(open_cells):
            r, c = geo.coord(index)
            if not any(tally is not None and line & open_cells == 1 << index
                       for line, tally in ((geo.row_masks[r], puzzle.row_tallies[r]),
                                           (geo.col_masks[c], puzzle.col_tallies[c]))):
                return False
        return True
    return {hint for hint, mask in fixes.items() if settled((mask & once & ~twice) | (geo.board & ~once))}
