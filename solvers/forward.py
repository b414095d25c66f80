"""Backtracking with forward checking: the complete, fast solver (and the uniqueness checker).

Propagate to a fixpoint (``solvers.propagate``), then branch on the most constrained choice,
propagating after every decision; a contradiction is a ``None`` state, and undoing is free
because states are immutable. The choices, each a set of mutually exclusive, exhaustive
branches, so that no solution is ever found twice (solution counting relies on it):

- a ship segment not yet part of a placed ship: one branch per placement that can cover it;
- a length with one ship left: one branch per placement of it;
- an unknown cell: one branch per placement covering it, plus one where it is water.

The choice with the fewest branches wins. Before searching, failed-literal probing
("shaving") tries each unknown cell as ship and as water; a side that fails fixes the other.

``events(puzzle, trace=..., limit=n)`` finds up to ``limit`` solutions; ``limit=2`` proves
uniqueness. Statistics: ``nodes`` (decisions tried), ``backtracks`` (decisions that failed
at once: the dead ends of the tree), ``propagated`` (cells set by deduction after a
decision), ``max_depth``, ``probes`` and ``probe_failures`` (shaving), ``solutions``.
"""

from __future__ import annotations

import os
import random
import time
from typing import Iterator

from game import rules
from game.puzzle import Cell, Grid, Puzzle, ship_name
from solvers.board import Model, State, bit_indices, compile_puzzle
from solvers.common import run_to_result, verified
from solvers.events import Event, Progress, Reason, Result, SetCell, Status
from solvers.propagate import Log, propagate, root_state

HEURISTIC = int(os.environ.get("FWH", "1"))
SHAVE_DEPTH = int(os.environ.get("FWD", "0"))
HEARTBEAT_NODES = 256
HEARTBEAT_SECONDS = 0.02

Branch = tuple[int, int, tuple[int, ...], str, int]   # ship cells, water cells, placements, what it means


def events(puzzle: Puzzle, *, trace: bool = True, limit: int = 1, shave: bool = True,
           rng: random.Random | None = None) -> Iterator[Event]:
    """Find up to ``limit`` solutions. ``rng`` is accepted for the common protocol (unused: deterministic)."""
    yield from _Search(puzzle, trace, max(1, limit), shave).run()


def count_solutions(puzzle: Puzzle, limit: int = 2) -> int:
    """How many solutions, counting up to ``limit`` (quiet)."""
    result = run_to_result(events(puzzle, trace=False, limit=limit))
    if result.status is Status.SOLVED:
        return len(result.solutions)
    if result.status is Status.NO_SOLUTION:
        return 0
    raise RuntimeError(f"forward solver failed: {result.message}")


class _Search:
    def __init__(self, puzzle: Puzzle, trace: bool, limit: int, shave: bool) -> None:
        self.puzzle = puzzle
        self.model: Model = compile_puzzle(puzzle)
        self.trace = trace
        self.limit = limit
        self.shave = shave
        self.solutions: list[int] = []
        self.stats = {"seconds": 0.0, "nodes": 0, "backtracks": 0, "propagated": 0, "max_depth": 0,
                      "probes": 0, "probe_failures": 0, "solutions": 0}
        self.started = time.perf_counter()
        self.last_beat = self.started
        # What the trace has shown so far (the window's board), to emit undo and final moves.
        self.shown_ship = self.model.hint_ship
        self.shown_water = self.model.hint_water

    # -- the run ---------------------------------------------------------------------------
    def run(self) -> Iterator[Event]:
        log: Log | None = [] if self.trace else None
        state = root_state(self.model, log)
        yield from self._show_log(log, 0)
        if state is not None and self.shave:
            state = yield from self._shave(state)
        if state is not None:
            yield from self._search(state, 0)
        yield from self._finish()

    def _search(self, state: State, depth: int) -> Iterator[Event]:
        stats = self.stats
        if depth > stats["max_depth"]:
            stats["max_depth"] = depth
        if state.done:
            self.solutions.append(state.ship)
            return
        known = state.ship | state.water
        for ship, water, places, meaning, kill in self._branches(state):
            stats["nodes"] += 1
            now = time.perf_counter()
            if stats["nodes"] % HEARTBEAT_NODES == 0 or now - self.last_beat > HEARTBEAT_SECONDS:
                self.last_beat = now
                yield Progress(self._snapshot())
            log: Log | None = None
            if self.trace:
                log = []
                yield from self._show(ship, Cell.SHIP, Reason.GUESS, meaning, depth + 1)
                yield from self._show(water, Cell.WATER, Reason.GUESS, meaning, depth + 1)
            child = propagate(self.model, state, ship=ship, water=water, places=places, kill=kill, log=log)
            yield from self._show_log(log, depth + 1)
            if child is not None and depth + 1 <= SHAVE_DEPTH:
                child = yield from self._shave(child)
            if child is None:
                stats["backtracks"] += 1
            else:
                stats["propagated"] += ((child.ship | child.water) & ~known & ~(ship | water)).bit_count()
                yield from self._search(child, depth + 1)
                if len(self.solutions) >= self.limit:
                    return
            if self.trace:
                yield from self._show((self.shown_ship | self.shown_water) & ~known, Cell.UNKNOWN,
                                      Reason.BACKTRACK, "undo", depth)

    def _branches(self, state: State) -> list[Branch]:
        """The most constrained choice's branches (see the module docstring)."""
        geo = self.model.geo
        placements = geo.placements
        alive = state.alive
        best: int | None = None           # placement set of the best choice so far
        best_size = 1 << 30
        best_cell = 0
        unplaced = state.ship & ~state.placed
        while unplaced:
            segment = geo.component(unplaced & -unplaced, unplaced)
            unplaced &= ~segment
            cover = alive
            for i in bit_indices(segment):
                cover &= geo.covering[i]
            size = cover.bit_count()
            if size < best_size:
                best, best_size = cover, size
        for li, left in enumerate(state.counts):
            if left == 1:
                options = alive & geo.length_sets[li]
                size = options.bit_count()
                if size < best_size:
                    best, best_size = options, size
        if best_size > 2 and (HEURISTIC in (1, 3, 4) or best is None):
            for i in bit_indices(state.unknown(geo)):
                size = (alive & geo.covering[i]).bit_count() + 1
                if size < best_size:
                    best, best_size, best_cell = alive & geo.covering[i], size, 1 << i
        if HEURISTIC in (3, 4) and (best is None or best_size > 3):
            if HEURISTIC == 3:
                known_ship = state.ship
                unknown = state.unknown(geo)
                best_line, best_ratio = 0, -1.0
                for is_row, index, mask, tally, _ in self.model.lines:
                    free = (unknown & mask).bit_count()
                    if free:
                        ratio = (tally - (known_ship & mask).bit_count()) / free
                        if ratio > best_ratio:
                            best_line, best_ratio = unknown & mask, ratio
                if best_line:
                    cell = max(bit_indices(best_line), key=lambda i: (alive & geo.covering[i]).bit_count())
                    return [(1 << cell, 0, (), "try ship here", 0), (0, 1 << cell, (), "try water here", 0)]
            else:
                for li, left in enumerate(state.counts):
                    if left:
                        options = list(bit_indices(alive & geo.length_sets[li]))
                        out = []
                        lower = 0
                        for p in options:
                            out.append((placements[p].cells, 0, (p,), "try", lower))
                            lower |= 1 << p
                        return out
        branches: list[Branch] = []
        for p in bit_indices(best or 0):
            pl = placements[p]
            branches.append((pl.cells, 0, (p,), f"try a {ship_name(pl.length)} here", 0))
        if best_cell:
            branches.append((0, best_cell, (), "try water here", 0))
        return branches

    def _shave(self, state: State) -> Iterator[Event]:
        if os.environ.get("FWP"):
            return (yield from self._shave_placements(state))
        return (yield from self._shave_cells(state))

    def _shave_placements(self, state: State) -> Iterator[Event]:
        stats = self.stats
        order = list(bit_indices(state.alive))
        if not order:
            return state
        position = 0
        since_change = 0
        while since_change < len(order):
            p = order[position]
            position = (position + 1) % len(order)
            since_change += 1
            if not (state.alive >> p) & 1:
                continue
            stats["probes"] += 1
            pl = self.model.geo.placements[p]
            trial = propagate(self.model, state, ship=pl.cells, places=(p,))
            if trial is not None:
                continue
            stats["probe_failures"] += 1
            state = propagate(self.model, state, kill=1 << p)
            if state is None:
                return None
            since_change = 0
        return state
        yield

    def _shave_cells(self, state: State) -> Iterator[Event]:
        """Failed-literal probing at the root: a cell whose one value fails takes the other."""
        stats = self.stats
        changed = True
        while changed:
            changed = False
            for i in list(bit_indices(state.unknown(self.model.geo))):
                cell = 1 << i
                if (state.ship | state.water) & cell:
                    continue
                for value in (Cell.SHIP, Cell.WATER):
                    stats["probes"] += 1
                    trial = propagate(self.model, state, **{"ship" if value == Cell.SHIP else "water": cell})
                    now = time.perf_counter()
                    if now - self.last_beat > HEARTBEAT_SECONDS:
                        self.last_beat = now
                        yield Progress(self._snapshot())
                    if trial is not None:
                        continue
                    stats["probe_failures"] += 1
                    log: Log | None = [] if self.trace else None
                    other = "water" if value == Cell.SHIP else "ship"
                    if log is not None:
                        log.append((cell, Cell.WATER if value == Cell.SHIP else Cell.SHIP,
                                    f"{value.name.lower()} here leads to a contradiction"))
                    before = state.ship | state.water
                    state = propagate(self.model, state, log=log, **{other: cell})
                    yield from self._show_log(log, 0)
                    if state is None:
                        return None
                    stats["propagated"] += ((state.ship | state.water) & ~before).bit_count()
                    changed = True
                    break
        return state

    # -- the end -----------------------------------------------------------------------------
    def _finish(self) -> Iterator[Event]:
        stats = self._snapshot()
        if not self.solutions:
            yield Result(Status.NO_SOLUTION, None, stats, (), "no solution")
            return
        grids: tuple[Grid, ...] = tuple(self.model.grid(ship) for ship in self.solutions)
        if self.trace:
            first = self.solutions[0]
            board = self.model.geo.board
            yield from self._show(first & ~self.shown_ship, Cell.SHIP, Reason.FILL, "the first solution", 0)
            yield from self._show(board & ~first & ~self.shown_water, Cell.WATER, Reason.FILL, "the first solution", 0)
        for extra in grids[1:]:
            problems = rules.violations(self.puzzle, extra)
            if problems:
                yield Result(Status.ERROR, extra, stats, grids, "solver produced an invalid board: "
                             + problems[0].message)
                return
        yield verified(self.puzzle, grids[0], stats, grids)

    # -- trace helpers -----------------------------------------------------------------------
    def _snapshot(self) -> dict:
        self.stats["seconds"] = round(time.perf_counter() - self.started, 6)
        self.stats["solutions"] = len(self.solutions)
        return dict(self.stats)

    def _show_log(self, log: Log | None, depth: int) -> Iterator[Event]:
        for mask, value, detail in log or ():
            yield from self._show(mask, value, Reason.FORCED, detail, depth)

    def _show(self, mask: int, value: Cell, reason: Reason, detail: str, depth: int) -> Iterator[Event]:
        """SetCell events for the cells of ``mask`` that the trace does not show as ``value`` yet."""
        if value == Cell.SHIP:
            mask &= ~self.shown_ship
        elif value == Cell.WATER:
            mask &= ~self.shown_water
        if not mask:
            return
        geo = self.model.geo
        for i in bit_indices(mask):
            r, c = geo.coord(i)
            yield SetCell(r, c, value, reason, detail, depth)
        if value == Cell.SHIP:
            self.shown_ship |= mask
            self.shown_water &= ~mask
        elif value == Cell.WATER:
            self.shown_water |= mask
            self.shown_ship &= ~mask
        else:
            self.shown_ship &= ~mask
            self.shown_water &= ~mask
