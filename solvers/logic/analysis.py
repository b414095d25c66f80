"""Board analysis for the deduction engine: bitmask geometry, segments and ship placements.

Vocabulary
- *mask*: a set of cells as a Python int, bit ``row * cols + col``; fast to intersect.
- *placement*: one way to lay one ship (cells, plus its *halo*: every neighbouring cell,
  diagonals included, that must not be ship).
- *segment*: a group of connected ship cells already on the board; *closed* when both its
  ends are water or border (so it is a whole ship).
- *remaining*: ship length -> how many ships of that length are not yet closed on the board.

``Analysis`` computes, once per board, what every rule needs: line needs, segments,
remaining ships and the placements still possible. A board that breaks a rule gets a
``contradiction`` sentence instead. Boards only ever gain knowledge, so placements are
filtered from the parent board's list, never recomputed from scratch.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator

from game.puzzle import HINT_CONTINUES, HINT_STOPS, Coord, Hint, Puzzle, ship_name


def bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Placement:
    """One way to lay one ship of ``length`` cells."""

    __slots__ = ("length", "row", "col", "horizontal", "mask", "halo", "ends", "line_is_row", "line")

    def __init__(self, length: int, row: int, col: int, horizontal: bool, mask: int, halo: int, ends: int) -> None:
        self.length, self.row, self.col, self.horizontal = length, row, col, horizontal
        self.mask, self.halo, self.ends = mask, halo, ends
        # The line the ship lies along; a submarine counts as lying in its row.
        self.line_is_row = horizontal
        self.line = row if horizontal else col

    def describe(self) -> str:
        if self.length == 1:
            return f"row {self.row + 1}, column {self.col + 1}"
        if self.horizontal:
            return f"row {self.row + 1}, columns {self.col + 1}-{self.col + self.length}"
        return f"column {self.col + 1}, rows {self.row + 1}-{self.row + self.length}"


class Geometry:
    """Everything about a puzzle that never changes while it is solved."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        rows, cols = puzzle.rows, puzzle.cols
        self.rows, self.cols, self.size = rows, cols, rows * cols
        self.all = (1 << self.size) - 1
        self.row_mask = [((1 << cols) - 1) << (r * cols) for r in range(rows)]
        self.col_mask = [sum(1 << (r * cols + c) for r in range(rows)) for c in range(cols)]
        self.row_tallies = puzzle.row_tallies
        self.col_tallies = puzzle.col_tallies
        self.orth: list[int] = []
        self.diag: list[int] = []
        for r in range(rows):
            for c in range(cols):
                self.orth.append(self._mask_of(puzzle, [(r + dr, c + dc) for dr, dc in
                                                        ((-1, 0), (1, 0), (0, -1), (0, 1))]))
                self.diag.append(self._mask_of(puzzle, [(r + dr, c + dc) for dr in (-1, 1) for dc in (-1, 1)]))
        self.fleet = dict(puzzle.fleet)
        self.lengths = tuple(sorted(self.fleet, reverse=True))
        self.longest = max(self.lengths, default=0)
        self.hint_ship = sum(1 << self.index(r, c) for (r, c), h in puzzle.hints.items() if h.is_ship)
        self.hint_water = sum(1 << self.index(r, c) for (r, c), h in puzzle.hints.items() if not h.is_ship)
        self.placements = {length: self._placements(length) for length in self.lengths}
        self.hint_rules = hint_neighbours(self)
        self.line_cache: dict = {}
        self.line_cells = {(True, r): [r * cols + c for c in range(cols)] for r in range(rows)}
        self.line_cells.update({(False, c): [r * cols + c for r in range(rows)] for c in range(cols)})

    @staticmethod
    def _mask_of(puzzle: Puzzle, cells: list[Coord]) -> int:
        return sum(1 << (r * puzzle.cols + c) for r, c in set(cells) if puzzle.inside(r, c))

    def index(self, row: int, col: int) -> int:
        return row * self.cols + col

    def coord(self, index: int) -> Coord:
        return divmod(index, self.cols)

    def _placements(self, length: int) -> tuple[Placement, ...]:
        hints, found = self.puzzle.hints, []
        for p, cells in _blank_placements(self.rows, self.cols, length):
            if hints:
                if p.halo & self.hint_ship or p.mask & self.hint_water:
                    continue
                if not all(hints[cell].fits(length, p.horizontal, k)
                           for k, cell in enumerate(cells) if cell in hints):
                    continue
            found.append(p)
        return tuple(found)

    def where(self, mask: int) -> str:
        """A short human description of a set of cells (1-based, like the window)."""
        cells = [self.coord(i) for i in bits(mask)]
        if not cells:
            return "no cells"
        if len(cells) == 1:
            return f"row {cells[0][0] + 1}, column {cells[0][1] + 1}"
        rows = sorted({r for r, _ in cells})
        cols = sorted({c for _, c in cells})
        if len(rows) == 1 and cols == list(range(cols[0], cols[-1] + 1)):
            return f"row {rows[0] + 1}, columns {cols[0] + 1}-{cols[-1] + 1}"
        if len(cols) == 1 and rows == list(range(rows[0], rows[-1] + 1)):
            return f"column {cols[0] + 1}, rows {rows[0] + 1}-{rows[-1] + 1}"
        shown = ", ".join(f"r{r + 1}c{c + 1}" for r, c in cells[:6])
        return shown + (f" and {len(cells) - 6} more" if len(cells) > 6 else "")


def _cells_mask(cols: int, rows: int, cells) -> int:
    return sum(1 << (r * cols + c) for r, c in set(cells) if 0 <= r < rows and 0 <= c < cols)


@lru_cache(maxsize=256)
def _blank_placements(rows: int, cols: int, length: int) -> tuple[tuple[Placement, tuple[Coord, ...]], ...]:
    """Every place for a ship of ``length`` on an empty board (placements are never changed)."""
    found = []
    for horizontal in ((True,) if length == 1 else (True, False)):
        dr, dc = (0, 1) if horizontal else (1, 0)
        for r in range(rows - dr * (length - 1)):
            for c in range(cols - dc * (length - 1)):
                cells = tuple((r + dr * k, c + dc * k) for k in range(length))
                mask = _cells_mask(cols, rows, cells)
                around = [(cr + a, cc + b) for cr, cc in cells for a in (-1, 0, 1) for b in (-1, 0, 1)]
                halo = _cells_mask(cols, rows, around) & ~mask
                if length == 1:
                    ends = _cells_mask(cols, rows, [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)])
                else:
                    ends = _cells_mask(cols, rows, [(r - dr, c - dc), (r + dr * length, c + dc * length)])
                found.append((Placement(length, r, c, horizontal, mask, halo, ends), cells))
    return tuple(found)


@lru_cache(maxsize=16)
def geometry(puzzle: Puzzle) -> Geometry:
    return Geometry(puzzle)


class Segment:
    """Connected ship cells on the board."""

    __slots__ = ("mask", "length", "straight", "horizontal", "ends", "closed")

    def __init__(self, geo: Geometry, mask: int, water: int) -> None:
        cells = [geo.coord(i) for i in bits(mask)]
        rows = {r for r, _ in cells}
        cols = {c for _, c in cells}
        self.mask, self.length = mask, len(cells)
        self.straight = len(rows) == 1 or len(cols) == 1
        self.horizontal: bool | None = None if self.length == 1 else len(rows) == 1
        if self.length == 1 or not self.straight:
            ends = geo.orth[bits(mask).__next__()] if self.length == 1 else 0
        elif self.horizontal:
            (r,), lo, hi = rows, min(cols), max(cols)
            ends = geo._mask_of(geo.puzzle, [(r, lo - 1), (r, hi + 1)])
        else:
            (c,), lo, hi = cols, min(rows), max(rows)
            ends = geo._mask_of(geo.puzzle, [(lo - 1, c), (hi + 1, c)])
        self.ends = ends
        self.closed = self.straight and not (ends & ~water)


def segments_of(geo: Geometry, ship: int, water: int) -> list[Segment]:
    found, rest = [], ship
    while rest:
        group = frontier = rest & -rest
        while frontier:
            grow = 0
            for i in bits(frontier):
                grow |= geo.orth[i]
            frontier = grow & ship & ~group
            group |= frontier
        rest &= ~group
        found.append(Segment(geo, group, water))
    return found


def fleet_text(remaining: dict[int, int]) -> str:
    parts = [f"{count} {ship_name(length)}{'s' if count > 1 else ''}"
             for length, count in sorted(remaining.items(), reverse=True) if count > 0]
    return ", ".join(parts) if parts else "none"


class Analysis:
    """What the rules need to know about one board (``ship``/``water`` masks)."""

    def __init__(self, geo: Geometry, ship: int, water: int,
                 parent_valid: dict[int, list[Placement]] | None = None) -> None:
        self.geo, self.ship, self.water = geo, ship, water
        self.unknown = geo.all & ~ship & ~water
        self.contradiction: str | None = None
        self.contradiction_cells = 0
        self._parent_valid = parent_valid
        self._valid: dict[int, list[Placement]] | None = None
        self.lines: list[tuple[str, int, int, int, int]] = []   # (axis, index, mask, need, unknown)
        self._lines()
        if self.contradiction is None:
            self._segments()

    def fail(self, text: str, cells: int = 0) -> None:
        if self.contradiction is None:
            self.contradiction, self.contradiction_cells = text, cells

    def _lines(self) -> None:
        geo, zero = self.geo, 0
        for axis, masks, tallies in (("row", geo.row_mask, geo.row_tallies), ("column", geo.col_mask, geo.col_tallies)):
            for index, (mask, tally) in enumerate(zip(masks, tallies)):
                if tally is None:
                    continue
                need = tally - (self.ship & mask).bit_count()
                unknown = (self.unknown & mask).bit_count()
                name = f"{axis} {index + 1}"
                if need < 0:
                    self.fail(f"{name} would have more than {tally} ship cell{'s' if tally != 1 else ''}", mask)
                elif need > unknown:
                    self.fail(f"{name} could not reach its tally of {tally}", mask)
                if need <= 0:
                    zero |= mask
                self.lines.append((axis, index, mask, need, unknown))
        self.full_lines = zero      # lines that take no more ship cells

    def _segments(self) -> None:
        geo = self.geo
        self.segments = segments_of(geo, self.ship, self.water)
        closed: dict[int, int] = {}
        for seg in self.segments:
            if not seg.straight:
                self.fail(f"the ship at {geo.where(seg.mask)} would bend", seg.mask)
            elif seg.length > geo.longest:
                self.fail(f"the ship at {geo.where(seg.mask)} would be longer than the longest "
                          f"({geo.longest})", seg.mask)
            elif seg.closed:
                closed[seg.length] = closed.get(seg.length, 0) + 1
            for i in bits(seg.mask):
                if geo.diag[i] & self.ship:
                    self.fail(f"ships would touch at {geo.where(seg.mask)}", seg.mask)
        self.remaining = {length: count - closed.get(length, 0) for length, count in geo.fleet.items()}
        for length, count in closed.items():
            if count > geo.fleet.get(length, 0):
                self.fail(f"there would be {count} {ship_name(length)}s, the fleet has "
                          f"{geo.fleet.get(length, 0)}")
        self.open_segments = [s for s in self.segments if not s.closed and s.straight]
        self.longest_remaining = max((n for n, k in self.remaining.items() if k > 0), default=0)

    def _fits(self, p: Placement) -> bool:
        if p.mask & self.water or p.halo & self.ship:
            return False
        new = p.mask & ~self.ship
        if new & self.full_lines:
            return False
        if new == 0:
            # Already all ship: a closed one is a placed ship, not a place for a missing one.
            return bool(p.ends & ~self.water)
        tally = (self.geo.row_tallies if p.line_is_row else self.geo.col_tallies)[p.line]
        if tally is not None:
            mask = (self.geo.row_mask if p.line_is_row else self.geo.col_mask)[p.line]
            if new.bit_count() > tally - (self.ship & mask).bit_count():
                return False
        return True

    @property
    def valid(self) -> dict[int, list[Placement]]:
        """Length -> placements still possible for the ships of that length not yet closed."""
        if self._valid is None:
            self._valid = self._compute_valid()
        return self._valid

    def _compute_valid(self) -> dict[int, list[Placement]]:
        geo, source = self.geo, self._parent_valid
        valid = {}
        for length in geo.lengths:
            if self.remaining.get(length, 0) <= 0:
                valid[length] = []
                continue
            pool = source[length] if source is not None else geo.placements[length]
            valid[length] = [p for p in pool if self._fits(p)]
        # A segment every place of which has one length is that ship: when such segments use up
        # the remaining ships of that length, no other place is possible for them.
        self.segment_places: list[tuple[Segment, list[Placement]]] = []
        committed: dict[int, list[tuple[int, list[Placement]]]] = {}
        for seg in self.open_segments:
            places = [p for length in geo.lengths for p in valid[length] if p.mask & seg.mask]
            self.segment_places.append((seg, places))
            if not places:
                self.fail(f"no ship still missing ({fleet_text(self.remaining)}) fits the segment at "
                          f"{geo.where(seg.mask)}", seg.mask)
                continue
            lengths = {p.length for p in places}
            if len(lengths) == 1:
                committed.setdefault(lengths.pop(), []).append((seg.mask, places))
        for length, group in committed.items():
            masks = [mask for mask, _ in group]
            if any(p.mask & other for mask, places in group for p in places for other in masks if other != mask):
                continue  # two of them may be parts of one ship: they need not be different ships
            if len(masks) > self.remaining[length]:
                self.fail(f"{len(masks)} segments can only be {ship_name(length)}s, only "
                          f"{self.remaining[length]} {'is' if self.remaining[length] == 1 else 'are'} missing")
            elif len(masks) == self.remaining[length]:
                taken = sum(masks)
                valid[length] = [p for p in valid[length] if p.mask & taken]
        for length, count in self.remaining.items():
            if count > 0 and not valid[length]:
                self.fail(f"the {ship_name(length)} would have nowhere to go")
            elif count > 1:
                room = self._room(length, valid[length])
                if room < count:
                    self.fail(f"the {count} missing {ship_name(length)}s would not fit (room for {room})")
        return valid

    def _room(self, length: int, places: list[Placement]) -> int:
        """How many ships of ``length`` the lines can hold at most, line by line.

        In each line: as many non-touching places as fit one after another, and no more than
        the line's tally allows (its missing cells plus ship cells those places cover).
        """
        geo = self.geo
        by_line: dict[tuple[bool, int], list[Placement]] = {}
        for p in places:
            by_line.setdefault((p.line_is_row, p.line), []).append(p)
        room = 0
        for (is_row, line), group in by_line.items():
            group.sort(key=lambda p: p.col if is_row else p.row)
            count, free_from, covered = 0, -2, 0
            for p in group:
                start = p.col if is_row else p.row
                covered |= p.mask
                if start >= free_from:
                    count += 1
                    free_from = start + length + 1
            tally = (geo.row_tallies if is_row else geo.col_tallies)[line]
            if tally is not None:
                mask = (geo.row_mask if is_row else geo.col_mask)[line]
                budget = tally - (self.ship & mask).bit_count() + (self.ship & covered).bit_count()
                count = min(count, budget // length)
            room += count
        return room


def hint_neighbours(geo: Geometry) -> list[tuple[int, Hint, int, int]]:
    """For each ship hint: (cell index, hint, cells it says are ship, cells it says are water)."""
    found = []
    for (r, c), hint in geo.puzzle.hints.items():
        if not hint.is_ship:
            continue
        ship = geo._mask_of(geo.puzzle, [(r + dr, c + dc) for dr, dc in HINT_CONTINUES.get(hint, ())])
        water = geo._mask_of(geo.puzzle, [(r + dr, c + dc) for dr, dc in HINT_STOPS.get(hint, ())])
        found.append((geo.index(r, c), hint, ship, water))
    return found
