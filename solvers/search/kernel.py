"""The forward search's propagation, compiled (numba): what
:func:`solvers.search.propagate.propagate` returns when no log is asked for, from the same
rules in the same order (``kernel_core.py``).

The search propagates tens of thousands of times per puzzle, and the rules' bit loops in
Python were most of its time. The compiled rules return the same state, the same failure and
the same blame as the rules in Python, which stay the reference: they write the log a traced
run shows, and the tests compare the two on every propagation of corpus puzzles and random
boards (``tests/test_search_kernel.py``).

Tables shared by every puzzle of a shape (its placements as flat arrays, from
``solvers.flat``) are built once per shape; a puzzle adds its tallied lines.
"""

from __future__ import annotations

import sys
from functools import lru_cache

import numpy as np

from game.puzzle import Puzzle
from game.ships import Geometry, bits
from solvers.flat import csr, shape_tables, words
from solvers.search.bitboard import State, compile_puzzle, placement_kills

LARGEST_BOARD = 900     # cells: larger boards keep the rules in Python (the tables grow as placements squared)


@lru_cache(maxsize=8)
def _placement_tables(geo: Geometry) -> tuple:
    """Per cell the placements over it and those whose halo holds it, per placement those
    placing it kills and their cells, per length its placements: as rows of words."""
    n_words = (len(geo.placements) + 63) // 64
    kills, kill_cells = placement_kills(geo)
    return (words(list(geo.covering), n_words), words(list(geo.surrounding), n_words), words(list(kills), n_words),
            words(list(kill_cells), (geo.rows * geo.stride + 63) // 64), words(list(geo.length_sets), n_words))


def loaded() -> bool:
    """Whether the compiled propagation is loaded in this process."""
    return "solvers.search.kernel_core" in sys.modules


def fits(model) -> bool:
    """Whether the compiled propagation takes the model: boards up to ``LARGEST_BOARD`` cells,
    lines under 256 cells and fewer than 256 ships of a length (results travel as bytes)."""
    geo = model.geo
    return (geo.rows * geo.cols <= LARGEST_BOARD and max(geo.rows, geo.cols) < 256
            and max((count for _, count in model.puzzle.fleet), default=0) < 256)


TABLES = 22             # tables in the blobs: the shape's first (``_shape_blobs``), then the puzzle's lines


def tables_of(model) -> tuple[np.ndarray, np.ndarray]:
    """The search model's tables as two blobs, one of integers and one of 64-bit words. The
    integer blob starts with the board's cell count and, per table, which blob holds it, where
    it starts and its two dimensions (``kernel_core._unblob`` reads them back, in this order);
    then the shape's tables (shared by every puzzle of the shape), then the puzzle's lines."""
    geo = model.geo
    shape_header, shape_ints, shape_words = _shape_blobs(geo)
    # The tallied lines, rows then columns (``Model.lines``), and the placements along each.
    shape = shape_tables(geo.rows, geo.cols, geo.lengths)
    chosen = [index if is_row else geo.rows + index for is_row, index, *_ in model.lines]
    along_ptr, along_idx = csr([list(bits(line[4])) for line in model.lines])
    lines = ([line[0] for line in model.lines], [line[1] for line in model.lines], shape.line_cells[chosen],
             shape.line_n[chosen], [line[3] for line in model.lines], along_ptr, along_idx,
             _cell_lines(geo, model.lines))
    header, ints, _ = _blobs(lines, 1 + 4 * TABLES + len(shape_ints))
    return (np.concatenate([np.array([geo.rows * geo.stride, *shape_header, *header], np.int64), shape_ints, *ints]),
            shape_words)


@lru_cache(maxsize=8)
def _shape_blobs(geo: Geometry) -> tuple[list[int], np.ndarray, np.ndarray]:
    """The tables that depend only on the board's shape, as blobs (header entries, integers,
    words), the integers placed right after the header."""
    shape = shape_tables(geo.rows, geo.cols, geo.lengths)
    cover_w, surround_w, kills_w, kill_cellw, length_w = _placement_tables(geo)
    tables = (shape.on_board, shape.orth, shape.diag, shape.p_cells, shape.p_halo, shape.p_li, shape.p_cellw,
              shape.p_halow, cover_w, surround_w, kills_w, kill_cellw, length_w, shape.lengths)
    header, ints, words_ = _blobs(tables, 1 + 4 * TABLES)
    return header, np.concatenate(ints), np.concatenate(words_)


def _blobs(tables, at_int: int) -> tuple[list[int], list[np.ndarray], list[np.ndarray]]:
    """Tables as header entries (blob, start, dimensions) and flat arrays of integers and of
    words; the integers' blob positions start at ``at_int``."""
    header: list[int] = []
    ints: list[np.ndarray] = []
    words_: list[np.ndarray] = []
    at_word = 0
    for table in tables:
        array = np.asarray(table)
        array = array.reshape(1, -1) if array.ndim == 1 else array
        if array.dtype == np.uint64:
            header += [1, at_word, *array.shape]
            words_.append(array.ravel())
            at_word += array.size
        else:
            header += [0, at_int, *array.shape]
            ints.append(array.astype(np.int64).ravel())
            at_int += array.size
    return header, ints, words_


def _cell_lines(geo: Geometry, lines) -> np.ndarray:
    """Per cell: the tallied lines through it, its row's and its column's (their index in
    ``Model.lines``; -1 for none)."""
    table = np.full((geo.rows * geo.stride, 2), -1, np.int64)
    for k, (is_row, index, *_) in enumerate(lines):
        if is_row:
            table[index * geo.stride:index * geo.stride + geo.cols, 0] = k
        else:
            table[index:geo.rows * geo.stride:geo.stride, 1] = k
    return table


class Kernel:
    """One search model's tables and the compiled propagation."""

    def __init__(self, model) -> None:
        from solvers.search import kernel_core  # numba loads here, on the first propagation
        self._propagate = kernel_core.propagate
        self._best_cell = kernel_core.best_cell
        self._blame_kinds = kernel_core.BLAME_KINDS
        self.stride = model.geo.stride
        self.ints, self.words = tables_of(model)
        self.cell_bytes = (model.geo.rows * model.geo.stride + 7) // 8
        self.place_bytes = (len(model.geo.placements) + 7) // 8

    def best_cell(self, alive: int, unknown: int, row_weight: np.ndarray, col_weight: np.ndarray,
                  best_score: float) -> tuple[int, float]:
        """The unknown cell of ``unknown`` that ``forward._Search._branches`` would choose over
        a choice scored ``best_score``: (cell, its score), or (-1, ``best_score``)."""
        return self._best_cell(self.ints, self.words,
                               np.frombuffer(alive.to_bytes(self.place_bytes, "little"), np.uint8),
                               np.frombuffer(unknown.to_bytes(self.cell_bytes, "little"), np.uint8), row_weight,
                               col_weight, self.stride, best_score)

    def propagate(self, state, ship: int, water: int, places: int, kill: int, all_lines: bool,
                  blame: list | None, probe: bool):
        """``propagate.propagate`` from ``state`` (a :class:`~solvers.search.bitboard.State`)
        with no log: the new state, or None (and the failure in ``blame``)."""
        cb, pb = self.cell_bytes, self.place_bytes
        raw = b"".join((state.ship.to_bytes(cb, "little"), state.water.to_bytes(cb, "little"),
                        state.placed.to_bytes(cb, "little"), ship.to_bytes(cb, "little"),
                        water.to_bytes(cb, "little"), state.alive.to_bytes(pb, "little"),
                        kill.to_bytes(pb, "little"), places.to_bytes(pb, "little"), bytes(state.counts)))
        out = self._propagate(self.ints, self.words, np.frombuffer(raw, np.uint8), cb, pb, all_lines, probe).tobytes()
        if not out[0]:
            if blame is not None and out[1]:
                kind = self._blame_kinds[out[1]]
                blame.append((kind, int.from_bytes(out[3:3 + cb], "little") if kind == "cells" else out[2]))
            return None
        at = 3 + cb
        return State(int.from_bytes(out[at:at + cb], "little"), int.from_bytes(out[at + cb:at + 2 * cb], "little"),
                     int.from_bytes(out[at + 2 * cb:at + 3 * cb], "little"),
                     int.from_bytes(out[at + 3 * cb:at + 3 * cb + pb], "little"), tuple(out[at + 3 * cb + pb:]))


def warm_up() -> None:
    """Compile the propagation and the branching loop now, on a small board: numba keeps the
    machine code in its cache, so later processes only load it. ``make setup`` and the tests
    call it."""
    model = compile_puzzle(Puzzle(3, 4, (2, 0, 1), (1, 1, 1, None), ((2, 1), (1, 1)), {}))
    compiled = Kernel(model)
    compiled.propagate(model.start, 0, 0, 0, 0, True, None, False)
    compiled.best_cell(model.start.alive, model.geo.board, np.ones(3, np.int64), np.ones(4, np.int64), 1.0)
