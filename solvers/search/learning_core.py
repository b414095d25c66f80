"""The clause learner's inner loop, compiled (numba): propagation, conflict analysis, learning,
restarts, decisions, on the flat arrays ``solvers.search.learning`` builds, a slice of the
search at a time (:func:`search_slice`; why: that module's docstring).

A :class:`Search` holds the state, a list of arrays, and the model; the names below (``TLEN``
and on) are the slots of its integer registers. Literals are ``2 * variable`` (true) and
``2 * variable + 1`` (false). A reason is a kind and a value per variable: a decision or a
fact of the root; a literal (two-literal clause); a clause of the arena; a cardinality
constraint (at most: the members true before it; at least: the members false before it, read
back by trail position when a conflict needs them).

Clauses live in one arena (``lits``, with ``start`` and ``size`` per clause); each literal's
watch list is a slice of one pool. When the learnt clauses are halved, the arena and the pool
are rebuilt without the forgotten ones, so memory stays bounded however long the search runs.

numba counts the references to an array atomically each time a function (even an inlined one)
takes it, and at every turn of a loop in which the array may be replaced: that was three
quarters of the search's time. So :func:`search_slice` borrows the arrays its caller holds
(:func:`_borrowed`, not counted), holds the six it may replace counted and borrows them again
after each replacement, and replaces none inside its loops: the watch pool is given room
before each round of propagation (:func:`_roomy`), and a walk that finds none pauses until
the pool has grown.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import intrinsic

from solvers import common

I32 = np.int32

# Integer registers (``regs``).
TLEN, NLIM, QHEAD, HSIZE, ATOP, NCL, NLEARNT, NSOLS, CONFLICTS, DECISIONS, RESTARTS, LUBY, \
    HERE, BUDGET, NEXT_REDUCE, BEST_SIZE, DONE, NCELLS, DECIDED, BEST_PHASE, LIMIT, WTOP, RUNIT, REDUCE_STEP, \
    NEED, ROOM, PAUSES, NREGS = range(28)
SOLUTION = 24                       # the state's array of the last solution met (1 per ship cell)
# Kinds of reason.
NONE, BINARY, CLAUSE, AT_MOST, AT_LEAST = range(5)

RESTART_UNIT = 100                  # conflicts per unit of the Luby sequence, unless a search says
POOL_ROOM = 8                       # the watch pool's room before each round, per clause and per list
REDUCE_FIRST = 2000                 # conflicts before the learnt clauses are first halved
DECAY = 0.95                        # activity decay per conflict (VSIDS)


luby = njit(cache=True)(common.luby)    # the one statement, compiled for the search loop below


@intrinsic
def _borrowed(typingctx, array):
    """The same array, its references not counted (see the module docstring). Only for arrays
    whose owner outlives every use: the caller's, during the call."""
    def codegen(context, builder, signature, args):
        held = context.make_array(array)(context, builder, value=args[0])
        view = context.make_array(array)(context, builder)
        context.populate_array(view, data=held.data, shape=held.shape, strides=held.strides,
                               itemsize=held.itemsize, meminfo=None)
        return view._getvalue()
    return array(array), codegen


class Search:
    """One search: its state (the arrays :func:`search_slice` works on) and the model it reads.

    ``model``: implication lists, each literal's constraints and the constraints' members as
    offsets into flat arrays (``bstart``/``bimp``, ``ostart``/``occ``, ``cstart``/``cmem``),
    the constraints' counts and sizes, and their counters of true and false members."""

    GROWN = (15, 16, 17, 18, 19, 23)    # the state's arrays :func:`search_slice` may replace

    def __init__(self, n: int, ncells: int, decided: int, best_phase: bool, limit: int,
                 clauses: list[list[int]], model: tuple[np.ndarray, ...], restart_unit: int = 0) -> None:
        self.state = _new_state(n, ncells, decided, best_phase, limit, clauses, restart_unit or RESTART_UNIT,
                                model[6].shape[0], model[5].shape[0])
        self.model = model
        self.regs = self.state[0]

    def assume(self, units: list[int]) -> bool:
        """The facts of the root; False when they contradict each other."""
        regs, val, level, rkind, rval, pos, trail = (self.state[0], *self.state[2:8])
        ostart, occ, ntrue, nfalse = self.model[2], self.model[3], self.model[8], self.model[9]
        for unit in units:
            if val[unit] == -1:
                return False
            if val[unit] == 0:
                _assign(unit, 0, NONE, 0, regs, val, level, rkind, rval, pos, trail, ostart, occ, ntrue, nfalse)
        return True

    @property
    def done(self) -> bool:
        return bool(self.regs[DONE])

    def run_slice(self, conflicts: int, decisions: int, work: int) -> np.ndarray | None:
        """One slice of the search (see :func:`search_slice`): the solution it met (1 per ship
        cell), or None."""
        *grown, found = search_slice(  # type: ignore[call-arg]  # mypy counts no list's length: too many, it says
            *self.state, *self.model, conflicts, decisions, work)
        for index, array in zip(self.GROWN, grown):
            self.state[index] = array
        return self.state[SOLUTION] if found else None

    def stats(self) -> dict[str, int]:
        regs = self.regs
        return {"conflicts": int(regs[CONFLICTS]), "decisions": int(regs[DECISIONS]),
                "learnt": int(regs[NLEARNT]), "restarts": int(regs[RESTARTS])}


def _new_state(n: int, ncells: int, decided: int, best_phase: bool, limit: int, clauses: list[list[int]],
               restart_unit: int, ncards: int, nmembers: int) -> list[np.ndarray]:
    """The arrays of a search over ``n`` variables (the first ``ncells`` are cells; the first
    ``decided`` are decided), with the given clauses of three or more literals and ``ncards``
    counting constraints of ``nmembers`` members in all, restarting after ``restart_unit``
    times the Luby sequence of conflicts."""
    regs = np.zeros(NREGS, np.int64)
    regs[NCELLS], regs[DECIDED], regs[BEST_PHASE], regs[LIMIT] = ncells, decided, int(best_phase), limit
    regs[LUBY], regs[BUDGET], regs[NEXT_REDUCE] = 1, restart_unit, REDUCE_FIRST
    regs[RUNIT], regs[REDUCE_STEP], regs[ROOM] = restart_unit, REDUCE_FIRST, POOL_ROOM
    inc = np.array([1.0, DECAY])             # the activity's increment, and its decay per conflict
    val = np.zeros(2 * n, np.int8)
    level = np.zeros(n, I32)
    rkind = np.zeros(n, np.int8)
    rval = np.zeros(n, I32)
    pos = np.zeros(n, I32)
    trail = np.zeros(n, I32)
    lim = np.zeros(n + 1, I32)
    act = np.zeros(n, np.float64)
    phase = np.ones(n, np.int8)              # the value each variable had last: water first
    best = np.full(n, -1, np.int8)           # its value in the longest assignment without a conflict
    heap = np.arange(n, dtype=I32)
    hidx = np.where(np.arange(n) < decided, np.arange(n), -1).astype(I32)
    regs[HSIZE] = decided
    seen = np.zeros(n, np.int8)
    total = sum(len(c) for c in clauses)
    lits = np.zeros(max(1024, 2 * total), I32)
    start = np.zeros(max(1024, 2 * len(clauses)), I32)
    size = np.zeros_like(start)
    learnt = np.zeros_like(start, dtype=np.int8)     # 0 given, 1 learnt, 2 forgotten
    span = np.zeros_like(start)
    at = 0
    for k, clause in enumerate(clauses):
        lits[at:at + len(clause)] = clause
        start[k], size[k] = at, len(clause)
        at += len(clause)
    regs[ATOP], regs[NCL] = at, len(clauses)
    wstart = np.zeros(2 * n, I32)
    wlen = np.zeros(2 * n, I32)
    wcap = np.zeros(2 * n, I32)
    pool = np.zeros(max(1024, 8 * n + 4 * len(clauses)), I32)
    solution = np.zeros(ncells, np.int8)
    pool = _rebuild(regs, start, lits, learnt, wstart, wlen, wcap, pool, 2 * n)
    # Room for a conflict's work: its clause, the clause learnt, a reason's literals, the
    # minimisation's stack, the variables it touched, per level the conflict that last
    # counted it, and the counting constraints' reasons held for a conflict (``_reason_of``).
    scratch = [np.zeros(2 * n + 8, I32), np.zeros(n + 8, I32), np.zeros(n + 8, I32), np.zeros(n + 8, I32),
               np.zeros(2 * n + 8, I32), np.zeros(n + 2, np.int64),
               np.full(max(1, ncards), -1, np.int64), np.zeros(max(1, ncards), I32), np.zeros(max(1, nmembers), I32)]
    return [regs, inc, val, level, rkind, rval, pos, trail, lim, act, phase, best, heap, hidx, seen,
            lits, start, size, learnt, span, wstart, wlen, wcap, pool, solution, *scratch]


@njit(cache=True)
def _rebuild(regs, start, lits, learnt, wstart, wlen, wcap, pool, n2):
    """Every watch list laid out afresh in ``pool`` (each with room to grow): the watches of
    a clause are its first two literals."""
    ncl = regs[NCL]
    count = np.zeros(n2, np.int64)
    for ci in range(ncl):
        if learnt[ci] != 2:
            count[lits[start[ci]]] += 1
            count[lits[start[ci] + 1]] += 1
    need = count.sum() + 4 * n2
    if need * 2 > pool.shape[0]:
        pool = np.zeros(need * 2, np.int32)
    at = 0
    for lit in range(n2):
        wstart[lit] = at
        wlen[lit] = 0
        wcap[lit] = count[lit] + 4
        at += count[lit] + 4
    regs[WTOP] = at
    for ci in range(ncl):
        if learnt[ci] != 2:
            for w in range(2):
                lit = lits[start[ci] + w]
                pool[wstart[lit] + wlen[lit]] = ci
                wlen[lit] += 1
    return pool


@njit(cache=True, inline="always")
def _views(lits, start, size, learnt, span, pool):
    """The arrays the search may replace, borrowed (:func:`_borrowed`) from their holders."""
    return (_borrowed(lits), _borrowed(start), _borrowed(size), _borrowed(learnt), _borrowed(span),
            _borrowed(pool))


@njit(cache=True, inline="always")
def _watch(regs, wstart, wlen, wcap, pool, lit, ci):
    """Add clause ``ci`` to ``lit``'s watch list (moved to the pool's end when full: the pool
    has the room, :func:`_roomy`)."""
    if wlen[lit] == wcap[lit]:
        cap = 2 * wcap[lit] + 4
        top = regs[WTOP]
        pool[top:top + wlen[lit]] = pool[wstart[lit]:wstart[lit] + wlen[lit]]
        wstart[lit] = top
        wcap[lit] = cap
        regs[WTOP] = top + cap
    pool[wstart[lit] + wlen[lit]] = ci
    wlen[lit] += 1


@njit(cache=True)
def _roomy(regs, pool, n2):
    """The watch lists' pool, or a larger copy, with room for what a round of propagation
    usually moves to its end (``regs[ROOM]`` entries per clause and per list, ``n2`` lists)
    and for the move a round found no room for (``regs[NEED]``): the search never replaces the
    pool in its inner loops (see the module docstring)."""
    need = max(regs[WTOP] + regs[ROOM] * (regs[NCL] + n2) + 16, regs[NEED])
    regs[NEED] = 0
    if need <= pool.shape[0]:
        return pool
    return _grown(pool, need)


@njit(cache=True, inline="always")
def _assign(lit, lvl, kind, why, regs, val, level, rkind, rval, pos, trail, ostart, occ, ntrue, nfalse):
    v = lit >> 1
    val[lit] = 1
    val[lit ^ 1] = -1
    level[v] = lvl
    rkind[v] = kind
    rval[v] = why
    t = regs[TLEN]
    pos[v] = t
    trail[t] = lit
    regs[TLEN] = t + 1
    if lit & 1:                               # two loops, not one over a chosen array: an array
        for k in range(ostart[lit], ostart[lit + 1]):     # held in a variable costs two atomic
            nfalse[occ[k]] += 1                           # reference counts each time
    else:
        for k in range(ostart[lit], ostart[lit + 1]):
            ntrue[occ[k]] += 1


@njit(cache=True, inline="always")
def _heap_up(heap, hidx, act, i):
    v = heap[i]
    a = act[v]
    while i > 0:
        parent = (i - 1) >> 1
        u = heap[parent]
        if act[u] >= a:
            break
        heap[i] = u
        hidx[u] = i
        i = parent
    heap[i] = v
    hidx[v] = i


@njit(cache=True, inline="always")
def _heap_down(heap, hidx, act, i, size):
    v = heap[i]
    a = act[v]
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and act[heap[child + 1]] > act[heap[child]]:
            child += 1
        u = heap[child]
        if act[u] <= a:
            break
        heap[i] = u
        hidx[u] = i
        i = child
    heap[i] = v
    hidx[v] = i


@njit(cache=True, inline="always")
def _backtrack(to, regs, val, phase, trail, lim, ostart, occ, ntrue, nfalse, heap, hidx, act):
    if regs[NLIM] <= to:
        return
    stop = lim[to]
    decided = regs[DECIDED]
    for t in range(regs[TLEN] - 1, stop - 1, -1):
        x = trail[t]
        v = x >> 1
        val[x] = 0
        val[x ^ 1] = 0
        phase[v] = x & 1
        if x & 1:
            for k in range(ostart[x], ostart[x + 1]):
                nfalse[occ[k]] -= 1
        else:
            for k in range(ostart[x], ostart[x + 1]):
                ntrue[occ[k]] -= 1
        if v < decided and hidx[v] < 0:
            size = regs[HSIZE]
            heap[size] = v
            hidx[v] = size
            regs[HSIZE] = size + 1
            _heap_up(heap, hidx, act, size)
    regs[TLEN] = stop
    regs[NLIM] = to
    regs[QHEAD] = stop


@njit(cache=True, inline="always")
def _reason_of(v, out, rkind, rval, lits, start, size, cstart, cmem, val, pos, stamp, cstamp, cheld, held):
    """The false literals of the reason of variable ``v`` (assigned, not a decision) into
    ``out``; their count. A counting constraint's reason is read once per conflict
    (``stamp``): the constraint fills all its undecided members at once, so every member it
    filled on the trail has the same reason; the first reading is held (in ``held`` at the
    constraint's own offset, ``cheld`` long, ``cstamp`` the conflict it was read at)."""
    kind = rkind[v]
    n = 0
    if kind == BINARY:
        out[0] = rval[v] ^ 1
        return 1
    if kind == CLAUSE:
        s = start[rval[v]]
        for k in range(size[rval[v]]):
            x = lits[s + k]
            if (x >> 1) != v:
                out[n] = x
                n += 1
        return n
    index = rval[v]
    first = cstart[index]
    if cstamp[index] == stamp:
        n = cheld[index]
        out[:n] = held[first:first + n]
        return n
    for k in range(first, cstart[index + 1]):
        m = cmem[k]
        w = m >> 1
        if w == v or val[m] == 0 or pos[w] > pos[v]:
            continue
        if kind == AT_MOST and val[m] == 1:
            out[n] = m ^ 1
            n += 1
        elif kind == AT_LEAST and val[m] == -1:
            out[n] = m
            n += 1
    held[first:first + n] = out[:n]
    cheld[index] = n
    cstamp[index] = stamp
    return n


@njit(cache=True, nogil=True)
def search_slice(regs, inc, val, level, rkind, rval, pos, trail, lim, act, phase, best, heap, hidx, seen,
            held_lits, held_start, held_size, held_learnt, held_span, wstart, wlen, wcap, held_pool, solution,
            buf, lb, rbuf, stack, touched, stamped, cstamp, cheld, held,
            bstart, bimp, ostart, occ, cstart, cmem, ccount, csize, ntrue, nfalse, conflicts_max, decisions_max,
            work_max):
    """Search on until ``conflicts_max`` more conflicts, ``decisions_max`` more decisions or
    ``work_max`` steps of work (literals propagated, read in reasons, taken back: on a large
    board one conflict can take long), a new solution (its cells in ``solution``, 1 for ship),
    or the end (``regs[DONE]``). Returns the arrays that may have grown, and 1 if it met a
    solution (else 0)."""
    # Every array borrowed; those it may replace (``Search.GROWN``) held counted too (see the module docstring).
    lits, start, size, learnt, span, pool = _views(held_lits, held_start, held_size, held_learnt, held_span,
                                                   held_pool)
    regs, inc, val, level, rkind, rval, pos, trail, lim, act = (
        _borrowed(regs), _borrowed(inc), _borrowed(val), _borrowed(level), _borrowed(rkind), _borrowed(rval),
        _borrowed(pos), _borrowed(trail), _borrowed(lim), _borrowed(act))
    phase, best, heap, hidx, seen, wstart, wlen, wcap, solution = (
        _borrowed(phase), _borrowed(best), _borrowed(heap), _borrowed(hidx), _borrowed(seen), _borrowed(wstart),
        _borrowed(wlen), _borrowed(wcap), _borrowed(solution))
    buf, lb, rbuf, stack, touched, stamped, cstamp, cheld, held = (
        _borrowed(buf), _borrowed(lb), _borrowed(rbuf), _borrowed(stack), _borrowed(touched), _borrowed(stamped),
        _borrowed(cstamp), _borrowed(cheld), _borrowed(held))
    bstart, bimp, ostart, occ, cstart, cmem, ccount, csize, ntrue, nfalse = (
        _borrowed(bstart), _borrowed(bimp), _borrowed(ostart), _borrowed(occ), _borrowed(cstart), _borrowed(cmem),
        _borrowed(ccount), _borrowed(csize), _borrowed(ntrue), _borrowed(nfalse))
    n = level.shape[0]
    conflicts_end = regs[CONFLICTS] + conflicts_max
    decisions_end = regs[DECISIONS] + decisions_max
    solutions_before = regs[NSOLS]
    work = 0
    while regs[DONE] == 0 and work < work_max:
        held_pool = _roomy(regs, held_pool, 2 * n)
        pool = _borrowed(held_pool)
        # -- propagation
        clen = 0
        depth = regs[NLIM]
        while regs[QHEAD] < regs[TLEN] and clen == 0:
            lit = trail[regs[QHEAD]]
            regs[QHEAD] += 1
            work += 1
            for t in range(bstart[lit], bstart[lit + 1]):
                b = bimp[t]
                vb = val[b]
                if vb == 1:
                    continue
                if vb == -1:
                    buf[0] = lit ^ 1
                    buf[1] = b
                    clen = 2
                    break
                _assign(b, depth, BINARY, lit, regs, val, level, rkind, rval, pos, trail, ostart, occ, ntrue, nfalse)
            if clen:
                break
            false = lit ^ 1
            ws = wstart[false]
            nw = wlen[false]
            i = 0
            j = 0
            while i < nw:
                ci = pool[ws + i]
                i += 1
                if learnt[ci] == 2:
                    continue                          # forgotten: drop the watch
                s = start[ci]
                if lits[s] == false:
                    lits[s] = lits[s + 1]
                    lits[s + 1] = false
                other = lits[s]
                if val[other] == 1:
                    pool[ws + j] = ci
                    j += 1
                    continue
                moved = False
                for k in range(2, size[ci]):
                    x = lits[s + k]
                    if val[x] != -1:
                        if wlen[x] == wcap[x] and regs[WTOP] + 2 * wcap[x] + 4 > pool.shape[0]:
                            regs[NEED] = regs[WTOP] + 2 * wcap[x] + 4
                            regs[PAUSES] += 1
                            break                     # no room to move the watch: below
                        lits[s + 1] = x
                        lits[s + k] = false
                        _watch(regs, wstart, wlen, wcap, pool, x, ci)
                        moved = True
                        break
                if moved:
                    continue
                if regs[NEED]:
                    # The pool grows first, and never in these loops: this clause and the rest
                    # stay in the list, and the literal is walked again once the pool has grown
                    # (what its walk did stays done: the same search as without the pause).
                    i -= 1
                    while i < nw:
                        pool[ws + j] = pool[ws + i]
                        j += 1
                        i += 1
                    break
                pool[ws + j] = ci
                j += 1
                if val[other] == -1:
                    while i < nw:
                        pool[ws + j] = pool[ws + i]
                        j += 1
                        i += 1
                    for k in range(size[ci]):
                        buf[k] = lits[s + k]
                    clen = size[ci]
                    break
                _assign(other, depth, CLAUSE, ci, regs, val, level, rkind, rval, pos, trail, ostart, occ, ntrue, nfalse)
            wlen[false] = j
            if clen:
                break
            if regs[NEED]:
                regs[QHEAD] -= 1
                break
            for t in range(ostart[lit], ostart[lit + 1]):
                index = occ[t]
                count = ccount[index]
                yes = ntrue[index]
                no = nfalse[index]
                if yes < count and count < csize[index] - no:
                    continue                          # short of its count, with more than enough undecided
                if yes > count or csize[index] - no < count:
                    wrong = 1 if yes > count else -1  # too many members true, or too many false
                    for k in range(cstart[index], cstart[index + 1]):
                        m = cmem[k]
                        if val[m] == wrong:           # the conflict: one of these is not so
                            buf[clen] = m ^ 1 if wrong == 1 else m
                            clen += 1
                    break
                if yes + no < csize[index]:
                    for k in range(cstart[index], cstart[index + 1]):
                        m = cmem[k]
                        if val[m] == 0:
                            if yes == count:          # the others are false, because of the true ones
                                _assign(m ^ 1, depth, AT_MOST, index, regs, val, level, rkind, rval, pos, trail,
                                        ostart, occ, ntrue, nfalse)
                            else:                     # the others are true, because of the false ones
                                _assign(m, depth, AT_LEAST, index, regs, val, level, rkind, rval, pos, trail,
                                        ostart, occ, ntrue, nfalse)
        if regs[NEED]:
            continue                                  # a walk paused for room: the pool grows first
        if clen:
            regs[CONFLICTS] += 1
            regs[HERE] += 1
            if depth == 0:
                regs[DONE] = 1                        # at the root: nothing more to find
                break
            # -- the first unique implication point
            nlb = 1
            pending = 0
            index = regs[TLEN] - 1
            ntouched = 0
            rl = clen
            rbuf[:clen] = buf[:clen]
            p = 0
            a_inc = inc[0]
            while True:
                for k in range(rl):
                    q = rbuf[k]
                    v = q >> 1
                    if seen[v] == 0 and level[v] > 0:
                        seen[v] = 1
                        touched[ntouched] = v
                        ntouched += 1
                        act[v] += a_inc
                        if hidx[v] >= 0:
                            _heap_up(heap, hidx, act, hidx[v])
                        if level[v] == depth:
                            pending += 1
                        else:
                            lb[nlb] = q
                            nlb += 1
                while seen[trail[index] >> 1] == 0:
                    index -= 1
                p = trail[index]
                index -= 1
                pending -= 1
                if pending == 0:
                    break
                rl = _reason_of(p >> 1, rbuf, rkind, rval, lits, start, size, cstart, cmem, val, pos,
                         regs[CONFLICTS], cstamp, cheld, held)
                work += rl
            lb[0] = p ^ 1
            # -- shorten: drop the literals the others imply (seen: 1 analysed or in the
            # clause, 2 shown implied, 3 shown not)
            levels = 0
            for k in range(1, nlb):
                levels |= 1 << (level[lb[k] >> 1] & 63)
            keep = 1
            for k in range(1, nlb):
                q = lb[k]
                if rkind[q >> 1] == NONE:
                    lb[keep] = q
                    keep += 1
                    continue
                sp = 0
                stack[sp] = q >> 1
                sp += 1
                mark = ntouched
                implied = True
                while sp > 0 and implied:
                    sp -= 1
                    rl = _reason_of(stack[sp], rbuf, rkind, rval, lits, start, size, cstart, cmem, val, pos,
                         regs[CONFLICTS], cstamp, cheld, held)
                    work += rl
                    for kk in range(rl):
                        w = rbuf[kk] >> 1
                        if level[w] == 0 or seen[w] == 1 or seen[w] == 2:
                            continue
                        if seen[w] == 3 or rkind[w] == NONE or not (levels >> (level[w] & 63)) & 1:
                            implied = False
                            break
                        seen[w] = 2
                        touched[ntouched] = w
                        ntouched += 1
                        stack[sp] = w
                        sp += 1
                if not implied:
                    for kk in range(mark, ntouched):
                        seen[touched[kk]] = 3
                    lb[keep] = q
                    keep += 1
            nlb = keep
            for k in range(ntouched):
                seen[touched[k]] = 0
            inc[0] = a_inc / inc[1]
            if inc[0] > 1e100:
                for v in range(n):
                    act[v] *= 1e-100
                inc[0] *= 1e-100
            # -- jump back to where the clause asserts its first literal
            back = 0
            if nlb > 1:
                top = 1
                for k in range(2, nlb):
                    if level[lb[k] >> 1] > level[lb[top] >> 1]:
                        top = k
                x = lb[1]
                lb[1] = lb[top]
                lb[top] = x
                back = level[lb[1] >> 1]
            work += regs[TLEN] - lim[back]
            _backtrack(back, regs, val, phase, trail, lim, ostart, occ, ntrue, nfalse, heap, hidx, act)
            if nlb == 1:
                _assign(lb[0], 0, NONE, 0, regs, val, level, rkind, rval, pos, trail, ostart, occ, ntrue, nfalse)
            else:
                spans = 1                             # the levels it spans: the last one, and
                stamp = regs[CONFLICTS]               # each other one met (stamped once)
                for k in range(1, nlb):
                    lv = level[lb[k] >> 1]
                    if stamped[lv] != stamp:
                        stamped[lv] = stamp
                        spans += 1
                held_lits, held_start, held_size, held_learnt, held_span, held_pool, ci = _add_clause(
                    regs, lb, nlb, 1, spans, held_lits, held_start, held_size, held_learnt, held_span,
                    wstart, wlen, wcap, held_pool)
                lits, start, size, learnt, span, pool = _views(held_lits, held_start, held_size, held_learnt,
                                                               held_span, held_pool)
                regs[NLEARNT] += 1
                _assign(lb[0], back, CLAUSE, ci, regs, val, level, rkind, rval, pos, trail, ostart, occ, ntrue, nfalse)
            if regs[CONFLICTS] >= regs[NEXT_REDUCE]:
                regs[NEXT_REDUCE] += regs[REDUCE_STEP] + regs[CONFLICTS] // 10
                held_lits, held_pool = _reduce(regs, val, rkind, rval, held_lits, held_start, held_size,
                                               held_learnt, held_span, wstart, wlen, wcap, held_pool, 2 * n)
                lits, pool = _borrowed(held_lits), _borrowed(held_pool)
            if regs[CONFLICTS] >= conflicts_end:
                break
            continue
        # -- no conflict
        if regs[HERE] >= regs[BUDGET]:
            regs[HERE] = 0
            regs[LUBY] += 1
            regs[BUDGET] = regs[RUNIT] * luby(regs[LUBY])
            regs[RESTARTS] += 1
            _backtrack(0, regs, val, phase, trail, lim, ostart, occ, ntrue, nfalse, heap, hidx, act)
            continue
        if regs[BEST_PHASE] and regs[TLEN] > regs[BEST_SIZE]:
            regs[BEST_SIZE] = regs[TLEN]
            for t in range(regs[TLEN]):
                best[trail[t] >> 1] = trail[t] & 1
        lit = -1
        while regs[HSIZE] > 0:
            v = heap[0]
            last = regs[HSIZE] - 1
            regs[HSIZE] = last
            hidx[v] = -1
            if last > 0:
                heap[0] = heap[last]
                hidx[heap[0]] = 0
                _heap_down(heap, hidx, act, 0, last)
            if val[2 * v] == 0:
                lit = 2 * v + (phase[v] if best[v] < 0 else best[v])
                break
        if lit == -1:                                 # every variable decided: a solution
            for v in range(regs[NCELLS]):
                solution[v] = 1 if val[2 * v] == 1 else 0
            regs[NSOLS] += 1
            if regs[NSOLS] >= regs[LIMIT]:
                regs[DONE] = 1
                break
            held_lits, held_start, held_size, held_learnt, held_span, held_pool = _exclude(
                regs, solution, val, level, rkind, rval, pos, trail, lim, phase, heap, hidx, act,
                held_lits, held_start, held_size, held_learnt, held_span, wstart, wlen, wcap, held_pool,
                ostart, occ, ntrue, nfalse)
            break
        regs[DECISIONS] += 1
        lim[regs[NLIM]] = regs[TLEN]
        regs[NLIM] += 1
        _assign(lit, regs[NLIM], NONE, 0, regs, val, level, rkind, rval, pos, trail, ostart, occ, ntrue, nfalse)
        if regs[DECISIONS] >= decisions_end:
            break
    return held_lits, held_start, held_size, held_learnt, held_span, held_pool, regs[NSOLS] - solutions_before


@njit(cache=True)
def _grown(array, at_least=0):
    bigger = np.zeros(max(2 * array.shape[0], at_least), array.dtype)
    bigger[:array.shape[0]] = array
    return bigger


@njit(cache=True)
def _exclude(regs, ship, val, level, rkind, rval, pos, trail, lim, phase, heap, hidx, act,
             lits, start, size, learnt, span, wstart, wlen, wcap, pool, ostart, occ, ntrue, nfalse):
    """Forbid the solution ``ship`` (a clause: one of its ship cells is water); DONE when that
    leaves nothing to search."""
    _backtrack(0, regs, val, phase, trail, lim, ostart, occ, ntrue, nfalse, heap, hidx, act)
    ncells = regs[NCELLS]
    block = np.zeros(ncells, np.int32)
    free = 0
    for v in range(ncells):
        if ship[v] and val[2 * v + 1] != -1:
            block[free] = 2 * v + 1
            free += 1
    if free == 0:
        regs[DONE] = 1
        return lits, start, size, learnt, span, pool
    if free == 1:
        _assign(block[0], 0, NONE, 0, regs, val, level, rkind, rval, pos, trail, ostart, occ, ntrue, nfalse)
        return lits, start, size, learnt, span, pool
    total = free
    for v in range(ncells):
        if ship[v] and val[2 * v + 1] == -1:
            block[total] = 2 * v + 1
            total += 1
    lits, start, size, learnt, span, pool, _ = _add_clause(
        regs, block, total, 0, 0, lits, start, size, learnt, span, wstart, wlen, wcap, pool)
    return lits, start, size, learnt, span, pool


@njit(cache=True)
def _add_clause(regs, clause, count, kind, spans, lits, start, size, learnt, span, wstart, wlen, wcap, pool):
    """The first ``count`` literals of ``clause`` as a new clause of the arena (``kind``: 0
    given, 1 learnt), watched on its first two; the arrays that may have grown, and its index."""
    ci = regs[NCL]
    if ci == start.shape[0]:
        start = _grown(start)
        size = _grown(size)
        learnt = _grown(learnt)
        span = _grown(span)
    at = regs[ATOP]
    if at + count > lits.shape[0]:
        lits = _grown(lits, at + count)
    lits[at:at + count] = clause[:count]
    start[ci] = at
    size[ci] = count
    learnt[ci] = kind
    span[ci] = spans
    regs[ATOP] = at + count
    regs[NCL] = ci + 1
    regs[NEED] = regs[WTOP] + 2 * (wcap[clause[0]] + wcap[clause[1]]) + 8     # the two lists moved, at most
    pool = _roomy(regs, pool, wlen.shape[0])
    _watch(regs, wstart, wlen, wcap, pool, clause[0], ci)
    _watch(regs, wstart, wlen, wcap, pool, clause[1], ci)
    return lits, start, size, learnt, span, pool, ci


@njit(cache=True)
def _reduce(regs, val, rkind, rval, lits, start, size, learnt, span, wstart, wlen, wcap, pool, n2):
    """Forget half of the learnt clauses, those spanning the most decision levels; keep those
    spanning two or fewer and those that are reasons now. Then lay the arena and the watch
    lists out again without the forgotten ones."""
    ncl = regs[NCL]
    others = np.zeros(ncl, np.int64)
    spans = np.zeros(ncl, np.int64)
    count = 0
    for ci in range(ncl):
        if learnt[ci] != 1 or span[ci] <= 2:
            continue
        first = lits[start[ci]]
        if val[first] == 1 and rkind[first >> 1] == CLAUSE and rval[first >> 1] == ci:
            continue
        others[count] = ci
        spans[count] = span[ci]
        count += 1
    order = np.argsort(spans[:count], kind="mergesort")
    for k in range(count // 2, count):
        learnt[others[order[k]]] = 2
    # The arena again, without the forgotten clauses; reasons follow their clauses.
    renumber = np.full(ncl, -1, np.int64)
    at = 0
    kept = 0
    for ci in range(ncl):
        if learnt[ci] == 2:
            continue
        s, k = start[ci], size[ci]
        lits[at:at + k] = lits[s:s + k]          # never ahead of where it was: a copy down
        start[kept] = at
        size[kept] = k
        learnt[kept] = learnt[ci]
        span[kept] = span[ci]
        renumber[ci] = kept
        at += k
        kept += 1
    n = rkind.shape[0]
    for v in range(n):
        if rkind[v] == CLAUSE and val[2 * v] != 0:
            rval[v] = renumber[rval[v]]
    regs[ATOP] = at
    regs[NCL] = kept
    regs[NLEARNT] -= count - count // 2
    pool = _rebuild(regs, start, lits, learnt, wstart, wlen, wcap, pool, n2)
    return lits, pool

