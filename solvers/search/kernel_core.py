"""The forward search's propagation on flat arrays, compiled by numba (see
:mod:`solvers.search.kernel`).

:func:`propagate` mirrors :func:`solvers.search.propagate.propagate` without its log: the
same rules in the same order, each function named after the rule it mirrors. A cell set is a
byte per cell (``r * stride + c``, as in ``game.ships``), a placement set is 64-bit words
(placement ``p``: bit ``p % 64`` of word ``p // 64``). The tables are one tuple ``T``, built
by :func:`solvers.search.kernel.tables_of` and unpacked by each function.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.flat_core import pack

ONE = np.uint64(1)
ZERO = np.uint64(0)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)

# Where a failure is blamed (``Work.fail``): nothing, a row, a column, cells, a length.
NO_BLAME, ROW, COL, CELLS, LENGTH = 0, 1, 2, 3, 4
BLAME_KINDS = ("", "row", "col", "cells", "length")      # their names in ``Work.fail``
# The scalars of a propagation in progress, in one array ``F``.
# Cells set and not yet looked at are kept as lists (``fresh_*``, the batch being looked at
# in ``new_*``), with their lengths in ``F``; the blamed cells follow ``SEGMENTS``.
FRESH, ALL_LINES, COVER_CHECK, BLAME, BLAME_INDEX = 0, 1, 2, 3, 4
N_FRESH_SHIP, N_FRESH_WATER, N_NEW_SHIP, N_NEW_WATER, SEGMENTS = 5, 6, 7, 8, 9


@njit(cache=True)
def _count(x):
    """The set bits of a word."""
    x = x - ((x >> ONE) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def _lowest(x):
    """The index of a word's lowest set bit (the word is not 0)."""
    return _count((x & (~x + ONE)) - ONE)


@njit(cache=True)
def _has(words, p):
    return (words[p >> 6] >> np.uint64(p & 63)) & ONE


@njit(cache=True)
def _size(words):
    n = 0
    for w in range(len(words)):
        n += _count(words[w])
    return n


@njit(cache=True)
def _any(values):
    for k in range(len(values)):
        if values[k]:
            return True
    return False


@njit(cache=True)
def _add_ship(i, ship, fresh_ship, F):
    ship[i] = 1
    fresh_ship[F[N_FRESH_SHIP]] = i
    F[N_FRESH_SHIP] += 1
    F[FRESH] = 1


@njit(cache=True)
def _add_water(i, water, fresh_water, F):
    water[i] = 1
    fresh_water[F[N_FRESH_WATER]] = i
    F[N_FRESH_WATER] += 1
    F[FRESH] = 1


@njit(cache=True)
def _fail(F, kind, index):
    """``Work.fail``: the first failure is the one blamed."""
    if F[BLAME] == NO_BLAME:
        F[BLAME] = kind
        F[BLAME_INDEX] = index
    return False


@njit(cache=True)
def _common(T, placements, cells_out, halo_out, S):
    """``propagate.common``: the cells every placement of the set covers, and those every
    one's halo holds (every board cell for an empty set)."""
    (nb, onb, orth, diag, p_cells, p_halo, p_li, p_cellw, p_halow, cover_w, surround_w, kills_w, kill_cellw,
     length_w, lengths, line_row, line_index, line_cells, line_n, line_tally, along_ptr, along_idx,
     cell_lines) = T
    words = p_cellw.shape[1]
    cells = S[3][0]
    halo = S[3][1]
    for v in range(words):
        cells[v] = ALL
        halo[v] = ALL
    for w in range(len(placements)):
        x = placements[w]
        while x:
            low = x & (~x + ONE)
            x ^= low
            p = w * 64 + _lowest(low)
            for v in range(words):
                cells[v] &= p_cellw[p, v]
                halo[v] &= p_halow[p, v]
    for i in range(nb):
        cells_out[i] = 0
        halo_out[i] = 0
        if onb[i]:
            if (cells[i >> 6] >> np.uint64(i & 63)) & ONE:
                cells_out[i] = 1
            if (halo[i >> 6] >> np.uint64(i & 63)) & ONE:
                halo_out[i] = 1


@njit(cache=True)
def _settle(cells, halo, ship, water, fresh_ship, fresh_water, F):
    """``Work.settle``: ``cells`` become ship, then ``halo`` water; False on a clash."""
    nb = len(ship)
    for i in range(nb):
        if cells[i] and not ship[i] and water[i]:
            return False
    for i in range(nb):
        if cells[i] and not ship[i]:
            _add_ship(i, ship, fresh_ship, F)
    for i in range(nb):
        if halo[i] and not water[i] and ship[i]:
            return False
    for i in range(nb):
        if halo[i] and not water[i]:
            _add_water(i, water, fresh_water, F)
    return True


@njit(cache=True)
def _settle_common(T, placements, ship, water, fresh_ship, fresh_water, F, S):
    """What every placement of the set covers is ship, what every one's halo holds is water
    (``common``, then ``Work.settle`` when that is news); False on a clash."""
    cells = S[0][1]
    halo = S[0][2]
    _common(T, placements, cells, halo, S)
    for i in range(len(ship)):
        if (cells[i] and not ship[i]) or (halo[i] and not water[i]):
            return _settle(cells, halo, ship, water, fresh_ship, fresh_water, F)
    return True


@njit(cache=True)
def _place_queued(T, to_place, ship, water, placed, alive, counts, fresh_ship, fresh_water, settled_ship,
                  settled_water, killed, killed_cells, F):
    """``propagate.place_queued``: each queued placement's cells become ship, its halo water,
    the placements it kills die, and its length has one ship fewer to place."""
    (nb, onb, orth, diag, p_cells, p_halo, p_li, p_cellw, p_halow, cover_w, surround_w, kills_w, kill_cellw,
     length_w, lengths, line_row, line_index, line_cells, line_n, line_tally, along_ptr, along_idx,
     cell_lines) = T
    words = len(alive)
    for w in range(words):
        x = to_place[w]
        to_place[w] = ZERO
        while x:
            low = x & (~x + ONE)
            x ^= low
            p = w * 64 + _lowest(low)
            if not _has(alive, p):
                return False
            for k in range(p_cells.shape[1]):
                i = p_cells[p, k]
                if i >= 0 and water[i]:
                    return False
            for k in range(p_halo.shape[1]):
                i = p_halo[p, k]
                if i >= 0 and ship[i]:
                    return False
            for k in range(p_cells.shape[1]):
                i = p_cells[p, k]
                if i >= 0:
                    if not ship[i]:
                        _add_ship(i, ship, fresh_ship, F)
                    placed[i] = 1
                    settled_ship[i] = 1
            for k in range(p_halo.shape[1]):
                i = p_halo[p, k]
                if i >= 0:
                    if not water[i]:
                        _add_water(i, water, fresh_water, F)
                    settled_water[i] = 1
            for v in range(words):
                alive[v] &= ~kills_w[p, v]
                killed[v] |= kills_w[p, v]
            for v in range(len(killed_cells)):
                killed_cells[v] |= kill_cellw[p, v]
            li = p_li[p]
            counts[li] -= 1
            if counts[li] < 0:
                return False
            if counts[li] == 0:
                for v in range(words):
                    alive[v] &= ~length_w[li, v]
    return True


@njit(cache=True)
def _cell_rules(T, ship, water, alive, new_ship, new_water, hit_line, ship_line, fresh_ship, fresh_water,
                settled_ship, settled_water, F, S):
    """``propagate.CELL_RULES`` on one batch (the cells of ``new_*``; the lines it touched
    and those with new ship cells flagged in ``hit_line`` and ``ship_line``): water kills the
    placements over it, ship those whose halo holds it, a ship cell's diagonals are water,
    then the line rules."""
    (nb, onb, orth, diag, p_cells, p_halo, p_li, p_cellw, p_halow, cover_w, surround_w, kills_w, kill_cellw,
     length_w, lengths, line_row, line_index, line_cells, line_n, line_tally, along_ptr, along_idx,
     cell_lines) = T
    words = len(alive)
    # water_kills_placements
    for a in range(F[N_NEW_WATER]):
        i = new_water[a]
        if not settled_water[i]:
            for v in range(words):
                alive[v] &= ~cover_w[i, v]
    # ship_kills_placements
    for a in range(F[N_NEW_SHIP]):
        i = new_ship[a]
        if not settled_ship[i]:
            for v in range(words):
                alive[v] &= ~surround_w[i, v]
    # diagonals_are_water
    around = S[0][0]
    listed = S[1][0]
    n = 0
    clash = False
    for a in range(F[N_NEW_SHIP]):
        i = new_ship[a]
        if not settled_ship[i]:
            for k in range(4):
                j = diag[i, k]
                if j >= 0 and not around[j]:
                    around[j] = 1
                    listed[n] = j
                    n += 1
                    if ship[j]:
                        clash = True
    if clash:
        for i in range(nb):
            F[SEGMENTS + 1 + i] = 1 if around[i] and ship[i] else 0
    for a in range(n):
        j = listed[a]
        around[j] = 0
        if not clash and not water[j]:
            _add_water(j, water, fresh_water, F)
    if clash:
        return _fail(F, CELLS, 0)
    return _line_tallies(T, ship, water, alive, hit_line, ship_line, fresh_ship, fresh_water, F)


@njit(cache=True)
def _line_tallies(T, ship, water, alive, hit_line, ship_line, fresh_ship, fresh_water, F):
    """``propagate.line_tallies``: the tally rules on each tallied line the batch touched
    whose tally is tight, then the room rule on those with new ship cells."""
    (nb, onb, orth, diag, p_cells, p_halo, p_li, p_cellw, p_halow, cover_w, surround_w, kills_w, kill_cellw,
     length_w, lengths, line_row, line_index, line_cells, line_n, line_tally, along_ptr, along_idx,
     cell_lines) = T
    longest = lengths[0] if len(lengths) else 0
    for k in range(len(line_tally)):
        if not hit_line[k]:
            continue
        n = line_n[k]
        new_ship = ship_line[k]
        tally = line_tally[k]
        ships = 0
        free = 0
        for j in range(n):
            i = line_cells[k, j]
            if ship[i]:
                ships += 1
            elif not water[i]:
                free += 1
        if (ships >= tally or ships + free <= tally) and (free or ships != tally):
            # tally_within_reach
            if ships > tally or ships + free < tally:
                return _fail(F, ROW if line_row[k] else COL, line_index[k])
            # tally_met
            if free and ships == tally:
                for j in range(n):
                    i = line_cells[k, j]
                    if not ship[i] and not water[i]:
                        _add_water(i, water, fresh_water, F)
            # needs_every_unknown
            have = 0
            unknown = 0
            for j in range(n):
                i = line_cells[k, j]
                if ship[i]:
                    have += 1
                elif not water[i]:
                    unknown += 1
            if unknown and have + unknown == tally:
                for j in range(n):
                    i = line_cells[k, j]
                    if not ship[i] and not water[i]:
                        _add_ship(i, ship, fresh_ship, F)
        if new_ship and 0 < tally - ships < longest:
            # longer_than_room
            room = tally
            for j in range(n):
                if ship[line_cells[k, j]]:
                    room -= 1
            if 0 < room < longest:
                for a in range(along_ptr[k], along_ptr[k + 1]):
                    p = along_idx[a]
                    if _has(alive, p):
                        extra = 0
                        for c in range(p_cells.shape[1]):
                            i = p_cells[p, c]
                            if i >= 0 and not ship[i]:
                                extra += 1
                        if extra > room:
                            alive[p >> 6] &= ~(ONE << np.uint64(p & 63))
    return True


@njit(cache=True)
def _fleet_count(T, alive, counts, to_place, F):
    """``propagate.fleet_count``: too few placements of a length left breaks the board; just
    enough, and they are all placed."""
    (nb, onb, orth, diag, p_cells, p_halo, p_li, p_cellw, p_halow, cover_w, surround_w, kills_w, kill_cellw,
     length_w, lengths, line_row, line_index, line_cells, line_n, line_tally, along_ptr, along_idx,
     cell_lines) = T
    words = len(alive)
    for li in range(len(counts)):
        left = counts[li]
        if not left:
            continue
        found = 0
        for v in range(words):
            found += _count(alive[v] & length_w[li, v])
        if found < left:
            return _fail(F, LENGTH, li)
        if found == left:
            for v in range(words):
                to_place[v] |= alive[v] & length_w[li, v]
    return True


@njit(cache=True)
def _segments_need_a_ship(T, ship, water, placed, alive, to_place, fresh_ship, fresh_water, seg_cover, F, S):
    """``propagate.segments_need_a_ship``: each unplaced ship segment (in the order of its
    lowest cell) needs one placement over it; the segments' covers are kept in ``seg_cover``
    for the next rule."""
    (nb, onb, orth, diag, p_cells, p_halo, p_li, p_cellw, p_halow, cover_w, surround_w, kills_w, kill_cellw,
     length_w, lengths, line_row, line_index, line_cells, line_n, line_tally, along_ptr, along_idx,
     cell_lines) = T
    words = len(alive)
    seg_of = S[1][0]
    stack = S[1][1]
    seg_cells = S[1][2]
    seg_start = S[1][3]
    for i in range(nb):
        seg_of[i] = -1
    n_seg = 0
    used = 0
    for start in range(nb):
        if not ship[start] or placed[start] or seg_of[start] >= 0:
            continue
        seg_start[n_seg] = used
        seg_of[start] = n_seg
        stack[0] = start
        top = 1
        while top:
            top -= 1
            i = stack[top]
            seg_cells[used] = i
            used += 1
            for k in range(4):
                j = orth[i, k]
                if j >= 0 and ship[j] and not placed[j] and seg_of[j] < 0:
                    seg_of[j] = n_seg
                    stack[top] = j
                    top += 1
        for v in range(words):
            cover = alive[v]
            for a in range(seg_start[n_seg], used):
                cover &= cover_w[seg_cells[a], v]
            seg_cover[n_seg, v] = cover
        n_seg += 1
    seg_start[n_seg] = used
    F[SEGMENTS] = n_seg
    for s in range(n_seg):
        size = 0
        for v in range(words):
            size += _count(seg_cover[s, v])
        if size == 0:
            for i in range(nb):
                F[SEGMENTS + 1 + i] = 0
            for a in range(seg_start[s], seg_start[s + 1]):
                F[SEGMENTS + 1 + seg_cells[a]] = 1
            return _fail(F, CELLS, 0)
        if size == 1:
            for v in range(words):
                to_place[v] |= seg_cover[s, v]
            continue
        if not _settle_common(T, seg_cover[s], ship, water, fresh_ship, fresh_water, F, S):
            return False
    return True


@njit(cache=True)
def _distinct_segments(T, counts, seg_cover, F, S):
    """``propagate.distinct_segments``: segments no placement covers together need as many
    ships of at least their shortest cover's length as are left."""
    (nb, onb, orth, diag, p_cells, p_halo, p_li, p_cellw, p_halow, cover_w, surround_w, kills_w, kill_cellw,
     length_w, lengths, line_row, line_index, line_cells, line_n, line_tally, along_ptr, along_idx,
     cell_lines) = T
    n_seg = F[SEGMENTS]
    if n_seg < 2:
        return True
    words = seg_cover.shape[1]
    seen = S[2][0]
    needs = S[1][4]
    for v in range(words):
        seen[v] = ZERO
    for s in range(n_seg):
        for v in range(words):
            if seg_cover[s, v] & seen[v]:
                return True
        for v in range(words):
            seen[v] |= seg_cover[s, v]
        li = len(lengths) - 1
        while True:
            meets = False
            for v in range(words):
                if seg_cover[s, v] & length_w[li, v]:
                    meets = True
            if meets:
                break
            li -= 1
        needs[s] = lengths[li]
    ships_left = 0
    for li in range(len(lengths)):
        ships_left += counts[li]
        wanting = 0
        for s in range(n_seg):
            if needs[s] >= lengths[li]:
                wanting += 1
        if wanting > ships_left:
            return False
    return True


@njit(cache=True)
def _covered(alive, cover_w, i):
    for v in range(len(alive)):
        if alive[v] & cover_w[i, v]:
            return True
    return False


@njit(cache=True)
def _uncovered_is_water(T, ship, water, alive, cover_alive, killed, killed_cells, fresh_water, F, S):
    """``propagate.uncovered_is_water``: an unknown cell no alive placement covers is water;
    only the cells of placements that died since the last look are looked at (every unknown
    cell on a first look); ``killed_cells``, the cells of those placing killed, are words."""
    (nb, onb, orth, diag, p_cells, p_halo, p_li, p_cellw, p_halow, cover_w, surround_w, kills_w, kill_cellw,
     length_w, lengths, line_row, line_index, line_cells, line_n, line_tally, along_ptr, along_idx,
     cell_lines) = T
    words = len(alive)
    if F[COVER_CHECK]:
        F[COVER_CHECK] = 0
        for i in range(nb):
            if onb[i] and not ship[i] and not water[i] and not _covered(alive, cover_w, i):
                _add_water(i, water, fresh_water, F)
    else:
        look = S[3][0]
        for v in range(len(look)):
            look[v] = killed_cells[v]
        for w in range(words):
            x = cover_alive[w] & ~alive[w] & ~killed[w]
            while x:
                low = x & (~x + ONE)
                x ^= low
                p = w * 64 + _lowest(low)
                for v in range(len(look)):
                    look[v] |= p_cellw[p, v]
        for v in range(len(look)):
            x = look[v]
            while x:
                low = x & (~x + ONE)
                x ^= low
                i = v * 64 + _lowest(low)
                if not ship[i] and not water[i] and not _covered(alive, cover_w, i):
                    _add_water(i, water, fresh_water, F)
    for v in range(len(killed_cells)):
        killed_cells[v] = ZERO
    for w in range(words):
        killed[w] = ZERO
        cover_alive[w] = alive[w]
    return True


@njit(cache=True)
def _last_ship_of_a_length(T, ship, water, alive, counts, fresh_ship, fresh_water, F, S):
    """``propagate.last_ship_of_a_length``: what every placement of a length's last ship
    covers is ship, what every one's halo holds is water."""
    (nb, onb, orth, diag, p_cells, p_halo, p_li, p_cellw, p_halow, cover_w, surround_w, kills_w, kill_cellw,
     length_w, lengths, line_row, line_index, line_cells, line_n, line_tally, along_ptr, along_idx,
     cell_lines) = T
    words = len(alive)
    options = S[2][0]
    for li in range(len(counts)):
        if counts[li] != 1:
            continue
        for v in range(words):
            options[v] = alive[v] & length_w[li, v]
        if _size(options) > 2 * lengths[li]:
            continue
        if not _settle_common(T, options, ship, water, fresh_ship, fresh_water, F, S):
            return False
    return True


@njit(cache=True)
def _unpack(raw, at, count, out):
    """``count`` bits of ``raw`` from byte ``at`` as a byte each (``out`` starts zeroed)."""
    for b in range((count + 7) >> 3):
        byte = raw[at + b]
        if byte:
            for bit in range(8):
                if (byte >> bit) & 1 and 8 * b + bit < count:
                    out[8 * b + bit] = 1


@njit(cache=True)
def _words(raw, at, count, out):
    """``count`` bytes of ``raw`` from ``at`` as little-endian 64-bit words."""
    for w in range(len(out)):
        out[w] = ZERO
    for b in range(count):
        out[b >> 3] |= np.uint64(raw[at + b]) << np.uint64(8 * (b & 7))


@njit(cache=True)
def _ints(ints, k):
    """Table ``k`` of the integer blob (see :func:`solvers.search.kernel.tables_of`), 2-D."""
    at = 1 + 4 * k
    return ints[ints[at + 1]:ints[at + 1] + ints[at + 2] * ints[at + 3]].reshape(ints[at + 2], ints[at + 3])


@njit(cache=True)
def _ints1(ints, k):
    """Table ``k`` of the integer blob, a row (no reshape: a slice)."""
    at = 1 + 4 * k
    return ints[ints[at + 1]:ints[at + 1] + ints[at + 3]]


@njit(cache=True)
def _wordtable(ints, words_, k):
    """Table ``k`` of the word blob, 2-D."""
    at = 1 + 4 * k
    return words_[ints[at + 1]:ints[at + 1] + ints[at + 2] * ints[at + 3]].reshape(ints[at + 2], ints[at + 3])


@njit(cache=True)
def _unblob(ints, words_):
    """The tables ``T`` from the two blobs (one array of integers, one of words: a call
    passes two arrays, not two dozen)."""
    i, w = ints, words_
    return (i[0], _ints1(i, 0), _ints(i, 1), _ints(i, 2), _ints(i, 3), _ints(i, 4), _ints1(i, 5),
            _wordtable(i, w, 6), _wordtable(i, w, 7), _wordtable(i, w, 8), _wordtable(i, w, 9),
            _wordtable(i, w, 10), _wordtable(i, w, 11), _wordtable(i, w, 12), _ints1(i, 13), _ints1(i, 14),
            _ints1(i, 15), _ints(i, 16), _ints1(i, 17), _ints1(i, 18), _ints1(i, 19), _ints1(i, 20), _ints(i, 21))


@njit(cache=True)
def propagate(ints, words_, raw, cb, pb, all_lines, probe):
    """``propagate.propagate`` without a log. ``ints`` and ``words_`` hold the tables
    (:func:`_unblob`); ``raw`` holds, as little-endian bit strings of ``cb`` bytes (cells) or
    ``pb`` bytes (placements): the state's ship, water and placed cells, the ship and water
    cells to set, the state's alive placements, those to kill, those to place, then a byte
    per length (ships left). Returns bytes: 1 if the board holds, the blame's kind and index
    (two bytes), the blamed cells, then the new state's ship, water and placed cells, alive
    placements and ships left."""
    T = _unblob(ints, words_)
    (nb, onb, orth, diag, p_cells, p_halo, p_li, p_cellw, p_halow, cover_w, surround_w, kills_w, kill_cellw,
     length_w, lengths, line_row, line_index, line_cells, line_n, line_tally, along_ptr, along_idx,
     cell_lines) = T
    words = cover_w.shape[1]
    n_lengths = len(lengths)
    cells = np.zeros((11, nb), np.uint8)       # the cell sets, one row each, then scratch (row 7 kept 0)
    ship, water, placed, add_ship, add_water, settled_ship, settled_water = (
        cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6])
    killed_cells = np.zeros(p_cellw.shape[1], np.uint64)    # the cells of the placements placing killed
    lists = np.empty((4, nb), np.int64)         # the fresh cells and the batch, as lists
    fresh_ship, fresh_water, new_ship, new_water = lists[0], lists[1], lists[2], lists[3]
    n_lines = len(line_tally)
    hit_line = np.zeros(n_lines, np.uint8)
    ship_line = np.zeros(n_lines, np.uint8)
    sets = np.zeros((6, words), np.uint64)    # the placement sets, then one row of scratch
    alive, kill, to_place, cover_alive, killed = sets[0], sets[1], sets[2], sets[3], sets[4]
    S = (cells[7:], np.empty((5, nb + 1), np.int64), sets[5:], np.empty((2, p_cellw.shape[1]), np.uint64))
    _unpack(raw, 0, nb, ship)
    _unpack(raw, cb, nb, water)
    _unpack(raw, 2 * cb, nb, placed)
    _unpack(raw, 3 * cb, nb, add_ship)
    _unpack(raw, 4 * cb, nb, add_water)
    _words(raw, 5 * cb, pb, alive)
    _words(raw, 5 * cb + pb, pb, kill)
    _words(raw, 5 * cb + 2 * pb, pb, to_place)
    counts = np.empty(n_lengths, np.int64)
    for li in range(n_lengths):
        counts[li] = raw[5 * cb + 3 * pb + li]
    F = np.zeros(SEGMENTS + 1 + nb, np.int64)
    F[ALL_LINES] = all_lines
    F[COVER_CHECK] = all_lines
    for v in range(words):
        cover_alive[v] = alive[v]
    seg_cover = np.empty((nb, words), np.uint64)
    for v in range(words):
        alive[v] &= ~kill[v]
    for i in range(nb):
        if add_ship[i] and not ship[i]:
            _add_ship(i, ship, fresh_ship, F)
    for i in range(nb):
        if add_water[i] and not water[i]:
            _add_water(i, water, fresh_water, F)
    held = True
    while held:
        if _any(to_place) and not _place_queued(T, to_place, ship, water, placed, alive, counts, fresh_ship,
                                                fresh_water, settled_ship, settled_water, killed, killed_cells, F):
            held = False
            break
        # the cell rules, batch by batch (``Work.next_batch``)
        while held and (F[FRESH] or F[ALL_LINES]):
            for a in range(F[N_FRESH_SHIP]):
                new_ship[a] = fresh_ship[a]
            for a in range(F[N_FRESH_WATER]):
                new_water[a] = fresh_water[a]
            F[N_NEW_SHIP] = F[N_FRESH_SHIP]
            F[N_NEW_WATER] = F[N_FRESH_WATER]
            F[N_FRESH_SHIP] = 0
            F[N_FRESH_WATER] = 0
            F[FRESH] = 0
            if F[ALL_LINES]:
                for k in range(n_lines):
                    hit_line[k] = 1
                    ship_line[k] = 1
                F[ALL_LINES] = 0
            else:
                for k in range(n_lines):
                    hit_line[k] = 0
                    ship_line[k] = 0
                for a in range(F[N_NEW_SHIP]):
                    for side in range(2):
                        k = cell_lines[new_ship[a], side]
                        if k >= 0:
                            hit_line[k] = 1
                            ship_line[k] = 1
                for a in range(F[N_NEW_WATER]):
                    for side in range(2):
                        k = cell_lines[new_water[a], side]
                        if k >= 0:
                            hit_line[k] = 1
            held = _cell_rules(T, ship, water, alive, new_ship, new_water, hit_line, ship_line, fresh_ship,
                               fresh_water, settled_ship, settled_water, F, S)
        if not held:
            break
        # the board rules, back to the cheap ones on any change (``PROBE_RULES`` for a probe)
        light = probe and _any(counts)
        changed = False
        for rule in range(5):
            if rule == 0:
                held = _fleet_count(T, alive, counts, to_place, F)
            elif rule == 1:
                held = _segments_need_a_ship(T, ship, water, placed, alive, to_place, fresh_ship, fresh_water,
                                             seg_cover, F, S)
            elif rule == 2:
                held = _distinct_segments(T, counts, seg_cover, F, S)
            elif rule == 3:
                if light:
                    continue
                held = _uncovered_is_water(T, ship, water, alive, cover_alive, killed, killed_cells, fresh_water, F,
                                           S)
            else:
                held = _last_ship_of_a_length(T, ship, water, alive, counts, fresh_ship, fresh_water, F, S)
            if not held:
                break
            if _any(to_place) or F[FRESH]:
                changed = True
                break
        if held and not changed:
            break
    out = np.zeros(3 + 4 * cb + pb + n_lengths, np.uint8)
    if not held:
        out[1] = F[BLAME]
        out[2] = F[BLAME_INDEX]
        if F[BLAME] == CELLS:
            pack(F[SEGMENTS + 1:], out, 3)
        return out
    out[0] = 1
    pack(ship, out, 3 + cb)
    pack(water, out, 3 + 2 * cb)
    pack(placed, out, 3 + 3 * cb)
    at = 3 + 4 * cb
    for w in range(words):
        x = alive[w]
        for b in range(8):
            if at + 8 * w + b < 3 + 4 * cb + pb:
                out[at + 8 * w + b] = np.uint8((x >> np.uint64(8 * b)) & np.uint64(255))
    for li in range(n_lengths):
        out[3 + 4 * cb + pb + li] = counts[li]
    return out


@njit(cache=True)
def best_cell(ints, words_, alive_raw, unknown_raw, row_weight, col_weight, stride, best_score):
    """The unknown-cell part of ``forward._Search._branches``: the first unknown cell (of the
    bit string ``unknown_raw``) whose score, (placements over it + 1) / (its row's weight + its
    column's), is below ``best_score`` and every earlier cell's. Returns (cell, score), or
    (-1, ``best_score``)."""
    cover_w = _wordtable(ints, words_, 8)
    words = cover_w.shape[1]
    alive = np.empty(words, np.uint64)
    _words(alive_raw, 0, len(alive_raw), alive)
    best = -1
    for b in range(len(unknown_raw)):
        byte = unknown_raw[b]
        if not byte:
            continue
        for bit in range(8):
            if (byte >> bit) & 1:
                i = 8 * b + bit
                over = 0
                for v in range(words):
                    over += _count(alive[v] & cover_w[i, v])
                score = (over + 1) / (row_weight[i // stride] + col_weight[i % stride])
                if score < best_score:
                    best, best_score = i, score
    return best, best_score
