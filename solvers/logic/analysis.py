"""Board analysis for the deduction engine: bitmask geometry, segments and ship placements.

Vocabulary (cells, placements and segments are those of ``game.ships``)
- *mask*: a set of cells as a Python int; fast to intersect.
- *remaining*: ship length -> how many ships of that length are not yet closed on the board.

``Analysis`` computes, once per board, what every rule needs: line needs, segments,
remaining ships and the placements still possible. A board that breaks a rule gets a
``contradiction`` sentence instead. Boards only ever gain knowledge, so placements are
filtered from the parent board's list, never recomputed from scratch.
"""

from __future__ import annotations

from functools import lru_cache

from game.puzzle import Coord, Puzzle, ship_name
from game.ships import Placement, Segment, bits, compatible, geometry_of, hint_reach, segments

BANK_LIMIT = 200        # steps kept per puzzle for later hints
MEMO_LIMIT = 50_000     # segments remembered per puzzle (``Model.segment_facts``)


class Kept:
    """A hint's depth-2 search kept to go on with (:meth:`Model.keep`). One hint at a time
    runs it (the window may start a new hint before the old one ends): :meth:`take` and
    :meth:`give_back`."""

    def __init__(self, ship: int, water: int, search, steps: list, dropped: list) -> None:
        self.ship, self.water, self.search, self.steps, self.dropped = ship, water, search, steps, dropped
        self._free = [True]

    def take(self) -> bool:
        """True if this caller may run the search now. ``list.pop`` is one atomic step under
        the interpreter lock, so two threads cannot both take it (and the engine needs no lock
        of its own: threads belong to the runner and the window)."""
        try:
            return self._free.pop()
        except IndexError:
            return False

    def give_back(self) -> None:
        self._free.append(True)


class Model:
    """The deduction engine's view of one puzzle (one per puzzle, cached by :func:`model_of`):
    what never changes while it is solved (the shared placement model of ``game.ships`` with
    the placements the hints allow, cell and line tables), and what hints keep from one board
    to the next (steps proved, the depth-2 search kept, assumptions that held)."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        shared = self.shared = geometry_of(puzzle)
        rows, cols, stride = puzzle.rows, puzzle.cols, shared.stride
        self.rows, self.cols, self.stride = rows, cols, stride
        self.all = shared.board
        self.row_mask, self.col_mask = shared.row_masks, shared.col_masks
        self.row_tallies = puzzle.row_tallies
        self.col_tallies = puzzle.col_tallies
        self.orth = [shared.orthogonal(1 << i) for i in range(rows * stride)]
        self.diag = [shared.diagonal(1 << i) for i in range(rows * stride)]
        self.fleet = dict(puzzle.fleet)
        self.lengths = shared.lengths
        self.longest = max(self.lengths, default=0)
        self.hint_ship = shared.mask_of(cell for cell, h in puzzle.hints.items() if h.is_ship)
        self.hint_water = shared.mask_of(cell for cell, h in puzzle.hints.items() if not h.is_ship)
        alive = self.alive = compatible(puzzle, shared)
        self.placements = {length: tuple(p for p in shared.placements if p.length == length and alive >> p.index & 1)
                           for length in self.lengths}
        # For each given ship piece: (cell index, hint, cells every ship through it covers, water around all).
        self.hint_rules = [(shared.index(*reach.cell), reach.hint, reach.ship, reach.water)
                           for reach in hint_reach(puzzle, shared, alive)]
        self.line_cache: dict = {}
        self.segment_memo: dict = {}
        self.tally_lines = [(axis, index, mask, tally)
                            for axis, masks, tallies in (("row", self.row_mask, self.row_tallies),
                                                         ("column", self.col_mask, self.col_tallies))
                            for index, (mask, tally) in enumerate(zip(masks, tallies)) if tally is not None]
        self.steps_banked: list[tuple[int, int, object]] = []   # see ``bank``
        self.kept: Kept | None = None                            # see ``keep``
        self.truth: int | None = None   # the solution's ship cells, once a hint has asked for them
        self.settled: dict = {}  # simple consequences of assumptions that held (``probe.settled_before``)
        self.held: dict = {}     # depth-2 assumptions that held, the same way (``probe.find_deep_contradiction``)
        self.line_cells = {(True, r): [r * stride + c for c in range(cols)] for r in range(rows)}
        self.line_cells.update({(False, c): [r * stride + c for r in range(rows)] for c in range(cols)})

    def mask_of(self, cells) -> int:
        return self.shared.mask_of(cells)

    def bank(self, ship: int, water: int, findings: list) -> None:
        """Keep steps proved on the board (``ship``, ``water``) for later boards (hints).

        A step proved on a board stays true on every board that knows at least as much: the
        same reasoning still applies. Depth-2 steps cost a long search; one search finds
        several, and the hints that follow use them (:meth:`banked`).
        """
        self.steps_banked.extend((ship, water, found) for found in findings)
        del self.steps_banked[:-BANK_LIMIT]

    def keep(self, ship: int, water: int, search, steps: list, dropped: list) -> Kept:
        """Keep a hint's depth-2 search of the board (``ship``, ``water``) to go on with later:
        the steps it appends to ``steps`` are proved on that board (with the ``dropped``
        places ruled out), so they hold on every later board that extends it."""
        self.kept = Kept(ship, water, search, steps, dropped)
        return self.kept

    def banked(self, ship: int, water: int):
        """A kept step that still applies to this board: proved on a board it extends, about
        cells still unknown (None if there is none)."""
        unknown = self.all & ~ship & ~water
        for base_ship, base_water, found in self.steps_banked:
            if (not base_ship & ~ship and not base_water & ~water
                    and not (found.ship | found.water) & ~unknown):
                return found
        return None

    def segment_facts(self, seg: Segment) -> tuple[str | None, bool, int]:
        """What a segment says whatever else is on the board: what is wrong with its shape (a
        bend, too long, a whole ship the given pieces do not allow), whether it is a whole ship
        of the fleet's lengths, and the cells diagonal to it (no other ship may be there).
        Remembered: probing meets the same segments again and again."""
        key = (seg.cells, seg.closed)
        facts = self.segment_memo.get(key)
        if facts is not None:
            return facts
        fault, whole = None, False
        if not seg.straight:
            fault = f"the ship at {self.where(seg.cells)} would bend"
        elif seg.length > self.longest:
            fault = f"the ship at {self.where(seg.cells)} would be longer than the longest ({self.longest})"
        elif seg.closed:
            whole = True
            # A whole ship must be one the hints allow (a given piece shows its shape).
            placed = seg.placement(self.shared)
            if placed is not None and not self.alive >> placed.index & 1:
                fault = f"the ship at {self.where(seg.cells)} would not match the given pieces"
        around = 0
        for i in bits(seg.cells):
            around |= self.diag[i]
        if len(self.segment_memo) >= MEMO_LIMIT:
            self.segment_memo.clear()
        facts = self.segment_memo[key] = (fault, whole, around)
        return facts

    def index(self, row: int, col: int) -> int:
        return row * self.stride + col

    def coord(self, index: int) -> Coord:
        return divmod(index, self.stride)

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


@lru_cache(maxsize=16)
def model_of(puzzle: Puzzle) -> Model:
    return Model(puzzle)


def reach(valid: dict[int, list[Placement]]) -> tuple[int, int]:
    """(the places in ``valid`` as one mask over their indices, the cells they cover)."""
    places = cover = 0
    for group in valid.values():
        for p in group:
            places |= 1 << p.index
            cover |= p.cells
    return places, cover


def fleet_text(remaining: dict[int, int]) -> str:
    parts = [f"{count} {ship_name(length)}{'s' if count > 1 else ''}"
             for length, count in sorted(remaining.items(), reverse=True) if count > 0]
    return ", ".join(parts) if parts else "none"


class Analysis:
    """What the rules need to know about one board (``ship``/``water`` masks)."""

    def __init__(self, model: Model, ship: int, water: int,
                 parent_valid: dict[int, list[Placement]] | None = None) -> None:
        self.model, self.ship, self.water = model, ship, water
        self.unknown = model.all & ~ship & ~water
        self.contradiction: str | None = None
        self.contradiction_cells = 0
        self._parent_valid = parent_valid
        self._valid: dict[int, list[Placement]] | None = None
        self._reach: tuple[int, int] | None = None
        self.lines: list[tuple[str, int, int, int, int]] = []   # (axis, index, mask, need, unknown)
        self._lines()
        if self.contradiction is None:
            self._segments()

    def fail(self, text: str, cells: int = 0) -> None:
        if self.contradiction is None:
            self.contradiction, self.contradiction_cells = text, cells

    def _lines(self) -> None:
        ship, unknown_cells, zero, lines = self.ship, self.unknown, 0, self.lines
        model = self.model
        self.needs = needs = ([None] * model.rows, [None] * model.cols)   # ship cells each line still needs
        for axis, index, mask, tally in model.tally_lines:
            need = tally - (ship & mask).bit_count()
            unknown = (unknown_cells & mask).bit_count()
            if need <= 0:
                zero |= mask
                if need < 0:
                    self.fail(f"{axis} {index + 1} would have more than {tally} ship cell{'s' if tally != 1 else ''}",
                              mask)
            elif need > unknown:
                self.fail(f"{axis} {index + 1} could not reach its tally of {tally}", mask)
            lines.append((axis, index, mask, need, unknown))
            needs[axis == "column"][index] = need
        self.full_lines = zero      # lines that take no more ship cells

    def _segments(self) -> None:
        model = self.model
        self.segments = segments(model.shared, self.ship, self.water)
        closed: dict[int, int] = {}
        for seg in self.segments:
            fault, whole, around = model.segment_facts(seg)
            if fault:
                self.fail(fault, seg.cells)
            elif whole:
                closed[seg.length] = closed.get(seg.length, 0) + 1
            if around & self.ship:
                self.fail(f"ships would touch at {model.where(seg.cells)}", seg.cells)
        self.remaining = {length: count - closed.get(length, 0) for length, count in model.fleet.items()}
        for length, count in closed.items():
            if count > model.fleet.get(length, 0):
                self.fail(f"there would be {count} {ship_name(length)}s, the fleet has "
                          f"{model.fleet.get(length, 0)}")
        self.open_segments = [s for s in self.segments if not s.closed and s.straight]
        self.longest_remaining = max((n for n, k in self.remaining.items() if k > 0), default=0)

    def _fits(self, pool) -> list[Placement]:
        """The placements of ``pool`` where a missing ship can still lie on this board.

        Not on water, not touching a ship, not adding ship cells to a line that has all its
        ship cells (or more than it still needs); a placement already all ship is a place only
        while one of its ends is open (a closed one is a placed ship)."""
        ship, water, full = self.ship, self.water, self.full_lines
        need_row, need_col = self.needs
        kept = []
        for p in pool:
            if p.cells & water or p.halo & ship:
                continue
            new = p.cells & ~ship
            if not new:
                if p.ends & ~water:
                    kept.append(p)
                continue
            if new & full:
                continue
            need = (need_row if p.line_is_row else need_col)[p.line]
            if need is None or new.bit_count() <= need:
                kept.append(p)
        return kept

    @property
    def valid(self) -> dict[int, list[Placement]]:
        """Length -> placements still possible for the ships of that length not yet closed."""
        if self._valid is None:
            self._valid = self._compute_valid()
        return self._valid

    @property
    def reach(self) -> tuple[int, int]:
        """(the places still possible as one mask over their indices, the cells they cover)."""
        if self._reach is None:
            self._reach = reach(self.valid)
        return self._reach

    def _compute_valid(self) -> dict[int, list[Placement]]:
        model, source = self.model, self._parent_valid
        valid = {}
        for length in model.lengths:
            if self.remaining.get(length, 0) <= 0:
                valid[length] = []
                continue
            valid[length] = self._fits(source[length] if source is not None else model.placements[length])
        # A segment every place of which has one length is that ship: when such segments use up
        # the remaining ships of that length, no other place is possible for them.
        self.segment_places: list[tuple[Segment, list[Placement]]] = []
        committed: dict[int, list[tuple[int, list[Placement]]]] = {}
        for seg in self.open_segments:
            places = [p for length in model.lengths for p in valid[length] if p.cells & seg.cells]
            self.segment_places.append((seg, places))
            if not places:
                self.fail(f"no ship still missing ({fleet_text(self.remaining)}) fits the segment at "
                          f"{model.where(seg.cells)}", seg.cells)
                continue
            lengths = {p.length for p in places}
            if len(lengths) == 1:
                committed.setdefault(lengths.pop(), []).append((seg.cells, places))
        for length, group in committed.items():
            masks = [mask for mask, _ in group]
            if any(p.cells & other for mask, places in group for p in places for other in masks if other != mask):
                continue  # two of them may be parts of one ship: they need not be different ships
            if len(masks) > self.remaining[length]:
                self.fail(f"{len(masks)} segments can only be {ship_name(length)}s, only "
                          f"{self.remaining[length]} {'is' if self.remaining[length] == 1 else 'are'} missing")
            elif len(masks) == self.remaining[length]:
                taken = sum(masks)
                valid[length] = [p for p in valid[length] if p.cells & taken]
        for length, count in self.remaining.items():
            if count > 0 and not valid[length]:
                self.fail(f"the {ship_name(length)} would have nowhere to go")
            elif count > 1:
                room = self._room(length, valid[length], count)
                if room < count:
                    self.fail(f"the {count} missing {ship_name(length)}s would not fit (room for {room})")
        return valid

    def _room(self, length: int, places: list[Placement], wanted: int) -> int:
        """How many ships of ``length`` the lines can hold at most, line by line, or any number
        of at least ``wanted`` once that many are sure to fit.

        In each line: as many non-touching places as fit one after another, and no more than
        the line's tally allows (its missing cells plus ship cells those places cover).
        """
        model = self.model
        rows = model.rows
        lines = rows + model.cols
        count, free_from, covered = [0] * lines, [-2] * lines, [0] * lines
        need_row, need_col = self.needs
        # Ships sure to fit: at most the line's missing cells' worth in each line.
        sure_in = [len(places) if need is None else need // length for need in need_row + need_col]
        sure = 0
        # Placements keep the model's order: along each line, by where they start.
        for p in places:
            if p.line_is_row:
                line, start = p.line, p.col
            else:
                line, start = rows + p.line, p.row
            covered[line] |= p.cells
            if start >= free_from[line]:
                count[line] += 1
                free_from[line] = start + length + 1
                if count[line] <= sure_in[line]:
                    sure += 1
                    if sure >= wanted:
                        return sure
        room, ship = 0, self.ship
        for line, most in enumerate(count):
            if not most:
                continue
            if line < rows:
                tally, mask = model.row_tallies[line], model.row_mask[line]
            else:
                tally, mask = model.col_tallies[line - rows], model.col_mask[line - rows]
            if tally is not None:
                budget = tally - (ship & mask).bit_count() + (ship & covered[line]).bit_count()
                most = min(most, budget // length)
            room += most
        return room
