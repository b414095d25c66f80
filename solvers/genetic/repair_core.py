"""The genetic solver's inner loop, compiled (numba): counting a layout, scoring a ship's
places, moving it, greedy placement, min-conflicts repair and the region crossover.

The layout's counts (``state``, ``lines``) and the model's index rows are those of
``solvers.genetic.fleet.FleetModel`` (its docstring describes them; a slot's places are the
range ``first .. last - 1``). Each candidate's rows are read only as far as its length needs
(``4 * n + 6`` entries of ``puts``/``reads``, ``n + 1`` of ``line``). Every value is a whole
number, so the sums are exact in any order.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def penalty(state, lines, conflict, line_target, line_known, hint_at, cells, w_conflict, w_hint, w_tally):
    """The fitness of a layout from its running counts."""
    uncovered = 0
    for h in hint_at:
        if state[cells + h] == 0:
            uncovered += 1
    tallies = 0.0
    for line in range(len(lines)):
        tallies += abs(lines[line] - line_target[line]) * line_known[line]
    return w_conflict * conflict + w_hint * uncovered + w_tally * tallies


@njit(cache=True)
def counts(ids, slot_length, puts, line, line_add, state, lines):
    """Fill a layout's ``state`` and ``lines`` (zeroed, the model's sizes) from its candidates;
    returns its conflict (overlap + touching: per cell, its ships times the other ships' zones there)."""
    for s in range(len(ids)):
        c, n = ids[s], slot_length[s]
        for j in range(4 * n + 6):
            state[puts[c, j]] += 1
        for j in range(n + 1):
            lines[line[c, j]] += line_add[c, j]
    cells = (len(state) - 2) // 2
    conflict = 0.0
    for cell in range(cells):
        conflict += state[cells + cell] * (state[cell] - 1)
    return conflict


@njit(cache=True)
def score_places(state, lines, conflict, here, n, first, last, out, puts, reads, line, line_add,
           line_target, line_known, hint_at, is_hint, cells, w_conflict, w_hint, w_tally):
    """The fitness with the ship on candidate ``here`` (length ``n``) moved to each candidate
    ``first .. last - 1`` in turn, into ``out[:last - first]``."""
    used, across = 4 * n + 6, n + 1
    rest = state.copy()                               # the counts without the ship
    for j in range(used):
        rest[puts[here, j]] -= 1
    lost = 0
    for j in range(used):
        lost += rest[reads[here, j]]
    off = lines - line_target                         # how far each line is from its tally
    for j in range(across):
        off[line[here, j]] -= line_add[here, j]
    free = 0
    for h in hint_at:
        if rest[cells + h] == 0:
            free += 1
    tallies = 0.0
    for k in range(len(off)):
        tallies += abs(off[k]) * line_known[k]
    fixed = w_conflict * (conflict - lost) + w_hint * free + w_tally * tallies
    for c in range(first, last):
        hit = 0.0
        for j in range(used):
            e = reads[c, j]
            hit += w_conflict * rest[e]
            if e < cells and is_hint[e] and rest[cells + e] == 0:
                hit -= w_hint                          # covers a given piece left uncovered
        change = 0.0
        for j in range(across):
            k = line[c, j]
            change += (abs(off[k] + line_add[c, j]) - abs(off[k])) * line_known[k]
        out[c - first] = fixed + hit + w_tally * change


@njit(cache=True)
def move_ship(state, lines, conflict, old, new, n, puts, reads, line, line_add):
    """Move a ship of length ``n`` from candidate ``old`` to ``new``; returns the new conflict."""
    used, across = 4 * n + 6, n + 1
    for j in range(used):
        state[puts[old, j]] -= 1
    lost = gained = 0
    for j in range(used):
        lost += state[reads[old, j]]
        gained += state[reads[new, j]]
    for j in range(used):
        state[puts[new, j]] += 1
    for j in range(across):
        lines[line[old, j]] -= line_add[old, j]
        lines[line[new, j]] += line_add[new, j]
    return conflict - lost + gained


@njit(cache=True)
def troubled(state, lines, ids, slot_length, own, line, line_cap, out):
    """Slots whose ship overlaps or touches another, or lies on an over-full line, into
    ``out``; returns how many. A ship's own zone holds each of its cells once, so it is in
    trouble with another exactly when the zone counts at its cells add up to more than its length."""
    count = 0
    for s in range(len(ids)):
        c, n = ids[s], slot_length[s]
        crowded = 0
        for j in range(n):
            crowded += state[own[c, j]]
        bad = crowded > n
        if not bad:
            for j in range(n + 1):
                k = line[c, j]
                if lines[k] > line_cap[k]:
                    bad = True
                    break
        if bad:
            out[count] = s
            count += 1
    return count


@njit(cache=True)
def best(out, width):
    """The index of a lowest of ``out[:width]``, ties broken at random."""
    low, ties = np.inf, 0
    for c in range(width):
        if out[c] < low:
            low, ties = out[c], 1
        elif out[c] == low:
            ties += 1
    pick = np.random.randint(ties)
    for c in range(width):
        if out[c] == low:
            if pick == 0:
                return c
            pick -= 1
    return 0


@njit(cache=True)
def greedy(state, lines, ids, conflict, order, seed, slot_length, slot_first, slot_last, puts, reads, line,
           line_add, line_target, line_known, hint_at, is_hint, cells, w_conflict, w_hint, w_tally):
    """Move the ships of the slots in ``order``, one by one, each to a best place for it then
    (ties at random). Changes ``state``, ``lines`` and ``ids`` in place; returns (conflict,
    fitness, candidates scored)."""
    np.random.seed(seed)
    widest = 0
    for s in range(len(ids)):
        widest = max(widest, slot_last[s] - slot_first[s])
    out = np.empty(widest)
    fitness = penalty(state, lines, conflict, line_target, line_known, hint_at, cells, w_conflict, w_hint, w_tally)
    evaluations = 0
    for slot in order:
        n, first, last = slot_length[slot], slot_first[slot], slot_last[slot]
        score_places(state, lines, conflict, ids[slot], n, first, last, out, puts, reads, line, line_add,
                     line_target, line_known, hint_at, is_hint, cells, w_conflict, w_hint, w_tally)
        evaluations += last - first
        k = best(out, last - first)
        conflict = move_ship(state, lines, conflict, ids[slot], first + k, n, puts, reads, line, line_add)
        ids[slot] = first + k
        fitness = out[k]
    return conflict, fitness, evaluations


@njit(cache=True, nogil=True)
def repair_steps(state, lines, ids, conflict, fitness, steps, noise, trouble_first, seed,
           slot_length, slot_first, slot_last, puts, reads, own, line, line_add, line_target,
           line_known, line_cap, hint_at, is_hint, cells, w_conflict, w_hint, w_tally):
    """``steps`` of min-conflicts: pick a troubled ship (``trouble_first`` of the time, else
    any ship) and move it to its best candidate (ties at random; with probability ``noise``,
    to a random one). Changes ``state``, ``lines`` and ``ids`` in place; returns
    (conflict, fitness, candidates scored)."""
    np.random.seed(seed)
    slots = len(ids)
    widest = 0
    for s in range(slots):
        widest = max(widest, slot_last[s] - slot_first[s])
    out = np.empty(widest)
    trouble = np.empty(slots, dtype=np.int64)
    evaluations = 0
    for _ in range(steps):
        if fitness == 0 or slots == 0:
            break
        count = 0
        if np.random.random() < trouble_first:
            count = troubled(state, lines, ids, slot_length, own, line, line_cap, trouble)
        slot = trouble[np.random.randint(count)] if count else np.random.randint(slots)
        n, first, last = slot_length[slot], slot_first[slot], slot_last[slot]
        score_places(state, lines, conflict, ids[slot], n, first, last, out, puts, reads, line, line_add,
               line_target, line_known, hint_at, is_hint, cells, w_conflict, w_hint, w_tally)
        width = last - first
        evaluations += width
        k = np.random.randint(width) if np.random.random() < noise else best(out, width)
        if first + k != ids[slot]:
            conflict = move_ship(state, lines, conflict, ids[slot], first + k, n, puts, reads, line, line_add)
            ids[slot] = first + k
            fitness = out[k]
    return conflict, fitness, evaluations


@njit(cache=True)
def _shuffle(items, count):
    """The first ``count`` of ``items`` in random order, in place."""
    for i in range(count - 1, 0, -1):
        j = np.random.randint(i + 1)
        items[i], items[j] = items[j], items[i]


@njit(cache=True)
def _holds(pool, count, item):
    """Whether the first ``count`` of ``pool`` hold ``item``."""
    for i in range(count):
        if pool[i] == item:
            return True
    return False


@njit(cache=True)
def region_crossover(mother, father, centre, cut, run_first, run_last, seed):
    """The mother's ships whose ``centre`` lies below ``cut`` and the father's above it, for
    each run of slots of one length (``run_first .. run_last - 1``); a run left long drops some
    at random, one left short takes the parents' other ships of that length at random (then,
    for parents that overlap themselves, the mother's first ones)."""
    np.random.seed(seed)
    genes = mother.copy()
    pool = np.empty(2 * len(mother), dtype=np.int64)
    for r in range(len(run_first)):
        first, last = run_first[r], run_last[r]
        want = last - first
        taken = 0
        for side in range(2):                   # the ships on each parent's side of the cut
            for s in range(first, last):
                c = mother[s] if side == 0 else father[s]
                if ((centre[c] < cut) if side == 0 else (centre[c] > cut)) and not _holds(pool, taken, c):
                    pool[taken] = c
                    taken += 1
        if taken > want:
            _shuffle(pool, taken)
        else:
            rest = taken
            for side in range(2):               # the parents' other ships of the length
                for s in range(first, last):
                    c = mother[s] if side == 0 else father[s]
                    if not _holds(pool, rest, c):
                        pool[rest] = c
                        rest += 1
            _shuffle(pool[taken:], rest - taken)
            for i in range(min(rest, want), want):
                pool[i] = mother[first + i - min(rest, want)]
        for i in range(want):
            genes[first + i] = pool[i]
    return genes
