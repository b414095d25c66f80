"""Each propagation rule alone, on a small hand-made board: when it fires, what it concludes,
and that it stays quiet when it should."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from game.puzzle import Puzzle
from solvers.propagation import rules as pr
from solvers.propagation.model import State, compile_puzzle


def work_on(rows: int, cols: int, fleet, row_tallies=None, col_tallies=None, ship=(), water=(),
            new_ship=(), new_water=()) -> pr.Work:
    """A propagation in progress on an empty board with some cells known; ``new_*`` cells are
    also the batch the cell rules look at."""
    puzzle = Puzzle(rows, cols, row_tallies or [None] * rows, col_tallies or [None] * cols, fleet)
    model = compile_puzzle(puzzle)
    geo = model.geo
    ship_mask = geo.mask_of(list(ship) + list(new_ship))
    water_mask = geo.mask_of(list(water) + list(new_water))
    state = State(ship_mask, water_mask, 0, model.start.alive, model.start.counts)
    work = pr.Work(model, state, log=[], blame=[])
    work.fresh_ship, work.fresh_water = geo.mask_of(new_ship), geo.mask_of(new_water)
    work.next_batch()
    return work


def cells(work: pr.Work, mask: int) -> set[tuple[int, int]]:
    return set(work.geo.coords(mask))


def alive(work: pr.Work) -> set[tuple[int, int, int, bool]]:
    return {(p.length, p.row, p.col, p.horizontal) for p in work.geo.members(work.alive)}


def index_of(work: pr.Work, length: int, horizontal: bool, row: int, col: int) -> int:
    return work.geo.placement(length, horizontal, row, col).index


# -- placing ----------------------------------------------------------------------------------

def test_placing_sets_cells_and_halo_and_uses_up_the_length():
    work = work_on(3, 4, {2: 1})
    work.to_place = {index_of(work, 2, True, 0, 0): "decision"}
    assert pr.place_queued(work)
    assert cells(work, work.ship) == {(0, 0), (0, 1)}
    assert cells(work, work.water) == {(0, 2), (1, 0), (1, 1), (1, 2)}
    assert work.counts == [0] and work.alive == 0 and not work.to_place


def test_placing_a_dead_placement_fails():
    work = work_on(3, 4, {2: 1}, new_water=[(0, 1)])
    pr.water_kills_placements(work)
    work.to_place = {index_of(work, 2, True, 0, 0): "decision"}
    assert not pr.place_queued(work)


# -- cell rules -------------------------------------------------------------------------------

def test_water_kills_the_placements_over_it():
    work = work_on(1, 3, {2: 1}, new_water=[(0, 0)])
    assert pr.water_kills_placements(work)
    assert alive(work) == {(2, 0, 1, True)}


def test_no_new_water_kills_nothing():
    work = work_on(1, 3, {2: 1}, water=[(0, 0)])
    before = work.alive
    assert pr.water_kills_placements(work) and work.alive == before


def test_ship_kills_the_placements_whose_halo_holds_it():
    work = work_on(1, 4, {2: 1}, new_ship=[(0, 3)])
    assert pr.ship_kills_placements(work)
    assert alive(work) == {(2, 0, 0, True), (2, 0, 2, True)}    # (0,1)-(0,2) would touch it


def test_a_ship_cells_diagonals_are_water():
    work = work_on(3, 3, {1: 1}, new_ship=[(1, 1)])
    assert pr.diagonals_are_water(work)
    assert cells(work, work.water) == {(0, 0), (0, 2), (2, 0), (2, 2)}
    assert cells(work, work.fresh_water) == {(0, 0), (0, 2), (2, 0), (2, 2)}
    assert work.log[-1][2] == "water diagonal to a ship"


def test_a_ship_on_a_diagonal_is_a_contradiction():
    work = work_on(3, 3, {1: 2}, ship=[(0, 0)], new_ship=[(1, 1)])
    assert not pr.diagonals_are_water(work)
    assert work.blame == [("cells", work.geo.bit(0, 0))]


def test_no_new_ship_no_diagonal_water():
    work = work_on(3, 3, {1: 1}, ship=[(1, 1)])
    assert pr.diagonals_are_water(work) and work.water == 0


# -- line rules (each on one line) -------------------------------------------------------------

def first_row(work: pr.Work):
    return work.model.lines[0]


def test_a_row_over_its_tally_fails():
    work = work_on(1, 4, {1: 2}, row_tallies=[1], new_ship=[(0, 0), (0, 2)])
    assert not pr.tally_within_reach(work, first_row(work))
    assert work.blame == [("row", 0)]


def test_a_row_that_cannot_reach_its_tally_fails():
    work = work_on(2, 3, {1: 3}, row_tallies=[2, None], new_water=[(0, 0), (0, 1)])
    assert not pr.tally_within_reach(work, first_row(work))
    assert work.blame == [("row", 0)]


def test_a_row_within_reach_passes():
    work = work_on(1, 4, {1: 2}, row_tallies=[2], new_ship=[(0, 0)])
    assert pr.tally_within_reach(work, first_row(work)) and not work.blame


def test_a_row_whose_tally_is_met_is_water_elsewhere():
    work = work_on(1, 4, {1: 2}, row_tallies=[1], new_ship=[(0, 1)])
    assert pr.tally_met(work, first_row(work))
    assert cells(work, work.fresh_water) == {(0, 0), (0, 2), (0, 3)}
    assert work.log[-1][2] == "row 1 tally met"


def test_a_row_short_of_its_tally_gets_no_water():
    work = work_on(1, 4, {1: 2}, row_tallies=[2], new_ship=[(0, 1)])
    assert pr.tally_met(work, first_row(work)) and work.water == 0


def test_a_row_that_needs_all_its_unknown_cells_gets_ship_there():
    work = work_on(1, 5, {1: 3}, row_tallies=[3], water=[(0, 1), (0, 3)], new_ship=[(0, 0)])
    assert pr.needs_every_unknown(work, first_row(work))
    assert cells(work, work.fresh_ship) == {(0, 2), (0, 4)}
    assert work.log[-1][2] == "row 1 needs all its unknown cells"


def test_a_row_with_unknown_cells_to_spare_gets_no_ship():
    work = work_on(1, 5, {1: 2}, row_tallies=[2], water=[(0, 1)], new_ship=[(0, 0)])
    before = work.ship
    assert pr.needs_every_unknown(work, first_row(work)) and work.ship == before


def test_a_placement_longer_than_the_rows_room_dies():
    # Row 1 holds one ship cell and may hold two: a cruiser along it would add two more.
    work = work_on(3, 5, {3: 1, 2: 1}, row_tallies=[2, None, None], new_ship=[(0, 2)])
    assert pr.longer_than_room(work, first_row(work))
    across = {p for p in alive(work) if p[1] == 0 and p[3] and p[0] >= 2}
    assert across == {(2, 0, 1, True), (2, 0, 2, True)}   # the destroyers over the ship cell stay
    assert (3, 0, 2, False) in alive(work)                # a cruiser down from it is no business of the row


def test_room_is_looked_at_only_when_the_row_has_new_ship():
    work = work_on(3, 5, {3: 1, 2: 1}, row_tallies=[2, None, None], ship=[(0, 2)], new_water=[(2, 4)])
    before = work.alive
    assert pr.longer_than_room(work, first_row(work)) and work.alive == before


def test_room_is_each_lines_own_when_every_line_is_looked_at():
    # At the start every line is looked at, ship cells or not: three rows without ship cells
    # and the same room each lose their own cruisers (the room rule's memo keeps them apart).
    puzzle = Puzzle(3, 5, [2, 2, 2], [None] * 5, {3: 1, 2: 1})
    model = compile_puzzle(puzzle)
    work = pr.Work(model, model.start, all_lines=True)
    work.next_batch()
    assert pr.line_tallies(work)
    assert not {p for p in alive(work) if p[0] == 3 and p[3]}      # no cruiser across any row
    assert {p for p in alive(work) if p[0] == 2 and p[3]} == {(2, r, c, True) for r in range(3) for c in range(4)}


def test_the_room_rule_kills_what_its_definition_says_whatever_its_memo_holds():
    """Random ship cells on one geometry, the memo shared throughout: along every tallied
    line with new ship cells, the placements that die are exactly the alive ones along it
    with more cells off the line's ship cells than its room."""
    import random

    rng = random.Random(3)
    puzzle = Puzzle(6, 6, [2, 3, 1, 4, 2, 3], [3, 1, 2, 2, 4, 3], {4: 1, 3: 1, 2: 2, 1: 2})
    model = compile_puzzle(puzzle)
    geo = model.geo
    checked = 0
    for _ in range(300):
        ship = geo.mask_of((r, c) for r in range(6) for c in range(6) if rng.random() < 0.2)
        alive_before = model.start.alive & rng.getrandbits(len(geo.placements))
        for line in model.lines:
            _, _, mask, tally, placements = line
            work = pr.Work(model, State(ship, 0, 0, alive_before, model.start.counts))
            work.line_ship = ship
            assert pr.longer_than_room(work, line)
            room = tally - (ship & mask).bit_count()
            expected = alive_before
            if ship & mask and 0 < room < geo.lengths[0]:
                for p in geo_bits(alive_before & placements):
                    if (geo.p_cells[p] & ~ship).bit_count() > room:
                        expected &= ~(1 << p)
                checked += expected != alive_before
            assert work.alive == expected
    assert checked > 50


# -- board rules ------------------------------------------------------------------------------

def test_the_line_rules_run_on_the_touched_lines_only():
    # Row 1's tally is met by the new ship; row 2's (also met) was not touched by this batch.
    work = work_on(2, 5, {1: 2}, row_tallies=[1, 1], ship=[(1, 4)], new_ship=[(0, 0)])
    assert pr.line_tallies(work)
    assert cells(work, work.fresh_water) == {(0, 1), (0, 2), (0, 3), (0, 4)}


def test_the_line_rules_stop_at_a_broken_line():
    work = work_on(2, 3, {1: 2}, row_tallies=[1, 1], col_tallies=[0, None, None], new_ship=[(0, 0)])
    assert not pr.line_tallies(work)
    assert work.blame == [("col", 0)]


def test_a_length_with_as_many_placements_as_ships_places_them():
    work = work_on(1, 3, {3: 1})
    assert pr.fleet_count(work)
    assert list(work.to_place) == [index_of(work, 3, True, 0, 0)]
    assert work.to_place[index_of(work, 3, True, 0, 0)] == "every remaining cruiser placement is needed"


def test_a_length_with_too_few_placements_fails():
    work = work_on(1, 3, {3: 1}, new_water=[(0, 1)])
    pr.water_kills_placements(work)
    assert not pr.fleet_count(work)
    assert work.blame == [("length", 0)]


def test_a_length_with_room_to_spare_is_left_alone():
    work = work_on(1, 4, {3: 1})
    assert pr.fleet_count(work) and not work.to_place


def test_a_segment_that_no_placement_covers_fails():
    work = work_on(1, 3, {2: 1}, ship=[(0, 0), (0, 1), (0, 2)])
    assert not pr.segments_need_a_ship(work)
    assert work.blame == [("cells", work.geo.mask_of([(0, 0), (0, 1), (0, 2)]))]


def test_a_segment_that_one_placement_covers_gets_it():
    work = work_on(1, 4, {3: 1}, ship=[(0, 0)])
    assert pr.segments_need_a_ship(work)
    assert list(work.to_place) == [index_of(work, 3, True, 0, 0)]


def test_every_placement_over_a_segment_agrees():
    # A ship cell in the middle of a 1x5 row, a cruiser left: every cruiser over it covers it
    # and the cells next to it; none reaches both ends, but the ends differ, so they stay unknown.
    work = work_on(1, 5, {3: 1}, ship=[(0, 2)])
    assert pr.segments_need_a_ship(work)
    assert not work.to_place
    assert cells(work, work.fresh_ship) == set()      # (0,1)-(0,3) is not common to all three
    work = work_on(1, 4, {3: 1}, ship=[(0, 1)])
    assert pr.segments_need_a_ship(work)
    assert cells(work, work.fresh_ship) == {(0, 2)}     # (0,0)-(0,2) and (0,1)-(0,3) share (0,2)
    assert work.log[-1][2] == "every ship that fits this segment covers it"


def test_distinct_segments_cannot_outnumber_the_ships_that_fit_them():
    # Two segments of two cells far apart, each coverable only by a cruiser: one is left.
    work = work_on(1, 9, {3: 1, 1: 1}, ship=[(0, 1), (0, 2), (0, 6), (0, 7)], new_water=[(0, 0), (0, 8)])
    pr.water_kills_placements(work)
    assert not pr.distinct_segments(work)


def test_distinct_segments_with_enough_ships_pass():
    work = work_on(1, 9, {3: 2, 1: 1}, ship=[(0, 1), (0, 2), (0, 6), (0, 7)], new_water=[(0, 0), (0, 8)])
    pr.water_kills_placements(work)
    assert pr.distinct_segments(work)


def test_an_unknown_cell_no_placement_covers_is_water():
    # A 3x3 board, one cruiser: water at (0,1) and (1,0) kills the cruisers of the first two
    # rows and columns, the only ones over (0,0) and over (1,1).
    work = work_on(3, 3, {3: 1}, new_water=[(0, 1), (1, 0)])
    pr.water_kills_placements(work)
    work.cover_check = True
    assert pr.uncovered_is_water(work)
    assert cells(work, work.fresh_water) == {(0, 0), (1, 1)}
    assert work.log[-1][2] == "no ship fits here"


def test_cells_with_a_placement_left_stay_unknown():
    work = work_on(3, 3, {3: 1}, new_water=[(1, 1)])
    pr.water_kills_placements(work)
    work.cover_check = True
    assert pr.uncovered_is_water(work) and work.fresh_water == 0


def test_cells_whose_placements_a_placed_ship_killed_are_looked_at():
    # A destroyer at the left of a 1x5 row: every cruiser touches it or lies on its halo.
    work = work_on(1, 5, {3: 1, 2: 1})
    work.to_place = {index_of(work, 2, True, 0, 0): "decision"}
    assert pr.place_queued(work)
    assert pr.uncovered_is_water(work)
    assert cells(work, work.fresh_water) == {(0, 2), (0, 3), (0, 4)}   # the halo, then the rest


def test_the_coverage_rule_looks_only_at_cells_that_lost_a_placement():
    work = work_on(3, 3, {3: 1}, new_water=[(0, 1), (1, 0)])
    pr.water_kills_placements(work)
    work.cover_alive = work.alive                # as if it had looked since the kills
    assert pr.uncovered_is_water(work) and work.fresh_water == 0


def test_the_last_ship_of_a_length_covers_what_all_its_placements_share():
    work = work_on(1, 4, {3: 1})
    assert pr.last_ship_of_a_length(work)
    assert cells(work, work.fresh_ship) == {(0, 1), (0, 2)}
    assert work.log[-1][2] == "every placement of the last cruiser covers it"


def test_a_length_with_two_ships_left_is_not_the_last():
    work = work_on(1, 9, {3: 2})
    assert pr.last_ship_of_a_length(work) and work.fresh_ship == 0
    # Two submarines left with two places, whose halos share two cells: not the last ship's rule.
    work = work_on(2, 3, {1: 2})
    work.alive = (1 << index_of(work, 1, True, 0, 0)) | (1 << index_of(work, 1, True, 0, 2))
    assert pr.last_ship_of_a_length(work) and work.fresh_ship == work.fresh_water == 0
    work.counts[0] = 1                          # one left: the halos' shared cells are water
    assert pr.last_ship_of_a_length(work) and cells(work, work.fresh_water) == {(0, 1), (1, 1)}


def test_the_last_ships_halos_are_read_however_many_places_it_has_only_for_the_deduction_engine():
    # The last submarine on a 3x3 board, anywhere but the middle: 8 places, whose halos share
    # the middle cell. The search reads halos only for up to 2 places a length of 1.
    work = work_on(3, 3, {1: 1})
    work.alive &= ~(1 << index_of(work, 1, True, 1, 1))
    assert pr.last_ship_of_a_length(work) and work.fresh_water == 0
    work.every_halo = True
    assert pr.last_ship_of_a_length(work) and cells(work, work.fresh_water) == {(1, 1)}


# -- fill rules: the deduction engine's, once the board rules are quiet -----------------------

def fill_work(*args, **kwargs) -> pr.Work:
    """:func:`work_on`, with the line fill yet to look at any line."""
    work = work_on(*args, **kwargs)
    work.fill_seen = None
    return work

def test_every_way_to_fill_a_row_makes_its_shared_cells_ship_and_its_unused_ones_water():
    # Two destroyers in a row of 5 with a tally of 4: runs of one or two cells (a run of one
    # could be a ship crossing the row), water between them: only XX.XX makes 4.
    work = fill_work(1, 5, {2: 2}, row_tallies=[4])
    assert pr.line_fill(work)
    assert cells(work, work.fresh_ship) == {(0, 0), (0, 1), (0, 3), (0, 4)}
    assert cells(work, work.fresh_water) == {(0, 2)}
    assert work.log[-1][2] == "every way to fill row 1 with the ships still missing"


def test_a_row_no_way_fills_fails_and_a_row_as_seen_is_not_read_again():
    work = fill_work(1, 5, {2: 2}, row_tallies=[5])
    assert not pr.line_fill(work) and work.blame == [("row", 0)]
    work = work_on(1, 6, {2: 2}, row_tallies=[4])      # as last looked at
    assert pr.line_fill(work) and work.fresh_ship == 0


def test_the_runs_of_a_row_never_cover_water():
    # A submarine and a destroyer in a row of 5 with a tally of 3, water at the middle:
    # the destroyer lies on one side, the submarine on the other.
    work = fill_work(1, 5, {2: 1, 1: 1}, row_tallies=[3], water=[(0, 2)])
    assert pr.line_fill(work) and work.fresh_ship == 0 and work.fresh_water == 0
    work = fill_work(1, 5, {2: 1, 1: 1}, row_tallies=[3], water=[(0, 2), (0, 4)])
    assert pr.line_fill(work) and cells(work, work.fresh_ship) == {(0, 0), (0, 1), (0, 3)}


def test_ships_the_lines_cannot_hold_one_after_another_fail():
    # Two destroyers, one row of 4: three places, but only one fits with water after it.
    work = work_on(1, 4, {2: 2})
    assert pr.fleet_count(work) and not work.to_place
    assert not pr.fleet_room(work) and work.blame == [("length", 0)]
    assert pr.fleet_room(work_on(1, 5, {2: 2}))


def test_ships_a_lines_tally_cannot_hold_fail():
    assert not pr.fleet_room(work_on(1, 6, {2: 2}, row_tallies=[2]))
    assert pr.fleet_room(work_on(1, 6, {2: 2}, row_tallies=[4]))


# -- the driver -------------------------------------------------------------------------------

def test_the_rules_reach_a_fixpoint():
    # A 1x4 row with a tally of 3 and one cruiser: the cruiser's common cells, then the tally.
    puzzle = Puzzle(1, 4, [3], [None] * 4, {3: 1})
    model = compile_puzzle(puzzle)
    state = pr.root_state(model)
    assert state is not None and state.unknown(model.geo) == model.geo.mask_of([(0, 0), (0, 3)])
    assert pr.propagate(model, state, water=model.geo.bit(0, 0)).done


def test_every_rule_is_in_the_table_once_with_a_summary_and_the_order_comes_from_it():
    functions = [entry.run for entry in pr.RULES]
    assert len({entry.name for entry in pr.RULES}) == len(pr.RULES) == len(set(functions))
    assert all(entry.name == entry.run.__name__ for entry in pr.RULES)
    # (read from the source: the compiled engine keeps no docstrings)
    source = ast.parse((Path(pr.__file__).parent / "rules.py").read_text())
    docs = {node.name: ast.get_docstring(node) for node in source.body if isinstance(node, ast.FunctionDef)}
    assert all(docs[rule.__name__] and len(docs[rule.__name__].splitlines()) <= 4 for rule in functions)
    stages = [entry.stage for entry in pr.RULES]
    assert stages == sorted(stages, key=["place", "cell", "tally", "room", "board", "fill"].index)
    search = [entry for entry in pr.RULES if not entry.glance]
    assert pr.CELL_RULES[:-1] == tuple(entry.run for entry in search if entry.stage == "cell")
    assert pr.BOARD_RULES == tuple(entry.run for entry in search if entry.stage == "board")
    assert pr.DEDUCTION_RULES == pr.BOARD_RULES + tuple(entry.run for entry in pr.RULES if entry.stage == "fill")
    assert pr.STEP_CELL_RULES[:-1] == tuple(entry.run for entry in pr.RULES if entry.stage == "cell")
    assert pr.STEP_RULES[2] == tuple(entry.run for entry in pr.RULES if entry.stage in ("board", "fill"))
    # A rule that sets cells says so, to a trace and to a player, and has a level; the rules of
    # level 1 read the board alone, so a level-1 propagation runs no rule of the fleet.
    for entry in pr.RULES:
        assert entry.level in (0, 1, 2)
        assert bool(entry.says) == (entry.explains is not None or entry.name == "place_queued"), entry.name
    assert all(pr.LEVELS[rule.__name__] <= 1 for rule in pr.STEP_RULES[1])


def test_every_sentence_of_a_logged_run_comes_from_the_table():
    """The log of a propagation says each step with a sentence of the rule that made it."""
    from pathlib import Path

    from game import levels
    from game.bitsets import bits

    model = compile_puzzle(levels.load(Path(__file__).resolve().parents[1] / "levels/8x8/expert/04.bs"))
    log: list = []
    state = pr.root_state(model, log)
    assert state is not None
    for p in list(bits(state.alive))[::7]:
        pr.propagate(model, state, ship=model.geo.p_cells[p] & ~state.ship, places=(p,), log=log)
    templates = [said for entry in pr.RULES for said in entry.says]
    details = {detail for _, _, detail in log} - {"decision"}
    assert len(details) > 10
    for detail in details:
        assert any(_matches(detail, template) for template in templates), detail


def _matches(detail: str, template: str) -> bool:
    head, _, rest = template.partition("{")
    tail = rest.partition("}")[2]
    return detail == template if not rest else detail.startswith(head) and detail.endswith(tail)


# -- the engine against brute force: every layout of the fleet, judged by game.rules ----------

@pytest.mark.parametrize("fill", [False, True])
def test_propagation_never_contradicts_a_solution_and_fails_only_where_none_is_left(fill):
    """On small boards: from the root and after any one cell decided, every solution the judge
    accepts that agrees with the decision agrees with the propagated state (it is sound); a
    propagation fails only where no solution agrees; a state it completes is a solution. With
    ``fill``: by the deduction engine's rules."""
    from game.puzzle import Cell
    from tests import brute
    from tests.test_forward import random_puzzles

    failed = decided = 0
    for puzzle in random_puzzles(seed=7, count=60):
        model = compile_puzzle(puzzle)
        geo = model.geo
        solutions = [geo.mask_of({(r, c) for r, row in enumerate(grid) for c, value in enumerate(row)
                                  if value == Cell.SHIP})
                     for grid in brute.solutions(puzzle)]
        root = pr.root_state(model, fill=fill)
        if root is None:
            assert not solutions
            continue
        for i in geo_bits(root.unknown(geo)):
            for as_ship in (True, False):
                bit = 1 << i
                state = pr.propagate(model, root, ship=bit if as_ship else 0, water=0 if as_ship else bit, fill=fill)
                agreeing = [s for s in solutions if bool(s & bit) == as_ship]
                if state is None:
                    failed += 1
                    assert not agreeing
                    continue
                for ship in agreeing:
                    assert not state.ship & ~ship and not state.water & ship
                if state.done and not state.unknown(geo):
                    decided += 1
                    assert state.ship in solutions
    assert failed > 100 and decided > 100


def geo_bits(mask: int):
    from game.bitsets import bits
    return bits(mask)
