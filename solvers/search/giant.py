"""Ship-first branching for the forward search on giant, loosely constrained boards.

On a board of tens of thousands of placements with few givens (a 60x60 board with 200 ships
and 5% of its cells given has 63,000 placements and a great many solutions), the forward
search's cell choice, which counts the placements over every unknown cell, costs more per node
than the propagation, and its dives run out of room for the middle-sized ships near the end.
There the search places the ships themselves, longest first (the classic packing order: the
small ships fill what is left): the choice is the longest length with ships left, its branches
the alive placements of that length, best first, each also ruling out the ones before it, so
the branches are exclusive and exhaustive ("the first ship of this length, in this order, is
here"). A placement is better the more its cells lie in lines that still need a large share
of their unknown cells (fail-first on the tight lines), per cell of the ship. The scores are
computed with numpy over the alive placements of the length at once. Design and
measurements: ``docs/design/search.md``, "Giant boards".
"""

from __future__ import annotations

import random

import numpy as np

from game.ships import Geometry
from solvers.propagation.model import Model, State


class ShipOrder:
    """The placements of one geometry as arrays, and the order of a length's alive placements."""

    def __init__(self, model: Model) -> None:
        geo: Geometry = model.geo
        self.geo = geo
        self.count = len(geo.placements)
        self.bytes = (self.count + 7) // 8
        self.row = np.array([p.row for p in geo.placements], dtype=np.int64)
        self.col = np.array([p.col for p in geo.placements], dtype=np.int64)
        self.length = np.array(geo.p_length, dtype=np.int64)
        self.across = np.array([p.horizontal for p in geo.placements], dtype=bool)
        self.length_index = np.array(geo.p_length_index, dtype=np.int64)
        # The tallied lines (the others never count as tight): per row and per column, its
        # mask and tally, or None.
        self.row_lines: list[tuple[int, int] | None] = [None] * geo.rows
        self.col_lines: list[tuple[int, int] | None] = [None] * geo.cols
        for is_row, index, mask, tally, _ in model.lines:
            (self.row_lines if is_row else self.col_lines)[index] = (mask, tally)

    def tightness(self, state: State) -> tuple[np.ndarray, np.ndarray]:
        """Per row and per column: the share of its unknown cells it still needs as ship."""
        unknown = state.unknown(self.geo)
        ship = state.ship

        def share(lines: list[tuple[int, int] | None]) -> np.ndarray:
            out = np.zeros(len(lines))
            for index, line in enumerate(lines):
                if line is None:
                    continue
                mask, tally = line
                free = (mask & unknown).bit_count()
                if free:
                    out[index] = (tally - (ship & mask).bit_count()) / free
            return out
        return share(self.row_lines), share(self.col_lines)

    def order(self, state: State, li: int, noise: float = 0.0, rng: random.Random | None = None) -> list[int]:
        """The alive placements of length index ``li``, best first (see the module docstring);
        ``noise`` > 0 multiplies each score by a random factor up to ``1 + noise``."""
        raw = np.frombuffer(state.alive.to_bytes(self.bytes, "little"), dtype=np.uint8)
        alive = np.unpackbits(raw, bitorder="little")[:self.count].astype(bool)
        chosen = np.flatnonzero(alive & (self.length_index == li))
        if not len(chosen):
            return []
        rows, cols = self.tightness(state)
        r, c, n, across = self.row[chosen], self.col[chosen], self.length[chosen], self.across[chosen]
        row_sum = np.concatenate(([0.0], np.cumsum(rows)))
        col_sum = np.concatenate(([0.0], np.cumsum(cols)))
        # Along its own line: n cells of that line; across: one cell of each line it crosses.
        own = np.where(across, rows[r], cols[c]) * n
        crossed = np.where(across, col_sum[np.minimum(c + n, len(cols))] - col_sum[c],
                           row_sum[np.minimum(r + n, len(rows))] - row_sum[r])
        score = (own + crossed) / n
        if noise and rng is not None:
            score = score * (1.0 + noise * np.random.default_rng(rng.getrandbits(64)).random(len(chosen)))
        return chosen[np.argsort(-score, kind="stable")].tolist()
