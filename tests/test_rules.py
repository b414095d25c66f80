"""The judge on hand-made boards: each rule, full and partial boards."""

from game import rules
from game.puzzle import Hint, Puzzle, grid_from_strings

# A 6x6 with the default fleet (3x1, 2x2, 1x3) and its solution.
SOLUTION = (
    "###...",
    "......",
    "#.#..#",
    "#.#...",
    "......",
    "#..#..",
)


def tallies(lines):
    rows = tuple(line.count("#") for line in lines)
    cols = tuple(sum(line[c] == "#" for line in lines) for c in range(len(lines[0])))
    return rows, cols


def puzzle(lines=SOLUTION, hints=None, fleet=((3, 1), (2, 2), (1, 3))):
    rows, cols = tallies(lines)
    return Puzzle(len(lines), len(lines[0]), rows, cols, fleet, hints or {})


def kinds(p, lines):
    return sorted(v.kind for v in rules.violations(p, grid_from_strings(lines)))


def test_solution_is_solved_and_unknown_counts_as_water():
    p = puzzle()
    assert rules.is_solved(p, grid_from_strings(SOLUTION))
    assert rules.is_solved(p, grid_from_strings([line.replace(".", "?") for line in SOLUTION]))


def test_tally_errors_name_the_line():
    p = puzzle()
    wrong = list(SOLUTION)
    wrong[4] = "....#."
    found = rules.violations(p, grid_from_strings(wrong))
    messages = [v.message for v in found]
    assert "Row 5 has 1 ship cell, its tally is 0" in messages
    assert any(v.kind == "col" and v.index == 4 for v in found)


def test_diagonal_touch_and_bent_ship():
    p = puzzle(("#.....", ".#....", "......", "......", "......", "......"), fleet=((1, 2),))
    assert "touching" in kinds(p, ("#.....", ".#....", "......", "......", "......", "......"))
    bent = ("##....", ".#....", "......", "......", "......", "......")
    p = puzzle(bent, fleet=((3, 1),))
    assert "bent" in kinds(p, bent)


def test_fleet_counts_and_too_long():
    lines = ("####..", "......", "......", "......", "......", "......")
    p = puzzle(lines, fleet=((2, 2),))
    found = kinds(p, lines)
    assert "too_long" in found and "fleet" in found


def test_hints_are_respected():
    p = puzzle(hints={(0, 0): Hint.LEFT, (1, 1): Hint.WATER, (5, 3): Hint.SUB, (2, 0): Hint.TOP})
    assert rules.is_solved(p, grid_from_strings(SOLUTION))
    wrong_shape = puzzle(hints={(0, 1): Hint.LEFT})
    assert "shape" in kinds(wrong_shape, SOLUTION)
    water_on_ship = puzzle(hints={(0, 0): Hint.WATER})
    assert "hint" in kinds(water_on_ship, SOLUTION)
    middle = puzzle(hints={(0, 1): Hint.MIDDLE})
    assert rules.is_solved(middle, grid_from_strings(SOLUTION))
    middle_at_end = puzzle(hints={(0, 0): Hint.MIDDLE})
    assert "shape" in kinds(middle_at_end, SOLUTION)


def test_partial_board_flags_only_what_is_provable():
    p = puzzle()
    start = grid_from_strings(["??????"] * 6)
    assert rules.provable_violations(p, start) == []
    # row 2 (tally 0) with a ship is over; row 1 (tally 3) with 4 water cells cannot reach 3
    board = grid_from_strings(["....??", "#?????", "??????", "??????", "??????", "??????"])
    found = {(v.kind, v.index) for v in rules.provable_violations(p, board)}
    assert ("row", 0) in found and ("row", 1) in found
    # an open submarine-sized run is not a fleet error yet; a closed fourth one is
    four_subs = grid_from_strings(["#.#.#.", "......", "#?????", "??????", "??????", "??????"])
    assert not any(v.kind == "fleet" for v in rules.provable_violations(p, four_subs))
    closed = grid_from_strings(["#.#.#.", "......", "#.????", ".?????", "??????", "??????"])
    assert any(v.kind == "fleet" and v.index == 1 for v in rules.provable_violations(p, closed))


def test_closed_ships_for_the_fleet_checklist():
    board = grid_from_strings(["###...", "......", "#.#..#", "#.#..?", "?.....", "#..#.."])
    closed = rules.closed_ships(puzzle(), board)
    # the destroyer in column 3 is closed; the one in column 1 and the subs at (2,5) and (5,0)
    # still touch an unknown cell, so they may grow; (5,3) is a closed sub
    assert closed == {3: 1, 2: 1, 1: 1}


def test_wrong_board_shape_is_refused():
    import pytest

    with pytest.raises(ValueError):
        rules.violations(puzzle(), grid_from_strings(["###"]))


def test_hint_shapes_fit_exactly_the_right_ship_cells():
    assert Hint.TOP.fits(3, horizontal=False, index=0) and not Hint.TOP.fits(3, horizontal=True, index=0)
    assert Hint.BOTTOM.fits(2, horizontal=False, index=1) and not Hint.BOTTOM.fits(2, horizontal=False, index=0)
    assert Hint.LEFT.fits(4, horizontal=True, index=0) and Hint.RIGHT.fits(4, horizontal=True, index=3)
    assert Hint.MIDDLE.fits(3, horizontal=True, index=1) and not Hint.MIDDLE.fits(2, horizontal=True, index=1)
    assert Hint.SUB.fits(1, horizontal=True, index=0) and not Hint.SUB.fits(2, horizontal=True, index=0)
    assert Hint.SHIP.fits(5, horizontal=False, index=2) and not Hint.WATER.fits(1, horizontal=True, index=0)
    assert not Hint.TOP.fits(1, horizontal=False, index=0)
