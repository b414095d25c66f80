"""The one judge of a board.

``violations(puzzle, grid)`` lists everything wrong with a finished board (unknown cells
count as water). ``provable_violations(puzzle, grid)`` lists only what is already certainly
wrong with a partial board, whatever the unknown cells turn out to be. ``judge`` gives both
verdicts and the fleet checklist in one reading, for a window that judges once per change.
Ships are read with the placement model (``game.ships``). Nothing else decides "solved".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from game.puzzle import Cell, Coord, Hint, Puzzle, cell_said, plural, ship_name
from game.ships import Geometry, Segment, geometry, geometry_of, segments

Board = Sequence[Sequence[Cell]]


@dataclass(frozen=True)
class Violation:
    """One broken rule. ``kind`` is one of: row, col, fleet, touching, bent, too_long, hint, shape."""

    kind: str
    message: str
    cells: tuple[Coord, ...] = ()
    index: int | None = None      # the row or column for kind row/col; ship length for fleet


@dataclass(frozen=True)
class Judgement:
    """One board judged: what is provably wrong, whether it is a solution, and how many ships
    of each length it shows closed (the fleet checklist)."""

    problems: tuple[Violation, ...]
    solved: bool
    closed: Counter


class _Reading:
    """A board as masks, read once: its cells, its segments, and unknown cells as water or not."""

    def __init__(self, puzzle: Puzzle, board: Board, partial: bool) -> None:
        if len(board) != puzzle.rows or any(len(row) != puzzle.cols for row in board):
            raise ValueError(f"board is not {puzzle.rows}x{puzzle.cols}")
        self.puzzle, self.board, self.partial = puzzle, board, partial
        self.geo: Geometry = geometry(puzzle.rows, puzzle.cols, ())
        self.ship, water = self.geo.masks(board)
        self.water = water if partial else self.geo.board & ~self.ship
        self.segments: list[Segment] = segments(self.geo, self.ship, self.water)

    def violations(self) -> list[Violation]:
        return self._tallies() + _touching(self.board) + self._hints() + self._fleet()

    def _tallies(self) -> list[Violation]:
        found = []
        geo = self.geo
        unknown = geo.board & ~self.ship & ~self.water
        for axis, masks, tallies in (("row", geo.row_masks, self.puzzle.row_tallies),
                                     ("col", geo.col_masks, self.puzzle.col_tallies)):
            name = "Row" if axis == "row" else "Column"
            for index, (mask, tally) in enumerate(zip(masks, tallies)):
                if tally is None:
                    continue
                ships, free = (self.ship & mask).bit_count(), (unknown & mask).bit_count()
                if ships > tally or ships + free < tally:
                    if self.partial and ships <= tally:
                        message = (f"{name} {index + 1} can reach at most {plural(ships + free, 'ship cell')}, "
                                   f"its tally is {tally}")
                    else:
                        message = f"{name} {index + 1} has {plural(ships, 'ship cell')}, its tally is {tally}"
                    found.append(Violation(axis, message, tuple(geo.coords(mask)), index))
        return found

    def _hints(self) -> list[Violation]:
        puzzle = self.puzzle
        if not puzzle.hints:
            return []
        fleet = geometry_of(puzzle)
        found = []
        for (r, c), hint in puzzle.hints.items():
            value = self.board[r][c]
            where = cell_said(r, c)
            if hint is Hint.WATER:
                if value == Cell.SHIP:
                    found.append(Violation("hint", f"The given water at {where} is marked as ship", ((r, c),)))
                continue
            if value == Cell.WATER or (not self.partial and value == Cell.UNKNOWN):
                found.append(Violation("hint", f"The given ship piece at {where} is not ship", ((r, c),)))
                continue
            # Some ship showing this piece here must still be possible (on a finished board:
            # the ship through the cell must be one).
            if not any(not p.cells & self.water and not p.halo & self.ship for p in fleet.showing(r, c, hint)):
                around = self.geo.component(self.geo.bit(r, c), self.ship)
                found.append(Violation("shape", f"The given {hint.value} piece at {where} does not fit its ship",
                                       ((r, c), *(cell for cell in self.geo.coords(around) if cell != (r, c)))))
        return found

    def _fleet(self) -> list[Violation]:
        found = []
        fleet = self.puzzle.fleet_counts
        longest = self.puzzle.longest_ship
        geo = self.geo
        runs = [seg for seg in self.segments if seg.straight]
        for seg in runs:
            if seg.length > longest:
                found.append(Violation("too_long", f"A ship of {seg.length} cells is longer than the longest "
                                       f"in the fleet ({longest})", tuple(geo.coords(seg.cells)), seg.length))
        closed = self.closed()
        for length, count in sorted(closed.items()):
            wanted = fleet.get(length, 0)
            if length <= longest and count > wanted:
                found.append(Violation("fleet", f"{plural(count, 'ship')} of length {length} ({ship_name(length)}), "
                                       f"the fleet has {wanted}", (), length))
        if not self.partial:
            for length, wanted in sorted(fleet.items()):
                if closed.get(length, 0) < wanted:
                    found.append(Violation("fleet", f"{plural(closed.get(length, 0), 'ship')} of length {length} "
                                           f"({ship_name(length)}), the fleet has {wanted}", (), length))
        return found

    def closed(self) -> Counter:
        return Counter(seg.length for seg in self.segments if seg.closed)


def _touching(board: Board) -> list[Violation]:
    found = []
    rows, cols = len(board), len(board[0]) if board else 0

    def ship(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and board[r][c] == Cell.SHIP

    for r, row in enumerate(board):
        for c, value in enumerate(row):
            if value != Cell.SHIP:
                continue
            for dc in (-1, 1):
                if ship(r + 1, c + dc):
                    # Bent: the two cells share a ship neighbour, the corner where it turns.
                    corner = (r, c + dc) if ship(r, c + dc) else (r + 1, c) if ship(r + 1, c) else None
                    bent = corner is not None
                    kind = "bent" if bent else "touching"
                    message = (f"Ship bends at {cell_said(*corner)}" if corner else
                               f"Ships touch diagonally at rows {r + 1}-{r + 2}, columns "
                               f"{min(c, c + dc) + 1}-{max(c, c + dc) + 1}")
                    found.append(Violation(kind, message, ((r, c), (r + 1, c + dc))))
    return found


def violations(puzzle: Puzzle, board: Board) -> list[Violation]:
    """Everything wrong with a finished board (unknown cells count as water)."""
    return _Reading(puzzle, board, partial=False).violations()


def provable_violations(puzzle: Puzzle, board: Board) -> list[Violation]:
    """What is wrong with a partial board whatever its unknown cells become."""
    return _Reading(puzzle, board, partial=True).violations()


def is_solved(puzzle: Puzzle, board: Board) -> bool:
    return not violations(puzzle, board)


def closed_ships(puzzle: Puzzle, board: Board) -> Counter:
    """Ship length -> how many closed ships of that length the board shows (the fleet checklist)."""
    return _Reading(puzzle, board, partial=True).closed()


def judge(puzzle: Puzzle, board: Board) -> Judgement:
    """Both readings of a board at once. A provable problem is wrong for every way of
    finishing the board, so only a board without one is read again as finished."""
    partial = _Reading(puzzle, board, partial=True)
    problems = tuple(partial.violations())
    # A solution shows the fleet's ship cells exactly: a board with more or fewer is not one,
    # and is not read again (the second reading is most of the time on a large board).
    solved = (not problems and partial.ship.bit_count() == puzzle.ship_cells
              and not _Reading(puzzle, board, partial=False).violations())
    return Judgement(problems, solved, partial.closed())
