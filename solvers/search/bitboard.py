"""A bitboard model of a puzzle for the exact solvers: cells and ship placements as int bitsets.

Glossary
- *bit*: cell ``(r, c)`` is bit ``r * stride + c`` with ``stride = cols + 1``; the padding
  column keeps shifts by one from wrapping onto the next row.
- *placement*: one possible ship: a length, a position and a direction. Its ``cells`` mask
  and its ``halo`` (the 8-neighbourhood minus the cells, clipped to the board). A ship in a
  solution is a placement whose cells are ship and whose halo is water, so a placement is
  *alive* while its cells hold no water, its halo holds no ship and its line tally has room.
- *placement set*: placements are numbered, so a set of them is an int too (``alive``).
- *state*: what a search node knows: ship and water cells, the ships already placed, the
  alive placements and how many ships of each length are still to place. Immutable, so a
  search keeps its parents for free and never undoes anything.

Hint shapes are compiled into the placements: a ``top`` hint keeps only vertical placements
starting at it, a ``middle`` hint only placements of 3+ cells with it inside, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

from game.puzzle import HINT_CONTINUES, HINT_STOPS, Cell, Coord, Grid, Hint, Puzzle


def bit_indices(mask: int) -> Iterator[int]:
    """Indices of the set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True)
class Placement:
    index: int
    length: int
    row: int
    col: int
    horizontal: bool
    cells: int
    halo: int


@dataclass(frozen=True)
class Geometry:
    """Everything that depends only on the board size and the ship lengths (cached)."""

    rows: int
    cols: int
    stride: int
    board: int
    row_masks: tuple[int, ...]
    col_masks: tuple[int, ...]
    lengths: tuple[int, ...]                 # distinct ship lengths, longest first
    placements: tuple[Placement, ...]
    length_sets: tuple[int, ...]             # per length index: its placements
    covering: tuple[int, ...]                # per cell bit: placements whose cells hold it
    surrounding: tuple[int, ...]             # per cell bit: placements whose halo holds it
    row_lines: tuple[int, ...]               # per row: horizontal placements of 2+ cells in it
    col_lines: tuple[int, ...]               # per column: vertical placements of 2+ cells in it
    # The placements' fields as flat tuples: the propagation loops read them millions of times.
    p_cells: tuple[int, ...] = ()
    p_halo: tuple[int, ...] = ()
    p_length: tuple[int, ...] = ()
    p_length_index: tuple[int, ...] = ()

    def bit(self, row: int, col: int) -> int:
        return 1 << (row * self.stride + col)

    def coord(self, index: int) -> Coord:
        return divmod(index, self.stride)

    def coords(self, mask: int) -> list[Coord]:
        return [divmod(i, self.stride) for i in bit_indices(mask)]

    def orthogonal(self, mask: int) -> int:
        s = self.stride
        return ((mask << 1) | (mask >> 1) | (mask << s) | (mask >> s)) & self.board

    def diagonal(self, mask: int) -> int:
        s = self.stride
        return ((mask << (s + 1)) | (mask << (s - 1)) | (mask >> (s + 1)) | (mask >> (s - 1))) & self.board

    def component(self, seed: int, within: int) -> int:
        """The orthogonally connected part of ``within`` that holds ``seed``."""
        grown = seed
        while True:
            wider = (grown | self.orthogonal(grown)) & within
            if wider == grown:
                return grown
            grown = wider


@lru_cache(maxsize=32)
def geometry(rows: int, cols: int, lengths: tuple[int, ...]) -> Geometry:
    stride = cols + 1
    board = 0
    row_masks = []
    for r in range(rows):
        row_mask = ((1 << cols) - 1) << (r * stride)
        row_masks.append(row_mask)
        board |= row_mask
    col_masks = [sum(1 << (r * stride + c) for r in range(rows)) for c in range(cols)]

    def bit(r: int, c: int) -> int:
        return 1 << (r * stride + c) if 0 <= r < rows and 0 <= c < cols else 0

    placements: list[Placement] = []
    length_sets = []
    for length in lengths:
        first = len(placements)
        directions = (True,) if length == 1 else (True, False)
        for horizontal in directions:
            dr, dc = (0, 1) if horizontal else (1, 0)
            for r in range(rows - dr * (length - 1)):
                for c in range(cols - dc * (length - 1)):
                    cells = 0
                    around = 0
                    for i in range(length):
                        cr, cc = r + dr * i, c + dc * i
                        cells |= bit(cr, cc)
                        for nr in (cr - 1, cr, cr + 1):
                            for nc in (cc - 1, cc, cc + 1):
                                around |= bit(nr, nc)
                    placements.append(Placement(len(placements), length, r, c, horizontal, cells, around & ~cells))
        length_sets.append(((1 << len(placements)) - 1) ^ ((1 << first) - 1))

    covering = [0] * (rows * stride)
    surrounding = [0] * (rows * stride)
    row_lines = [0] * rows
    col_lines = [0] * cols
    for p in placements:
        for i in bit_indices(p.cells):
            covering[i] |= 1 << p.index
        for i in bit_indices(p.halo):
            surrounding[i] |= 1 << p.index
        if p.length >= 2:
            if p.horizontal:
                row_lines[p.row] |= 1 << p.index
            else:
                col_lines[p.col] |= 1 << p.index
    length_index = {length: i for i, length in enumerate(lengths)}
    return Geometry(rows, cols, stride, board, tuple(row_masks), tuple(col_masks), lengths, tuple(placements),
                    tuple(length_sets), tuple(covering), tuple(surrounding), tuple(row_lines), tuple(col_lines),
                    tuple(p.cells for p in placements), tuple(p.halo for p in placements),
                    tuple(p.length for p in placements), tuple(length_index[p.length] for p in placements))


@dataclass(frozen=True)
class State:
    """One search node's knowledge (see the glossary)."""

    ship: int
    water: int
    placed: int
    alive: int
    counts: tuple[int, ...]                  # ships still to place, per length index

    def unknown(self, geo: Geometry) -> int:
        return geo.board & ~(self.ship | self.water)

    @property
    def done(self) -> bool:
        return not any(self.counts)


@dataclass(frozen=True)
class Model:
    """A puzzle compiled for search: its geometry, known tallies and the start state."""

    puzzle: Puzzle
    geo: Geometry
    row_tallies: tuple[int | None, ...]
    col_tallies: tuple[int | None, ...]
    start: State
    hint_ship: int
    hint_water: int
    shape_ship: int                          # cells a hint's shape says are ship
    shape_water: int                         # cells a hint's shape says are water
    broken: str = ""                         # non-empty when the hints contradict themselves
    # Lines with a known tally: (is_row, index, cells, tally, placements along the line).
    lines: tuple[tuple[bool, int, int, int, int], ...] = ()

    def grid(self, ship: int, water: int | None = None) -> Grid:
        """The board for masks (``water=None``: every non-ship cell is water)."""
        geo = self.geo
        rows = []
        for r in range(geo.rows):
            row = []
            for c in range(geo.cols):
                b = geo.bit(r, c)
                if ship & b:
                    row.append(Cell.SHIP)
                elif water is None or water & b:
                    row.append(Cell.WATER)
                else:
                    row.append(Cell.UNKNOWN)
            rows.append(tuple(row))
        return tuple(rows)


def compile_puzzle(puzzle: Puzzle) -> Model:
    lengths = tuple(length for length, _ in puzzle.fleet)
    geo = geometry(puzzle.rows, puzzle.cols, lengths)
    alive = (1 << len(geo.placements)) - 1
    hint_ship = hint_water = shape_ship = shape_water = 0
    for (r, c), hint in puzzle.hints.items():
        b = geo.bit(r, c)
        if hint is Hint.WATER:
            hint_water |= b
            continue
        hint_ship |= b
        for p in geo.placements:
            if p.cells & b:
                position = abs(r - p.row) + abs(c - p.col)
                if not hint.fits(p.length, p.horizontal, position):
                    alive &= ~(1 << p.index)
        for dr, dc in HINT_CONTINUES.get(hint, ()):
            if puzzle.inside(r + dr, c + dc):
                shape_ship |= geo.bit(r + dr, c + dc)
        for dr, dc in HINT_STOPS.get(hint, ()):
            if puzzle.inside(r + dr, c + dc):
                shape_water |= geo.bit(r + dr, c + dc)
    broken = ""
    if (hint_ship | shape_ship) & (hint_water | shape_water):
        broken = "the hints contradict each other"
    start = State(0, 0, 0, alive, tuple(count for _, count in puzzle.fleet))
    lines = [(True, r, m, puzzle.row_tallies[r], geo.row_lines[r]) for r, m in enumerate(geo.row_masks)]
    lines += [(False, c, m, puzzle.col_tallies[c], geo.col_lines[c]) for c, m in enumerate(geo.col_masks)]
    return Model(puzzle, geo, puzzle.row_tallies, puzzle.col_tallies, start, hint_ship, hint_water,
                 shape_ship, shape_water, broken, tuple(line for line in lines if line[3] is not None))
