"""Vocabulary of the game: cells, hints, fleets, puzzles and moves.

Glossary
- *cell*: one square of the board, addressed ``(row, col)``, 0-based, row 0 at the top.
- *tally*: the number of ship cells a row or column holds; ``None`` when not given.
- *fleet*: ship length -> how many ships of that length.
- *hint*: a given cell: water, a submarine, a ship end, a middle piece, or a ship segment
  of unknown shape.
- *grid*: a board of :class:`Cell` values, a tuple of row tuples (or any sequence of rows).
- *move*: setting one cell to one value; the only way a board changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum
from types import MappingProxyType
from typing import Iterable, Mapping, Sequence

from game.limits import MAX_FLEET_SHIPS, MAX_SHIP_LENGTH

Coord = tuple[int, int]


class Cell(IntEnum):
    """What is known of one cell."""

    UNKNOWN = 0
    WATER = 1
    SHIP = 2

    @property
    def char(self) -> str:
        return CELL_CHARS[self]


CELL_CHARS = {Cell.UNKNOWN: "?", Cell.WATER: ".", Cell.SHIP: "#"}
CHAR_CELLS = {"?": Cell.UNKNOWN, ".": Cell.WATER, "#": Cell.SHIP}

Grid = tuple[tuple[Cell, ...], ...]


class Hint(str, Enum):
    """A given cell. The value is the name used in the corpus schema."""

    WATER = "water"
    SUB = "sub"
    MIDDLE = "middle"
    TOP = "top"
    BOTTOM = "bottom"
    LEFT = "left"
    RIGHT = "right"
    SHIP = "ship"

    @property
    def is_ship(self) -> bool:
        return self is not Hint.WATER

    def fits(self, length: int, horizontal: bool, index: int) -> bool:
        """Whether a ship of ``length`` lying across (or down) can show this hint at its
        ``index``-th cell: the one statement of what each hint means."""
        return self is Hint.SHIP or (self is not Hint.WATER and piece(length, horizontal, index) is self)


def piece(length: int, horizontal: bool, index: int) -> Hint:
    """The piece the ``index``-th cell of a ship shows: a submarine, an end or a middle."""
    if length == 1:
        return Hint.SUB
    if index == 0:
        return Hint.LEFT if horizontal else Hint.TOP
    if index == length - 1:
        return Hint.RIGHT if horizontal else Hint.BOTTOM
    return Hint.MIDDLE


Fleet = tuple[tuple[int, int], ...]
"""(length, count) pairs, longest ship first, counts positive."""

DEFAULT_FLEETS: Mapping[int, Fleet] = MappingProxyType({
    6: ((3, 1), (2, 2), (1, 3)),
    8: ((4, 1), (3, 2), (2, 3), (1, 3)),
    10: ((4, 1), (3, 2), (2, 3), (1, 4)),
    15: ((5, 1), (4, 2), (3, 3), (2, 4), (1, 5)),
})

# The classic 10x10 fleet fills a fifth of the board, and every standard fleet but the 8x8 one
# is a pyramid: one ship of the longest length, two of the next, ... (docs/guide/large-boards.md).
DEFAULT_DENSITY = 0.2


def pyramid(height: int, copies: int = 1) -> Fleet:
    """``copies`` ships of length ``height``, twice as many one shorter, ... down to submarines."""
    return tuple((length, copies * (height - length + 1)) for length in range(height, 0, -1))


def pyramid_cells(height: int) -> int:
    return height * (height + 1) * (height + 2) // 6


def default_fleet(rows: int, cols: int) -> Fleet:
    """The fleet the generator lays on a board when it is given none: the standard fleet of a
    square board of a standard size (``DEFAULT_FLEETS``), else :func:`nearest_pyramid`."""
    if rows == cols and rows in DEFAULT_FLEETS:
        return DEFAULT_FLEETS[rows]
    return nearest_pyramid(rows, cols)


def nearest_pyramid(rows: int, cols: int) -> Fleet:
    """The pyramid whose ship cells come nearest ``DEFAULT_DENSITY`` of the board's cells (the
    classic 10x10 fleet's fifth), its longest ship no longer than the board's longer side nor
    ``MAX_SHIP_LENGTH``; then the number of copies of it that comes nearest (one, except where
    even the tallest pyramid allowed falls short, as on a 60x60 board), within ``MAX_FLEET_SHIPS``.
    On 6x6, 10x10 and 15x15 boards it is the standard fleet."""
    target = DEFAULT_DENSITY * rows * cols
    tallest = min(MAX_SHIP_LENGTH, max(rows, cols))
    height = min(range(1, tallest + 1), key=lambda h: (abs(pyramid_cells(h) - target), h))
    ships = height * (height + 1) // 2
    copies = max(1, min(round(target / pyramid_cells(height)), MAX_FLEET_SHIPS // ships))
    return pyramid(height, copies)


SHIP_NAMES = {1: "submarine", 2: "destroyer", 3: "cruiser", 4: "battleship", 5: "carrier"}


def ship_name(length: int) -> str:
    return SHIP_NAMES.get(length, f"{length}-cell ship")


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, with an s unless the count is 1: "1 ship cell", "2 ship cells"."""
    return f"{count} {word}{'s' if count != 1 else ''}"


def seconds_said(seconds: float) -> str:
    """A duration as a message says it: "30 s", "0.5 s"; the shortest exact digits when they are
    shorter ("1e-320 s": a vanishing time limit shows as given, not as "9.99989e-321 s")."""
    return f"{min(f'{seconds:g}', repr(float(seconds)), key=len)} s"


# How a sentence names cells for a player, counted from 1 as the window numbers rows and columns.
CELLS_SHOWN = 6       # cells listed one by one before the rest are counted


def cell_said(row: int, col: int) -> str:
    """One cell: "row 3, column 7"."""
    return f"row {row + 1}, column {col + 1}"


def cells_said(cells: Sequence[Coord]) -> str:
    """Several cells: a run along one row or one column as its range ("row 3, columns 2-4",
    "column 5, rows 1-3"); any other set cell by cell, each named as :func:`cell_said` in
    brackets, in the order given, the first ``CELLS_SHOWN`` ("(row 1, column 5), (row 3,
    column 2) and 4 more"). One cell is named as :func:`cell_said`; none as "no cells"."""
    if not cells:
        return "no cells"
    if len(cells) == 1:
        return cell_said(*cells[0])
    rows = sorted({r for r, _ in cells})
    cols = sorted({c for _, c in cells})
    if len(rows) == 1 and cols == list(range(cols[0], cols[-1] + 1)):
        return f"row {rows[0] + 1}, columns {cols[0] + 1}-{cols[-1] + 1}"
    if len(cols) == 1 and rows == list(range(rows[0], rows[-1] + 1)):
        return f"column {cols[0] + 1}, rows {rows[0] + 1}-{rows[-1] + 1}"
    shown = ", ".join(f"({cell_said(r, c)})" for r, c in cells[:CELLS_SHOWN])
    return shown + (f" and {len(cells) - CELLS_SHOWN} more" if len(cells) > CELLS_SHOWN else "")


def fleet_text(fleet: Iterable[tuple[int, int]]) -> str:
    """The ships of ``fleet`` (length, count), longest first: "1 battleship, 2 cruisers";
    "none" when no count is above 0."""
    parts = [f"{count} {ship_name(length)}{'s' if count > 1 else ''}"
             for length, count in sorted(fleet, reverse=True) if count > 0]
    return ", ".join(parts) if parts else "none"


def make_fleet(counts: Mapping[int, int] | Iterable[tuple[int, int]]) -> Fleet:
    """Normalise a fleet: longest first, zero counts dropped."""
    items = counts.items() if isinstance(counts, Mapping) else counts
    merged: dict[int, int] = {}
    for length, count in items:
        merged[int(length)] = merged.get(int(length), 0) + int(count)
    return tuple(sorted(((n, c) for n, c in merged.items() if c > 0), reverse=True))


@dataclass(frozen=True)
class Puzzle:
    """A level: frozen, validated by :mod:`game.levels` when read from a file."""

    rows: int
    cols: int
    row_tallies: tuple[int | None, ...]
    col_tallies: tuple[int | None, ...]
    fleet: Fleet
    hints: Mapping[Coord, Hint] = field(default_factory=dict)
    name: str | None = None
    author: str | None = None
    difficulty: str | None = None
    source: str | None = None
    solution: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "row_tallies", tuple(self.row_tallies))
        object.__setattr__(self, "col_tallies", tuple(self.col_tallies))
        object.__setattr__(self, "fleet", make_fleet(self.fleet))
        object.__setattr__(
            self, "hints", MappingProxyType({(r, c): Hint(h) for (r, c), h in sorted(self.hints.items())})
        )
        if self.solution is not None:
            object.__setattr__(self, "solution", tuple(self.solution))

    def __hash__(self) -> int:
        return hash((self.rows, self.cols, self.row_tallies, self.col_tallies, self.fleet,
                     tuple(self.hints.items())))

    def __reduce__(self):
        """Pickle by its fields (the read-only hints view cannot be pickled as it is), so a
        puzzle can go to another process however that process is started."""
        return _puzzle_from_fields, ({**self._fields(), "hints": dict(self.hints)},)

    @property
    def shape(self) -> tuple[int, int]:
        return self.rows, self.cols

    @property
    def fleet_counts(self) -> dict[int, int]:
        return dict(self.fleet)

    @property
    def ship_count(self) -> int:
        return sum(count for _, count in self.fleet)

    @property
    def ship_cells(self) -> int:
        return sum(length * count for length, count in self.fleet)

    @property
    def longest_ship(self) -> int:
        return self.fleet[0][0] if self.fleet else 0

    def inside(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols

    def cells(self) -> Iterable[Coord]:
        return ((r, c) for r in range(self.rows) for c in range(self.cols))

    def tally(self, axis: str, index: int) -> int | None:
        return (self.row_tallies if axis == "row" else self.col_tallies)[index]

    def replace(self, **changes) -> Puzzle:
        return Puzzle(**{**self._fields(), **changes})

    def _fields(self) -> dict:
        return {f: getattr(self, f) for f in self.__dataclass_fields__}


def _puzzle_from_fields(values: dict) -> Puzzle:
    return Puzzle(**values)


def initial_grid(puzzle: Puzzle) -> Grid:
    """The board a play or a solver run starts from: hint cells set, the rest unknown."""
    board = [[Cell.UNKNOWN] * puzzle.cols for _ in range(puzzle.rows)]
    for (r, c), hint in puzzle.hints.items():
        board[r][c] = Cell.SHIP if hint.is_ship else Cell.WATER
    return tuple(tuple(row) for row in board)


def grid_from_strings(lines: Sequence[str]) -> Grid:
    """``['.#?', ...]`` -> Grid ('.' water, '#' ship, '?' or ' ' unknown)."""
    return tuple(tuple(CHAR_CELLS.get(ch, Cell.UNKNOWN) for ch in line) for line in lines)


def grid_to_strings(grid: Sequence[Sequence[Cell]], unknown: str = "?") -> tuple[str, ...]:
    return tuple("".join(unknown if v == Cell.UNKNOWN else CELL_CHARS[Cell(v)] for v in row) for row in grid)


def cells_between(start: Coord, end: Coord) -> list[Coord]:
    """The cells on the straight line from ``start`` to ``end``, both included, one per row or
    column crossed (a drag: the mouse moves on faster than it reports the cells it crosses)."""
    (r0, c0), (r1, c1) = start, end
    steps = max(abs(r1 - r0), abs(c1 - c0))
    return [(r0 + round(k * (r1 - r0) / steps), c0 + round(k * (c1 - c0) / steps)) for k in range(steps + 1)] \
        if steps else [start]


def wrong_marks(grid: Sequence[Sequence[Cell]], solution: Grid) -> list[Coord]:
    """The marked cells of ``grid`` that disagree with ``solution``, in reading order."""
    return [(r, c) for r, row in enumerate(grid) for c, value in enumerate(row)
            if value != Cell.UNKNOWN and value != solution[r][c]]


def ship_cells_of(grid: Sequence[Sequence[Cell]]) -> frozenset[Coord]:
    return frozenset((r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v == Cell.SHIP)


def ship_counts(grid: Sequence[Sequence[Cell]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The ship cells of ``grid`` in each row and in each column: a finished board's tallies."""
    rows = tuple(sum(v == Cell.SHIP for v in row) for row in grid)
    cols = tuple(sum(row[c] == Cell.SHIP for row in grid) for c in range(len(grid[0]) if grid else 0))
    return rows, cols


@dataclass(frozen=True)
class Move:
    """Set one cell to one value. Text form ``r3c4=#`` (``.`` water, ``#`` ship, ``?`` clear)."""

    row: int
    col: int
    value: Cell

    def __str__(self) -> str:
        return f"r{self.row}c{self.col}={Cell(self.value).char}"

    @classmethod
    def parse(cls, text: str) -> Move:
        try:
            where, what = text.strip().split("=")
            row_part, col_part = where[1:].split("c")
            if not where.startswith("r"):
                raise ValueError
            return cls(int(row_part), int(col_part), CHAR_CELLS[what])
        except (ValueError, KeyError):
            raise ValueError(f"not a move: {text!r} (expected e.g. 'r3c4=#')") from None


def apply_move(grid: Grid, move: Move) -> Grid:
    """The one function that changes a board: a new grid with ``move`` applied."""
    row = grid[move.row]
    new_row = row[: move.col] + (Cell(move.value),) + row[move.col + 1:]
    return grid[: move.row] + (new_row,) + grid[move.row + 1:]
