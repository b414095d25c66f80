"""Constraint propagation on the bitboard model (see ``solvers.search.bitboard``), shared by the exact solvers.

``propagate(model, state, ...)`` applies a decision and every deduction that follows, to a
fixpoint, and returns the new :class:`State`, or ``None`` when the board has become
impossible (failure is a value: no exceptions). The deductions, cheapest first:

- a new water cell kills the placements over it; a new ship cell kills the placements
  whose halo holds it, and its diagonal neighbours are water;
- a line whose tally is met has water in its unknown cells; a line that needs every unknown
  cell has ship there; a line that can no longer reach, or is over, its tally fails;
  a placement that would put more new ship cells in its own line than the tally has room
  for dies;
- a length with fewer alive placements than ships left fails; with exactly as many, all
  are placed;
- every ship segment not yet part of a placed ship needs exactly one placement over it:
  none fails, one is placed, several agree on the cells they all cover (ship) and on the
  cells all their halos hold (water); segments that need a ship of length >= k cannot
  outnumber the ships of length >= k left;
- an unknown cell that no alive placement covers is water;
- the last ship of a length: the cells its every placement covers are ship, the cells
  every halo holds are water.

With a ``log`` list, every change is recorded as ``(mask, value, detail)`` for the trace.
With a ``blame`` list, a failure appends what failed, for conflict-directed branching:
``("row", index)``, ``("col", index)``, ``("cells", mask)`` or ``("length", length index)``
(only the commonest failures say; the others append nothing).
"""

from __future__ import annotations

from typing import Iterable

from game.puzzle import Cell, ship_name
from game.ships import bits as bit_indices
from solvers.search.bitboard import Model, State

Log = list[tuple[int, Cell, str]]


def _line_name(is_row: bool, index: int) -> str:
    return f"{'row' if is_row else 'column'} {index + 1}"


def propagate(model: Model, state: State, *, ship: int = 0, water: int = 0,
              places: Iterable[int] = (), kill: int = 0, log: Log | None = None,
              place_detail: str = "decision", all_lines: bool = False,
              blame: list | None = None) -> State | None:
    """Set ``ship``/``water`` cells, place ``places`` and remove the placements in ``kill``
    (a placement set), then deduce to a fixpoint. The caller logs its own changes; ``log``
    receives the deductions.

    ``blame``: receives what failed, if it fails (see the module docstring).
    ``all_lines``: look at every line's tally and every cell's coverage, not only what
    changed (for a state that is not itself a fixpoint, like the start).
    """
    geo = model.geo
    board = geo.board
    covering = geo.covering
    surrounding = geo.surrounding
    p_cells = geo.p_cells
    p_halo = geo.p_halo
    p_length = geo.p_length
    p_length_index = geo.p_length_index
    length_sets = geo.length_sets
    lengths = geo.lengths
    longest = lengths[0] if lengths else 0
    lines = model.lines
    stride = geo.stride

    s_ship, s_water, placed, alive = state.ship, state.water, state.placed, state.alive & ~kill
    counts = list(state.counts)
    if ship & water or ship & s_water or water & s_ship:
        return None
    fresh_ship = ship & ~s_ship
    fresh_water = water & ~s_water
    s_ship |= fresh_ship
    s_water |= fresh_water
    to_place: dict[int, str] = {p: place_detail for p in places}
    # Every unknown cell of a state returned here has a placement over it (the coverage rule).
    full_cover_check = all_lines
    cover_alive = state.alive

    while True:
        for p, detail in to_place.items():
            if not (alive >> p) & 1:
                return None
            cells = p_cells[p]
            halo = p_halo[p]
            if cells & s_water or halo & s_ship:
                return None
            new = cells & ~s_ship
            if new:
                s_ship |= new
                fresh_ship |= new
                if log is not None:
                    log.append((new, Cell.SHIP, detail))
            new = halo & ~s_water
            if new:
                s_water |= new
                fresh_water |= new
                if log is not None:
                    log.append((new, Cell.WATER, f"water around the {ship_name(p_length[p])}"))
            placed |= cells
            m = cells
            while m:
                low = m & -m
                alive &= ~covering[low.bit_length() - 1]
                m ^= low
            li = p_length_index[p]
            counts[li] -= 1
            if counts[li] < 0:
                return None
            if counts[li] == 0:
                alive &= ~length_sets[li]
        to_place = {}

        # Cell-level consequences of the cells set since the last pass.
        while fresh_ship or fresh_water or all_lines:
            new_ship, new_water = fresh_ship, fresh_water
            fresh_ship = fresh_water = 0
            touched = new_ship | new_water
            if all_lines:
                touched = line_ship = board
                all_lines = False
            else:
                line_ship = new_ship
            m = new_water
            while m:
                low = m & -m
                alive &= ~covering[low.bit_length() - 1]
                m ^= low
            m = new_ship
            while m:
                low = m & -m
                alive &= ~surrounding[low.bit_length() - 1]
                m ^= low
            around = ((new_ship << (stride + 1)) | (new_ship << (stride - 1)) | (new_ship >> (stride + 1))
                      | (new_ship >> (stride - 1))) & board
            if around & s_ship:
                if blame is not None:
                    blame.append(("cells", around & s_ship))
                return None
            new = around & ~s_water
            if new:
                s_water |= new
                fresh_water |= new
                if log is not None:
                    log.append((new, Cell.WATER, "water diagonal to a ship"))
            for is_row, index, mask, tally, line_placements in lines:
                if not touched & mask:
                    continue
                ships = (s_ship & mask).bit_count()
                unknown = mask & ~(s_ship | s_water)
                free = unknown.bit_count()
                if ships > tally or ships + free < tally:
                    if blame is not None:
                        blame.append(("row" if is_row else "col", index))
                    return None
                if free:
                    if ships == tally:
                        s_water |= unknown
                        fresh_water |= unknown
                        if log is not None:
                            log.append((unknown, Cell.WATER, f"{_line_name(is_row, index)} tally met"))
                    elif ships + free == tally:
                        s_ship |= unknown
                        fresh_ship |= unknown
                        if log is not None:
                            log.append((unknown, Cell.SHIP, f"{_line_name(is_row, index)} needs all its unknown cells"))
                room = tally - ships
                # With no room left the line's unknown cells just became water, which kills the rest.
                if line_ship & mask and 0 < room < longest:
                    m = alive & line_placements
                    while m:
                        low = m & -m
                        p = low.bit_length() - 1
                        m ^= low
                        if (p_cells[p] & ~s_ship).bit_count() > room:
                            alive &= ~low

        # Whole-board deductions, only once the cheap ones are exhausted.
        for li, left in enumerate(counts):
            if not left:
                continue
            options = alive & length_sets[li]
            found = options.bit_count()
            if found < left:
                if blame is not None:
                    blame.append(("length", li))
                return None
            if found == left:
                name = ship_name(lengths[li])
                for p in bit_indices(options):
                    to_place[p] = f"every remaining {name} placement is needed"
        if to_place:
            continue

        unplaced = s_ship & ~placed
        seen_covers = 0
        distinct = True
        needs: list[int] = []            # per segment: the shortest ship that can cover it
        while unplaced:
            segment = geo.component(unplaced & -unplaced, unplaced)
            unplaced &= ~segment
            cover = alive
            m = segment
            while m:
                low = m & -m
                cover &= covering[low.bit_length() - 1]
                m ^= low
            found = cover.bit_count()
            if not found:
                if blame is not None:
                    blame.append(("cells", segment))
                return None
            if cover & seen_covers:
                distinct = False
            seen_covers |= cover
            if found == 1:
                p = cover.bit_length() - 1
                to_place[p] = f"the only {ship_name(p_length[p])} that fits this segment"
                continue
            li = len(lengths) - 1                # lengths run longest first: find the shortest
            while not cover & length_sets[li]:
                li -= 1
            needs.append(lengths[li])
            common_cells, common_halo = _common(cover, board, p_cells, p_halo)
            if common_cells & ~s_ship or common_halo & ~s_water:
                settled = _settle(common_cells, common_halo, s_ship, s_water, log,
                                  "every ship that fits this segment covers it",
                                  "every ship that fits this segment ends here")
                if settled is None:
                    return None
                s_ship, s_water, new_ship, new_water = settled
                fresh_ship |= new_ship
                fresh_water |= new_water
        if to_place or fresh_ship or fresh_water:
            continue
        if distinct and len(needs) > 1:
            # Distinct segments need distinct ships: a counting (Hall) check per minimum length.
            ships_left = 0
            for li, length in enumerate(lengths):
                ships_left += counts[li]
                if sum(1 for need in needs if need >= length) > ships_left:
                    return None

        # A cell can only lose its last placement when one over it dies: look at those cells only.
        if full_cover_check:
            m = board & ~(s_ship | s_water)
            full_cover_check = False
        else:
            m = 0
            dead = cover_alive & ~alive
            while dead:
                low = dead & -dead
                m |= p_cells[low.bit_length() - 1]
                dead ^= low
            m &= ~(s_ship | s_water)
        cover_alive = alive
        empty = 0
        while m:
            low = m & -m
            if not alive & covering[low.bit_length() - 1]:
                empty |= low
            m ^= low
        if empty:
            s_water |= empty
            fresh_water |= empty
            if log is not None:
                log.append((empty, Cell.WATER, "no ship fits here"))
            continue

        for li, left in enumerate(counts):
            if left != 1:
                continue
            options = alive & length_sets[li]
            if options.bit_count() > 2 * lengths[li]:
                continue                 # more placements than can share a cell: nothing in common
            common_cells, common_halo = _common(options, board, p_cells, p_halo)
            if common_cells & ~s_ship or common_halo & ~s_water:
                name = ship_name(lengths[li])
                settled = _settle(common_cells, common_halo, s_ship, s_water, log,
                                  f"every placement of the last {name} covers it",
                                  f"water around every placement of the last {name}")
                if settled is None:
                    return None
                s_ship, s_water, new_ship, new_water = settled
                fresh_ship |= new_ship
                fresh_water |= new_water
        if fresh_ship or fresh_water:
            continue
        return State(s_ship, s_water, placed, alive, tuple(counts))


def _common(placements: int, board: int, p_cells: tuple[int, ...], p_halo: tuple[int, ...]) -> tuple[int, int]:
    """The cells every placement of the set covers, and the cells every one's halo holds."""
    cells = halo = board
    while placements:
        low = placements & -placements
        p = low.bit_length() - 1
        placements ^= low
        cells &= p_cells[p]
        halo &= p_halo[p]
    return cells, halo


def _settle(ship: int, water: int, s_ship: int, s_water: int, log: Log | None,
            ship_why: str, water_why: str) -> tuple[int, int, int, int] | None:
    """Cells every candidate agrees on: ``ship`` cells become ship, then ``water`` cells
    water. Returns the new ship and water masks and what was added to each, or None on a
    clash. Called only when something is new, so the fixpoint loop pays no call otherwise."""
    new_ship = ship & ~s_ship
    if new_ship:
        if new_ship & s_water:
            return None
        s_ship |= new_ship
        if log is not None:
            log.append((new_ship, Cell.SHIP, ship_why))
    new_water = water & ~s_water
    if new_water:
        if new_water & s_ship:
            return None
        s_water |= new_water
        if log is not None:
            log.append((new_water, Cell.WATER, water_why))
    return s_ship, s_water, new_ship, new_water


def root_state(model: Model, log: Log | None = None) -> State | None:
    """The start of a search: hints and their shapes applied, then everything they imply."""
    if model.broken:
        return None
    fleet_cells = model.puzzle.ship_cells
    for tallies in (model.row_tallies, model.col_tallies):
        known = [tally for tally in tallies if tally is not None]
        total = sum(known)
        if total > fleet_cells or (len(known) == len(tallies) and total != fleet_cells):
            return None                          # the tallies cannot add up to the fleet
    if log is not None:
        if model.shape_ship & ~model.hint_ship:
            log.append((model.shape_ship & ~model.hint_ship, Cell.SHIP, "the hint's shape continues here"))
        if model.shape_water & ~model.hint_water:
            log.append((model.shape_water & ~model.hint_water, Cell.WATER, "the hint's shape ends here"))
    # Hint cells are already on the initial board, so they are set without a log entry;
    # every line is looked at once, even one where nothing is set (e.g. a tally of 0).
    return propagate(model, model.start, ship=model.hint_ship | model.shape_ship,
                     water=model.hint_water | model.shape_water, log=log, all_lines=True)

