"""The genetic solver's model: where each ship may go, and what a fleet layout costs.

Glossary
- *slot*: one ship of the puzzle's fleet (a 10x10 fleet has 10 slots), longest first.
- *candidate*: a placement of :mod:`game.ships` that a slot of its length may take: one the
  hints allow (``compatible`` there) and that no line's tally is too small for. Every
  solution uses only candidates, so an empty candidate list proves there is no solution.
- *layout*: one candidate per slot (an individual of the population).
- *penalty*: overlap + touching + uncovered ship hints + tally errors, weighted; 0 means
  the layout is a solution (the judge in ``game.rules`` still has the last word).

Each candidate is stored as short rows of indices: the cells it covers, its zone (cells
and neighbours) and the lines it adds to. Scoring every candidate of a length is then a few
gathers over those rows, and memory grows with candidates x ship length, never with
candidates x board cells (see docs/design/genetic.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Union

import numpy as np

from game.puzzle import Grid, Puzzle
from game.ships import Geometry, Placement, compatible, prepared
from game.slices import Laid, Slices, drain
from solvers.events import Ship, board_of
from solvers.genetic import repair_core as core

# How much each kind of broken rule costs. Overlap and touching are counted per ordered pair
# of ships and per cell, so one diagonal touch already costs 2.
CONFLICT_WEIGHT = 1.0
HINT_WEIGHT = 2.0
TALLY_WEIGHT = 1.0

SLICE = 4096                # placements read between two slices of the candidates
Ids = Union[Sequence[int], np.ndarray]      # a layout: a candidate per slot (a list, or a Layout's array)


@dataclass(frozen=True)
class Penalties:
    """The parts of a layout's penalty; ``total`` is the fitness (0 = solved, lower is better)."""

    overlap: float
    touching: float
    hints: float
    tallies: float

    @property
    def total(self) -> float:
        return (CONFLICT_WEIGHT * (self.overlap + self.touching) + HINT_WEIGHT * self.hints
                + TALLY_WEIGHT * self.tallies)


def candidates(puzzle: Puzzle, geo: Geometry) -> Slices[list[Placement]]:
    """The placements some solution could use: compatible with the hints, and never more
    cells in a line than its tally; built in slices (``game.slices``)."""
    alive = compatible(puzzle, geo)
    zero = 0
    for masks, tallies in ((geo.row_masks, puzzle.row_tallies), (geo.col_masks, puzzle.col_tallies)):
        zero |= sum(mask for mask, tally in zip(masks, tallies) if tally == 0)
    found = []
    for p in geo.members(alive):
        if not p.index % SLICE:
            yield
        tally = (puzzle.row_tallies if p.line_is_row else puzzle.col_tallies)[p.line]
        if not p.cells & zero and not (p.length > 1 and tally is not None and tally < p.length):
            found.append(p)
    return found


class FleetModel(Laid):
    """Static tables for one puzzle: slots, candidates as index rows, targets.

    A layout's counts live in one vector ``[zone | cover | zero | sink]``: per cell, how
    many ships' zones hold it, then how many ships cover it (cells are ``row * cols + col``);
    its lines in ``[rows | columns | zero]``. Per candidate, ``puts`` are the entries it adds
    1 to (its zone, its cells), ``reads`` those whose sum is its conflict with the others
    (zones at its cells, ships in its zone), ``own`` its cells, ``line``/``line_add`` the
    lines it adds to and by how much. Rows that read are padded with ``zero``, which always
    holds 0; ``puts`` with ``sink``, which is never read; ``line`` with the zero line (adding 0).
    """

    def __init__(self, puzzle: Puzzle) -> None:
        drain(self._lay(puzzle))

    def _lay(self, puzzle: Puzzle) -> Slices[None]:
        """The model, built in slices (``game.slices``) with the geometry's table it reads."""
        self.puzzle = puzzle
        rows, cols = puzzle.rows, puzzle.cols
        self.slot_lengths: tuple[int, ...] = tuple(length for length, count in puzzle.fleet for _ in range(count))
        geo = yield from prepared(puzzle, ("covering",))
        found = yield from candidates(puzzle, geo)       # longest first, as the slots are
        # A submarine lies "down".
        self.ships = [Ship(p.row, p.col, p.length, p.horizontal and p.length > 1) for p in found]
        self.cells = cells = rows * cols
        self.zero = zero = 2 * cells
        self.sink = sink = zero + 1
        self.lines = lines = rows + cols
        count, longest = len(found), max((p.length for p in found), default=1)
        width = 4 * longest + 6                              # cells plus a 3 x (length + 2) zone
        self.puts = np.full((count, width), sink, dtype=np.intp)
        self.reads = np.full((count, width), zero, dtype=np.intp)
        self.own = np.full((count, longest), zero, dtype=np.intp)
        self.line = np.full((count, longest + 1), lines, dtype=np.intp)
        self.line_add = np.zeros((count, longest + 1))      # line counts are floats: BLAS sums them
        row = np.array([p.row for p in found], dtype=np.intp)
        col = np.array([p.col for p in found], dtype=np.intp)
        length = np.array([p.length for p in found], dtype=np.intp)
        across = np.array([p.horizontal for p in found], dtype=bool)
        self.ids_by_length: dict[int, np.ndarray] = {}
        tallies = puzzle.row_tallies + puzzle.col_tallies
        self.line_target = np.array([t or 0 for t in tallies] + [0], dtype=float)
        self.line_known = np.array([t is not None for t in tallies] + [False], dtype=float)
        for n in sorted({n for n, _ in puzzle.fleet}, reverse=True):
            ids = np.flatnonzero(length == n)
            self.ids_by_length[n] = ids
            for lying in (True, False):
                which = ids[across[ids] == lying]
                yield
                if len(which):
                    self._fill(which, row[which], col[which], n, lying)
        self.line_cap = np.where(self.line_known > 0, self.line_target, np.inf)
        # Each candidate's centre, doubled so that it is a whole number: (rows, columns).
        self.centre = np.stack([2 * row + np.where(across, 0, length - 1), 2 * col + np.where(across, length - 1, 0)])
        self.slot_length_array = np.array(self.slot_lengths, dtype=np.int64)
        # Candidates of one length are numbered consecutively: a slot's places are first .. last - 1.
        self.slot_first = np.array([self.ids_by_length[n][0] if len(self.ids_by_length[n]) else 0
                                    for n in self.slot_lengths], dtype=np.int64)
        self.slot_last = self.slot_first + [len(self.ids_by_length[n]) for n in self.slot_lengths]
        # The runs of slots of one length: (first slot, last slot + 1).
        self.length_runs = tuple((self.slot_lengths.index(n), self.slot_lengths.index(n) + k)
                                 for n, k in puzzle.fleet)
        self.run_first = np.array([first for first, _ in self.length_runs], dtype=np.int64)
        self.run_last = np.array([last for _, last in self.length_runs], dtype=np.int64)
        self.hint_at = np.array([r * cols + c for (r, c), hint in puzzle.hints.items() if hint.is_ship], dtype=np.intp)
        self.is_hint = np.zeros(cells, dtype=bool)
        self.is_hint[self.hint_at] = True

    def _fill(self, ids: np.ndarray, row: np.ndarray, col: np.ndarray, n: int, across: bool) -> None:
        rows, cols, cells = self.puzzle.rows, self.puzzle.cols, self.cells
        step = np.arange(n)
        along = (row[:, None], col[:, None] + step) if across else (row[:, None] + step, col[:, None])
        own = along[0] * cols + along[1]
        # The zone is the (3 x n+2) or (n+2 x 3) rectangle around the ship, clipped to the board.
        dr, dc = np.meshgrid(np.arange(-1, 2 if across else n + 1), np.arange(-1, n + 1 if across else 2),
                             indexing="ij")
        zr, zc = row[:, None] + dr.ravel(), col[:, None] + dc.ravel()
        inside = (zr >= 0) & (zr < rows) & (zc >= 0) & (zc < cols)
        zone = zr * cols + zc
        used = 4 * n + 6
        self.reads[ids, :used - n] = np.where(inside, cells + zone, self.zero)    # ships in its zone
        self.reads[ids, used - n:used] = self.own[ids, :n] = own                  # zones at its cells
        self.puts[ids, :used - n] = np.where(inside, zone, self.sink)             # its zone
        self.puts[ids, used - n:used] = cells + own                               # its cells
        # The ship's own line gains n cells; each line crossing it gains one.
        line, crossing = (row, rows + along[1]) if across else (rows + col, along[0])
        self.line[ids, 0] = line
        self.line[ids, 1:n + 1] = crossing
        self.line_add[ids, 0] = n
        self.line_add[ids, 1:n + 1] = 1

    def impossible_length(self) -> int | None:
        """A ship length no candidate fits (the puzzle then has no solution), if any."""
        return next((length for length in self.slot_lengths if len(self.ids_by_length[length]) == 0), None)

    def fleet(self, layout: Ids) -> tuple[Ship, ...]:
        return tuple(self.ships[i] for i in layout)

    def grid(self, layout: Ids) -> Grid:
        """The finished board a layout draws: its ships' cells, water elsewhere."""
        return board_of(self.puzzle.rows, self.puzzle.cols, self.fleet(layout))

    def counts(self, layout: Ids) -> tuple[np.ndarray, np.ndarray, float]:
        """A layout's ``[zone | cover | zero | sink]`` and ``[rows | columns | zero]`` counts,
        and its conflict (overlap + touching)."""
        state = np.zeros(self.sink + 1, dtype=np.int64)
        lines = np.zeros(self.lines + 1)
        conflict = core.counts(np.asarray(layout, dtype=np.int64), self.slot_length_array, self.puts, self.line,
                               self.line_add, state, lines)
        return state, lines, float(conflict)

    def penalties(self, layout: Ids) -> Penalties:
        """Score a whole layout from scratch (the reference the local search must agree with)."""
        state, lines, _ = self.counts(layout)
        zone, cover = state[:self.cells], state[self.cells:self.zero]
        overlap = float(cover @ (cover - 1))
        touching = float(cover @ (zone - cover))
        uncovered = float((cover[self.hint_at] == 0).sum())
        tallies = float(np.abs(lines - self.line_target) @ self.line_known)
        return Penalties(overlap, touching, uncovered, tallies)


class Layout:
    """A mutable layout with running totals, so one ship can be moved and rescored cheaply.

    ``state`` and ``lines`` are the counts described in :class:`FleetModel`; ``conflict``
    is overlap + touching. Scoring, moving and repair are compiled (``repair_core``).
    """

    __slots__ = ("model", "ids", "state", "lines", "conflict", "fitness")

    def __init__(self, model: FleetModel, ids: Ids) -> None:
        self.model = model
        self.ids = np.array(ids, dtype=np.int64)
        self.state, self.lines, self.conflict = model.counts(self.ids)
        self.fitness = core.penalty(self.state, self.lines, self.conflict, model.line_target, model.line_known,
                                    model.hint_at, model.cells, CONFLICT_WEIGHT, HINT_WEIGHT, TALLY_WEIGHT)

    def copy(self) -> Layout:
        twin = object.__new__(Layout)
        twin.model, twin.ids = self.model, self.ids.copy()
        twin.state, twin.lines = self.state.copy(), self.lines.copy()
        twin.conflict, twin.fitness = self.conflict, self.fitness
        return twin

    def scores(self, slot: int) -> tuple[np.ndarray, np.ndarray]:
        """(candidate ids, the fitness with the slot's ship at each)."""
        m = self.model
        first, last = int(m.slot_first[slot]), int(m.slot_last[slot])
        totals = np.empty(last - first)
        core.score_places(self.state, self.lines, self.conflict, self.ids[slot], m.slot_lengths[slot], first, last,
                    totals, m.puts, m.reads, m.line, m.line_add, m.line_target, m.line_known, m.hint_at,
                    m.is_hint, m.cells, CONFLICT_WEIGHT, HINT_WEIGHT, TALLY_WEIGHT)
        return np.arange(first, last), totals

    def move(self, slot: int, candidate: int, fitness: float) -> None:
        """Put the slot's ship on ``candidate``, whose ``fitness`` :meth:`scores` gave."""
        m = self.model
        self.conflict = core.move_ship(self.state, self.lines, self.conflict, self.ids[slot], candidate,
                                  m.slot_lengths[slot], m.puts, m.reads, m.line, m.line_add)
        self.ids[slot] = candidate
        self.fitness = float(fitness)

    def place_greedily(self, order: Sequence[int], seed: int) -> int:
        """Move the ships of the slots in ``order`` one by one, each to a best place
        (``repair_core.greedy``); returns candidates scored."""
        m = self.model
        self.conflict, self.fitness, evaluations = core.greedy(
            self.state, self.lines, self.ids, self.conflict, np.asarray(order, dtype=np.int64), seed,
            m.slot_length_array, m.slot_first, m.slot_last, m.puts, m.reads, m.line, m.line_add,
            m.line_target, m.line_known, m.hint_at, m.is_hint, m.cells, CONFLICT_WEIGHT, HINT_WEIGHT, TALLY_WEIGHT)
        return int(evaluations)

    def repair(self, steps: int, noise: float, trouble_first: float, seed: int) -> int:
        """``steps`` of min-conflicts repair (``repair_core.repair_steps``); returns candidates scored."""
        m = self.model
        self.conflict, self.fitness, evaluations = core.repair_steps(
            self.state, self.lines, self.ids, self.conflict, self.fitness, steps, noise, trouble_first, seed,
            m.slot_length_array, m.slot_first, m.slot_last, m.puts, m.reads, m.own, m.line, m.line_add,
            m.line_target, m.line_known, m.line_cap, m.hint_at, m.is_hint, m.cells,
            CONFLICT_WEIGHT, HINT_WEIGHT, TALLY_WEIGHT)
        return int(evaluations)
