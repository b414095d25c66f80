"""The genetic solver's inner loop, compiled (numba): scoring a ship's places, moving it,
and min-conflicts repair.

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
        if np.random.random() < noise:
            k = np.random.randint(width)
        else:
            low, ties = np.inf, 0
            for c in range(width):
                if out[c] < low:
                    low, ties = out[c], 1
                elif out[c] == low:
                    ties += 1
            pick, k = np.random.randint(ties), 0
            for c in range(width):
                if out[c] == low:
                    if pick == 0:
                        k = c
                        break
                    pick -= 1
        if first + k != ids[slot]:
            conflict = move_ship(state, lines, conflict, ids[slot], first + k, n, puts, reads, line, line_add)
            ids[slot] = first + k
            fitness = out[k]
    return conflict, fitness, evaluations
