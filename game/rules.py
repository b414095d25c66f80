"""The one judge of a board.

``violations(puzzle, grid)`` lists everything wrong with a finished board (unknown cells
count as water). ``provable_violations(puzzle, grid)`` lists only what is already certainly
wrong with a partial board, whatever the unknown cells turn out to be: the window's red
tallies and the "Check" button use it. Nothing else in the project decides "solved".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from game.puzzle import HINT_CONTINUES, HINT_STOPS, Cell, Coord, Hint, Puzzle, ship_name

Board = Sequence[Sequence[Cell]]


@dataclass(frozen=True)
class Violation:
    """One broken rule. ``kind`` is one of: row, col, fleet, touching, bent, too_long, hint, shape."""

    kind: str
    message: str
    cells: tuple[Coord, ...] = ()
    index: int | None = None      # the row or column for kind row/col; ship length for fleet


@dataclass(frozen=True)
class Segment:
    """A straight run of ship cells. ``closed``: it cannot grow (water or border all round)."""

    cells: tuple[Coord, ...]
    closed: bool

    @property
    def length(self) -> int:
        return len(self.cells)


def _is_ship(board: Board, r: int, c: int) -> bool:
    return 0 <= r < len(board) and 0 <= c < len(board[0]) and board[r][c] == Cell.SHIP


def _is_sealed(board: Board, r: int, c: int, unknown_is_water: bool) -> bool:
    """Border or water (or, on a finished board, unknown)."""
    if not (0 <= r < len(board) and 0 <= c < len(board[0])):
        return True
    value = board[r][c]
    return value == Cell.WATER or (unknown_is_water and value == Cell.UNKNOWN)


def ship_components(board: Board) -> list[tuple[Coord, ...]]:
    """Groups of orthogonally connected ship cells, each sorted, in reading order."""
    seen: set[Coord] = set()
    groups = []
    for r, row in enumerate(board):
        for c, value in enumerate(row):
            if value != Cell.SHIP or (r, c) in seen:
                continue
            stack, group = [(r, c)], []
            seen.add((r, c))
            while stack:
                cr, cc = stack.pop()
                group.append((cr, cc))
                for nr, nc in ((cr - 1, cc), (cr + 1, cc), (cr, cc - 1), (cr, cc + 1)):
                    if _is_ship(board, nr, nc) and (nr, nc) not in seen:
                        seen.add((nr, nc))
                        stack.append((nr, nc))
            groups.append(tuple(sorted(group)))
    return groups


def _straight(group: tuple[Coord, ...]) -> bool:
    rows = {r for r, _ in group}
    cols = {c for _, c in group}
    return len(rows) == 1 or len(cols) == 1


def segments(board: Board, unknown_is_water: bool = False) -> list[Segment]:
    """Straight ship runs and whether each is closed. Bent groups are left out."""
    result = []
    for group in ship_components(board):
        if not _straight(group):
            continue
        (r0, c0), (r1, c1) = group[0], group[-1]
        if len(group) == 1:
            ends = [(r0 - 1, c0), (r0 + 1, c0), (r0, c0 - 1), (r0, c0 + 1)]
        elif r0 == r1:
            ends = [(r0, c0 - 1), (r1, c1 + 1)]
        else:
            ends = [(r0 - 1, c0), (r1 + 1, c1)]
        closed = all(_is_sealed(board, r, c, unknown_is_water) for r, c in ends)
        result.append(Segment(group, closed))
    return result


def _line_cells(puzzle: Puzzle, axis: str, index: int) -> list[Coord]:
    if axis == "row":
        return [(index, c) for c in range(puzzle.cols)]
    return [(r, index) for r in range(puzzle.rows)]


def _tally_violations(puzzle: Puzzle, board: Board, partial: bool) -> list[Violation]:
    found = []
    for axis, tallies in (("row", puzzle.row_tallies), ("col", puzzle.col_tallies)):
        for index, tally in enumerate(tallies):
            if tally is None:
                continue
            cells = _line_cells(puzzle, axis, index)
            ships = sum(board[r][c] == Cell.SHIP for r, c in cells)
            unknown = sum(board[r][c] == Cell.UNKNOWN for r, c in cells) if partial else 0
            name = "Row" if axis == "row" else "Column"
            if ships > tally:
                found.append(Violation(axis, f"{name} {index + 1} has {ships} ship cells, its tally is {tally}",
                                       tuple(cells), index))
            elif ships + unknown < tally:
                if partial:
                    message = (f"{name} {index + 1} can reach at most {ships + unknown} ship cells, "
                               f"its tally is {tally}")
                else:
                    message = f"{name} {index + 1} has {ships} ship cells, its tally is {tally}"
                found.append(Violation(axis, message, tuple(cells), index))
    return found


def _touching_violations(board: Board) -> list[Violation]:
    found = []
    for r, row in enumerate(board):
        for c, value in enumerate(row):
            if value != Cell.SHIP:
                continue
            for dc in (-1, 1):
                if _is_ship(board, r + 1, c + dc):
                    bent = _is_ship(board, r, c + dc) or _is_ship(board, r + 1, c)
                    kind = "bent" if bent else "touching"
                    message = (f"Ship bends at row {r + 1}, column {c + 1}" if bent else
                               f"Ships touch diagonally at rows {r + 1}-{r + 2}, columns "
                               f"{min(c, c + dc) + 1}-{max(c, c + dc) + 1}")
                    found.append(Violation(kind, message, ((r, c), (r + 1, c + dc))))
    return found


def _hint_violations(puzzle: Puzzle, board: Board, partial: bool) -> list[Violation]:
    found = []
    for (r, c), hint in puzzle.hints.items():
        value = board[r][c]
        where = f"row {r + 1}, column {c + 1}"
        if hint is Hint.WATER:
            if value == Cell.SHIP:
                found.append(Violation("hint", f"The given water at {where} is marked as ship", ((r, c),)))
            continue
        if value == Cell.WATER or (not partial and value == Cell.UNKNOWN):
            found.append(Violation("hint", f"The given ship piece at {where} is not ship", ((r, c),)))
            continue
        wrong: list[Coord] = []
        for dr, dc in HINT_CONTINUES.get(hint, ()):
            if _is_sealed(board, r + dr, c + dc, unknown_is_water=not partial):
                wrong.append((r + dr, c + dc))
        for dr, dc in HINT_STOPS.get(hint, ()):
            if _is_ship(board, r + dr, c + dc):
                wrong.append((r + dr, c + dc))
        if hint is Hint.MIDDLE:
            across = [_is_ship(board, r, c + d) for d in (-1, 1)]
            down = [_is_ship(board, r + d, c) for d in (-1, 1)]
            across_open = [not _is_sealed(board, r, c + d, not partial) for d in (-1, 1)]
            down_open = [not _is_sealed(board, r + d, c, not partial) for d in (-1, 1)]
            if (any(across) and any(down)) or not (all(across_open) or all(down_open)):
                wrong.append((r, c))
        if wrong:
            found.append(Violation("shape", f"The given {hint.value} piece at {where} does not fit its ship",
                                   ((r, c), *wrong)))
    return found


def _fleet_violations(puzzle: Puzzle, board: Board, partial: bool) -> list[Violation]:
    found = []
    fleet = puzzle.fleet_counts
    longest = puzzle.longest_ship
    runs = segments(board, unknown_is_water=not partial)
    for seg in runs:
        if seg.length > longest:
            found.append(Violation("too_long", f"A ship of {seg.length} cells is longer than the longest "
                                   f"in the fleet ({longest})", seg.cells, seg.length))
    closed = Counter(seg.length for seg in runs if seg.closed)
    for length, count in sorted(closed.items()):
        wanted = fleet.get(length, 0)
        if length <= longest and count > wanted:
            found.append(Violation("fleet", f"{count} ships of length {length} ({ship_name(length)}), "
                                   f"the fleet has {wanted}", (), length))
    if not partial:
        for length, wanted in sorted(fleet.items()):
            if closed.get(length, 0) < wanted:
                found.append(Violation("fleet", f"{closed.get(length, 0)} ships of length {length} "
                                       f"({ship_name(length)}), the fleet has {wanted}", (), length))
    return found


def violations(puzzle: Puzzle, board: Board) -> list[Violation]:
    """Everything wrong with a finished board (unknown cells count as water)."""
    _check_shape(puzzle, board)
    return (_tally_violations(puzzle, board, partial=False) + _touching_violations(board)
            + _hint_violations(puzzle, board, partial=False) + _fleet_violations(puzzle, board, partial=False))


def provable_violations(puzzle: Puzzle, board: Board) -> list[Violation]:
    """What is wrong with a partial board whatever its unknown cells become."""
    _check_shape(puzzle, board)
    return (_tally_violations(puzzle, board, partial=True) + _touching_violations(board)
            + _hint_violations(puzzle, board, partial=True) + _fleet_violations(puzzle, board, partial=True))


def is_solved(puzzle: Puzzle, board: Board) -> bool:
    return not violations(puzzle, board)


def closed_ships(puzzle: Puzzle, board: Board) -> Counter:
    """Ship length -> how many closed ships of that length the board shows (the fleet checklist)."""
    return Counter(seg.length for seg in segments(board) if seg.closed)


def _check_shape(puzzle: Puzzle, board: Board) -> None:
    if len(board) != puzzle.rows or any(len(row) != puzzle.cols for row in board):
        raise ValueError(f"board is not {puzzle.rows}x{puzzle.cols}")
