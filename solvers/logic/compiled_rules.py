"""The level 1-2 rules on flat arrays, compiled by numba (see :mod:`solvers.logic.compiled`).

Each function mirrors one part of :class:`~solvers.logic.analysis.Analysis` or of
:mod:`solvers.logic.rules`, named in its docstring; the state is byte arrays (``ship``,
``water`` per cell, ``places`` per place) and the model's tables (``T``, see
:func:`solvers.logic.compiled.tables_of`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

NO_TALLY = -1


@njit(cache=True)
def _lines(T, ship, water, need, unknown_n, full):
    """``Analysis._read_lines``: per line the ship cells it still needs and its unknown
    cells, the cells of tallied lines that take no more ship (``full``); False if a line
    breaks its tally."""
    (rows, cols, stride, onb, orth, diag, p_len, p_line, p_start, p_cells, p_halo, p_li, lengths, fleet,
     length_index, first_across, first_down, alive, cover_ptr, cover_idx, line_cells, line_n, line_tally,
     along_ptr, along_idx, hint_cell, hint_middle, hint_ship, hint_water, p_cellw, p_halow) = T
    ok = True
    for k in range(rows + cols):
        tally = line_tally[k]
        have = 0
        unknown = 0
        for j in range(line_n[k]):
            i = line_cells[k, j]
            if ship[i]:
                have += 1
            elif not water[i]:
                unknown += 1
        unknown_n[k] = unknown
        if tally == NO_TALLY:
            need[k] = NO_TALLY
            continue
        need[k] = tally - have
        if need[k] <= 0:
            for j in range(line_n[k]):
                full[line_cells[k, j]] = 1
            if need[k] < 0:
                ok = False
        elif need[k] > unknown:
            ok = False
    return ok


@njit(cache=True)
def _segments(T, ship, water, seg_of, seg_cells, seg_info):
    """``Analysis._read_segments``: the ship cells' segments in reading order of their first
    cell. ``seg_info[s]``: its first cell, length, whether straight, across and closed, its
    ends (four, -1 past the last), where its cells start and end in ``seg_cells``, and the
    place it takes when it is a whole ship (-1 if not). Returns (count, False if a segment
    breaks a rule, closed segments of each length)."""
    (rows, cols, stride, onb, orth, diag, p_len, p_line, p_start, p_cells, p_halo, p_li, lengths, fleet,
     length_index, first_across, first_down, alive, cover_ptr, cover_idx, line_cells, line_n, line_tally,
     along_ptr, along_idx, hint_cell, hint_middle, hint_ship, hint_water, p_cellw, p_halow) = T
    nb = rows * stride
    count = 0
    used = 0
    ok = True
    longest = 0
    for k in range(len(lengths)):
        longest = max(longest, lengths[k])
    closed_of = np.zeros(max(rows, cols, longest) + 2, np.int64)    # fleet lengths may exceed the board
    for i in range(nb):
        seg_of[i] = -1
    for start in range(nb):
        if not ship[start] or seg_of[start] >= 0:
            continue
        s = count
        count += 1
        first = used
        seg_cells[used] = start
        seg_of[start] = s
        used += 1
        k = first
        while k < used:
            i = seg_cells[k]
            k += 1
            for d in range(4):
                j = orth[i, d]
                if j >= 0 and ship[j] and seg_of[j] < 0:
                    seg_of[j] = s
                    seg_cells[used] = j
                    used += 1
        length = used - first
        r0, c0, r1, c1 = rows, cols, -1, -1
        low = nb
        for k in range(first, used):
            r, c = seg_cells[k] // stride, seg_cells[k] % stride
            r0, r1, c0, c1 = min(r0, r), max(r1, r), min(c0, c), max(c1, c)
            low = min(low, seg_cells[k])
        straight = r0 == r1 or c0 == c1
        across = length > 1 and r0 == r1
        for e in range(4):
            seg_info[s, 5 + e] = -1
        if length == 1:
            for d in range(4):
                seg_info[s, 5 + d] = orth[low, d]
        elif straight:
            if across:
                if c0 > 0:
                    seg_info[s, 5] = r0 * stride + c0 - 1
                if c1 < cols - 1:
                    seg_info[s, 6] = r0 * stride + c1 + 1
            else:
                if r0 > 0:
                    seg_info[s, 5] = (r0 - 1) * stride + c0
                if r1 < rows - 1:
                    seg_info[s, 6] = (r1 + 1) * stride + c0
        closed = straight
        for e in range(4):
            end = seg_info[s, 5 + e]
            if end >= 0 and not water[end]:
                closed = False
        seg_info[s, 0] = low
        seg_info[s, 1] = length
        seg_info[s, 2] = straight
        seg_info[s, 3] = across
        seg_info[s, 4] = closed
        seg_info[s, 9] = first
        seg_info[s, 10] = used
        seg_info[s, 11] = -1        # the place a whole ship takes, when it is one
        if not straight or length > longest:
            ok = False
        elif closed:
            placed = _place_at(T, length, across, r0, c0)
            seg_info[s, 11] = placed
            if placed >= 0 and not alive[placed]:
                ok = False
            else:
                closed_of[length] += 1
        for k in range(first, used):
            for d in range(4):
                j = diag[seg_cells[k], d]
                if j >= 0 and ship[j]:
                    ok = False
    return count, ok, closed_of


@njit(cache=True)
def _place_at(T, length, across, row, col):
    """``Geometry.placement``: the index of the place of a ship of ``length`` at (row, col)."""
    (rows, cols, stride, onb, orth, diag, p_len, p_line, p_start, p_cells, p_halo, p_li, lengths, fleet,
     length_index, first_across, first_down, alive, cover_ptr, cover_idx, line_cells, line_n, line_tally,
     along_ptr, along_idx, hint_cell, hint_middle, hint_ship, hint_water, p_cellw, p_halow) = T
    across = across or length == 1
    if length >= len(first_across):
        return -1
    first = first_across[length] if across else first_down[length]
    width = cols - (length - 1 if across else 0)
    height = rows - (0 if across else length - 1)
    if first < 0 or not (0 <= row < height and 0 <= col < width):
        return -1
    return first + row * width + col


@njit(cache=True)
def _compute_places(T, ship, shipw, blockedw, need, n_seg, seg_info, seg_cells, remaining, places,
                    thr, thr_ptr, source, source_n, plist, lptr):
    """``Analysis._compute_places``: the places still possible, of those listed in
    ``source[:source_n]`` (in index order): a byte per place in ``places``, listed in
    ``plist`` (those of length index ``li`` at ``plist[lptr[li]:lptr[li + 1]]``); each open
    segment's places (``thr[thr_ptr[s]:thr_ptr[s + 1]]``, before the segments' lengths are
    committed, as ``segment_places`` reads them). ``blockedw``: the cells no place may cover
    (water, and the unknown cells of lines with all their ship cells), as words. Returns
    (False if the board breaks, how many places are listed)."""
    (rows, cols, stride, onb, orth, diag, p_len, p_line, p_start, p_cells, p_halo, p_li, lengths, fleet,
     length_index, first_across, first_down, alive, cover_ptr, cover_idx, line_cells, line_n, line_tally,
     along_ptr, along_idx, hint_cell, hint_middle, hint_ship, hint_water, p_cellw, p_halow) = T
    n_places = len(p_len)
    longest = 0
    for k in range(len(lengths)):
        longest = max(longest, lengths[k])
    ok = True
    # _fits: not on water or a full line's unknown cell, not touching a ship.
    places[:] = 0
    words = len(shipw)
    for a in range(source_n):
        p = source[a]
        if remaining[p_li[p]] > 0:
            keep = True
            for w in range(words):
                if (p_cellw[p, w] & blockedw[w]) | (p_halow[p, w] & shipw[w]):
                    keep = False
                    break
            places[p] = keep
    for s in range(n_seg):
        if seg_info[s, 4] and seg_info[s, 11] >= 0:
            places[seg_info[s, 11]] = 0
    for line in range(rows + cols):
        wanted = need[line]
        if wanted <= 0 or wanted > longest:
            continue
        for a in range(along_ptr[line], along_ptr[line + 1]):
            p = along_idx[a]
            if not places[p] or p_len[p] <= wanted:
                continue
            more = 0
            for k in range(p_len[p]):
                if not ship[p_cells[p, k]]:
                    more += 1
            if more > wanted:
                places[p] = 0
    # Each open segment's places; segments that can only be ships of one length.
    n_lengths = len(lengths)
    committed = np.full(n_seg, -1, np.int64)
    stamp = np.full(n_places, -1, np.int64)
    used = 0
    for s in range(n_seg):
        thr_ptr[s] = used
        if seg_info[s, 4] or not seg_info[s, 2]:
            thr_ptr[s + 1] = used
            continue
        seen = np.zeros(n_lengths, np.uint8)
        for k in range(seg_info[s, 9], seg_info[s, 10]):
            i = seg_cells[k]
            for c in range(cover_ptr[i], cover_ptr[i + 1]):
                p = cover_idx[c]
                if places[p] and stamp[p] != s:
                    stamp[p] = s
                    thr[used] = p
                    used += 1
                    seen[p_li[p]] = 1
        thr_ptr[s + 1] = used
        if used == thr_ptr[s]:
            ok = False
            continue
        kinds = 0
        last = -1
        for li in range(n_lengths):
            if seen[li]:
                kinds += 1
                last = li
        if kinds == 1:
            committed[s] = last
    n_cells = len(ship)
    for li in range(n_lengths):
        group = 0
        for s in range(n_seg):
            if committed[s] == li:
                group += 1
        if group == 0:
            continue
        # Two of them may be parts of one ship: then they need not be different ships.
        shared = False
        for s in range(n_seg):
            if committed[s] != li:
                continue
            union = np.zeros(n_cells, np.uint8)
            for a in range(thr_ptr[s], thr_ptr[s + 1]):
                p = thr[a]
                for k in range(p_len[p]):
                    union[p_cells[p, k]] = 1
            for t in range(n_seg):
                if t == s or committed[t] != li:
                    continue
                for k in range(seg_info[t, 9], seg_info[t, 10]):
                    if union[seg_cells[k]]:
                        shared = True
        if shared:
            continue
        if group > remaining[li]:
            ok = False
        elif group == remaining[li]:
            mark = np.zeros(n_cells, np.uint8)
            for s in range(n_seg):
                if committed[s] == li:
                    for k in range(seg_info[s, 9], seg_info[s, 10]):
                        mark[seg_cells[k]] = 1
            for a in range(source_n):
                p = source[a]
                if places[p] and p_li[p] == li:
                    covers = False
                    for k in range(p_len[p]):
                        if mark[p_cells[p, k]]:
                            covers = True
                    if not covers:
                        places[p] = 0
    n = 0
    lptr[:] = 0
    for a in range(source_n):
        p = source[a]
        if places[p]:
            plist[n] = p
            n += 1
            lptr[p_li[p] + 1] += 1
    for li in range(n_lengths):
        lptr[li + 1] += lptr[li]
    for li in range(n_lengths):
        wanted = remaining[li]
        if wanted <= 0:
            continue
        if lptr[li] == lptr[li + 1]:
            ok = False
        elif wanted > 1 and _room(T, ship, need, plist[lptr[li]:lptr[li + 1]], li, wanted) < wanted:
            ok = False
    return ok, n


@njit(cache=True)
def _room(T, ship, need, own, li, wanted):
    """``Analysis._room``: how many ships of length index ``li`` the lines can hold at most
    (its places ``own``, in index order), or any number of at least ``wanted`` once that many
    are sure to fit."""
    (rows, cols, stride, onb, orth, diag, p_len, p_line, p_start, p_cells, p_halo, p_li, lengths, fleet,
     length_index, first_across, first_down, alive, cover_ptr, cover_idx, line_cells, line_n, line_tally,
     along_ptr, along_idx, hint_cell, hint_middle, hint_ship, hint_water, p_cellw, p_halow) = T
    length = lengths[li]
    n_lines = rows + cols
    # Most often one place in each of a few lines is enough to tell (the lines counted in
    # the order their places come: the count, and so the answer, is the same).
    present = np.zeros(n_lines, np.uint8)
    sure = 0
    for p in own:
        line = p_line[p]
        if not present[line]:
            present[line] = 1
            if need[line] == NO_TALLY or need[line] >= length:
                sure += 1
                if sure >= wanted:
                    return sure
    count = np.zeros(n_lines, np.int64)
    free_from = np.full(n_lines, -2, np.int64)
    sure = 0
    for p in own:
        line, start = p_line[p], p_start[p]
        if start >= free_from[line]:
            count[line] += 1
            free_from[line] = start + length + 1
            if need[line] == NO_TALLY or count[line] <= need[line] // length:
                sure += 1
                if sure >= wanted:
                    return sure
    # Per line, the ship cells its places cover (a cell lies in one row and one column).
    covered = np.zeros((2, len(ship)), np.uint8)
    ship_covered = np.zeros(n_lines, np.int64)
    for p in own:
        side = 0 if p_line[p] < rows else 1
        for k in range(p_len[p]):
            i = p_cells[p, k]
            if ship[i] and not covered[side, i]:
                ship_covered[p_line[p]] += 1
            covered[side, i] = 1
    room = 0
    for line in range(n_lines):
        most = count[line]
        if not most:
            continue
        if line_tally[line] != NO_TALLY:
            budget = need[line] + ship_covered[line]
            most = min(most, budget // length)
        room += most
    return room


@njit(cache=True)
def _solve_line(line, n, tally, is_row, rows, stride, line_cells, p_start, p_len, along_ptr, along_idx, ship, water,
                single, places, seg_info, n_seg, new_ship, new_water, counts):
    """``lines._solve_line`` on one line (``n`` cells, rows first, then columns): every way its
    ``tally`` fits in runs the fleet allows. Marks the cells proved into ``new_ship`` and
    ``new_water``; False if none fits. (It takes the tables it reads, not all of them: it runs
    for every line, and a call that passes every table costs as much as the line.)"""
    # runs[i]: bit k set when a run of k ship cells may start at i; dry[i]: water cells before i.
    runs, dry, free, sealed, rest_free, rest_sealed = counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]
    one = np.uint64(1)
    dry[0] = 0
    for i in range(n):
        cell = line_cells[line, i]
        dry[i + 1] = dry[i] + (water[cell] != 0)
        runs[i] = one << one if not water[cell] and single[cell] else np.uint64(0)
    for a in range(along_ptr[line], along_ptr[line + 1]):
        p = along_idx[a]
        if places[p] and dry[p_start[p] + p_len[p]] == dry[p_start[p]]:
            runs[p_start[p]] |= one << np.uint64(p_len[p])
    for s in range(n_seg):
        length = seg_info[s, 1]
        if not seg_info[s, 4] or length < 2 or bool(seg_info[s, 3]) != is_row:
            continue
        first = seg_info[s, 0]
        r, c = first // stride, first % stride
        at = c if is_row else r
        if (r if is_row else rows + c) == line and dry[at + length] == dry[at]:
            runs[at] |= one << np.uint64(length)
    limit = np.uint64((1 << (tally + 1)) - 1)
    for i in range(n + 1):
        free[i] = 0
        sealed[i] = 0
    free[0] = 1
    for i in range(n):
        if not ship[line_cells[line, i]]:
            free[i + 1] |= free[i] | sealed[i]
        if free[i]:
            m = runs[i] >> one
            length = 1
            while m:
                if m & one:
                    sealed[i + length] |= (free[i] << np.uint64(length)) & limit
                m >>= one
                length += 1
    if not ((free[n] | sealed[n]) >> np.uint64(tally)) & one:
        return False
    rest_free[n] = rest_sealed[n] = one << np.uint64(tally)
    for i in range(n - 1, -1, -1):
        rest_sealed[i] = rest_free[i + 1] if not ship[line_cells[line, i]] else np.uint64(0)
        reach = rest_sealed[i]
        m = runs[i] >> one
        length = 1
        while m:
            if m & one:
                reach |= rest_sealed[i + length] >> np.uint64(length)
            m >>= one
            length += 1
        rest_free[i] = reach
    can_ship = np.uint64(0)
    can_water = np.uint64(0)
    for i in range(n):
        if not ship[line_cells[line, i]] and (free[i] | sealed[i]) & rest_free[i + 1]:
            can_water |= one << np.uint64(i)
        if free[i]:
            m = runs[i] >> one
            length = 1
            while m:
                if m & one and free[i] & (rest_sealed[i + length] >> np.uint64(length)):
                    can_ship |= ((one << np.uint64(length)) - one) << np.uint64(i)
                m >>= one
                length += 1
    for i in range(n):
        cell = line_cells[line, i]
        if ship[cell] or water[cell]:
            continue
        bit = one << np.uint64(i)
        if not can_water & bit:
            new_ship[cell] = 1
        elif not can_ship & bit:
            new_water[cell] = 1
    return True


@njit(cache=True)
def _middle(T, ship, water, unknown, index, new_ship, new_water):
    """``rules._middle``: a middle piece that can lie only one way."""
    (rows, cols, stride, onb, orth, diag, p_len, p_line, p_start, p_cells, p_halo, p_li, lengths, fleet,
     length_index, first_across, first_down, alive, cover_ptr, cover_idx, line_cells, line_n, line_tally,
     along_ptr, along_idx, hint_cell, hint_middle, hint_ship, hint_water, p_cellw, p_halow) = T
    up, down, left, right = orth[index, 0], orth[index, 1], orth[index, 2], orth[index, 3]
    across_open = left >= 0 and right >= 0 and not water[left] and not water[right]
    down_open = up >= 0 and down >= 0 and not water[up] and not water[down]
    across_ship = (left >= 0 and ship[left]) or (right >= 0 and ship[right])
    down_ship = (up >= 0 and ship[up]) or (down >= 0 and ship[down])
    if (across_ship or not down_open) and across_open:
        along, beside = (left, right), (up, down)
    elif (down_ship or not across_open) and down_open:
        along, beside = (up, down), (left, right)
    else:
        return
    for i in along:
        if i >= 0 and unknown[i]:
            new_ship[i] = 1
    for i in beside:
        if i >= 0 and unknown[i]:
            new_water[i] = 1


@njit(cache=True)
def _marks(cells, out):
    """Each cell of the words ``cells`` as a byte of ``out`` (1 if it is in them)."""
    for i in range(len(out)):
        out[i] = (cells[i >> 6] >> np.uint64(i & 63)) & np.uint64(1)


@njit(cache=True)
def _add_marks(cells, out):
    """Mark in ``out`` the cells of the words ``cells``; True if there are any."""
    some = False
    for w in range(len(cells)):
        if cells[w]:
            some = True
    if some:
        for i in range(len(out)):
            if (cells[i >> 6] >> np.uint64(i & 63)) & np.uint64(1):
                out[i] = 1
    return some


@njit(cache=True)
def pack(values, out, at):
    """The nonzero entries of ``values`` as the bits of ``out`` from byte ``at`` on
    (little-endian, as ``int.from_bytes(..., "little")`` reads them)."""
    for i in range(len(values)):
        if values[i]:
            out[at + (i >> 3)] |= np.uint8(1 << (i & 7))


@njit(cache=True)
def _unpack(raw, count):
    out = np.zeros(count, np.uint8)
    for i in range(count):
        out[i] = (raw[i >> 3] >> (i & 7)) & 1
    return out


@njit(cache=True)
def settle_packed(T, ship_raw, water_raw, valid_raw, cell_bytes, place_bytes):
    """:func:`settle` on bit strings (little-endian bytes of the engine's masks): a byte, 1 if
    the board holds, then ship, water, reach (``cell_bytes`` each) and places
    (``place_bytes``) one after another."""
    nb = T[0] * T[2]
    held, ship, water, places, reach = settle(T, _unpack(ship_raw, nb), _unpack(water_raw, nb),
                                              _unpack(valid_raw, len(T[6])))
    out = np.zeros(1 + 3 * cell_bytes + place_bytes, np.uint8)
    out[0] = held
    pack(ship, out, 1)
    pack(water, out, 1 + cell_bytes)
    pack(reach, out, 1 + 2 * cell_bytes)
    pack(places, out, 1 + 3 * cell_bytes)
    return out


@njit(cache=True)
def settle(T, ship_in, water_in, valid_in):
    """``probe.propagate`` without sentences: (held, ship, water, places, reach). On a board
    that breaks, ship, water and places are those the last round of the rules started from:
    the rules in Python, from there, break in their first round, and say why."""
    (rows, cols, stride, onb, orth, diag, p_len, p_line, p_start, p_cells, p_halo, p_li, lengths, fleet,
     length_index, first_across, first_down, alive, cover_ptr, cover_idx, line_cells, line_n, line_tally,
     along_ptr, along_idx, hint_cell, hint_middle, hint_ship, hint_water, p_cellw, p_halow) = T
    nb = len(ship_in)
    n_places = len(p_len)
    n_lengths = len(lengths)
    n_lines = rows + cols
    ship = ship_in.copy()
    water = water_in.copy()
    valid = valid_in.copy()
    places = np.zeros(n_places, np.uint8)
    reach = np.zeros(nb, np.uint8)
    unknown = np.zeros(nb, np.uint8)
    full = np.zeros(nb, np.uint8)
    need = np.zeros(n_lines, np.int64)
    unknown_n = np.zeros(n_lines, np.int64)
    seg_of = np.zeros(nb, np.int64)
    seg_cells = np.zeros(nb, np.int64)
    seg_info = np.zeros((nb, 12), np.int64)
    remaining = np.zeros(n_lengths, np.int64)
    new_ship = np.zeros(nb, np.uint8)
    new_water = np.zeros(nb, np.uint8)
    thr = np.empty(len(cover_idx), np.int64)     # each open segment's places, one after another
    thr_ptr = np.zeros(nb + 1, np.int64)
    vlist = np.zeros(n_places, np.int64)           # the places of ``valid``, in index order
    vn = 0
    for p in range(n_places):
        if valid[p]:
            vlist[vn] = p
            vn += 1
    plist = np.zeros(n_places, np.int64)
    lptr = np.zeros(n_lengths + 1, np.int64)
    words = p_cellw.shape[1]
    shipw = np.zeros(words, np.uint64)          # the same cells as words, for the places' masks
    unknownw = np.zeros(words, np.uint64)
    blockedw = np.zeros(words, np.uint64)
    reachw = np.zeros(words, np.uint64)
    broke = (False, ship, water, valid, reach)
    while True:
        for i in range(nb):
            unknown[i] = onb[i] and not ship[i] and not water[i]
            full[i] = 0
            new_ship[i] = 0
            new_water[i] = 0
        if not _lines(T, ship, water, need, unknown_n, full):
            return broke
        n_seg, ok, closed_of = _segments(T, ship, water, seg_of, seg_cells, seg_info)
        if not ok:
            return broke
        for length in range(len(closed_of)):
            if closed_of[length] and (length >= len(length_index) or length_index[length] < 0
                                      or closed_of[length] > fleet[length_index[length]]):
                return broke
        longest_remaining = 0
        for li in range(n_lengths):
            remaining[li] = fleet[li] - closed_of[lengths[li]]
            if remaining[li] > 0:
                longest_remaining = max(longest_remaining, lengths[li])
        # Level 1, all rules at once.
        for h in range(len(hint_cell)):
            if hint_middle[h]:
                _middle(T, ship, water, unknown, hint_cell[h], new_ship, new_water)
            else:
                for i in range(nb):
                    if unknown[i]:
                        if hint_ship[h, i]:
                            new_ship[i] = 1
                        if hint_water[h, i]:
                            new_water[i] = 1
        for i in range(nb):
            if ship[i]:
                for d in range(4):
                    j = diag[i, d]
                    if j >= 0 and unknown[j]:
                        new_water[j] = 1
        for s in range(n_seg):
            length = seg_info[s, 1]
            if length >= 2 and seg_info[s, 2]:
                for k in range(seg_info[s, 9], seg_info[s, 10]):
                    i = seg_cells[k]
                    for d in range(4):
                        j = orth[i, d]
                        if j >= 0 and unknown[j] and j != seg_info[s, 5] and j != seg_info[s, 6]:
                            new_water[j] = 1
            if not seg_info[s, 4] and seg_info[s, 2] and length == longest_remaining:
                for e in range(4):
                    j = seg_info[s, 5 + e]
                    if j >= 0 and unknown[j]:
                        new_water[j] = 1
        for line in range(n_lines):
            if need[line] == NO_TALLY or not unknown_n[line]:
                continue
            if need[line] == 0 or need[line] == unknown_n[line]:
                for k in range(line_n[line]):
                    i = line_cells[line, k]
                    if unknown[i]:
                        if need[line] == 0:
                            new_water[i] = 1
                        else:
                            new_ship[i] = 1
        found = False
        for i in range(nb):
            if new_ship[i] or new_water[i]:
                found = True
                break
        read_places = not found
        if not found:
            shipw[:] = 0
            unknownw[:] = 0
            blockedw[:] = 0
            for i in range(nb):
                bit = np.uint64(1) << np.uint64(i & 63)
                if ship[i]:
                    shipw[i >> 6] |= bit
                elif water[i]:
                    blockedw[i >> 6] |= bit
                elif unknown[i]:
                    unknownw[i >> 6] |= bit
                    if full[i]:
                        blockedw[i >> 6] |= bit
            ok, pn = _compute_places(T, ship, shipw, blockedw, need, n_seg, seg_info, seg_cells, remaining,
                                     places, thr, thr_ptr, vlist, vn, plist, lptr)
            if not ok:
                return broke
            vlist, plist, vn = plist, vlist, pn
            reachw[:] = 0
            for a in range(vn):
                for w in range(words):
                    reachw[w] |= p_cellw[vlist[a], w]
            for w in range(words):
                reachw[w] &= unknownw[w]
            _marks(reachw, reach)
            found = _level_two(T, ship, water, unknown, unknownw, vlist, lptr, thr, thr_ptr, n_seg, seg_info,
                               seg_cells, remaining, reach, new_ship, new_water, places)
            if found < 0:
                return broke
        if not found:
            valid[:] = places
            return (True, ship, water, valid, reach)
        for i in range(nb):
            if new_ship[i] and new_water[i]:
                return broke
        if read_places:
            valid[:] = places
        for i in range(nb):
            if new_ship[i]:
                ship[i] = 1
            if new_water[i]:
                water[i] = 1


@njit(cache=True)
def _level_two(T, ship, water, unknown, unknownw, plist, lptr, thr, thr_ptr, n_seg, seg_info, seg_cells, remaining,
               reach, new_ship, new_water, places):
    """The level-2 rules in order, up to the first that finds something: 1 if one did, 0 if
    none, -1 if the board breaks (the line fill). The places still possible are listed in
    ``plist`` by length (see :func:`_compute_places`) and marked in ``places``."""
    (rows, cols, stride, onb, orth, diag, p_len, p_line, p_start, p_cells, p_halo, p_li, lengths, fleet,
     length_index, first_across, first_down, alive, cover_ptr, cover_idx, line_cells, line_n, line_tally,
     along_ptr, along_idx, hint_cell, hint_middle, hint_ship, hint_water, p_cellw, p_halow) = T
    nb = len(ship)
    found = 0
    # segment_places: what every place through an open segment covers, what none reaches beside it.
    words = len(unknownw)
    inside = np.empty(words, np.uint64)
    union = np.empty(words, np.uint64)
    for s in range(n_seg):
        if seg_info[s, 4] or not seg_info[s, 2] or thr_ptr[s] == thr_ptr[s + 1]:
            continue
        inside[:] = unknownw
        union[:] = 0
        for a in range(thr_ptr[s], thr_ptr[s + 1]):
            p = thr[a]
            for w in range(words):
                inside[w] &= p_cellw[p, w]
                union[w] |= p_cellw[p, w]
        if _add_marks(inside, new_ship):
            found = 1
        for k in range(seg_info[s, 9], seg_info[s, 10]):
            for d in range(4):
                j = orth[seg_cells[k], d]
                if j >= 0 and unknown[j] and not (union[j >> 6] >> np.uint64(j & 63)) & np.uint64(1):
                    new_water[j] = 1
                    found = 1
    if found:
        return found
    # fleet_places: the last ship of a length, or as many places left as ships missing.
    for li in range(len(lengths)):
        missing = remaining[li]
        own = lptr[li + 1] - lptr[li]
        if missing <= 0 or own == 0 or (missing > 1 and own != missing):
            continue
        if missing == 1:
            inside[:] = unknownw            # cells every place covers
            union[:] = unknownw             # cells every place's halo holds
            for p in plist[lptr[li]:lptr[li + 1]]:
                for w in range(words):
                    inside[w] &= p_cellw[p, w]
                    union[w] &= p_halow[p, w]
            if _add_marks(inside, new_ship):
                found = 1
            if _add_marks(union, new_water):
                found = 1
        else:
            union[:] = 0                    # cells and halos of the places so far
            apart = True
            for p in plist[lptr[li]:lptr[li + 1]]:
                for w in range(words):
                    if p_cellw[p, w] & union[w]:
                        apart = False
                    union[w] |= p_cellw[p, w] | p_halow[p, w]
            if not apart:
                continue
            inside[:] = 0
            for p in plist[lptr[li]:lptr[li + 1]]:
                for w in range(words):
                    inside[w] |= p_cellw[p, w] & unknownw[w]
            if _add_marks(inside, new_ship):
                found = 1
    if found:
        return found
    # unreachable: unknown cells no place still possible covers.
    for i in range(nb):
        if unknown[i] and not reach[i]:
            new_water[i] = 1
            found = 1
    if found:
        return found
    # line_fill: every way to fit each tallied line's ship cells.
    single = np.zeros(nb, np.uint8)
    counts = np.zeros((6, line_cells.shape[1] + 1), np.uint64)
    for i in range(nb):
        single[i] = ship[i] or reach[i]
    for line in range(rows + cols):
        if line_tally[line] == NO_TALLY:
            continue
        any_unknown = False
        for k in range(line_n[line]):
            if unknown[line_cells[line, k]]:
                any_unknown = True
        if not any_unknown:
            continue
        if not _solve_line(line, line_n[line], line_tally[line], line < rows, rows, stride, line_cells, p_start, p_len,
                           along_ptr, along_idx, ship, water, single, places, seg_info, n_seg, new_ship, new_water,
                           counts):
            return -1
    for i in range(nb):
        if new_ship[i] or new_water[i]:
            return 1
    return 0
