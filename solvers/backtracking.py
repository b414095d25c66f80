"""Classic backtracking, for learners: fill the cells in reading order, ship first, then water.

The textbook algorithm, kept recognisable:

    cell = 0
    while 0 <= cell < number of cells:
        take the next value not yet tried for this cell (ship, then water)
        if every value has been tried: clear the cell and step back to the previous one
        elif the value breaks no rule: set it and step forward to the next cell

"Breaks no rule" is checked *incrementally*, looking only at what the new cell changes:

- tallies: its row and column may not go over their tally, nor be left unable to reach it
  with the cells still to fill: a row counts only the cells still to fill whose column can
  take another ship, and every later row's tally must not exceed the number of such columns;
- touching: a ship cell may not touch an earlier ship cell diagonally;
- hints: a hint cell keeps its value, and the cells a hint's shape decides (a ``top`` needs
  ship below and water around...) take that value; a ``middle`` needs ship on both sides
  across or both sides down, checked once the cell below it is filled;
- fleet: a run of ship cells may not grow longer than the longest ship still missing, and a
  ship that water (or the border) has just closed must still be missing from the fleet.

A horizontal ship is closed by the water (or border) to its right, a vertical ship or a
submarine by the water (or border) below it. At the end every ship of the fleet must be
there, and the board goes to ``game.rules`` for the verdict.

Statistics: ``nodes`` (values tried), ``backtracks`` (steps back to an earlier cell).
"""

from __future__ import annotations

import random
import time
from typing import Iterator

from game import rules
from game.puzzle import HINT_CONTINUES, HINT_STOPS, Cell, Grid, Hint, Puzzle
from solvers.common import verified
from solvers.events import Event, Progress, Reason, Result, SetCell, Status

HEARTBEAT_NODES = 256
TRY_ORDER = (Cell.SHIP, Cell.WATER)


def events(puzzle: Puzzle, *, trace: bool = True, limit: int = 1,
           rng: random.Random | None = None) -> Iterator[Event]:
    """Find up to ``limit`` solutions. ``rng`` is accepted for the common protocol (unused)."""
    yield from _Backtracker(puzzle, trace, max(1, limit)).run()


def required_cells(puzzle: Puzzle) -> dict[tuple[int, int], Cell] | None:
    """The cells the hints decide (the hint cells and what their shapes say), or None if they clash."""
    required: dict[tuple[int, int], Cell] = {}

    def need(r: int, c: int, value: Cell) -> bool:
        if not puzzle.inside(r, c):
            return value == Cell.WATER          # the border is water
        if required.setdefault((r, c), value) != value:
            return False
        return True

    for (r, c), hint in puzzle.hints.items():
        if not need(r, c, Cell.SHIP if hint.is_ship else Cell.WATER):
            return None
        continues = list(HINT_CONTINUES.get(hint, ()))
        stops = list(HINT_STOPS.get(hint, ()))
        if hint is Hint.MIDDLE:
            # On an edge a middle piece can only lie along it.
            if r in (0, puzzle.rows - 1):
                continues += [(0, -1), (0, 1)]
                stops += [(-1, 0), (1, 0)]
            if c in (0, puzzle.cols - 1):
                continues += [(-1, 0), (1, 0)]
                stops += [(0, -1), (0, 1)]
        for dr, dc in continues:
            if not need(r + dr, c + dc, Cell.SHIP):
                return None
        for dr, dc in stops:
            if not need(r + dr, c + dc, Cell.WATER):
                return None
    return required


class _Backtracker:
    def __init__(self, puzzle: Puzzle, trace: bool, limit: int) -> None:
        self.puzzle = puzzle
        self.trace = trace
        self.limit = limit
        self.rows, self.cols = puzzle.rows, puzzle.cols
        self.grid = [[Cell.UNKNOWN] * self.cols for _ in range(self.rows)]
        self.row_ships = [0] * self.rows
        self.col_ships = [0] * self.cols
        # columns that can still take a ship, and the largest tally among the rows below each row
        self.open_cols = sum(1 for t in puzzle.col_tallies if t is None or t > 0)
        self.max_tally_below = [0] * self.rows
        self.open_rows_below = [0] * self.rows       # rows below that can take a ship at all
        for r in range(self.rows - 2, -1, -1):
            below = puzzle.row_tallies[r + 1]
            self.max_tally_below[r] = max(self.max_tally_below[r + 1], below if below is not None else 0)
            self.open_rows_below[r] = self.open_rows_below[r + 1] + (below is None or below > 0)
        self.fleet = puzzle.fleet_counts
        self.closed = {length: 0 for length in self.fleet}
        self.middles = {cell for cell, hint in puzzle.hints.items() if hint is Hint.MIDDLE}
        self.stats = {"seconds": 0.0, "nodes": 0, "backtracks": 0, "solutions": 0}
        self.started = time.perf_counter()
        self.guesses = 0                             # guessed cells on the board: the trace's depth

    # -- the search ------------------------------------------------------------------------
    def run(self) -> Iterator[Event]:
        puzzle = self.puzzle
        required = required_cells(puzzle)
        solutions: list[Grid] = []
        if required is not None:
            cells = [(r, c) for r in range(self.rows) for c in range(self.cols)]
            choices = [(required[cell],) if cell in required else TRY_ORDER for cell in cells]
            tried = [0] * len(cells)                 # how many of the cell's values were tried
            closed_here: list[list[int]] = [[] for _ in cells]   # ships a cell's value closed
            index = 0
            while index >= 0:
                if index == len(cells):
                    if self._complete():
                        solutions.append(tuple(tuple(row) for row in self.grid))
                        if len(solutions) >= self.limit:
                            break
                    index -= 1
                    continue
                r, c = cells[index]
                if self.grid[r][c] != Cell.UNKNOWN:  # coming back: undo the value in place
                    yield from self._unset(r, c, closed_here[index], len(choices[index]) == 1)
                if tried[index] == len(choices[index]):
                    tried[index] = 0
                    index -= 1
                    self.stats["backtracks"] += 1
                    continue
                value = choices[index][tried[index]]
                tried[index] += 1
                self.stats["nodes"] += 1
                if self.stats["nodes"] % HEARTBEAT_NODES == 0:
                    yield Progress(self._snapshot())
                closes = self._closes(r, c, value)
                if closes is None or not self._allowed(r, c, value):
                    continue
                closed_here[index] = closes
                yield from self._set(r, c, value, closes, len(choices[index]) == 1)
                index += 1
        yield from self._finish(solutions)

    def _allowed(self, r: int, c: int, value: Cell) -> bool:
        """The tally, touching, run-length and middle-hint checks for setting (r, c)."""
        row_tally, col_tally = self.puzzle.row_tallies[r], self.puzzle.col_tallies[c]
        grid = self.grid
        if value == Cell.SHIP:
            if row_tally is not None and self.row_ships[r] + 1 > row_tally:
                return False
            if col_tally is not None and self.col_ships[c] + 1 > col_tally:
                return False
            if col_tally is not None and self.col_ships[c] + 1 == col_tally \
                    and self.max_tally_below[r] > self.open_cols - 1:
                return False                         # filling this column starves a later row
            if r > 0 and ((c > 0 and grid[r - 1][c - 1] == Cell.SHIP)
                          or (c + 1 < self.cols and grid[r - 1][c + 1] == Cell.SHIP)):
                return False
            longest = self._longest_missing()
            if self._run(r, c, 0, -1) + 1 > longest or self._run(r, c, -1, 0) + 1 > longest:
                return False
        else:
            if row_tally is not None and self.row_ships[r] + self._open_cells_after(r, c) < row_tally:
                return False
            if col_tally is not None and self.col_ships[c] + self.open_rows_below[r] < col_tally:
                return False
        if r > 0 and (r - 1, c) in self.middles and not self._middle_fits(r - 1, c, value):
            return False
        return True

    def _open_cells_after(self, r: int, c: int) -> int:
        """Cells right of (r, c) in its row whose column can still take a ship."""
        tallies, ships = self.puzzle.col_tallies, self.col_ships
        return sum(1 for k in range(c + 1, self.cols) if tallies[k] is None or ships[k] < tallies[k])

    def _middle_fits(self, r: int, c: int, below: Cell) -> bool:
        """A middle piece at (r, c), now that the cell below it gets ``below``."""
        grid = self.grid
        across = c > 0 and grid[r][c - 1] == Cell.SHIP and c + 1 < self.cols and grid[r][c + 1] == Cell.SHIP
        down = r > 0 and grid[r - 1][c] == Cell.SHIP and below == Cell.SHIP
        return across or down

    def _closes(self, r: int, c: int, value: Cell) -> list[int] | None:
        """Lengths of the ships that setting (r, c) closes; None if the fleet has no room for one."""
        closes = []
        grid = self.grid
        if value == Cell.WATER:
            left = self._run(r, c, 0, -1)
            if left >= 2:
                closes.append(left)
            if r > 0 and grid[r - 1][c] == Cell.SHIP and not self._across(r - 1, c):
                closes.append(self._run(r, c, -1, 0))
        elif c == self.cols - 1 and self._run(r, c, 0, -1) >= 1:
            closes.append(self._run(r, c, 0, -1) + 1)      # the border closes a horizontal ship
        counted: dict[int, int] = {}
        for length in closes:
            counted[length] = counted.get(length, 0) + 1
            if self.closed.get(length, 0) + counted[length] > self.fleet.get(length, 0):
                return None
        return closes

    def _complete(self) -> bool:
        """All cells filled: close the ships standing on the bottom border, then count the fleet."""
        r = self.rows - 1
        closed = dict(self.closed)
        for c in range(self.cols):
            if self.grid[r][c] == Cell.SHIP and not self._across(r, c):
                length = self._run(r, c, -1, 0) + 1
                closed[length] = closed.get(length, 0) + 1
        return closed == {length: count for length, count in self.fleet.items()}

    def _across(self, r: int, c: int) -> bool:
        """Whether the ship cell (r, c) is part of a horizontal ship."""
        return ((c > 0 and self.grid[r][c - 1] == Cell.SHIP)
                or (c + 1 < self.cols and self.grid[r][c + 1] == Cell.SHIP))

    def _run(self, r: int, c: int, dr: int, dc: int) -> int:
        """Ship cells in a row from the neighbour of (r, c) in direction (dr, dc)."""
        count = 0
        r, c = r + dr, c + dc
        while 0 <= r and 0 <= c and self.grid[r][c] == Cell.SHIP:
            count += 1
            r, c = r + dr, c + dc
        return count

    def _longest_missing(self) -> int:
        return max((length for length, count in self.fleet.items() if self.closed[length] < count), default=0)

    # -- board changes ---------------------------------------------------------------------
    def _set(self, r: int, c: int, value: Cell, closes: list[int], forced: bool) -> Iterator[Event]:
        self.grid[r][c] = value
        if value == Cell.SHIP:
            self.row_ships[r] += 1
            self.col_ships[c] += 1
            if self.col_ships[c] == self.puzzle.col_tallies[c]:
                self.open_cols -= 1
        for length in closes:
            self.closed[length] += 1
        self.guesses += not forced
        if self.trace and (r, c) not in self.puzzle.hints:
            if forced:
                yield SetCell(r, c, value, Reason.FORCED, "the hint's shape", self.guesses)
            else:
                yield SetCell(r, c, value, Reason.GUESS, f"try {value.name.lower()}", self.guesses)

    def _unset(self, r: int, c: int, closes: list[int], forced: bool) -> Iterator[Event]:
        if self.grid[r][c] == Cell.SHIP:
            if self.col_ships[c] == self.puzzle.col_tallies[c]:
                self.open_cols += 1
            self.row_ships[r] -= 1
            self.col_ships[c] -= 1
        for length in closes:
            self.closed[length] -= 1
        closes.clear()
        self.grid[r][c] = Cell.UNKNOWN
        self.guesses -= not forced
        if self.trace and (r, c) not in self.puzzle.hints:
            yield SetCell(r, c, Cell.UNKNOWN, Reason.BACKTRACK, "undo", self.guesses)

    # -- the end -------------------------------------------------------------------------------
    def _snapshot(self) -> dict:
        self.stats["seconds"] = round(time.perf_counter() - self.started, 6)
        return dict(self.stats)

    def _finish(self, solutions: list[Grid]) -> Iterator[Event]:
        self.stats["solutions"] = len(solutions)
        stats = self._snapshot()
        if not solutions:
            yield Result(Status.NO_SOLUTION, None, stats, (), "no solution")
            return
        if self.trace:
            # Show the first solution whatever the search went on to try.
            for r, row in enumerate(solutions[0]):
                for c, value in enumerate(row):
                    if self.grid[r][c] != value:
                        yield SetCell(r, c, value, Reason.FILL, "the first solution", 0)
        for extra in solutions[1:]:
            problems = rules.violations(self.puzzle, extra)
            if problems:
                yield Result(Status.ERROR, extra, stats, tuple(solutions),
                             "solver produced an invalid board: " + problems[0].message)
                return
        yield verified(self.puzzle, solutions[0], stats, tuple(solutions))
