"""The tests' one brute force: every layout of a fleet, and every solution of a puzzle as the
layouts the judge (``game.rules``) accepts. It shares nothing with the solvers: ships are
placed one by one, each clear of the cells around the others, a cell ``(r, c)`` being bit
``r * cols + c`` of an int."""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator, Sequence

from game import rules
from game.puzzle import Cell, Grid, Puzzle

Fleet = tuple[tuple[int, int], ...]


def _places(rows: int, cols: int, length: int) -> list[tuple[int, int]]:
    """Each place of a ship of ``length``: its cells and the cells around them (itself too)."""
    found = []
    for across in ((True,) if length == 1 else (True, False)):
        for r in range(rows - (0 if across else length - 1)):
            for c in range(cols - (length - 1 if across else 0)):
                cells = [(r, c + k) if across else (r + k, c) for k in range(length)]
                ship = sum(1 << (y * cols + x) for y, x in cells)
                near = {(y + dy, x + dx) for y, x in cells for dy in (-1, 0, 1) for dx in (-1, 0, 1)}
                found.append((ship, sum(1 << (y * cols + x) for y, x in near if 0 <= y < rows and 0 <= x < cols)))
    return found


def _lines(puzzle: Puzzle) -> list[tuple[int, int]]:
    """Each tallied line of the puzzle: its cells, and its tally."""
    rows, cols = puzzle.rows, puzzle.cols
    across = [((1 << cols) - 1) << (r * cols) for r in range(rows)]
    down = [sum(1 << (r * cols + c) for r in range(rows)) for c in range(cols)]
    return [(mask, tally) for masks, tallies in ((across, puzzle.row_tallies), (down, puzzle.col_tallies))
            for mask, tally in zip(masks, tallies) if tally is not None]


def _layouts(rows: int, cols: int, fleet: Fleet, limits: Sequence[tuple[int, int]] = ()) -> Iterator[int]:
    """Every layout of the fleet, ships of one length in the order of their places (no layout
    twice); with ``limits`` (cells, most), those only that have at most so many ship cells there."""
    ships = [length for length, count in sorted(fleet, reverse=True) for _ in range(count)]
    places = {length: _places(rows, cols, length) for length in set(ships)}

    def place(index: int, first: int, taken: int, around: int) -> Iterator[int]:
        if index == len(ships):
            yield taken
            return
        length = ships[index]
        options = places[length]
        for k in range(first if index and ships[index - 1] == length else 0, len(options)):
            ship, near = options[k]
            if ship & around:
                continue
            now = taken | ship
            if any((now & mask).bit_count() > most for mask, most in limits):
                continue
            yield from place(index + 1, k + 1, now, around | near)

    yield from place(0, 0, 0, 0)


@lru_cache(maxsize=64)
def layouts(rows: int, cols: int, fleet: Fleet) -> tuple[frozenset, ...]:
    """Every layout of the fleet on the board, each as the set of its ship cells."""
    return tuple(cells_of(mask, cols) for mask in _layouts(rows, cols, fleet))


def cells_of(mask: int, cols: int) -> frozenset:
    return frozenset(divmod(bit, cols) for bit in range(mask.bit_length()) if mask >> bit & 1)


def grid_of(cells, rows: int, cols: int) -> Grid:
    return tuple(tuple(Cell.SHIP if (r, c) in cells else Cell.WATER for c in range(cols)) for r in range(rows))


def solutions(puzzle: Puzzle) -> list[Grid]:
    """Every solution: each layout of the fleet that the judge accepts (a layout with more ship
    cells in a line than its tally is passed over as it is laid, and one with fewer before the
    judge, as the judge would refuse them)."""
    lines = _lines(puzzle)
    found = []
    for mask in _layouts(puzzle.rows, puzzle.cols, puzzle.fleet, lines):
        if all((mask & cells).bit_count() == tally for cells, tally in lines):
            grid = grid_of(cells_of(mask, puzzle.cols), puzzle.rows, puzzle.cols)
            if rules.is_solved(puzzle, grid):
                found.append(grid)
    return found


def count(puzzle: Puzzle) -> int:
    return len(solutions(puzzle))
