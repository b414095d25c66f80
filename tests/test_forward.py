"""The forward-checking solver: answers judged by game.rules, counts checked by brute force."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from game import rules
from game.puzzle import Cell, Hint, Puzzle, grid_from_strings, initial_grid
from solvers.common import replay, run_to_result
from solvers.engine.verdict import Kind, decide
from solvers.events import Found, Progress, Result, SetCell, Status
from solvers.search import forward
from tests import brute

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"

# A 6x6 layout with the default fleet (cruiser, 2 destroyers, 3 submarines).
SIX_LAYOUT = (
    "###..#",
    "......",
    "#.##.#",
    ".....#",
    "#.....",
    "......",
)


def puzzle_from_layout(layout: tuple[str, ...], fleet, hints=None, hide=()) -> Puzzle:
    """A puzzle whose tallies are those of ``layout``; lines listed in ``hide`` get unknown tallies."""
    rows, cols = len(layout), len(layout[0])
    row_tallies = [None if ("row", r) in hide else layout[r].count("#") for r in range(rows)]
    col_tallies = [None if ("col", c) in hide else sum(line[c] == "#" for line in layout) for c in range(cols)]
    return Puzzle(rows, cols, row_tallies, col_tallies, fleet, hints or {})


# -- puzzles around random layouts (tests.brute lays them and counts the solutions) ----------

def hint_for(layout: frozenset, cell: tuple[int, int], rng: random.Random) -> Hint:
    """The true hint of a cell of a layout (sometimes the shapeless ``ship``)."""
    if cell not in layout:
        return Hint.WATER
    if rng.random() < 0.3:
        return Hint.SHIP
    r, c = cell
    up, down, left, right = ((r - 1, c) in layout, (r + 1, c) in layout, (r, c - 1) in layout, (r, c + 1) in layout)
    if (up and down) or (left and right):
        return Hint.MIDDLE
    if down:
        return Hint.TOP
    if up:
        return Hint.BOTTOM
    if right:
        return Hint.LEFT
    if left:
        return Hint.RIGHT
    return Hint.SUB


def puzzle_around(layout, rows: int, cols: int, fleet, rng: random.Random) -> Puzzle:
    """The puzzle of a layout with up to two tallies hidden and up to two true hints."""
    text = tuple("".join("#" if (r, c) in layout else "." for c in range(cols)) for r in range(rows))
    hide = {(rng.choice(("row", "col")), rng.randrange(min(rows, cols))) for _ in range(rng.randrange(3))}
    hints = {}
    for _ in range(rng.randrange(3)):
        cell = (rng.randrange(rows), rng.randrange(cols))
        hints[cell] = hint_for(layout, cell, rng)
    return puzzle_from_layout(text, fleet, hints, hide)


def random_puzzles(seed: int, count: int):
    """Small puzzles around random layouts: some tallies unknown, a few true hints, some broken tallies."""
    rng = random.Random(seed)
    shapes = [(4, 4, ((2, 1), (1, 2))), (5, 5, ((3, 1), (2, 1), (1, 2))), (4, 5, ((2, 2), (1, 2)))]
    for _ in range(count):
        rows, cols, fleet = rng.choice(shapes)
        layouts = brute.layouts(rows, cols, fleet)
        puzzle = puzzle_around(rng.choice(layouts), rows, cols, fleet, rng)
        if rng.random() < 0.2:                  # a wrong tally: often no solution at all
            tallies = list(puzzle.row_tallies)
            index = rng.randrange(rows)
            tallies[index] = (tallies[index] or 0) + 1
            puzzle = puzzle.replace(row_tallies=tuple(tallies))
        yield puzzle


def run(puzzle: Puzzle, **options) -> tuple[Result, list]:
    stream = list(forward.events(puzzle, **options))
    assert isinstance(stream[-1], Result)
    assert not any(isinstance(event, Result) for event in stream[:-1])
    return stream[-1], stream


# -- tests ----------------------------------------------------------------------------------------

def test_a_probe_placing_the_last_ship_still_holds_the_tallies():
    """The root's probes leave the coverage rule out only while ships are left to place. Here
    a probe places the last ship with row 3 a ship cell short of its tally, and no ship can
    cover the cells left there: the rule must still run, or the probe would count that board
    as a solution."""
    puzzle = Puzzle(5, 5, (4, 0, 2, 1, None), (3, 1, 1, None, 2), ((3, 1), (2, 1), (1, 2)))
    result = run_to_result(forward.events(puzzle, trace=False, limit=50))
    assert result.status is Status.SOLVED
    assert len(result.solutions) == brute.count(puzzle) == 1


def test_small_hand_made_puzzle_is_solved():
    layout = ("#.#.", "#...", "...#", "#...")
    puzzle = puzzle_from_layout(layout, ((2, 1), (1, 3)))
    result, _ = run(puzzle, trace=False)
    assert result.status is Status.SOLVED
    assert rules.is_solved(puzzle, result.grid)


def test_six_by_six_with_default_fleet_and_hints():
    puzzle = puzzle_from_layout(SIX_LAYOUT, ((3, 1), (2, 2), (1, 3)), {(0, 0): Hint.LEFT, (3, 5): Hint.BOTTOM})
    result, _ = run(puzzle, trace=False, limit=2)
    assert result.status is Status.SOLVED
    assert all(rules.is_solved(puzzle, grid) for grid in result.solutions)
    assert len(result.solutions) == 1


def test_unknown_tallies_and_shapeless_ship_hints():
    hide = {("row", 1), ("col", 4)}
    puzzle = puzzle_from_layout(SIX_LAYOUT, ((3, 1), (2, 2), (1, 3)), {(2, 2): Hint.SHIP}, hide)
    result, _ = run(puzzle, trace=False, limit=1000)
    assert result.status is Status.SOLVED
    assert all(rules.is_solved(puzzle, grid) for grid in result.solutions)
    assert len(set(result.solutions)) == len(result.solutions) > 1
    from solvers.search import backtracking
    expected = run_to_result(backtracking.events(puzzle, trace=False, limit=1000)).solutions
    assert sorted(expected) == sorted(result.solutions)      # the same solutions, found in another order


def test_no_solution():
    layout = ("#.#.", "#...", "...#", "#...")
    puzzle = puzzle_from_layout(layout, ((2, 1), (1, 3)), {(0, 0): Hint.SUB})
    result, _ = run(puzzle, trace=False, limit=2)
    assert result.status is Status.NO_SOLUTION
    assert result.solutions == ()
    assert decide(puzzle).kind is Kind.IMPOSSIBLE
    assert brute.count(puzzle) == 0


def test_tallies_that_cannot_add_up_to_the_fleet():
    puzzle = Puzzle(4, 4, (2, 1, 1, 1), (3, 0, 1, 1), ((2, 1), (1, 3)))      # rows 5, columns 5, fleet 5
    assert len(decide(puzzle).solutions) == min(2, brute.count(puzzle))
    wrong = puzzle.replace(col_tallies=(3, 0, 1, 2))                        # columns add up to 6
    result, _ = run(wrong, trace=False)
    assert result.status is Status.NO_SOLUTION and result.stats["nodes"] == 0


def test_ship_longer_than_the_board_has_no_solution():
    puzzle = Puzzle(3, 3, (None,) * 3, (None,) * 3, ((4, 1),))
    assert decide(puzzle).kind is Kind.IMPOSSIBLE


@pytest.mark.parametrize("seed, options", [(0, {}), (1, {}), (2, {"shave_depth": -1}),
                                           (3, {"restarts": True, "shave_depth": 1})])
def test_counts_agree_with_brute_force(seed, options):
    for puzzle in random_puzzles(seed, 8):
        expected = brute.count(puzzle)
        result, stream = run(puzzle, trace=False, limit=1000, **options)
        assert len(result.solutions) == expected, puzzle
        # each solution is announced once, as it is met, in the result's order
        assert [event.grid for event in stream if isinstance(event, Found)] == list(result.solutions)
        assert all(rules.is_solved(puzzle, grid) for grid in result.solutions)
        assert len(set(result.solutions)) == len(result.solutions)
        assert result.status is (Status.SOLVED if expected else Status.NO_SOLUTION)


@pytest.mark.parametrize("limit", [1, 2])
def test_replaying_the_trace_gives_the_final_board(limit):
    puzzle = puzzle_from_layout(SIX_LAYOUT, ((3, 1), (2, 2), (1, 3)))
    result, stream = run(puzzle, trace=True, limit=limit)
    assert result.status is Status.SOLVED
    assert replay(initial_grid(puzzle), stream) == result.grid
    moves = [event for event in stream if isinstance(event, SetCell)]
    assert moves and all(event.reason.value in ("forced", "guess", "backtrack", "fill") for event in moves)
    assert all(event.detail for event in moves)
    assert all(event.depth >= 0 for event in moves)


def test_traced_moves_carry_the_counts_so_far():
    """Its counts reached a watcher only in heartbeats (every 256 nodes or 20 ms): watched
    move by move, the panel said "-" for them; now each move says them as of itself."""
    puzzle = puzzle_from_layout(SIX_LAYOUT, ((3, 1), (2, 2), (1, 3)), hide={("row", 0), ("col", 0), ("row", 2)})
    result, stream = run(puzzle, trace=True, limit=1000, shave_depth=-1)
    keys = ("nodes", "backtracks", "propagated")
    said = [tuple(event.stats[key] for key in keys) for event in stream if isinstance(event, SetCell)]
    assert not any(isinstance(event, Progress) for event in stream)       # no heartbeat said them
    for key in range(len(keys)):
        column = [counts[key] for counts in said]
        assert column == sorted(column) and 0 < column[-1] <= result.stats[keys[key]]
    assert said[0][2] > 0                        # the root's deductions are counted as they are shown


def test_trace_replays_through_backtracks():
    # With unknown tallies the search must guess and undo; the replay still ends on the
    # answer, and the quiet run finds the same solutions. (The limit is above the count, so
    # the whole tree is searched, not only the bands around the first solution.)
    puzzle = puzzle_from_layout(SIX_LAYOUT, ((3, 1), (2, 2), (1, 3)), hide={("row", 0), ("col", 0), ("row", 2)})
    for shave_depth in (-1, None):
        result, stream = run(puzzle, trace=True, limit=1000, shave_depth=shave_depth)
        reasons = {event.reason.value for event in stream if isinstance(event, SetCell)}
        assert shave_depth is not None or {"guess", "backtrack"} <= reasons
        assert replay(initial_grid(puzzle), stream) == result.grid
        quiet, _ = run(puzzle, trace=False, limit=1000, shave_depth=shave_depth)
        assert quiet.solutions == result.solutions


@pytest.mark.parametrize("name", ["10x10/expert/07.bs", "15x15/expert/04.bs", "8x8/hard/02.bs"])
def test_a_recorded_search_takes_the_same_tree_as_a_quiet_one(name):
    """The trace only records: the same nodes, probes, backtracks and solutions with it or without."""
    from game import levels

    puzzle = levels.load(Path(__file__).resolve().parents[1] / "levels" / name)
    runs = [run(puzzle, trace=trace, limit=2)[0] for trace in (False, True)]
    quiet, recorded = ((r.solutions, r.stats["nodes"], r.stats["probes"], r.stats["backtracks"]) for r in runs)
    assert quiet == recorded and quiet[0]


def test_stats_are_consistent():
    puzzle = puzzle_from_layout(SIX_LAYOUT, ((3, 1), (2, 2), (1, 3)), hide={("row", 0), ("col", 0)})
    result, stream = run(puzzle, trace=False, limit=2)
    stats = result.stats
    for key in ("seconds", "nodes", "backtracks", "propagated", "max_depth"):
        assert key in stats
    assert 0 <= stats["backtracks"] <= stats["nodes"]
    assert stats["solutions"] == len(result.solutions)
    assert not any(isinstance(event, SetCell) for event in stream)     # quiet means quiet


def test_heartbeats_let_a_consumer_stop_a_long_run():
    # A 15x15 board with no hints and a large fleet has a huge search space.
    puzzle = Puzzle(15, 15, (None,) * 15, (None,) * 15, ((5, 1), (4, 2), (3, 3), (2, 4), (1, 5)))
    # The solver's own work between two events, as this thread's CPU time: a loaded machine
    # stretches the wall time between them (0.31 s once beside other runs), not the work.
    stream = forward.events(puzzle, trace=False, limit=10**9)
    start = time.thread_time()
    gaps = []
    last = start
    for event in stream:
        now = time.thread_time()
        gaps.append(now - last)
        last = now
        if isinstance(event, Progress) and now - start > 0.3:
            break
    stream.close()
    assert max(gaps) < 0.25


def test_corpus_sample_is_unique():
    path = CORPUS / "csplib_prob014_rubin.jsonl"
    if not path.exists():
        pytest.skip("corpus folder not present")
    from game.levels import read_corpus
    for _, puzzle in list(read_corpus(path))[:3]:
        result = run_to_result(forward.events(puzzle, trace=False, limit=2))
        assert result.status is Status.SOLVED and len(result.solutions) == 1
        assert rules.is_solved(puzzle, result.grid)
        assert result.grid == grid_from_strings(puzzle.solution)


def puzzle_from_record(record: dict) -> Puzzle:
    """A corpus line as a Puzzle, without the level loader's consistency checks: the solver
    must also answer "no solution" for tallies that cannot add up."""
    return Puzzle(record["rows"], record["cols"], record["row_tallies"], record["col_tallies"],
                  {int(length): count for length, count in record["fleet"].items()},
                  {(r, c): Hint(kind) for r, c, kind in record["hints"]})


@pytest.mark.slow
def test_whole_corpus_counts_agree():
    if not CORPUS.exists():
        pytest.skip("corpus folder not present")
    wrong, slow = [], []
    for path in sorted(CORPUS.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            record = json.loads(line)
            ident, puzzle = record["id"], puzzle_from_record(record)
            start = time.perf_counter()
            result = run_to_result(forward.events(puzzle, trace=False, limit=2), timeout=20)
            if result.status is Status.TIMEOUT:
                slow.append(ident)
                continue
            count = len(result.solutions)
            assert result.status in (Status.SOLVED, Status.NO_SOLUTION), (ident, result.message)
            if count != record["n_solutions"]:
                wrong.append((ident, count, record["n_solutions"]))
            if time.perf_counter() - start > 2:
                slow.append(ident)
    assert not wrong
    print("over 2 s:", slow)


@pytest.mark.slow
def test_exact_counts_of_dsardelic():
    path = CORPUS / "dsardelic_battleships.jsonl"
    if not path.exists():
        pytest.skip("corpus folder not present")
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        ident, puzzle, wanted = record["id"], puzzle_from_record(record), record.get("source_solution_count")
        if wanted is None:
            continue
        result = run_to_result(forward.events(puzzle, trace=False, limit=10_000), timeout=120)
        assert len(result.solutions) == wanted, ident
        assert all(rules.is_solved(puzzle, grid) for grid in result.solutions)


def test_restarts_count_every_solution_once(monkeypatch):
    monkeypatch.setattr(forward, "RESTART_FIRST_BUDGET", 2)
    restarted = 0
    for puzzle in random_puzzles(7, 8):
        result, stream = run(puzzle, trace=True, limit=1000, restarts=True, shave_depth=-1)
        assert len(result.solutions) == brute.count(puzzle)
        if result.solutions:
            assert replay(initial_grid(puzzle), stream) == result.grid
        restarted += result.stats["restarts"]
    assert restarted > 0


@pytest.mark.parametrize("seed", [11, 12])
def test_the_second_solution_near_the_first_is_a_true_one(seed, monkeypatch):
    # limit=2 is what proves uniqueness: after the first solution the bands around it are
    # searched first (here however quickly the first one came). Their answers must be real,
    # distinct solutions, and a board with one solution must still come out unique.
    monkeypatch.setattr(forward, "NEAR_AFTER_NODES", 0)
    searched = 0
    for puzzle in random_puzzles(seed, 12):
        expected = min(brute.count(puzzle), 2)
        result, _ = run(puzzle, trace=False, limit=2, shave_depth=-1)
        assert len(result.solutions) == expected, puzzle
        assert all(rules.is_solved(puzzle, grid) for grid in result.solutions)
        assert len(set(result.solutions)) == len(result.solutions)
        searched += result.stats["bands"]
    assert searched > 0


def test_bands_find_the_second_solution_of_an_open_board(monkeypatch):
    monkeypatch.setattr(forward, "NEAR_AFTER_NODES", 0)
    # Four submarines on a 5x5 board with its tallies: many solutions, and swapping two of
    # them is a change inside a band of two rows.
    layout = ("#.#..", ".....", "....#", "#....", "..#..")
    puzzle = puzzle_from_layout(layout, ((1, 5),))
    result, _ = run(puzzle, trace=False, limit=2, shave_depth=-1)
    assert len(result.solutions) == 2 and result.stats["bands"] >= 1
    first, second = ({(r, c) for r, row in enumerate(grid) for c, cell in enumerate(row) if cell is Cell.SHIP}
                     for grid in result.solutions)
    changed = first ^ second
    rows = {r for r, _ in changed}
    cols = {c for _, c in changed}
    assert max(rows) - min(rows) < max(forward.NEAR_WIDTHS) or max(cols) - min(cols) < max(forward.NEAR_WIDTHS)


def test_a_failed_propagation_names_the_line_that_failed():
    # The conflict weights of the branching rule come from here.
    from solvers.propagation.model import compile_puzzle
    from solvers.propagation.rules import propagate
    puzzle = Puzzle(4, 4, (0, 2, 1, 1), (1, 1, 1, 1), ((2, 1), (1, 2)))
    model = compile_puzzle(puzzle)
    blame: list = []
    assert propagate(model, model.start, ship=model.geo.bit(0, 0), blame=blame) is None
    assert blame == [("row", 0)]                       # a ship in a row whose tally is 0
    blame.clear()
    assert propagate(model, model.start, all_lines=True, blame=blame) is not None
    assert blame == []                                 # no failure, no blame


def test_a_known_solution_is_counted_and_its_bands_searched_first(monkeypatch):
    # A solution found elsewhere (the genetic algorithm, in the portfolio) counts as found and
    # the bands around it are searched before the tree. Their budget is counted in the same
    # units as the work limit (nodes + probes), so probing at the root cannot use it up.
    layout = ("#.#..", ".....", "....#", "#....", "..#..")
    puzzle = puzzle_from_layout(layout, ((1, 5),))
    known = grid_from_strings(layout)
    monkeypatch.setattr(forward, "NEAR_KNOWN_WORK", 5)
    found_near = []
    original = forward._Search._near

    def near(self, solution, work=None):
        yield from original(self, solution, work)
        found_near.append(len(self.solutions))

    monkeypatch.setattr(forward._Search, "_near", near)
    # Probing every length at the root (by default a fleet of submarines would get none).
    result, _ = run(puzzle, trace=False, limit=2, known=[known], shave_depth=0)
    assert result.stats["probes"] > forward.NEAR_KNOWN_WORK      # the root probing did happen
    assert found_near == [2]
    assert result.solutions[0] == known and len(set(result.solutions)) == 2
    assert all(rules.is_solved(puzzle, grid) for grid in result.solutions)


@pytest.mark.parametrize("seed", [21, 22])
def test_known_solutions_leave_the_count_exact(seed):
    rng = random.Random(seed)
    for puzzle in random_puzzles(seed, 10):
        truth = brute.count(puzzle)
        found = run(puzzle, trace=False, limit=1000)[0].solutions
        if not found:
            continue
        known = rng.sample(found, min(len(found), rng.choice((1, 2))))
        result, _ = run(puzzle, trace=False, limit=1000, known=known)
        assert len(result.solutions) == truth
        assert set(known) <= set(result.solutions)


def test_a_known_solution_that_breaks_the_rules_is_refused():
    layout = ("#.#..", ".....", "....#", "#....", "..#..")
    puzzle = puzzle_from_layout(layout, ((1, 5),))
    wrong = grid_from_strings(("##...", ".....", "....#", "#....", "..#.."))
    with pytest.raises(ValueError, match="known solution"):
        run(puzzle, trace=False, limit=2, known=[wrong])


def test_water_first_is_the_same_tree_in_another_order():
    for puzzle in random_puzzles(31, 10):
        plain = run(puzzle, trace=False, limit=1000)[0]
        water = run(puzzle, trace=False, limit=1000, water_first=True)[0]
        assert set(plain.solutions) == set(water.solutions)
        assert len(water.solutions) == brute.count(puzzle)


# -- mending sketches (the search as a repair tool) ---------------------------------------------

MENDED_LAYOUT = ("..#..#.#",
                 "..#..#..",
                 "#....#.#",
                 "#.......",
                 "#..#..##",
                 "#..#....",
                 "...#.#.#",
                 ".#.....#")
MENDED_FLEET = ((4, 1), (3, 2), (2, 3), (1, 4))
MOVED = MENDED_LAYOUT[:7] + ("#......#",)      # the submarine of the last row one column left


def test_the_judge_says_which_lines_a_sketch_breaks():
    puzzle = puzzle_from_layout(MENDED_LAYOUT, MENDED_FLEET)
    assert forward.broken_lines(puzzle, grid_from_strings(MENDED_LAYOUT)) == (set(), set())
    assert forward.broken_lines(puzzle, grid_from_strings(MOVED)) == (set(), {0, 1})
    touching = MENDED_LAYOUT[:6] + ("#..#.#.#", "#......#")   # the submarine under the carrier's foot
    rows, cols = forward.broken_lines(puzzle, grid_from_strings(touching))
    assert {5, 6, 7} <= rows and {0, 1} <= cols


def test_a_sketch_is_mended_where_it_breaks_and_left_alone_elsewhere():
    puzzle = puzzle_from_layout(MENDED_LAYOUT, MENDED_FLEET)
    sketch = grid_from_strings(MOVED)
    repair = forward.Repair(puzzle)
    mended = run_to_value(repair.mend(sketch))
    assert mended is not None and rules.is_solved(puzzle, mended)
    # Columns 0 and 1 break; at most three more on each side are freed: columns 5 to 7 stay
    # as the sketch has them.
    assert all(mended[r][c] == sketch[r][c] for r in range(8) for c in (5, 6, 7))
    assert repair.stats["bands"] >= 1


def test_mending_tries_the_sketchs_own_choices_first(monkeypatch):
    # No tallies: the freed lines have many solutions, and the sketch's own ships are kept
    # where they can be (the submarine of the last row, moved to touch two ships, must move).
    hidden = tuple(("row", r) for r in range(8)) + tuple(("col", c) for c in range(8))
    puzzle = puzzle_from_layout(MENDED_LAYOUT, MENDED_FLEET, hide=hidden)
    sketch = grid_from_strings(MENDED_LAYOUT[:7] + ("....#..#",))

    def changed() -> int:
        mended = run_to_value(forward.Repair(puzzle).mend(sketch))
        assert mended is not None and rules.is_solved(puzzle, mended)
        return sum(mended[r][c] != sketch[r][c] for r in range(8) for c in range(8))

    guided = changed()
    monkeypatch.setattr(forward._Search, "_off_guide", lambda self, branch: False)
    assert guided < changed()


def test_a_sketch_broken_everywhere_is_not_searched_whole():
    puzzle = puzzle_from_layout(MENDED_LAYOUT, MENDED_FLEET)
    repair = forward.Repair(puzzle)
    assert run_to_value(repair.mend(grid_from_strings(("........",) * 8))) is None   # every line short
    assert repair.stats["bands"] == 0 and repair.stats["nodes"] == 0


def run_to_value(generator):
    """Drain a generator of events and return its value."""
    while True:
        try:
            next(generator)
        except StopIteration as stop:
            return stop.value


# -- giant boards: ships placed longest first ---------------------------------------------------

@pytest.mark.parametrize("seed", [31, 32])
def test_ships_placed_longest_first_reach_every_solution_once(seed, monkeypatch):
    # Every board with a tally counts as a giant here. Each branch rules out the placements
    # tried before it, so one run without restarts reaches each solution exactly once.
    monkeypatch.setattr(forward, "GIANT_PLACEMENTS", 0)
    monkeypatch.setattr(forward, "GIANT_RESTART_UNIT", 10**9)
    reached: list[int] = []
    record = forward._Search._record
    monkeypatch.setattr(forward._Search, "_record", lambda search, ship: (reached.append(ship), record(search, ship)))
    for puzzle in random_puzzles(seed, 8):
        reached.clear()
        result, stream = run(puzzle, trace=True, limit=1000)
        assert len(reached) == len(result.solutions) == brute.count(puzzle), puzzle
        assert result.stats["probes"] == 0 and result.stats["restarts"] == 0
        if result.solutions:
            assert replay(initial_grid(puzzle), stream) == result.grid


@pytest.mark.parametrize("seed", [33, 34])
def test_ships_placed_longest_first_with_restarts_count_every_solution_once(seed, monkeypatch):
    # Restarts after 2 x Luby's sequence of nodes, with shaken orders: the count stays exact.
    monkeypatch.setattr(forward, "GIANT_PLACEMENTS", 0)
    monkeypatch.setattr(forward, "GIANT_RESTART_UNIT", 2)
    restarted = 0
    for puzzle in random_puzzles(seed, 8):
        result, _ = run(puzzle, trace=False, limit=1000)
        assert len(result.solutions) == brute.count(puzzle), puzzle
        assert len(set(result.solutions)) == len(result.solutions)
        restarted += result.stats["restarts"]
    assert restarted > 0


def test_the_ship_order_takes_the_lines_that_need_the_most_first():
    from solvers.propagation.model import compile_puzzle
    from solvers.propagation.rules import root_state
    from solvers.search.giant import ShipOrder

    # Row 1 needs 3 of its 6 cells, column 4 two of its 5: the cruisers along row 1 come first.
    puzzle = Puzzle(5, 6, (0, 3, 0, 1, 1), (0, 1, 1, 1, 2, 0), ((3, 1), (1, 2)))
    model = compile_puzzle(puzzle)
    state = root_state(model)
    order = ShipOrder(model).order(state, 0)
    geo = model.geo
    assert set(order) == set(forward.bit_indices(state.alive & geo.length_sets[0]))
    best = geo.placements[order[0]]
    assert (best.row, best.horizontal) == (1, True)


def test_the_60x60_giant_at_the_limits_is_solved_in_one_dive():
    from game import levels

    puzzle = levels.load(Path(__file__).resolve().parents[1] / "docs" / "bench" / "giants" / "giant-60-1.bs")
    assert (puzzle.rows, puzzle.cols, puzzle.ship_count) == (60, 60, 200)
    result, _ = run(puzzle, trace=False, limit=1)
    assert result.status is Status.SOLVED and rules.is_solved(puzzle, result.grid)
    assert result.stats["probes"] == 0 and result.stats["nodes"] < 1_000


def test_small_boards_let_the_weights_choose_the_cells_and_probe_the_longest_ships():
    """A small board counts an unknown cell's branches CELL_EXTRA_SMALL more and probes only
    ships of SHAVE_SHORTEST_SMALL cells or more at the root; a dense board without hints keeps
    1 (the water branch) and probes every length."""
    def configured(puzzle: Puzzle) -> tuple[int, int]:
        search = forward._Search(puzzle, False, 1, None, False, random.Random(0))
        list(search._start())
        return search.cell_extra, search.shave_shortest

    small = puzzle_from_layout(SIX_LAYOUT, ((3, 1), (2, 2), (1, 3)))
    dense = puzzle_from_layout(("##.#", "....", "#..#", "...."), ((2, 1), (1, 3)))   # 5 ship cells of 16
    assert configured(small) == (forward.CELL_EXTRA_SMALL, forward.SHAVE_SHORTEST_SMALL)
    assert configured(dense) == (1, 1)


def test_the_chosen_cell_is_the_first_with_the_fewest_branches_per_weight():
    """Random states and conflict weights on one search, its table of rows' cells shared
    throughout: the cell chosen is, by the definition, the first unknown cell (in bit order)
    whose (covering placements + cell_extra) / (row weight + column weight) is least, when no
    segment or last ship does better (cell_extra 1, as on large boards, or as on small ones)."""
    from game.bitsets import bits
    from solvers.propagation.model import State

    rng = random.Random(5)
    puzzle = Puzzle(7, 9, [2, 3, 1, 4, 2, 3, 1], [3, 1, 2, 2, 0, 1, 3, 2, 2], {4: 1, 3: 1, 2: 2, 1: 2})
    search = forward._Search(puzzle, False, 1, -1, False, random.Random(0))
    geo = search.model.geo
    checked = 0
    for _ in range(400):
        cells = [(r, c) for r in range(geo.rows) for c in range(geo.cols)]
        ship = geo.mask_of(cell for cell in cells if rng.random() < 0.1)
        water = geo.mask_of(cell for cell in cells if rng.random() < 0.4) & ~ship
        alive = search.model.start.alive & rng.getrandbits(len(geo.placements))
        search.row_weight = [rng.randint(1, 4) for _ in range(geo.rows)]
        search.col_weight = [rng.randint(1, 4) for _ in range(geo.cols)]
        search.cell_extra = extra = rng.choice((1, forward.CELL_EXTRA_SMALL))
        state = State(ship, water, ship, alive, (0, 0, 0, 0))   # ship cells placed: no segments
        best, best_score, best_cell = 0, float("inf"), 0
        for i in bits(state.unknown(geo)):
            r, c = geo.coord(i)
            over = alive & geo.covering[i]
            score = (over.bit_count() + extra) / (search.row_weight[r] + search.col_weight[c])
            if score < best_score:
                best, best_score, best_cell = over, score, 1 << i
        branches = search._branches(state)
        if best_cell:
            assert branches[-1][:3] == (0, best_cell, ())
            assert [b[2][0] for b in branches[:-1]] == list(bits(best))
            checked += 1
        else:
            assert branches == []
    assert checked > 300


def test_every_guess_in_force_has_its_event_so_depth_counts_them():
    # A guess that set no new cell (a segment taken as one of its places) had no event, so the
    # trace's next guess came two deeper than the guesses it showed ("Guesses in force: 1" with
    # the item numbered 2). Each guess is one deeper than the guesses in force before it.
    from game.levels import load
    from solvers.events import Reason

    level = Path(__file__).resolve().parents[1] / "levels" / "10x10" / "hard" / "01.bs"
    in_force, guesses = 0, 0
    for event in forward.events(load(level), trace=True):
        if isinstance(event, SetCell) and event.reason is Reason.BACKTRACK:
            in_force = event.depth
        elif isinstance(event, SetCell) and event.reason is Reason.GUESS:
            assert event.depth in (in_force, in_force + 1), (event, in_force)
            in_force, guesses = event.depth, guesses + 1
    assert guesses
