"""Ships on a board: where each ship can lie, and reading the ships off a board.

This is the one placement model: the solvers search over its placements, the judge reads
ships with it, and the window draws ship pieces from it.

Glossary
- *bit*: cell ``(r, c)`` is bit ``r * stride + c`` with ``stride = cols + 1``; the padding
  column keeps a shift by one from wrapping onto the next row. A set of cells is an int.
- *placement*: a ship of some length at ``(row, col)``, lying across or down: its ``cells``,
  its ``halo`` (every cell around it, diagonals included: water in any solution that uses
  it) and its ``ends`` (the cells just past each end; a submarine's four neighbours).
  Placements are numbered, so a set of them is an int too.
- *compatible*: a placement that agrees with the given hints: no given water under it, no
  given ship piece in its halo, and every given piece it covers is the piece it shows
  there (:meth:`game.puzzle.Hint.fits`). Every ship of every solution is compatible.
- *segment*: a group of orthogonally connected ship cells on a board; *closed* when it is
  straight and every cell past its ends is water or border, so it is a whole ship.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterator, Sequence

from game import bitsets
from game.bitsets import bits, int_of, kept, union
from game.puzzle import Cell, Coord, Grid, Hint, Puzzle, cells_said
from game.slices import Laid, Slices, drain

Board = Sequence[Sequence[Cell]]


@dataclass(frozen=True, slots=True)
class Placement:
    index: int
    length: int
    row: int
    col: int
    horizontal: bool               # a submarine counts as lying across
    cells: int
    halo: int
    ends: int
    line_is_row: bool              # the ship lies along a row (the same as ``horizontal``)
    line: int                      # the index of that row, or of its column

    def coords(self) -> tuple[Coord, ...]:
        dr, dc = (0, 1) if self.horizontal else (1, 0)
        return tuple((self.row + dr * i, self.col + dc * i) for i in range(self.length))

    def describe(self) -> str:
        """Where it lies, as sentences name cells (``game.puzzle.cells_said``)."""
        return cells_said(self.coords())


# The tables a geometry builds on first use, or in slices (``Geometry.tables``).
TABLES = ("covering", "surrounding", "covering_cells", "surrounding_cells", "row_lines", "col_lines")


class Geometry(Laid):
    """Every placement of every ship length on a board of one size, with its bit masks.

    Depends only on the board's size and the fleet's lengths, so it is shared (see
    :func:`geometry`). The per-cell tables (``covering``, ``surrounding``) are built on first
    use: the judge and the deduction engine need only the placements. A solver builds the
    geometry and the tables it reads in slices (:func:`prepared`), so that it can be stopped
    while it does (a 60x60 board has 63,000 placements).
    """

    def __init__(self, rows: int, cols: int, lengths: tuple[int, ...]) -> None:
        drain(self._lay(rows, cols, lengths))

    def _lay(self, rows: int, cols: int, lengths: tuple[int, ...]) -> Slices[None]:
        """Every placement and its masks, a slice per row of a length and direction."""
        self.rows, self.cols, self.lengths = rows, cols, lengths
        self.stride = stride = cols + 1
        self.row_masks = tuple(((1 << cols) - 1) << (r * stride) for r in range(rows))
        column = sum(1 << (r * stride) for r in range(rows))
        self.col_masks = tuple(column << c for c in range(cols))
        self.board = sum(self.row_masks)
        placements: list[Placement] = []
        length_sets = []
        self._first: dict[tuple[int, bool], int] = {}     # first index of each (length, across)
        self.segment_memo: dict[int, tuple[Segment, Segment]] = {}   # see ``segments``
        self.kills_memo: dict[int, tuple[int, int]] = {}              # see ``kills``
        self.ruled_out_memo: dict[tuple[int, Hint], int] = {}         # see ``ruled_out``
        self.showing_memo: dict[tuple[int, Hint], tuple[Placement, ...]] = {}   # see ``showing``
        for length in lengths:
            first = len(placements)
            for horizontal in ((True,) if length == 1 else (True, False)):
                self._first[(length, horizontal)] = len(placements)
                dr, dc = (0, 1) if horizontal else (1, 0)
                cells, halo, ends = self._shape(length, horizontal)
                for r in range(rows - dr * (length - 1)):
                    for c in range(cols - dc * (length - 1)):
                        at = r * stride + c
                        placements.append(Placement(len(placements), length, r, c, horizontal, cells << at,
                                                    self._around(halo, at), self._around(ends, at), horizontal,
                                                    r if horizontal else c))
                    yield
            length_sets.append(((1 << len(placements)) - 1) ^ ((1 << first) - 1))
        self.placements: tuple[Placement, ...] = tuple(placements)
        self.length_sets: tuple[int, ...] = tuple(length_sets)     # per length index: its placements
        self.length_index = {length: i for i, length in enumerate(lengths)}
        self.all_placements = (1 << len(placements)) - 1
        # The placements' fields as flat tuples: the search loops read them millions of times.
        self.p_cells = tuple(p.cells for p in placements)
        self.p_halo = tuple(p.halo for p in placements)
        self.p_length = tuple(p.length for p in placements)
        self.p_length_index = tuple(self.length_index[p.length] for p in placements)

    def _shape(self, length: int, horizontal: bool) -> tuple[int, int, int]:
        """A placement's cells at the top left, and its halo and ends drawn in the box one cell
        larger each way, that box's corner at bit 0 (see :meth:`_around`)."""
        stride = self.stride
        step = 1 if horizontal else stride
        cells = sum(1 << (step * i) for i in range(length))
        box = 0
        for row in range(3 if horizontal else length + 2):        # rows that may overlap: a narrow board
            box |= ((1 << (length + 2 if horizontal else 3)) - 1) << (stride * row)
        inner = cells << (stride + 1)
        if length == 1:
            ends = (1 << 1) | (1 << stride) | (1 << (stride + 2)) | (1 << (2 * stride + 1))
        else:
            ends = (1 << (stride + 1 - step)) | (1 << (stride + 1 + step * length))
        return cells, box & ~inner, ends

    def _around(self, shape: int, at: int) -> int:
        """A shape drawn around the placement whose first cell is bit ``at``, on the board: its
        box starts one row up and one column left, so a part past the top falls off the bottom
        of the int and a part past a side lands in a padding column, which the board leaves out."""
        return (shape << at) >> (self.stride + 1) & self.board

    # -- cells ------------------------------------------------------------------------------
    def bit(self, row: int, col: int) -> int:
        """The cell's bit; 0 outside the board."""
        return 1 << (row * self.stride + col) if 0 <= row < self.rows and 0 <= col < self.cols else 0

    def index(self, row: int, col: int) -> int:
        return row * self.stride + col

    def coord(self, index: int) -> Coord:
        return divmod(index, self.stride)

    def coords(self, mask: int) -> list[Coord]:
        return [divmod(i, self.stride) for i in bits(mask)]

    def where(self, mask: int) -> str:
        """The cells of ``mask`` as sentences name them (``game.puzzle.cells_said``), in reading order."""
        return cells_said(self.coords(mask))

    def mask_of(self, cells) -> int:
        """The bits of ``(row, col)`` cells; cells outside the board are left out."""
        mask = 0
        for r, c in cells:
            mask |= self.bit(r, c)
        return mask

    def orthogonal(self, mask: int) -> int:
        return bitsets.orthogonal(mask, self.stride, self.board)

    def diagonal(self, mask: int) -> int:
        return bitsets.diagonal(mask, self.stride, self.board)

    def component(self, seed: int, within: int) -> int:
        """The orthogonally connected part of ``within`` that holds ``seed``."""
        return bitsets.component(seed, within & self.board, self.stride)

    def masks(self, grid: Board) -> tuple[int, int]:
        """(ship cells, water cells) of a board."""
        ship = water = 0
        for r, row in enumerate(grid):
            base = r * self.stride
            for c, value in enumerate(row):
                if value == Cell.SHIP:
                    ship |= 1 << (base + c)
                elif value == Cell.WATER:
                    water |= 1 << (base + c)
        return ship, water

    def grid(self, ship: int, water: int | None = None) -> Grid:
        """The board for masks (``water=None``: every cell that is not ship is water)."""
        rows = []
        for r in range(self.rows):
            row = []
            for c in range(self.cols):
                b = 1 << (r * self.stride + c)
                row.append(Cell.SHIP if ship & b else Cell.WATER if water is None or water & b else Cell.UNKNOWN)
            rows.append(tuple(row))
        return tuple(rows)

    # -- placements -------------------------------------------------------------------------
    def placement(self, length: int, horizontal: bool, row: int, col: int) -> Placement | None:
        """The placement with these coordinates (None if the fleet has no such length or it
        does not fit on the board)."""
        horizontal = horizontal or length == 1
        first = self._first.get((length, horizontal))
        width = self.cols - (length - 1 if horizontal else 0)
        height = self.rows - (0 if horizontal else length - 1)
        if first is None or not (0 <= row < height and 0 <= col < width):
            return None
        return self.placements[first + row * width + col]

    def through(self, row: int, col: int) -> Iterator[Placement]:
        """Every placement that covers the cell, without the per-cell tables."""
        for length in self.lengths:
            for horizontal in ((True,) if length == 1 else (True, False)):
                for k in range(length):
                    p = self.placement(length, horizontal, row - (0 if horizontal else k),
                                       col - (k if horizontal else 0))
                    if p is not None:
                        yield p

    def showing(self, row: int, col: int, hint: Hint) -> tuple[Placement, ...]:
        """The placements through the cell that show ``hint``'s piece there (none for water):
        the few a judge of a given piece looks at, out of the hundred or so through a cell of a
        large board. Kept for ``RULED_OUT_KEPT`` hints, as :meth:`ruled_out` is."""
        key = (row * self.stride + col, hint)
        found = self.showing_memo.get(key)
        if found is None:
            found = tuple(p for p in self.through(row, col) if hint.fits(p.length, p.horizontal,
                                                                          (row - p.row) + (col - p.col)))
            found = kept(self.showing_memo, key, found, RULED_OUT_KEPT)
        return found

    def ruled_out(self, row: int, col: int, hint: Hint) -> int:
        """The placements a hint at the cell rules out: those through it that do not show that
        piece there (all of them under water), and for a ship piece, those beside it that would
        touch it. Kept for ``RULED_OUT_KEPT`` hints: the puzzles a generator or a grader asks
        about share their geometry and most of their hints."""
        key = (row * self.stride + col, hint)
        found = self.ruled_out_memo.get(key)
        if found is None:
            here = self.covering[key[0]]
            if hint is Hint.WATER:
                found = here
            else:
                found = 0
                for i in bits(here):
                    p = self.placements[i]
                    if not hint.fits(p.length, p.horizontal, (row - p.row) + (col - p.col)):
                        found |= 1 << i
                for nr in (row - 1, row, row + 1):             # a ship beside a given piece would touch it
                    for nc in (col - 1, col, col + 1):
                        if (nr, nc) != (row, col) and 0 <= nr < self.rows and 0 <= nc < self.cols:
                            found |= self.covering[nr * self.stride + nc] & ~here
            found = kept(self.ruled_out_memo, key, found, RULED_OUT_KEPT)
        return found

    def _groups(self) -> Iterator[tuple[int, bool, int]]:
        """(length, across, first index) per length and direction with a placement. Across,
        the placements are numbered by row, then column; down, by top row, then column."""
        for (length, across), first in self._first.items():
            if length <= (self.cols if across else self.rows):
                yield length, across, first

    def _run(self, across: bool, line: int, start: int, end: int) -> int:
        """The cells of row (``across``) or column ``line`` from ``start`` to ``end``, clipped to the board."""
        start, end = max(0, start), min(end, (self.cols if across else self.rows) - 1)
        if start > end or not 0 <= line < (self.rows if across else self.cols):
            return 0
        if across:
            return ((1 << (end - start + 1)) - 1) << (line * self.stride + start)
        stride = self.stride
        return self.col_masks[line] & ((1 << ((end + 1) * stride)) - (1 << (start * stride)))

    def tables(self, names: Sequence[str] = TABLES) -> Slices[None]:
        """Those of the per-cell and per-line tables ``names`` not built yet, built in slices
        (``game.slices``); each is otherwise built whole on its first use."""
        for name in names:
            if name not in self.__dict__:       # (where ``cached_property`` keeps its value)
                self.__dict__[name] = yield from getattr(self, "_" + name)()

    @cached_property
    def covering(self) -> tuple[int, ...]:
        """Per cell bit: the set of placements whose cells hold it."""
        return drain(self._covering())

    def _covering(self) -> Slices[tuple[int, ...]]:
        """Along one line, the placements of one length that hold a cell start at most
        ``length - 1`` before it: a run of numbers across, every ``cols``-th number down."""
        rows, cols, stride = self.rows, self.cols, self.stride
        found: list[list[int]] = [[] for _ in range(rows * stride)]
        for length, across, first in self._groups():
            starts = (cols if across else rows) - length + 1
            for r in range(rows):
                yield
                for c in range(cols):
                    line, at = (r, c) if across else (c, r)
                    low, high = max(0, at - length + 1), min(at, starts - 1)
                    if across:
                        base = first + line * starts
                        found[r * stride + c].extend(range(base + low, base + high + 1))
                    else:
                        base = first + line
                        found[r * stride + c].extend(range(base + low * cols, base + high * cols + 1, cols))
        table: list[int] = []
        for r in range(rows):
            yield
            table.extend(int_of(numbers) for numbers in found[r * stride:(r + 1) * stride])
        return tuple(table)

    @cached_property
    def surrounding(self) -> tuple[int, ...]:
        """Per cell bit: the set of placements whose halo holds it: those holding a cell around
        it but not the cell itself."""
        return drain(self._surrounding())

    def _surrounding(self) -> Slices[tuple[int, ...]]:
        covering, stride, board = self.covering, self.stride, self.board
        table = [0] * (self.rows * stride)
        for i in bits(board):
            if not i % stride:
                yield
            around = bitsets.orthogonal(1 << i, stride, board) | bitsets.diagonal(1 << i, stride, board)
            table[i] = union(covering, around) & ~covering[i]
        return tuple(table)

    def _longest(self, across: bool) -> list[int]:
        """The lengths of the placements lying across (or down: two cells or more, as numbered)."""
        return [length for length, way, _ in self._groups() if way == across]

    @cached_property
    def covering_cells(self) -> tuple[int, ...]:
        """Per cell bit: the cells of the placements whose cells hold it: along its row and its
        column, those within the longest ship lying that way, less one."""
        return drain(self._covering_cells())

    def _covering_cells(self) -> Slices[tuple[int, ...]]:
        table = [0] * (self.rows * self.stride)
        for across in (True, False):
            lengths = self._longest(across)
            if lengths:
                reach = max(lengths) - 1
                for r in range(self.rows):
                    yield
                    for c in range(self.cols):
                        line, at = (r, c) if across else (c, r)
                        table[r * self.stride + c] |= self._run(across, line, at - reach, at + reach)
        return tuple(table)

    @cached_property
    def surrounding_cells(self) -> tuple[int, ...]:
        """Per cell bit: the cells of the placements whose halo holds it. Of those lying along
        its row (then its column): in the rows either side, the cells within the longest ship;
        in its own row, the longest ship that ends just before it and the longest that starts
        just after it."""
        return drain(self._surrounding_cells())

    def _surrounding_cells(self) -> Slices[tuple[int, ...]]:
        table = [0] * (self.rows * self.stride)
        for across in (True, False):
            lengths = self._longest(across)
            if not lengths:
                continue
            reach, size = max(lengths), self.cols if across else self.rows
            for r in range(self.rows):
                yield
                for c in range(self.cols):
                    line, at = (r, c) if across else (c, r)
                    before = max((n for n in lengths if n <= at), default=0)
                    after = max((n for n in lengths if at + n < size), default=0)
                    table[r * self.stride + c] |= (self._run(across, line - 1, at - reach, at + reach)
                                                   | self._run(across, line + 1, at - reach, at + reach)
                                                   | self._run(across, line, at - before, at - 1)
                                                   | self._run(across, line, at + 1, at + after))
        return tuple(table)

    @cached_property
    def row_lines(self) -> tuple[int, ...]:
        """Per row: the placements of two or more cells lying along it."""
        return drain(self._row_lines())

    @cached_property
    def col_lines(self) -> tuple[int, ...]:
        """Per column: the placements of two or more cells lying along it."""
        return drain(self._col_lines())

    def _row_lines(self) -> Slices[tuple[int, ...]]:
        return (yield from self._lines(True, self.rows))

    def _col_lines(self) -> Slices[tuple[int, ...]]:
        return (yield from self._lines(False, self.cols))

    def _lines(self, across: bool, count: int) -> Slices[tuple[int, ...]]:
        table = [0] * count
        for p in self.placements:
            if not p.index % LINES_SLICE:
                yield
            if p.length >= 2 and p.horizontal == across:
                table[p.line] |= 1 << p.index
        return tuple(table)

    def kills(self, p: int) -> tuple[int, int]:
        """The placements that placing ``p`` kills (over its cells or its halo, or holding one
        of its cells in their halo), and the cells of those. Kept for the last
        ``KILLS_KEPT`` placements asked about (a search places the same ones again and again,
        and puzzles of one size and fleet share their geometry), so memory stays bounded."""
        found = self.kills_memo.get(p)
        if found is None:
            cells = self.p_cells[p]
            reach = cells | self.p_halo[p]
            killed = union(self.covering, reach) | union(self.surrounding, cells)
            killed_cells = union(self.covering_cells, reach) | union(self.surrounding_cells, cells)
            found = kept(self.kills_memo, p, (killed, killed_cells), KILLS_KEPT)
        return found

    def members(self, placement_set: int) -> Iterator[Placement]:
        placements = self.placements
        return (placements[i] for i in bits(placement_set))


LINES_SLICE = 4096          # placements read between two slices of a line table
# The geometries kept: the last ones asked for, at most this many, and while they hold at most
# this many placements together (a 60x60 board's 63,000 take about 30 MB, 125 MB with their
# tables), the last one always kept.
GEOMETRIES_KEPT = 32
PLACEMENTS_KEPT = 200_000
_geometries: dict[tuple[int, int, tuple[int, ...]], Geometry] = {}    # the last ones asked for, oldest first


def geometry(rows: int, cols: int, lengths: tuple[int, ...]) -> Geometry:
    """The geometry of a board size and fleet, shared: the last ones asked for are kept
    (``GEOMETRIES_KEPT``, ``PLACEMENTS_KEPT``)."""
    return drain(geometry_in_slices(rows, cols, lengths, tables=()))


def geometry_in_slices(rows: int, cols: int, lengths: tuple[int, ...],
                       tables: Sequence[str] = TABLES) -> Slices[Geometry]:
    """:func:`geometry` built in slices (``game.slices``), with those of its ``tables`` not
    built yet: on a 60x60 board a few tenths of a second of work, which a caller can stop
    between slices."""
    key = (rows, cols, lengths)
    geo = _geometries.pop(key, None)
    if geo is None:
        geo = yield from Geometry.in_slices(rows, cols, lengths)
    _geometries[key] = geo
    while len(_geometries) > 1 and (len(_geometries) > GEOMETRIES_KEPT or
                                    sum(len(kept.placements) for kept in _geometries.values()) > PLACEMENTS_KEPT):
        _geometries.pop(next(iter(_geometries)), None)
    yield from geo.tables(tables)
    return geo


def geometry_of(puzzle: Puzzle) -> Geometry:
    return geometry(puzzle.rows, puzzle.cols, tuple(length for length, _ in puzzle.fleet))


def prepared(puzzle: Puzzle, tables: Sequence[str] = TABLES) -> Slices[Geometry]:
    """The puzzle's geometry with ``tables``, built in slices where they are not built yet."""
    return geometry_in_slices(puzzle.rows, puzzle.cols, tuple(length for length, _ in puzzle.fleet), tables)


def compatible(puzzle: Puzzle, geo: Geometry | None = None) -> int:
    """The set of placements that agree with the puzzle's hints."""
    geo = geo or geometry_of(puzzle)
    alive = geo.all_placements
    for (r, c), hint in puzzle.hints.items():
        alive &= ~geo.ruled_out(r, c, hint)
    return alive


@dataclass(frozen=True)
class HintReach:
    """What one given ship piece says about its neighbourhood, whatever ship it belongs to:
    the cells every compatible placement through it covers, and those all their halos hold."""

    cell: Coord
    hint: Hint
    ship: int
    water: int


def hint_reach(puzzle: Puzzle, geo: Geometry, alive: int) -> list[HintReach]:
    """For each given ship piece, the cells its compatible placements (within ``alive``)
    all agree on. With no compatible placement, the piece says nothing here: the search and
    the judge find that out themselves."""
    return [reach for (r, c), hint in puzzle.hints.items() if hint.is_ship
            and (reach := piece_reach(geo, r, c, hint, alive)) is not None]


def piece_reach(geo: Geometry, row: int, col: int, hint: Hint, alive: int | None = None) -> HintReach | None:
    """What the ship piece ``hint`` given at the cell says about its neighbourhood, through its
    placements within ``alive`` (None: those its own shape allows, whatever the other hints);
    None when no placement is left."""
    if alive is None:
        alive = geo.all_placements & ~geo.ruled_out(row, col, hint)
    ship = water = geo.board
    through = [p for p in geo.through(row, col) if alive >> p.index & 1]
    for p in through:
        ship &= p.cells
        water &= p.halo
    return HintReach((row, col), hint, ship & ~geo.bit(row, col), water) if through else None


# -- reading ships off a board -------------------------------------------------------------

@dataclass(frozen=True)
class Segment:
    """Connected ship cells (see the glossary). ``horizontal`` is None for a single cell."""

    cells: int
    length: int
    straight: bool
    horizontal: bool | None
    ends: int
    closed: bool

    def placement(self, geo: Geometry) -> Placement | None:
        """The ship this closed segment is, as a placement (None if its length is not in the fleet)."""
        if not self.straight:
            return None
        row, col = geo.coord((self.cells & -self.cells).bit_length() - 1)
        return geo.placement(self.length, bool(self.horizontal), row, col)


def segments(geo: Geometry, ship: int, water: int) -> list[Segment]:
    """The board's segments, in reading order of their first cell. ``water`` decides which
    are closed (pass every non-ship cell to read a finished board)."""
    found = []
    rest = ship
    known = geo.segment_memo
    while rest:
        group = geo.component(rest & -rest, ship)
        rest &= ~group
        shape = known.get(group)
        if shape is None:
            shape = kept(known, group, _segment_shape(geo, group), SEGMENT_MEMO_LIMIT)
        found.append(shape[not shape[0].ends & ~water])
    return found


SEGMENT_MEMO_LIMIT = 100_000
KILLS_KEPT = 4096        # placements whose kills a geometry keeps (memory bounded on a 60x60 board)
RULED_OUT_KEPT = 4096    # hints whose ruled-out placements a geometry keeps (the same bound)


def _segment_shape(geo: Geometry, group: int) -> tuple[Segment, Segment]:
    """The segment made of the cells ``group``: (open, closed), as its ends are or are not all water."""
    cells = geo.coords(group)
    rows = {r for r, _ in cells}
    cols = {c for _, c in cells}
    length = len(cells)
    straight = len(rows) == 1 or len(cols) == 1
    horizontal = None if length == 1 else len(rows) == 1
    if length == 1:
        ends = geo.orthogonal(group)
    elif not straight:
        ends = 0
    elif horizontal:
        (r,) = rows
        ends = geo.bit(r, min(cols) - 1) | geo.bit(r, max(cols) + 1)
    else:
        (c,) = cols
        ends = geo.bit(min(rows) - 1, c) | geo.bit(max(rows) + 1, c)
    return (Segment(group, length, straight, horizontal, ends, False),
            Segment(group, length, straight, horizontal, ends, straight))


def hint_at(board: Board, cell: Coord) -> Hint:
    """The hint a solved board gives at ``cell`` (the generator's, the editor's given cells):
    water, or the ship piece's shape (a plain ship piece where it has none, as in a bend)."""
    r, c = cell
    if board[r][c] != Cell.SHIP:
        return Hint.WATER
    return piece_on_board(board, r, c) or Hint.SHIP


def piece_on_board(grid: Board, row: int, col: int, given: Hint | None = None) -> Hint | None:
    """The piece a ship cell shows as far as the board tells (the window draws it; on a
    solved board it is the hint the cell would give): a ``given`` piece keeps its shape;
    otherwise an end where the ship provably stops on one side and goes on at the other, a
    middle where it goes on both ways, a submarine when water or the border is all round.
    None while nothing is known of its shape (or the cell is part of a bend)."""
    if given is not None and given not in (Hint.SHIP, Hint.WATER):
        return given
    rows, cols = len(grid), len(grid[0])

    def ship(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and grid[r][c] == Cell.SHIP

    def sealed(r: int, c: int) -> bool:
        return not (0 <= r < rows and 0 <= c < cols) or grid[r][c] == Cell.WATER

    up, down, left, right = ship(row - 1, col), ship(row + 1, col), ship(row, col - 1), ship(row, col + 1)
    if (up or down) and (left or right):
        return None
    if up and down or left and right:
        return Hint.MIDDLE
    if down:
        return Hint.TOP if sealed(row - 1, col) else Hint.MIDDLE
    if up:
        return Hint.BOTTOM if sealed(row + 1, col) else Hint.MIDDLE
    if right:
        return Hint.LEFT if sealed(row, col - 1) else Hint.MIDDLE
    if left:
        return Hint.RIGHT if sealed(row, col + 1) else Hint.MIDDLE
    if all(sealed(r, c) for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))):
        return Hint.SUB
    return None
