"""A puzzle compiled for the exact search: the shared placement model plus a search state.

Glossary (the placement model's words are in ``game.ships``)
- *state*: what a search node knows: ship and water cells, the cells of ships already
  placed, the placements still *alive* (their cells hold no water, their halo no ship, their
  line has room) and how many ships of each length are still to place. Immutable, so a
  search keeps its parents for free and never undoes anything.
- *model*: the puzzle's geometry, its tallied lines, the hints and what their shapes say
  about the cells around them, and the start state (the compatible placements alive).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from game.bitsets import bits
from game.puzzle import Hint, Puzzle
from game.ships import Geometry, compatible, geometry_of, hint_reach

Line = tuple[bool, int, int, int, int]


class State:
    """One search node's knowledge (see the glossary). Its fields are final: read-only where
    the engine runs compiled, and so checked by mypy in the source."""

    __slots__ = ("ship", "water", "placed", "alive", "counts")

    def __init__(self, ship: int, water: int, placed: int, alive: int, counts: tuple[int, ...]) -> None:
        self.ship: Final = ship
        self.water: Final = water
        self.placed: Final = placed
        self.alive: Final = alive
        self.counts: Final = counts              # ships still to place, per length index

    def unknown(self, geo: Geometry) -> int:
        return geo.board & ~(self.ship | self.water)

    @property
    def done(self) -> bool:
        return not any(self.counts)


class Memo:
    """What the rules work out again and again from the geometry alone, kept for the
    puzzles that share it (one size, one fleet): per set of placements, the cells all of
    them cover and those all their halos hold (``common``); per line and its ship cells, the
    placements along it that would not fit its room (``room``). Each table is emptied when
    it holds ``limit`` entries (``game.ships.kept``): fewer on a large board, whose sets of
    placements are long, so memory stays bounded."""

    __slots__ = ("common", "room", "limit")

    def __init__(self, geo: Geometry) -> None:
        self.common: dict[int, tuple[int, int]] = {}
        self.room: dict[tuple[int, int, int, bool], int] = {}
        self.limit = max(MEMO_MIN, MEMO_BYTES // (len(geo.placements) // 8 + MEMO_ENTRY_BYTES))


MEMO_BYTES = 8_000_000          # about what each table of a Memo may hold
MEMO_ENTRY_BYTES = 200          # a table entry's cost beyond its set of placements
MEMO_MIN = 1_000
MEMOS_KEPT = 4


@lru_cache(maxsize=MEMOS_KEPT)
def memo_of(geo: Geometry) -> Memo:
    """The memo of a geometry (geometries are shared: ``game.ships.geometry``); the last
    ``MEMOS_KEPT`` geometries' are kept."""
    return Memo(geo)


@dataclass(frozen=True)
class Model:
    """A puzzle compiled for search (see the glossary)."""

    puzzle: Puzzle
    geo: Geometry
    start: State
    hint_ship: int
    hint_water: int
    shape_ship: int                          # cells a hint's shape says are ship
    shape_water: int                         # cells a hint's shape says are water
    memo: Memo                               # the geometry's (``memo_of``)
    broken: str = ""                         # non-empty when the hints contradict themselves
    # Rows, then columns, with a known tally: (is_row, index, cells, tally, placements along the line).
    lines: tuple[Line, ...] = ()
    # Per room ``r`` (0 up to the longest length): the placements longer than ``r`` cells.
    longer: tuple[int, ...] = ()
    # Per length index, per line (rows, then columns): its (cells, tally), None without a
    # tally, and the placements of that length along it (``rules.fleet_room``).
    along: tuple[tuple[tuple[tuple[int, int] | None, int], ...], ...] = ()
    p_start: tuple[int, ...] = ()            # per placement: where along its line it starts
    line_cells: tuple[tuple[int, ...], ...] = ()   # per line of ``lines``: its cells in order
    # Per cell: the lines of ``lines`` through it, bit ``k`` for ``lines[k]`` (``rules.line_tallies``).
    cell_lines: tuple[int, ...] = ()
    # The line fill's answers, per line of ``lines`` a table keyed by the line's state (``rules.fill_line``).
    fill_memo: tuple[dict, ...] = field(default=(), compare=False, repr=False)
    # The segments of a set of unplaced ship cells (``rules.segment_covers``).
    segment_memo: dict = field(default_factory=dict, compare=False, repr=False)
    # Per given ship piece: its cell's index, the hint, the cells every ship through it covers and
    # those all their halos hold, and the cells beside it across and down (``rules.hint_shape``).
    pieces: tuple[tuple[int, Hint, int, int, int, int], ...] = ()


def compile_puzzle(puzzle: Puzzle) -> Model:
    geo = geometry_of(puzzle)
    alive = compatible(puzzle, geo)
    hint_ship = geo.mask_of(cell for cell, hint in puzzle.hints.items() if hint.is_ship)
    hint_water = geo.mask_of(cell for cell, hint in puzzle.hints.items() if hint is Hint.WATER)
    shape_ship = shape_water = 0
    pieces = []
    for reach in hint_reach(puzzle, geo, alive):
        shape_ship |= reach.ship
        shape_water |= reach.water
        r, c = reach.cell
        pieces.append((geo.index(r, c), reach.hint, reach.ship, reach.water,
                       geo.mask_of([(r, c - 1), (r, c + 1)]), geo.mask_of([(r - 1, c), (r + 1, c)])))
    broken = "the hints contradict each other" if (hint_ship | shape_ship) & (hint_water | shape_water) else ""
    start = State(0, 0, 0, alive, tuple(count for _, count in puzzle.fleet))
    rows = tuple((True, r, m, t, geo.row_lines[r]) for r, (m, t) in enumerate(zip(geo.row_masks, puzzle.row_tallies))
                 if t is not None)
    cols = tuple((False, c, m, t, geo.col_lines[c]) for c, (m, t) in enumerate(zip(geo.col_masks, puzzle.col_tallies))
                 if t is not None)
    longer = tuple(sum(s for length, s in zip(geo.lengths, geo.length_sets) if length > room)
                   for room in range(max(geo.lengths, default=0) + 1))
    by_line = [0] * (puzzle.rows + puzzle.cols)      # every placement along each line, a submarine along its row
    for p in geo.placements:
        by_line[p.line if p.line_is_row else puzzle.rows + p.line] |= 1 << p.index
    tallied = [None if t is None else (m, t) for m, t in zip((*geo.row_masks, *geo.col_masks),
                                                            (*puzzle.row_tallies, *puzzle.col_tallies))]
    along = tuple(tuple((t, s & b) for t, b in zip(tallied, by_line) if s & b) for s in geo.length_sets)
    p_start = tuple(p.col if p.line_is_row else p.row for p in geo.placements)
    cell_lines = [0] * geo.board.bit_length()
    for k, line in enumerate(rows + cols):
        for i in bits(line[2]):
            cell_lines[i] |= 1 << k
    return Model(puzzle, geo, start, hint_ship, hint_water, shape_ship, shape_water, memo_of(geo),
                 broken, rows + cols, longer, along, p_start,
                 tuple(tuple(bits(line[2])) for line in rows + cols), tuple(cell_lines),
                 tuple({} for _ in rows + cols), pieces=tuple(pieces))
