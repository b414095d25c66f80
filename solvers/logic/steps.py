"""The steps a person can follow, read off the one engine's log, simplest first.

The rules are the engine's (:mod:`solvers.propagation.rules`: each stated once, with its
level and its sentence in one table). A board is settled by the rules of level 1 (a glance),
or of levels 1 and 2 (fleet reasoning), with a log; each run of log entries one rule wrote
about one thing (a line, a segment, a length, a hint) is a :class:`~solvers.logic.analysis.Finding`.
The engine runs the cheaper rules first and goes back to them after any change, so the steps
come simplest first. Levels 3 and 4 (contradictions of depth 1 and 2) live in
:mod:`solvers.logic.probe`.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

from game.puzzle import Cell
from solvers.logic.analysis import DeductionModel, Finding
from solvers.propagation.model import State
from solvers.propagation.rules import Said, propagate


class Steps(NamedTuple):
    """A board settled by the rules up to a level: the board (``ship``, ``water``, the places
    still possible), the steps that settled it, simplest first, and if it breaks, why and the
    cells that show it (its places then those it started from: None for all the hints allow)."""

    ship: int
    water: int
    places: int | None
    found: list[Finding]
    broken: str | None = None
    cells: int = 0


def settle_steps(model: DeductionModel, ship: int, water: int, places: int | None, level: int = 2) -> Steps:
    """The board (``ship``, ``water``, ``places``: None for all the hints allow) settled by
    the rules of ``level`` and below, with its steps."""
    log: list = []
    state = propagate(model.engine, start_of(model, ship, places), ship=ship, water=water, all_lines=True, log=log,
                      level=level)
    found, failed = findings(log)
    if state is None:
        if failed is not None:
            return Steps(ship, water, places, found, failed.sentence(), failed.evidence)
        return Steps(ship, water, places, found, UNSAID)
    return Steps(state.ship, state.water, state.alive, found)


UNSAID = "the ships still missing could not all be placed"     # a break no rule put into words


def findings(log: list) -> tuple[list[Finding], Said | None]:
    """The steps of a log, and what broke the board (None if nothing did)."""
    found: list[Finding] = []
    key = None
    ship = water = 0
    root: Said | None = None

    def close() -> None:
        if root is not None:
            found.append(Finding(root.rule, root.level, ship, water, root.evidence,
                                 partial(root.sentence, ship, water)))

    for mask, value, said in log:
        if value is Cell.UNKNOWN:
            close()
            return found, said
        if not isinstance(said, Said):
            continue
        step = said.cause or said
        here = (step.rule, step.evidence, step.places, step.line, step.length)
        if here != key:
            close()
            key, root, ship, water = here, step, 0, 0
        if value is Cell.SHIP:
            ship |= mask
        else:
            water |= mask
    close()
    return found, None


def start_of(model: DeductionModel, ship: int, places: int | None) -> State:
    """The engine's state to settle a board from: nothing known yet, the board's places (and
    those of its whole ships), the whole fleet to place."""
    alive = model.alive if places is None else with_whole(model, ship, places)
    return State(0, 0, 0, alive, model.engine.start.counts)


def with_whole(model: DeductionModel, ship: int, alive: int) -> int:
    """The places ``alive`` and those of the ships the board holds whole (ship cells no place
    of ``alive`` covers) where the hints allow them, which the engine places (again). The
    places of a board settled by the engine leave out the ships it placed: they are places
    of that board, not of a board it extends."""
    geo = model.shared
    whole = ship & ~model.cells_of(alive)
    while whole:
        cells = geo.component(whole & -whole, whole)
        whole &= ~cells
        row, col = geo.coord((cells & -cells).bit_length() - 1)
        length = cells.bit_count()
        p = geo.placement(length, cells & geo.row_masks[row] == cells, row, col)
        if p is not None and p.cells == cells:
            alive |= (1 << p.index) & model.alive
    return alive
