"""The placement model's tables (``game.ships.Geometry``) against their definitions, worked out
from coordinates: every placement's cells, halo and ends, and per cell the placements (and
their cells) that hold it or hold it in their halo. The tables are computed line by line, not
placement by placement; this is what they must equal on every board shape."""

import random

import pytest

from game import ships
from game.ships import Geometry

LENGTH_SETS = [(1,), (2,), (3, 1), (4, 3, 2, 1), (5, 4, 3, 2, 1), (6, 2), (9,), (8, 1)]


def shapes():
    rng = random.Random(11)
    fixed = [(rows, cols, lengths) for rows in range(1, 8) for cols in range(1, 8) for lengths in LENGTH_SETS]
    drawn = [(rng.randint(1, 16), rng.randint(1, 16),
              tuple(sorted(rng.sample(range(1, 9), rng.randint(1, 5)), reverse=True))) for _ in range(40)]
    return fixed + drawn


def defined(rows, cols, lengths):
    """(placements as (length, row, col, across, cells, halo, ends) in order, then per cell the
    four sets), from coordinates alone."""
    on = {(r, c) for r in range(rows) for c in range(cols)}
    placements = []
    for length in lengths:
        for across in ((True,) if length == 1 else (True, False)):
            dr, dc = (0, 1) if across else (1, 0)
            for r in range(rows - dr * (length - 1)):
                for c in range(cols - dc * (length - 1)):
                    cells = {(r + dr * i, c + dc * i) for i in range(length)}
                    near = {(y + a, x + b) for y, x in cells for a in (-1, 0, 1) for b in (-1, 0, 1)}
                    halo = (near & on) - cells
                    if length == 1:
                        ends = {(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)} & on
                    else:
                        ends = {(r - dr, c - dc), (r + dr * length, c + dc * length)} & on
                    placements.append((length, r, c, across, frozenset(cells), frozenset(halo), frozenset(ends)))
    tables = {}
    for cell in on:
        holding = [i for i, p in enumerate(placements) if cell in p[4]]
        around = [i for i, p in enumerate(placements) if cell in p[5]]
        tables[cell] = (set(holding), set(around), set().union(*(placements[i][4] for i in holding)),
                        set().union(*(placements[i][4] for i in around)))
    return placements, tables


@pytest.mark.parametrize("rows, cols, lengths", shapes())
def test_the_tables_are_what_their_definitions_say(rows, cols, lengths):
    geo = Geometry(rows, cols, lengths)
    placements, tables = defined(rows, cols, lengths)

    def cells(mask):
        return {geo.coord(i) for i in range(mask.bit_length()) if mask >> i & 1}

    def numbers(mask):
        return {i for i in range(mask.bit_length()) if mask >> i & 1}

    assert [(p.length, p.row, p.col, p.horizontal, cells(p.cells), cells(p.halo), cells(p.ends))
            for p in geo.placements] == [(*p[:4], set(p[4]), set(p[5]), set(p[6])) for p in placements]
    assert [p.index for p in geo.placements] == list(range(len(placements)))
    for (r, c), (holding, around, holding_cells, around_cells) in tables.items():
        i = geo.index(r, c)
        assert numbers(geo.covering[i]) == holding, (r, c)
        assert numbers(geo.surrounding[i]) == around, (r, c)
        assert cells(geo.covering_cells[i]) == holding_cells, (r, c)
        assert cells(geo.surrounding_cells[i]) == around_cells, (r, c)


def test_the_geometries_kept_are_bounded_by_their_placements_not_only_their_number(monkeypatch):
    """32 geometries were kept whatever their size: a 60x60 board's take 30 MB, 125 MB with
    their tables, so a few dozen large boards of different sizes held gigabytes. They are now
    kept while their placements add up to at most ``PLACEMENTS_KEPT``, the last one always."""
    monkeypatch.setattr(ships, "_geometries", {})
    one = len(ships.geometry(9, 9, (3, 2, 1)).placements)
    monkeypatch.setattr(ships, "PLACEMENTS_KEPT", 2 * one + 1)
    kept = [ships.geometry(side, side, (3, 2, 1)) for side in (9, 8, 7)]
    assert list(ships._geometries) == [(8, 8, (3, 2, 1)), (7, 7, (3, 2, 1))]
    assert ships.geometry(8, 8, (3, 2, 1)) is kept[1]                 # still shared while kept
    monkeypatch.setattr(ships, "PLACEMENTS_KEPT", 1)
    big = ships.geometry(12, 12, (4, 3, 2, 1))
    assert list(ships._geometries.values()) == [big]                 # the one asked for stays


def test_sentences_name_several_cells_as_they_name_one():
    """One cell was "row 3, column 2", scattered cells "r1c5, r3c2": two ways in one sentence."""
    from game.puzzle import Puzzle, cell_said
    from game.ships import geometry_of

    geo = geometry_of(Puzzle(5, 5, (None,) * 5, (None,) * 5, {1: 2}))
    assert geo.where(geo.mask_of([(2, 1)])) == cell_said(2, 1) == "row 3, column 2"
    assert geo.where(geo.mask_of([(0, 4), (2, 1)])) == "(row 1, column 5), (row 3, column 2)"
    assert geo.where(geo.mask_of([(2, c) for c in range(1, 4)])) == "row 3, columns 2-4"
    assert geo.where(geo.mask_of([(r, 3) for r in range(3)])) == "column 4, rows 1-3"
    many = geo.where(geo.mask_of([(r, c) for r in (0, 2, 4) for c in (0, 2, 4)]))
    assert many == ", ".join(f"({cell_said(r, c)})" for r, c in [(0, 0), (0, 2), (0, 4), (2, 0), (2, 2), (2, 4)]) \
        + " and 3 more"
    assert geo.where(0) == "no cells"
