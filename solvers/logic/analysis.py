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

from functools import cached_property, lru_cache

from game.puzzle import Coord, Puzzle, ship_name
from game.ships import Placement, Segment, bits, compatible, geometry_of, hint_reach, kept, segments
from solvers.propagation.model import Model, compile_puzzle
from solvers.propagation.rules import claims, room_for

BANK_LIMIT = 200        # steps a bank keeps for later boards
MEMO_LIMIT = 50_000     # entries each of the model's memos keeps (see ``_kept``)


class Kept:
    """A hint's depth-2 search kept to go on with (:meth:`DeductionModel.keep`). One hint at a time
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


class Bank:
    """Steps proved on a board, kept for the boards after it.

    A step proved on a board stays true on every board that knows at least as much: the same
    reasoning still applies. Depth-2 steps cost a long search, and one search finds several:
    the boards that follow use them. The hints keep one bank per puzzle (``DeductionModel.bank``), a
    solver run its own.
    """

    def __init__(self, board: int) -> None:
        self.board = board                                 # the mask of every cell
        self.steps: list[tuple[int, int, object]] = []    # (ship, water, finding): proved on that board

    def add(self, ship: int, water: int, findings: list) -> None:
        """Keep ``findings``, proved on the board (``ship``, ``water``); the last ``BANK_LIMIT``."""
        self.steps.extend((ship, water, found) for found in findings)
        del self.steps[:-BANK_LIMIT]

    def find(self, ship: int, water: int):
        """A kept step that applies to the board (``ship``, ``water``): proved on a board it
        extends, about cells still unknown (None if there is none)."""
        unknown = self.board & ~ship & ~water
        for base_ship, base_water, found in self.steps:
            if (not base_ship & ~ship and not base_water & ~water
                    and not (found.ship | found.water) & ~unknown):
                return found
        return None

    def clear(self) -> None:
        self.steps.clear()


class DeductionModel:
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
        self.alive = compatible(puzzle, shared)     # the places the hints allow, as a mask over their indices
        self.length_sets = dict(zip(self.lengths, shared.length_sets))
        self.p_cells, self.by_index = shared.p_cells, shared.placements
        # For each given ship piece: (cell index, hint, cells every ship through it covers, water around all).
        self.hint_rules = [(shared.index(*reach.cell), reach.hint, reach.ship, reach.water)
                           for reach in hint_reach(puzzle, shared, self.alive)]
        self.segment_memo: dict = {}
        self.cover_memo: dict = {}      # see ``covering``
        self.halo_memo: dict = {}
        self.cells_memo: tuple[dict, ...] = tuple({} for _ in range(0, len(shared.placements), 32))   # ``cells_of``
        self.segments_memo: dict = {}   # see ``Analysis._segments``
        self.tally_lines = [(axis, index, mask, tally)
                            for axis, masks, tallies in (("row", self.row_mask, self.row_tallies),
                                                         ("column", self.col_mask, self.col_tallies))
                            for index, (mask, tally) in enumerate(zip(masks, tallies)) if tally is not None]
        self.tally_masks = tuple(mask for _, _, mask, _ in self.tally_lines)
        self.bank = Bank(self.all)      # the hints' steps proved on earlier boards, for later ones
        self.kept: Kept | None = None                            # see ``keep``
        self.ahead_of: tuple[int, int] | None = None    # the settled board a hint last searched ahead from
        self.truth: int | None = None   # the solution's ship cells, once a hint has asked for them
        self.settled: dict = {}  # simple consequences of assumptions that held (``probe.settled_before``)
        self.held: dict = {}     # depth-2 assumptions that held, the same way (``probe.find_deep_contradiction``)
        self.broken: dict = {}   # places whose depth-1 trial broke, by the board (``probe.broke_before``)
        self.broken_deep: dict = {}    # places whose depth-2 trial broke, the same way (``probe._place_breaks_deeply``)

    @cached_property
    def engine(self) -> Model:
        """The puzzle compiled for the one engine (:mod:`solvers.propagation`), which settles the trials."""
        return compile_puzzle(self.puzzle)

    @cached_property
    def longer_along(self) -> list[tuple[int, ...]]:
        """Per tallied line: the places along it longer than k, for each k (``Analysis._fits``;
        the engine's ``Model.longer`` met with the line)."""
        shared, longer = self.shared, self.engine.longer
        return [tuple(along & places for places in longer)
                for along in ((shared.row_lines if axis == "row" else shared.col_lines)[index]
                              for axis, index, _, _ in self.tally_lines)]

    def mask_of(self, cells) -> int:
        return self.shared.mask_of(cells)

    def covering(self, cells: int) -> int:
        """The places that cover any of ``cells``, as a mask over their indices."""
        return self._by_rows(cells, self.shared.covering, self.cover_memo)

    def surrounding(self, cells: int) -> int:
        """The places whose halo holds any of ``cells`` (a ship there would touch them)."""
        return self._by_rows(cells, self.shared.surrounding, self.halo_memo)

    def _by_rows(self, cells: int, table: tuple[int, ...], memo: dict) -> int:
        # Row by row, each row's cells remembered: probing meets the same rows again and again.
        found, stride, row_mask = 0, self.stride, self.row_mask
        while cells:
            row = row_mask[((cells & -cells).bit_length() - 1) // stride]
            part = cells & row
            cells ^= part
            places = memo.get(part)
            if places is None:
                places = _union_kept(memo, part, table, 0)
            found |= places
        return found

    def cells_of(self, places: int) -> int:
        """The cells the places of a mask cover, read 32 places at a time, each block
        remembered: the places still possible change little from one board to the next."""
        found, memos, p_cells = 0, self.cells_memo, self.p_cells
        for block, memo in enumerate(memos):
            chunk = (places >> (block << 5)) & 0xFFFF_FFFF
            if not chunk:
                continue
            cells = memo.get(chunk)
            if cells is None:
                cells = _union_kept(memo, chunk, p_cells, block << 5)
            found |= cells
        return found

    def members(self, places: int) -> list[Placement]:
        """The places of a mask, in index order (by length as the fleet lists them, then along
        each line by where they start)."""
        by_index = self.by_index
        return [by_index[i] for i in bits(places)]

    def of_length(self, places: int, length: int) -> int:
        return places & self.length_sets[length]

    def keep(self, ship: int, water: int, search, steps: list, dropped: list) -> Kept:
        """Keep a hint's depth-2 search of the board (``ship``, ``water``) to go on with later:
        the steps it appends to ``steps`` are proved on that board (with the ``dropped``
        places ruled out), so they hold on every later board that extends it."""
        self.kept = Kept(ship, water, search, steps, dropped)
        return self.kept

    def segment_facts(self, seg: Segment) -> tuple[str | None, bool, int, Placement | None]:
        """What a segment says whatever else is on the board: what is wrong with its shape (a
        bend, too long, a whole ship the given pieces do not allow), whether it is a whole ship
        of the fleet's lengths, the cells diagonal to it (no other ship may be there), and the
        place a whole ship takes (None if it is not one).
        Remembered: probing meets the same segments again and again."""
        key = (seg.cells, seg.closed)
        facts = self.segment_memo.get(key)
        if facts is not None:
            return facts
        fault, whole, placed = None, False, None
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
        return _kept(self.segment_memo, key, (fault, whole, around, placed))

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


def _kept(memo: dict, key, value):
    """:func:`game.ships.kept`, with the model's ``MEMO_LIMIT``."""
    return kept(memo, key, value, MEMO_LIMIT)


def _united(table, part: int, offset: int = 0) -> int:
    """``table[offset + i]`` united over the set bits ``i`` of ``part``."""
    found = 0
    for i in bits(part):
        found |= table[offset + i]
    return found


def _union_kept(memo: dict, part: int, table, offset: int) -> int:
    """:func:`_united`, kept in ``memo``."""
    return _kept(memo, part, _united(table, part, offset))


@lru_cache(maxsize=16)
def model_of(puzzle: Puzzle) -> DeductionModel:
    return DeductionModel(puzzle)


def fleet_text(remaining: dict[int, int]) -> str:
    parts = [f"{count} {ship_name(length)}{'s' if count > 1 else ''}"
             for length, count in sorted(remaining.items(), reverse=True) if count > 0]
    return ", ".join(parts) if parts else "none"


class Analysis:
    """What the rules need to know about one board (``ship``/``water`` masks)."""

    def __init__(self, model: DeductionModel, ship: int, water: int, parent_places: int | None = None,
                 base: Analysis | None = None) -> None:
        """``base``, when given, is the analysis of a board this one extends, without a
        contradiction: what does not depend on the cells added since is taken from it."""
        self.model, self.ship, self.water = model, ship, water
        self.unknown = model.all & ~ship & ~water
        self.contradiction: str | None = None
        self.contradiction_cells = 0
        self._parent_places = parent_places
        self._base = base
        self._fitted: int | None = None     # the places of the source that fit this board (``_fits``)
        self._touched: list[int] = []       # the lines read again since ``base`` (``_lines_from``)
        self._places: int | None = None
        self._reachable: int | None = None
        if base is None:
            self._lines()
        else:
            self._lines_from(base)
        if self.contradiction is None:
            self._segments()

    def fail(self, text: str, cells: int = 0) -> None:
        if self.contradiction is None:
            self.contradiction, self.contradiction_cells = text, cells

    def _lines(self) -> None:
        self.lines: list = [None] * len(self.model.tally_lines)   # per tallied line: (axis, index, mask, need, unknown)
        self.full_lines = self.met = self.filled = 0
        self._read_lines(range(len(self.lines)))

    def _lines_from(self, base: Analysis) -> None:
        """``_lines``, reading again only the lines of the cells added since ``base``: the
        others are as they were there, and none of them failed there."""
        self.lines = base.lines.copy()
        changed = (self.ship ^ base.ship) | (self.water ^ base.water)
        touched, again, bit = [], 0, 1
        for mask in self.model.tally_masks:
            if changed & mask:
                touched.append(bit.bit_length() - 1)
                again |= bit
            bit <<= 1
        self._touched = touched
        self.full_lines, self.met, self.filled = base.full_lines, base.met & ~again, base.filled & ~again
        self._read_lines(touched)

    def _read_lines(self, which) -> None:
        """Read the tallied lines ``which`` (indices into ``DeductionModel.tally_lines``, in order): what
        each still needs, whether it breaks its tally, whether it is full (``full_lines``, a
        mask of cells), met with cells left (``met``) or needs all its unknown cells
        (``filled``), the last two as masks over the line indices."""
        ship, unknown_cells, lines = self.ship, self.unknown, self.lines
        zero, met, filled, tally_lines = self.full_lines, self.met, self.filled, self.model.tally_lines
        for k in which:
            axis, index, mask, tally = tally_lines[k]
            need = tally - (ship & mask).bit_count()
            unknown = (unknown_cells & mask).bit_count()
            if need <= 0:
                zero |= mask
                if need < 0:
                    self.fail(f"{axis} {index + 1} would have more than {tally} ship cell{'s' if tally != 1 else ''}",
                              mask)
                elif unknown:
                    met |= 1 << k
            elif need > unknown:
                self.fail(f"{axis} {index + 1} could not reach its tally of {tally}", mask)
            elif need == unknown:
                filled |= 1 << k
            lines[k] = (axis, index, mask, need, unknown)
        self.full_lines, self.met, self.filled = zero, met, filled    # full: lines that take no more ship cells

    def _segments(self) -> None:
        """The segments and what they say: a shape that breaks a rule, ships touching, too many
        of a length, the ships still missing. All of it depends only on the ship cells and the
        water beside them, so it is remembered by those (probing meets them again and again)."""
        model, ship = self.model, self.ship
        key = (ship, self.water & model.shared.orthogonal(ship))
        known = model.segments_memo.get(key)
        if known is None:
            known = _kept(model.segments_memo, key, self._read_segments())
        self.segments, self.remaining, self.open_segments, self.longest_remaining, failed = known
        if failed is not None:
            self.fail(*failed)

    def _read_segments(self) -> tuple:
        model, ship = self.model, self.ship
        found = segments(model.shared, ship, self.water)
        failed: list[tuple[str, int]] = []
        closed: dict[int, int] = {}
        for seg in found:
            fault, whole, around, _ = model.segment_facts(seg)
            if fault:
                failed.append((fault, seg.cells))
            elif whole:
                closed[seg.length] = closed.get(seg.length, 0) + 1
            if around & ship:
                failed.append((f"ships would touch at {model.where(seg.cells)}", seg.cells))
        remaining = {length: count - closed.get(length, 0) for length, count in model.fleet.items()}
        for length, count in closed.items():
            if count > model.fleet.get(length, 0):
                failed.append((f"there would be {count} {ship_name(length)}s, the fleet has "
                               f"{model.fleet.get(length, 0)}", 0))
        open_segments = [s for s in found if not s.closed and s.straight]
        longest = max((n for n, k in remaining.items() if k > 0), default=0)
        return found, remaining, open_segments, longest, failed[0] if failed else None

    def _fits(self, source: int) -> int:
        """The places of ``source`` where a missing ship can still lie on this board.

        Not on water, not touching a ship, not adding ship cells to a line that has all its
        ship cells (or more than it still needs); a place already all ship is a place only
        while one of its ends is open (a closed one is a placed ship).

        When every place of ``source`` fits the base board, only what the cells added since
        can change is checked: they are the only new water and ship, only their lines can
        have become full or need fewer cells (a place adds no more cells to a line than it did).
        """
        model, ship, base = self.model, self.ship, self._base
        if base is not None and base._fitted is not None and not source & ~base._fitted:
            blocked = (self.water & ~base.water) | (self.unknown & self.full_lines & ~base.full_lines)
            near = ship & ~base.ship
            lines = self._touched
        else:
            blocked, near, lines = self.water | (self.unknown & self.full_lines), ship, range(len(self.lines))
        places = source & ~model.covering(blocked) & ~model.surrounding(near)
        # A place all ship that touches no other ship cell is a segment: open, or a placed ship.
        for seg in self.segments:
            if seg.closed:
                placed = model.segment_facts(seg)[3]
                if placed is not None:
                    places &= ~(1 << placed.index)
        # Along a line that still needs ``need`` ship cells, a place may add at most that many.
        p_cells, tally_lines, longer_along = model.p_cells, model.tally_lines, model.longer_along
        longest = model.longest
        self_lines = self.lines
        for k in lines:
            need = self_lines[k][3]
            if need <= 0 or need > longest:
                continue
            longer = longer_along[k]
            over = places & longer[need]
            if not over:
                continue
            have = (ship & tally_lines[k][2]).bit_count()
            if need + have < len(longer):
                places &= ~(over & longer[need + have])       # too long whatever they cover
                over &= ~longer[need + have]
            for i in bits(over):
                if (p_cells[i] & ~ship).bit_count() > need:
                    places &= ~(1 << i)
        self._fitted = places
        return places

    @property
    def places(self) -> int:
        """The places still possible for the ships not yet closed, as a mask over their indices."""
        if self._places is None:
            self._places = self._compute_places()
        return self._places

    @property
    def reachable(self) -> int:
        """The unknown cells some place still possible covers."""
        if self._reachable is None:
            self._reachable = self.unknown & self.model.cells_of(self.places)
        return self._reachable

    def _compute_places(self) -> int:
        model = self.model
        source = self._parent_places if self._parent_places is not None else model.alive
        for length in model.lengths:
            if self.remaining.get(length, 0) <= 0:
                source &= ~model.length_sets[length]
        places = self._fits(source)
        # A segment every place of which has one length is that ship: when such segments use up
        # the remaining ships of that length, no other place is possible for them.
        self.segment_places: list[tuple[Segment, int]] = []    # each open segment, the places through it
        for seg in self.open_segments:
            through = places & model.covering(seg.cells)
            self.segment_places.append((seg, through))
            if not through:
                self.fail(f"no ship still missing ({fleet_text(self.remaining)}) fits the segment at "
                          f"{model.where(seg.cells)}", seg.cells)
        for li, (found, together) in claims(model.shared, (through for _, through in self.segment_places)).items():
            length = model.lengths[li]
            if together is None:
                continue                         # two of them may be parts of one ship
            if found > self.remaining[length]:
                self.fail(f"{found} segments can only be {ship_name(length)}s, only "
                          f"{self.remaining[length]} {'is' if self.remaining[length] == 1 else 'are'} missing")
            elif found == self.remaining[length]:
                places &= ~model.length_sets[length] | together
        for length, count in self.remaining.items():
            if count <= 0:
                continue
            own = places & model.length_sets[length]
            if not own:
                self.fail(f"the {ship_name(length)} would have nowhere to go")
            elif count > 1:
                room = room_for(model.engine, model.shared.length_index[length], self.ship, own, count)
                if room < count:
                    self.fail(f"the {count} missing {ship_name(length)}s would not fit (room for {room})")
        return places
