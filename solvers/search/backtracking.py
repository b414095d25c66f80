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
  ship that water (or the border) has just closed must still be missing from the fleet;
  where some tallies are unknown, the ship cells so far plus the hint cells still ahead
  may not outnumber the fleet's cells.

A horizontal ship is closed by the water (or border) to its right, a vertical ship or a
submarine by the water (or border) below it. At the end every ship of the fleet must be
there, and the board goes to ``game.rules`` for the verdict.

Three additions to the textbook, all at the cheap moment when a row is complete, keep the
hard 10x10 instances to seconds without changing the order of the walk:

- *the next row*: its tally must not exceed its cells that the finished row leaves free
  (a ship rules out the cells diagonal to it) in columns that can still take a ship;
- *neighbouring columns*: two adjacent columns cannot hold any pair of counts in the rows
  below (worked out once, by a tiny automaton: ``column_pair_counts``);
- *dead ends remembered*: the row just finished (its ship cells and vertical runs), the ships
  per column and the ships closed so far decide the rest; a row end that led to no solution
  is remembered, and meeting it again is a dead end.

Measurements: ``docs/design/search.md``.

Statistics: ``nodes`` (values tried), ``backtracks`` (steps back to an earlier cell),
``remembered`` (row ends cut because the same state had failed before).
"""

from __future__ import annotations

import random
import time
from typing import Iterator

from game.puzzle import Cell, Grid, Hint, Puzzle
from game.ships import compatible, geometry_of, hint_reach, prepared
from solvers.common import answer, beating, elapsed
from solvers.events import Event, Found, Progress, Reason, SetCell, Stream

HEARTBEAT_NODES = 256
SHIP, WATER, UNKNOWN = Cell.SHIP, Cell.WATER, Cell.UNKNOWN   # plain names: a class attribute costs more
TRY_ORDER = (SHIP, WATER)
MEMORY_LIMIT = 400_000        # remembered dead ends (about 100 bytes each)
ACROSS = 255                  # row-state code of a cell of a horizontal ship


def column_pair_counts(start: int, height: int) -> frozenset[tuple[int, int]]:
    """The ship counts two adjacent columns can hold over ``height`` rows.

    A row of the pair is one of four patterns: 0 (both water), 1 (left ship), 2 (right
    ship), 3 (both ship: a horizontal ship). After 1 the next row is 0 or 1 (the right
    cell would touch diagonally), after 2 it is 0 or 2, after 3 it is 0 (a cell under a
    horizontal ship would bend it). ``start`` is the pattern of the row above the pair's
    first row (3 also stands for "the row below must be empty"). Worked out row by row, so
    every lower height is kept on the way: the search asks for them next, one row further down.
    """
    found = _pair_counts.get((start, height))
    if found is not None:
        return found
    # Per pattern of the last row: the (left, right) counts the rows so far can end with.
    ends: list[set[tuple[int, int]]] = [set(), set(), set(), set()]
    ends[start].add((0, 0))
    _pair_counts[(start, 0)] = frozenset(ends[start])
    for rows in range(1, height + 1):
        ends = [ends[0] | ends[1] | ends[2] | ends[3],
                {(left + 1, right) for left, right in ends[0] | ends[1]},
                {(left, right + 1) for left, right in ends[0] | ends[2]},
                {(left + 1, right + 1) for left, right in ends[0]}]
        _pair_counts[(start, rows)] = frozenset().union(*ends)
    return _pair_counts[(start, height)]


_pair_counts: dict[tuple[int, int], frozenset[tuple[int, int]]] = {}


def events(puzzle: Puzzle, *, trace: bool = True, limit: int = 1,
           rng: random.Random | None = None) -> Stream:
    """Find up to ``limit`` solutions. ``rng`` is accepted for the common protocol (unused)."""
    yield from beating(prepared(puzzle, ("covering",)))     # the table its start reads (``compatible``)
    yield from _Backtracker(puzzle, trace, max(1, limit)).run()


def required_cells(puzzle: Puzzle) -> dict[tuple[int, int], Cell] | None:
    """The cells the hints decide: the hint cells, and around each given ship piece what every
    ship that can show it agrees on (``game.ships.hint_reach``). None if they clash, or if a
    given piece fits no ship at all."""
    geo = geometry_of(puzzle)
    reaches = hint_reach(puzzle, geo, compatible(puzzle, geo))
    if len(reaches) < sum(hint.is_ship for hint in puzzle.hints.values()):
        return None
    required = {cell: Cell.SHIP if hint.is_ship else Cell.WATER for cell, hint in puzzle.hints.items()}
    for reach in reaches:
        for mask, value in ((reach.ship, Cell.SHIP), (reach.water, Cell.WATER)):
            for cell in geo.coords(mask):
                if required.setdefault(cell, value) != value:
                    return None
    return required


class _Backtracker:
    def __init__(self, puzzle: Puzzle, trace: bool, limit: int) -> None:
        self.puzzle = puzzle
        self.trace = trace
        self.limit = limit
        self.rows, self.cols = puzzle.rows, puzzle.cols
        self.grid = [[UNKNOWN] * self.cols for _ in range(self.rows)]
        # Length of the run of ship cells ending at each cell, across and down (0 for water).
        self.across_run = [[0] * self.cols for _ in range(self.rows)]
        self.down_run = [[0] * self.cols for _ in range(self.rows)]
        # Cells the row above rules out: those diagonal to one of its ship cells.
        self.blocked = [[False] * self.cols for _ in range(self.rows)]
        self.row_ships = [0] * self.rows
        self.col_ships = [0] * self.cols
        self.ship_total = 0
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
        self.lengths = sorted(self.fleet, reverse=True)
        self.longest = self._longest_missing()
        self.all_tallies = None not in puzzle.row_tallies and None not in puzzle.col_tallies
        self.middles = {cell for cell, hint in puzzle.hints.items() if hint is Hint.MIDDLE}
        self.failed: set[bytes] = set()              # row-end states known to lead nowhere
        self.remember = max(self.fleet.values(), default=0) < ACROSS
        self.stats = {"seconds": 0.0, "nodes": 0, "backtracks": 0, "remembered": 0, "solutions": 0}
        self.started = time.perf_counter()
        self.guesses = 0                             # guessed cells on the board: the trace's depth

    # -- the search ------------------------------------------------------------------------
    def run(self) -> Iterator[Event]:
        puzzle = self.puzzle
        required = required_cells(puzzle)
        solutions: list[Grid] = []
        if required is not None:
            cells = list(puzzle.cells())
            choices = [(required[cell],) if cell in required else TRY_ORDER for cell in cells]
            # hint ship cells from each cell on: the fleet must keep room for them
            self.ships_ahead = [0] * (len(cells) + 1)
            for i in range(len(cells) - 1, -1, -1):
                self.ships_ahead[i] = self.ships_ahead[i + 1] + (choices[i] == (SHIP,))
            count = len(cells)
            tried = [0] * count                      # how many of the cell's values were tried
            closed_here: list[tuple[int, ...]] = [()] * count   # ships a cell's value closed
            row_end: list[tuple[bytes, int] | None] = [None] * self.rows   # state, solutions then
            last_col, last_row = self.cols - 1, self.rows - 1
            grid = self.grid
            stats = self.stats
            nodes = backtracks = 0                   # kept in locals: the loop runs millions of times
            index = 0
            while index >= 0:
                if index == count:
                    if self._complete():
                        solutions.append(tuple(tuple(row) for row in grid))
                        yield Found(solutions[-1])
                        if len(solutions) >= self.limit:
                            break
                    index -= 1
                    continue
                r, c = cells[index]
                options = choices[index]
                forced = len(options) == 1
                if grid[r][c] != UNKNOWN:            # coming back: undo the value in place
                    if c == last_col and (entry := row_end[r]) is not None:
                        self._forget_row_end(entry, len(solutions))
                        row_end[r] = None
                    move = self._unset(r, c, closed_here[index], forced, nodes, backtracks)
                    if move:
                        yield move
                if tried[index] == len(options):
                    tried[index] = 0
                    index -= 1
                    backtracks += 1
                    continue
                value = options[tried[index]]
                tried[index] += 1
                nodes += 1
                if nodes % HEARTBEAT_NODES == 0:
                    stats["nodes"], stats["backtracks"] = nodes, backtracks
                    yield Progress(self._snapshot())
                closes = self._closes(r, c, value)
                if closes is None or not self._allowed(r, c, value):
                    continue
                closed_here[index] = closes
                move = self._set(r, c, value, closes, forced, nodes, backtracks)
                if move:
                    yield move
                if c == last_col and r < last_row:
                    self._block_next(r)
                    state = self._row_state(r) if self.remember else None
                    why = ""
                    if state in self.failed:
                        stats["remembered"] += 1
                        why = "this row end failed before"
                    elif not self._rows_below_fit(r):
                        why = "the rows below cannot be filled"
                    if why:
                        move = self._unset(r, c, closes, forced, nodes, backtracks, why)
                        if move:
                            yield move
                        continue
                    row_end[r] = (state, len(solutions)) if state is not None else None
                index += 1
            stats["nodes"], stats["backtracks"] = nodes, backtracks
        yield from self._finish(solutions)

    def _allowed(self, r: int, c: int, value: Cell) -> bool:
        """The tally, touching, run-length and middle-hint checks for setting (r, c)."""
        row_tally, col_tally = self.puzzle.row_tallies[r], self.puzzle.col_tallies[c]
        if value == SHIP:
            if row_tally is not None and self.row_ships[r] + 1 > row_tally:
                return False
            if col_tally is not None and self.col_ships[c] + 1 > col_tally:
                return False
            if col_tally is not None and self.col_ships[c] + 1 == col_tally \
                    and self.max_tally_below[r] > self.open_cols - 1:
                return False                         # filling this column starves a later row
            if self.blocked[r][c]:
                return False                         # it would touch a ship diagonally
            if not self.all_tallies and \
                    self.ship_total + 1 + self.ships_ahead[r * self.cols + c + 1] > self.puzzle.ship_cells:
                return False                         # no room left in the fleet for the hints ahead
            longest = self.longest
            if (c > 0 and self.across_run[r][c - 1] + 1 > longest) or \
                    (r > 0 and self.down_run[r - 1][c] + 1 > longest) or longest == 0:
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
        """Cells right of (r, c) in its row that can still be ship: free of the row above's
        diagonals, in a column that can still take a ship."""
        tallies, ships, blocked = self.puzzle.col_tallies, self.col_ships, self.blocked[r]
        count = 0
        for k in range(c + 1, self.cols):
            if not blocked[k] and ((tally := tallies[k]) is None or ships[k] < tally):
                count += 1
        return count

    def _middle_fits(self, r: int, c: int, below: Cell) -> bool:
        """A middle piece at (r, c), now that the cell below it gets ``below``."""
        grid = self.grid
        across = c > 0 and grid[r][c - 1] == SHIP and c + 1 < self.cols and grid[r][c + 1] == SHIP
        down = r > 0 and grid[r - 1][c] == SHIP and below == SHIP
        return across or down

    def _closes(self, r: int, c: int, value: Cell) -> tuple[int, ...] | None:
        """Lengths of the ships that setting (r, c) closes; None if the fleet has no room for one."""
        closes: tuple[int, ...] = ()
        if value == WATER:
            left = self.across_run[r][c - 1] if c > 0 else 0
            if left >= 2:
                closes = (left,)
            if r > 0 and self.grid[r - 1][c] == SHIP and not self._across(r - 1, c):
                closes += (self.down_run[r - 1][c],)
        elif c == self.cols - 1 and c > 0 and self.across_run[r][c - 1] >= 1:
            closes = (self.across_run[r][c - 1] + 1,)      # the border closes a horizontal ship
        if not closes:
            return closes
        for length in closes:
            if self.closed.get(length, 0) + closes.count(length) > self.fleet.get(length, 0):
                return None
        return closes

    def _complete(self) -> bool:
        """All cells filled: close the ships standing on the bottom border, then count the fleet."""
        r = self.rows - 1
        closed = dict(self.closed)
        for c in range(self.cols):
            if self.grid[r][c] == SHIP and not self._across(r, c):
                length = self.down_run[r][c]
                closed[length] = closed.get(length, 0) + 1
        return closed == self.fleet

    def _across(self, r: int, c: int) -> bool:
        """Whether the ship cell (r, c) is part of a horizontal ship."""
        return ((c > 0 and self.grid[r][c - 1] == SHIP)
                or (c + 1 < self.cols and self.grid[r][c + 1] == SHIP))

    def _longest_missing(self) -> int:
        return next((length for length in self.lengths if self.closed[length] < self.fleet[length]), 0)

    # -- at the end of a row -----------------------------------------------------------------
    def _row_state(self, r: int) -> bytes:
        """What the rest of the search depends on once row ``r`` is complete (see the docstring)."""
        grid, down = self.grid[r], self.down_run[r]
        code = [ACROSS if value == SHIP and self._across(r, c) else down[c]
                for c, value in enumerate(grid)]
        return bytes([r, *self.col_ships, *self.closed.values(), *code])

    def _forget_row_end(self, entry: tuple[bytes, int], solutions_now: int) -> None:
        """Leaving a row end for good: remember it as a dead end if nothing was found below it."""
        state, solutions_then = entry
        if solutions_now == solutions_then and len(self.failed) < MEMORY_LIMIT:
            self.failed.add(state)

    def _rows_below_fit(self, r: int) -> bool:
        """Row ``r`` is complete and the next row's blocked cells marked: can the next row
        still reach its tally, and can each pair of neighbouring columns still take what it
        needs from the rows below?"""
        next_tally = self.puzzle.row_tallies[r + 1]
        if next_tally and self._open_cells_after(r + 1, -1) < next_tally:
            return False
        tallies, ships, cols = self.puzzle.col_tallies, self.col_ships, self.cols
        ship = [value == SHIP for value in self.grid[r]]
        needs = [None if (tally := tallies[c]) is None else tally - ships[c] for c in range(cols)]
        height = self.rows - 1 - r
        for c in range(cols - 1):
            if needs[c] is None or needs[c + 1] is None:
                continue
            left, right = ship[c], ship[c + 1]
            if (left and right) or (left and c > 0 and ship[c - 1]) or (right and c + 2 < cols and ship[c + 2]):
                start = 3                            # a horizontal ship: the cells below stay water
            else:
                start = left | (right << 1)
            if (needs[c], needs[c + 1]) not in column_pair_counts(start, height):
                return False
        return True

    def _block_next(self, r: int) -> None:
        """Row ``r`` is complete: mark the cells of the next row diagonal to its ships."""
        row, blocked, last = self.grid[r], self.blocked[r + 1], self.cols - 1
        for c in range(self.cols):
            blocked[c] = (c > 0 and row[c - 1] == SHIP) or (c < last and row[c + 1] == SHIP)

    # -- board changes ---------------------------------------------------------------------
    def _set(self, r: int, c: int, value: Cell, closes: tuple[int, ...], forced: bool,
             nodes: int, backtracks: int) -> SetCell | None:
        """Put ``value`` on (r, c); the trace's event for it, with the counts so far (None when
        nobody watches)."""
        self.grid[r][c] = value
        if value == SHIP:
            self.row_ships[r] += 1
            self.col_ships[c] += 1
            self.ship_total += 1
            if self.col_ships[c] == self.puzzle.col_tallies[c]:
                self.open_cols -= 1
            self.across_run[r][c] = (self.across_run[r][c - 1] if c > 0 else 0) + 1
            self.down_run[r][c] = (self.down_run[r - 1][c] if r > 0 else 0) + 1
        if closes:
            for length in closes:
                self.closed[length] += 1
            self.longest = self._longest_missing()
        self.guesses += not forced
        if not self.trace or (r, c) in self.puzzle.hints:
            return None
        counts = self._counts(nodes, backtracks)
        if forced:
            return SetCell(r, c, value, Reason.FORCED, "the hint's shape", self.guesses, counts)
        return SetCell(r, c, value, Reason.GUESS, f"try {value.name.lower()}", self.guesses, counts)

    def _unset(self, r: int, c: int, closes: tuple[int, ...], forced: bool, nodes: int, backtracks: int,
               why: str = "undo") -> SetCell | None:
        """Clear (r, c) again; the trace's event for it, with the counts so far (None when
        nobody watches)."""
        if self.grid[r][c] == SHIP:
            if self.col_ships[c] == self.puzzle.col_tallies[c]:
                self.open_cols += 1
            self.row_ships[r] -= 1
            self.col_ships[c] -= 1
            self.ship_total -= 1
            self.across_run[r][c] = self.down_run[r][c] = 0
        if closes:
            for length in closes:
                self.closed[length] -= 1
            self.longest = self._longest_missing()
        self.grid[r][c] = UNKNOWN
        self.guesses -= not forced
        if not self.trace or (r, c) in self.puzzle.hints:
            return None
        return SetCell(r, c, UNKNOWN, Reason.BACKTRACK, why, self.guesses, self._counts(nodes, backtracks))

    def _counts(self, nodes: int, backtracks: int) -> dict[str, object]:
        """The counts a move carries: a watcher who sees one move at a time sees them move
        (the heartbeat says them only every ``HEARTBEAT_NODES``)."""
        return {"nodes": nodes, "backtracks": backtracks, "remembered": self.stats["remembered"]}

    # -- the end -------------------------------------------------------------------------------
    def _snapshot(self) -> dict:
        self.stats["seconds"] = elapsed(self.started)
        return dict(self.stats)

    def _finish(self, solutions: list[Grid]) -> Iterator[Event]:
        self.stats["solutions"] = len(solutions)
        stats = self._snapshot()
        if self.trace and solutions:
            # Show the first solution whatever the search went on to try.
            for r, row in enumerate(solutions[0]):
                for c, value in enumerate(row):
                    if self.grid[r][c] != value:
                        yield SetCell(r, c, value, Reason.FILL, "the first solution", 0)
        yield answer(self.puzzle, solutions, stats)
