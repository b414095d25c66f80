"""The genetic solver's model: where each ship may go, and what a fleet layout costs.

Glossary
- *slot*: one ship of the puzzle's fleet (a 10x10 fleet has 10 slots), longest first.
- *candidate*: one placement (row, col, length, orientation) a slot of that length may take.
  Candidates are filtered once, soundly: never on given water, never over a line whose
  tally is too small for it, never beside a given ship piece without covering it, and
  covering a given piece only with the shape the piece shows. Every solution uses only
  candidates, so an empty candidate list proves the puzzle has no solution.
- *layout*: one candidate per slot (an individual of the population).
- *penalty*: overlap + touching + uncovered ship hints + tally errors, weighted; 0 means
  the layout is a solution (the judge in ``game.rules`` still has the last word).

Cells are numbered ``row * cols + col``. The incidence matrices (candidate x cell, candidate
x row, ...) let numpy score every candidate of a ship length in a few vector operations,
which is what the local search does most of the time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from game.puzzle import Cell, Coord, Grid, Hint, Puzzle
from solvers.events import Ship

# How much each kind of broken rule costs. Overlap and touching are counted per ordered pair
# of ships and per cell, so one diagonal touch already costs 2.
CONFLICT_WEIGHT = 1.0
HINT_WEIGHT = 2.0
TALLY_WEIGHT = 1.0


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


def _ship_zone(ship: Ship, rows: int, cols: int) -> set[Coord]:
    """The ship's cells and their eight neighbours inside the board."""
    zone = set()
    for r, c in ship.cells():
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    zone.add((r + dr, c + dc))
    return zone


def candidate_ships(puzzle: Puzzle, length: int) -> list[Ship]:
    """Every placement of a ship of ``length`` that some solution could use."""
    rows, cols = puzzle.rows, puzzle.cols
    ship_hints = {cell: hint for cell, hint in puzzle.hints.items() if hint.is_ship}
    found = []
    for horizontal in ((False,) if length == 1 else (True, False)):
        height, width = (1, length) if horizontal else (length, 1)
        for row in range(rows - height + 1):
            for col in range(cols - width + 1):
                ship = Ship(row, col, length, horizontal)
                if _fits(puzzle, ship, ship_hints):
                    found.append(ship)
    return found


def _fits(puzzle: Puzzle, ship: Ship, ship_hints: dict[Coord, Hint]) -> bool:
    cells = ship.cells()
    for index, cell in enumerate(cells):
        hint = puzzle.hints.get(cell)
        if hint is Hint.WATER:
            return False
        if hint is not None and not hint.fits(ship.length, ship.horizontal, index):
            return False
    row_need = {r: sum(1 for rr, _ in cells if rr == r) for r, _ in cells}
    col_need = {c: sum(1 for _, cc in cells if cc == c) for _, c in cells}
    if any(puzzle.row_tallies[r] is not None and puzzle.row_tallies[r] < n for r, n in row_need.items()):
        return False
    if any(puzzle.col_tallies[c] is not None and puzzle.col_tallies[c] < n for c, n in col_need.items()):
        return False
    # A ship next to a given ship piece it does not cover would touch whichever ship covers it.
    own = set(cells)
    return not any(cell in ship_hints for cell in _ship_zone(ship, puzzle.rows, puzzle.cols) - own)


class FleetModel:
    """Static tables for one puzzle: slots, candidates, incidence matrices, targets."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        rows, cols = puzzle.rows, puzzle.cols
        self.slot_lengths: tuple[int, ...] = tuple(length for length, count in puzzle.fleet for _ in range(count))
        self.ship_hint_cells: tuple[Coord, ...] = tuple(c for c, h in puzzle.hints.items() if h.is_ship)
        self.ships: list[Ship] = []
        self.ids_by_length: dict[int, np.ndarray] = {}
        for length in sorted({n for n, _ in puzzle.fleet}, reverse=True):
            found = candidate_ships(puzzle, length)
            self.ids_by_length[length] = np.arange(len(self.ships), len(self.ships) + len(found))
            self.ships.extend(found)
        count = len(self.ships)
        hint_index = {cell: i for i, cell in enumerate(self.ship_hint_cells)}
        self.cover = np.zeros((count, rows * cols))
        self.zone = np.zeros((count, rows * cols))
        self.row_inc = np.zeros((count, rows))
        self.col_inc = np.zeros((count, cols))
        self.hint_inc = np.zeros((count, len(self.ship_hint_cells)))
        for i, ship in enumerate(self.ships):
            for r, c in ship.cells():
                self.cover[i, r * cols + c] = 1
                self.row_inc[i, r] += 1
                self.col_inc[i, c] += 1
                if (r, c) in hint_index:
                    self.hint_inc[i, hint_index[(r, c)]] = 1
            for r, c in _ship_zone(ship, rows, cols):
                self.zone[i, r * cols + c] = 1
        self.row_target = np.array([t or 0 for t in puzzle.row_tallies], dtype=float)
        self.row_known = np.array([t is not None for t in puzzle.row_tallies], dtype=float)
        self.col_target = np.array([t or 0 for t in puzzle.col_tallies], dtype=float)
        self.col_known = np.array([t is not None for t in puzzle.col_tallies], dtype=float)
        # The local search works on concatenations: [cover | zone] @ [zone | cover] of the other
        # ships is the conflict a placement adds, and rows and columns are one vector of lines.
        self.cover_zone = np.hstack([self.cover, self.zone])
        self.zone_cover = np.hstack([self.zone, self.cover])
        cells = rows * cols
        self.cover, self.zone = self.cover_zone[:, :cells], self.cover_zone[:, cells:]   # views, not copies
        self.line_inc = np.hstack([self.row_inc, self.col_inc])
        self.line_target = np.concatenate([self.row_target, self.col_target])
        self.line_known = np.concatenate([self.row_known, self.col_known])
        self.cover_line = np.hstack([self.cover, self.line_inc])
        # Per length, the candidates' rows of each matrix, sliced once for the local search.
        self.by_length = {length: (ids, self.cover_zone[ids], self.line_inc[ids], self.hint_inc[ids])
                          for length, ids in self.ids_by_length.items()}

    def impossible_length(self) -> int | None:
        """A ship length no candidate fits (the puzzle then has no solution), if any."""
        for length in self.slot_lengths:
            if len(self.ids_by_length[length]) == 0:
                return length
        return None

    def fleet(self, layout: Sequence[int]) -> tuple[Ship, ...]:
        return tuple(self.ships[i] for i in layout)

    def grid(self, layout: Sequence[int]) -> Grid:
        """The finished board a layout draws: its ships' cells, water elsewhere."""
        board = [[Cell.WATER] * self.puzzle.cols for _ in range(self.puzzle.rows)]
        for i in layout:
            for r, c in self.ships[i].cells():
                board[r][c] = Cell.SHIP
        return tuple(tuple(row) for row in board)

    def penalties(self, layout: Sequence[int]) -> Penalties:
        """Score a whole layout from scratch (the reference the local search must agree with)."""
        ids = np.asarray(layout, dtype=int)
        cover = self.cover[ids].sum(axis=0)
        zone = self.zone[ids].sum(axis=0)
        overlap = float(cover @ (cover - 1))
        touching = float(cover @ (zone - cover))
        uncovered = float((self.hint_inc[ids].sum(axis=0) == 0).sum()) if len(self.ship_hint_cells) else 0.0
        rows = self.row_inc[ids].sum(axis=0)
        cols = self.col_inc[ids].sum(axis=0)
        tallies = float(np.abs(rows - self.row_target) @ self.row_known
                        + np.abs(cols - self.col_target) @ self.col_known)
        return Penalties(overlap, touching, uncovered, tallies)

    def fitness(self, layout: Sequence[int]) -> float:
        return self.penalties(layout).total


class Layout:
    """A mutable layout with running totals, so one ship can be moved and rescored cheaply.

    ``state`` is ``[zone | cover]``: per cell, how many ships' zones hold it, then how many
    ships cover it; ``lines`` counts ship cells per row then per column; ``hints`` how many
    ships cover each given ship piece; ``conflict`` is overlap + touching.
    """

    __slots__ = ("model", "ids", "state", "lines", "hints", "conflict", "fitness")

    def __init__(self, model: FleetModel, ids: Sequence[int]) -> None:
        self.model = model
        self.ids = list(ids)
        index = np.asarray(self.ids, dtype=int)
        self.state = model.zone_cover[index].sum(axis=0)
        self.lines = model.line_inc[index].sum(axis=0)
        self.hints = model.hint_inc[index].sum(axis=0)
        cells = model.puzzle.rows * model.puzzle.cols
        zone, cover = self.state[:cells], self.state[cells:]
        self.conflict = float(cover @ (zone - 1))
        self.fitness = self._total()

    def copy(self) -> Layout:
        twin = object.__new__(Layout)
        twin.model, twin.ids = self.model, list(self.ids)
        twin.state, twin.lines, twin.hints = self.state.copy(), self.lines.copy(), self.hints.copy()
        twin.conflict, twin.fitness = self.conflict, self.fitness
        return twin

    def _total(self) -> float:
        m = self.model
        tallies = float(np.abs(self.lines - m.line_target) @ m.line_known)
        uncovered = float((self.hints == 0).sum())
        return CONFLICT_WEIGHT * self.conflict + HINT_WEIGHT * uncovered + TALLY_WEIGHT * tallies

    def scores(self, slot: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(candidate ids, fitness with the slot's ship at each, conflict with it at each)."""
        m, i = self.model, self.ids[slot]
        ids, cover_zone, line_inc, hint_inc = m.by_length[m.slot_lengths[slot]]
        state = self.state - m.zone_cover[i]
        lines = self.lines - m.line_inc[i]
        free_hints = (self.hints - m.hint_inc[i]) == 0
        conflict = (self.conflict - m.cover_zone[i] @ state) + cover_zone @ state
        tallies = np.abs(lines + line_inc - m.line_target) @ m.line_known
        uncovered = float(free_hints.sum()) - hint_inc @ free_hints
        return ids, CONFLICT_WEIGHT * conflict + HINT_WEIGHT * uncovered + TALLY_WEIGHT * tallies, conflict

    def move(self, slot: int, candidate: int, fitness: float | None = None,
             conflict: float | None = None) -> None:
        """Put the slot's ship on ``candidate``; ``fitness``/``conflict`` from ``scores`` save a rescoring."""
        m, old = self.model, self.ids[slot]
        self.state -= m.zone_cover[old]
        if conflict is None:
            conflict = (self.conflict - m.cover_zone[old] @ self.state) + m.cover_zone[candidate] @ self.state
        self.state += m.zone_cover[candidate]
        self.lines += m.line_inc[candidate] - m.line_inc[old]
        self.hints += m.hint_inc[candidate] - m.hint_inc[old]
        self.ids[slot] = candidate
        self.conflict = float(conflict)
        self.fitness = self._total() if fitness is None else float(fitness)

    def troubled_slots(self) -> list[int]:
        """Slots whose ship overlaps or touches another, or lies on an over-full line."""
        m = self.model
        cells = m.puzzle.rows * m.puzzle.cols
        zone, cover = self.state[:cells], self.state[cells:]
        trouble = np.concatenate([(cover > 0) & (zone > 1), (self.lines > m.line_target) & (m.line_known > 0)])
        hits = m.cover_line[self.ids] @ trouble
        return hits.nonzero()[0].tolist()
