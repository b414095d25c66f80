"""The placement model (``game.ships``) as flat arrays, for compiled code: the deduction
engine's compiled rules (``solvers.logic.compiled``) and the clause learner (``csr``).

Cell ``r * stride + c`` and placements by index, as in ``game.ships``; a cell set or a
placement set is a row of 64-bit words where a table needs one (cell or placement ``i``: bit
``i % 64`` of word ``i // 64``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from game.ships import bits, geometry


class Shape(NamedTuple):
    """The tables that depend only on a board's size and its fleet's lengths."""

    on_board: np.ndarray        # per cell: 1 on the board (not the padding column)
    orth: np.ndarray            # per cell: its four orthogonal neighbours (-1 off the board)
    diag: np.ndarray            # per cell: its four diagonal neighbours (-1 off the board)
    p_len: np.ndarray           # per placement: its length
    p_line: np.ndarray          # per placement: its line (rows first, then columns)
    p_start: np.ndarray         # per placement: where along its line it starts
    p_cells: np.ndarray         # per placement: its cells (-1 past the last)
    p_halo: np.ndarray          # per placement: its halo's cells (-1 past the last)
    p_li: np.ndarray            # per placement: its length's index
    lengths: np.ndarray
    length_index: np.ndarray    # per length: its index (-1 for none)
    first_across: np.ndarray    # per length: its first placement across (-1 for none)
    first_down: np.ndarray      # per length: its first placement down (-1 for none)
    cover_ptr: np.ndarray       # per cell: the placements over it (with ``cover_idx``)
    cover_idx: np.ndarray
    line_cells: np.ndarray      # per line: its cells (-1 past the last)
    line_n: np.ndarray          # per line: how many cells
    along_ptr: np.ndarray       # per line: the placements of 2+ cells along it (with ``along_idx``)
    along_idx: np.ndarray
    p_cellw: np.ndarray         # per placement: its cells as words
    p_halow: np.ndarray         # per placement: its halo as words


@lru_cache(maxsize=8)
def shape_tables(rows: int, cols: int, lengths: tuple[int, ...]) -> Shape:
    """The tables that depend only on the board's size and the fleet's lengths (shared by
    every puzzle of that shape, as :func:`game.ships.geometry` is)."""
    shared = geometry(rows, cols, lengths)
    stride = shared.stride
    nb = rows * stride
    onb = np.zeros(nb, np.uint8)
    for r in range(rows):
        onb[r * stride:r * stride + cols] = 1
    orth = np.full((nb, 4), -1, np.int64)
    diag = np.full((nb, 4), -1, np.int64)
    for r in range(rows):
        for c in range(cols):
            i = r * stride + c
            for k, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    orth[i, k] = (r + dr) * stride + c + dc
            for k, (dr, dc) in enumerate(((-1, -1), (-1, 1), (1, -1), (1, 1))):
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    diag[i, k] = (r + dr) * stride + c + dc
    places = shared.placements
    n_places = len(places)
    longest_place = max((p.length for p in places), default=1)
    halo_most = max((p.halo.bit_count() for p in places), default=1)
    p_len = np.array([p.length for p in places], np.int64)
    # Per place: its line (rows first, then columns) and where along it it starts.
    p_line = np.array([p.line if p.line_is_row else rows + p.line for p in places], np.int64)
    p_start = np.array([p.col if p.line_is_row else p.row for p in places], np.int64)
    p_cells = np.full((n_places, longest_place), -1, np.int64)
    p_halo = np.full((n_places, halo_most), -1, np.int64)
    # Each place's cells and halo as 64-bit words too (cell i: bit i % 64 of word i // 64).
    n_words = (nb + 63) // 64
    p_cellw = words([p.cells for p in places], n_words)
    p_halow = words([p.halo for p in places], n_words)
    covering: list[list[int]] = [[] for _ in range(nb)]
    for p in places:
        for k, i in enumerate(bits(p.cells)):
            p_cells[p.index, k] = i
            covering[i].append(p.index)
        for k, i in enumerate(bits(p.halo)):
            p_halo[p.index, k] = i
    top = max(rows, cols) + 1
    length_index = np.full(top + 1, -1, np.int64)
    for k, length in enumerate(lengths):
        if length <= top:
            length_index[length] = k
    p_li = np.array([length_index[p.length] for p in places], np.int64)
    # The first index of each (length, across): a closed segment's place is found from it.
    first_across = np.full(top + 1, -1, np.int64)
    first_down = np.full(top + 1, -1, np.int64)
    for p in reversed(places):
        if p.length <= top:
            (first_across if p.horizontal else first_down)[p.length] = p.index
    cover_ptr, cover_idx = csr(covering)
    n_lines = rows + cols
    line_cells = np.full((n_lines, max(rows, cols)), -1, np.int64)
    line_n = np.zeros(n_lines, np.int64)
    for r in range(rows):
        line_cells[r, :cols] = [r * stride + c for c in range(cols)]
        line_n[r] = cols
    for c in range(cols):
        line_cells[rows + c, :rows] = [r * stride + c for r in range(rows)]
        line_n[rows + c] = rows
    # The places of 2+ cells along each line, in index order.
    along: list[list[int]] = [[] for _ in range(n_lines)]
    for p in places:
        if p.length >= 2:
            along[p_line[p.index]].append(p.index)
    along_ptr, along_idx = csr(along)
    return Shape(onb, orth, diag, p_len, p_line, p_start, p_cells, p_halo, p_li, np.array(lengths, np.int64),
                 length_index, first_across, first_down, cover_ptr, cover_idx, line_cells, line_n, along_ptr,
                 along_idx, p_cellw, p_halow)


def words(masks: list[int], count: int) -> np.ndarray:
    """Masks (Python ints) as rows of ``count`` 64-bit words, lowest word first."""
    raw = b"".join(mask.to_bytes(8 * count, "little") for mask in masks)
    return np.frombuffer(raw, np.uint64).reshape(len(masks), count).copy()


def csr(rows: list[list[int]], dtype=np.int64) -> tuple[np.ndarray, np.ndarray]:
    """Lists of indices as one array and where each list starts (the last entry: the end;
    an empty array holds one 0, so that compiled code always gets an array to index)."""
    starts = np.zeros(len(rows) + 1, dtype)
    starts[1:] = np.cumsum([len(row) for row in rows])
    return starts, np.array([q for row in rows for q in row] or [0], dtype)
