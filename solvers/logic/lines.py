"""Line filling: every way one row or column can still hold its tally.

Along a line, ship cells form runs separated by water. A run of one cell is a submarine or
one cell of a ship crossing the line; a longer run is a whole ship lying along the line, so
it must be a place still open for a ship of exactly that length (or a ship already closed
there). A dynamic programme over the line, counting ship cells as a bit set, finds which
unknown cells are ship in every filling and which in none: the nonogram line solver, with
the fleet deciding which runs are allowed.
"""

from __future__ import annotations

from typing import Iterator

from game.ships import kept
from solvers.logic.analysis import Analysis, bits

CACHE_LIMIT = 50_000


def _closed_runs(an: Analysis) -> dict[tuple[bool, int], tuple[tuple[int, int], ...]]:
    """Line -> the runs (start, length) of the whole ships of 2+ cells lying along it."""
    model, runs = an.model, {}
    for seg in an.segments:
        if seg.closed and seg.length > 1:
            r, c = model.coord(next(bits(seg.cells)))
            key = (bool(seg.horizontal), r if seg.horizontal else c)
            runs[key] = runs.get(key, ()) + ((c if seg.horizontal else r, seg.length),)
    return runs


def line_fill(an: Analysis) -> Iterator[tuple[str, int, int, int, int]]:
    """(line name, tally, mask, cells proved ship, cells proved water) per line that learns something.

    Sets ``an.contradiction`` when a line cannot be filled at all. A run of 2+ cells may be a
    place still open along the line or a whole ship lying there; a one-cell run may be any
    cell a place still covers, or a ship cell. A line whose cells, reach and places read as on
    the fixpoint below the board (``an.below``) is skipped: it found nothing there. (Its whole
    ships read the same too: a ship closes by a cell of its own line.)
    """
    model = an.model
    places = an.places
    ship_cells, water_cells = an.ship, an.water
    single = ship_cells | an.reachable
    closed = _closed_runs(an)
    cache = model.line_cache
    fill_lines = model.fill_lines
    moved, gone = model.all, 0                   # cells and places that read otherwise on the fixpoint below
    if an.below is not None:
        below_ship, below_water, below_places, below_reach = an.below
        moved = (ship_cells ^ below_ship) | (water_cells ^ below_water) | (single ^ (below_ship | below_reach))
        gone = places ^ below_places
    for k, line in enumerate(an.lines):
        if not line[4]:                          # no unknown cell
            continue
        mask = line[2]
        is_row, tally, along_line, cells = fill_lines[k]
        along = places & along_line
        if not (moved & mask or gone & along_line):
            continue                             # as on the fixpoint below, where it found nothing
        whole = closed.get((is_row, line[1]), ()) if closed else ()
        # Probing revisits the same line states again and again: remember the answers.
        key = (k, ship_cells & mask, water_cells & mask, single & mask, along, whole)
        answer = cache.get(key)
        if answer is None:
            starts = {(p.col if is_row else p.row, p.length) for p in model.members(along)}
            starts.update(whole)
            answer = kept(cache, key, _solve_line(an, cells, tally, tuple(sorted(starts)), single), CACHE_LIMIT)
        ship, water = answer
        if ship is None:
            an.fail(f"{line[0]} {line[1] + 1} cannot hold {tally} ship cells in ships that still fit", mask)
            return
        if ship | water:
            yield f"{line[0].capitalize()} {line[1] + 1}", tally, mask, ship, water


def _solve_line(an: Analysis, cells: list[int], tally: int, starts: tuple[tuple[int, int], ...],
                single: int) -> tuple[int | None, int]:
    n, ship_mask, water_mask = len(cells), an.ship, an.water
    is_ship = [(ship_mask >> i) & 1 for i in cells]
    is_water = [(water_mask >> i) & 1 for i in cells]
    run_at: list[list[int]] = [[] for _ in range(n)]
    for i, cell in enumerate(cells):
        if not is_water[i] and (single >> cell) & 1:
            run_at[i].append(1)
    for start, length in starts:
        if length > 1 and not any(is_water[start:start + length]):
            run_at[start].append(length)
    limit = (1 << (tally + 1)) - 1
    # free[i]: counts of ship cells before i when a run may start at i; sealed[i]: when cell i
    # follows a run and must be water (or the line ends there).
    free, sealed = [0] * (n + 1), [0] * (n + 1)
    free[0] = 1
    for i in range(n):
        if not is_ship[i]:
            free[i + 1] |= free[i] | sealed[i]
        if free[i]:
            for length in run_at[i]:
                sealed[i + length] |= (free[i] << length) & limit
    if not ((free[n] | sealed[n]) >> tally) & 1:
        return None, 0
    # What the rest of the line can still hold, as the counts the line start may bring: bit k
    # of ``rest_free[i]`` (``rest_sealed[i]``, when cell i must be water) means that with k
    # ship cells before i the line from i can make up the tally.
    rest_free, rest_sealed = [0] * (n + 1), [0] * (n + 1)
    rest_free[n] = rest_sealed[n] = 1 << tally
    for i in range(n - 1, -1, -1):
        rest_sealed[i] = rest_free[i + 1] if not is_ship[i] else 0
        reach = rest_sealed[i]
        for length in run_at[i]:
            reach |= rest_sealed[i + length] >> length
        rest_free[i] = reach
    can_ship = can_water = 0
    for i in range(n):
        if not is_ship[i] and (free[i] | sealed[i]) & rest_free[i + 1]:
            can_water |= 1 << i
        if free[i]:
            for length in run_at[i]:
                if free[i] & (rest_sealed[i + length] >> length):
                    can_ship |= ((1 << length) - 1) << i
    ship = water = 0
    for i, cell in enumerate(cells):
        if is_ship[i] or is_water[i]:
            continue
        if not (can_water >> i) & 1:
            ship |= 1 << cell
        elif not (can_ship >> i) & 1:
            water |= 1 << cell
    return ship, water
