"""Backtracking with forward checking: the complete, fast solver (and the uniqueness checker).

Propagate to a fixpoint (``solvers.propagation.rules``), then branch on the most constrained
choice, propagating after every decision; a contradiction is a ``None`` state, and undoing is
free because states are immutable. Each choice is a set of mutually exclusive, exhaustive
branches, so no solution is found twice (solution counting relies on it):

- a ship segment not yet part of a placed ship: one branch per placement that can cover it;
- a length with one ship left: one branch per placement of it;
- an unknown cell: one branch per placement covering it, plus one where it is water.

The choice with the fewest branches per conflict weight wins (dom/wdeg: dead ends weigh the
rows and columns that failed; on small boards an unknown cell's branches count
``CELL_EXTRA_SMALL`` more, so that the weights choose among the cells). Failed-literal
probing ("shaving") of the alive placements runs at the root on small boards (the longest
ships, ``SHAVE_SHORTEST_SMALL`` cells or more), down to depth 1 on large or
dense ones, each probe starting from its placement's last successful probe when it has one
(its *witness*). Optional restarts with shuffled branch orders; once a first solution is
found, the bands of lines around it are searched first (large neighbourhood search), then the
rest of the tree, so the count stays exact. The same neighbourhoods mend sketches, boards that
break a few rules (:class:`Repair`).

Giant, open boards (more than ``GIANT_PLACEMENTS`` alive placements at the root) branch on
ship segments as above, then place the ships longest first (``solvers.search.giant`` says how
and why); no probing; restarts after Luby's sequence of node budgets, the order shaken a little.
Design history and measurements: ``docs/design/search.md``.

Statistics: ``nodes`` (decisions tried), ``backtracks`` (decisions that failed at once),
``propagated`` (cells set by deduction), ``max_depth``, ``probes`` and ``probe_failures``
(shaving), ``restarts``, ``bands`` (searched around the first solution, or freed to mend a
sketch; their nodes count as nodes), ``solutions``.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Generator, Iterable, Iterator, Sequence, TypedDict

from game import rules
from game.bitsets import bits as bit_indices
from game.bitsets import kept
from game.puzzle import Cell, Coord, Grid, Puzzle, cell_said, ship_name
from game.ships import Geometry, geometry_of, prepared, segments
from solvers.common import answer, beating, elapsed, luby
from solvers.events import Event, Found, Progress, Reason, Result, SetCell, Status, Stream
from solvers.propagation.model import Model, State, compile_puzzle
from solvers.propagation.rules import Log, meet, propagate, root_state

if TYPE_CHECKING:
    from solvers.search.giant import ShipOrder

HEARTBEAT_NODES = 256
HEARTBEAT_SECONDS = 0.02
# Shaving (where: the module docstring) costs about (alive placements)^2 propagations per node.
# Small boards (up to about 10x10, not dense) are probed by ``propagate.PROBE_RULES`` (without
# the coverage rule): once the conflict weights choose the cells, other probes save less than
# they cost. Larger and dense boards are probed by every rule (docs/design/search.md).
SHAVE_SMALL_UP_TO = 700                 # alive placements at the root of a small board
SHAVE_DEPTH_SMALL = 0
SHAVE_DEPTH_LARGE = 1
SHAVE_SHORTEST_SMALL = 4
CELL_EXTRA_SMALL = 12                   # added to an unknown cell's branches on small boards (``_branches``)
DENSE_SHARE = 0.3                       # share of ship cells above which a board counts as dense
RESTART_FIRST_BUDGET = 2000             # nodes + probes of the first run; doubled at each restart
NEAR_WIDTHS = (2, 3, 4, 5)              # the bands searched around the first solution, narrowest first
NEAR_AFTER_NODES = 100                  # nodes the first solution must have taken for the bands to be worth it
NEAR_MIN_WORK = 200                     # nodes the bands may always take
NEAR_KNOWN_WORK = 1000                  # nodes the bands may take around each solution given as known
# Giant boards (see the module docstring): above every public instance and every board up to
# 30x20 with the default fleet (docs/design/search.md, "Giant boards").
GIANT_PLACEMENTS = 8_000                # alive placements at the root (with tallies)
GIANT_RESTART_UNIT = 400                # nodes per term of Luby's sequence between restarts
GIANT_NOISE = 0.3                       # scores shaken by up to this share after a restart
REPAIR_WIDTHS = (1, 2, 3)               # lines freed on each side of those a sketch breaks, in turn
REPAIR_WORK = 2000                      # nodes a repair may take for each width
ROW_CELLS_KEPT = 4096                   # rows' unknown cells kept by their bits (``_Search.row_cells``)

# ship cells, water cells, placements to place, meaning, placements to kill
Branch = tuple[int, int, tuple[int, ...], str, int]


class Stats(TypedDict):
    """The search's statistics (the module docstring says what each counts)."""

    seconds: float
    nodes: int
    backtracks: int
    propagated: int
    max_depth: int
    probes: int
    probe_failures: int
    restarts: int
    bands: int
    solutions: int


def events(puzzle: Puzzle, *, trace: bool = True, limit: int = 1, shave_depth: int | None = None,
           restarts: bool = False, rng: random.Random | None = None,
           known: Sequence[Grid] = (), water_first: bool = False, max_work: int | None = None) -> Stream:
    """Find up to ``limit`` solutions.

    ``shave_depth``: probe placements at search nodes down to this depth (``None``: chosen
    from the board, see above; ``-1``: no probing at all). ``restarts``: rerun from the root
    with a doubled budget and branch orders shuffled by ``rng`` (default ``random.Random(0)``);
    the last run always completes. Off by default: it decided fewer of the dense boards.

    ``known``: solutions found elsewhere (by the genetic algorithm, say). Each is judged by
    ``game.rules`` (``ValueError`` if it breaks a rule) and counts as found; the bands around
    it are searched first, then the whole tree, so the answer stays exact.
    ``water_first``: when the choice is an unknown cell, try it as water before the ships
    that could cover it (the same tree in another order; ``solvers.engine.portfolio`` races orders).
    ``max_work``: the search gives up once its nodes and probes pass this many, with a
    ``gave_up`` result and the solutions met so far: a bound that, unlike a time limit, cuts
    the same search at the same node on any machine.
    """
    yield from beating(prepared(puzzle))
    yield from _Search(puzzle, trace, max(1, limit), shave_depth, restarts, rng or random.Random(0),
                       tuple(known), water_first, max_work).run()


class Repair:
    """Sketches mended by the search: boards that break a few rules, like the genetic
    algorithm's best layouts (a large neighbourhood search).

    ``mend(sketch)`` frees the lines the judge finds broken in the sketch (those whose tally is
    wrong, and those through ships that touch or do not fit the fleet), then ``REPAIR_WIDTHS``
    more lines on each side in turn; the rest of the board stays as the sketch has it, and the
    search looks for a solution in what is free, up to ``REPAIR_WORK`` nodes for each width, trying
    first at each choice what the sketch has there (a ship, or water). It returns the
    solution (accepted by the judge) or None. It never searches the whole board, so None
    proves nothing. The root (deductions and probing) is worked out once, on the first sketch.
    """

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self._search = _Search(puzzle, False, 1, None, False, random.Random(0))
        self._search.looked_near = True          # a first solution is all it looks for
        self._started = False

    def mend(self, sketch: Grid) -> Generator[Event, None, Grid | None]:
        search = self._search
        geo = search.model.geo
        if not self._started:
            self._started = True
            search.limit = len(geo.placements) + 2   # the root probing goes on past solutions it meets
            yield from search._start()
            search.limit = 1
        if search.root is None:
            return None
        if not search.solutions:                 # (the root probing may have met one already)
            rows, cols = broken_lines(self.puzzle, sketch)
            yield from search._mend(geo.masks(sketch)[0], rows, cols)
        if not search.solutions:
            return None
        solution = geo.grid(search.solutions[0])
        return solution if rules.is_solved(self.puzzle, solution) else None

    @property
    def stats(self) -> dict:
        return self._search._snapshot()


def dense_without_hints(puzzle: Puzzle, share: float = DENSE_SHARE) -> bool:
    """A board without hints whose ships fill more than ``share`` of it (like the MiniZinc
    instances): the search probes deeper there (``DENSE_SHARE``), and the portfolio leaves
    such boards to clause learning (``portfolio.learners_board``)."""
    return not puzzle.hints and puzzle.ship_cells > share * puzzle.rows * puzzle.cols


def broken_lines(puzzle: Puzzle, board: Grid) -> tuple[set[int], set[int]]:
    """The rows and the columns where the judge finds ``board`` breaks a rule: lines whose
    tally is wrong, and the lines through ships that touch, bend, or that the fleet has too
    many or too few of."""
    rows: set[int] = set()
    cols: set[int] = set()
    closed: dict[int, list[Coord]] | None = None     # length -> the cells of the closed ships
    for problem in rules.violations(puzzle, board):
        cells = problem.cells
        if problem.kind in ("row", "col", "fleet"):
            index = problem.index
            assert index is not None             # (the judge gives these their line, or the ships' length)
            if problem.kind == "row":
                rows.add(index)
                continue
            if problem.kind == "col":
                cols.add(index)
                continue
            if closed is None:
                geo = geometry_of(puzzle)
                ship = geo.masks(board)[0]
                closed = {}
                for seg in segments(geo, ship, geo.board & ~ship):
                    if seg.closed:
                        closed.setdefault(seg.length, []).extend(geo.coords(seg.cells))
            cells = tuple(closed.get(index, ()))
        for r, c in cells:
            rows.add(r)
            cols.add(c)
    return rows, cols


class _Search:
    def __init__(self, puzzle: Puzzle, trace: bool, limit: int, shave_depth: int | None,
                 restarts: bool, rng: random.Random, known: tuple[Grid, ...] = (),
                 water_first: bool = False, max_work: int | None = None) -> None:
        self.rng = rng
        self.shuffle = False
        self.cut = False
        self.work_limit: int | None = None
        self.max_work = max_work                 # nodes and probes after which the search gives up
        self.spent = False                       # it has
        self.puzzle = puzzle
        self.model: Model = compile_puzzle(puzzle)
        self.trace = trace
        self.limit = limit
        self.asked_depth = shave_depth           # the depth asked for (None: chosen at the root)
        self.shave_depth = -1                    # the depth probed down to, set at the root (``_start``)
        self.shave_shortest = 1                  # the shortest ship length shaving probes
        self.light_probes = False                # probes by ``propagate.PROBE_RULES`` (small boards)
        self.cell_extra = 1                      # added to an unknown cell's branches in the choice
        self.restarts = restarts
        self.solutions: list[int] = []
        self.seen: set[int] = set()
        self.announced = 0                       # solutions sent out as Found events
        self.stats: Stats = {"seconds": 0.0, "nodes": 0, "backtracks": 0, "propagated": 0, "max_depth": 0,
                             "probes": 0, "probe_failures": 0, "restarts": 0, "bands": 0, "solutions": 0}
        self.started = time.perf_counter()
        self.last_beat = self.started
        # What the trace has shown so far (the window's board), to emit undo and final moves.
        self.shown_ship = self.model.hint_ship
        self.shown_water = self.model.hint_water
        # Conflict weights (dom/wdeg): how often each row and column took part in a dead end.
        self.row_weight = [1] * self.model.geo.rows
        self.col_weight = [1] * self.model.geo.cols
        self.root: State | None = None           # the search's start, after the root probing
        self.witnesses: dict[int, dict[int, tuple[State, int]]] = {}   # per depth: the last shaving's witnesses
        self.looked_near = False                 # whether the bands around the first solution were searched
        self.known = known                       # solutions given by the caller
        self.water_first = water_first           # an unknown cell's water branch before its ships
        self.guide: int | None = None            # the ship cells of a sketch being mended
        self.giant = False                       # ships placed longest first (see GIANT_PLACEMENTS)
        self.ship_order: ShipOrder | None = None   # its placements' arrays, built on first use
        # For the choice of a branch: a row's unknown cells (their columns) by the row's bits,
        # and each row's cells' covering sets.
        self.row_cells: dict[int, tuple[int, ...]] = {}
        geo = self.model.geo
        self.cover_rows = tuple(geo.covering[r * geo.stride:(r + 1) * geo.stride] for r in range(geo.rows))

    # -- the run ---------------------------------------------------------------------------
    def run(self) -> Iterator[Event]:
        state = yield from self._start()
        if state is not None and self.known:
            yield from self._from_known()
        if state is not None and len(self.solutions) < self.limit:
            # Restarts with a growing budget and shuffled branch orders cut the heavy tails of
            # puzzles with many solutions; the last run always finishes, so the count is exact.
            budget = RESTART_FIRST_BUDGET
            root_known = state.ship | state.water
            while True:
                if self.giant:              # Luby's sequence: short dives, now and then a long one
                    budget = GIANT_RESTART_UNIT * luby(self.stats["restarts"] + 1)
                self.work_limit = (self.stats["nodes"] + self.stats["probes"] + budget
                                   if self.restarts or self.giant else None)
                self.cut = False
                yield from self._search(state, 0)
                if not self.cut or self.spent or len(self.solutions) >= self.limit:
                    break
                self.stats["restarts"] += 1
                self.shuffle = True
                budget *= 2
                if self.trace:
                    yield from self._show((self.shown_ship | self.shown_water) & ~root_known, Cell.UNKNOWN,
                                          Reason.BACKTRACK, "restart", 0)
        if self.spent and len(self.solutions) < self.limit:
            grids = tuple(self.model.geo.grid(ship) for ship in self.solutions)
            yield Result(Status.GAVE_UP, grids[0] if grids else None, self._snapshot(), grids,
                         f"gave up after {self.max_work:,} nodes and probes")
            return
        yield from self._finish()

    def _start(self) -> Generator[Event, None, State | None]:
        """The root: the deductions from the givens, then the root probing. Sets and returns
        ``self.root`` (None when the puzzle fails there)."""
        log: Log | None = [] if self.trace else None
        state = root_state(self.model, log)
        if state is not None:                    # the root's deductions count as propagated too
            hints = self.model.hint_ship | self.model.hint_water
            self.stats["propagated"] += ((state.ship | state.water) & ~hints).bit_count()
        yield from self._show_log(log, 0)
        if state is None:
            return None
        self.giant = state.alive.bit_count() > GIANT_PLACEMENTS and bool(self.model.lines)
        few = state.alive.bit_count() <= SHAVE_SMALL_UP_TO and not dense_without_hints(self.puzzle)
        if few:
            self.cell_extra = CELL_EXTRA_SMALL
        if self.asked_depth is not None:
            self.shave_depth = self.asked_depth
        elif self.giant:
            self.shave_depth = -1                    # a probe per placement per node: far too dear there
        else:
            self.shave_depth = SHAVE_DEPTH_SMALL if few else SHAVE_DEPTH_LARGE
            self.shave_shortest = SHAVE_SHORTEST_SMALL if few else 1
            self.light_probes = few
        if self.shave_depth >= 0:
            state = yield from self._shave(state, 0)
        self.root = state
        return state

    def _search(self, state: State, depth: int) -> Iterator[Event]:
        stats = self.stats
        if depth > stats["max_depth"]:
            stats["max_depth"] = depth
        if state.done:
            self._record(state.ship)
            yield from self._announce()
            if len(self.solutions) < self.limit and not self.looked_near and stats["nodes"] >= NEAR_AFTER_NODES:
                yield from self._near(state.ship)
            return
        known = state.ship | state.water
        if self.giant and self.guide is None:
            branches: Iterable[Branch] = self._giant_branches(state)
        else:
            branches = self._branches(state)
            if self.shuffle:
                self.rng.shuffle(branches)
            if self.guide is not None:
                branches.sort(key=self._off_guide)
        for ship, water, places, meaning, kill in branches:
            if self.work_limit is not None and stats["nodes"] + stats["probes"] > self.work_limit:
                self.cut = True
                return
            if self.max_work is not None and stats["nodes"] + stats["probes"] > self.max_work:
                self.cut = self.spent = True
                return
            stats["nodes"] += 1
            now = time.perf_counter()
            if stats["nodes"] % HEARTBEAT_NODES == 0 or now - self.last_beat > HEARTBEAT_SECONDS:
                self.last_beat = now
                yield Progress(self._snapshot())
            log: Log | None = None
            if self.trace:
                log = []
                if ship and not ship & ~self.shown_ship and not water & ~self.shown_water:
                    # A guess that sets no cell the trace does not show yet (a segment taken as
                    # one ship of its places) is still a decision in force: its first cell says
                    # so, so that the trace's depth counts every guess (the next is one deeper).
                    r, c = self.model.geo.coord((ship & -ship).bit_length() - 1)
                    yield SetCell(r, c, Cell.SHIP, Reason.GUESS, meaning, depth + 1, self._counts())
                yield from self._show(ship, Cell.SHIP, Reason.GUESS, meaning, depth + 1)
                yield from self._show(water, Cell.WATER, Reason.GUESS, meaning, depth + 1)
            blame: list = []
            child = propagate(self.model, state, ship=ship, water=water, places=places, kill=kill, log=log,
                              blame=blame)
            if log:
                yield from self._show_log(log, depth + 1)
            if child is not None and depth + 1 <= self.shave_depth:
                child = yield from self._shave(child, depth + 1, self.witnesses.get(depth, {}))
            if child is None:
                stats["backtracks"] += 1
                self._blame(blame, ship | water)
            else:
                stats["propagated"] += ((child.ship | child.water) & ~known & ~(ship | water)).bit_count()
                yield from self._search(child, depth + 1)
                if len(self.solutions) >= self.limit or self.cut:
                    return
            if self.trace:
                yield from self._show((self.shown_ship | self.shown_water) & ~known, Cell.UNKNOWN,
                                      Reason.BACKTRACK, "undo", depth)

    def _from_known(self) -> Iterator[Event]:
        """Count the caller's solutions (judged first) and search the bands around them."""
        geo = self.model.geo
        for grid in self.known:
            problems = rules.violations(self.puzzle, grid)
            if problems:
                raise ValueError(f"a known solution breaks the rules: {problems[0].message}")
            self._record(geo.masks(grid)[0])
        yield from self._announce()
        for solution in list(self.solutions):
            if len(self.solutions) >= self.limit:
                break
            yield from self._near(solution, NEAR_KNOWN_WORK)

    def _near(self, solution: int, work: int | None = None) -> Iterator[Event]:
        """Search bands of rows and of columns with the rest of the board fixed to ``solution``
        (see the module docstring), quietly, until ``limit`` solutions or ``work``
        more nodes (by default as much work as the first solution took, ``NEAR_MIN_WORK`` at
        least)."""
        self.looked_near = True
        stats = self.stats
        root = self.root
        assert root is not None
        if work is None:
            work = max(NEAR_MIN_WORK, stats["nodes"] + stats["probes"])
        end = stats["nodes"] + stats["probes"] + work          # in the units of ``work_limit``
        unknown = root.unknown(self.model.geo)
        for band in self._bands():
            if not band & unknown:
                continue                         # settled at the root: nothing to change there
            if stats["nodes"] + stats["probes"] >= end or len(self.solutions) >= self.limit:
                break
            stats["bands"] += 1
            yield from self._within(solution, band, end)

    def _within(self, board: int, free: int, end: int) -> Iterator[Event]:
        """Search the cells of ``free`` with the rest of the board fixed to ``board`` (its ship
        cells), quietly, until ``limit`` solutions or ``end`` (nodes and probes, the units
        of ``work_limit``)."""
        assert self.root is not None
        saved = self.trace, self.shave_depth, self.work_limit, self.cut
        self.trace, self.shave_depth = False, -1
        everything = self.model.geo.board
        start = propagate(self.model, self.root, ship=board & ~free, water=everything & ~board & ~free)
        if start is not None:
            self.work_limit, self.cut = end, False
            yield from self._search(start, 0)
        self.trace, self.shave_depth, self.work_limit, self.cut = saved

    def _mend(self, sketch: int, rows: set[int], cols: set[int]) -> Iterator[Event]:
        """The search of :meth:`Repair.mend` (see :class:`Repair`) around the lines ``rows`` and
        ``cols`` that ``sketch`` breaks."""
        geo = self.model.geo
        self.guide = sketch
        try:
            for width in REPAIR_WIDTHS:
                free = 0
                for lines, masks in ((rows, geo.row_masks), (cols, geo.col_masks)):
                    for index, mask in enumerate(masks):
                        if any(abs(index - line) <= width for line in lines):
                            free |= mask
                if free == geo.board:
                    return                       # the whole board: that is the search itself
                self.stats["bands"] += 1
                yield from self._within(sketch, free, self.stats["nodes"] + self.stats["probes"] + REPAIR_WORK)
                if self.solutions:
                    return
        finally:
            self.guide = None

    def _off_guide(self, branch: Branch) -> bool:
        """False for a branch the sketch being mended agrees with: a ship where the sketch has
        one, or water where it has water."""
        ship, water, guide = branch[0], branch[1], self.guide or 0
        return not ((ship and not ship & ~guide) or (water and not water & guide))

    def _bands(self) -> Iterator[int]:
        """Bands of ``NEAR_WIDTHS`` neighbouring rows, then columns, narrowest first."""
        geo = self.model.geo
        for width in NEAR_WIDTHS:
            for masks in (geo.row_masks, geo.col_masks):
                for first in range(len(masks) - width + 1):
                    yield sum(masks[first:first + width])

    def _record(self, solution: int) -> None:
        if solution not in self.seen:                # probes and restarts may meet a solution again
            self.seen.add(solution)
            self.solutions.append(solution)

    def _announce(self) -> Iterator[Event]:
        """A Found event for each solution recorded since the last call."""
        while self.announced < len(self.solutions):
            yield Found(self.model.geo.grid(self.solutions[self.announced]))
            self.announced += 1

    def _blame(self, blame: list, decision: int) -> None:
        """Weigh a dead end: the lines of the failed decision, and the constraint that failed."""
        self._bump(decision)
        if not blame:
            return
        kind, value = blame[0]
        if kind == "row":
            self.row_weight[value] += 1
        elif kind == "col":
            self.col_weight[value] += 1
        elif kind == "cells":
            self._bump(value)

    def _bump(self, mask: int) -> None:
        """One more conflict for every row and column that ``mask`` touches."""
        cells = self.model.geo.coords(mask)
        for r in {r for r, _ in cells}:
            self.row_weight[r] += 1
        for c in {c for _, c in cells}:
            self.col_weight[c] += 1

    def _branches(self, state: State) -> list[Branch]:
        """The most constrained choice's branches (see the module docstring): fewest branches
        divided by the conflict weight of the choice's row and column, an unknown cell's counted
        ``cell_extra`` more (its water branch, and on small boards more)."""
        geo = self.model.geo
        alive = state.alive
        stride = geo.stride
        row_weight, col_weight = self.row_weight, self.col_weight
        best: int | None = None           # placement set of the best choice so far
        best_score = float("inf")
        best_cell = 0
        for segment, cover in self._unplaced(state):
            size = cover.bit_count()
            r, c = divmod((segment & -segment).bit_length() - 1, stride)
            score = size / (row_weight[r] + col_weight[c]) if size > 1 else -1.0
            if score < best_score:
                best, best_score = cover, score
        # The last ship of a length concerns every line: weighed by the average line.
        average = sum(row_weight) / len(row_weight) + sum(col_weight) / len(col_weight)
        for li, left in enumerate(state.counts):
            if left == 1:
                options = alive & geo.length_sets[li]
                score = options.bit_count() / average
                if score < best_score:
                    best, best_score = options, score
        # The unknown cells row by row, in the order of their bits (the first best cell wins
        # ties): the row's cells read from a table by its bits, a small int, and the row's
        # weight and covering sets read once per row.
        unknown = state.unknown(geo)
        line = geo.row_masks[0] if geo.row_masks else 0
        row_cells, cover_rows = self.row_cells, self.cover_rows
        extra = self.cell_extra
        best_at: tuple[int, int] | None = None
        base = 0
        for r, weight in enumerate(row_weight):
            row = (unknown >> base) & line
            base += stride
            if not row:
                continue
            cols = row_cells.get(row)
            if cols is None:
                cols = kept(row_cells, row, tuple(bit_indices(row)), ROW_CELLS_KEPT)
            covers = cover_rows[r]
            for c in cols:
                score = ((alive & covers[c]).bit_count() + extra) / (weight + col_weight[c])
                if score < best_score:
                    best_score, best_at = score, (r, c)
        if best_at is not None:
            r, c = best_at
            best, best_cell = alive & cover_rows[r][c], 1 << (r * stride + c)
        branches = [self._placing(p) for p in bit_indices(best or 0)]
        if best_cell:
            water = (0, best_cell, (), "try water here", 0)
            if self.water_first:
                branches.insert(0, water)
            else:
                branches.append(water)
        return branches

    def _giant_branches(self, state: State) -> Iterable[Branch]:
        """Giant boards' branches (see the module docstring): an unplaced segment's covers when
        there is one (fewest first), else the longest length's placements (``_ruling_out``)."""
        best = min((cover for _, cover in self._unplaced(state)), key=int.bit_count, default=None)
        if best is not None:
            return [self._placing(p) for p in bit_indices(best)]
        li = next((li for li, left in enumerate(state.counts) if left), None)
        if li is None:
            return []
        if self.ship_order is None:
            from solvers.search.giant import ShipOrder  # numpy: only the giants pay for its import
            self.ship_order = ShipOrder(self.model)
        order = self.ship_order.order(state, li, GIANT_NOISE if self.shuffle else 0.0, self.rng)
        return self._ruling_out(order)

    def _ruling_out(self, order: list[int]) -> Iterator[Branch]:
        """One branch per placement of ``order``: place it, and kill every one before it (built
        as they are tried: a list of them all would hold thousands of placement sets)."""
        before = 0
        for p in order:
            yield self._placing(p, before)
            before |= 1 << p

    def _unplaced(self, state: State) -> Iterator[tuple[int, int]]:
        """Each ship segment not yet part of a placed ship, with the alive placements covering it."""
        geo = self.model.geo
        for segment in _pieces(geo, state.ship & ~state.placed):
            yield segment, meet(geo.covering, segment, state.alive)

    def _placing(self, p: int, kill: int = 0) -> Branch:
        """The branch that places ``p`` (and kills ``kill``); its meaning is for the trace alone."""
        pl = self.model.geo.placements[p]
        return pl.cells, 0, (p,), f"try a {ship_name(pl.length)} here" if self.trace else "", kill

    def _shave(self, state: State, depth: int, inherited: dict[int, tuple[State, int]] | None = None
               ) -> Generator[Event, None, State | None]:
        """Probe every alive placement (of ``shave_shortest`` cells or more); one whose placing
        fails is dead (failed-literal probing).

        Goes round the placements until a full round finds nothing; returns the new state,
        or None if the node itself fails.
        """
        stats = self.stats
        geo = self.model.geo
        covering, length_sets, length_index = geo.covering, geo.length_sets, geo.length_index
        probed = sum(placements for length, placements in zip(geo.lengths, length_sets)
                     if length >= self.shave_shortest)
        position = 0                             # the round goes on from this placement, cyclically
        # A successful probe's result is a witness for its placement and the ships placed
        # along with it. Once the state has moved on, probing one of them again is the witness
        # plus what the state has learnt since (the same fixpoint, propagation being
        # monotone), usually a much shorter propagation than the probe from the state.
        witness: dict[int, tuple[State, int]] = dict(inherited or {})
        supported = _still_held(witness, state)
        while True:
            # The next alive placement not known to survive, from ``position`` on, cyclically;
            # none left means a full round without a change.
            pending = state.alive & probed & ~supported
            if not pending:
                break
            later = pending >> position << position
            low = (later or pending) & -(later or pending)
            p = low.bit_length() - 1
            position = p + 1
            stats["probes"] += 1
            if stats["probes"] % 16 == 0:
                now = time.perf_counter()
                if now - self.last_beat > HEARTBEAT_SECONDS:
                    self.last_beat = now
                    yield Progress(self._snapshot())
            old = witness.get(p)
            if old is None:
                trial = propagate(self.model, state, ship=geo.p_cells[p], places=(p,), probe=self.light_probes)
            else:
                trial = self._catch_up(old[0], state)
            if trial is not None and trial.done:
                self._record(trial.ship)                 # a probe that completes the board
                yield from self._announce()
                if len(self.solutions) >= self.limit:
                    return trial
            if trial is not None:
                # Every ship placed along with this one would survive its own probe too
                # (propagation is monotone): skip them until the state changes. Placed ships
                # never touch, so each new placed segment is one ship: the placement of its length over it.
                held = 1 << p
                for ship in _pieces(geo, trial.placed & ~state.placed):
                    held |= meet(covering, ship, state.alive & length_sets[length_index[ship.bit_count()]])
                supported |= held
                witness[p] = trial, held
                continue
            witness.pop(p, None)
            stats["probe_failures"] += 1
            log: Log | None = [] if self.trace else None
            before = state.ship | state.water
            after = propagate(self.model, state, kill=1 << p, log=log)
            if log:
                pl = geo.placements[p]
                where = cell_said(pl.row, pl.col)
                log = [(mask, value, f"{detail} (a {ship_name(pl.length)} at {where} leads to a contradiction)")
                       for mask, value, detail in log]
            yield from self._show_log(log, depth)
            if after is None:
                return None
            state = after
            stats["propagated"] += ((state.ship | state.water) & ~before).bit_count()
            supported = _still_held(witness, state)
        self.witnesses[depth] = witness
        return state

    def _catch_up(self, trial: State, state: State) -> State | None:
        """A witness (an earlier probe's fixpoint) with what ``state`` has learnt since it was
        found: the probe of its placement from ``state``, without placing it again."""
        geo = self.model.geo
        places = 0
        for ship in _pieces(geo, state.placed & ~trial.placed):   # ships the state has placed since: place them too
            li = geo.length_index.get(ship.bit_count())
            one = meet(geo.covering, ship, geo.length_sets[li]) if li is not None else 0
            if not one or one & (one - 1):
                return None                      # part of a ship the witness placed otherwise: they clash
            places |= one
        return propagate(self.model, trial, ship=state.ship & ~trial.ship, water=state.water & ~trial.water,
                         kill=trial.alive & ~state.alive & ~places, places=bit_indices(places),
                         probe=self.light_probes)

    # -- the end -----------------------------------------------------------------------------
    def _finish(self) -> Iterator[Event]:
        stats = self._snapshot()
        if self.trace and self.solutions:
            first = self.solutions[0]
            board = self.model.geo.board
            yield from self._show(first & ~self.shown_ship, Cell.SHIP, Reason.FILL, "the first solution", 0)
            yield from self._show(board & ~first & ~self.shown_water, Cell.WATER, Reason.FILL, "the first solution", 0)
        yield answer(self.puzzle, [self.model.geo.grid(ship) for ship in self.solutions], stats)

    # -- trace helpers -----------------------------------------------------------------------
    def _snapshot(self) -> dict:
        self.stats["seconds"] = elapsed(self.started)
        self.stats["solutions"] = len(self.solutions)
        return dict(self.stats)

    def _counts(self) -> dict[str, object]:
        """The counts a move carries: a watcher who sees one move at a time sees them move
        (the heartbeat says them only every ``HEARTBEAT_NODES`` or ``HEARTBEAT_SECONDS``)."""
        stats = self.stats
        return {"nodes": stats["nodes"], "backtracks": stats["backtracks"], "propagated": stats["propagated"]}

    def _show_log(self, log: Log | None, depth: int) -> Iterator[Event]:
        for mask, value, detail in log or ():
            yield from self._show(mask, value, Reason.FORCED, detail, depth)

    def _show(self, mask: int, value: Cell, reason: Reason, detail: str, depth: int) -> Iterator[Event]:
        """SetCell events for the cells of ``mask`` that the trace does not show as ``value`` yet,
        each with the counts so far."""
        if value == Cell.SHIP:
            mask &= ~self.shown_ship
        elif value == Cell.WATER:
            mask &= ~self.shown_water
        if not mask:
            return
        geo = self.model.geo
        counts = self._counts()
        for i in bit_indices(mask):
            r, c = geo.coord(i)
            yield SetCell(r, c, value, reason, detail, depth, counts)
        self.shown_ship = self.shown_ship | mask if value == Cell.SHIP else self.shown_ship & ~mask
        self.shown_water = self.shown_water | mask if value == Cell.WATER else self.shown_water & ~mask


def _pieces(geo: Geometry, mask: int) -> Iterator[int]:
    """The connected groups of cells of ``mask``, one by one (ships, or segments of ships)."""
    while mask:
        piece = geo.component(mask & -mask, mask)
        mask &= ~piece
        yield piece


def _still_held(witnesses: dict[int, tuple[State, int]], state: State) -> int:
    """The placements known to survive their probe from ``state``: those of every witness that
    knows all ``state`` knows (its probe from ``state`` reaches the same fixpoint)."""
    supported = 0
    for w, held in witnesses.values():
        if not (w.alive & ~state.alive or state.ship & ~w.ship or state.water & ~w.water
                or state.placed & ~w.placed):
            supported |= held
    return supported
