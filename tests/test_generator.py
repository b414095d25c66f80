"""The generator and the grader: reproducible, unique, graded as asked, hints really redundant."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from game import rules
from game.levels import check_consistency, dumps, load, loads, save
from game.limits import MAX_FLEET_SHIPS, MAX_SHIP_LENGTH
from game.puzzle import (
    DEFAULT_FLEETS,
    Cell,
    Hint,
    Puzzle,
    default_fleet,
    grid_from_strings,
    nearest_pyramid,
    pyramid,
    ship_counts,
)
from game.ships import compatible, geometry_of, hint_at
from solvers.authoring import generator, grading
from solvers.authoring.generator import GeneratorError, checked_request, generate, random_layout
from solvers.authoring.grading import GradeError, grade, redundant_hints
from solvers.engine.verdict import Kind, decide
from solvers.logic import deduction as logic
from tests import brute


def _check(puzzle: Puzzle) -> None:
    assert decide(puzzle).kind is Kind.UNIQUE
    solution = grid_from_strings(puzzle.solution)
    assert rules.is_solved(puzzle, solution)
    for (r, c), hint in puzzle.hints.items():
        assert (solution[r][c] == Cell.SHIP) == hint.is_ship


def test_same_seed_same_level():
    first = generate(6, 6, difficulty="medium", seed=7)
    again = generate(6, 6, difficulty="medium", seed=7)
    assert dumps(first) == dumps(again)
    assert dumps(generate(6, 6, difficulty="medium", seed=8)) != dumps(first)


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_levels_are_unique_and_graded_as_asked(difficulty):
    puzzle = generate(8, 8, difficulty=difficulty, seed=1)
    _check(puzzle)
    assert puzzle.difficulty == difficulty == grade(puzzle)
    assert puzzle.name == f"Generated 8x8 {difficulty} #1"


def test_an_expert_level_defeats_depth_one_but_is_unique():
    puzzle = generate(10, 10, difficulty="expert", seed=2, timeout=30)
    _check(puzzle)
    assert puzzle.difficulty == "expert" == grade(puzzle)
    assert not logic.solve(puzzle, max_depth=1).solved


def test_redundant_hints_really_are_redundant():
    puzzle = generate(6, 6, difficulty="easy", seed=3)
    redundant = redundant_hints(puzzle)
    for cell in puzzle.hints:
        hints = dict(puzzle.hints)
        del hints[cell]
        assert (decide(puzzle.replace(hints=hints)).kind is Kind.UNIQUE) == (cell in redundant)


def test_a_board_given_whole_settles_its_redundant_hints_without_a_search(monkeypatch):
    level = generate(12, 12, seed=5)
    solution = level.solution
    assert solution is not None
    whole = level.replace(hints={(r, c): hint_at(solution, (r, c)) for r in range(12) for c in range(12)})
    monkeypatch.setattr(grading, "decide", lambda *args, **kwargs: pytest.fail("searched"))
    assert redundant_hints(whole) == list(whole.hints)


def test_redundant_hints_not_all_asked_in_time_are_none_never_a_partial_list():
    puzzle = generate(6, 6, difficulty="easy", seed=3)
    assert puzzle.hints and redundant_hints(puzzle, timeout=0) is None
    assert redundant_hints(puzzle, timeout=60) == redundant_hints(puzzle)


def test_minimal_levels_have_no_redundant_hint():
    puzzle = generate(6, 6, seed=4, minimal=True)
    _check(puzzle)
    assert redundant_hints(puzzle) == []


def hinted_10x10(seed: int, level: int):
    """A random 10x10 layout with hints added until the engine finishes it at ``level``, and its solution."""
    rng = random.Random(seed)
    fleet = default_fleet(10, 10)
    ships = random_layout(10, 10, fleet, rng)
    solution = generator._grid_of(10, 10, ships)
    rows = tuple(sum(v == Cell.SHIP for v in row) for row in solution)
    cols = tuple(sum(solution[r][c] == Cell.SHIP for r in range(10)) for c in range(10))
    hinted, _ = generator._add_hints(Puzzle(10, 10, rows, cols, fleet), ships, solution, level, rng, lambda: False)
    return hinted, solution


@pytest.mark.parametrize("level, seed", [(2, 1), (3, 2), (3, 3)])
def test_hints_asked_in_pairs_go_as_they_go_one_by_one(monkeypatch, level, seed):
    full, solution = hinted_10x10(seed, level)
    removed = {}
    for group in (1, 2):
        monkeypatch.setattr(generator, "REMOVE_GROUP", group)
        removed[group] = generator.remove_hints(full, level, random.Random(seed), None, lambda: False, solution)
    assert removed[2].hints == removed[1].hints and len(removed[2].hints) < len(full.hints)
    assert logic.solve(removed[2], max_level=level).solved
    for cell in removed[2].hints:                # each hint left is needed at that level
        assert not logic.solve(generator.without_hints(removed[2], [cell]), max_level=level).solved


def test_custom_fleet_non_square_and_unknown_tallies():
    puzzle = generate(6, 9, fleet={3: 1, 2: 2, 1: 2}, seed=5, hide_tallies=2)
    _check(puzzle)
    assert (puzzle.row_tallies + puzzle.col_tallies).count(None) == 2
    assert puzzle.fleet == ((3, 1), (2, 2), (1, 2))


def test_random_layout_is_a_valid_fleet():
    fleet = ((4, 1), (3, 2), (2, 3), (1, 4))
    ships = random_layout(10, 10, fleet, random.Random(0))
    grid = tuple(tuple(Cell.SHIP if (r, c) in ships else Cell.WATER for c in range(10)) for r in range(10))
    rows = tuple(sum(v == Cell.SHIP for v in row) for row in grid)
    cols = tuple(sum(grid[r][c] == Cell.SHIP for r in range(10)) for c in range(10))
    assert rules.is_solved(Puzzle(10, 10, rows, cols, fleet), grid)
    assert {hint_at(grid, cell).is_ship for cell in ships} == {True}


def test_hints_near_the_end_rule_out_the_second_solutions_until_one_is_left(monkeypatch):
    fleet = ((3, 1), (2, 2), (1, 3))
    ships = random_layout(6, 6, fleet, random.Random(2))
    solution = tuple(tuple(Cell.SHIP if (r, c) in ships else Cell.WATER for c in range(6)) for r in range(6))
    rows = tuple(sum(v == Cell.SHIP for v in row) for row in solution)
    cols = tuple(sum(solution[r][c] == Cell.SHIP for r in range(6)) for c in range(6))
    bare = Puzzle(6, 6, rows, cols, fleet)
    asked = []                                   # (hints, the verdict's solutions) at each question

    def recorded(puzzle, **options):
        verdict = decide(puzzle, **options)
        asked.append((dict(puzzle.hints), verdict.solutions))
        return verdict

    monkeypatch.setattr(generator, "decide", recorded)
    open_board = tuple((Cell.UNKNOWN,) * 6 for _ in range(6))
    puzzle = generator._tell_apart(bare, solution, ships, open_board, random.Random(0), lambda: False)
    assert decide(puzzle).solutions == (solution,)
    assert len(asked) > 1 and asked[-1][0] == puzzle.hints
    for (hints, solutions), (more, _) in zip(asked, asked[1:]):
        (cell,) = set(more) - set(hints)         # one hint more, where the other solution met differs
        other = next(found for found in solutions if found != solution)
        assert other[cell[0]][cell[1]] != solution[cell[0]][cell[1]]
        assert more[cell] == hint_at(solution, cell)


def test_compatible_keeps_the_placements_that_agree_with_every_hint():
    rng = random.Random(3)
    for _ in range(30):
        fleet = ((4, 1), (3, 1), (2, 2), (1, 2))
        puzzle = Puzzle(7, 8, (None,) * 7, (None,) * 8, fleet,
                        {(rng.randrange(7), rng.randrange(8)): rng.choice(list(Hint)) for _ in range(5)})
        geo = geometry_of(puzzle)
        alive = compatible(puzzle, geo)
        for p in geo.placements:
            cells = set(p.coords())
            agrees = True
            for (r, c), hint in puzzle.hints.items():
                if (r, c) in cells:
                    agrees &= hint.fits(p.length, p.horizontal, (r - p.row) + (c - p.col))
                elif hint.is_ship:     # a ship beside a given piece would touch it
                    agrees &= not any(abs(r - pr) <= 1 and abs(c - pc) <= 1 for pr, pc in cells)
            assert bool(alive >> p.index & 1) == agrees


def test_errors_say_what_is_wrong():
    with pytest.raises(GeneratorError, match="unknown difficulty"):
        generate(6, 6, difficulty="fiendish")
    with pytest.raises(GradeError):
        grade(Puzzle(2, 2, (None, None), (None, None), ((1, 1),)))


@pytest.mark.parametrize("rows, cols, fleet, message", [
    (0, 6, {1: 1}, "1 to 60 rows, not 0"),
    (61, 61, {1: 1}, "1 to 60 rows, not 61"),
    (1000, 1000, {1: 1}, "1 to 60 rows, not 1000"),
    (6, 101, {1: 1}, "1 to 60 columns, not 101"),
    (60, 60, {11: 1}, "ships of length 11; at most 10 is allowed"),
    (60, 60, {"x": 1}, "fleet key 'x' is not a ship length"),
    (60, 60, {2: -1}, "whole number >= 0"),
    (60, 60, {1: 201}, "fleet has 201 ships; at most 200 are allowed"),
    (60, 60, {2: 0}, "fleet has no ships"),
    (4, 4, {4: 3}, "cannot fit on a 4x4 board"),
    (6, 6, {7: 1}, "longer than a 6x6 board"),
])
def test_requests_outside_the_limits_are_refused_before_any_work(rows, cols, fleet, message):
    with pytest.raises(GeneratorError, match=message):
        generate(rows, cols, fleet=fleet)


@pytest.mark.parametrize("rows, cols, fleet", [
    (1, 1, {1: 1}), (1, 3, {1: 2}), (3, 3, {3: 1, 1: 2}), (3, 3, {1: 4}),
])
def test_a_fleet_that_fits_is_generated_however_densely_it_fills_the_board(rows, cols, fleet):
    # more than half the cells, yet a layout exists; asked for explicitly as for the default fleet
    puzzle = generate(rows, cols, fleet=fleet, seed=3)
    assert puzzle.fleet_counts == fleet and decide(puzzle).kind is Kind.UNIQUE


@pytest.mark.parametrize("rows, cols, fleet, hide", [(6, 6, None, 0), (5, 9, {"3": 1, "2": 1, "1": 2}, 3)])
def test_every_generated_level_loads_back_as_it_was(tmp_path, rows, cols, fleet, hide):
    puzzle = generate(rows, cols, fleet=fleet, seed=11, hide_tallies=hide)
    save(puzzle, tmp_path / "level.bs")
    again = load(tmp_path / "level.bs")
    assert again == puzzle and again.solution == puzzle.solution and again.name == puzzle.name


@pytest.mark.slow
def test_the_shipped_pack_is_unique_and_graded():
    from pathlib import Path

    from game.levels import load
    from solvers.authoring.grading import GRADES
    folder = Path(__file__).resolve().parents[1] / "levels"
    files = [path for path in sorted(folder.rglob("*.bs"))
             if "tutorial" not in path.parts]
    assert len(files) >= 160
    for path in files:
        puzzle = load(path)
        assert decide(puzzle).kind is Kind.UNIQUE, path
        if puzzle.difficulty in GRADES and puzzle.rows * puzzle.cols <= 225:
            assert grade(puzzle) == puzzle.difficulty, path


@pytest.mark.parametrize("name", ["8x8/medium/01.bs", "10x10/hard/03.bs", "8x8/expert/02.bs"])
def test_a_grade_told_the_solution_is_the_grade_found_without_it(name):
    from pathlib import Path

    puzzle = load(Path(__file__).resolve().parents[1] / "levels" / name)
    solution = grid_from_strings(puzzle.solution)
    assert grade(puzzle, solution) == grade(puzzle) == puzzle.difficulty


def test_a_puzzle_with_two_solutions_has_no_grade_even_told_one():
    puzzle = Puzzle(3, 3, (1, 0, 1), (1, 0, 1), ((1, 2),))
    solutions = decide(puzzle).solutions
    assert len(solutions) == 2
    for solution in solutions:
        with pytest.raises(GradeError, match="ambiguous"):
            grade(puzzle, solution)


def test_generation_can_be_cancelled_between_steps():
    from solvers.authoring.generator import GeneratorCancelled, generate

    polls = []

    def cancelled():
        polls.append(1)
        return len(polls) > 3

    with pytest.raises(GeneratorCancelled):
        generate(10, 10, difficulty="hard", seed=1, cancelled=cancelled)
    assert len(polls) == 4


# --- the default fleet ------------------------------------------------------------------------

def test_the_standard_sizes_keep_their_fleets():
    # Files in circulation leave these fleets out: they must never change.
    assert dict(DEFAULT_FLEETS) == {
        6: ((3, 1), (2, 2), (1, 3)),
        8: ((4, 1), (3, 2), (2, 3), (1, 3)),
        10: ((4, 1), (3, 2), (2, 3), (1, 4)),
        15: ((5, 1), (4, 2), (3, 3), (2, 4), (1, 5)),
    }
    for size, fleet in DEFAULT_FLEETS.items():
        assert default_fleet(size, size) == fleet == checked_request(size, size, None)


def test_the_standard_fleets_but_the_8x8_one_are_the_pyramids_the_rule_picks():
    assert pyramid(3) == DEFAULT_FLEETS[6] and pyramid(4) == DEFAULT_FLEETS[10] and pyramid(5) == DEFAULT_FLEETS[15]
    for size in (6, 10, 15):
        assert nearest_pyramid(size, size) == DEFAULT_FLEETS[size]
    assert nearest_pyramid(8, 8) == pyramid(3) != DEFAULT_FLEETS[8]      # the table wins: 19 cells


@pytest.mark.parametrize("rows, cols, fleet", [
    (7, 7, pyramid(3)),                 # 10 cells of 49, nearest 9.8
    (9, 9, pyramid(4)),                 # 20 of 81 (16.2 wanted: 20 is nearer than 10)
    (20, 20, pyramid(7)),               # 84 of 400
    (30, 20, pyramid(8)),               # 120 of 600, exactly a fifth
    (20, 30, pyramid(8)),
    (40, 40, pyramid(10)),              # 220 of 1600: the tallest pyramid, once (1.45 copies)
    (60, 60, pyramid(10, 3)),           # 660 of 3600 in 165 ships
    (1, 60, pyramid(3)),                # ships lie along the one row
])
def test_other_sizes_get_the_pyramid_nearest_a_fifth_of_the_board(rows, cols, fleet):
    assert default_fleet(rows, cols) == fleet


def test_a_pyramid_is_one_ship_of_the_longest_length_two_of_the_next_and_so_on():
    assert pyramid(8) == ((8, 1), (7, 2), (6, 3), (5, 4), (4, 5), (3, 6), (2, 7), (1, 8))
    assert pyramid(2, 3) == ((2, 3), (1, 6))


def test_every_board_within_the_limits_has_a_default_fleet_the_generator_accepts():
    for rows in range(1, 61):
        for cols in range(1, 61):
            fleet = default_fleet(rows, cols)
            ships, cells = sum(n for _, n in fleet), sum(length * n for length, n in fleet)
            assert fleet[0][0] <= min(MAX_SHIP_LENGTH, max(rows, cols)) and ships <= MAX_FLEET_SHIPS
            check_consistency(Puzzle(rows, cols, (None,) * rows, (None,) * cols, fleet), "rule")
            if rows * cols >= 100:        # a fifth, give or take half a step between pyramids
                assert 0.13 <= cells / (rows * cols) <= 0.27, (rows, cols, fleet)
            if (rows, cols) != (1, 1):              # as a given fleet, it would pass too
                assert checked_request(rows, cols, dict(fleet)) == fleet


def test_a_board_without_a_standard_fleet_is_generated_with_the_rule():
    puzzle = generate(7, 7, seed=1)
    _check(puzzle)
    assert puzzle.fleet == pyramid(3)
    text = dumps(puzzle)                                  # the file states its fleet: no rule is
    assert '"fleet": {"3": 1, "2": 2, "1": 3}' in text      # needed to read it back
    assert loads(text).fleet == pyramid(3)



@pytest.mark.parametrize("seed", [1, 3, 6, 7])
def test_a_whole_sweep_finds_the_same_steps_whatever_the_order(seed):
    """The grader's and the generator's depth-1 sweeps try every cell as ship first: the steps
    of a whole sweep do not depend on the order, with the solution told or not."""
    from solvers.logic import probe
    from solvers.logic.analysis import model_of
    puzzle, solution = hinted_10x10(seed, 3)
    stuck = logic.solve(puzzle, max_level=2)
    assert not stuck.solved
    found = {}
    for ship_first in (False, True):
        for told in (None, solution):
            model = model_of(puzzle.replace(name=f"{ship_first} {told is None}"))   # a model of its own
            ship, water = logic._masks(model, stuck.grid)
            truth = logic._masks(model, told)[0] if told is not None else None
            start = probe.propagate(model, ship, water)
            steps: list = []
            probe.drain(probe.find_contradiction(model, start.ship, start.water, start.places, probe.Clock(),
                                                 ship_first=ship_first, every=steps, truth=truth))
            found[ship_first, told is None] = {(f.ship, f.water) for f in steps}
    assert found[False, True]
    assert len({frozenset(steps) for steps in found.values()}) == 1


def test_a_run_given_what_held_with_more_hints_ends_where_it_ends_alone_with_fewer_trials():
    """What held on a board of a puzzle holds on every board below it of a puzzle with fewer
    hints: a run given those records stops on the same board at the same level, with fewer trials."""
    from pathlib import Path

    from solvers.engine.verdict import unique_solution
    from solvers.logic import deduction as logic

    puzzle = load(Path(__file__).resolve().parents[1] / "levels" / "10x10" / "hard" / "04.bs")
    solution = unique_solution(puzzle)
    full = logic.solve(puzzle, max_level=3, solution=solution)
    assert full.solved and full.held
    alone = given = 0
    for cell in list(puzzle.hints)[:6]:
        fewer = generator.without_hints(puzzle, [cell])
        logic.model_of.cache_clear()             # each run from nothing remembered
        plain = logic.solve(fewer, max_level=3, solution=solution)
        logic.model_of.cache_clear()
        helped = logic.solve(fewer, max_level=3, solution=solution, held=full.held)
        assert (helped.solved, helped.grid, helped.level) == (plain.solved, plain.grid, plain.level)
        alone, given = alone + plain.probes, given + helped.probes
    assert given < alone


def test_a_tight_fleet_that_random_tries_miss_is_laid_by_a_search():
    """2 battleships, 2 cruisers and 2 destroyers on 5x7 (18 of 35 cells): random tries
    almost never lay them, but layouts exist; the search finds one, the same for a seed."""
    fleet = ((4, 2), (3, 2), (2, 2))
    for seed in range(3):
        cells = generator.random_layout(5, 7, fleet, random.Random(seed))
        assert cells == generator.random_layout(5, 7, fleet, random.Random(seed))
        grid = tuple(tuple(Cell.SHIP if (r, c) in cells else Cell.WATER for c in range(7)) for r in range(5))
        rows = [sum((r, c) in cells for c in range(7)) for r in range(5)]
        cols = [sum((r, c) in cells for r in range(5)) for c in range(7)]
        assert rules.is_solved(Puzzle(5, 7, rows, cols, fleet, {}), grid)


# --- the time given shapes no level -------------------------------------------------------------

@pytest.fixture
def clock(monkeypatch):
    """The clock every module reads, moved on by the test: ``clock.step`` seconds at each reading,
    ``clock.jump(s)`` at once."""
    real = time.perf_counter

    class Clock:
        step = 0.0
        ahead = 0.0

        def __call__(self) -> float:
            self.ahead += self.step
            return real() + self.ahead

        def jump(self, seconds: float) -> None:
            self.ahead += seconds

    fake = Clock()
    monkeypatch.setattr(time, "perf_counter", fake)
    return fake


def test_a_clock_running_fast_gives_the_same_levels(clock):
    """An exact count that took longer than five seconds counted as "not shown unique", and the
    verdict's searches took turns by the clock: a slower or busier machine gave the same seed
    another expert level. Every bound that shapes a level is a count of work."""
    asked = [(10, "expert", 0), (10, "expert", 4), (15, "expert", 1), (10, None, 2)]
    calm = [dumps(generate(side, side, difficulty=grade, seed=seed, minimal=grade is None))
            for side, grade, seed in asked]
    clock.step = 0.01                     # each reading 10 ms after the last
    assert [dumps(generate(side, side, difficulty=grade, seed=seed, minimal=grade is None))
            for side, grade, seed in asked] == calm


def test_a_verdict_given_work_is_undecided_past_it_the_same_on_any_clock(clock):
    puzzle = load(Path(__file__).resolve().parents[1] / "levels" / "15x15" / "expert" / "01.bs")
    whole = decide(puzzle, work=10**9)
    assert whole.kind is Kind.UNIQUE and whole.stats["member"] == "forward"
    work = int(whole.stats["nodes"]) + int(whole.stats["probes"])
    short = decide(puzzle, work=work // 2)
    assert short.kind is Kind.UNDECIDED and "gave up after" in short.message
    clock.step = 1.0
    again = decide(puzzle, work=work // 2)
    assert (again.kind, again.solutions, again.stats["nodes"]) == (short.kind, short.solutions, short.stats["nodes"])


def test_a_verdict_given_conflicts_is_undecided_past_them_the_same_on_any_clock(clock):
    puzzle = load(Path(__file__).resolve().parents[1] / "levels" / "15x15" / "expert" / "01.bs")
    whole = decide(puzzle, conflicts=10**9)
    assert whole.kind is Kind.UNIQUE and whole.stats["member"] == "learning"
    conflicts = int(whole.stats["conflicts"])
    assert conflicts > 200
    short = decide(puzzle, conflicts=conflicts // 2)
    assert short.kind is Kind.UNDECIDED and "gave up after" in short.message
    clock.step = 1.0
    again = decide(puzzle, conflicts=conflicts // 2)
    assert (again.kind, again.stats["conflicts"]) == (short.kind, short.stats["conflicts"])


def test_an_expert_hint_the_forward_count_cannot_settle_is_asked_of_clause_learning(monkeypatch):
    """Removing an expert level's hints asked the forward search alone, one count per hint: on
    20x20 a count proving uniqueness took about 29,000 nodes and a second, and one that passed
    COUNT_WORK kept its hint. Clause learning proves those boards in a tenth of the time; the
    forward search within COUNT_FIRST still answers first, so small boards keep their levels."""
    monkeypatch.setattr(generator, "COUNT_WORK", 40)          # the forward search settles next to nothing
    monkeypatch.setattr(generator, "COUNT_FIRST", 40)
    puzzle = generate(15, 15, difficulty="expert", seed=0)
    assert grade(puzzle) == "expert" and decide(puzzle).kind is Kind.UNIQUE
    assert redundant_hints(puzzle) == []          # every removal was settled (the forward search alone: 4 of 9 left)
    stuck = load(Path(__file__).resolve().parents[1] / "levels" / "15x15" / "expert" / "01.bs")
    assert generator._count(stuck, None, lambda: False).kind is Kind.UNDECIDED
    assert generator._removal_count(stuck, None, lambda: False).kind is Kind.UNIQUE


def test_out_of_time_before_any_level_is_finished_gives_none():
    with pytest.raises(generator.GeneratorTimeout, match=r"^no hard 30x30 level finished in 0.2 s$"):
        generate(30, 30, difficulty="hard", timeout=0.2)
    with pytest.raises(generator.GeneratorTimeout, match=r"^no 12x12 level finished in 0 s$"):
        generate(12, 12, timeout=0)


def test_a_layout_the_deadline_cuts_is_dropped_never_handed_over_half_pruned(clock, monkeypatch):
    """Past the deadline, removing hints stops with the hints it has: that level is dropped, and
    the closest level finished before comes back, minimal as asked."""
    first = generate(6, 6, difficulty="expert", seed=3, minimal=True, layouts=1)
    assert first.difficulty != "expert" and redundant_hints(first) == []
    removals = []
    real_remove = generator.remove_hints

    def late(puzzle, level, *rest, **options):
        removals.append(level)
        if len(removals) == 3:             # the time is up at the third removal asked (a layout each)
            clock.jump(10_000)
        return real_remove(puzzle, level, *rest, **options)

    monkeypatch.setattr(generator, "remove_hints", late)
    assert dumps(generate(6, 6, difficulty="expert", seed=3, minimal=True, timeout=1000)) == dumps(first)
    removals[:] = [0, 0]                 # the time is up at the first layout's removal
    with pytest.raises(generator.GeneratorTimeout, match="no 10x10 level finished"):
        generate(10, 10, seed=0, minimal=True, timeout=1000)


@pytest.fixture
def tried(monkeypatch) -> list:
    """One item for each layout the generator lays from now on."""
    laid: list = []
    real_layout = generator.random_layout

    def counted(*args, **options):
        laid.append(1)
        return real_layout(*args, **options)

    monkeypatch.setattr(generator, "random_layout", counted)
    return laid


def test_layouts_bound_the_layouts_tried_and_the_closest_comes_back(tried, monkeypatch):
    monkeypatch.setattr(generator, "PROOF_LAYOUTS", 0)      # (3x3 is proved out of reach at once otherwise)
    puzzle = generate(3, 3, fleet={1: 2}, difficulty="expert", layouts=7)   # always easy: the tallies settle it
    assert len(tried) == 7 and puzzle.difficulty == "easy" == grade(puzzle)


def test_a_grade_every_first_layout_misses_alike_is_out_of_reach_at_once(tried, monkeypatch):
    monkeypatch.setattr(generator, "PROOF_LAYOUTS", 0)      # the rule for boards too large to search whole
    for difficulty in ("medium", "expert"):               # one submarine: its tallies settle it
        tried.clear()
        with pytest.raises(generator.GeneratorOutOfReach, match=(
                rf"^no {difficulty} 6x6 level with the fleet \{{1: 1\}}: its first 1,000 layouts all came "
                r"out easy; a larger board or more ships makes harder levels$")):
            generate(6, 6, fleet={1: 1}, difficulty=difficulty)
        assert len(tried) == generator.REACH_LAYOUTS


def test_a_grade_no_layout_of_a_small_board_gives_is_out_of_reach_at_the_first_miss(tried, capsys):
    """4x4 and 5x5 give easy, medium and hard levels but no expert one: they ran to the timeout
    (120 s), as no count of misses told them from 6x6, which gives one in about 1,000 layouts."""
    import main

    with pytest.raises(generator.GeneratorOutOfReach, match=(
            r"^no expert 4x4 level with the fleet \{2: 1, 1: 2\}: the hard rules finish every one of its 380 "
            r"layouts, whatever hints make it unique; a larger board or more ships makes harder levels$")):
        generate(4, 4, difficulty="expert", seed=5, layouts=50)
    assert len(tried) == 1
    assert main.main(["generate", "--rows", "3", "--difficulty", "hard", "--timeout", "600"]) == 2
    said = capsys.readouterr()
    assert said.out == "" and said.err == ("generate: no hard 3x3 level with the fleet {1: 2}: the medium rules finish "
                                           "every one of its 16 layouts, whatever hints make it unique; a larger "
                                           "board or more ships makes harder levels\n")
    fleet = checked_request(4, 4, None)
    assert generator.proved_out_of_reach(4, 4, fleet, 4, lambda: False) == len(brute.layouts(4, 4, fleet))
    assert generator.proved_out_of_reach(4, 4, fleet, 3, lambda: False) is None      # hard levels come out
    assert generator.proved_out_of_reach(5, 6, checked_request(5, 6, None), 4, lambda: False) is None
    assert generate(4, 4, difficulty="hard", seed=5).difficulty == "hard"
    tried.clear()                          # tallies hidden: other layouts share a puzzle, so no proof is given
    assert generate(4, 4, difficulty="expert", hide_tallies=2, layouts=5).difficulty != "expert"
    assert len(tried) == 5


def test_a_cancel_during_the_proof_is_the_generator_s_cancel():
    """The New puzzle dialog's worker stops on GeneratorCancelled: a cancel heard inside the
    engine's run came out as the engine's own exception."""
    asked = []

    def cancelled() -> bool:
        asked.append(1)
        return len(asked) == 2             # the first question inside the engine's first run

    with pytest.raises(generator.GeneratorCancelled):
        generator.proved_out_of_reach(4, 4, checked_request(4, 4, None), 4, cancelled)


def test_the_hint_sets_the_proof_asks_are_the_minimal_ones_that_make_the_layout_unique():
    fleet = checked_request(4, 4, None)
    cells = [(r, c) for r in range(4) for c in range(4)]
    tallies: dict = {}
    for laid in brute.layouts(4, 4, fleet):
        grid = brute.grid_of(laid, 4, 4)
        tallies.setdefault(ship_counts(grid), []).append(grid)
    assert len(tallies) == 238                       # 380 layouts: 112 alone with their tallies
    shared = [(lines, grids) for lines, grids in tallies.items() if len(grids) > 1][:6]
    assert len(shared) == 6
    for lines, grids in shared:
        solution, others = grids[0], grids[1:]
        apart = [frozenset(cell for cell in cells if hint_at(other, cell) != hint_at(solution, cell))
                 for other in others]
        hint_sets = generator._minimal_hitting_sets(apart, 1000)
        assert hint_sets
        base = Puzzle(4, 4, *lines, fleet, {})
        for chosen in hint_sets:
            puzzle = base.replace(hints={cell: hint_at(solution, cell) for cell in chosen})
            assert brute.solutions(puzzle) == [solution]
            for cell in chosen:
                assert len(brute.solutions(grading.without_hints(puzzle, [cell]))) > 1
    assert generator._minimal_hitting_sets([frozenset({(0, 0), (0, 1)}), frozenset({(0, 1), (1, 1)})], 10) in (
        [frozenset({(0, 1)}), frozenset({(0, 0), (1, 1)})], [frozenset({(0, 0), (1, 1)}), frozenset({(0, 1)})])
    assert generator._minimal_hitting_sets([frozenset({(0, 0), (0, 1)}), frozenset({(1, 0), (1, 1)})], 3) is None


def test_a_board_that_gives_two_grades_is_let_run_on(monkeypatch):
    monkeypatch.setattr(generator, "REACH_LAYOUTS", 20)
    monkeypatch.setattr(generator, "PROOF_LAYOUTS", 0)
    puzzle = generate(4, 4, difficulty="expert", layouts=60)      # easy, medium and hard come out
    assert puzzle.difficulty == "hard"
    assert generate(6, 6, difficulty="expert").difficulty == "expert"   # most 6x6 layouts come out below


def test_the_pack_bounds_its_levels_by_layouts_not_by_time(monkeypatch, tmp_path, capsys):
    """Each pack level had 45 s to land on its grade: the 6x6 expert levels try up to 4,013
    layouts (15 s on a two-core machine), so a slower machine wrote another pack."""
    made = generate(6, 6, difficulty="easy", seed=1)
    asked = []

    def recorded(rows, cols, **options):
        asked.append(options)
        return made.replace(difficulty=options.get("difficulty") or "easy")

    monkeypatch.setattr(generator, "generate", recorded)
    monkeypatch.setattr(generator, "PACK_SIZES", (6,))
    monkeypatch.setattr(generator, "PACK_PER_GRADE", 1)
    monkeypatch.setattr(generator, "EXTRAS", ((6, 6, None, 0),))
    assert len(generator.build_pack(tmp_path)) == 5
    graded, extra = asked[:4], asked[4]
    assert all(options["layouts"] == generator.PACK_LAYOUTS for options in graded)
    assert all(options["timeout"] >= 600 for options in graded) and extra.get("timeout") is None


def test_a_pack_that_fails_on_its_last_level_leaves_the_folder_as_it_was(monkeypatch, tmp_path):
    made = generate(6, 6, difficulty="easy", seed=1)
    monkeypatch.setattr(generator, "generate",
                        lambda rows, cols, **options: made.replace(difficulty=options.get("difficulty") or "easy"))
    monkeypatch.setattr(generator, "PACK_SIZES", (6,))
    monkeypatch.setattr(generator, "PACK_PER_GRADE", 1)
    monkeypatch.setattr(generator, "EXTRAS", ((6, 6, None, 0),))
    (tmp_path / "6x6" / "easy").mkdir(parents=True)
    (tmp_path / "6x6" / "easy" / "01.bs").write_text("the old level")
    (tmp_path / "variants" / "01-6x6.bs").mkdir(parents=True)       # the last level cannot be written
    with pytest.raises(OSError, match="01-6x6.bs: cannot be written"):
        generator.build_pack(tmp_path)
    assert sorted(str(path.relative_to(tmp_path)) for path in tmp_path.rglob("*")) == [
        "6x6", "6x6/easy", "6x6/easy/01.bs", "variants", "variants/01-6x6.bs"]
    assert (tmp_path / "6x6" / "easy" / "01.bs").read_text() == "the old level"


def test_a_cancel_during_the_grade_ends_the_grade(monkeypatch):
    """The New puzzle dialog's Cancel is heard inside the grade, not only after it."""
    from solvers.authoring import generator

    begun, finished = [], []
    real = generator.grade

    def watched(*args, **kwargs):
        begun.append(True)
        finished.append(real(*args, **kwargs))
        return finished[-1]

    monkeypatch.setattr(generator, "grade", watched)
    with pytest.raises(generator.GeneratorCancelled):
        generator.generate(10, 10, difficulty="expert", seed=0, cancelled=lambda: bool(begun))
    assert begun and not finished
