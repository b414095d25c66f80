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

Statistics: ``conflicts``, ``decisions``, ``learnt`` (clauses kept now), ``restarts``,
``solutions``.
"""

from __future__ import annotations

import heapq
import random
import time
from typing import Iterator

from game.puzzle import Grid, Hint, Puzzle
from game.ships import bits, compatible, geometry_of
from solvers.common import verified
from solvers.events import Event, Found, Progress, Result, Status

HEARTBEAT_SECONDS = 0.02
RESTART_UNIT = 100                  # conflicts per unit of the Luby sequence
REDUCE_FIRST = 2000                 # conflicts before the learnt clauses are first halved
DECAY = 0.95                        # activity decay per conflict (VSIDS)

# A literal is 2 * variable for "true" and 2 * variable + 1 for "false"; ``lit ^ 1`` negates.
# A reason is None (a decision or a fact of the root), an int (the literal that implied it
# through a two-literal clause), a list (a clause, the literal among them) or a tuple (the
# false literals of a cardinality constraint's clause: the members already true when it had
# all it takes, or those already false when it needed all the others).


def events(puzzle: Puzzle, *, trace: bool = False, limit: int = 1, rng: random.Random | None = None,
           every_variable: bool = False, best_phase: bool = False) -> Iterator[Event]:
    """Find up to ``limit`` solutions (exact: fewer means there are no more). ``trace`` and
    ``rng`` are accepted for the common protocol: the run shows no moves and is deterministic.
    ``every_variable``: decide placements too, not only cells. ``best_phase``: decide each
    variable as it was in the longest assignment met without a conflict, where it had a value
    there (as SAT solvers' target phases do). Both bring first solutions sooner on some boards
    and proofs later; ``solvers.engine.portfolio`` runs both kinds."""
    yield from _Solver(puzzle, every_variable, best_phase).run(max(1, limit))


class _Solver:
    def __init__(self, puzzle: Puzzle, every_variable: bool = False, best_phase: bool = False) -> None:
        self.puzzle = puzzle
        geo = self.geo = geometry_of(puzzle)
        cells = [r * geo.stride + c for r in range(puzzle.rows) for c in range(puzzle.cols)]
        places = list(bits(compatible(puzzle, geo)))
        self.cells = cells
        self.cell_var = {i: k for k, i in enumerate(cells)}
        n = len(cells) + len(places)
        self.n = n
        self.val = [0] * (2 * n)              # per literal: 1 true, -1 false, 0 undecided
        self.level = [0] * n
        self.reason: list = [None] * n
        self.trail: list[int] = []
        self.lim: list[int] = []              # trail length at each decision
        self.qhead = 0
        self.bins: list[list[int]] = [[] for _ in range(2 * n)]     # literal -> literals it implies
        self.watches: list[list[int]] = [[] for _ in range(2 * n)]  # literal -> clauses watching it
        self.clauses: list[list[int] | None] = []
        self.learnts: list[tuple[int, int]] = []                     # (levels spanned, clause index)
        self.cards: list[tuple[list[int], int, int]] = []            # (members, how many true, how many)
        self.occ: list[list[int]] = [[] for _ in range(2 * n)]         # literal -> constraints it counts in
        self.ntrue: list[int] = []            # per constraint: members true
        self.nfalse: list[int] = []           # per constraint: members false
        self.units: list[int] = []
        self.ok = True
        self.activity = [0.0] * n
        self.inc = 1.0
        self.phase = [1] * n                  # the value each variable had last: water first
        self.best_phase = best_phase
        self.best = [-1] * n                  # its value in the longest assignment without conflict
        self.best_size = 0
        self.decided = n if every_variable else len(cells)   # variables decided (cells come first)
        self.heap = [(0.0, v) for v in range(self.decided)]
        self.in_heap = [v < self.decided for v in range(n)]
        self.stats = {"seconds": 0.0, "conflicts": 0, "decisions": 0, "learnt": 0, "restarts": 0, "solutions": 0}
        self._build(puzzle, places)

    def _build(self, puzzle: Puzzle, places: list[int]) -> None:
        geo, cv = self.geo, self.cell_var
        first = len(self.cells)
        covering: dict[int, list[int]] = {i: [] for i in self.cells}
        for k, p in enumerate(places):
            x = 2 * (first + k)
            for i in bits(geo.p_cells[p]):
                covering[i].append(x)
                self._clause([x ^ 1, 2 * cv[i]])
            for j in bits(geo.p_halo[p]):
                if j in cv:
                    self._clause([x ^ 1, 2 * cv[j] + 1])
        for i in self.cells:
            self._clause([2 * cv[i] + 1, *covering[i]])
            for j in bits(geo.diagonal(1 << i)):
                if j > i and j in cv:
                    self._clause([2 * cv[i] + 1, 2 * cv[j] + 1])
        for (r, c), hint in puzzle.hints.items():
            y = 2 * cv[r * geo.stride + c]
            self._clause([y + 1 if hint is Hint.WATER else y])
        for length, count in puzzle.fleet:
            self._card([2 * (first + k) for k, p in enumerate(places) if geo.p_length[p] == length], count)
        for r, tally in enumerate(puzzle.row_tallies):
            if tally is not None:
                self._card([2 * cv[r * geo.stride + c] for c in range(puzzle.cols)], tally)
        for c, tally in enumerate(puzzle.col_tallies):
            if tally is not None:
                self._card([2 * cv[r * geo.stride + c] for r in range(puzzle.rows)], tally)

    def _clause(self, lits: list[int]) -> None:
        if not lits:
            self.ok = False
        elif len(lits) == 1:
            self.units.append(lits[0])
        elif len(lits) == 2:
            self._binary(*lits)
        else:
            self._watch(lits)

    def _binary(self, a: int, b: int) -> None:
        """The two-literal clause ``a or b``: each literal's negation implies the other."""
        self.bins[a ^ 1].append(b)
        self.bins[b ^ 1].append(a)

    def _watch(self, lits: list[int]) -> int:
        index = len(self.clauses)
        self.clauses.append(lits)
        self.watches[lits[0]].append(index)
        self.watches[lits[1]].append(index)
        return index

    def _card(self, members: list[int], count: int) -> None:
        index = len(self.cards)
        self.cards.append((members, count, len(members)))
        self.ntrue.append(0)
        self.nfalse.append(0)
        for m in members:
            assert not m & 1, "a constraint's members are positive literals"
            self.occ[m].append(index)         # a true member: counted in ntrue
            self.occ[m ^ 1].append(index)     # a false one: counted in nfalse
        if not 0 <= count <= len(members):
            self.ok = False

    # -- the run ---------------------------------------------------------------------------
    def run(self, limit: int) -> Iterator[Event]:
        started = last_beat = time.perf_counter()
        stats = self.stats
        solutions: list[int] = []
        if self._root():
            luby_index, conflicts_here = 1, 0
            budget = RESTART_UNIT * _luby(1)
            next_reduce = REDUCE_FIRST
            while True:
                now = time.perf_counter()
                if now - last_beat > HEARTBEAT_SECONDS:
                    last_beat = now
                    yield Progress(self._snapshot(started, solutions))
                conflict = self._propagate()
                if conflict is not None:
                    stats["conflicts"] += 1
                    conflicts_here += 1
                    if not self.lim:
                        break                               # at the root: nothing more to find
                    self._learn(conflict)
                    if stats["conflicts"] >= next_reduce:
                        next_reduce += REDUCE_FIRST + stats["conflicts"] // 10
                        self._reduce()
                    continue
                if conflicts_here >= budget:
                    conflicts_here = 0
                    luby_index += 1
                    budget = RESTART_UNIT * _luby(luby_index)
                    stats["restarts"] += 1
                    self._backtrack(0)
                    continue
                if self.best_phase and len(self.trail) > self.best_size:
                    self._keep_best()
                lit = self._decide()
                if lit is None:                             # every cell decided: a solution
                    ship = self._ship()
                    solutions.append(ship)
                    yield Found(self.geo.grid(ship))
                    if len(solutions) >= limit or not self._exclude(ship):
                        break
                    continue
                stats["decisions"] += 1
                self.lim.append(len(self.trail))
                self._assign(lit, None)
        stats_now = self._snapshot(started, solutions)
        if not solutions:
            yield Result(Status.NO_SOLUTION, None, stats_now, (), "no solution")
            return
        grids: tuple[Grid, ...] = tuple(self.geo.grid(ship) for ship in solutions)
        yield verified(self.puzzle, grids[0], stats_now, grids)

    def _root(self) -> bool:
        """The facts of the root; False when they already contradict each other."""
        if not self.ok:
            return False
        for unit in self.units:
            if self.val[unit] == -1:
                return False
            if self.val[unit] == 0:
                self._assign(unit, None)
        return self._propagate() is None

    def _snapshot(self, started: float, solutions: list[int]) -> dict:
        self.stats["seconds"] = round(time.perf_counter() - started, 6)
        self.stats["solutions"] = len(solutions)
        self.stats["learnt"] = len(self.learnts)
        return dict(self.stats)

    def _ship(self) -> int:
        val, cv = self.val, self.cell_var
        return sum(1 << i for i in self.cells if val[2 * cv[i]] == 1)

    def _exclude(self, ship: int) -> bool:
        """Forbid the solution ``ship`` (a clause: one of its ship cells is water); False when
        that leaves nothing to search."""
        self._backtrack(0)
        block = [2 * self.cell_var[i] + 1 for i in bits(ship)]
        free = [lit for lit in block if self.val[lit] != -1]
        if not free:
            return False
        if len(free) == 1:
            self._assign(free[0], None)
            return True
        rest = [lit for lit in block if self.val[lit] == -1]
        self._watch(free + rest)
        return True

    # -- propagation -------------------------------------------------------------------------
    def _assign(self, lit: int, reason) -> None:
        v = lit >> 1
        self.val[lit] = 1
        self.val[lit ^ 1] = -1
        self.level[v] = len(self.lim)
        self.reason[v] = reason
        self.trail.append(lit)
        counts = self.nfalse if lit & 1 else self.ntrue
        for index in self.occ[lit]:
            counts[index] += 1

    def _propagate(self) -> list[int] | None:
        """Unit propagation to a fixpoint; a conflict is returned as its clause (false literals).
        The hottest loop of the search: the assignments that two-literal clauses make, most of
        them, are written out in it (as ``_assign``)."""
        val, trail, bins, watches, clauses = self.val, self.trail, self.bins, self.watches, self.clauses
        cards, ntrue, nfalse, occ = self.cards, self.ntrue, self.nfalse, self.occ
        level, reason, assign = self.level, self.reason, self._assign
        depth = len(self.lim)
        head = self.qhead
        while head < len(trail):
            lit = trail[head]
            head += 1
            # Two-literal clauses: most facts come this way, and most of what they imply is
            # already true, which nothing here can change, so only the rest is looked at.
            implied = bins[lit]
            for b in [b for b in implied if val[b] != 1] if implied else ():
                vb = val[b]
                if vb == -1:
                    self.qhead = head
                    return [lit ^ 1, b]
                if vb == 0:
                    v = b >> 1
                    val[b] = 1
                    val[b ^ 1] = -1
                    level[v] = depth
                    reason[v] = lit
                    trail.append(b)
                    counts = nfalse if b & 1 else ntrue
                    for index in occ[b]:
                        counts[index] += 1
            false = lit ^ 1
            ws = watches[false]
            i = j = 0
            n = len(ws)
            while i < n:                         # clauses watching the literal now false
                ci = ws[i]
                i += 1
                c = clauses[ci]
                if c is None:
                    continue                     # forgotten: drop the watch
                if c[0] == false:
                    c[0], c[1] = c[1], false
                other = c[0]
                if val[other] == 1:
                    ws[j] = ci
                    j += 1
                    continue
                for k in range(2, len(c)):
                    if val[c[k]] != -1:
                        c[1], c[k] = c[k], false
                        watches[c[1]].append(ci)
                        break
                else:
                    ws[j] = ci
                    j += 1
                    if val[other] == -1:
                        ws[j:] = ws[i:n]
                        self.qhead = head
                        return list(c)
                    assign(other, c)
            del ws[j:]
            for index in occ[lit]:
                members, count, size = cards[index]
                yes, no = ntrue[index], nfalse[index]
                if yes < count < size - no:
                    continue                     # short of its count, with more than enough undecided
                if yes > count:
                    self.qhead = head
                    return [m ^ 1 for m in members if val[m] == 1]
                if size - no < count:
                    self.qhead = head
                    return [m for m in members if val[m] == -1]
                if yes + no < size:
                    if yes == count:             # the others are false, because of the true ones
                        why = tuple([m ^ 1 for m in members if val[m] == 1])
                        forced = [m ^ 1 for m in members if val[m] == 0]
                    else:                        # the others are true, because of the false ones
                        why = tuple([m for m in members if val[m] == -1])
                        forced = [m for m in members if val[m] == 0]
                    for b in forced:
                        assign(b, why)
        self.qhead = head
        return None

    def _explain(self, lit: int) -> list[int] | tuple[int, ...]:
        """The literals of the clause that implied the true literal ``lit``: all false but,
        for a learnt or given clause, ``lit`` itself (its callers have marked its variable)."""
        why = self.reason[lit >> 1]
        return (why ^ 1,) if type(why) is int else why

    # -- learning ----------------------------------------------------------------------------
    def _learn(self, conflict: list[int]) -> None:
        """Learn the first-UIP clause of ``conflict``, jump back and assert it."""
        level, trail, activity, in_heap, heap = self.level, self.trail, self.activity, self.in_heap, self.heap
        inc = self.inc
        seen: set[int] = set()
        learnt = [0]
        pending, depth = 0, len(self.lim)
        index = len(trail) - 1
        lits: list[int] | tuple[int, ...] = conflict
        while True:
            for q in lits:
                v = q >> 1
                if v not in seen and level[v] > 0:
                    seen.add(v)
                    bumped = activity[v] = activity[v] + inc      # VSIDS: a heap entry each bump
                    if in_heap[v]:
                        heapq.heappush(heap, (-bumped, v))
                    if level[v] == depth:
                        pending += 1
                    else:
                        learnt.append(q)
            while (trail[index] >> 1) not in seen:
                index -= 1
            p = trail[index]
            index -= 1
            pending -= 1
            if not pending:
                break
            lits = self._explain(p)
        learnt[0] = p ^ 1
        marks = {q >> 1 for q in learnt}
        levels = {level[q >> 1] for q in learnt}
        failed: set[int] = set()
        learnt = [learnt[0]] + [q for q in learnt[1:]
                                if self.reason[q >> 1] is None or not self._implied(q, marks, levels, failed)]
        self.inc /= DECAY
        if self.inc > 1e100:
            self._rescale()
        if len(learnt) == 1:
            self._backtrack(0)
            self._assign(learnt[0], None)
            return
        best = max(range(1, len(learnt)), key=lambda k: level[learnt[k] >> 1])
        learnt[1], learnt[best] = learnt[best], learnt[1]
        self._backtrack(level[learnt[1] >> 1])
        if len(learnt) == 2:
            a, b = learnt
            self._binary(a, b)
            self._assign(a, b ^ 1)
            return
        spans = len({level[q >> 1] for q in learnt})
        self.learnts.append((spans, self._watch(learnt)))
        self._assign(learnt[0], learnt)

    def _implied(self, q: int, marks: set[int], levels: set[int], failed: set[int]) -> bool:
        """Whether the false literal ``q`` of a learnt clause follows from the others: every
        fact its reason uses is in the clause, of the root, or so implied in turn. What is
        shown implied joins ``marks``; what is shown not to be joins ``failed`` (both kept for
        the clause's other literals)."""
        level, reason = self.level, self.reason
        why = reason[q >> 1]                                 # (as ``_explain``, written out)
        path = [(q >> 1, iter((why ^ 1,) if type(why) is int else why))]   # depth first: a failure fails its path
        while path:
            v, pending = path[-1]
            for a in pending:
                w = a >> 1
                if w == v or w in marks or level[w] == 0:
                    continue                           # (a clause's reason holds its own literal)
                if w in failed or reason[w] is None or level[w] not in levels:
                    failed.add(w)
                    for u, _ in path:
                        failed.add(u)
                    return False
                why = reason[w]
                path.append((w, iter((why ^ 1,) if type(why) is int else why)))
                break
            else:
                path.pop()
                marks.add(v)
        return True

    def _reduce(self) -> None:
        """Forget half of the learnt clauses, those spanning the most decision levels; keep
        those spanning two or fewer and those that are reasons now."""
        keep, others = [], []
        clauses, reason, val = self.clauses, self.reason, self.val
        for spans, index in self.learnts:
            c = clauses[index]
            assert c is not None
            if spans <= 2 or (reason[c[0] >> 1] is c and val[c[0]] == 1):
                keep.append((spans, index))
            else:
                others.append((spans, index))
        others.sort(key=lambda item: item[0])
        half = len(others) // 2
        for _, index in others[half:]:
            clauses[index] = None
        self.learnts = keep + others[:half]

    # -- decisions ---------------------------------------------------------------------------
    def _rescale(self) -> None:
        self.activity = [a * 1e-100 for a in self.activity]
        self.inc *= 1e-100
        self.heap = [(-self.activity[v], v) for v in range(self.decided) if self.in_heap[v]]
        heapq.heapify(self.heap)

    def _keep_best(self) -> None:
        """The trail, met without a conflict and longer than any before: the best phase."""
        self.best_size = len(self.trail)
        best = self.best
        for t in self.trail:
            best[t >> 1] = t & 1

    def _decide(self) -> int | None:
        """The most active undecided cell, with the value it had last or, with ``best_phase``,
        in the longest assignment without conflict (None: all decided)."""
        heap, val, activity, in_heap, best = self.heap, self.val, self.activity, self.in_heap, self.best
        while heap:
            a, v = heapq.heappop(heap)
            if -a != activity[v] or not in_heap[v]:
                continue                         # an older entry of a bumped cell
            in_heap[v] = False
            if val[2 * v] == 0:
                return 2 * v + (self.phase[v] if best[v] < 0 else best[v])
        return None

    def _backtrack(self, to: int) -> None:
        if len(self.lim) <= to:
            return
        val, trail, phase, occ = self.val, self.trail, self.phase, self.occ
        ntrue, nfalse, heap, activity, in_heap = self.ntrue, self.nfalse, self.heap, self.activity, self.in_heap
        decided = self.decided
        stop = self.lim[to]
        for t in reversed(trail[stop:]):
            v = t >> 1
            val[t] = val[t ^ 1] = 0
            phase[v] = t & 1
            counts = nfalse if t & 1 else ntrue
            for index in occ[t]:
                counts[index] -= 1
            if v < decided and not in_heap[v]:
                in_heap[v] = True
                heapq.heappush(heap, (-activity[v], v))
        del trail[stop:]
        del self.lim[to:]
        self.qhead = len(trail)


def _luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)
