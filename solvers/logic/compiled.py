"""The simple rules' verdict, compiled (numba): what :func:`solvers.logic.probe.propagate`
settles a board to, and whether it breaks, without the sentences.

The engine's trials run the level 1-2 rules tens of thousands of times per puzzle, and most
trials hold: nothing is shown for them, only the board they settle to is kept. This module
runs the same rules, in the same order (level 1 together, then level 2 one rule at a time),
on flat arrays (a cell is a byte, a place is a byte and its cells and halo are 64-bit words);
the tables are read off the deduction engine's :class:`~solvers.logic.analysis.DeductionModel`. The
reason a board breaks comes from the rules in :mod:`solvers.logic.rules`, which say why,
when it is read; those rules are the reference, and the tests compare the two on every trial
of pack levels and corpus puzzles and on random small boards (``tests/test_logic_compiled.py``).

All indices are the engine's: cell ``r * stride + c``, places by index. The tables are one
tuple, unpacked by each compiled function (numba caches functions of tuples, not of classes).
"""

from __future__ import annotations

import numpy as np

from game.puzzle import Hint
from solvers.compiling import ready
from solvers.placement_arrays import shape_tables

LARGEST_BOARD = 900     # cells: on larger boards the rules in Python, with their memos, are as fast


def tables_of(model) -> tuple | None:
    """The model's tables as arrays (None for boards over ``LARGEST_BOARD`` cells; the line fill
    counts a line's ship cells in one machine word, so lines stay under 63 cells)."""
    rows, cols, stride = model.rows, model.cols, model.stride
    if rows * cols > LARGEST_BOARD or max(rows, cols) > 62:
        return None
    shape = shape_tables(rows, cols, tuple(model.lengths))
    nb = rows * stride
    fleet = np.array([model.fleet[length] for length in model.lengths], np.int64)
    line_tally = np.array([-1 if tally is None else tally for tally in (*model.row_tallies, *model.col_tallies)],
                          np.int64)
    # The given ship pieces' rules (``rules.hint_shape``).
    n_hints = len(model.hint_rules)
    hint_cell = np.zeros(n_hints, np.int64)
    hint_middle = np.zeros(n_hints, np.uint8)
    hint_ship = np.zeros((n_hints, nb), np.uint8)
    hint_water = np.zeros((n_hints, nb), np.uint8)
    for k, (index, hint, ship, water) in enumerate(model.hint_rules):
        hint_cell[k] = index
        hint_middle[k] = hint is Hint.MIDDLE
        hint_ship[k] = _unpack(ship, nb)
        hint_water[k] = _unpack(water, nb)
    (onb, orth, diag, p_len, p_line, p_start, p_cells, p_halo, p_li, lengths, length_index, first_across,
     first_down, cover_ptr, cover_idx, line_cells, line_n, along_ptr, along_idx, p_cellw, p_halow) = shape
    alive = _unpack(model.alive, len(p_len))
    return (rows, cols, stride, onb, orth, diag, p_len, p_line, p_start, p_cells, p_halo, p_li, lengths, fleet,
            length_index, first_across, first_down, alive, cover_ptr, cover_idx, line_cells, line_n, line_tally,
            along_ptr, along_idx, hint_cell, hint_middle, hint_ship, hint_water, p_cellw, p_halow)


def _unpack(mask: int, count: int) -> np.ndarray:
    raw = np.frombuffer(mask.to_bytes((count + 7) // 8 or 1, "little"), np.uint8)
    return np.unpackbits(raw, count=count, bitorder="little")


class CompiledRules:
    """One puzzle's tables and the compiled settle."""

    def __init__(self, model, tables: tuple) -> None:
        from solvers.logic import compiled_rules  # numba loads here, on the first trial
        self._settle = compiled_rules.settle_packed
        self.tables = tables
        self.cell_bytes = (tables[0] * tables[2] + 7) // 8
        self.place_bytes = (len(tables[6]) + 7) // 8
        self.alive = model.alive

    def settle(self, ship: int, water: int, valid: int | None) -> tuple[bool, int, int, int, int]:
        """(holds, ship, water, places, reach) as :func:`probe.propagate` settles the board to.
        On a board that breaks: the ship, water and places the rules' last round started from
        (the rules in Python break in their first round from there), and no reach."""
        cb, pb = self.cell_bytes, self.place_bytes
        raw = self._settle(self.tables, np.frombuffer(ship.to_bytes(cb, "little"), np.uint8),
                           np.frombuffer(water.to_bytes(cb, "little"), np.uint8),
                           np.frombuffer((self.alive if valid is None else valid).to_bytes(pb, "little"), np.uint8),
                           cb, pb).tobytes()
        return (raw[0] == 1, int.from_bytes(raw[1:1 + cb], "little"), int.from_bytes(raw[1 + cb:1 + 2 * cb], "little"),
                int.from_bytes(raw[1 + 3 * cb:], "little"), int.from_bytes(raw[1 + 2 * cb:1 + 3 * cb], "little"))


def compiled_of(model) -> CompiledRules | None:
    """The model's compiled rules, built on first use: None where the board is too large for
    them, and in a process that found them not compiled yet (``solvers.compiling``: they are
    compiled in the background meanwhile, and the rules in Python conclude the same)."""
    found = model.__dict__.get("_compiled", False)
    if found is False:
        tables = tables_of(model)
        found = model._compiled = None if tables is None or not _loadable() else CompiledRules(model, tables)
    return found


def _loadable() -> bool:
    from solvers.logic import compiled_rules  # numba loads here, on the first trial
    return ready(__name__, compiled_rules.settle_packed)


def load(model) -> None:
    """Load the compiled rules for ``model`` now: numba's import and its cached machine code
    take about a second the first time in a process, which no trial should wait for."""
    compiled = compiled_of(model)
    if compiled is not None:
        compiled.settle(model.hint_ship, model.hint_water, None)


def warm_up() -> None:
    """Compile the rules now, on a small board: numba keeps the machine code in its cache, so
    later processes only load it. ``make setup``, the tests and the background build
    (``solvers.compiling``) call it."""
    from game.puzzle import Puzzle
    from solvers.logic.analysis import model_of

    model = model_of(Puzzle(3, 5, (0, 3, 0), (None, 1, 1, 1, None), ((3, 1),), {(1, 2): Hint.MIDDLE}))
    CompiledRules(model, tables_of(model)).settle(model.hint_ship, model.hint_water, None)

