"""The deduction engine: each rule on a hand-made board, soundness on real puzzles, the protocol."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from game import rules
from game.levels import LevelError, iter_corpus, read_corpus
from game.puzzle import Cell, Hint, Move, Puzzle, apply_move, grid_from_strings, initial_grid
from solvers.common import replay
from solvers.engine.verdict import Kind, decide, unique_solution
from solvers.events import Progress, Reason, Result, SetCell, Status
from solvers.logic import deduction as logic

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def corpus_puzzles(name: str, unique_only: bool = True) -> list[tuple[str, Puzzle]]:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus file {name} not present")
    counts = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        counts[record["id"]] = record.get("n_solutions")
    return [(ident, p) for ident, p in read_corpus(path) if not unique_only or counts.get(ident) == 1]


def five_by_five(row_tallies=(3, 0, 2, 0, 1), col_tallies=(1, 1, 2, 1, 1), hints=None) -> Puzzle:
    # Solution: a cruiser across row 1 and three submarines.
    #   .###.
    #   .....
    #   #...#
    #   .....
    #   ..#..
    return Puzzle(5, 5, row_tallies, col_tallies, {3: 1, 1: 3}, hints or {})


def test_tally_met_comes_first_on_an_empty_board():
    step = logic.next_deduction(five_by_five(), initial_grid(five_by_five()))
    assert step.rule == "tally_met"
    assert step.text == "Row 2 has a tally of 0: all its cells are water"
    assert step.moves == tuple(Move(1, c, Cell.WATER) for c in range(5))
    assert step.level == 1


def test_tally_fill():
    puzzle = five_by_five()
    board = grid_from_strings([".???.", ".....", "?????", ".....", "?????"])
    step = logic.next_deduction(puzzle, board)
    assert step.rule == "needs_every_unknown"
    assert step.text == "Row 1 needs 3 more ship cells and has exactly 3 unknown cells left"
    assert {(m.row, m.col, m.value) for m in step.moves} == {(0, c, Cell.SHIP) for c in (1, 2, 3)}


def test_hint_shape_of_a_top_end():
    puzzle = Puzzle(6, 6, (1, 1, 1, 1, 1, 0), (0, 0, 3, 0, 2, 0), {3: 1, 2: 1}, {(0, 2): Hint.TOP})
    step = logic.next_deduction(puzzle, initial_grid(puzzle))
    assert step.rule == "hint_shape"
    assert "top end at row 1, column 3 continues down" in step.text
    # Every ship that can show this piece runs down from it: the cell below is ship, and the
    # cells beside both are water, whichever of the two ships it is.
    beside = {(0, 1), (0, 3), (1, 1), (1, 3), (2, 1), (2, 3)}
    assert set(step.moves) == {Move(1, 2, Cell.SHIP)} | {Move(r, c, Cell.WATER) for r, c in beside}
    assert step.evidence == ((0, 2),)


def test_the_diagonal_rule_names_only_the_ship_cells_it_made_water_around():
    """A ship cell whose diagonals were already water was named too: a trial's first step
    said "the cells diagonal to r1c10, r3c2, r3c3, r5c5, r5c6, r8c1 and 1 more are water" where
    only row 8, column 1 (the cell tried) made any."""
    puzzle = Puzzle(5, 5, (None,) * 5, (None,) * 5, {1: 2})
    board = grid_from_strings([".?.??", "?#???", ".?.??", "?????", "???#?"])
    step = logic.next_deduction(puzzle, board)
    assert step.rule == "diagonals_are_water"
    assert step.text == "Ships never touch, not even diagonally: the cells diagonal to row 5, column 4 are water"
    assert step.evidence == ((4, 3),)


def test_ship_diagonals_and_a_ship_as_long_as_the_longest_missing():
    puzzle = Puzzle(5, 5, (None,) * 5, (None,) * 5, {2: 1, 1: 1})
    board = grid_from_strings(["?????", "?##??", "?????", "?????", "?????"])
    step = logic.next_deduction(puzzle, board)
    assert step.rule == "diagonals_are_water"
    assert step.text == "Ships never touch, not even diagonally: the cells diagonal to row 2, columns 2-3 are water"
    board = grid_from_strings([".....", "?##?.", ".....", "?????", "?????"])
    step = logic.next_deduction(puzzle, board)
    assert step.rule == "ship_complete"
    assert set(step.moves) == {Move(1, 0, Cell.WATER), Move(1, 3, Cell.WATER)}


def test_a_middle_piece_lies_the_only_way_it_can():
    # Water above the middle piece: it lies across, so its left and right are ship.
    puzzle = Puzzle(5, 5, (None,) * 5, (None,) * 5, {3: 1}, {(2, 2): Hint.MIDDLE})
    board = grid_from_strings(["?????", "??.??", "??#??", "?????", "?????"])
    step = logic.next_deduction(puzzle, board)
    assert step.rule == "hint_shape" and step.level == 1
    assert set(step.moves) == {Move(2, 1, Cell.SHIP), Move(2, 3, Cell.SHIP), Move(3, 2, Cell.WATER)}
    assert step.text.startswith("The middle piece at row 3, column 3 cannot lie the other way")
    # Water above and to the left: it can lie neither way, and the glance says nothing of it.
    from solvers.logic.analysis import model_of
    from solvers.logic.steps import settle_steps
    model = model_of(puzzle)
    ship, water = model.shared.masks(grid_from_strings(["?????", "??.??", "?.#??", "?????", "?????"]))
    assert not [f for f in settle_steps(model, ship, water, None, level=1).found if f.rule == "hint_shape"]
    # Nothing decides it yet: no glance says which way (the fleet's reasoning may).
    step = logic.next_deduction(puzzle, grid_from_strings(["?????", "?????", "??#??", "?????", "?????"]), max_depth=0)
    assert step is None or step.rule != "hint_shape"


def test_the_last_ship_of_a_length_covers_the_cells_all_its_places_share():
    puzzle = Puzzle(1, 5, (3,), (None,) * 5, {3: 1})
    step = logic.next_deduction(puzzle, initial_grid(puzzle))
    assert step.rule == "last_ship_of_a_length"
    assert step.moves == (Move(0, 2, Cell.SHIP),)
    assert step.text == ("The cruiser can only lie in row 1, columns 1-3 or in row 1, columns 2-4 or in row 1, "
                         "columns 3-5: row 1, column 3 is ship")


def test_unreachable_cells_are_water():
    puzzle = Puzzle(1, 7, (None,), (None,) * 7, {2: 2})
    step = logic.next_deduction(puzzle, grid_from_strings(["?.?????"]))
    assert step.rule == "uncovered_is_water"
    assert step.moves == (Move(0, 0, Cell.WATER),)
    assert step.text == "No ship still missing (2 destroyers) fits through row 1, column 1: water"


def test_fleet_counting_of_submarines():
    puzzle = Puzzle(3, 3, (None,) * 3, (None,) * 3, {1: 1})
    board = grid_from_strings(["#..", "...", "..?"])
    step = logic.next_deduction(puzzle, board)
    assert step.rule == "uncovered_is_water"
    assert step.text == "The submarine is placed: this single cell is water (row 3, column 3)"


def test_line_fill_sees_every_way_to_fill_a_line():
    # Two destroyers in a row of five with a tally of 4 fit only as "##.##".
    puzzle = Puzzle(1, 5, (4,), (None,) * 5, {2: 2})
    step = logic.next_deduction(puzzle, initial_grid(puzzle))
    assert step.rule == "line_fill"
    assert set(step.moves) == {Move(0, c, Cell.SHIP) for c in (0, 1, 3, 4)} | {Move(0, 2, Cell.WATER)}
    assert step.text.startswith("Every way to fit 4 ship cells into row 1")


def test_a_marked_mistake_is_reported():
    puzzle = five_by_five()
    board = apply_move(initial_grid(puzzle), Move(1, 1, Cell.SHIP))
    step = logic.next_deduction(puzzle, board)
    assert step.rule == "mistake" and step.level == 0
    assert (1, 1) in step.evidence


def _check_run(puzzle: Puzzle, solution) -> Result:
    stream = list(logic.events(puzzle, trace=True))
    result = stream[-1]
    assert isinstance(result, Result)
    assert sum(isinstance(e, Result) for e in stream) == 1
    for event in stream:
        if isinstance(event, SetCell):
            assert event.reason is Reason.FORCED and event.detail
            if solution is not None:
                assert event.value == solution[event.row][event.col], (event, puzzle.name)
    final = replay(initial_grid(puzzle), stream)
    assert tuple(tuple(Cell.WATER if v == Cell.UNKNOWN else v for v in row) for row in final) == result.grid
    return result


def test_events_solve_the_small_corpus_soundly():
    for ident, puzzle in corpus_puzzles("csc384_battle.jsonl") + corpus_puzzles("jolyonb_puzzles.jsonl"):
        solution = grid_from_strings(puzzle.solution) if puzzle.solution else None
        result = _check_run(puzzle, solution)
        assert result.status is Status.SOLVED, ident
        assert rules.is_solved(puzzle, result.grid)
        assert {"seconds", "steps", "propagated", "rules", "deepest", "nodes", "backtracks"} <= set(result.stats)


def test_events_without_trace_send_only_heartbeats_and_a_result():
    _, puzzle = corpus_puzzles("csc384_battle.jsonl")[0]
    stream = list(logic.events(puzzle, trace=False))
    assert all(isinstance(e, (Progress, Result)) for e in stream)
    assert stream[-1].status is Status.SOLVED


def test_stuck_when_the_rules_run_out():
    puzzle = Puzzle(2, 2, (None, None), (None, None), {1: 1})   # four places for one submarine
    result = list(logic.events(puzzle))[-1]
    assert result.status is Status.STUCK
    assert result.grid == initial_grid(puzzle)


def test_no_solution_is_reported():
    puzzle = Puzzle(2, 2, (2, 0), (1, 1), {1: 2})    # two submarines side by side
    result = list(logic.events(puzzle))[-1]
    assert result.status is Status.NO_SOLUTION


# csc384-04-6x6-input_easy1 from the shared corpus: two submarines given side by side. The
# simple rules close the pair into one two-cell ship before anything else notices.
ADJACENT_SUBS = Puzzle(6, 6, (2, 1, 1, 2, 2, 2), (1, 4, 0, 2, 1, 2), {3: 1, 2: 2, 1: 3},
                       {(0, 0): Hint.SUB, (0, 1): Hint.SUB, (1, 4): Hint.SUB, (4, 5): Hint.WATER})


def test_a_ship_closed_against_its_hints_means_no_solution():
    assert unique_solution(ADJACENT_SUBS) is None
    for max_depth in (0, 1, 2):
        result = list(logic.events(ADJACENT_SUBS, max_depth=max_depth))[-1]
        assert result.status is Status.NO_SOLUTION, (max_depth, result.message)
    outcome = logic.solve(ADJACENT_SUBS)
    assert not outcome.solved and outcome.contradiction


def test_the_unsolvable_corpus_puzzles_are_reported_so():
    if not CORPUS.is_dir():
        pytest.skip("the shared corpus is not beside the repository")
    for path in sorted(CORPUS.glob("*.jsonl")):
        counts = {json.loads(line)["id"]: json.loads(line).get("n_solutions")
                  for line in path.read_text().splitlines()}
        for ident, puzzle in iter_corpus(path):
            if counts.get(ident) != 0 or isinstance(puzzle, LevelError):   # the loader refuses some
                continue
            result = list(logic.events(puzzle, trace=False))[-1]
            assert result.status in (Status.NO_SOLUTION, Status.STUCK), (ident, result.message)


def _random_tallies(rng: random.Random, n: int, ship_cells: int) -> tuple:
    counts = [0] * n
    for _ in range(ship_cells):
        counts[rng.randrange(n)] += 1
    return tuple(None if rng.random() < 0.15 else min(t, n) for t in counts)


def test_small_random_puzzles_end_as_the_exact_verdict_allows():
    # Mostly impossible ones: given pieces no ship of the fleet can show, tallies that clash.
    rng = random.Random(0)
    fleets = ({2: 1, 1: 2}, {3: 1, 1: 2}, {3: 1, 2: 1, 1: 1}, {2: 2, 1: 1}, {1: 3})
    for _ in range(400):
        n, fleet = rng.choice((4, 5, 6)), rng.choice(fleets)
        cells = sum(length * count for length, count in fleet.items())
        hints = {(rng.randrange(n), rng.randrange(n)): rng.choice(list(Hint)) for _ in range(rng.randrange(4))}
        row_tallies, col_tallies = _random_tallies(rng, n, cells), _random_tallies(rng, n, cells)
        puzzle = Puzzle(n, n, row_tallies, col_tallies, fleet, hints)
        kind = decide(puzzle).kind
        result = list(logic.events(puzzle, trace=False))[-1]
        allowed = {Kind.IMPOSSIBLE: {Status.NO_SOLUTION, Status.STUCK}, Kind.UNIQUE: {Status.SOLVED, Status.STUCK},
                   Kind.AMBIGUOUS: {Status.STUCK}}[kind]
        assert result.status in allowed, (puzzle, result.message)


def test_a_contradiction_is_explained_as_a_chain():
    for _, puzzle in corpus_puzzles("ist_bimaru_2023.jsonl"):
        outcome = logic.solve(puzzle, max_depth=1)
        if outcome.level == 3:
            break
    else:
        pytest.skip("no depth-1 puzzle found")
    stream = list(logic.events(puzzle, max_depth=1))
    details = [e.detail for e in stream if isinstance(e, SetCell) and e.detail.startswith("If ")]
    assert details and all(". So it is " in d for d in details)
    assert stream[-1].stats["deepest"] == 1
    assert stream[-1].stats["rules"]["contradiction"] >= 1


@pytest.mark.slow
def test_every_unique_small_corpus_puzzle_falls_to_deduction_soundly():
    names = ["csc384_battle.jsonl", "jolyonb_puzzles.jsonl", "swissmag_hubermar.jsonl",
             "ist_bimaru_2023.jsonl", "dsardelic_battleships.jsonl"]
    for name in names:
        for ident, puzzle in corpus_puzzles(name):
            outcome = logic.solve(puzzle)
            assert outcome.solved, ident
            if puzzle.solution:
                assert outcome.grid == grid_from_strings(puzzle.solution), ident


@pytest.mark.slow
def test_rubin_benchmark_is_sound():
    solved = 0
    for ident, puzzle in corpus_puzzles("csplib_prob014_rubin.jsonl")[:40]:
        outcome = logic.solve(puzzle)
        solution = grid_from_strings(puzzle.solution)
        for r, row in enumerate(outcome.grid):
            for c, value in enumerate(row):
                assert value in (Cell.UNKNOWN, solution[r][c]), ident
        solved += outcome.solved
    assert solved >= 30


def test_a_hint_search_gives_up_within_its_time_budget(monkeypatch):
    for _, puzzle in corpus_puzzles("ist_bimaru_2023.jsonl"):
        if logic.solve(puzzle, max_depth=1).level == 3:
            break
    else:
        pytest.skip("no depth-1 puzzle found")
    board = initial_grid(puzzle)
    while True:                                  # play the simple steps up to the first contradiction
        step = logic.next_deduction(puzzle, board)
        if step.level >= 3:
            break
        for move in step.moves:
            board = apply_move(board, move)
    import solvers.logic.probe as probe
    monkeypatch.setattr(probe, "HEARTBEAT_SECONDS", 0.0)   # a heartbeat after every probe
    assert logic.next_deduction(puzzle, board, seconds=0.0) is None
    assert logic.next_deduction(puzzle, board, seconds=60.0) == step


def test_reveal_gives_a_ship_cell_of_the_solution_in_the_fullest_line():
    puzzle = five_by_five(hints={(4, 2): Hint.SUB})
    solution = unique_solution(puzzle)
    assert solution is not None and rules.is_solved(puzzle, solution)
    board = apply_move(initial_grid(puzzle), Move(0, 1, Cell.SHIP))
    step = logic.reveal(puzzle, board, solution)
    assert step.rule == "reveal" and step.level == 5
    (move,) = step.moves
    assert move.value == Cell.SHIP and solution[move.row][move.col] == Cell.SHIP
    assert (move.row, move.col) in {(0, 2), (0, 3)}          # row 1 has the fewest unknowns
    assert "row 1, column" in step.text and "is ship" in step.text
    full = tuple(tuple(row) for row in solution)
    assert logic.reveal(puzzle, full, solution) is None


def test_the_last_resort_places_the_longest_ships_first():
    # rubin-8213 is left with no cell whose trial breaks at depth 2, and no single place
    # either; ruling out the battleship's and cruisers' places one after another does it.
    (puzzle,) = [p for ident, p in corpus_puzzles("csplib_prob014_rubin.jsonl") if ident == "rubin-8213"]
    *_, result = logic.events(puzzle, trace=False)
    assert result.status is Status.SOLVED
    assert rules.is_solved(puzzle, result.grid)
    assert result.grid == grid_from_strings(puzzle.solution)
