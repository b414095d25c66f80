"""Clause learning over the placement model: the search that decides the dense boards.

The placement model (``game.ships``) as Boolean variables, one per cell (ship or not) and one
per compatible placement (a ship lies exactly there), and its rules as constraints:

- a placement's cells are ship and its halo is water (two-literal clauses);
- a ship cell lies under some placement (one clause per cell);
- a ship cell's diagonal neighbours are water (two-literal clauses: the rules imply it, but
  the placements alone show it only once one placement is left for the cell; said outright,
  it spares dead ends: docs/design/search.md);
- each length has its count of placements, each tallied line its tally of ship cells
  (cardinality constraints, propagated by counting).

The search is conflict-driven clause learning as SAT solvers do it: decide a cell (the most
active one, with the value it last had), propagate; at a dead end, trace the conflict back
through the reasons of the facts it used to the first point where one fact of the last
decision level implies it (the first unique implication point), learn the clause that forbids
that combination, and jump back to where the clause forces something. What a dead end teaches
holds everywhere in the tree, so the same failure is not met again under other decisions:
this is what the forward search cannot do (docs/design/search.md). Learnt clauses are
shortened by removing facts their others imply, and the half that spans the most decision
levels is forgotten from time to time; the search restarts on the Luby sequence, keeping
what it learnt.

A solution (every cell decided without a conflict) is counted and excluded by a clause over
its ship cells, and the search goes on until ``limit`` solutions or a conflict at the root,
which proves there are no more: the count is exact. Each answer is judged by ``game.rules``.

This module builds the model and reads the answers; the search itself runs compiled, on flat
arrays (``solvers.search.learning_core``), a slice at a time so that a heartbeat goes out
every ``HEARTBEAT_SECONDS`` and a caller can stop it between slices.

Statistics: ``conflicts``, ``decisions``, ``learnt`` (clauses kept now), ``restarts``,
``solutions``.
"""

from __future__ import annotations

import random
import time
from itertools import chain
from typing import Generator, Iterator

import numpy as np

from game.bitsets import bits
from game.puzzle import Hint, Puzzle
from game.ships import compatible, prepared
from game.slices import Laid, Slices, drain
from solvers import compiling
from solvers.common import answer, beating, elapsed
from solvers.events import Event, Found, Progress, Result, Status, Stream


def csr(rows: list[list[int]]) -> Slices[tuple[np.ndarray, np.ndarray]]:
    """Lists of indices as one array and where each list starts (the last entry: the end;
    an empty array holds one 0, so that compiled code always gets an array to index), built
    in slices (``game.slices``)."""
    starts = np.zeros(len(rows) + 1, np.int32)
    starts[1:] = np.cumsum([len(row) for row in rows])
    flat = np.zeros(max(1, int(starts[-1])), np.int32)
    for first in range(0, len(rows), SLICE_ROWS):
        yield
        last = min(len(rows), first + SLICE_ROWS)
        flat[starts[first]:starts[last]] = np.fromiter(chain.from_iterable(rows[first:last]), np.int32,
                                                       int(starts[last] - starts[first]))
    return starts, flat


HEARTBEAT_SECONDS = 0.02
BUILD_WAIT = 180                    # seconds to wait for the background build before giving up
SLICE_CONFLICTS = 100               # conflicts per slice of the compiled search (a few ms)
SLICE_DECISIONS = 2000              # decisions per slice, when few of them conflict
SLICE_WORK = 100_000                # literals propagated, read in reasons or taken back, per slice
# The model is built in slices too (``game.slices``): so many placements, cells or lists a slice.
SLICE_PLACES = 1024
SLICE_CELLS = 256
SLICE_ROWS = 8192


def events(puzzle: Puzzle, *, trace: bool = False, limit: int = 1, rng: random.Random | None = None,
           every_variable: bool = False, best_phase: bool = False, restart_unit: int = 0,
           max_conflicts: int | None = None) -> Stream:
    """Find up to ``limit`` solutions (exact: fewer means there are no more). ``trace`` and
    ``rng`` are accepted for the common protocol: the run shows no moves and is deterministic.
    ``every_variable``: decide placements too, not only cells. ``best_phase``: decide each
    variable as it was in the longest assignment met without a conflict, where it had a value
    there (as SAT solvers' target phases do). Both bring first solutions sooner on some boards
    and proofs later; ``solvers.engine.portfolio`` runs both kinds. ``restart_unit``: conflicts
    per unit of the Luby sequence of restarts (0: ``learning_core.RESTART_UNIT``); two searches
    that differ only there take different paths, and the portfolio races two such.
    ``max_conflicts``: the search gives up once its conflicts reach this many (asked between
    slices of the compiled search, which are bounded by counts), with a ``gave_up`` result and
    the solutions met so far: the same search cut at the same point on any machine."""
    if not (yield from built()):
        yield Result(Status.ERROR, None, {}, (), "clause learning is being compiled, once, in the background")
        return
    clauses = yield from beating(_Clauses.in_slices(puzzle))
    yield from clauses.run(max(1, limit), every_variable, best_phase, restart_unit, max_conflicts)


def built() -> Generator[Progress, None, bool]:
    """Whether the search's machine code is there to run: at once when numba's cache holds it;
    else the build in the background (``solvers.compiling``), about a minute, is waited for with
    heartbeats (a caller can stop or time out) and ``compiling.notice()`` saying so, for at most
    ``BUILD_WAIT`` seconds; the search is then loaded from the cache like any later process's."""
    from solvers.search import learning_core  # numba loads here: half a second, and most commands never need it

    if compiling.ready(__name__, learning_core.search_slice):
        return True
    since = time.perf_counter()
    with compiling.waiting(__name__, "clause learning"):
        while not compiling.cached(learning_core.search_slice):
            if time.perf_counter() - since > BUILD_WAIT:
                return False
            time.sleep(0.1)
            yield Progress({"seconds": time.perf_counter() - since})
    return True


def warm_up() -> None:
    """Compile the search now, on a small board: numba keeps the machine code in its cache, so
    later processes load it in a fraction of a second and no real run waits for the compiler
    (which takes about half a minute the first time). ``make setup``, the tests and the
    background build (``solvers.compiling``) call it."""
    puzzle = Puzzle(3, 3, (1, 0, 1), (1, 0, 1), ((1, 2),), {(0, 0): Hint.SUB})
    for every in (False, True):                  # each cell decided, then every variable from the best phase
        for _ in _Clauses(puzzle).run(2, every, every):
            pass


class _Clauses(Laid):
    """The placement model as clauses: two-literal clauses as implication lists, longer ones
    as lists, cardinality constraints as members and counts; then the same as flat arrays."""

    def __init__(self, puzzle: Puzzle) -> None:
        drain(self._lay(puzzle))

    def _lay(self, puzzle: Puzzle) -> Slices[None]:
        """The clauses, built in slices (``game.slices``) with the geometry's table they read."""
        self.puzzle = puzzle
        geo = self.geo = yield from prepared(puzzle, ("covering",))
        cells = self.cells = list(bits(geo.board))
        places: list[int] = []
        for p in bits(compatible(puzzle, geo)):
            if not len(places) % SLICE_PLACES:
                yield
            places.append(p)
        self.cell_var = {i: k for k, i in enumerate(cells)}
        self.n = n = len(cells) + len(places)
        yield
        self.bins: list[list[int]] = [[] for _ in range(2 * n)]     # literal -> literals it implies
        self.clauses: list[list[int]] = []
        self.cards: list[tuple[list[int], int]] = []                 # (members, how many true)
        self.units: list[int] = []
        self.ok = True
        yield from self._build(puzzle, places)

    def _build(self, puzzle: Puzzle, places: list[int]) -> Slices[None]:
        geo, cv = self.geo, self.cell_var
        first = len(self.cells)
        covering: dict[int, list[int]] = {i: [] for i in self.cells}
        for k, p in enumerate(places):
            if not k % SLICE_PLACES:
                yield
            x = 2 * (first + k)
            for i in bits(geo.p_cells[p]):
                covering[i].append(x)
                self._clause([x ^ 1, 2 * cv[i]])
            for j in bits(geo.p_halo[p]):
                if j in cv:
                    self._clause([x ^ 1, 2 * cv[j] + 1])
        for k, i in enumerate(self.cells):
            if not k % SLICE_CELLS:
                yield
            self._clause([2 * cv[i] + 1, *covering[i]])
            for j in bits(geo.diagonal(1 << i)):
                if j > i and j in cv:
                    self._clause([2 * cv[i] + 1, 2 * cv[j] + 1])
        for (r, c), hint in puzzle.hints.items():
            y = 2 * cv[geo.index(r, c)]
            self._clause([y + 1 if hint is Hint.WATER else y])
        for length, count in puzzle.fleet:
            self._card([2 * (first + k) for k, p in enumerate(places) if geo.p_length[p] == length], count)
        for line, tally in zip(geo.row_masks + geo.col_masks, puzzle.row_tallies + puzzle.col_tallies):
            if tally is not None:
                self._card([2 * cv[i] for i in bits(line)], tally)

    def _clause(self, lits: list[int]) -> None:
        if not lits:
            self.ok = False
        elif len(lits) == 1:
            self.units.append(lits[0])
        elif len(lits) == 2:
            a, b = lits                        # each literal's negation implies the other
            self.bins[a ^ 1].append(b)
            self.bins[b ^ 1].append(a)
        else:
            self.clauses.append(lits)

    def _card(self, members: list[int], count: int) -> None:
        self.cards.append((members, count))
        if not 0 <= count <= len(members):
            self.ok = False

    def _arrays(self) -> tuple:
        """The model as the compiled search reads it: implication lists and each literal's
        constraints as offsets into one array (CSR), the constraints' members likewise."""
        return drain(self._arrays_in_slices())

    def _arrays_in_slices(self) -> Slices[tuple]:
        n = self.n
        occ: list[list[int]] = [[] for _ in range(2 * n)]
        for index, (members, _) in enumerate(self.cards):
            yield
            for m in members:
                occ[m].append(index)          # a true member: counted in ``ntrue``
                occ[m ^ 1].append(index)      # a false one: in ``nfalse``
        bstart, bimp = yield from csr(self.bins)
        ostart, occ_flat = yield from csr(occ)
        cstart, cmem = yield from csr([members for members, _ in self.cards])
        ccount = np.array([count for _, count in self.cards], np.int32)
        csize = np.array([len(members) for members, _ in self.cards], np.int32)
        ntrue = np.zeros(len(self.cards), np.int32)
        nfalse = np.zeros(len(self.cards), np.int32)
        return bstart, bimp, ostart, occ_flat, cstart, cmem, ccount, csize, ntrue, nfalse

    # -- the run ---------------------------------------------------------------------------
    def run(self, limit: int, every_variable: bool, best_phase: bool, restart_unit: int = 0,
            max_conflicts: int | None = None) -> Iterator[Event]:
        from solvers.search.learning_core import Search  # here, not above: as in ``events``

        started = last_beat = time.perf_counter()
        arrays = yield from beating(self._arrays_in_slices())
        ncells = len(self.cells)
        search = Search(self.n, ncells, self.n if every_variable else ncells, best_phase, limit, self.clauses,
                        arrays, restart_unit)
        solutions: list[int] = []
        if self.ok and search.assume(self.units):
            while not search.done:
                if max_conflicts is not None and search.stats()["conflicts"] >= max_conflicts:
                    grids = tuple(self.geo.grid(ship) for ship in solutions)
                    yield Result(Status.GAVE_UP, grids[0] if grids else None,
                                 self._snapshot(search, started, solutions), grids,
                                 f"gave up after {max_conflicts:,} conflicts")
                    return
                found = search.run_slice(SLICE_CONFLICTS, SLICE_DECISIONS, SLICE_WORK)
                if found is not None:
                    ship = sum(1 << self.cells[v] for v in np.flatnonzero(found))
                    solutions.append(ship)
                    yield Found(self.geo.grid(ship))
                now = time.perf_counter()
                if now - last_beat > HEARTBEAT_SECONDS:
                    last_beat = now
                    yield Progress(self._snapshot(search, started, solutions))
        yield answer(self.puzzle, [self.geo.grid(ship) for ship in solutions],
                     self._snapshot(search, started, solutions))

    @staticmethod
    def _snapshot(search, started: float, solutions: list[int]) -> dict:
        return {"seconds": elapsed(started), **search.stats(), "solutions": len(solutions)}
