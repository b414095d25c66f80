"""Line filling, read off the deduction engine's board: every way one row or column can still
hold its tally (the one statement of it is the engine's, ``solvers.propagation.rules.fill_line``).

Along a line, ship cells form runs separated by water: a run of one cell is a submarine or one
cell of a ship crossing the line; a longer run is a whole ship lying along the line, a place
still open for a ship of that length or a ship already closed there.
"""

from __future__ import annotations

from typing import Iterator

from solvers.logic.analysis import Analysis
from solvers.propagation.rules import fill_line


def line_fill(an: Analysis) -> Iterator[tuple[str, int, int, int, int]]:
    """(line name, tally, mask, cells proved ship, cells proved water) per line that learns something.

    Sets ``an.contradiction`` when a line cannot be filled at all. Read after the rule of
    unreachable cells, so every unknown cell is one a place covers (the engine's reading).
    """
    model = an.model
    places, engine = an.places, model.engine
    whole = 0
    for seg in an.segments:
        if seg.closed:
            whole |= seg.cells
    for k, line in enumerate(an.lines):
        if not line[4]:                          # no unknown cell
            continue
        ship, water = fill_line(engine, k, an.ship, an.water, places, whole)
        tally = model.tally_lines[k][3]
        if ship is None:
            an.fail(f"{line[0]} {line[1] + 1} cannot hold {tally} ship cells in ships that still fit", line[2])
            return
        if ship | water:
            yield f"{line[0].capitalize()} {line[1] + 1}", tally, line[2], ship, water
