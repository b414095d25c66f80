"""The classic backtracking solver: same answers as brute force, judged by game.rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import rules
from game.puzzle import Hint, Puzzle, initial_grid
from solvers import backtracking, forward
from solvers.common import replay, run_to_result
from solvers.events import Result, SetCell, Status
from tests.test_forward import SIX_LAYOUT, brute_force_count, puzzle_from_layout, random_puzzles

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
DEFAULT_SIX = ((3, 1), (2, 2), (1, 3))


def run(puzzle: Puzzle, **options) -> tuple[Result, list]:
    stream = list(backtracking.events(puzzle, **options))
    assert isinstance(stream[-1], Result)
    assert not any(isinstance(event, Result) for event in stream[:-1])
    return stream[-1], stream


def test_small_hand_made_puzzle_is_solved():
    puzzle = puzzle_from_layout(("#.#.", "#...", "...#", "#..."), ((2, 1), (1, 3)))
    result, _ = run(puzzle, trace=False)
    assert result.status is Status.SOLVED
    assert rules.is_solved(puzzle, result.grid)


def test_six_by_six_with_default_fleet_and_shape_hints():
    hints = {(0, 1): Hint.MIDDLE, (2, 5): Hint.TOP, (4, 0): Hint.SUB, (1, 1): Hint.WATER}
    puzzle = puzzle_from_layout(SIX_LAYOUT, DEFAULT_SIX, hints)
    result, _ = run(puzzle, trace=False, limit=100)
    assert result.status is Status.SOLVED
    assert all(rules.is_solved(puzzle, grid) for grid in result.solutions)
    assert len(result.solutions) == forward.count_solutions(puzzle, limit=100)


def test_no_solution():
    puzzle = puzzle_from_layout(("#.#.", "#...", "...#", "#..."), ((2, 1), (1, 3)), {(0, 0): Hint.SUB})
    result, _ = run(puzzle, trace=False, limit=2)
    assert result.status is Status.NO_SOLUTION
    assert result.grid is None


def test_clashing_hints_have_no_solution():
    puzzle = Puzzle(4, 4, (None,) * 4, (None,) * 4, ((2, 1),), {(0, 0): Hint.TOP, (1, 0): Hint.WATER})
    assert run(puzzle, trace=False)[0].status is Status.NO_SOLUTION


@pytest.mark.parametrize("seed", range(3))
def test_counts_agree_with_brute_force(seed):
    for puzzle in random_puzzles(100 + seed, 8):
        expected = brute_force_count(puzzle)
        result, _ = run(puzzle, trace=False, limit=1000)
        assert len(result.solutions) == expected, puzzle
        assert all(rules.is_solved(puzzle, grid) for grid in result.solutions)
        assert result.status is (Status.SOLVED if expected else Status.NO_SOLUTION)


@pytest.mark.parametrize("limit", [1, 2])
def test_replaying_the_trace_gives_the_final_board(limit):
    # Unknown tallies leave several answers, so the search has to go back and forth.
    puzzle = puzzle_from_layout(SIX_LAYOUT, DEFAULT_SIX, {(2, 2): Hint.LEFT}, hide={("row", 2), ("col", 2)})
    result, stream = run(puzzle, trace=True, limit=limit)
    assert result.status is Status.SOLVED
    assert len(result.solutions) == limit
    assert replay(initial_grid(puzzle), stream) == result.grid
    reasons = {event.reason.value for event in stream if isinstance(event, SetCell)}
    assert {"guess", "backtrack", "forced"} <= reasons


def test_stats_are_consistent():
    puzzle = puzzle_from_layout(SIX_LAYOUT, DEFAULT_SIX)
    result, stream = run(puzzle, trace=False, limit=2)
    assert {"seconds", "nodes", "backtracks"} <= set(result.stats)
    assert 0 <= result.stats["backtracks"] <= result.stats["nodes"]
    assert not any(isinstance(event, SetCell) for event in stream)


def test_a_csc384_puzzle_from_the_corpus():
    path = CORPUS / "csc384_battle.jsonl"
    if not path.exists():
        pytest.skip("corpus folder not present")
    from game.levels import read_corpus
    for _, puzzle in list(read_corpus(path))[:2]:
        result = run_to_result(backtracking.events(puzzle, trace=False), timeout=20)
        assert result.status is Status.SOLVED
        assert rules.is_solved(puzzle, result.grid)
